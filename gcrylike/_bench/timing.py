"""Timing loops: ns per call (bench-slope's batches, taken turn about) and
calls per fixed time (tcrypt)."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from itertools import repeat
from typing import Any

#: Clocks for ``--clock``: this thread's CPU time leaves out the time other
#: processes had the CPU (the main noise on a shared machine); wall is elapsed time.
CLOCKS: dict[str, Callable[[], int]] = {
    "cpu": getattr(time, "thread_time_ns", time.process_time_ns),
    "wall": time.perf_counter_ns,
}

NsTimer = Callable[[], int]


def run_n(fn: Callable[[], Any], n: int, clock: NsTimer = time.perf_counter_ns) -> int:
    """Nanoseconds for ``n`` calls of ``fn`` (the loop's own cost included)."""
    t0 = clock()
    for _ in repeat(None, n):
        fn()
    return clock() - t0


def calibrate(fn: Callable[[], Any], batch_ns: float,
               clock: NsTimer = time.perf_counter_ns) -> int:
    """How many calls of ``fn`` take about ``batch_ns`` (also warms it up)."""
    n = 1
    while True:
        t = run_n(fn, n, clock)
        if t * 4 >= batch_ns or n >= 1 << 24:
            return max(1, round(n * batch_ns / max(t, 1)))
        n *= 4


class NoGC:
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
    with NoGC():
        counts = {s: calibrate(f, batch_ns, clock) for s, f in fns.items()}
        samples: dict[Any, list[float]] = {s: [] for s in fns}
        for _ in range(repeats):
            for s, f in fns.items():
                samples[s].append(run_n(f, counts[s], clock) / counts[s])
    return {s: stat(v) for s, v in samples.items()}


def count_for(fn: Callable[[], Any], seconds: float,
              clock: NsTimer = time.perf_counter_ns) -> tuple[int, float]:
    """tcrypt style: calls of ``fn`` done in (just over) ``seconds``;
    returns (calls, elapsed seconds).  The clock is read every ~1 ms."""
    with NoGC():
        batch = calibrate(fn, min(1e6, seconds * 1e9 / 10), clock)
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
