"""The options of ``gcrylike bench`` and the :class:`Settings` they give."""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .timing import CLOCKS, NsTimer

#: Buffer sizes of the default slope fit: 1 KiB to 16 KiB in 1 KiB steps.
DEFAULT_SIZES = tuple(range(1024, 16 * 1024 + 1, 1024))
QUICK_SIZES = (1024, 4096, 16384)


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
                        help="algorithm names, aliases or ids (default: every registered "
                             "one, or with --impl those that have the driver)")
    parser.add_argument("--impl", action="append", default=[], metavar="DRIVER",
                        help="only this driver (repeatable; default: every one this CPU runs)")
    parser.add_argument("--format", choices=("slope", "tcrypt"), default="slope",
                        help="slope: libgcrypt bench-slope table (default); "
                             "tcrypt: the Linux kernel's tcrypt speed test (hash lines "
                             "with bytes-per-update splits for MACs)")
    parser.add_argument("--peers", action="store_true",
                        help="also measure installed peer libraries offering the same "
                             "algorithm (pycryptodome, libsodium, libgcrypt, cryptography, "
                             "PyNaCl), and for MACs/AEADs our one-shot API they are compared "
                             "with")
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
                        help="core clock for cycles/byte (default: estimated by timing a "
                             "chain of one-cycle adds, else cpufreq or /proc/cpuinfo; the "
                             "TSC may tick slower than the core)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write every figure of the table to FILE as JSON "
                             "records, with the machine and the versions measured")
    parser.add_argument("--csv", metavar="FILE",
                        help="the same records as a plain CSV file, the header row first "
                             "(the machine and the versions are in the JSON only)")
    parser.add_argument("--plot", metavar="FILE",
                        help="draw throughput against message size (one line per driver "
                             "and peer) into FILE, .png, .svg or .pdf, one panel per "
                             "algorithm, or with {algorithm} in FILE one file per algorithm "
                             "(bench-{algorithm}.png); needs matplotlib: "
                             "pip install 'gcrylike[plot]'")
    parser.add_argument("--quick", action="store_true",
                        help="3 sizes, 3 short batches, 0.01 s tcrypt steps: a smoke test, "
                             "not a measurement")
