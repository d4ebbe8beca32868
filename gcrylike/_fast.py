"""The native fast path of the data calls (gcrylike/_native/fastcall.c).

A handle whose spec hooks are cffi functions of the expected C types gets a
``Binding``: its context address and the hooks' addresses, taken once, so a
data call is one ``METH_FASTCALL`` call into C (no cffi argument
conversion, no ``ffi.from_buffer``, the GIL kept below
:data:`GIL_THRESHOLD` bytes).  Without the extension (PyPy, a build
without it, ``GCRYLIKE_NO_FASTCALL=1``) or with hooks written in Python,
:func:`bind` returns None and the handle keeps its cffi path.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, Any

from ._core import ffi
from ._errors import HandleBusy, InvalidArgument, InvalidType

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
Binding: Any = fastcall.Binding if AVAILABLE else type(None)
#: The base of every handle class: with the extension its C base, whose one
#: field is the ``_fc`` slot the native encrypt/decrypt read; else object,
#: and the handle classes declare ``_fc`` in their own ``__slots__``.
if TYPE_CHECKING:  # to a type checker a plain base, as without the extension
    HandleBase = object
else:
    HandleBase = fastcall.HandleBase if AVAILABLE else object
#: The slots the handle classes declare themselves for what HandleBase holds.
BASE_SLOTS: tuple[str, ...] = () if AVAILABLE else ("_fc",)

#: Calls on at least this many bytes release the GIL (measured: see
#: docs/usage.rst, "Cost per call").
GIL_THRESHOLD = 8192
if AVAILABLE:
    fastcall.set_errors(HandleBusy)
    fastcall.set_gil_threshold(GIL_THRESHOLD)

# The C types of the hook shapes (cffi drops ``const``; byte pointers
# spelt ``unsigned char *`` or ``char *`` are the same to C).
CRYPT = "int(*)(void *, uint8_t *, uint8_t *, size_t)"
UPDATE = "int(*)(void *, uint8_t *, size_t)"
READ = UPDATE
AEAD = "int(*)(void *, uint8_t *, size_t, uint8_t *, size_t, uint8_t *, size_t, uint8_t *)"
BOX = "int(*)(void *, uint8_t *, size_t, uint8_t *, size_t, uint8_t *)"
TWEAK = "int(*)(void *, uint8_t *, uint8_t *, size_t, uint8_t *, size_t)"
SECTORS = "int(*)(void *, uint8_t *, size_t, size_t, uint64_t, int)"
MAC = "int(*)(uint8_t *, size_t, uint8_t *, size_t, uint8_t *, unsigned int)"
LOCATE = "int(*)(void *, size_t, uint64_t *, unsigned int *)"
SEEK = "int(*)(void *, uint64_t)"


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

_addresses: dict[tuple[Any, str], int | None] = {}


def _normalised(cname: str) -> str:
    return cname.replace("unsigned char *", "uint8_t *").replace("char *", "uint8_t *")


def hook_address(hook: Any, shape: str) -> int | None:
    """The address of ``hook`` if it is a native function (a cffi API-mode
    ``lib`` function or a cffi function pointer) of C type ``shape``, else
    None (a Python function, or another signature)."""
    key = (hook, shape)
    try:
        return _addresses[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable callable: not a cffi function
        return None
    try:  # a Python callable is no cdata: typeof refuses it
        ctype = ffi.typeof(hook)
        ok = ctype.kind == "function" and _normalised(ctype.cname) == shape
        address = int(ffi.cast("uintptr_t", ffi.cast("void *", hook))) if ok else None
    except (TypeError, ffi.error):
        address = None
    _addresses[key] = address
    return address


def bind(ctx: Any, hooks: tuple[tuple[Any, str] | None, ...], unit: int = 1, tag: int = 0,
         shared: bool = False, split_block: int = 0) -> Any:
    """A Binding of context ``ctx`` (a :class:`~gcrylike._context.Context`)
    to ``hooks`` (``(hook, shape)`` pairs by the positions fastcall.c uses,
    None where unused), or None when any of them cannot take the fast path.
    ``unit``: data lengths must be multiples of it (the block size);
    ``tag``: the size ``read`` returns and seal/open add or remove;
    ``split_block``: for streams whose hooks 2 and 3 are ``locate`` and
    ``seek`` (dropped if not native), the keystream block size, so that
    large requests can be split over threads.
    ``shared``: the data hooks only read the context, so calls may overlap
    (else one call at a time, a second thread gets :class:`HandleBusy`)."""
    if not AVAILABLE:
        return None
    addresses = []
    for i, pair in enumerate(hooks):
        address = None if pair is None or pair[0] is None else hook_address(*pair)
        if address is None and pair is not None:
            if split_block and i >= 2:  # no split, the rest still fast
                addresses, split_block = addresses[:2], 0
                break
            return None
        addresses.append(address)
    ctx_size = ctx.size if split_block else 0
    return fastcall.Binding(ctx.ptr, ctx.address, tuple(addresses), unit, tag, shared,
                            ctx_size, split_block or 64)


def mac_address(hook: Any) -> int | None:
    """The address of a one-shot MAC hook, if native."""
    return hook_address(hook, MAC) if AVAILABLE else None


def busy(name: str) -> HandleBusy:
    return HandleBusy(f"{name} handle is in use by another thread: a handle serves one "
                      "call at a time (copy.copy() it per thread)")


def check_idle(binding: Any, name: str) -> None:
    """Refuse to change or free a context while a call runs on it."""
    if binding is not None and binding.users:
        raise busy(name)


class Guard:
    """The one-call-at-a-time rule for a handle without a Binding (no
    extension, or hooks written in Python), with the Binding's interface:
    ``with guard:`` around a data call, ``lock()``/``unlock()`` around a
    key change, copy or close.  cffi releases the GIL in every native call,
    so without this two threads could run inside one context.  A second call
    raises :class:`HandleBusy`; on a shared handle (one-shot classes,
    Adiantum) it waits instead, as the calls there are independent."""

    __slots__ = ("_lock", "_wait", "_name")

    def __init__(self, name: str, shared: bool) -> None:
        self._lock = threading.Lock()
        self._wait = shared
        self._name = name

    def __enter__(self) -> None:
        if not self._lock.acquire(self._wait):
            raise busy(self._name)

    def __exit__(self, *exc: object) -> None:
        self._lock.release()

    @property
    def users(self) -> int:
        return int(self._lock.locked())

    lock = __enter__
    unlock = __exit__


def guard_for(binding: Any, name: str, shared: bool) -> Any:
    """What a handle's general path enters around native calls."""
    return binding if binding is not None else Guard(name, shared)
