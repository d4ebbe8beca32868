"""The base of gcrylike's copies of PyNaCl's ``SecretBox`` and ``Aead``:
what PyNaCl's users and tests rely on beyond the bytes (``encoder=`` on the
key and the messages, ``bytes(box)``, its error messages, forgeries that are
also ``nacl.exceptions.CryptoError``)."""

from __future__ import annotations

import os
from typing import Any, NoReturn

from ._buffers import as_bytes, as_cbuffer
from ._core import ffi
from ._errors import ErrorCode, InvalidIVLength, InvalidKeyLength, InvalidType
from ._nacl_message import NONCE_SIZE, EncryptedMessage, check_encoder, message
from ._sealing import SealingHandle
from ._typing import BytesLike, Encoder


class NaclHandle(SealingHandle):
    """Subclasses name their spec (``_ALGORITHM``, ``_KIND``,
    ``_HOOK_KIND``) and define ``encrypt``/``decrypt`` with :meth:`_sealed`
    and :meth:`_parts`.

    For ``bytes(box)`` the object keeps a copy of its key in a
    ``bytearray`` (shared with its ``copy.copy`` clones), which the last of
    them to close (or take a new key) wipes, as the C contexts are."""

    __slots__ = ("_held",)
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
            with as_cbuffer(key, "key") as kbuf:
                # straight into a bytearray: no bytes object that close() cannot wipe
                held = _HeldKey(bytearray(ffi.buffer(kbuf, len(kbuf))))
        except InvalidType:
            raise InvalidType(f"{type(self).__name__} must be created from "
                              f"{self.KEY_SIZE} bytes, not {type(key).__name__}") from None
        if len(held.key) != self.KEY_SIZE:
            held.release()
            raise InvalidKeyLength(f"The key must be exactly {self.KEY_SIZE} bytes long, "
                                   f"got {len(held.key)}")
        try:
            super().setkey(held.key)
        except BaseException:
            held.release()
            raise
        self._held = held

    def _forget_key(self) -> None:
        super()._forget_key()
        held = getattr(self, "_held", None)
        if held is not None:
            self._held = None
            held.release()

    def _clone(self, ctx: Any) -> Any:
        twin = super()._clone(ctx)
        if self._held is not None:
            # shared, not copied: a copy made here would leave the key in
            # vector registers, which Context.clone takes care not to do
            self._held.users += 1
        return twin

    @property
    def _key(self) -> bytes:
        # PyNaCl's attribute, which its tests read
        return bytes(self._held.key) if self._held is not None else b""

    def __bytes__(self) -> bytes:
        """The key, as PyNaCl's ``bytes(box)`` (a new ``bytes`` object: the
        caller's to keep or drop)."""
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



class _HeldKey:
    """The key bytes behind ``bytes(box)``, shared by a handle and its
    clones: wiped when the last of them lets go."""

    __slots__ = ("key", "users")

    def __init__(self, key: bytearray) -> None:
        self.key, self.users = key, 1

    def release(self) -> None:
        self.users -= 1
        if self.users <= 0:
            self.key[:] = bytes(len(self.key))  # the same length: overwritten in place
