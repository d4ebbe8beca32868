"""MAC handles: what :func:`gcrylike.mac_open` returns."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from . import _registry
from ._context import Context
from ._core import ffi
from ._errors import (
    AuthenticationFailed,
    HandleClosed,
    InvalidKeyLength,
    InvalidState,
    MissingKey,
    error_for,
)
from ._handle import _BYTES_OUTPUT_OK, _ZERO, _sizes, as_cbuffer
from ._spec import Implementation, MacSpec


@dataclass(frozen=True)
class MacInfo:
    """Which algorithm and driver a MAC handle uses."""

    algorithm: str
    driver: str
    digest_size: int
    key_sizes: tuple[int, ...]


class MacHandle:
    """An open MAC: ``setkey``, any number of ``update`` calls, then
    ``digest``/``verify`` (the state is left as it was) or ``final``.

    The state lives in C memory that :meth:`close` wipes.
    """

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_finished", "_fast_ptr",
                 "_update", "_selftesting")

    def __init__(self, spec: MacSpec, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        self._selftesting = _selftesting
        self._spec = spec
        self._impl = impl
        self._auto = auto
        self._ctx: Context | None = Context(spec.context_size)
        self._haskey = False
        self._finished = False
        self._update = spec.update
        self._fast_ptr: Any = None

    @property
    def info(self) -> MacInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return MacInfo(s.name, self._impl.driver, s.digest_size, s.key_sizes)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has wiped the context."""
        return self._ctx is None

    def _ready(self) -> Context:
        ctx = self._ctx
        if ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        if not self._haskey:
            raise MissingKey(f"{self._spec.name}: setkey() first")
        if self._finished:
            raise InvalidState(f"{self._spec.name}: final() was called; setkey() or reset()")
        return ctx

    def setkey(self, key: bytes) -> None:
        """Install a key (runs the self-test on each implementation's first use)."""
        ctx = self._ctx
        if ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        with as_cbuffer(key, "key") as kbuf:
            if len(kbuf) not in self._spec.key_sizes:
                raise InvalidKeyLength(f"{self._spec.name} key must be "
                                       f"{_sizes(self._spec.key_sizes)} bytes, got {len(kbuf)}")
            if not self._selftesting:
                self._impl = _registry.ready_implementation(self._spec, self._impl, self._auto)
            self._haskey = False
            self._fast_ptr = None
            self._spec.setkey(ctx.ptr, kbuf, self._impl)
        ctx.save()
        self._haskey = True
        self._finished = False
        if _BYTES_OUTPUT_OK and inspect.isbuiltin(self._update):
            self._fast_ptr = ctx.ptr

    def update(self, data: Any) -> None:
        """Absorb ``data`` (any bytes-like object, any length, any split)."""
        ptr = self._fast_ptr
        if ptr is not None and type(data) is bytes:
            rc = self._update(ptr, data, len(data))
        else:
            ctx = self._ready()
            with as_cbuffer(data, "data") as src:
                rc = self._update(ctx.ptr, src, len(src))
        if rc:
            raise error_for(rc, self._spec.name)

    def digest(self) -> bytes:
        """The tag of everything absorbed so far; updates may continue."""
        ctx = self._ready()
        n = self._spec.digest_size
        if _BYTES_OUTPUT_OK and inspect.isbuiltin(self._spec.read):
            out = _ZERO * n
            rc = self._spec.read(ctx.ptr, out, n)
        else:
            out = bytearray(n)
            with ffi.from_buffer(out) as buf:
                rc = self._spec.read(ctx.ptr, buf, n)
            out = bytes(out)
        if rc:
            raise error_for(rc, self._spec.name)
        return out

    def verify(self, tag: Any) -> None:
        """Compare ``tag`` with the tag so far in constant time; raise
        :class:`AuthenticationFailed` if it differs (or has another length)."""
        ctx = self._ready()
        with as_cbuffer(tag, "tag") as tbuf:
            rc = self._spec.verify(ctx.ptr, tbuf, len(tbuf))
        if rc:
            raise AuthenticationFailed(f"{self._spec.name}: tag mismatch")

    def final(self) -> bytes:
        """The tag; afterwards the live state is wiped and the handle needs
        ``setkey`` or ``reset`` (a one-time key is not used twice by
        accident).  The post-setkey copy that ``reset`` restores keeps the key
        until the next ``setkey`` or :meth:`close`."""
        tag = self.digest()
        self._finished = True
        self._fast_ptr = None
        self._ctx.wipe()
        return tag

    def reset(self) -> None:
        """Back to the state right after setkey (nothing absorbed)."""
        ctx = self._ctx
        if ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        if not self._haskey:
            raise MissingKey(f"{self._spec.name}: setkey() first")
        ctx.restore()
        self._finished = False
        if _BYTES_OUTPUT_OK and inspect.isbuiltin(self._update):
            self._fast_ptr = ctx.ptr

    def close(self) -> None:
        """Wipe and free the context; later calls raise HandleClosed."""
        if self._ctx is not None:
            self._fast_ptr = None
            self._ctx.free()
            self._ctx = None

    def __enter__(self) -> MacHandle:
        if self._ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._ctx is None else ("keyed" if self._haskey else "no key")
        return f"<MacHandle {self._spec.name} via {self._impl.driver}, {state}>"


def mac_open(name: str | int, impl: str | None = None) -> MacHandle:
    """Open a MAC handle on ``name`` (name, alias or id, any case); ``impl``
    forces a driver, otherwise the best one this CPU can run."""
    spec = _registry.lookup(name, "mac")
    return MacHandle(spec, _registry.choose(spec, impl), auto=impl is None)


def mac(name: str | int, key: Any, data: Any, *, impl: str | None = None) -> bytes:
    """One-shot MAC: the tag of ``data`` under ``key``."""
    spec = _registry.lookup(name, "mac")
    if spec.oneshot is None:
        with mac_open(name, impl) as h:
            h.setkey(key)
            h.update(data)
            return h.digest()
    chosen = _registry.ready_implementation(spec, _registry.choose(spec, impl), impl is None)
    n = spec.digest_size
    native = _BYTES_OUTPUT_OK and inspect.isbuiltin(spec.oneshot)
    tag = _ZERO * n if native else bytearray(n)
    if native and type(key) is bytes and type(data) is bytes:
        rc = spec.oneshot(key, len(key), data, len(data), tag, chosen.token)
    else:
        with as_cbuffer(key, "key") as kbuf, as_cbuffer(data, "data") as dbuf, \
                ffi.from_buffer(tag) as out:
            rc = spec.oneshot(kbuf, len(kbuf), dbuf, len(dbuf), out, chosen.token)
    if rc:
        raise error_for(rc, spec.name)
    return bytes(tag)
