"""The life cycle every handle shares: a spec, the implementation chosen
for it, a C context and its Binding (the one call discipline, see
gcrylike/_fast.py); ``setkey`` with the first-use self-test; ``close``
wipes.  Each kind of handle adds its own operations."""

from __future__ import annotations

import types
from typing import Any, NoReturn, Protocol, TypeVar, cast, overload

from . import _fast, _registry
from ._buffers import as_cbuffer, run_into, sizes_text
from ._context import Context
from ._core import ffi
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


class UpdateMethod(Protocol):
    """The type of ``update``/``authenticate``: absorb bytes."""

    def __call__(self, data: BytesLike) -> None: ...


class SetkeyMethod(Protocol):
    """The type of ``setkey``: install a key."""

    def __call__(self, key: BytesLike) -> None: ...


class ReadMethod(Protocol):
    """The type of ``digest``/``gettag``: the tag so far."""

    def __call__(self) -> bytes: ...


class SealMethod(Protocol):
    """The type of a one-shot AEAD's ``encrypt``/``decrypt``."""

    def __call__(self, nonce: BytesLike, data: BytesLike,
                 associated_data: BytesLike | None = None) -> bytes: ...


class TweakMethod(Protocol):
    """The type of a tweakable cipher's ``encrypt``/``decrypt``."""

    @overload
    def __call__(self, data: BytesLike, tweak: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def __call__(self, data: BytesLike, tweak: BytesLike, *, out: BytesLike) -> int: ...


#: The method descriptors native_method made: (owner, name) -> the general
#: Python method they stand for (docs/conf.py reads its annotations).
NATIVE_METHODS: dict[tuple[type, str], Any] = {}


class _NativeMethod:
    """Stands in a class body for the method, which needs the class: once
    the class exists, ``__set_name__`` replaces it with
    ``fastcall.native_method(owner, name, op, signature, doc)``, an ordinary
    method descriptor (no bound method, no argument tuple per call), or
    without the extension with the class's ``_general_<op>`` itself under
    the public name."""

    def __init__(self, op: str, signature: str, doc: str) -> None:
        self.op, self.signature, self.doc = op, signature, doc

    def __set_name__(self, owner: type, name: str) -> None:
        general = getattr(owner, f"_general_{self.op}")
        if _fast.AVAILABLE:
            method = _fast.fastcall.native_method(owner, name, self.op, self.signature,
                                                  self.doc)
        else:  # a copy of the general function: its own name and docstring
            method = types.FunctionType(general.__code__, general.__globals__, name,
                                        general.__defaults__, general.__closure__)
            method.__kwdefaults__ = general.__kwdefaults__
            method.__annotations__ = general.__annotations__
            method.__qualname__ = f"{owner.__qualname__}.{name}"
            method.__doc__ = self.doc
        setattr(owner, name, method)
        NATIVE_METHODS[(owner, name)] = general


def native_method(op: str, signature: str, doc: str) -> Any:
    """A handle class's public method (its name is the attribute's) that runs
    the Binding's operation ``op`` (fastcall.c's OPS: "encrypt", "update",
    "seal", ...).  With the extension it is written in C: the native path
    when the handle has one and the arguments have the operation's plain
    form, else the class's ``_general_<op>`` (the cffi path, which explains
    every refusal); a native error code becomes ``_native_error(op, rc)``.
    Without the extension it is ``_general_<op>`` under this name."""
    return _NativeMethod(op, signature, doc)


def data_method(which: int, doc: str) -> DataMethod:
    """A handle class's ``encrypt`` (``which`` 0) or ``decrypt`` (1) method:
    new bytes, or with ``out=`` the count written."""
    return cast(DataMethod, native_method("decrypt" if which else "encrypt",
                                          "($self, data, *, out=None)", doc))


_Handle = TypeVar("_Handle", bound="KeyedHandle")


class KeyedHandle(_fast.HandleBase):
    """Base of every handle class (not used directly).

    ``_binding`` is the handle's Binding (its gate and, where the hooks are
    native, its native path, taken while ``_binding.ready``; see
    gcrylike/_fast.py)."""

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_selftesting",
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
            hook = self._spec.setkey
            native = _fast.is_native(hook)
            with self._binding.exclusive():  # no call runs while the key changes
                ctx = self._live()
                self._forget_key()
                if native:
                    rc = hook(ctx.ptr, kbuf, len(kbuf), self._impl.token)
                else:
                    rc = hook(ctx.ptr, kbuf, self._impl)
                if rc:  # an ErrorCode, honoured as the data hooks' codes are
                    ctx.wipe()  # no half-installed key stays behind
                    raise error_for(rc, f"{self._spec.name} setkey")
                ctx.save()  # the pristine copy reset() restores
                self._haskey = True
                self._key_installed(ctx)
                if native:  # the same steps, in C, for the next setkeys
                    self._binding.allow_setkey(self._impl.token, self._spec.key_sizes,
                                               ctx.size, ctx.saved_address)

    _general_setkey = setkey  # what a native setkey (MacHandle) stands for

    def _setkey_failed(self) -> None:
        """The native setkey hook refused a key (the Binding calls this with
        the context held): as on the general path, the key is forgotten and
        no half-installed key stays behind."""
        self._forget_key()
        self._live().wipe()

    def _forget_key(self) -> None:
        """The key is about to change or go: drop state that depends on it."""
        self._haskey = False
        self._binding.ready = False

    def _key_installed(self, ctx: Context) -> None:
        """A key is in place: subclasses enable the native path here
        (:meth:`_native_ready`) when nothing else is missing."""
        self._native_ready()

    def _native_ready(self) -> None:
        """Data calls may take the Binding's native path from now on, if it
        has one."""
        self._binding.ready = True  # a gate (no native hooks) stays not ready

    @property
    def _path(self) -> str:
        """Which path data calls take now: "fastcall" (the native fast
        path), "cffi", or "none" (no key, closed)."""
        if self._binding.ready:
            return "fastcall"
        return "cffi" if self._ctx is not None and self._haskey else "none"

    def _native_error(self, op: str, rc: int) -> Any:
        """What native code ``rc`` from the Binding's operation ``op`` means:
        the exception to raise, or NotImplemented for the general method to
        explain; subclasses say more where they can."""
        return error_for(rc, self._spec.name)

    def _general_encrypt(self, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        return self._crypt(0, data, out)

    def _general_decrypt(self, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        return self._crypt(1, data, out)

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

    def _pass_in(self, hook: Any, data: Any, what: str) -> Any:
        """The cffi path of a call handing one input to ``hook(ctx, buf,
        n)`` (update, authenticate, verify, checktag): state errors first,
        the buffer, then the gate; the hook's code."""
        self._ready()
        with as_cbuffer(data, what) as buf:
            with self._binding as ptr:
                self._ready()
                return hook(ptr, buf, len(buf))

    def _take_out(self, hook: Any, n: int) -> tuple[Any, bytes]:
        """The cffi path of a call reading ``n`` bytes from ``hook(ctx,
        out, n)`` (digest, gettag) into a new object: its code and bytes."""
        out = bytearray(n)
        with ffi.from_buffer(out) as buf:
            with self._binding as ptr:
                self._ready()
                rc = hook(ptr, buf, n)
        return rc, bytes(out)

    def _fail(self, rc: int, which: int) -> NoReturn:
        raise self._native_error("decrypt" if which else "encrypt", rc)

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
    """Every slot of a handle class, ``_binding`` included (HandleBase's
    field when the extension holds it)."""
    names = [n for c in cls.__mro__ for n in c.__dict__.get("__slots__", ())]
    return names if "_binding" in names else [*names, "_binding"]
