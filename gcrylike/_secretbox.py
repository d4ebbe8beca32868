"""NaCl's secretbox as a one-shot class, a drop-in for PyNaCl's
``nacl.secret.SecretBox``."""

from __future__ import annotations

from os import urandom
from typing import Any

from ._buffers import as_bytes
from ._errors import InvalidType
from ._keyed import native_method
from ._sealing import SealingHandle
from ._typing import BytesLike, Encoder

_NONCE = 24


class EncryptedMessage(bytes):
    """What :meth:`SecretBox.encrypt` returns, as PyNaCl's
    ``nacl.utils.EncryptedMessage``: the bytes nonce || box (box = 16-byte
    tag || ciphertext), with the two parts as :attr:`nonce` and
    :attr:`ciphertext`."""

    __slots__ = ()

    @property
    def nonce(self) -> bytes:
        """The 24-byte nonce the message was sealed under."""
        return self[:_NONCE]

    @property
    def ciphertext(self) -> bytes:
        """The box: 16-byte tag || ciphertext (PyNaCl's name for it)."""
        return self[_NONCE:]


class _EncodedMessage(EncryptedMessage):
    """An :class:`EncryptedMessage` made with an encoder: the whole and
    each part are encoded separately, as PyNaCl does."""

    _parts: tuple[bytes, bytes]  # in the instance dict (bytes allows no slots)

    def __new__(cls, whole: bytes, nonce: bytes, ciphertext: bytes) -> _EncodedMessage:
        self = super().__new__(cls, whole)
        self._parts = (nonce, ciphertext)
        return self

    def __reduce__(self) -> tuple[type[_EncodedMessage], tuple[bytes, bytes, bytes]]:
        # pickle and copy: rebuilt from the three encodings
        return type(self), (bytes(self), *self._parts)

    @property
    def nonce(self) -> bytes:
        return self._parts[0]

    @property
    def ciphertext(self) -> bytes:
        return self._parts[1]


def _encoder(encoder: Any) -> Encoder:
    """``encoder`` if it has callable ``encode`` and ``decode``."""
    if not (callable(getattr(encoder, "encode", None))
            and callable(getattr(encoder, "decode", None))):
        raise InvalidType(f"encoder must have encode() and decode() (as PyNaCl's encoders), "
                          f"not {type(encoder).__name__}")
    return encoder


#: The registry name of the secretbox spec (ciphers/secretbox).
ALGORITHM = "XSALSA20-POLY1305"


class SecretBox(SealingHandle):
    """NaCl's ``crypto_secretbox`` (XSalsa20-Poly1305) with the API of
    PyNaCl's ``nacl.secret.SecretBox``: 32-byte key, 24-byte nonce (random
    nonces are safe), and messages nonce || 16-byte tag || ciphertext, byte
    for byte what PyNaCl and ``crypto_secretbox_easy`` (after the nonce)
    produce.

    >>> key, nonce = SecretBox.generate_key(), os.urandom(24)
    >>> box = SecretBox(key)
    >>> sealed = box.encrypt(b"data")              # a random nonce: 24 + 16 + 4 bytes
    >>> box.decrypt(sealed)
    b'data'
    >>> box.decrypt(sealed.ciphertext, sealed.nonce)
    b'data'

    ``encoder`` (here and in :meth:`encrypt`/:meth:`decrypt`) takes PyNaCl's
    encoders (``nacl.encoding.HexEncoder``, ...) or anything with static
    ``encode``/``decode``; the default is raw bytes.

    One keyed context; every call works on its own copy of it in C, so an
    object may be shared by threads.  :meth:`decrypt` checks the tag before
    it releases anything: a wrong box raises :class:`AuthenticationFailed`.
    """

    __slots__ = ()
    _ALGORITHM = ALGORITHM
    _KIND = "secretbox"
    _HOOK_KIND = "box"
    _INPUT = "box"
    _FORGERY = "nacl"  # PyNaCl's class name: forgeries are nacl's CryptoError too

    KEY_SIZE = 32
    NONCE_SIZE = _NONCE
    MACBYTES = 16
    #: The longest message (libsodium's ``crypto_secretbox_MESSAGEBYTES_MAX``).
    MESSAGEBYTES_MAX = (1 << 64) - 1 - MACBYTES

    def __init__(self, key: BytesLike, encoder: Encoder | None = None, *,
                 impl: str | None = None) -> None:
        if encoder is not None:
            key = _encoder(encoder).decode(as_bytes(key, "key"))
        super().__init__(key, impl=impl)

    def encrypt(self, plaintext: BytesLike, nonce: BytesLike | None = None,
                encoder: Encoder | None = None) -> EncryptedMessage:
        """Seal ``plaintext`` under ``nonce`` (24 bytes; by default a fresh
        random one from the operating system) and return nonce || tag ||
        ciphertext as an :class:`EncryptedMessage`.  With ``encoder``, the
        message and its two parts are encoded, as in PyNaCl."""
        if nonce is None:
            nonce = urandom(_NONCE)
        box = self._box(nonce, plaintext)  # checks the nonce before it is copied
        if type(nonce) is not bytes:
            nonce = as_bytes(nonce, "nonce")
        if encoder is None:
            return EncryptedMessage(nonce + box)
        encode = _encoder(encoder).encode
        return _EncodedMessage(encode(nonce + box), encode(nonce), encode(box))

    def decrypt(self, ciphertext: BytesLike, nonce: BytesLike | None = None,
                encoder: Encoder | None = None) -> bytes:
        """Verify, then return the plaintext of ``ciphertext``: a whole
        message (nonce || tag || ciphertext, what :meth:`encrypt` returns)
        or, with ``nonce``, the box alone (tag || ciphertext).  A wrong or
        truncated message raises :class:`AuthenticationFailed` and releases
        no plaintext.  ``encoder`` decodes ``ciphertext`` first."""
        if encoder is not None:
            ciphertext = _encoder(encoder).decode(as_bytes(ciphertext, "ciphertext"))
        if nonce is None:
            whole = as_bytes(ciphertext, "ciphertext")
            if len(whole) < _NONCE:
                raise self._forgery(f"a message of {len(whole)} bytes is shorter "
                                    f"than its {_NONCE}-byte nonce")
            nonce, ciphertext = whole[:_NONCE], whole[_NONCE:]
        return self._unbox(nonce, ciphertext)

    _box = native_method("seal", "($self, nonce, data)",
                         """The box of ``data``: 16-byte tag || ciphertext.""")
    _unbox = native_method("open", "($self, nonce, box)",
                           """Verify, then return the message of ``box`` (tag ||
        ciphertext).  A wrong or truncated box raises
        :class:`AuthenticationFailed` and releases no plaintext.""")

    def _general_seal(self, nonce: Any, data: Any) -> bytes:
        return self._oneshot(0, nonce, data, None, None)  # type: ignore[no-any-return]

    def _general_open(self, nonce: Any, box: Any) -> bytes:
        return self._oneshot(1, nonce, box, None, None)  # type: ignore[no-any-return]
