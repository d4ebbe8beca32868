"""ctypes helpers shared by the adapters of C libraries (libsodium, libgcrypt)."""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

from .base import PeerUnavailable


def buffer_address(buf: Any, writable: bool) -> tuple[int, Any]:
    """(address, keep-alive object) of a contiguous buffer, without copying
    when it is writable or ``bytes``; other read-only buffers are copied."""
    if isinstance(buf, bytes):
        return ctypes.cast(ctypes.c_char_p(buf), ctypes.c_void_p).value or 0, buf
    mv = memoryview(buf)
    if mv.readonly:
        if writable:
            raise TypeError("dst must be a writable buffer")
        keep: Any = (ctypes.c_char * mv.nbytes).from_buffer_copy(mv)
    else:
        keep = (ctypes.c_char * mv.nbytes).from_buffer(mv)
    return ctypes.addressof(keep), keep


def find_library(names: tuple[str, ...], short: str) -> ctypes.CDLL:
    candidates = list(names)
    found = ctypes.util.find_library(short)
    if found:
        candidates.insert(0, found)
    errors = []
    for cand in candidates:
        try:
            return ctypes.CDLL(cand)
        except OSError as exc:
            errors.append(str(exc))
    raise PeerUnavailable(f"lib{short} not found ({'; '.join(errors) or 'no candidates'})")


def c_function(lib: ctypes.CDLL, name: str, restype: Any, *argtypes: Any) -> Any:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f
