"""Self-test state per implementation, and the first-setkey gate.

libgcrypt runs an algorithm's known-answer tests on its first setkey in the
process and remembers a failure for good; we do the same per implementation
(driver), and fall back to the next implementation when the chosen one fails.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from . import _fast
from ._errors import GcryError, SelftestFailed
from ._spec import CipherSpec, Implementation

_lock = threading.RLock()
_results: dict[str, SelftestResult] = {}
#: Bumped whenever a result is recorded or forgotten: the registry's
#: remembered choices are valid only for the generation (and the _results
#: dict) they were made under.
generation = 0


@dataclass(frozen=True)
class SelftestResult:
    algorithm: str
    driver: str
    passed: bool
    reason: str = ""


def status(impl: Implementation) -> str:
    """``passed``, ``failed`` or ``untested``."""
    res = _results.get(impl.driver)
    if res is None:
        return "untested"
    return "passed" if res.passed else "failed"


def failed(impl: Implementation) -> bool:
    res = _results.get(impl.driver)
    return res is not None and not res.passed


def run(spec: CipherSpec, impl: Implementation, *, force: bool = False) -> SelftestResult:
    """Run (or recall) the known-answer tests of ``spec`` on ``impl``."""
    if not force:
        known = _results.get(impl.driver)  # the common case: no lock needed
        if known is not None:
            return known
    with _lock:
        if not force and impl.driver in _results:
            return _results[impl.driver]
        try:
            spec.selftest(spec, impl)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # any failure (a plugin's SystemExit too) marks it failed
            res = SelftestResult(spec.name, impl.driver, False, describe_error(exc))
        else:
            res = SelftestResult(spec.name, impl.driver, True)
        _record(impl.driver, res)
        return res


def describe_error(exc: BaseException) -> str:
    """``Type: message`` without a GcryError's ``[CODE]`` tag (the type
    says it), so that a reason quoted inside another error has one tag."""
    text = exc.args[0] if isinstance(exc, GcryError) and exc.args else str(exc)
    return f"{type(exc).__name__}: {text}"


def forget(driver: str | None = None) -> None:
    """Drop remembered results (all, or one driver's): test helper."""
    global generation
    with _lock:
        if driver is None:
            _results.clear()
        else:
            _results.pop(driver, None)
        generation += 1
        _fast.selftests_changed()


def _record(driver: str, res: SelftestResult) -> None:
    global generation
    _results[driver] = res
    generation += 1
    _fast.selftests_changed()


def require(spec: CipherSpec, impl: Implementation) -> None:
    res = run(spec, impl)
    if not res.passed:
        raise SelftestFailed(f"{spec.name} selftest failed on {impl.driver} ({res.reason})")
