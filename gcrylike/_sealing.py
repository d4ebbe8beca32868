"""What the one-shot sealing classes share (ChaCha20Poly1305,
XChaCha20Poly1305 and SecretBox): one keyed context that every call copies in
C, so an object may be shared by threads, and the fast path that passes
``bytes`` straight to the native seal/open hooks."""

from __future__ import annotations

import os
from types import BuiltinFunctionType
from typing import Any

from . import _registry
from ._buffers import BYTES_OUTPUT_OK, sizes_text
from ._errors import AuthenticationFailed, ErrorCode, InvalidIVLength, error_for
from ._keyed import KeyedHandle
from ._typing import BytesLike


def raise_for(rc: int, name: str) -> None:
    """Raise the exception of a failed AEAD call: a wrong tag is
    :class:`AuthenticationFailed`, the rest as :func:`error_for` says."""
    if rc == ErrorCode.CHECKSUM:
        raise AuthenticationFailed(f"{name}: authentication tag mismatch")
    raise error_for(rc, name)


def fast_open_failed(rc: int, name: str) -> Any:
    """What a fast open that raised with ``rc`` means: a wrong tag raises
    :class:`AuthenticationFailed` (the hook did not write the output, which
    is dropped); anything else is a refusal, ``NotImplemented``, that the
    general path explains."""
    if rc == ErrorCode.CHECKSUM:
        raise AuthenticationFailed(f"{name}: authentication tag mismatch") from None
    return NotImplemented


class SealingHandle(KeyedHandle):
    """Base of the one-shot classes: subclasses name their spec in
    ``_ALGORITHM`` and ``_KIND`` and define ``encrypt``/``decrypt``."""

    # Fast paths copy a native hook into a local before calling it
    # (``seal = self._seal; seal(...)``): CPython 3.11 does not specialise a
    # method-style call of an instance attribute, and that costs ~40 ns a
    # call here, a tenth of a 64-byte seal.  The other handles do the same.
    __slots__ = ("_fast", "_seal", "_open")
    _ALGORITHM = ""
    _KIND = ""
    #: The C type of the seal/open hooks (gcrylike._fast.AEAD or BOX).
    _SHAPE = ""
    _RESETTABLE = False  # every call starts from the keyed state itself

    def __init__(self, key: BytesLike, *, impl: str | None = None) -> None:
        spec = _registry.lookup(self._ALGORITHM, self._KIND)
        super().__init__(spec, _registry.choose(spec, impl), impl is None)
        self._fast: Any = None
        self._seal, self._open = spec.seal, spec.open
        self.setkey(key)

    def _fast_hooks(self) -> tuple[tuple, int, int, bool]:
        # shared: seal/open work on a copy of the keyed context
        s = self._spec
        return ((s.seal, self._SHAPE), (s.open, self._SHAPE)), 1, s.tag_size, True

    def _key_installed(self, ctx: Any) -> None:
        self._fc = self._bound(ctx)
        # bytes in, a fresh bytes object out, one native call (see _buffers.py)
        native = isinstance(self._seal, BuiltinFunctionType) and isinstance(
            self._open, BuiltinFunctionType)
        self._fast = ctx.ptr if BYTES_OUTPUT_OK and native else None

    def _forget_key(self) -> None:
        super()._forget_key()
        self._fast = None

    @classmethod
    def generate_key(cls) -> bytes:
        """A fresh random key from the operating system."""
        return os.urandom(_registry.lookup(cls._ALGORITHM, cls._KIND).key_sizes[0])

    @property
    def driver(self) -> str:
        """The implementation in use."""
        return self._impl.driver

    def _failed(self, rc: int, nonce: Any) -> None:
        if rc == ErrorCode.INV_IV:
            raise InvalidIVLength(f"{self._spec.name} nonce must be "
                                  f"{sizes_text(self._spec.iv_sizes)} bytes, got {len(nonce)}")
        raise_for(rc, self._spec.name)
