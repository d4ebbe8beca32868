"""The core clock for cycles/byte: bench-slope's "auto" estimate, cpufreq,
/proc/cpuinfo, or ``--cpu-mhz``; and the time-stamp counter's rate, which is
no guide to it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import gcrylike


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

    mhz: float | None
    source: str
    #: True when estimated here (shown in the "auto Mhz" column).
    auto: bool
    #: Re-read after each row (``/proc/cpuinfo`` shows the current clock).
    reread: Callable[[], float | None] | None = None
    tsc_mhz: float | None = None

    def reading(self) -> float | None:
        if self.reread is not None:
            value = self.reread()
            if value:
                self.mhz = value
        return self.mhz


def estimate_mhz() -> float | None:
    """The core clock from a timed chain of one-cycle adds (bench-slope's
    "auto", :func:`gcrylike.core_mhz`), or None where there is no such loop."""
    return gcrylike.core_mhz()


def detect_clock(cpu_mhz: float | None) -> Clock:
    tsc = measure_tsc_mhz()
    if cpu_mhz:
        return Clock(cpu_mhz, "--cpu-mhz", auto=False, tsc_mhz=tsc)
    mhz = estimate_mhz()
    if mhz:
        return Clock(mhz, "a timed chain of dependent one-cycle adds (re-estimated after "
                     "each row)", auto=True, reread=estimate_mhz, tsc_mhz=tsc)
    found = sysfs_max_mhz()
    if found:
        return Clock(found[0], f"{found[1]} (the highest clock cpufreq allows)", auto=True,
                     tsc_mhz=tsc)
    mhz = cpuinfo_mhz()
    if mhz:
        return Clock(mhz, '/proc/cpuinfo "cpu MHz" (read after each row)', auto=True,
                     reread=cpuinfo_mhz, tsc_mhz=tsc)
    return Clock(None, "none (no cpufreq, no /proc/cpuinfo)", auto=False, tsc_mhz=tsc)
