"""Length-preserving tweakable encryption for storage: Adiantum."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, Literal

from . import _fast, _registry
from ._buffers import as_cbuffer, run_into
from ._errors import (
    InvalidArgument,
    InvalidIVLength,
    InvalidLength,
    InvalidType,
    check,
    error_for,
)
from ._keyed import KeyedHandle, TweakMethod, native_method
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

    __slots__ = ()

    @property
    def info(self) -> TweakableInfo:
        """Algorithm, driver in use and limits."""
        s = self._spec
        return TweakableInfo(s.name, self._impl.driver, s.min_length, s.max_tweak)

    def _hooks(self) -> tuple[Any, ...]:
        s = self._spec
        # unit: the least sector size the sector call takes
        return ("tweak", {"encrypt": s.encrypt, "decrypt": s.decrypt,
                          "sectors": s.crypt_sectors}, s.min_length, 0, bool(s.reentrant))

    encrypt: TweakMethod = native_method("tweak_encrypt", "($self, data, tweak, *, out=None)",
                            """Encrypt one message of at least ``info.min_length`` bytes (16
        for Adiantum) under ``tweak`` (at most ``info.max_tweak`` bytes, 32 for
        Adiantum); the result has the length of ``data`` (bytes, or with
        ``out=`` the count written there).""")
    decrypt: TweakMethod = native_method("tweak_decrypt", "($self, data, tweak, *, out=None)",
                            """Decrypt one message; same conventions as :meth:`encrypt`.""")

    def _general_tweak_encrypt(self, data: BytesLike, tweak: BytesLike, *,
                               out: BytesLike | None = None) -> bytes | int:
        return self._run(self._spec.encrypt, data, tweak, out)

    def _general_tweak_decrypt(self, data: BytesLike, tweak: BytesLike, *,
                               out: BytesLike | None = None) -> bytes | int:
        return self._run(self._spec.decrypt, data, tweak, out)

    def _native_error(self, op: str, rc: int) -> Any:
        return NotImplemented  # the general method says what was wrong

    def _run(self, hook: Any, data: Any, tweak: Any, out: Any) -> bytes | int:
        """The cffi path: the buffers, then the gate."""
        self._keyed()  # state errors first; checked again inside the gate
        with as_cbuffer(data, "data") as src, as_cbuffer(tweak, "tweak") as tbuf:
            n, tlen = len(src), len(tbuf)
            if n < self._spec.min_length:
                raise InvalidLength(f"{self._spec.name} needs at least "
                                    f"{self._spec.min_length} bytes, got {n}")
            if tlen > self._spec.max_tweak:
                raise InvalidIVLength(f"{self._spec.name} tweak is at most "
                                      f"{self._spec.max_tweak} bytes, got {tlen}")

            def call(dst: Any) -> Any:
                with self._binding as ptr:
                    self._keyed()
                    return hook(ptr, dst, src, n, tbuf, tlen)

            return run_into(out, n, call, lambda rc: check(rc, self._spec.name), src)

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
        fc = self._binding
        if fc.ready:
            # the native path checks the arguments itself (gcrylike/_native/
            # fastcall.c); what it turns down is explained below
            try:
                done = fc.sectors(buf, sector_size, first, encrypting,
                                  _fast.THREADS if threads is None else threads)
            except _Failure as exc:
                raise error_for(exc.args[0], self._spec.name) from None
            if done is not NotImplemented:
                return
        self._keyed()  # state errors first; checked again inside the gate
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
        with as_cbuffer(buf, "buf", writable=True) as cbuf:
            n = len(cbuf)
            if n % sector_size:
                raise InvalidLength(f"buf holds {n} bytes, not whole {sector_size}-byte "
                                    "sectors")
            nsectors = n // sector_size
            if first < 0 or first >= 1 << 64 or first + nsectors > 1 << 64:
                raise InvalidArgument("sector numbers must fit in 64 bits")
            fc = self._binding
            if fc.ready:  # checked: int subclasses go native as exact ints
                try:
                    done = fc.sectors(buf, int(sector_size), int(first), encrypting,
                                      int(threads))
                except _Failure as exc:
                    raise error_for(exc.args[0], self._spec.name) from None
                if done is not NotImplemented:
                    return
            with self._binding as ptr:
                self._keyed()
                rc = self._spec.crypt_sectors(ptr, cbuf, nsectors, sector_size, first,
                                              encrypting)
        if rc:
            raise error_for(rc, self._spec.name)


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

    @classmethod
    def generate_key(cls) -> bytes:
        """A fresh random 32-byte key from the operating system (``os.urandom``),
        for either variant."""
        return os.urandom(_registry.lookup("adiantum(xchacha12,aes)", "tweakable").key_sizes[0])
