"""Which algorithms and targets a run measures: the named algorithms, our
runnable drivers (``--impl``), then with ``--peers`` our one-shot API and the
installed peers, each opened as it is needed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import gcrylike

from . import peers
from .ours import ONE_SHOT_CLASSES, ONE_SHOT_LABEL, OUR_TARGETS, one_shot_class, one_shot_target
from .targets import Buffers, Target
from .theirs import peer_target


class BenchError(Exception):
    """A bench request that cannot be run (bad option combination, unknown
    driver, missing extra); the command reports it as a usage error
    (gcrylike._cli_errors: exit status 2)."""


def resolve(names: Sequence[str]) -> list[gcrylike.AlgorithmInfo]:
    """The algorithms of ``names`` (names, aliases or ids), or every
    registered one, each as :func:`gcrylike.algorithm_info` describes it
    (what the bench calls a spec)."""
    if not names:
        return [gcrylike.algorithm_info(name) for name in gcrylike.algorithms()]
    specs: list[gcrylike.AlgorithmInfo] = []
    for name in names:
        spec = gcrylike.algorithm_info(int(name) if name.isdigit() else name)
        if spec not in specs:
            specs.append(spec)
    return specs


def filter_by_impl(specs: list[Any], impls: Sequence[str], named: bool) -> list[Any]:
    """Check ``--impl`` against the drivers of ``specs`` before anything runs:
    a name that is no driver of theirs is an error.  Without named
    algorithms, only those with one of the drivers are kept."""
    if not impls:
        return specs
    drivers = {s.name: {i.driver.lower() for i in gcrylike.implementations(s.name)}
               for s in specs}
    known = set().union(*drivers.values())
    unknown = [d for d in impls if d.lower() not in known]
    if unknown:
        where = f" of {', '.join(s.name for s in specs)}" if named else ""
        raise BenchError(f"--impl {', '.join(unknown)}: no such driver{where} "
                         "(gcrylike list shows every driver)")
    if named:
        return specs
    wanted = {d.lower() for d in impls}
    return [s for s in specs if drivers[s.name] & wanted]


def our_drivers(spec: Any, only: Sequence[str]) -> tuple[list[str], list[str]]:
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


def unsupported(spec: Any) -> str | None:
    if spec.kind == "secretbox" and one_shot_class(spec) is None:
        opens = next(name for name, cls in ONE_SHOT_CLASSES.items() if cls is gcrylike.SecretBox)
        return (f"not measured: a plugin secretbox has no public opener (SecretBox opens "
                f"{opens} only)")
    if spec.kind in OUR_TARGETS:
        return None
    return f"not measured: gcrylike bench has no rows for {spec.kind} algorithms yet"


def iter_targets(spec: Any, drivers: list[str], with_peers: bool, bufs: Buffers,
                 note: Callable[[str], None], best: Callable[[], str | None]
                 ) -> Iterator[Target]:
    """Open each target as it is needed (and report the ones that fail):
    our drivers, then with peers our one-shot API on driver ``best()``
    (asked only once our drivers are done) and the peers."""
    build = OUR_TARGETS[spec.kind]
    for driver in drivers:
        try:
            yield build(spec, driver, bufs)
        except gcrylike.GcryError as exc:
            note(f"{driver}: skipped ({exc})")
    if not with_peers:
        return
    offered = peers.peers_for(spec.name)
    if not offered:
        note(f"no peer library in gcrylike._bench.peers offers {spec.name}")
        return
    if spec.kind in ONE_SHOT_LABEL and any(o.api == peers.ONE_SHOT for _, o in offered):
        driver = best()
        if driver is None:
            note("ours one-shot: skipped (none of our drivers ran)")
        elif spec.kind == "aead" and one_shot_class(spec) is None:
            note("ours one-shot: skipped (a plugin AEAD has no public one-shot class)")
        else:
            try:
                yield one_shot_target(spec, driver, bufs)
            except gcrylike.GcryError as exc:
                note(f"{driver} one-shot: skipped ({exc})")
    for peer, offer in offered:
        reason = peer.unavailable_reason(spec.name)
        if reason:
            note(f"peer {peer.name}: not available ({reason})")
            continue
        try:
            yield peer_target(spec, peer, offer, bufs)
        except Exception as exc:  # a broken peer must not stop the run
            note(f"peer {peer.name}: skipped ({type(exc).__name__}: {exc})")


def measure_errors(target: Target) -> type[BaseException] | tuple[type[BaseException], ...]:
    """What a failing target may raise and the run survive: any error of a
    peer (not our code), only our own error family from our handles."""
    return gcrylike.GcryError if target.ours else Exception
