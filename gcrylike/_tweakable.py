"""Length-preserving tweakable encryption for storage: Adiantum."""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from typing import Any, Literal, overload

from . import _fast, _registry
from ._buffers import (
    BYTES_OUTPUT_OK,
    FRESH_ZERO_MIN,
    ZERO,
    as_cbuffer,
    run_into,
    writable_view,
)
from ._context import Context
from ._core import ffi
from ._errors import (
    ErrorCode,
    InvalidArgument,
    InvalidIVLength,
    InvalidLength,
    InvalidType,
    check,
    error_for,
)
from ._keyed import KeyedHandle
from ._spec import Implementation, TweakableCipherSpec
from ._typing import BytesLike

_Failure = _fast.Failure




@dataclass(frozen=True)
class TweakableInfo:
    """Which algorithm and driver a handle uses."""

    algorithm: str
    driver: str
    min_length: int
    max_tweak: int


class TweakableHandle(KeyedHandle):
    """``setkey``, then ``encrypt(data, tweak)``/``decrypt(data, tweak)``
    (same length out as in) or the in-place sector calls.  The tweak is
    required (a sector number or position), so that equal sectors at
    different places do not encrypt alike."""

    __slots__ = ("_fast_ptr", "_enc", "_dec")

    def __init__(self, spec: TweakableCipherSpec, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        super().__init__(spec, impl, auto, _selftesting=_selftesting)
        self._fast_ptr: Any = None
        self._enc, self._dec = spec.encrypt, spec.decrypt

    @property
    def info(self) -> TweakableInfo:
        """Algorithm, driver in use and limits."""
        s = self._spec
        return TweakableInfo(s.name, self._impl.driver, s.min_length, s.max_tweak)

    def _forget_key(self) -> None:
        super()._forget_key()
        self._fast_ptr = None

    def _fast_hooks(self) -> tuple[tuple, int, int, bool]:
        s = self._spec
        # unit: the least sector size the sector call takes
        return ((s.encrypt, _fast.TWEAK), (s.decrypt, _fast.TWEAK),
                (s.crypt_sectors, _fast.SECTORS)), s.min_length, 0, bool(s.reentrant)

    def _key_installed(self, ctx: Context) -> None:
        self._fc = self._bound(ctx)
        # cffi functions take bytes as they are and check lengths natively
        if BYTES_OUTPUT_OK and inspect.isbuiltin(self._enc) and inspect.isbuiltin(self._dec):
            self._fast_ptr = ctx.ptr

    @overload
    def encrypt(self, data: BytesLike, tweak: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def encrypt(self, data: BytesLike, tweak: BytesLike, *, out: BytesLike) -> int: ...

    def encrypt(self, data: BytesLike, tweak: BytesLike, *,
                out: BytesLike | None = None) -> bytes | int:
        """Encrypt one message of at least ``info.min_length`` bytes (16 for
        Adiantum) under ``tweak`` (at most ``info.max_tweak`` bytes, 32 for
        Adiantum); the result has the length of ``data``."""
        fc = self._fc
        if fc is not None:  # the native fast path (gcrylike/_native/fastcall.c)
            try:
                result = fc.tweak_encrypt(data, tweak, out)
            except _Failure:
                result = NotImplemented  # a refusal: the general path explains it
            if result is not NotImplemented:
                return result
        with self._guard:  # the cffi path (waits: see Guard)
            ptr = self._fast_ptr
            if ptr is not None and out is data and type(tweak) is bytes:
                # in place, the common storage case: one view, one native call
                dst = writable_view(out)
                if dst is not None:
                    n = len(dst)
                    enc = self._enc  # a local: see SealingHandle
                    rc = enc(ptr, dst, dst, n, tweak, len(tweak))
                    if rc:
                        ffi.release(dst)
                        self._refused(rc, n, len(tweak))
                    return n
            return self._run(self._enc, data, tweak, out)

    @overload
    def decrypt(self, data: BytesLike, tweak: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def decrypt(self, data: BytesLike, tweak: BytesLike, *, out: BytesLike) -> int: ...

    def decrypt(self, data: BytesLike, tweak: BytesLike, *,
                out: BytesLike | None = None) -> bytes | int:
        """Decrypt one message; same conventions as :meth:`encrypt`."""
        fc = self._fc
        if fc is not None:
            try:
                result = fc.tweak_decrypt(data, tweak, out)
            except _Failure:
                result = NotImplemented  # a refusal: the general path explains it
            if result is not NotImplemented:
                return result
        with self._guard:
            ptr = self._fast_ptr
            if ptr is not None and out is data and type(tweak) is bytes:
                dst = writable_view(out)
                if dst is not None:
                    n = len(dst)
                    dec = self._dec
                    rc = dec(ptr, dst, dst, n, tweak, len(tweak))
                    if rc:
                        ffi.release(dst)
                        self._refused(rc, n, len(tweak))
                    return n
            return self._run(self._dec, data, tweak, out)

    def _run(self, hook: Any, data: Any, tweak: Any, out: Any) -> bytes | int:
        ptr = self._fast_ptr
        if ptr is not None and type(tweak) is bytes:
            # fast paths: bytes in and a fresh bytes out, or a bytearray in
            # place; the native code checks the lengths
            if out is None and type(data) is bytes and len(data) >= FRESH_ZERO_MIN:
                n = len(data)
                result = ZERO * n
                rc = hook(ptr, result, data, n, tweak, len(tweak))
                if rc:
                    self._refused(rc, n, len(tweak))
                return result
            dst = writable_view(out) if out is data else None
            if dst is not None:
                n = len(dst)
                rc = hook(ptr, dst, dst, n, tweak, len(tweak))
                if rc:
                    ffi.release(dst)
                    self._refused(rc, n, len(tweak))
                return n
        ctx = self._keyed()
        with as_cbuffer(data, "data") as src, as_cbuffer(tweak, "tweak") as tbuf:
            n, tlen = len(src), len(tbuf)
            if n < self._spec.min_length:
                raise InvalidLength(f"{self._spec.name} needs at least "
                                    f"{self._spec.min_length} bytes, got {n}")
            if tlen > self._spec.max_tweak:
                raise InvalidIVLength(f"{self._spec.name} tweak is at most "
                                      f"{self._spec.max_tweak} bytes, got {tlen}")
            return run_into(out, n, lambda dst: hook(ctx.ptr, dst, src, n, tbuf, tlen),
                            lambda rc: check(rc, self._spec.name), src)

    def _refused(self, rc: int, n: int, tlen: int) -> None:
        if rc == ErrorCode.INV_LENGTH:
            raise InvalidLength(f"{self._spec.name} needs at least "
                                f"{self._spec.min_length} bytes, got {n}")
        if rc == ErrorCode.INV_IV:
            raise InvalidIVLength(f"{self._spec.name} tweak is at most "
                                  f"{self._spec.max_tweak} bytes, got {tlen}")
        raise error_for(rc, self._spec.name)

    def encrypt_sectors(self, buf: BytesLike, first_sector: int, sector_size: int = 4096, *,
                        threads: int | None = None) -> None:
        """Encrypt ``buf`` (whole sectors) in place, sector ``i`` under the
        tweak le64(first_sector + i) || 0^24 (dm-crypt's plain64 IV); one
        native call without the GIL for the whole batch, spread over up to
        ``threads`` native threads (default: :func:`gcrylike.set_threads`;
        each gets a run of whole sectors and at least 128 KiB, so a batch
        under 256 KiB stays on one thread; the result is the same whatever
        the count)."""
        self._sectors(buf, first_sector, sector_size, 1, threads)

    def decrypt_sectors(self, buf: BytesLike, first_sector: int, sector_size: int = 4096, *,
                        threads: int | None = None) -> None:
        """Decrypt ``buf`` in place; the inverse of :meth:`encrypt_sectors`."""
        self._sectors(buf, first_sector, sector_size, 0, threads)

    def _sectors(self, buf: Any, first: int, sector_size: int, encrypting: int,
                 threads: int | None) -> None:
        fc = self._fc
        if fc is not None:
            # the native path checks the arguments itself (gcrylike/_native/
            # fastcall.c); what it turns down is explained below
            try:
                done = fc.sectors(buf, sector_size, first, encrypting,
                                  _fast.THREADS if threads is None else threads)
            except _Failure as exc:
                raise error_for(exc.args[0], self._spec.name) from None
            if done is not NotImplemented:
                return
        ctx = self._keyed()
        if threads is None:
            threads = _fast.THREADS  # gcrylike.set_threads
        elif isinstance(threads, bool) or not isinstance(threads, int):
            raise InvalidType(f"threads must be an int, not {type(threads).__name__}")
        elif not 1 <= threads <= 64:
            raise InvalidArgument(f"threads must be 1 to 64, got {threads}")
        for name, value in (("first_sector", first), ("sector_size", sector_size)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidType(f"{name} must be an int")
        if sector_size < self._spec.min_length:
            raise InvalidLength(f"sector_size must be at least {self._spec.min_length}")
        if sector_size > sys.maxsize:
            raise InvalidLength(f"sector_size {sector_size} is larger than any buffer")
        with self._guard:
            with as_cbuffer(buf, "buf", writable=True) as cbuf:
                n = len(cbuf)
                if n % sector_size:
                    raise InvalidLength(f"buf holds {n} bytes, not whole {sector_size}-byte "
                                        "sectors")
                nsectors = n // sector_size
                if first < 0 or first >= 1 << 64 or first + nsectors > 1 << 64:
                    raise InvalidArgument("sector numbers must fit in 64 bits")
                fc = self._fc
                if fc is None:
                    rc = self._spec.crypt_sectors(ctx.ptr, cbuf, nsectors, sector_size, first,
                                                  encrypting)
                    if rc:
                        raise error_for(rc, self._spec.name)
                    return
        # checked, yet turned down by the native path (int subclasses, which
        # it takes only exact; closed or resized meanwhile): again from the top
        self._sectors(buf, int(first), int(sector_size), encrypting, int(threads))


def tweakable_open(name: str | int, *, impl: str | None = None) -> TweakableHandle:
    """Open a tweakable cipher (``"adiantum(xchacha12,aes)"``, alias
    ``"adiantum"``) on the best implementation here, or on driver ``impl``."""
    spec = _registry.lookup(name, "tweakable")
    return TweakableHandle(spec, _registry.choose(spec, impl), impl is None)


class Adiantum(TweakableHandle):
    """Adiantum keyed and ready: ``Adiantum(key).encrypt(sector, tweak)``.

    ``variant`` is ``"xchacha12"`` (the standard choice) or ``"xchacha20"``.
    """

    __slots__ = ()

    def __init__(self, key: BytesLike, variant: Literal["xchacha12", "xchacha20"] = "xchacha12",
                 *, impl: str | None = None) -> None:
        # one of two names; anything else (a non-string too) is a bad value
        if not isinstance(variant, str) or variant not in ("xchacha12", "xchacha20"):
            raise InvalidArgument(f"variant must be 'xchacha12' or 'xchacha20', not {variant!r}")
        spec = _registry.lookup(f"adiantum({variant},aes)", "tweakable")
        super().__init__(spec, _registry.choose(spec, impl), impl is None)
        self.setkey(key)
