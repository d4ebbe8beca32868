"""Buffers at the cffi boundary: views of the caller's bytes-like objects
with our errors, and fresh outputs native code can fill."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._core import ffi
from ._errors import InvalidArgument, InvalidLength, InvalidType, NotContiguous, ReadOnlyBuffer

CHAR_ARRAY = ffi.typeof("char[]")


def as_cbuffer(obj: Any, what: str, writable: bool = False) -> Any:
    """A cffi view of a bytes-like object, with our errors for bad input.

    Use it in a ``with`` block: the view is released on the way out, also
    when an exception propagates (a view kept alive by a traceback and
    collected after its memoryview crashes the interpreter).
    """
    if isinstance(obj, str):
        raise InvalidType(f"{what} must be bytes-like, not str (encode it first)")
    try:
        # positional arguments: cffi parses keywords more slowly (docs/usage.rst,
        # "Cost per call")
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


def check_overlap(dst: Any, src: Any, n: int, what: str = "out") -> None:
    """Refuse an output buffer (``out=``, or the one-shot classes' ``buf``,
    named ``what``) whose first ``n`` bytes overlap those of ``data``
    without starting at the same address (in place); the native code
    refuses it too, but could only say "inv arg".  The words "must not
    overlap" are cryptography's, which its users' tests look for."""
    if n:
        d, s = int(ffi.cast("uintptr_t", dst)), int(ffi.cast("uintptr_t", src))
        if d != s and d < s + n and s < d + n:
            raise InvalidArgument(f"{what} overlaps data ({abs(d - s)} bytes apart): buffers "
                                  f"must not overlap unless {what} is data itself (in place)")


def run_into(out: Any, n: int, call: Callable[[Any], Any], fail: Callable[[int], None],
             src: Any = None) -> Any:
    """The general path of an ``out=`` call: ``call(dst)`` fills ``n`` bytes
    of ``dst`` and returns an error code, which goes to ``fail`` (it
    raises).  Without ``out``, ``dst`` is a fresh buffer, returned as bytes;
    with it, ``dst`` is a view of ``out`` (at least ``n`` bytes, not
    overlapping the input view ``src`` unless it is the same) and the
    result is ``n``."""
    if out is None:
        result = bytearray(n)  # a new object: native code never fills a bytes
        with ffi.from_buffer(result) as dst:
            rc = call(dst)
        if rc:
            fail(rc)
        return bytes(result)
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
    """The accepted sizes for a message, smallest first: "32", "16 or 32",
    "8, 12 or 16"."""
    words = [str(s) for s in sorted(set(sizes))]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"
