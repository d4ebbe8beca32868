"""The slope fit: ``time = call + bytes * slope`` by least squares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: A fit with r^2 below this gets a "noisy" mark on its row.
NOISY_R2 = 0.99


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


#: Bytes of the one short call measured beside the fit's sizes: what "call
#: ns" shows where the intercept cannot be the fixed cost of a call.
CALL_SIZE = 64


@dataclass(frozen=True)
class CallCost:
    """The fixed cost of one call, as the table's "call ns" shows it."""

    ns: float  #: never negative
    #: True: the fit's intercept; False: one measured CALL_SIZE-byte call
    fitted: bool


def call_cost(fit: Fit, short_call_ns: float) -> CallCost:
    """The fit's intercept when it can be the fixed cost of a call (at least
    0, at most the measured time of a whole ``CALL_SIZE``-byte call), else
    that measured call.  An intercept outside those bounds is an artefact of
    extrapolating noisy points far below the fit's sizes (docs/cli.rst,
    "Benchmarks"); the short call is an upper bound of the fixed cost that
    is off by only ``CALL_SIZE`` bytes of work."""
    if 0.0 <= fit.intercept <= short_call_ns:
        return CallCost(fit.intercept, True)
    return CallCost(max(short_call_ns, 0.0), False)
