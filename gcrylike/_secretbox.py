"""NaCl's secretbox as a one-shot class (the way PyNaCl users know it)."""

from __future__ import annotations

from typing import Any

from ._buffers import ZERO, as_cbuffer, new_output
from ._core import ffi
from ._errors import AuthenticationFailed, ErrorCode
from ._sealing import SealingHandle

#: The registry name of the secretbox spec (ciphers/secretbox).
ALGORITHM = "XSALSA20-POLY1305"


class SecretBox(SealingHandle):
    """NaCl's ``crypto_secretbox`` (XSalsa20-Poly1305): 32-byte key,
    24-byte nonce (random nonces are safe), box = 16-byte tag || ciphertext,
    byte for byte what ``crypto_secretbox_easy`` and PyNaCl's
    ``SecretBox.encrypt`` (after its nonce) produce.

    >>> key, nonce = SecretBox.generate_key(), os.urandom(24)
    >>> box = SecretBox(key)
    >>> sealed = box.encrypt(nonce, b"data")       # 16 + 4 bytes
    >>> box.decrypt(nonce, sealed)
    b'data'

    One keyed context; every call works on its own copy of it in C, so an
    object may be shared by threads.  :meth:`decrypt` checks the tag before
    it releases anything: a wrong box raises :class:`AuthenticationFailed`.
    """

    __slots__ = ()
    _ALGORITHM = ALGORITHM
    _KIND = "secretbox"

    KEY_SIZE = 32
    NONCE_SIZE = 24
    MACBYTES = 16

    def encrypt(self, nonce: Any, data: Any) -> bytes:
        """The box of ``data``: 16-byte tag || ciphertext."""
        ptr = self._fast
        if ptr is not None and type(nonce) is bytes and type(data) is bytes:
            n = len(data)
            out = ZERO * (n + 16)
            seal = self._seal  # a local: see SealingHandle
            rc = seal(ptr, nonce, len(nonce), data, n, out)
            if rc:
                self._failed(rc, nonce)
            return out
        ctx = self._keyed()
        with as_cbuffer(nonce, "nonce") as nbuf, as_cbuffer(data, "data") as src:
            n = len(src)
            out = new_output(n + 16)
            with ffi.from_buffer(out) as dst:
                rc = self._spec.seal(ctx.ptr, nbuf, len(nbuf), src, n, dst)
            if rc:
                self._failed(rc, nbuf)
        return out if type(out) is bytes else bytes(out)

    def decrypt(self, nonce: Any, box: Any) -> bytes:
        """Verify, then return the message of ``box`` (tag || ciphertext).
        A wrong or truncated box raises :class:`AuthenticationFailed` and
        releases no plaintext."""
        ptr = self._fast
        if ptr is not None and type(nonce) is bytes and type(box) is bytes and len(box) >= 18:
            out = ZERO * (len(box) - 16)
            open_ = self._open
            rc = open_(ptr, nonce, len(nonce), box, len(box), out)
            if rc:
                self._failed(rc, nonce)  # the C side wiped ``out``
            return out
        ctx = self._keyed()
        with as_cbuffer(nonce, "nonce") as nbuf, as_cbuffer(box, "box") as src:
            n = len(src)
            if len(nbuf) != self.NONCE_SIZE:
                self._failed(ErrorCode.INV_IV, nbuf)
            if n < 16:
                raise AuthenticationFailed(f"{self._spec.name}: a box of {n} bytes is "
                                           "shorter than its 16-byte tag")
            out = new_output(n - 16)
            with ffi.from_buffer(out) as dst:
                rc = self._spec.open(ctx.ptr, nbuf, len(nbuf), src, n, dst)
            if rc:
                self._failed(rc, nbuf)
        return out if type(out) is bytes else bytes(out)
