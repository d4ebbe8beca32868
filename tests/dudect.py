"""A statistical timing test after dudect (Reparaz, Balasch, Verbauwhede,
"Dude, is my code constant time?", 2017): time one operation on inputs of
two classes, interleaved in random order, and ask Welch's t-test whether
the two timing distributions have different means.

Each measurement is one run of a short programme of native calls (a
:class:`Step` list, e.g. setkey then encrypt) on one input; the loop and
the clock are native (tests/native/timing_hooks.c, in every test copy).
Long tails (interrupts, the other jobs on the machine) are cropped as in
the paper: besides the raw test, one test per upper percentile keeps only
the measurements below it, and the largest |t| of them is the verdict.

Evidence on one machine only: a small |t| means no difference was seen in
this many measurements, not that there is none.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import testhooks

#: |t| above this fails: the paper's threshold (a false alarm is then very
#: unlikely even over many tests, under the test's assumptions)
T_THRESHOLD = 4.5
#: the crops: test k keeps the measurements below percentile
#: 100 * (1 - 0.5 ** (10 * (k + 1) / CROPS)), from about the 50th to the
#: 99.9th, so the tests range from "the bulk only" to "nearly all"
CROPS = 10
#: measurements per native call (inputs are made batch by batch)
BATCH = 10_000
#: measurements at the start that only warm caches and branch predictors
WARMUP = 1_000
#: the native loop's limits (timing_hooks.c)
MAX_STEPS, MAX_ARGS = 8, 8
#: a Step's input_arg when no argument takes the input
NO_INPUT = 0xFFFFFFFF


@dataclass(frozen=True)
class Step:
    """One native call: ``fn`` (an address) with integer ``args``; the
    argument at ``input_arg`` becomes the measurement's input."""

    fn: int
    args: tuple[int, ...]
    input_arg: int = NO_INPUT


#: makes N inputs of one class: a uint8 array of shape (N, length)
ClassMaker = Callable[[int], np.ndarray]


@dataclass(frozen=True)
class Verdict:
    """The largest |t| over the tests (raw and cropped) and its test."""

    t: float
    which: str
    measurements: int

    @property
    def leaks(self) -> bool:
        return abs(self.t) > T_THRESHOLD


def welch_t(a: np.ndarray, b: np.ndarray) -> float:
    """Welch's t statistic of two samples (0 when either is too small)."""
    if len(a) < 2 or len(b) < 2:
        return 0.0
    se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return float((a.mean() - b.mean()) / se) if se > 0 else 0.0


def crop_levels(ticks: np.ndarray) -> list[tuple[str, float]]:
    """(name, upper bound) of every test: the raw one, then each crop.
    The bounds come from both classes together, so they favour neither."""
    levels = [("raw", float("inf"))]
    for k in range(CROPS):
        p = 100 * (1 - 0.5 ** (10 * (k + 1) / CROPS))
        levels.append((f"below p{p:.1f}", float(np.percentile(ticks, p))))
    return levels


def verdict(ticks: np.ndarray, classes: np.ndarray) -> Verdict:
    """The largest |t| of the raw and the cropped tests."""
    best = Verdict(0.0, "raw", len(ticks))
    for name, bound in crop_levels(ticks):
        kept = ticks <= bound
        t = welch_t(ticks[kept & (classes == 0)], ticks[kept & (classes == 1)])
        if abs(t) > abs(best.t):
            best = Verdict(t, name, len(ticks))
    return best


class Harness:
    """The native loop of a test copy, and the C memory its inputs need."""

    def __init__(self) -> None:
        mod = testhooks.copy("chacha")  # any copy has the loop
        self.ffi, self.lib = mod.ffi, mod.lib

    @staticmethod
    def address(module, name: str) -> int:
        """The address of entry point NAME of a cffi MODULE (its ``ffi`` and
        ``lib``, e.g. an installed cipher package), as the loop calls it."""
        return int(module.ffi.cast("uintptr_t", module.ffi.addressof(module.lib, name)))

    def leak_address(self) -> int:
        return self.address(self, "gcry_dudect_leaky_compare")

    def run(self, steps: Sequence[Step], classes: tuple[ClassMaker, ClassMaker],
            measurements: int, expect_failed: int = 0) -> Verdict:
        """Time STEPS on MEASUREMENTS inputs, each of a random class (0 or 1:
        made by CLASSES[0] or [1]), after the warm-up; every measurement's steps must
        return nonzero exactly as the bit mask EXPECT_FAILED says."""
        if not 0 < len(steps) <= MAX_STEPS or any(len(s.args) > MAX_ARGS for s in steps):
            raise ValueError("a programme is 1 to 8 steps of at most 8 arguments")
        cs = self.ffi.new("struct gcry_dudect_step[]", len(steps))
        for c, s in zip(cs, steps, strict=True):
            c.fn, c.nargs, c.input_arg = s.fn, len(s.args), s.input_arg
            c.args[0:len(s.args)] = list(s.args)
        rng = np.random.default_rng(secrets.randbits(128))
        all_ticks, all_classes = [], []
        total = WARMUP + measurements
        done = 0
        while done < total:
            n = min(BATCH, total - done)
            which = rng.integers(0, 2, n, dtype=np.uint8)  # the random interleaving
            fixed, other = (make(n) for make in classes)  # a row of each per measurement
            inputs = np.where(which[:, None] == 0, fixed, other)
            ticks, failed = self._measure(cs, len(steps), np.ascontiguousarray(inputs), n)
            if (failed != expect_failed).any():
                bad = int(failed[failed != expect_failed][0])
                raise AssertionError(f"steps returned nonzero as mask {bad:#x}, "
                                     f"expected {expect_failed:#x}")
            all_ticks.append(ticks)
            all_classes.append(which)
            done += n
        ticks = np.concatenate(all_ticks)[WARMUP:].astype(np.float64)
        return verdict(ticks, np.concatenate(all_classes)[WARMUP:])

    def _measure(self, cs, nsteps: int, inputs: np.ndarray, n: int):
        ticks = np.zeros(n, np.uint64)
        failed = np.zeros(n, np.uint32)
        ffi = self.ffi
        self.lib.gcry_dudect_measure(
            cs, nsteps, ffi.from_buffer("uint8_t[]", inputs), inputs.shape[1], n,
            ffi.from_buffer("uint64_t[]", ticks), ffi.from_buffer("uint32_t[]", failed))
        return ticks, failed

