"""The life cycle every handle shares: a spec, the implementation chosen
for it, a C context; ``setkey`` with the first-use self-test; ``close``
wipes.  Each kind of handle adds its own operations."""

from __future__ import annotations

from typing import Any, NoReturn, Protocol, TypeVar, cast, overload

from . import _fast, _registry
from ._buffers import FRESH_ZERO_MIN, U8_ARRAY, ZERO, as_cbuffer, sizes_text
from ._context import Context
from ._core import ffi
from ._errors import HandleClosed, InvalidKeyLength, MissingKey, NotPicklable, error_for
from ._spec import Implementation
from ._typing import BytesLike

_from_buffer = ffi.from_buffer
_Failure = _fast.Failure


class DataMethod(Protocol):
    """The type of a handle's ``encrypt``/``decrypt``: a new ``bytes``, or
    with ``out=`` the number of bytes written there."""

    @overload
    def __call__(self, data: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def __call__(self, data: BytesLike, *, out: BytesLike) -> int: ...


def _general_method(which: int) -> Any:
    """The general ``encrypt`` (``which`` 0) or ``decrypt`` (1) of a handle
    class with ``_fast_ptr`` (the context pointer while native hooks may
    run, else None), ``_hooks`` (the native encrypt and decrypt hooks) and
    ``_crypt(hook, data, out)`` (the general path, which also explains every
    refusal) and ``_data_error(rc, which)`` (the exception for a native
    error code).  With the extension the handle's method is written in C
    (fastcall.data_method) and calls the Binding ``_fc`` itself, and this
    function only for the rest; here the native fast path (``_fc``) comes
    first; the cffi path runs inside ``_guard``; its two fast paths (bytes
    in, fresh bytes out; in place on a writable buffer) are one cffi call
    each.  Written for per-call cost: locals over attribute chains, no
    helper calls, ``from_buffer``'s own errors as the type check."""

    def method(self: Any, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        fc = self._fc
        if fc is not None:  # the native fast path, when not taken in C
            try:
                result = (fc.encrypt if which == 0 else fc.decrypt)(data, out)
            except _Failure as exc:
                raise self._data_error(exc.args[0], which) from None
            if result is not NotImplemented:
                return result
        with self._guard:  # the cffi path: one call at a time (HandleBusy)
            ptr = self._fast_ptr
            if ptr is not None:
                if out is None:
                    if type(data) is bytes:
                        n = len(data)
                        if n >= FRESH_ZERO_MIN:
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

    return method


#: The general encrypt and decrypt, shared by every handle class; their
#: annotations are what the docs show for the C methods (docs/conf.py).
GENERAL = (_general_method(0), _general_method(1))
if _fast.AVAILABLE:
    _fast.fastcall.set_general(*GENERAL)


class _NativeDataMethod:
    """Stands in a class body for the C method, which needs the class: once
    the class exists, ``__set_name__`` replaces it with
    ``fastcall.data_method(owner, name, which, doc)``, an ordinary method
    descriptor (no bound method, no argument tuple per call)."""

    def __init__(self, which: int, doc: str) -> None:
        self.which = which
        self.doc = doc

    def __set_name__(self, owner: type, name: str) -> None:
        setattr(owner, name, _fast.fastcall.data_method(owner, name, self.which, self.doc))


def data_method(which: int, owner: str, name: str, doc: str) -> DataMethod:
    """The ``encrypt`` (``which`` 0) or ``decrypt`` (1) method ``name`` of the
    handle class ``owner``, with docstring ``doc`` (see _general_method)."""
    if _fast.AVAILABLE:  # the same method in C: no Python frame on the fast path
        return cast(DataMethod, _NativeDataMethod(which, doc))
    method = _general_method(which)  # a copy of its own: the class's name and docstring
    method.__name__ = name
    method.__qualname__ = f"{owner}.{name}"
    method.__doc__ = doc
    return cast(DataMethod, method)


_Handle = TypeVar("_Handle", bound="KeyedHandle")


class KeyedHandle(_fast.HandleBase):
    """Base of every handle class (not used directly).

    ``_binding`` is the context's native fast path (a
    :class:`gcrylike._fast.Binding`, or None when the hooks cannot take it)
    and ``_fc`` the binding while data calls may use it, else None."""

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_selftesting", "_binding",
                 "_guard", *_fast.BASE_SLOTS)
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
        hooks = self._fast_hooks()
        self._binding: Any = None if hooks is None else _fast.bind(self._ctx, *hooks)
        self._fc: Any = None
        # what the general path enters around native calls (the one-call rule)
        self._guard: Any = _fast.guard_for(self._binding, spec.name,
                                           bool(hooks and hooks[3]))
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
            guard = self._guard
            guard.lock()  # no call runs while the key changes (HandleBusy)
            try:
                self._forget_key()
                rc = self._spec.setkey(ctx.ptr, kbuf, self._impl)
                if rc:  # an ErrorCode, honoured as the data hooks' codes are
                    ctx.wipe()  # no half-installed key stays behind
                    raise error_for(rc, f"{self._spec.name} setkey")
                ctx.save()  # the pristine copy reset() restores
            finally:
                guard.unlock()
        self._haskey = True
        self._key_installed(ctx)

    def _forget_key(self) -> None:
        """The key is about to change or go: drop state that depends on it."""
        self._haskey = False
        self._fc = None

    def _key_installed(self, ctx: Context) -> None:
        """A key is in place: subclasses enable their fast paths here."""

    def _fast_hooks(self) -> tuple | None:
        """The native fast path's hooks ``((hook, shape) or None, ...)`` by
        fastcall.c's positions, its unit (block multiple), tag size,
        whether calls may overlap and (streams) the keystream block size for
        splitting large calls: the arguments of gcrylike._fast.bind; None for
        no fast path."""
        return None

    def _bound(self, ctx: Context) -> Any:
        """The context's Binding (made with it), or None."""
        return self._binding

    @property
    def _path(self) -> str:
        """Which path data calls take now: "fastcall" (the native fast
        path), "cffi", or "none" (no key, closed)."""
        if self._fc is not None:
            return "fastcall"
        return "cffi" if self._ctx is not None and self._haskey else "none"

    def _data_error(self, rc: int, which: int) -> Exception:
        """The exception for native code ``rc`` from ``encrypt`` (``which``
        0) or ``decrypt`` (1); subclasses say more where they can."""
        return error_for(rc, self._spec.name)

    def close(self) -> None:
        """Wipe and free the context; later calls raise HandleClosed."""
        if self._ctx is not None:
            guard = self._guard
            guard.lock()  # HandleBusy while a call runs: nothing freed
            try:
                if self._binding is not None:
                    self._binding.detach()
                self._forget_key()
                self._ctx.free()
                self._ctx = None
            finally:
                guard.unlock()

    # -- copies -------------------------------------------------------------
    def __copy__(self: _Handle) -> _Handle:
        """An independent handle in the same state: same algorithm and
        driver, a new C context holding a byte copy of this one (live state
        and the post-setkey copy), so the clone continues the stream or MAC
        exactly where this handle is, and closing either leaves the other
        working.  Attributes holding this handle's context pointer (the fast
        paths' ``_fast_ptr``) are pointed at the clone's."""
        ctx = self._live()
        guard = self._guard
        guard.lock()  # no copy of a half-done call
        try:
            return self._clone(ctx)
        finally:
            guard.unlock()

    def _clone(self, ctx: Context) -> Any:
        twin = object.__new__(type(self))
        for name in _slot_names(type(self)):
            if hasattr(self, name):
                setattr(twin, name, getattr(self, name))
        if hasattr(self, "__dict__"):  # a subclass without __slots__
            twin.__dict__.update(self.__dict__)
        twin._ctx = ctx.clone()
        rebound: dict[int, Any] = {}
        for name in _slot_names(type(self)):
            value = getattr(twin, name, None)
            if value is ctx.ptr:
                setattr(twin, name, twin._ctx.ptr)
            elif value is not None and type(value) is _fast.Binding:
                # the same hooks on the clone's context (one binding per context)
                if id(value) not in rebound:
                    rebound[id(value)] = value.rebound(twin._ctx.ptr, twin._ctx.address)
                setattr(twin, name, rebound[id(value)])
        if twin._binding is None:  # its own lock
            twin._guard = _fast.Guard(self._spec.name, self._guard._wait)
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
    """Every slot of a handle class, ``_fc`` included (HandleBase's field
    when the extension holds it)."""
    names = [n for c in cls.__mro__ for n in c.__dict__.get("__slots__", ())]
    return names if "_fc" in names else [*names, "_fc"]
