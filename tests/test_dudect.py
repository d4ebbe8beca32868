"""Opt-in statistical timing test of the AVX-512 drivers (dudect's
fixed-vs-random method, tests/dudect.py) over the cases of
tests/dudect_cases.py: key setup and encryption with a fixed or random
key, the same with a fixed or random message, and for the MACs, AEADs and
the secretbox the check of a forged tag wrong at its first or last byte.

Slow and noisy by nature, so only where GCRYLIKE_DUDECT is set (``tox -e
dudect``).  GCRYLIKE_DUDECT_DRIVERS chooses the drivers: unset, the
AVX-512 ones (skipped with a reason where the CPU lacks a feature); "all",
every driver; or a comma list of driver names.
GCRYLIKE_DUDECT_MEASUREMENTS sets the measurements per case.

A pass is evidence on this machine, not proof: see docs/security.rst.
The planted leak (an early-exit compare) must fail the same statistic,
which shows the measurements can see a leak of that size at all.
"""

from __future__ import annotations

import os

import pytest
from dudect import T_THRESHOLD, Harness, Step
from dudect_cases import CASES, Bench, fixed_vs_random

import gcrylike
from gcrylike import _hwf, _registry

ENABLE_ENV = "GCRYLIKE_DUDECT"
DRIVERS_ENV = "GCRYLIKE_DUDECT_DRIVERS"
MEASUREMENTS_ENV = "GCRYLIKE_DUDECT_MEASUREMENTS"
#: per case: two classes of 100 000 each, a few seconds per driver
DEFAULT_MEASUREMENTS = 200_000
#: the planted leak compares this many bytes (a Poly1305 tag)
LEAK_BYTES = 16

pytestmark = pytest.mark.skipif(not os.environ.get(ENABLE_ENV),
                                reason=f"slow, statistical: set {ENABLE_ENV}=1 (tox -e dudect)")


def measurements() -> int:
    return int(os.environ.get(MEASUREMENTS_ENV, DEFAULT_MEASUREMENTS))


def wanted(spec, impl) -> bool:
    choice = os.environ.get(DRIVERS_ENV, "").strip()
    if choice == "all":
        return True
    if choice:
        return impl.driver in {d.strip() for d in choice.split(",")}
    return bool(_hwf.AVX512_FAMILY & set(impl.features))


def cases():
    for spec in _registry.all_specs():
        for impl in spec.implementations:
            if wanted(spec, impl):
                for case, build in CASES.get(spec.kind, ()):
                    yield pytest.param(spec, impl, build, id=f"{impl.driver}-{case}")


@pytest.fixture(scope="module")
def harness() -> Harness:
    return Harness()


@pytest.mark.parametrize("spec, impl, build", list(cases()))
def test_driver_time_does_not_depend_on_the_class(harness, spec, impl, build, record_property):
    info = next(i for i in gcrylike.implementations(spec.name) if i.driver == impl.driver)
    if not info.available:
        pytest.skip(f"{impl.driver}: {info.reason}")
    bench = Bench(spec, impl)  # owns the memory the steps point into: alive until the end
    programme = build(bench)
    v = harness.run(programme.steps, programme.classes, measurements(), programme.expect_failed)
    del bench
    record_property("t", v.t)
    print(f"dudect: {impl.driver} {build.__name__}: t = {v.t:+.2f} ({v.which}, "
          f"{v.measurements} measurements)")
    assert not v.leaks, (f"{impl.driver} {build.__name__}: |t| = {abs(v.t):.1f} > "
                         f"{T_THRESHOLD} ({v.which}): the time depends on the class")


def test_planted_leak_is_found(harness):
    # the fixed class (all zero) differs from the reference at its last
    # byte, so the loop runs to the end; random inputs differ at the first
    # byte (but for 1 in 256): the statistic must see it
    reference = harness.ffi.new("uint8_t[]", bytes(LEAK_BYTES - 1) + b"\1")
    step = Step(harness.leak_address(), (0, int(harness.ffi.cast("uintptr_t", reference)),
                                         LEAK_BYTES), input_arg=0)
    v = harness.run([step], fixed_vs_random(LEAK_BYTES), measurements(), expect_failed=1)
    print(f"dudect: planted leak: t = {v.t:+.2f} ({v.which})")
    assert v.leaks, f"the early-exit compare was not seen: |t| = {abs(v.t):.1f}"
