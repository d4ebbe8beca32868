"""Cipher handles: what :func:`gcrylike.cipher_open` returns."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from . import _registry
from ._buffers import (
    BYTES_OUTPUT_OK,
    as_cbuffer,
    check_overlap,
    new_uninit,
    sizes_text,
    writable_view,
)
from ._context import Context
from ._core import ffi
from ._errors import (
    InvalidArgument,
    InvalidIVLength,
    InvalidLength,
    InvalidState,
    InvalidType,
    NotSupported,
    error_for,
)
from ._keyed import KeyedHandle, data_method
from ._spec import CipherSpec, Implementation
from ._typing import AeadMode, AeadName, BytesLike, StreamMode, StreamName

if TYPE_CHECKING:
    from ._aead import AeadHandle


@dataclass(frozen=True)
class HandleInfo:
    """Which algorithm and driver a handle uses."""

    algorithm: str
    driver: str
    block_size: int
    key_sizes: tuple[int, ...]
    iv_sizes: tuple[int, ...]


class CipherHandle(KeyedHandle):
    """An open cipher: ``setkey``, ``setiv``, then ``encrypt``/``decrypt``.

    The state lives in C memory that :meth:`close` wipes; use the handle as a
    context manager to close it on every path.
    """

    __slots__ = ("_hasiv", "_fast_ptr", "_native", "_hooks")

    def __init__(self, spec: CipherSpec, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        super().__init__(spec, impl, auto, _selftesting=_selftesting)
        self._hasiv = False
        # cffi functions take bytes directly and need no Python wrapper.
        self._native = BYTES_OUTPUT_OK and inspect.isbuiltin(
            spec.encrypt_stream) and inspect.isbuiltin(spec.decrypt_stream)
        # The context pointer while the fast path may run (native hooks, key
        # and IV set, not closed), else None: its one state check.
        self._fast_ptr: Any = None
        self._hooks = (spec.encrypt_stream, spec.decrypt_stream)

    def _update_ready(self) -> None:
        ready = self._ctx is not None and self._haskey and (
            self._hasiv or not self._spec.needs_iv)
        self._fast_ptr = self._ctx.ptr if ready and self._native else None

    def _forget_key(self) -> None:
        super()._forget_key()
        self._hasiv = False
        self._fast_ptr = None

    def _key_installed(self, ctx: Context) -> None:
        self._update_ready()

    @property
    def info(self) -> HandleInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return HandleInfo(s.name, self._impl.driver, s.block_size, s.key_sizes, s.iv_sizes)

    # -- nonce, position ------------------------------------------------------
    def setiv(self, iv: BytesLike) -> None:
        """Install a nonce and rewind to the start of its keystream."""
        ctx = self._keyed()
        if self._spec.setiv is None:
            raise NotSupported(f"{self._spec.name} takes no IV")
        with as_cbuffer(iv, "iv") as ibuf:
            if len(ibuf) not in self._spec.iv_sizes:
                raise InvalidIVLength(f"{self._spec.name} IV must be "
                                      f"{sizes_text(self._spec.iv_sizes)} bytes, got {len(ibuf)}")
            self._hasiv = False
            self._fast_ptr = None
            self._spec.setiv(ctx.ptr, ibuf)
        self._hasiv = True
        self._update_ready()

    def setctr(self, block: int) -> None:
        """Seek: the next byte processed is the first of keystream block ``block``."""
        ctx = self._ready()
        if self._spec.setctr is None:
            raise NotSupported(f"{self._spec.name} cannot seek")
        if isinstance(block, bool) or not isinstance(block, int):
            raise InvalidType(f"block must be an int, not {type(block).__name__}")
        if block < 0:
            raise InvalidArgument("block must be >= 0")
        self._spec.setctr(ctx.ptr, block)

    def reset(self) -> None:
        """Back to the state right after setkey (the IV must be set again)."""
        ctx = self._keyed()
        ctx.restore()
        self._hasiv = False
        self._update_ready()

    # -- data ---------------------------------------------------------------
    def _ready(self) -> Context:
        ctx = self._keyed()
        if self._spec.needs_iv and not self._hasiv:
            raise InvalidState(f"{self._spec.name}: setiv() first")
        return ctx

    encrypt = data_method(0, "CipherHandle", "encrypt", """Encrypt ``data``.  Returns bytes, or with
        ``out=`` (a writable buffer at least as long, possibly ``data`` itself)
        writes there and returns the number of bytes written.""")
    decrypt = data_method(1, "CipherHandle", "decrypt", """Decrypt ``data``; same conventions as
        :meth:`encrypt`.""")

    def _crypt(self, hook: Any, data: Any, out: Any) -> bytes | int:
        ptr = self._fast_ptr
        if ptr is not None and (data is out or type(data) is bytes):
            # out= fast path (in place, or bytes into a writable buffer): one view
            dst = writable_view(out)
            if dst is not None:
                n = len(dst) if data is out else len(data)
                if len(dst) >= n:
                    rc = hook(ptr, dst, dst if data is out else data, n)
                    if rc:
                        ffi.release(dst)  # no buffer export outlives the call
                        raise error_for(rc, self._spec.name)
                    return n
                ffi.release(dst)
        ctx = self._ready()
        with as_cbuffer(data, "data") as src:
            n = len(src)
            if out is None:
                dst = new_uninit(n)
                _run(hook, ctx.ptr, dst, src, n, self._spec.name)
                return ffi.buffer(dst, n)[:]
            with as_cbuffer(out, "out", writable=True) as dst:
                if len(dst) < n:
                    raise InvalidLength(f"out has {len(dst)} bytes, need {n}")
                check_overlap(dst, src, n)
                _run(hook, ctx.ptr, dst, src, n, self._spec.name)
                return n


def _run(hook: Any, ptr: Any, dst: Any, src: Any, n: int, name: str) -> None:
    rc = hook(ptr, dst, src, n)
    if rc:
        raise error_for(rc, name)


@overload
def cipher_open(algo: AeadName, mode: None = None, *,
                impl: str | None = None) -> AeadHandle: ...
@overload
def cipher_open(algo: str | int, mode: AeadMode, *, impl: str | None = None) -> AeadHandle: ...
@overload
def cipher_open(algo: StreamName, mode: StreamMode | None = None, *,
                impl: str | None = None) -> CipherHandle: ...
@overload
def cipher_open(algo: str | int, mode: StreamMode, *, impl: str | None = None) -> CipherHandle: ...
@overload
def cipher_open(algo: str | int, mode: str | None = None, *,
                impl: str | None = None) -> CipherHandle | AeadHandle: ...


def cipher_open(algo: str | int, mode: str | None = None, *,
                impl: str | None = None) -> CipherHandle | AeadHandle:
    """Open a handle on algorithm ``algo`` (name, alias or id, any case) in
    ``mode``, in the order of libgcrypt's ``gcry_cipher_open(algo, mode)``.

    A stream cipher opens as a :class:`CipherHandle` (``mode`` None or
    ``"stream"``); ``mode="poly1305"`` opens the AEAD (an
    :class:`AeadHandle`) of ChaCha20 or XChaCha20, as libgcrypt's
    ``GCRY_CIPHER_MODE_POLY1305``, and so does the AEAD's own name
    (``cipher_open("chacha20-poly1305")``).  Keyword ``impl`` forces a
    driver (``impl="salsa20-generic"``); by default the best implementation
    this CPU can run, after the hardware-feature deny list.

    (For static typing: a literal built-in name or mode gives the exact
    handle class; any other name gives ``CipherHandle | AeadHandle``.)
    """
    if mode is not None and not isinstance(mode, str):
        raise InvalidType(f"mode must be a string, not {type(mode).__name__}")
    if mode is not None and mode.lower() != "stream":
        from ._aead import aead_open

        return aead_open(algo, mode, impl)
    spec = _registry.lookup(algo)
    if spec.kind == "aead" and mode is None:
        from ._aead import AeadHandle

        return AeadHandle(spec, _registry.choose(spec, impl), impl is None)
    spec = _registry.lookup(algo, "cipher")
    return CipherHandle(spec, _registry.choose(spec, impl), auto=impl is None)
