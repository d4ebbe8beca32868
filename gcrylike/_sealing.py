"""What the one-shot sealing classes share (ChaCha20Poly1305,
XChaCha20Poly1305, SecretBox and Aead): one keyed context that every call copies in
C, so an object may be shared by threads, and their cffi path."""

from __future__ import annotations

import os
from typing import Any, NoReturn

from . import _registry
from ._buffers import as_cbuffer, check_overlap, sizes_text
from ._core import ffi
from ._errors import (
    AuthenticationFailed,
    ErrorCode,
    InvalidIVLength,
    InvalidLength,
    error_for,
    forgery,
)
from ._keyed import KeyedHandle
from ._typing import BytesLike


def raise_for(rc: int, name: str, borrowed: str | None = None) -> NoReturn:
    """Raise the exception of a failed AEAD call: a wrong tag is
    :class:`AuthenticationFailed` (also the forgery exception of the library
    ``borrowed``: ``_errors.forgery``), the rest as
    :func:`error_for` says."""
    if rc == ErrorCode.CHECKSUM:
        raise forgery(f"{name}: authentication tag mismatch", borrowed)
    raise error_for(rc, name)


class SealingHandle(KeyedHandle):
    """Base of the one-shot classes: subclasses name their spec in
    ``_ALGORITHM`` and ``_KIND``, their hook kind in ``_HOOK_KIND`` ("seal":
    with associated data, or "box") and define ``encrypt``/``decrypt``."""

    __slots__ = ()
    _ALGORITHM = ""
    _KIND = ""
    _HOOK_KIND = ""
    #: What the message is called in errors ("data", SecretBox's "box").
    _INPUT = "data"
    #: The library whose class name this class borrows, a key of
    #: ``_errors.BORROWED_FORGERIES`` ("cryptography", "nacl") or None: its
    #: forgeries are also that library's forgery exception.
    _FORGERY: str | None = None
    _RESETTABLE = False  # every call starts from the keyed state itself

    def __init__(self, key: BytesLike, *, impl: str | None = None) -> None:
        spec = _registry.lookup(self._ALGORITHM, self._KIND)
        super().__init__(spec, _registry.choose(spec, impl), impl is None)
        self.setkey(key)

    def _hooks(self) -> tuple[Any, ...]:
        # shared: seal/open work on a copy of the keyed context
        s = self._spec
        return (self._HOOK_KIND, {"seal": s.seal, "open": s.open}, 1, s.tag_size, True)

    @classmethod
    def generate_key(cls) -> bytes:
        """A fresh random key from the operating system."""
        return os.urandom(_registry.lookup(cls._ALGORITHM, cls._KIND).key_sizes[0])

    @property
    def driver(self) -> str:
        """The implementation in use."""
        return self._impl.driver

    def _forgery(self, message: str) -> AuthenticationFailed:
        """The exception of a forged or truncated message (see ``_FORGERY``)."""
        return forgery(f"{self._spec.name}: {message}", self._FORGERY)

    def _native_error(self, op: str, rc: int) -> Any:
        """A forged message is a forgery (the native open did not write the
        output, which is dropped); any other refusal is explained by the
        general method."""
        if op == "open" and rc == ErrorCode.CHECKSUM:
            return self._forgery("authentication tag mismatch")
        return NotImplemented

    def _failed(self, rc: int, nonce: Any) -> NoReturn:
        if rc == ErrorCode.INV_IV:
            raise InvalidIVLength(f"{self._spec.name} nonce must be "
                                  f"{sizes_text(self._spec.iv_sizes)} bytes, got {len(nonce)}")
        raise_for(rc, self._spec.name, self._FORGERY)

    def _oneshot(self, opening: int, nonce: Any, data: Any, aad: Any, buf: Any) -> Any:
        """The cffi path of a seal (``opening`` 0) or an open (1): into the
        writable ``buf`` of exactly the result's length (the byte count is
        returned), or into new bytes when ``buf`` is None.  ``aad`` is None
        for a box hook.  The buffers first, then the gate, as everywhere."""
        s = self._spec
        hook = s.open if opening else s.seal
        grow = -s.tag_size if opening else s.tag_size
        self._keyed()  # state errors first; checked again inside the gate
        with as_cbuffer(nonce, "nonce") as nbuf, as_cbuffer(data, self._INPUT) as src, \
                as_cbuffer(b"" if aad is None else aad, "associated_data") as abuf:
            n = len(src)
            if len(nbuf) not in s.iv_sizes:
                self._failed(ErrorCode.INV_IV, nbuf)
            if n + grow < 0:
                raise self._forgery(f"a {self._INPUT} of {n} bytes is shorter "
                                    f"than its {s.tag_size}-byte tag")

            def call(dst: Any) -> Any:
                with self._binding as ptr:
                    self._keyed()
                    if aad is None:
                        return hook(ptr, nbuf, len(nbuf), src, n, dst)
                    return hook(ptr, nbuf, len(nbuf), abuf, len(abuf), src, n, dst)

            if buf is None:
                out = bytearray(n + grow)  # a new object: native code never fills a bytes
                with ffi.from_buffer(out) as dst:
                    rc = call(dst)
                if rc:
                    self._failed(rc, nbuf)
                return bytes(out)
            with as_cbuffer(buf, "buf", writable=True) as dst:
                if len(dst) != n + grow:  # "buffer must be": cryptography's words
                    raise InvalidLength(f"buf: the output buffer must be {n + grow} bytes, "
                                        f"got {len(dst)}")
                check_overlap(dst, src, min(n, n + grow), "buf")
                rc = call(dst)
            if rc:
                self._failed(rc, nbuf)
            return n + grow
