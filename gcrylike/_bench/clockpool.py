"""One core clock from many noisy estimates of it.

An estimate times a chain of one-cycle adds: on a machine shared with other
work that loop can only be slowed (another process takes the core, an
interrupt), never sped up, so every estimate is at most the clock and the
highest is the nearest; one estimate alone swings widely between rows
(docs/cli.rst, "The clock for cycles/byte").  The kernel's "cpu MHz"
readings, where there is no such loop, are pooled alike: they read low
while the core idles between rows.  The highest is trusted once a few
estimates agree with it, so that a clock the core does not hold (a single
lucky reading, a short boost) does not set every row's cycles/byte.
"""

from __future__ import annotations

from collections.abc import Callable

#: An estimate within this fraction below the highest agrees with it.
AGREE = 0.03
#: Agreeing estimates (the highest included) before the clock is trusted.
QUORUM = 3
#: Estimates taken before the first row at most (each costs a few tens of
#: milliseconds, gcrylike.core_mhz): enough for the quorum on a busy
#: machine; later rows add one each.
FIRST = 12


class ClockPool:
    """Every estimate of one run; :attr:`mhz` is the highest once
    :data:`QUORUM` of them agree with it, else None (no cycles/byte)."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    def add(self, mhz: float | None) -> None:
        """One more estimate (None or <= 0: the estimate failed; ignored)."""
        if mhz and mhz > 0:
            self.samples.append(float(mhz))

    def fill(self, estimate: Callable[[], float | None], limit: int = FIRST) -> None:
        """Take estimates from ``estimate()`` until they agree or ``limit`` are in."""
        while not self.stable and len(self.samples) < limit:
            self.add(estimate())

    @property
    def highest(self) -> float | None:
        return max(self.samples, default=None)

    @property
    def agreeing(self) -> int:
        """How many estimates lie within :data:`AGREE` of the highest."""
        top = self.highest
        if top is None:
            return 0
        return sum(s >= top * (1 - AGREE) for s in self.samples)

    @property
    def stable(self) -> bool:
        return self.agreeing >= QUORUM

    @property
    def mhz(self) -> float | None:
        return self.highest if self.stable else None

    def describe(self) -> str:
        """How the figure was reached, for the table's footer."""
        n, top = len(self.samples), self.highest
        if top is None:
            return "no estimate succeeded"
        low = min(self.samples)
        spread = f"{low:.0f} to {top:.0f} MHz" if n > 1 else f"{top:.0f} MHz"
        if self.stable:
            return (f"the highest of {n} estimates ({spread}; {self.agreeing} within "
                    f"{AGREE:.0%} of it)")
        return (f"{n} estimates did not agree ({spread}; fewer than {QUORUM} within "
                f"{AGREE:.0%} of the highest)")
