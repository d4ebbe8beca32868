"""The call layer of every handle: its Binding (gcrylike/_native/fastcall.c).

Every handle has one Binding, made by :func:`bind` from its context and its
spec's hooks.  The Binding is the handle's gate, the one place the call
discipline is written (see fastcall.c): a data call takes the caller's
buffers, then enters the context (``HandleClosed`` once closed,
``HandleBusy`` while another call runs or the context is held), runs the
hook, leaves.  ``with binding as ptr:`` is that entry for the cffi path
(``ptr`` is the context's cffi pointer, the only place the cffi path gets
it); ``with binding.exclusive():`` holds the context alone for setkey,
setiv, reset, copy and close.

When the hooks of a kind (:data:`KINDS`) are cffi functions of the C types
the kind names, the Binding also calls them itself: a data call is then one
``METH_FASTCALL`` call into C (no cffi argument conversion, no
``ffi.from_buffer``, the GIL kept below :data:`GIL_THRESHOLD` bytes).
Otherwise (hooks written in Python) it is a plain gate, kind ``"gate"``.
Without the extension (PyPy, a build without it, ``GCRYLIKE_NO_FASTCALL=1``)
:class:`Gate` below follows the same rules and passes the same tests.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, Any

from ._core import ffi, lib
from ._errors import HandleBusy, HandleClosed, InvalidArgument, InvalidType

_DISABLED = os.environ.get("GCRYLIKE_NO_FASTCALL", "").strip().lower() not in (
    "", "0", "no", "false")

fastcall: Any = None
if not _DISABLED and sys.implementation.name == "cpython":
    try:
        from . import _fastcall as fastcall
    except ImportError:  # built without it: the cffi path serves
        fastcall = None

#: Whether data calls can take the native fast path in this process.
AVAILABLE = fastcall is not None
#: The exception native hooks' error codes arrive as (never seen by users).
Failure: type[BaseException] = fastcall.Failure if AVAILABLE else type("Failure", (Exception,), {})
#: The base of every handle class: with the extension its C base, whose one
#: field is the ``_binding`` slot the native methods read; else object, and
#: the handle classes declare ``_binding`` in their own ``__slots__``.
if TYPE_CHECKING:  # to a type checker a plain base, as without the extension
    HandleBase = object
else:
    HandleBase = fastcall.HandleBase if AVAILABLE else object
#: The slots the handle classes declare themselves for what HandleBase holds.
BASE_SLOTS: tuple[str, ...] = () if AVAILABLE else ("_binding",)

#: Calls on at least this many bytes release the GIL (see docs/usage.rst,
#: "Cost per call").
GIL_THRESHOLD = 8192
if AVAILABLE:
    fastcall.set_errors(HandleBusy, HandleClosed)
    fastcall.set_gil_threshold(GIL_THRESHOLD)
    fastcall.set_copy_secret(int(ffi.cast("uintptr_t", lib.gcry_copy_secret)))

#: The hook kinds: ``{kind: (id, ((hook, C type, optional), ...))}``, as
#: fastcall.c declares them (its KIND_DEFS); a handle class names its kind
#: and gives its spec's hooks by these names.
KINDS: dict[str, tuple[int, tuple[tuple[str, str, bool], ...]]] = (
    fastcall.KINDS if AVAILABLE else {})
#: The C type of a one-shot MAC hook.
MAC_SHAPE: str = fastcall.MAC_SHAPE if AVAILABLE else ""


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


#: The default of :func:`set_threads`: the CPUs this process may run on, at
#: most 8.
DEFAULT_THREADS = min(_cpus(), 8)
#: Native threads one large call may use now (see :func:`set_threads`).
THREADS = DEFAULT_THREADS


def set_threads(n: int | None = None) -> int:
    """How many native threads one large call may spread over: a sector
    batch (``encrypt_sectors`` without ``threads=``) and a stream
    ``encrypt``/``decrypt`` of 1 MiB or more (each thread gets at least
    128 KiB of sectors or 256 KiB of stream).  ``None`` restores the default,
    the CPUs this process may use (at most 8); 1 keeps every call on the
    calling thread.  Results are the same whatever the count.  Returns the
    previous setting.  Only the native fast path uses threads."""
    global THREADS
    if n is None:
        n = DEFAULT_THREADS
    elif isinstance(n, bool) or not isinstance(n, int):
        raise InvalidType(f"threads must be an int or None, not {type(n).__name__}")
    elif not 1 <= n <= 64:
        raise InvalidArgument(f"threads must be 1 to 64, got {n}")
    old, THREADS = THREADS, n
    if fastcall is not None:
        fastcall.set_threads(n)
    return old


set_threads(DEFAULT_THREADS)

_addresses: dict[tuple[Any, str | None], int | None] = {}


def _normalised(cname: str) -> str:
    return cname.replace("unsigned char *", "uint8_t *").replace("char *", "uint8_t *")


def hook_address(hook: Any, shape: str | None = None) -> int | None:
    """The address of ``hook`` if it is a native function (a cffi API-mode
    ``lib`` function or a cffi function pointer) of C type ``shape`` (None:
    of any type), else None (a Python function, or another signature)."""
    key = (hook, shape)
    try:
        return _addresses[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable callable: not a cffi function
        return None
    try:  # a Python callable is no cdata: typeof refuses it
        ctype = ffi.typeof(hook)
        ok = ctype.kind == "function" and (shape is None or _normalised(ctype.cname) == shape)
        address = int(ffi.cast("uintptr_t", ffi.cast("void *", hook))) if ok else None
    except (TypeError, ffi.error):
        address = None
    _addresses[key] = address
    return address


def _native_hooks(kind: str, hooks: dict[str, Any]) -> tuple[int | None, ...] | None:
    """The addresses of ``hooks`` in the kind's order, or None when a
    required one is not a native function of its C type (an optional one
    that is not becomes None)."""
    out = []
    for name, shape, optional in KINDS[kind][1]:
        hook = hooks.get(name)
        address = None if hook is None else hook_address(hook, shape)
        if address is None and not optional:
            return None
        out.append(address)
    return tuple(out)


def bind(ctx: Any, name: str, kind: str, hooks: dict[str, Any], unit: int = 1, tag: int = 0,
         shared: bool = False, split_block: int = 0) -> Any:
    """The Binding of context ``ctx`` (a :class:`~gcrylike._context.Context`)
    for a handle of algorithm ``name`` whose hooks of kind ``kind`` are
    ``hooks`` (by the names :data:`KINDS` gives).  ``unit``: data lengths
    must be multiples of it (the block size); ``tag``: the size ``read``
    returns and seal/open add or remove; ``split_block``: for streams with
    native ``locate`` and ``seek``, the keystream block size, so that large
    requests can be split over threads.  ``shared``: the data hooks only
    read the context, so calls may overlap (else one call at a time).
    Hooks that are not all native give a plain gate (kind ``"gate"``)."""
    if not AVAILABLE:
        return Gate(name, ctx.ptr, shared)
    addresses = _native_hooks(kind, hooks)
    if addresses is None:
        kind, addresses = "gate", ()
    split = kind == "stream" and split_block and None not in addresses[2:4]
    return fastcall.Binding(name, KINDS[kind][0], ctx.ptr, ctx.address, addresses, unit, tag,
                            shared, ctx.size if split else 0, split_block or 64)


def is_native(hook: Any) -> bool:
    """Whether ``hook`` is a native function rather than Python code."""
    return hook_address(hook) is not None


def selftests_changed() -> None:
    """A self-test result was recorded or forgotten: every handle's next
    setkey takes the general path, which runs the first-use gate."""
    if AVAILABLE:
        fastcall.selftests_changed()


def mac_address(hook: Any) -> int | None:
    """The address of a one-shot MAC hook, if native."""
    return hook_address(hook, MAC_SHAPE) if AVAILABLE else None


class Gate:
    """The Binding's gate without the extension: the same rules, from the
    same description (fastcall.c, "Binding"), in Python.  ``with gate as
    ptr:`` enters for one call (HandleClosed once detached, HandleBusy while
    another call runs on an exclusive gate or the context is held);
    ``with gate.exclusive():`` holds it alone.  Nothing waits.  The counts
    change under a lock of their own, released before any hook runs.  One
    limit of Python: a signal handler that raises at the very entry of
    ``__exit__`` leaves the count taken (the C Binding has no such point)."""

    __slots__ = ("_name", "_ptr", "_shared", "_state", "_users", "_excl", "_generation")
    kind = "gate"

    @property
    def ready(self) -> bool:
        """Always False: a gate has no native path (setting it is ignored,
        as for a Binding of kind "gate")."""
        return False

    @ready.setter
    def ready(self, value: bool) -> None:
        pass

    def __init__(self, name: str, ptr: Any, shared: bool) -> None:
        self._name = name
        self._ptr = ptr
        self._shared = shared
        self._state = threading.Lock()
        self._users = 0
        self._excl = False
        self._generation = _generation

    def _after_fork_check(self) -> None:
        if self._generation != _generation:
            self._users, self._excl, self._generation = 0, False, _generation

    def _busy(self) -> HandleBusy:
        return HandleBusy(f"{self._name} handle is in use by another call: a handle serves "
                          "one call at a time, and is not changed or closed during one "
                          "(copy.copy() it per thread)")

    def __enter__(self) -> Any:
        with self._state:
            self._after_fork_check()
            if self._ptr is None:
                raise HandleClosed(f"{self._name} handle is closed")
            if self._users and (not self._shared or self._excl):
                raise self._busy()
            self._users += 1
            return self._ptr

    def __exit__(self, *exc: object) -> None:
        with self._state:
            self._users -= 1

    def exclusive(self) -> _Exclusive:
        return _Exclusive(self)

    def _hold(self) -> None:
        with self._state:
            self._after_fork_check()
            if self._users:
                raise self._busy()
            self._users, self._excl = 1, True

    def _release(self) -> None:
        with self._state:
            self._users, self._excl = 0, False

    def detach(self) -> None:
        self._ptr = None

    def rebound(self, ptr: Any, address: int) -> Gate:
        return Gate(self._name, ptr, self._shared)

    def allow_setkey(self, token: int, key_sizes: tuple[int, ...], size: int,
                     saved: int) -> None:
        """Nothing: setkey has no native path here."""

    @property
    def users(self) -> int:
        with self._state:
            self._after_fork_check()
            return self._users

    @property
    def busy(self) -> bool:
        with self._state:
            self._after_fork_check()
            return bool(self._users and (not self._shared or self._excl))

    @property
    def attached(self) -> bool:
        return self._ptr is not None


class _Exclusive:
    __slots__ = ("_gate",)

    def __init__(self, gate: Gate) -> None:
        self._gate = gate

    def __enter__(self) -> None:
        self._gate._hold()

    def __exit__(self, *exc: object) -> None:
        self._gate._release()


#: Bumped in a fork() child: counts taken before it are void there (a call
#: running in another thread of the parent does not exist in the child).
_generation = 0


def _after_fork_in_child() -> None:
    global _generation
    _generation += 1
    if fastcall is not None:
        fastcall.after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
