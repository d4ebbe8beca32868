"""The core clock for cycles/byte: bench-slope's "auto" estimate, cpufreq,
/proc/cpuinfo, or ``--cpu-mhz``; and the time-stamp counter's rate, which is
no guide to it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import gcrylike

from .clockpool import ClockPool


def cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [0]


def sysfs_max_mhz() -> tuple[float, str] | None:
    """cpufreq's scaling_max_freq (kHz) of a CPU we may run on."""
    for cpu in dict.fromkeys([*cpus()[:1], 0]):
        path = f"/sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_max_freq"
        try:
            with open(path) as f:
                khz = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if khz > 0:
            return khz / 1000.0, path
    return None


def cpuinfo_mhz(text: str | None = None) -> float | None:
    """Highest "cpu MHz" in /proc/cpuinfo among the CPUs we may run on."""
    if text is None:
        try:
            with open("/proc/cpuinfo") as f:
                text = f.read()
        except OSError:
            return None
    allowed = set(cpus())
    cpu: int | None = None
    values = []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        try:
            if key == "processor":
                cpu = int(value)
            elif key == "cpu MHz" and (cpu is None or cpu in allowed):
                values.append(float(value))
        except ValueError:
            continue
    return max(values) if values else None


def measure_tsc_mhz(duration_ns: int = 20_000_000) -> float | None:
    """Rate of the time-stamp counter (rdtsc, :func:`gcrylike.cpu_cycles`) in MHz."""
    cycles = gcrylike.cpu_cycles
    if not cycles():
        return None  # not x86: no TSC
    t0, c0 = time.perf_counter_ns(), cycles()
    while time.perf_counter_ns() - t0 < duration_ns:
        pass
    t1, c1 = time.perf_counter_ns(), cycles()
    return (c1 - c0) * 1000.0 / max(t1 - t0, 1)


@dataclass
class Clock:
    """The core clock used for cycles/byte, and where it came from."""

    source: str
    #: True when estimated here (shown in the "auto Mhz" column).
    auto: bool
    #: A clock given (--cpu-mhz) or read once (cpufreq's maximum).
    fixed: float | None = None
    #: Estimates that move (timed adds, /proc/cpuinfo): every one of the
    #: run, see :mod:`.clockpool`; :attr:`mhz` is what they agree on.
    pool: ClockPool | None = None
    #: One more estimate for the pool, taken after each row.
    sample: Callable[[], float | None] | None = None
    tsc_mhz: float | None = None

    @property
    def mhz(self) -> float | None:
        """The clock for cycles/byte now; None: unknown, or not yet stable."""
        return self.pool.mhz if self.pool is not None else self.fixed

    def reading(self) -> float | None:
        """After a row: one more estimate, and the highest so far (the
        table's "auto Mhz")."""
        if self.pool is None or self.sample is None:
            return self.fixed
        self.pool.add(self.sample())
        return self.pool.highest

    def describe(self) -> str:
        """Where :attr:`mhz` came from (the records' ``mhz_source``)."""
        if self.pool is None:
            return self.source
        return f"{self.source}: {self.pool.describe()}"


def estimate_mhz() -> float | None:
    """The core clock from a timed chain of one-cycle adds (bench-slope's
    "auto", :func:`gcrylike.core_mhz`), or None where there is no such loop."""
    return gcrylike.core_mhz()


def pooled_clock(sample: Callable[[], float | None], source: str,
                 first: float | None = None) -> Clock:
    """A clock from estimates by ``sample()`` (after ``first``, one already
    taken), taken until they agree (:meth:`ClockPool.fill`) before the first
    row and once after each."""
    pool = ClockPool()
    pool.add(first)
    pool.fill(sample)
    return Clock(source, auto=True, pool=pool, sample=sample)


def detect_clock(cpu_mhz: float | None) -> Clock:
    tsc = measure_tsc_mhz()
    if cpu_mhz:
        return Clock("--cpu-mhz", auto=False, fixed=cpu_mhz, tsc_mhz=tsc)
    if first := estimate_mhz():
        clock = pooled_clock(estimate_mhz, "timed chains of dependent one-cycle adds", first)
    elif found := sysfs_max_mhz():
        clock = Clock(f"{found[1]} (the highest clock cpufreq allows)", auto=True,
                      fixed=found[0])
    elif first := cpuinfo_mhz():
        clock = pooled_clock(cpuinfo_mhz, '/proc/cpuinfo "cpu MHz" readings', first)
    else:
        clock = Clock("none (no cpufreq, no /proc/cpuinfo)", auto=False)
    clock.tsc_mhz = tsc
    return clock
