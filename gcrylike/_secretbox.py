"""NaCl's secretbox as a one-shot class, a drop-in for PyNaCl's
``nacl.secret.SecretBox``."""

from __future__ import annotations

from typing import Any

from ._keyed import native_method
from ._nacl_handle import NaclHandle
from ._nacl_message import EncryptedMessage
from ._typing import BytesLike, Encoder

#: The registry name of the secretbox spec (ciphers/secretbox).
ALGORITHM = "XSALSA20-POLY1305"


class SecretBox(NaclHandle):
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
    ``encode``/``decode``; the default is raw bytes.  ``bytes(box)`` is the
    key, as in PyNaCl (this class keeps that copy in a ``bytearray`` that
    :meth:`close` wipes with the C context).

    One keyed context; every call works on its own copy of it in C, so an
    object may be shared by threads.  :meth:`decrypt` checks the tag before
    it releases anything: a wrong box raises :class:`AuthenticationFailed`.
    """

    __slots__ = ()
    _ALGORITHM = ALGORITHM
    _KIND = "secretbox"
    _HOOK_KIND = "box"
    _INPUT = "box"

    def encrypt(self, plaintext: BytesLike, nonce: BytesLike | None = None,
                encoder: Encoder | None = None) -> EncryptedMessage:
        """Seal ``plaintext`` under ``nonce`` (24 bytes; by default a fresh
        random one from the operating system) and return nonce || tag ||
        ciphertext as an :class:`EncryptedMessage`.  With ``encoder``, the
        message and its two parts are encoded, as in PyNaCl."""
        return self._sealed(nonce, lambda n: self._box(n, plaintext), encoder)

    def decrypt(self, ciphertext: BytesLike, nonce: BytesLike | None = None,
                encoder: Encoder | None = None) -> bytes:
        """Verify, then return the plaintext of ``ciphertext``: a whole
        message (nonce || tag || ciphertext, what :meth:`encrypt` returns)
        or, with ``nonce``, the box alone (tag || ciphertext).  A wrong or
        truncated message raises :class:`AuthenticationFailed` and releases
        no plaintext.  ``encoder`` decodes ``ciphertext`` first."""
        return self._unbox(*self._parts(ciphertext, nonce, encoder))

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
