"""Buffers at the cffi boundary: views of the caller's bytes-like objects
with our errors, and fresh outputs native code can fill."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ._core import ffi
from ._errors import InvalidArgument, InvalidLength, InvalidType, NotContiguous, ReadOnlyBuffer

U8_ARRAY = ffi.typeof("uint8_t[]")
CHAR_ARRAY = ffi.typeof("char[]")
ZERO = b"\0"
#: The least ``n`` for which ``ZERO * n`` is a new object native code may
#: fill: ``ZERO * 1`` is ``ZERO`` itself and ``ZERO * 0`` the shared ``b""``
#: (filling those would change every ``b"\0"`` of the process).
FRESH_ZERO_MIN = 2


def as_cbuffer(obj: Any, what: str, writable: bool = False) -> Any:
    """A cffi view of a bytes-like object, with our errors for bad input.

    Use it in a ``with`` block: the view is released on the way out, also
    when an exception propagates (a view kept alive by a traceback and
    collected after its memoryview crashes the interpreter).
    """
    if isinstance(obj, str):
        raise InvalidType(f"{what} must be bytes-like, not str (encode it first)")
    try:
        # positional arguments: cffi parses keywords about twice as slowly
        return ffi.from_buffer(CHAR_ARRAY, obj, writable)
    except (TypeError, BufferError, ValueError) as exc:
        raise buffer_refusal(obj, what, writable) from exc


def buffer_refusal(obj: Any, what: str, writable: bool) -> Exception:
    """Why ``obj`` cannot be used as a buffer, by cause and not by the
    exporter's own exception (a strided memoryview raises BufferError, a
    strided numpy array ValueError): not a buffer at all, not C-contiguous,
    or read-only where ``writable`` is needed."""
    kind = "a writable bytes-like object" if writable else "bytes-like"
    try:
        view = memoryview(obj)
    except TypeError:
        return InvalidType(f"{what} must be {kind}, not {type(obj).__name__}")
    with view:
        if not view.c_contiguous:
            return NotContiguous(f"{what} must be C-contiguous (bytes-like), not a strided "
                                 f"{type(obj).__name__}; pass bytes({what}) or a copy")
        if writable and view.readonly:
            return ReadOnlyBuffer(f"{what} must be writable, not a read-only "
                                  f"{type(obj).__name__}")
    return InvalidType(f"{what} must be {kind}, not {type(obj).__name__}")


def as_bytes(obj: Any, what: str) -> bytes:
    """``obj`` as ``bytes`` (itself when it already is), with our errors
    for anything that is not a contiguous bytes-like object."""
    if isinstance(obj, bytes):
        return obj
    with as_cbuffer(obj, what) as buf:
        return ffi.buffer(buf, len(buf))[:]


def writable_view(obj: Any) -> Any:
    """A cffi view of a writable contiguous buffer, else None (the caller
    then takes its general path, which explains the error)."""
    try:  # from_buffer refuses bytes, str, None and the rest itself
        return ffi.from_buffer(U8_ARRAY, obj, True)
    except (TypeError, ValueError, BufferError):
        return None


def _bytes_output_ok() -> bool:
    """Whether native code may fill a brand-new ``bytes`` object.

    ``ZERO * n`` with n >= 2 is a fresh, unshared object in CPython, and cffi
    passes a bytes argument to a pointer parameter as its own buffer, so
    filling it before anyone else sees it is what ``PyBytes_FromStringAndSize
    (NULL, n)`` does in C, and saves an allocation and a copy per call.
    Other interpreters may copy the argument, so check that a write lands.
    """
    if sys.implementation.name != "cpython":
        return False
    from ._core import lib

    probe, other = ZERO * 16, ZERO * 16
    lib.gcry_fill(probe, 0xA5, len(probe))
    return probe is not other and probe == b"\xa5" * 16 and other == bytes(16)


BYTES_OUTPUT_OK = _bytes_output_ok()

# Output buffers are written in full before they are read: skip the zeroing.
_new_uninit_alloc = ffi.new_allocator(should_clear_after_alloc=False)


def new_uninit(n: int) -> Any:
    """A C buffer of ``n`` bytes, not zeroed (it is written before it is read)."""
    return _new_uninit_alloc(U8_ARRAY, n)


def new_output(n: int) -> Any:
    """A fresh buffer native code can fill: bytes where safe, else a bytearray."""
    return ZERO * n if (n >= FRESH_ZERO_MIN and BYTES_OUTPUT_OK) else bytearray(n)


def check_overlap(dst: Any, src: Any, n: int) -> None:
    """Refuse an ``out=`` whose first ``n`` bytes overlap those of ``data``
    without starting at the same address (in place is ``out=data``); the
    native code refuses it too, but could only say "inv arg"."""
    if n:
        d, s = int(ffi.cast("uintptr_t", dst)), int(ffi.cast("uintptr_t", src))
        if d != s and d < s + n and s < d + n:
            raise InvalidArgument(f"out overlaps data ({abs(d - s)} bytes apart): pass "
                                  "out=data itself to work in place, or a separate buffer")


def run_into(out: Any, n: int, call: Callable[[Any], int], fail: Callable[[int], None],
             src: Any = None) -> Any:
    """The general path of an ``out=`` call: ``call(dst)`` fills ``n`` bytes
    of ``dst`` and returns an error code, which goes to ``fail`` (it
    raises).  Without ``out``, ``dst`` is a fresh buffer, returned as bytes;
    with it, ``dst`` is a view of ``out`` (at least ``n`` bytes, not
    overlapping the input view ``src`` unless it is the same) and the
    result is ``n``."""
    if out is None:
        result = new_output(n)
        with ffi.from_buffer(result) as dst:
            rc = call(dst)
        if rc:
            fail(rc)
        return result if type(result) is bytes else bytes(result)
    with as_cbuffer(out, "out", writable=True) as dst:
        if len(dst) < n:
            raise InvalidLength(f"out has {len(dst)} bytes, need {n}")
        if src is not None:
            check_overlap(dst, src, n)
        rc = call(dst)
    if rc:
        fail(rc)
    return n


def sizes_text(sizes: tuple[int, ...]) -> str:
    return " or ".join(str(s) for s in sizes)
