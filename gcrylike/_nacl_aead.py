"""XChaCha20-Poly1305 with the API of PyNaCl's ``nacl.secret.Aead``."""

from __future__ import annotations

from typing import Any

from ._keyed import native_method
from ._nacl_handle import NaclHandle
from ._nacl_message import EncryptedMessage
from ._typing import BytesLike, Encoder


class Aead(NaclHandle):
    """XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha, libsodium's
    ``crypto_aead_xchacha20poly1305_ietf``) with the API of PyNaCl's
    ``nacl.secret.Aead``: 32-byte key, 24-byte nonce (random nonces are
    safe), associated data, and messages nonce || ciphertext || 16-byte tag,
    byte for byte what PyNaCl produces.

    >>> box = Aead(Aead.generate_key())
    >>> sealed = box.encrypt(b"data", b"header")   # a random nonce: 24 + 4 + 16 bytes
    >>> box.decrypt(sealed, b"header")
    b'data'

    The same algorithm as :class:`XChaCha20Poly1305`, whose calls take the
    nonce first as cryptography's do.  ``encoder`` and ``bytes(box)`` as in
    :class:`SecretBox`.  One keyed context that every call copies in C, so
    an object may be shared by threads.  :meth:`decrypt` checks the tag
    before it releases anything: a wrong message, nonce or associated data
    raises :class:`AuthenticationFailed` (also PyNaCl's ``CryptoError``).
    """

    __slots__ = ()
    _ALGORITHM = "XCHACHA20-POLY1305"
    _KIND = "aead"
    _HOOK_KIND = "seal"

    def encrypt(self, plaintext: BytesLike, aad: BytesLike = b"",
                nonce: BytesLike | None = None,
                encoder: Encoder | None = None) -> EncryptedMessage:
        """Seal ``plaintext`` with associated data ``aad`` under ``nonce``
        (24 bytes; by default a fresh random one from the operating system)
        and return nonce || ciphertext || tag as an :class:`EncryptedMessage`.
        With ``encoder``, the message and its two parts are encoded, as in
        PyNaCl."""
        return self._sealed(nonce, lambda n: self._seal(n, plaintext, aad), encoder)

    def decrypt(self, ciphertext: BytesLike, aad: BytesLike = b"",
                nonce: BytesLike | None = None, encoder: Encoder | None = None) -> bytes:
        """Verify, then return the plaintext of ``ciphertext``: a whole
        message (nonce || ciphertext || tag, what :meth:`encrypt` returns)
        or, with ``nonce``, ciphertext || tag alone; ``aad`` must be what it
        was sealed with.  A wrong or truncated message raises
        :class:`AuthenticationFailed` and releases no plaintext.  ``encoder``
        decodes ``ciphertext`` first."""
        nonce, rest = self._parts(ciphertext, nonce, encoder)
        return self._open(nonce, rest, aad)

    _seal = native_method("seal", "($self, nonce, data, associated_data=None)",
                          """Ciphertext || 16-byte tag of ``data`` and ``associated_data``.""")
    _open = native_method("open", "($self, nonce, data, associated_data=None)",
                          """Verify, then decrypt ``data`` (ciphertext || tag).""")

    def _general_seal(self, nonce: Any, data: Any, associated_data: Any = None) -> bytes:
        aad = b"" if associated_data is None else associated_data
        return self._oneshot(0, nonce, data, aad, None)  # type: ignore[no-any-return]

    def _general_open(self, nonce: Any, data: Any, associated_data: Any = None) -> bytes:
        aad = b"" if associated_data is None else associated_data
        return self._oneshot(1, nonce, data, aad, None)  # type: ignore[no-any-return]
