"""C-owned cipher contexts: 64-byte aligned, wiped before they are freed."""

from __future__ import annotations

from typing import Any

from ._core import ffi, lib
from ._errors import HandleClosed, InvalidArgument, InvalidType, NotPicklable

#: Every copy of a context, in C: ffi.memmove would be libc's, which leaves
#: the last bytes it moved in vector registers (see burn.c).
_copy_secret = lib.gcry_copy_secret

#: Far above any cipher's state; keeps a wrong size from reaching the allocator.
_MAX_SIZE = 1 << 24


class Context:
    """An algorithm's opaque state in C memory, plus a pristine copy.

    ``ptr`` (a cffi ``void *``) is what spec hooks pass to their native code;
    cffi accepts it in any other FFI's ``void *`` parameter.  With
    ``keep_copy``, the second half of the allocation keeps the state right
    after ``setkey`` so that ``reset()`` needs no new key schedule (libgcrypt
    keeps the same copy); handles without ``reset()`` do without it.
    """

    __slots__ = ("ptr", "size", "_span", "_saved", "_total")

    def __init__(self, size: int, keep_copy: bool = True) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidType(f"context size must be an int, not {type(size).__name__}")
        if not 0 <= size <= _MAX_SIZE:
            raise InvalidArgument(f"context size must be 0 to {_MAX_SIZE} bytes, got {size}")
        self.size = size
        self._span = (size + 63) // 64 * 64
        total = self._total = 2 * self._span if keep_copy else self._span
        raw = lib.gcry_ctx_alloc(total)
        if raw == ffi.NULL:
            raise MemoryError("cannot allocate a cipher context")
        # Wiped and freed by close() or, failing that, by the garbage
        # collector; the destructor is the C function itself (see core.c).
        self.ptr = ffi.gc(raw, lib.gcry_ctx_release)
        self._saved = ffi.cast("char *", self.ptr) + self._span if keep_copy else None

    def clone(self) -> Context:
        """A new allocation holding the same bytes (live state and saved
        copy): an independent context, as ``gcry_cipher_copy`` would give.
        Valid because a context holds no pointers into itself (the spec
        contract; every built-in context is plain arrays and integers)."""
        if self.ptr is None:
            raise HandleClosed("the context was freed")
        twin = Context(self.size, self._saved is not None)
        _copy_secret(twin.ptr, self.ptr, self._total)
        return twin

    def __copy__(self) -> Context:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Context:
        return self.clone()

    def __reduce_ex__(self, protocol: object) -> Any:
        raise NotPicklable("a cipher context lives in C memory and holds keys: "
                           "it cannot be pickled")

    @property
    def address(self) -> int:
        """The context address as an integer, for plugins using ctypes."""
        return int(ffi.cast("uintptr_t", self.ptr))

    @property
    def saved_address(self) -> int:
        """Where save() puts the post-setkey copy, as an integer (0: no copy)."""
        return 0 if self._saved is None else int(ffi.cast("uintptr_t", self._saved))

    def save(self) -> None:
        if self._saved is not None:
            _copy_secret(self._saved, self.ptr, self.size)

    def restore(self) -> None:
        _copy_secret(self.ptr, self._saved, self.size)

    def wipe(self) -> None:
        """Zero the live state (the post-setkey copy is kept for restore)."""
        lib.gcry_wipememory(self.ptr, self.size)

    def free(self) -> None:
        """Wipe and free now; the object must not be used afterwards."""
        ffi.release(self.ptr)
        self.ptr = None
        self._saved = None
