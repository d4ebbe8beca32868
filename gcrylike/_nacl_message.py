"""What PyNaCl's ``SecretBox`` and ``Aead`` return and how they take
encoders, shared by gcrylike's two copies of them: messages are nonce ||
the sealed rest, and an encoder encodes the whole and each part."""

from __future__ import annotations

from typing import Any

from ._errors import InvalidType
from ._typing import Encoder

#: The nonce length of both NaCl-style classes (XSalsa20, XChaCha20).
NONCE_SIZE = 24


class EncryptedMessage(bytes):
    """What :meth:`SecretBox.encrypt` and :meth:`Aead.encrypt` return, as
    PyNaCl's ``nacl.utils.EncryptedMessage``: the bytes nonce || the sealed
    rest, with the two parts as :attr:`nonce` and :attr:`ciphertext`.  The
    rest is 16-byte tag || ciphertext from a :class:`SecretBox` and
    ciphertext || 16-byte tag from an :class:`Aead` (each library's
    layout)."""

    __slots__ = ()

    @property
    def nonce(self) -> bytes:
        """The 24-byte nonce the message was sealed under."""
        return self[:NONCE_SIZE]

    @property
    def ciphertext(self) -> bytes:
        """Everything after the nonce: the tag and the ciphertext (PyNaCl's
        name for it)."""
        return self[NONCE_SIZE:]


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


def check_encoder(encoder: Any) -> Encoder:
    """``encoder`` if it has callable ``encode`` and ``decode``."""
    if not (callable(getattr(encoder, "encode", None))
            and callable(getattr(encoder, "decode", None))):
        raise InvalidType(f"encoder must have encode() and decode() (as PyNaCl's encoders), "
                          f"not {type(encoder).__name__}")
    return encoder


def message(nonce: bytes, rest: bytes, encoder: Encoder | None) -> EncryptedMessage:
    """The :class:`EncryptedMessage` nonce || ``rest``, encoded with
    ``encoder`` when there is one."""
    if encoder is None:
        return EncryptedMessage(nonce + rest)
    encode = check_encoder(encoder).encode
    return _EncodedMessage(encode(nonce + rest), encode(nonce), encode(rest))
