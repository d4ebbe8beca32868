"""The base of gcrylike's copies of PyNaCl's ``SecretBox`` and ``Aead``:
what PyNaCl's users and tests rely on beyond the bytes (``encoder=`` on the
key and the messages, ``bytes(box)``, its error messages, forgeries that are
also ``nacl.exceptions.CryptoError``)."""

from __future__ import annotations

import os
from typing import Any, NoReturn

from ._buffers import as_bytes
from ._errors import ErrorCode, InvalidIVLength, InvalidKeyLength, InvalidType
from ._nacl_message import NONCE_SIZE, EncryptedMessage, check_encoder, message
from ._sealing import SealingHandle
from ._typing import BytesLike, Encoder


class NaclHandle(SealingHandle):
    """Subclasses name their spec (``_ALGORITHM``, ``_KIND``,
    ``_HOOK_KIND``) and define ``encrypt``/``decrypt`` with :meth:`_sealed`
    and :meth:`_parts`.

    As in PyNaCl, the object keeps its key as Python bytes for
    ``bytes(box)``: a copy that :meth:`close` drops but cannot wipe (the
    C context's copy is wiped)."""

    __slots__ = ("_key",)
    _FORGERY = "nacl"  # PyNaCl's class names: forgeries are nacl's CryptoError too

    KEY_SIZE = 32
    NONCE_SIZE = NONCE_SIZE
    MACBYTES = 16
    #: The longest message (libsodium's ``*_MESSAGEBYTES_MAX``, as PyNaCl).
    MESSAGEBYTES_MAX = (1 << 64) - 1 - MACBYTES

    def __init__(self, key: BytesLike, encoder: Encoder | None = None, *,
                 impl: str | None = None) -> None:
        if encoder is not None:
            key = check_encoder(encoder).decode(key)
        super().__init__(key, impl=impl)

    def setkey(self, key: BytesLike) -> None:
        """Install a 32-byte key (bytes or any bytes-like object); errors in
        PyNaCl's words, which its users' tests match."""
        try:
            raw = as_bytes(key, "key")
        except InvalidType:
            raise InvalidType(f"{type(self).__name__} must be created from "
                              f"{self.KEY_SIZE} bytes, not {type(key).__name__}") from None
        if len(raw) != self.KEY_SIZE:
            raise InvalidKeyLength(f"The key must be exactly {self.KEY_SIZE} bytes long, "
                                   f"got {len(raw)}")
        super().setkey(raw)
        self._key = raw

    def _forget_key(self) -> None:
        super()._forget_key()
        self._key = b""

    def __bytes__(self) -> bytes:
        """The key, as PyNaCl's ``bytes(box)``."""
        self._keyed()  # closed or without a key: that error
        return self._key

    def _failed(self, rc: int, nonce: Any) -> NoReturn:
        if rc == ErrorCode.INV_IV:
            raise InvalidIVLength(f"The nonce must be exactly {self.NONCE_SIZE} bytes long, "
                                  f"got {len(nonce)}")
        super()._failed(rc, nonce)

    def _sealed(self, nonce: BytesLike | None, seal: Any, encoder: Encoder | None
                ) -> EncryptedMessage:
        """nonce || ``seal(nonce)`` as an :class:`EncryptedMessage`;
        without ``nonce``, a fresh random one from the operating system
        (safe: 24 bytes)."""
        if nonce is None:
            nonce = os.urandom(self.NONCE_SIZE)
        rest = seal(nonce)  # checks the nonce before it is copied
        return message(nonce if type(nonce) is bytes else as_bytes(nonce, "nonce"),
                       rest, encoder)

    def _parts(self, ciphertext: BytesLike, nonce: BytesLike | None,
               encoder: Encoder | None) -> tuple[BytesLike, BytesLike]:
        """(nonce, sealed rest) of what ``decrypt`` was given: decoded with
        ``encoder`` first, then split when ``nonce`` is None (a whole message
        shorter than its nonce is a forgery)."""
        if encoder is not None:
            ciphertext = check_encoder(encoder).decode(ciphertext)
        if nonce is not None:
            return nonce, ciphertext
        whole = as_bytes(ciphertext, "ciphertext")
        if len(whole) < self.NONCE_SIZE:
            raise self._forgery(f"a message of {len(whole)} bytes is shorter "
                                f"than its {self.NONCE_SIZE}-byte nonce")
        return whole[:self.NONCE_SIZE], whole[self.NONCE_SIZE:]
