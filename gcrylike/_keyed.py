"""The life cycle every handle shares: a spec, the implementation chosen
for it, a C context; ``setkey`` with the first-use self-test; ``close``
wipes.  Each kind of handle adds its own operations."""

from __future__ import annotations

from typing import Any, NoReturn, Protocol, TypeVar, cast, overload

from . import _registry
from ._buffers import U8_ARRAY, ZERO, as_cbuffer, sizes_text
from ._context import Context
from ._core import ffi
from ._errors import HandleClosed, InvalidKeyLength, MissingKey, NotPicklable, error_for
from ._spec import Implementation
from ._typing import BytesLike

_from_buffer = ffi.from_buffer


class DataMethod(Protocol):
    """The type of a handle's ``encrypt``/``decrypt``: a new ``bytes``, or
    with ``out=`` the number of bytes written there."""

    @overload
    def __call__(self, data: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def __call__(self, data: BytesLike, *, out: BytesLike) -> int: ...


def data_method(which: int, owner: str, name: str, doc: str) -> DataMethod:
    """The ``encrypt`` (``which`` 0) or ``decrypt`` (1) method of a handle
    class with ``_fast_ptr`` (the context pointer while native hooks may
    run, else None), ``_hooks`` (the native encrypt and decrypt hooks) and
    ``_crypt(hook, data, out)`` (the general path, which also explains every
    refusal) and ``_data_error(rc, which)`` (the exception for a native
    error code).  The two fast paths (bytes in, fresh bytes out; in place on a
    writable buffer) are one cffi call each.  Written for per-call cost:
    locals over attribute chains, no helper calls, ``from_buffer``'s own
    errors as the type check."""

    def method(self: Any, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        ptr = self._fast_ptr
        if ptr is not None:
            if out is None:
                if type(data) is bytes:
                    n = len(data)
                    if n > 1:
                        # straight into a fresh bytes object (see _bytes_output_ok)
                        result = ZERO * n
                        rc = self._hooks[which](ptr, result, data, n)
                        if rc:
                            raise self._data_error(rc, which)
                        return result
            elif out is data:
                try:
                    view = _from_buffer(U8_ARRAY, out, True)
                except (TypeError, ValueError, BufferError):
                    view = None  # not a writable contiguous buffer: _crypt says so
                if view is not None:
                    n = len(view)
                    rc = self._hooks[which](ptr, view, view, n)
                    if rc:
                        ffi.release(view)  # no buffer export outlives the call
                        raise self._data_error(rc, which)
                    return n
        return self._crypt(self._hooks[which], data, out)

    method.__name__ = name
    method.__qualname__ = f"{owner}.{name}"
    method.__doc__ = doc
    return cast(DataMethod, method)


_Handle = TypeVar("_Handle", bound="KeyedHandle")


class KeyedHandle:
    """Base of every handle class (not used directly)."""

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_selftesting")
    #: Whether the class offers reset(): its context then keeps a copy of the
    #: state right after setkey.
    _RESETTABLE = True

    def __init__(self, spec: Any, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        self._spec = spec
        self._impl = impl
        self._auto = auto
        self._ctx: Context | None = Context(spec.context_size, self._RESETTABLE)
        self._haskey = False
        # the self-test runner's own handles skip the first-use gate
        self._selftesting = _selftesting

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has wiped the context."""
        return self._ctx is None

    def _live(self) -> Context:
        if self._ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        return self._ctx

    def _keyed(self) -> Context:
        ctx = self._live()
        if not self._haskey:
            raise MissingKey(f"{self._spec.name}: setkey() first")
        return ctx

    def setkey(self, key: BytesLike) -> None:
        """Install a key.  The first setkey of each implementation in the
        process runs its known-answer self-test; if it fails, a handle that
        chose its driver automatically moves to the next best one."""
        ctx = self._live()
        with as_cbuffer(key, "key") as kbuf:
            if len(kbuf) not in self._spec.key_sizes:
                raise InvalidKeyLength(f"{self._spec.name} key must be "
                                       f"{sizes_text(self._spec.key_sizes)} bytes, "
                                       f"got {len(kbuf)}")
            if not self._selftesting:
                self._impl = _registry.ready_implementation(self._spec, self._impl, self._auto)
            self._forget_key()
            rc = self._spec.setkey(ctx.ptr, kbuf, self._impl)
            if rc:  # an ErrorCode, honoured as the data hooks' codes are
                ctx.wipe()  # no half-installed key stays behind
                raise error_for(rc, f"{self._spec.name} setkey")
        ctx.save()  # the pristine copy reset() restores
        self._haskey = True
        self._key_installed(ctx)

    def _forget_key(self) -> None:
        """The key is about to change or go: drop state that depends on it."""
        self._haskey = False

    def _key_installed(self, ctx: Context) -> None:
        """A key is in place: subclasses enable their fast paths here."""

    def _data_error(self, rc: int, which: int) -> Exception:
        """The exception for native code ``rc`` from ``encrypt`` (``which``
        0) or ``decrypt`` (1); subclasses say more where they can."""
        return error_for(rc, self._spec.name)

    def close(self) -> None:
        """Wipe and free the context; later calls raise HandleClosed."""
        if self._ctx is not None:
            self._forget_key()
            self._ctx.free()
            self._ctx = None

    # -- copies -------------------------------------------------------------
    def __copy__(self: _Handle) -> _Handle:
        """An independent handle in the same state: same algorithm and
        driver, a new C context holding a byte copy of this one (live state
        and the post-setkey copy), so the clone continues the stream or MAC
        exactly where this handle is, and closing either leaves the other
        working.  Attributes holding this handle's context pointer (the fast
        paths' ``_fast_ptr``) are pointed at the clone's."""
        ctx = self._live()
        twin = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in cls.__dict__.get("__slots__", ()):
                if hasattr(self, name):
                    setattr(twin, name, getattr(self, name))
        if hasattr(self, "__dict__"):  # a subclass without __slots__
            twin.__dict__.update(self.__dict__)
        twin._ctx = ctx.clone()
        for name in _slot_names(type(self)):
            if getattr(twin, name, None) is ctx.ptr:
                setattr(twin, name, twin._ctx.ptr)
        return twin

    def __deepcopy__(self: _Handle, memo: dict[int, object]) -> _Handle:
        return self.__copy__()

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        raise NotPicklable(f"{type(self).__name__} keeps its key in C memory and cannot be "
                           "pickled (copy.copy clones it within the process)")

    def __enter__(self: _Handle) -> _Handle:
        self._live()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._ctx is None else ("keyed" if self._haskey else "no key")
        return f"<{type(self).__name__} {self._spec.name} via {self._impl.driver}, {state}>"


def _slot_names(cls: type) -> list[str]:
    return [n for c in cls.__mro__ for n in c.__dict__.get("__slots__", ())]
