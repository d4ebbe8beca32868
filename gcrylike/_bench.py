"""``gcrylike bench``: throughput per implementation, the libgcrypt way.

The default view is libgcrypt's bench-slope: for each buffer size the time
of one ``encrypt`` call (in place on a preallocated buffer) is the median of
several timed batches, and a least-squares line ``time = call + bytes * slope``
through those medians separates the per-byte cost (``slope``, reported as
ns/B, MiB/s and c/B) from the fixed cost of a call (``call``, the intercept),
which dominates short messages.  Times are this thread's CPU time by default
(``--clock wall`` for elapsed time), so other processes on a shared machine
do not land in the numbers.  ``--format tcrypt`` prints the Linux kernel's tcrypt view instead
(operations per fixed time at five block sizes), and ``--peers`` adds other
installed libraries (:mod:`gcrylike._peers`) in the same format.

Not a public API; :func:`add_arguments` and :func:`run_bench` are what the
command line calls.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import gcrylike

from . import _peers, _registry
from ._spec import CipherSpec

#: Buffer sizes of the default slope fit: 1 KiB to 16 KiB in 1 KiB steps.
DEFAULT_SIZES = tuple(range(1024, 16 * 1024 + 1, 1024))
QUICK_SIZES = (1024, 4096, 16384)
#: Where ``--peers`` compares directly measured time per call.
POINT_SIZES = (64, 8192, 65536)
#: The block sizes of the kernel's tcrypt cipher speed test.
TCRYPT_SIZES = (16, 64, 256, 1024, 8192)

#: A fit with r^2 below this gets a "noisy" mark on its row.
NOISY_R2 = 0.99

_KEY = bytes(range(0x01, 0x41))
_NONCE = bytes(range(0x40, 0x60))

_print = functools.partial(print, flush=True)

# ---------------------------------------------------------------------------
# The slope fit
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """``time = intercept + slope * bytes`` by least squares."""

    slope: float  #: ns per byte
    intercept: float  #: ns per call
    r2: float  #: coefficient of determination (1.0: every point on the line)


def fit_slope(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    """Ordinary least-squares line through ``(xs[i], ys[i])``."""
    n = len(xs)
    if n != len(ys):
        raise ValueError("xs and ys differ in length")
    if n < 2:
        raise ValueError("a slope needs at least two points")
    mx = sum(xs) / n
    my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a slope needs at least two distinct sizes")
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    slope = sxy / sxx
    intercept = my - slope * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return Fit(slope, intercept, r2)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


#: Clocks for ``--clock``: this thread's CPU time leaves out the time other
#: processes had the CPU (the main noise on a shared machine); wall is elapsed time.
CLOCKS: dict[str, Callable[[], int]] = {
    "cpu": getattr(time, "thread_time_ns", time.process_time_ns),
    "wall": time.perf_counter_ns,
}

NsTimer = Callable[[], int]


def _run(fn: Callable[[], Any], n: int, clock: NsTimer = time.perf_counter_ns) -> int:
    """Nanoseconds for ``n`` calls of ``fn`` (the loop's own cost included)."""
    t0 = clock()
    for _ in repeat(None, n):
        fn()
    return clock() - t0


def _calibrate(fn: Callable[[], Any], batch_ns: float,
               clock: NsTimer = time.perf_counter_ns) -> int:
    """How many calls of ``fn`` take about ``batch_ns`` (also warms it up)."""
    n = 1
    while True:
        t = _run(fn, n, clock)
        if t * 4 >= batch_ns or n >= 1 << 24:
            return max(1, round(n * batch_ns / max(t, 1)))
        n *= 4


class _NoGC:
    """Keep the cyclic garbage collector out of the timed loops."""

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was:
            gc.enable()


def time_per_call(fns: dict[Any, Callable[[], Any]], repeats: int, batch_ns: float,
                  stat: Callable[[list[float]], float] = statistics.median,
                  clock: NsTimer = time.perf_counter_ns) -> dict[Any, float]:
    """Median (or ``stat``) ns per call for each ``key -> fn`` (key: a size,
    or anything naming the case).

    Every case gets ``repeats`` batches of about ``batch_ns``; the cases
    take turns, so a drift of the clock or a noisy neighbour touches all of
    them alike.
    """
    with _NoGC():
        counts = {s: _calibrate(f, batch_ns, clock) for s, f in fns.items()}
        samples: dict[Any, list[float]] = {s: [] for s in fns}
        for _ in range(repeats):
            for s, f in fns.items():
                samples[s].append(_run(f, counts[s], clock) / counts[s])
    return {s: stat(v) for s, v in samples.items()}


def count_for(fn: Callable[[], Any], seconds: float,
              clock: NsTimer = time.perf_counter_ns) -> tuple[int, float]:
    """tcrypt style: calls of ``fn`` done in (just over) ``seconds``;
    returns (calls, elapsed seconds).  The clock is read every ~1 ms."""
    with _NoGC():
        batch = _calibrate(fn, min(1e6, seconds * 1e9 / 10), clock)
        ops = 0
        t0 = clock()
        limit = seconds * 1e9
        while True:
            for _ in repeat(None, batch):
                fn()
            ops += batch
            elapsed = clock() - t0
            if elapsed >= limit:
                return ops, elapsed / 1e9


# ---------------------------------------------------------------------------
# The CPU clock, for cycles/byte
# ---------------------------------------------------------------------------


def _cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [0]


def sysfs_max_mhz() -> tuple[float, str] | None:
    """cpufreq's scaling_max_freq (kHz) of a CPU we may run on."""
    for cpu in dict.fromkeys([*_cpus()[:1], 0]):
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
    allowed = set(_cpus())
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
    """Rate of the time-stamp counter (rdtsc via ``gcry_cycles``) in MHz."""
    try:
        from ._core import lib
    except ImportError:
        return None
    cycles = lib.gcry_cycles
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


def detect_clock(cpu_mhz: float | None) -> Clock:
    tsc = measure_tsc_mhz()
    if cpu_mhz:
        return Clock(cpu_mhz, "--cpu-mhz", auto=False, tsc_mhz=tsc)
    found = sysfs_max_mhz()
    if found:
        return Clock(found[0], f"{found[1]} (the highest clock cpufreq allows)", auto=True,
                     tsc_mhz=tsc)
    mhz = cpuinfo_mhz()
    if mhz:
        return Clock(mhz, '/proc/cpuinfo "cpu MHz" (read after each row)', auto=True,
                     reread=cpuinfo_mhz, tsc_mhz=tsc)
    return Clock(None, "none (no cpufreq, no /proc/cpuinfo)", auto=False, tsc_mhz=tsc)


# ---------------------------------------------------------------------------
# What gets measured: our handles and the peers, behind one interface
# ---------------------------------------------------------------------------


@dataclass
class Target:
    """One row group: an implementation of ours or a peer library."""

    title: str  #: group line of the slope table
    driver: str  #: name inside "testing speed of ALGO (DRIVER)"
    bind: Callable[[int, bool], Callable[[], Any]]  #: (bytes, decrypt) -> one call
    close: Callable[[], None]
    ours: bool
    key_bits: int


@dataclass
class Result:
    target: Target
    enc: Fit
    dec: Fit


class _Buffers:
    """One preallocated buffer every target works on, in place."""

    def __init__(self, size: int) -> None:
        self.buf = bytearray(os.urandom(min(size, 4096)) * (size // 4096 + 1))[:size]
        self.view = memoryview(self.buf)

    def __getitem__(self, n: int) -> memoryview:
        return self.view[:n]


def _key_for(sizes: Iterable[int]) -> bytes:
    sizes = tuple(sizes)
    return _KEY[:32] if 32 in sizes else _KEY[:max(sizes)]


def _our_target(spec: CipherSpec, driver: str, bufs: _Buffers) -> Target:
    key = _key_for(spec.key_sizes)
    h = gcrylike.cipher_open(spec.name, impl=driver)
    try:
        h.setkey(key)
        if spec.needs_iv:
            h.setiv(_NONCE[:spec.iv_sizes[0]])
    except BaseException:
        h.close()
        raise

    def bind(n: int, decrypt: bool) -> Callable[[], Any]:
        v = bufs[n]
        return functools.partial(h.decrypt if decrypt else h.encrypt, v, out=v)

    return Target(f"{driver} (ours)", driver, bind, h.close, True, 8 * len(key))


def _peer_target(spec: CipherSpec, peer: _peers.Peer, offer: _peers.Offer,
                 bufs: _Buffers) -> Target:
    key = _key_for(set(spec.key_sizes) & set(offer.key_sizes) or offer.key_sizes)
    nonce_size = _peers.common_nonce_size(spec.iv_sizes, offer)
    if nonce_size is None:
        raise ValueError(f"no nonce size in common (ours {spec.iv_sizes}, "
                         f"{peer.name} {offer.nonce_sizes})")
    crypter = peer.crypter(spec.name, key, _NONCE[:nonce_size])

    def bind(n: int, decrypt: bool) -> Callable[[], Any]:
        v = bufs[n]
        return crypter.bind(v, v, decrypt)

    version = peer.version
    title = f"{peer.name} {version} (peer, {peer.via}: {offer.label})"
    driver = f"peer {peer.name} {version.split(',')[0]} via {peer.via}"
    return Target(title, driver, bind, crypter.close, False, 8 * len(key))


# ---------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    sizes: tuple[int, ...]
    repeats: int
    batch_ns: float
    seconds: float
    stat: str = "median"
    clock: str = "cpu"

    @property
    def stat_fn(self) -> Callable[[list[float]], float]:
        return min if self.stat == "min" else statistics.median

    @property
    def clock_fn(self) -> NsTimer:
        return CLOCKS[self.clock]


def settings_from(args: argparse.Namespace) -> Settings:
    quick = bool(getattr(args, "quick", False))
    sizes = args.sizes or (QUICK_SIZES if quick else DEFAULT_SIZES)
    repeats = args.repeats or (3 if quick else 7)
    batch_ms = args.batch_ms or (0.2 if quick else 2.0)
    seconds = args.seconds or (0.01 if quick else 0.2)
    return Settings(tuple(sizes), repeats, batch_ms * 1e6, seconds,
                    getattr(args, "stat", None) or "median",
                    getattr(args, "clock", None) or "cpu")


def _parse_size(text: str) -> int:
    t = text.strip().lower()
    scale = 1
    if t.endswith(("k", "kib")):
        t, scale = t.rstrip("kib"), 1024
    elif t.endswith(("m", "mib")):
        t, scale = t.rstrip("mib"), 1024 * 1024
    value = int(t) * scale
    if value <= 0:
        raise ValueError
    return value


def parse_sizes(text: str) -> tuple[int, ...]:
    """``"1k,2k,4k"`` or ``"1k-16k:1k"`` (from-to:step), or a mix of both."""
    sizes: list[int] = []
    try:
        for item in text.split(","):
            if not item.strip():
                continue
            if "-" in item:
                span, _, step = item.partition(":")
                lo, _, hi = span.partition("-")
                a, b = _parse_size(lo), _parse_size(hi)
                s = _parse_size(step) if step else a
                sizes.extend(range(a, b + 1, s))
            else:
                sizes.append(_parse_size(item))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"bad size list {text!r} (want e.g. 1k,4k,16k or 1k-16k:1k)") from None
    sizes = sorted(set(sizes))
    if len(sizes) < 2:
        raise argparse.ArgumentTypeError("need at least two distinct sizes for a slope")
    return tuple(sizes)


def _positive(kind: type) -> Callable[[str], Any]:
    def conv(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0: {text!r}")
        return value

    conv.__name__ = kind.__name__
    return conv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("algorithms", nargs="*", metavar="ALGO",
                        help="algorithm names, aliases or ids (default: every registered one)")
    parser.add_argument("--impl", action="append", default=[], metavar="DRIVER",
                        help="only this driver (repeatable; default: every one this CPU runs)")
    parser.add_argument("--format", choices=("slope", "tcrypt"), default="slope",
                        help="slope: libgcrypt bench-slope table (default); "
                             "tcrypt: the Linux kernel's tcrypt speed test")
    parser.add_argument("--peers", action="store_true",
                        help="also measure installed peer libraries offering the same "
                             "algorithm (pycryptodome, libsodium, libgcrypt, cryptography)")
    parser.add_argument("--sizes", type=parse_sizes, metavar="LIST",
                        help="buffer sizes of the slope fit, e.g. 1k,4k,16k or 1k-16k:1k "
                             "(default 1k-16k:1k)")
    parser.add_argument("--repeats", type=_positive(int), metavar="N",
                        help="timed batches per size, summarised by --stat (default 7)")
    parser.add_argument("--batch-ms", type=_positive(float), metavar="MS",
                        help="length of one timed batch (default 2 ms)")
    parser.add_argument("--stat", choices=("median", "min"), default="median",
                        help="how the batches of one size are summarised: median "
                             "(default) or min (for a noisy machine)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="cpu: this thread's CPU time (default; time other processes "
                             "take is not counted), wall: elapsed time")
    parser.add_argument("--seconds", type=_positive(float), metavar="S",
                        help="tcrypt: time per block size (default 0.2 s)")
    parser.add_argument("--cpu-mhz", type=_positive(float), metavar="N",
                        help="core clock for cycles/byte (default: estimate from cpufreq "
                             "or /proc/cpuinfo; the TSC may tick slower than the core)")
    parser.add_argument("--quick", action="store_true",
                        help="3 sizes, 3 short batches, 0.01 s tcrypt steps: a smoke test, "
                             "not a measurement")


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

_LABEL = 16
_HEADER = "  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz    call ns"


def _row(label: str, fit: Fit, mhz: float | None, auto_mhz: float | None) -> str:
    if fit.slope > 0:
        ns = f"{fit.slope:10.3f} ns/B"
        mib = f"{1e9 / fit.slope / 2**20:10.1f} MiB/s"
        cpb = f"{fit.slope * mhz / 1000:10.3f} c/B" if mhz else f"{'-':>10} c/B"
    else:  # timing noise swamped the per-byte cost
        ns, mib, cpb = f"{'-':>10} ns/B", f"{'-':>10} MiB/s", f"{'-':>10} c/B"
    auto = f"{auto_mhz:10.0f}" if auto_mhz else f"{'-':>10}"
    line = f" {label:>{_LABEL}} |{ns}{mib}{cpb}{auto}{fit.intercept:11.0f}"
    if fit.r2 < NOISY_R2:
        line += f"  (noisy fit, r2={fit.r2:.3f})"
    return line


def compare(ours: Target, peer: Target, st: Settings) -> dict[int, tuple[float, float]]:
    """Time per call (ns) of ``ours`` and ``peer`` at each of POINT_SIZES,
    measured turn about in the same batches so both see the same machine."""
    fns = {}
    for n in POINT_SIZES:
        fns[("ours", n)] = ours.bind(n, False)
        fns[("peer", n)] = peer.bind(n, False)
    t = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
    return {n: (t[("ours", n)], t[("peer", n)]) for n in POINT_SIZES}


def _ratio_line(points: dict[int, tuple[float, float]], best: Target) -> str:
    parts = [f"{_size_name(n)} x{theirs / ours:.2f}"
             for n, (ours, theirs) in points.items() if n != 64]
    if 64 in points:
        ours, theirs = points[64]
        parts.append(f"64 B x{theirs / ours:.2f} ({ours:.0f} vs {theirs:.0f} ns/call)")
    return f" {'ours/peer':>{_LABEL}} |  " + "   ".join(parts) + f"   [ours: {best.driver}]"


def _size_name(n: int) -> str:
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n} B"


def _describe_sizes(sizes: Sequence[int]) -> str:
    steps = {b - a for a, b in zip(sizes[:-1], sizes[1:], strict=True)}
    if len(sizes) > 3 and len(steps) == 1:
        return f"{sizes[0]}..{sizes[-1]} B step {steps.pop()} ({len(sizes)} sizes)"
    return ", ".join(str(s) for s in sizes) + " B"


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def _resolve(names: Sequence[str]) -> list[CipherSpec]:
    if not names:
        return [s for s in _registry.all_specs() if s.kind == "cipher"]
    specs: list[CipherSpec] = []
    for name in names:
        spec = _registry.lookup(int(name) if name.isdigit() else name)
        if spec not in specs:
            specs.append(spec)
    return specs


def _our_drivers(spec: CipherSpec, only: Sequence[str]) -> tuple[list[str], list[str]]:
    """(runnable drivers, notes about the others)."""
    wanted = {d.lower() for d in only}
    drivers, notes = [], []
    for info in gcrylike.implementations(spec.name):
        if wanted and info.driver.lower() not in wanted:
            continue
        if info.available:
            drivers.append(info.driver)
        else:
            notes.append(f"{info.driver}: skipped ({info.reason})")
    if wanted and not drivers and not notes:
        notes.append(f"none of our drivers selected by --impl {','.join(only)}")
    return drivers, notes


def _targets(spec: CipherSpec, drivers: list[str], with_peers: bool, bufs: _Buffers,
             note: Callable[[str], None]) -> Iterable[Target]:
    """Open each target as it is needed (and report the ones that fail)."""
    for driver in drivers:
        try:
            yield _our_target(spec, driver, bufs)
        except gcrylike.GcryError as exc:
            note(f"{driver}: skipped ({exc})")
    if not with_peers:
        return
    offered = _peers.peers_for(spec.name)
    if not offered:
        note(f"no peer library in gcrylike._peers offers {spec.name}")
    for peer, offer in offered:
        reason = peer.unavailable_reason()
        if reason:
            note(f"peer {peer.name}: not available ({reason})")
            continue
        try:
            yield _peer_target(spec, peer, offer, bufs)
        except Exception as exc:  # a broken peer must not stop the run
            note(f"peer {peer.name}: skipped ({type(exc).__name__}: {exc})")


def _note(text: str) -> None:
    _print(f" # {text}")


def _measure(target: Target, st: Settings) -> Result:
    fits = []
    for decrypt in (False, True):
        fns = {n: target.bind(n, decrypt) for n in st.sizes}
        med = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
        fits.append(fit_slope(list(med), list(med.values())))
    return Result(target, fits[0], fits[1])


def _measure_errors(target: Target) -> type[BaseException] | tuple[type[BaseException], ...]:
    """What a failing target may raise and the run survive: any error of a
    peer (not our code), only our own error family from our handles."""
    return gcrylike.GcryError if target.ours else Exception


def _bench_slope(specs: list[CipherSpec], args: argparse.Namespace, st: Settings,
                 clock: Clock) -> None:
    bufs = _Buffers(max(*st.sizes, *POINT_SIZES))
    _print(f"# gcrylike {gcrylike.__version__} bench-slope: sizes {_describe_sizes(st.sizes)},"
           f" {st.stat} of {st.repeats} batches of ~{st.batch_ns / 1e6:g} ms per size,"
           f" {st.clock} clock")
    _print("Cipher:")
    for spec in specs:
        mode = "STREAM" if spec.block_size == 1 else "BLOCK"
        _print(f" {spec.name:<{_LABEL}} |{_HEADER}")
        drivers, notes = _our_drivers(spec, args.impl)
        for n in notes:
            _note(n)
        best: Result | None = None
        opened: list[Target] = []  # ours stay open: the best one is the peers' yardstick
        try:
            for target in _targets(spec, drivers, args.peers, bufs, _note):
                opened.append(target)
                try:
                    res = _measure(target, st)
                    auto = clock.reading() if clock.auto else None
                    _print(f" {target.title}")
                    _print(_row(f"{mode} enc", res.enc, clock.mhz, auto))
                    _print(_row(f"{mode} dec", res.dec, clock.mhz, auto))
                    if not target.ours and best is not None:
                        _print(_ratio_line(compare(best.target, target, st), best.target))
                except _measure_errors(target) as exc:
                    _note(f"{target.driver}: failed ({type(exc).__name__}: {exc})")
                    continue
                finally:
                    if not target.ours:
                        target.close()
                if target.ours and (best is None or res.enc.slope < best.enc.slope):
                    best = res
        finally:
            for target in opened:
                target.close()
        _print(f" {'':>{_LABEL}} =")
    _footer(clock, args.peers, st)


def _footer(clock: Clock, peers: bool, st: Settings) -> None:
    if st.clock == "cpu":
        times = ("times: this thread's CPU time, so other processes' turns on the CPU are "
                 "left out (--clock wall for elapsed time).")
    else:
        times = "times: elapsed (wall) time, other processes' turns on the CPU included."
    lines = [times,
             "call ns: the fit's intercept, the fixed cost of one call from Python "
             "(argument checks, buffer views, the timing loop) apart from the per-byte work;"
             f" (noisy fit) marks r2 < {NOISY_R2:.2f}."]
    if clock.mhz:
        src = f"clock: {clock.mhz:.0f} MHz from {clock.source}"
    else:
        src = f"clock: unknown, {clock.source}: no cycles/byte (give --cpu-mhz N)"
    if clock.tsc_mhz:
        src += f"; TSC (rdtsc) ticks at {clock.tsc_mhz:.0f} MHz here"
        if clock.auto and clock.mhz and abs(clock.mhz - clock.tsc_mhz) < 0.03 * clock.tsc_mhz:
            src += (", the same rate: this is likely the nominal/TSC clock, not what the "
                    "core runs at under load, so c/B may be understated; pass --cpu-mhz N "
                    "for the real core clock")
    lines.append(src + ".")
    if peers:
        lines.append("ours/peer: throughput of our fastest implementation (lowest ns/B) over "
                     "the peer's, both timed turn about at that size, call cost included "
                     "(x>1: ours faster; at 64 B it is the inverse ratio of time per call).")
        lines.append("Bindings differ: ours goes through cffi and the CipherHandle API "
                     "(handle.encrypt(buf, out=buf)); libsodium and libgcrypt through ctypes "
                     "with pre-converted buffers, pycryptodome and cryptography through their "
                     "own bindings.  That shows in call ns and at 64 B, not in ns/B.")
        lines.append("libsodium's one-shot crypto_stream_*_xor restarts the keystream each "
                     "call (same work per byte); the others continue it.")
    for line in lines:
        _print(f"# {line}")


def _bench_tcrypt(specs: list[CipherSpec], args: argparse.Namespace, st: Settings) -> None:
    bufs = _Buffers(max(TCRYPT_SIZES))
    clock = "this thread's CPU time" if st.clock == "cpu" else "elapsed time"
    _print(f"# gcrylike {gcrylike.__version__} bench, tcrypt format: ~{st.seconds:g} s per "
           f"block size, seconds are {clock}")
    for spec in specs:
        drivers, notes = _our_drivers(spec, args.impl)
        for n in notes:
            _print(f"# {spec.name.lower()} {n}")

        def note(text: str, name: str = spec.name.lower()) -> None:
            _print(f"# {name} {text}")

        for target in _targets(spec, drivers, args.peers, bufs, note):
            try:
                _print(f"testing speed of {spec.name.lower()} ({target.driver}) encryption")
                for i, size in enumerate(TCRYPT_SIZES):
                    ops, elapsed = count_for(target.bind(size, False), st.seconds,
                                             st.clock_fn)
                    _print(f"test {i} ({target.key_bits} bit key, {size} byte blocks): "
                           f"{ops} operations in {elapsed:.3f} seconds ({ops * size} bytes)")
            except _measure_errors(target) as exc:
                note(f"{target.driver}: failed ({type(exc).__name__}: {exc})")
            finally:
                target.close()
            _print("")


def run_bench(args: argparse.Namespace) -> int:
    specs = _resolve(args.algorithms)
    st = settings_from(args)
    try:
        if args.format == "tcrypt":
            _bench_tcrypt(specs, args, st)
        else:
            _bench_slope(specs, args, st, detect_clock(args.cpu_mhz))
    except BrokenPipeError:  # `gcrylike bench | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0
