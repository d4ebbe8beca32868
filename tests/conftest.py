"""Shared fixtures: run a test on every implementation ("driver") of an algorithm.

Mark a test with ``@pytest.mark.algorithms("salsa20", "salsa20r12")`` and ask
for the ``driver`` fixture; it is parametrized with :func:`drivers` of each
named algorithm:

* every implementation is forced with ``cipher_open(name, impl=...)``
  (route ``impl``), and
* every implementation is also reached through the automatic choice
  (route ``hwf``): the CPU features of every better implementation that this
  one does not need are added to the hardware-feature deny list for the
  test's duration (restored afterwards), and the handle that
  ``cipher_open(name)`` returns must use this driver.  For the best one the
  deny list is left as it is (id ``:auto``).

An implementation that cannot run here (``.available`` is False in
``gcrylike.implementations(name)``: not built, CPU lacks a feature, or denied
through ``GCRYLIKE_HWF_DENY``) is skipped with its ``.reason``.

Nothing here knows about a particular cipher; it works for any registered
algorithm (CHACHA20, XCHACHA20, ...).  Test files for the other kinds (MACs,
AEADs, ...) build their own fixture on :func:`drivers` and :func:`on_route`,
with :class:`Driver` or a small driver class that opens their kind of handle.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import pytest

import gcrylike

#: the repository (or unpacked sdist) root
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="session", autouse=True)
def _run_outside_the_source_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``python -c`` and ``-m`` put the working directory first on
    ``sys.path``; when pytest runs in the repository root (a checkout or an
    unpacked sdist) that is the source tree, whose ``gcrylike/`` has no
    compiled extensions, and every test that starts a Python subprocess would
    import it.  The session runs from a scratch directory instead, as under
    tox (tests name their files from ``__file__``, never the cwd)."""
    start = os.getcwd()
    if os.path.realpath(start) != os.path.realpath(ROOT):
        yield
        return
    os.chdir(tmp_path_factory.mktemp("cwd"))
    try:
        yield
    finally:
        os.chdir(start)

ROUTE_IMPL = "impl"
ROUTE_HWF = "hwf"

D = TypeVar("D")


@dataclass(frozen=True)
class DriverCase:
    """One implementation of one algorithm, and how a test reaches it."""

    algorithm: str                  # canonical name, e.g. "SALSA20"
    driver: str                     # e.g. "salsa20-amd64-sse2"
    route: str                      # ROUTE_IMPL or ROUTE_HWF
    deny: frozenset[str] = frozenset()  # features denied on top (ROUTE_HWF)

    @property
    def id(self) -> str:
        if self.route == ROUTE_IMPL:
            return f"{self.driver}:impl"
        if not self.deny:
            return f"{self.driver}:auto"
        return f"{self.driver}:deny-{'+'.join(sorted(self.deny))}"


def open_any(algorithm: str, impl: str | None = None):
    """A handle on ``algorithm`` with the opener of its kind."""
    spec = gcrylike._registry.lookup(algorithm)
    if spec.kind == "aead":
        return gcrylike.cipher_open(spec.cipher, impl=impl, mode=spec.mode)
    opener = {"cipher": gcrylike.cipher_open, "mac": gcrylike.mac_open,
              "block": gcrylike.block_cipher_open,
              "tweakable": gcrylike.tweakable_open}[spec.kind]
    return opener(algorithm, impl=impl)


class Driver:
    """What the ``driver`` fixture hands a test: opens handles on one driver
    (a cipher, MAC, block or tweakable handle, by the algorithm's kind)."""

    def __init__(self, case: DriverCase) -> None:
        self.case = case
        self.algorithm = case.algorithm
        self.name = case.driver

    @property
    def impl(self) -> str | None:
        """``impl=`` for APIs that take one: the driver, or None on the
        automatic route (where the deny list makes the choice)."""
        return self.name if self.case.route == ROUTE_IMPL else None

    def open(self):
        """A new handle that is guaranteed to use this driver."""
        h = open_any(self.algorithm, self.impl)
        if h.info.driver != self.name:
            got = h.info.driver
            h.close()
            raise AssertionError(
                f"opening {self.algorithm!r} chose {got}, expected {self.name} "
                f"(route {self.case.id}, active features {sorted(gcrylike.hw_features())})")
        return h

    def keyed(self, key: bytes):
        """``open()`` with ``key`` installed (still on this driver)."""
        h = self.open()
        h.setkey(key)
        assert h.info.driver == self.name, "setkey moved the handle to another driver"
        return h

    def mac(self, key: object, data: object) -> bytes:
        """MACs: the one-shot ``gcrylike.mac`` on this driver."""
        return gcrylike.mac(self.algorithm, key, data, impl=self.impl)

    def __repr__(self) -> str:
        return f"<Driver {self.case.id}>"


def _canonical(name: str | int) -> str:
    return gcrylike._registry.lookup(name).name


def drivers(algo: str | int, routes: Iterable[str] = (ROUTE_IMPL, ROUTE_HWF),
            known: Iterable[str] = ()) -> list:
    """Every implementation of ``algo`` (any kind) as ``pytest.param(DriverCase)``s,
    one per route; implementations that cannot run here are skipped with
    their ``.reason``, and ``known`` driver names missing from this build
    (the portable-only build has no assembly) are skipped saying so."""
    infos = gcrylike.implementations(algo)  # best first
    name = _canonical(algo)
    params = []
    for idx, info in enumerate(infos):
        marks = []
        if not info.available:
            marks.append(pytest.mark.skip(
                reason=f"{info.driver} cannot run here: {info.reason}"))
        for route in routes:
            deny: frozenset[str] = frozenset()
            route_marks = list(marks)
            if route == ROUTE_HWF:
                for better in infos[:idx]:
                    extra = better.features - info.features
                    if extra:
                        deny |= extra
                    elif better.available and not marks:
                        route_marks.append(pytest.mark.skip(
                            reason=f"{info.driver} cannot be chosen through the deny list: "
                                   f"{better.driver} needs no feature it lacks"))
            case = DriverCase(name, info.driver, route, deny)
            params.append(pytest.param(case, id=case.id, marks=route_marks))
    built = {i.driver for i in infos}
    for missing in known:
        if missing not in built:
            why = (f"{missing} is not in this build (use_amd64="
                   f"{gcrylike.config().use_amd64}: GCRYLIKE_NO_ASM or not x86-64)")
            case = DriverCase(name, missing, ROUTE_IMPL)
            params.append(pytest.param(case, id=case.id, marks=[pytest.mark.skip(reason=why)]))
    return params


def skip_unless_available(algo: str | int, *names: str) -> None:
    """Skip the test (saying why) unless every driver in ``names`` of
    ``algo`` is built and can run here."""
    infos = {i.driver: i for i in gcrylike.implementations(algo)}
    for d in names:
        if d not in infos:
            pytest.skip(f"{d} is not built")
        if not infos[d].available:
            pytest.skip(f"{d} cannot run here: {infos[d].reason}")


@contextlib.contextmanager
def denied_for(case: DriverCase) -> Iterator[None]:
    """Deny the features that route ``case`` needs denied, on top of the
    current list, and restore the list afterwards whatever happens."""
    previous = _set_deny(())       # read the current list ...
    _set_deny(previous | case.deny)  # ... and deny more on top (nothing for impl=)
    try:
        yield
    finally:
        _set_deny(previous)


def _open_and_close(d) -> None:
    d.open().close()


def on_route(case: DriverCase, make: Callable[[DriverCase], D],
             reach: Callable[[D], object] = _open_and_close) -> Iterator[D]:
    """The body of a driver fixture: yields ``make(case)`` with the features
    that route ``case`` needs denied (the deny list is restored afterwards
    whatever happens), once ``reach`` has opened a handle through it, which
    proves that the route really reaches this driver (the driver class
    checks what it got).  Use ``yield from on_route(request.param, ...)``."""
    with denied_for(case):
        d = make(case)
        reach(d)
        yield d


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "algorithms(*names): parametrize the `driver` fixture with every "
        "implementation of each named algorithm (see tests/conftest.py)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("algorithms")
    if marker is None or "driver" not in metafunc.fixturenames:
        return
    params = [p for algo in marker.args for p in drivers(algo)]
    metafunc.parametrize("driver", params, indirect=True)


def _set_deny(names: Iterable[str]) -> frozenset[str]:
    return gcrylike.set_hwf_deny(list(names))


@pytest.fixture
def driver(request: pytest.FixtureRequest) -> Iterator[Driver]:
    """One implementation (see :func:`drivers`); the deny list is restored
    after the test whatever it did."""
    case: DriverCase = getattr(request, "param", None)
    if case is None:
        pytest.fail("the `driver` fixture needs @pytest.mark.algorithms(...)")
    yield from on_route(case, Driver)


@pytest.fixture
def hwf_deny() -> Iterator[Callable[[Iterable[str] | str], frozenset[str]]]:
    """``hwf_deny(names)`` replaces the deny list like ``gcrylike.set_hwf_deny``
    (returning the previous list); the original list is restored afterwards."""
    original: list[frozenset[str]] = []

    def set_deny(names: Iterable[str] | str) -> frozenset[str]:
        previous = gcrylike.set_hwf_deny(names)
        if not original:
            original.append(previous)
        return previous

    yield set_deny
    if original:
        gcrylike.set_hwf_deny(original[0])


@pytest.fixture
def available_drivers() -> Callable[[str | int], list[str]]:
    """``available_drivers(algo)``: names of the implementations that can run
    here now, best first (for tests that compare every driver at once)."""
    def names(algo: str | int) -> list[str]:
        return [i.driver for i in gcrylike.implementations(algo) if i.available]

    return names


@pytest.fixture
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh registry (built-ins reload on first use) and self-test state;
    the plugin choice unset (GCRYLIKE_PLUGINS too)."""
    from gcrylike import _registry, _selftest

    for attr in ("_by_id", "_by_name", "_by_driver", "_plugin_errors", "_found", "_resolved",
                 "_failed_names"):
        monkeypatch.setattr(_registry, attr, {})
    monkeypatch.setattr(_registry, "_loaded", False)
    monkeypatch.setattr(_registry, "_plugin_choice", None)
    monkeypatch.setattr(_selftest, "_results", {})
    monkeypatch.delenv("GCRYLIKE_PLUGINS", raising=False)
