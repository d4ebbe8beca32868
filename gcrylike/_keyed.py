"""The life cycle every handle shares: a spec, the implementation chosen
for it, a C context and its Binding (the one call discipline, see
gcrylike/_fast.py); ``setkey`` with the first-use self-test; ``close``
wipes.  Each kind of handle adds its own operations."""

from __future__ import annotations

from typing import Any, NoReturn, Protocol, TypeVar, cast, overload

from . import _fast, _registry
from ._buffers import as_cbuffer, run_into, sizes_text
from ._context import Context
from ._errors import HandleClosed, InvalidKeyLength, MissingKey, NotPicklable, error_for
from ._spec import Implementation
from ._typing import BytesLike

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
    class with ``_crypt(which, data, out)`` (the cffi path, which also
    explains every refusal) and ``_data_error(rc, which)``.  With the
    extension the handle's method is written in C (fastcall.data_method),
    calls the Binding ``_fc`` itself and this function only for the rest
    (other argument forms, refusals); without it the native path is absent
    and this is the method."""

    def method(self: Any, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        fc = self._fc
        if fc is not None:  # the native path, for argument forms C did not take
            try:
                result = (fc.encrypt if which == 0 else fc.decrypt)(data, out)
            except _Failure as exc:
                raise self._data_error(exc.args[0], which) from None
            if result is not NotImplemented:
                return result
        return self._crypt(which, data, out)

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

    ``_binding`` is the handle's Binding (its gate; see gcrylike/_fast.py),
    ``_fc`` the same Binding while data calls may take its native path (a
    key in place, hooks native), else None."""

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_selftesting", "_binding",
                 *_fast.BASE_SLOTS)
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
        kind, hooks, *rest = self._hooks()
        self._binding: Any = _fast.bind(self._ctx, spec.name, kind, hooks, *rest)
        self._fc: Any = None
        # the self-test runner's own handles skip the first-use gate
        self._selftesting = _selftesting

    def _hooks(self) -> tuple[Any, ...]:
        """The arguments of gcrylike._fast.bind after the context and name:
        the hook kind, the spec's hooks by the kind's names, and the kind's
        unit, tag size, whether calls may overlap and (streams) the
        keystream block size for splitting large calls."""
        return ("gate", {})

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
            self._live()  # closed meanwhile (close forgets the key): that is the error
            raise MissingKey(f"{self._spec.name}: setkey() first")
        return ctx

    def _ready(self) -> Context:
        """The context, if data calls may run on it now (else the error that
        says why); subclasses add their own conditions."""
        return self._keyed()

    def setkey(self, key: BytesLike) -> None:
        """Install a key.  The first setkey of each implementation in the
        process runs its known-answer self-test; if it fails, a handle that
        chose its driver automatically moves to the next best one."""
        self._live()  # state errors first; checked again while held
        with as_cbuffer(key, "key") as kbuf:
            if len(kbuf) not in self._spec.key_sizes:
                raise InvalidKeyLength(f"{self._spec.name} key must be "
                                       f"{sizes_text(self._spec.key_sizes)} bytes, "
                                       f"got {len(kbuf)}")
            if not self._selftesting:
                self._impl = _registry.ready_implementation(self._spec, self._impl, self._auto)
            with self._binding.exclusive():  # no call runs while the key changes
                ctx = self._live()
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
        self._fc = None

    def _key_installed(self, ctx: Context) -> None:
        """A key is in place: subclasses enable the native path here
        (:meth:`_native_ready`) when nothing else is missing."""
        self._native_ready()

    def _native_ready(self) -> None:
        """Data calls may take the Binding's native path from now on, if it
        has one."""
        self._fc = self._binding if self._binding.kind != "gate" else None

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

    def _data_hook(self, which: int) -> Any:
        """The spec's encrypt (``which`` 0) or decrypt (1) hook."""
        raise NotImplementedError

    def _check_length(self, n: int) -> None:
        """Refuse a data length the kind cannot take (block multiples)."""

    def _crypt(self, which: int, data: Any, out: Any) -> bytes | int:
        """The cffi path of encrypt/decrypt: the buffers, then the gate."""
        hook = self._data_hook(which)
        self._ready()  # state errors first; checked again inside the gate
        with as_cbuffer(data, "data") as src:
            n = len(src)
            self._check_length(n)

            def call(dst: Any) -> Any:
                with self._binding as ptr:
                    self._ready()
                    return hook(ptr, dst, src, n)

            return run_into(out, n, call, lambda rc: self._fail(rc, which), src)

    def _fail(self, rc: int, which: int) -> NoReturn:
        raise self._data_error(rc, which)

    def close(self) -> None:
        """Wipe and free the context; later calls raise HandleClosed.
        :class:`~gcrylike.HandleBusy` while a call runs on the handle
        (nothing is freed then)."""
        if self._ctx is None:
            return
        with self._binding.exclusive():
            ctx = self._ctx
            if ctx is None:  # closed meanwhile
                return
            self._binding.detach()
            self._ctx = None  # first: a state check between these sees it closed
            self._forget_key()
            ctx.free()

    # -- copies -------------------------------------------------------------
    def __copy__(self: _Handle) -> _Handle:
        """An independent handle in the same state: same algorithm and
        driver, a new C context holding a byte copy of this one (live state
        and the post-setkey copy) with its own Binding, so the clone
        continues the stream or MAC exactly where this handle is, and
        closing either leaves the other working."""
        with self._binding.exclusive():  # no copy of a half-done call
            return self._clone(self._live())

    def _clone(self, ctx: Context) -> Any:
        twin = object.__new__(type(self))
        for name in _slot_names(type(self)):
            if hasattr(self, name):
                setattr(twin, name, getattr(self, name))
        if hasattr(self, "__dict__"):  # a subclass without __slots__
            twin.__dict__.update(self.__dict__)
        twin._ctx = ctx.clone()
        twin._binding = self._binding.rebound(twin._ctx.ptr, twin._ctx.address)
        twin._fc = None if self._fc is None else twin._binding
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
