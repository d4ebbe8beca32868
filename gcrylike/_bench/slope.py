"""The bench-slope run: every target of every algorithm measured at the
fit's sizes, peers compared with ours turn about, Adiantum's storage call;
each figure handed to the sinks (the table, the records) as it comes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import gcrylike

from . import peers
from .console import Console
from .cpuclock import Clock
from .fit import CALL_SIZE, Fit, call_cost, fit_slope
from .options import Settings
from .ours import keyed_tweakable
from .selection import iter_targets, measure_errors, our_drivers, unsupported
from .targets import (
    IMPL,
    NONCE,
    ONE_SHOT,
    PEER,
    POINT_SIZES,
    SECTOR_SIZES,
    Buffers,
    Result,
    Target,
    key_for,
)
from .threads import THREAD_BYTES, measure_threads, thread_count
from .timing import time_per_call

#: The slope table's sections (bench-slope prints one table per kind) and
#: the kinds of spec each holds.
SECTIONS = (("Cipher", ("cipher", "block", "aead", "secretbox")), ("MAC", ("mac",)),
            ("Storage", ("tweakable",)))

#: The storage call: whole sectors per native call (encrypt_sectors).
BATCH_SECTOR, BATCH_COUNT = 4096, 16


class Sink(Protocol):
    """What a slope run reports to (:mod:`.report.table`, :mod:`.report.records`)."""

    def begin(self, st: Settings) -> None: ...
    def section(self, name: str) -> None: ...
    def spec(self, spec: Any) -> None: ...
    def note(self, spec: Any, text: str) -> None: ...
    def result(self, spec: Any, res: Result, mhz: float | None,
               auto_mhz: float | None) -> None: ...
    def ratio(self, spec: Any, ours: Target, peer: Target,
              points: dict[int, tuple[float, float]], style: str) -> None: ...
    def sectors(self, spec: Any, batch: tuple[int, int], per: dict[str, float],
                chosen: list[str], best: str | None, reference: str | None) -> None: ...
    def threads(self, spec: Any, operation: str, driver: str, size: int,
                times: dict[int, tuple[float, float, float]]) -> None: ...
    def spec_end(self, spec: Any) -> None: ...
    def end(self, clock: Clock, peers: bool, st: Settings,
            shown: set[tuple[str, str]]) -> None: ...


class _Fanout:
    """Every call goes to each sink in turn."""

    def __init__(self, sinks: Sequence[Sink]) -> None:
        self._sinks = sinks

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any) -> None:
            for sink in self._sinks:
                getattr(sink, name)(*args)

        return call


def measure(target: Target, st: Settings) -> Result:
    fits, points, calls = {}, {}, {}
    for label in target.ops:
        # the short call is timed turn about with the fit's sizes, but is
        # not one of the fit's points (unless --sizes names it)
        fns = {n: target.bind(n, label) for n in dict.fromkeys([*st.sizes, CALL_SIZE])}
        med = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
        points[label] = {n: med[n] for n in st.sizes}
        fits[label] = fit_slope(list(points[label]), list(points[label].values()))
        calls[label] = call_cost(fits[label], med[CALL_SIZE])
    return Result(target, fits, points, calls)


#: Call styles of the ours/peer comparison -> the Target attribute binding
#: it (None: the main operation, in place).  A style is compared where both
#: sides have it.
STYLES = {"in place": None, "out= buffer": "apart", "new bytes": "fresh"}


def _binder(target: Target, style: str) -> Any:
    attr = STYLES[style]
    return target.bind if attr is None else getattr(target, attr)


def compare(ours: Target, peer: Target, st: Settings,
            style: str = "in place") -> dict[int, tuple[float, float]]:
    """Time per call (ns) of the main operation of ``ours`` and ``peer`` in
    call ``style`` (see :data:`STYLES`) at each of ``ours.points``, measured
    turn about in the same batches so both see the same machine."""
    fns = {}
    mine, theirs = _binder(ours, style), _binder(peer, style)
    for n in ours.points:
        fns[("ours", n)] = mine(n)
        fns[("peer", n)] = theirs(n)
    t = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
    return {n: (t[("ours", n)], t[("peer", n)]) for n in ours.points}


def _speed(fit: Fit) -> float:
    """Sort key for "fastest": ns/B, with a slope noise made <= 0 last."""
    return fit.slope if fit.slope > 0 else float("inf")


class SlopeRun:
    def __init__(self, specs: list[Any], impls: Sequence[str], with_peers: bool,
                 st: Settings, clock: Clock, sinks: Sequence[Sink], console: Console) -> None:
        self.specs = specs
        self.impls = impls
        self.with_peers = with_peers
        self.st = st
        self.clock = clock
        self.out: Any = _Fanout(sinks)
        self.console = console
        #: (kind, role) of every row group shown, for the footer's notes
        self.shown: set[tuple[str, str]] = set()
        self._done = 0
        #: N of the thread rows (1: none, this process has one CPU)
        self.thread_count = thread_count()
        self._path = gcrylike.config().data_path

    def run(self) -> None:
        st = self.st
        bufs = Buffers(max(*st.sizes, *POINT_SIZES, *SECTOR_SIZES))
        self.out.begin(st)
        listed = set()
        for section, kinds in SECTIONS:
            group = [s for s in self.specs if s.kind in kinds]
            listed.update(group)
            if group:
                self.out.section(section)
            for spec in group:
                self._spec(spec, bufs)
        others = [s for s in self.specs if s not in listed]
        if others:
            self.out.section("Other")
            for spec in others:
                self._spec(spec, bufs)
        self.console.clear()
        self.out.end(self.clock, self.with_peers, st, self.shown)

    def _progress(self, spec: Any, what: str) -> None:
        self.console.progress(f"gcrylike bench: {self._done + 1}/{len(self.specs)} "
                              f"{spec.name}: {what}")

    def _spec(self, spec: Any, bufs: Buffers) -> None:
        try:
            self._measure_spec(spec, bufs)
        finally:
            self._done += 1

    def _measure_spec(self, spec: Any, bufs: Buffers) -> None:
        out, st = self.out, self.st
        out.spec(spec)
        reason = unsupported(spec)
        if reason:
            out.note(spec, reason)
            out.spec_end(spec)
            return
        drivers, notes = our_drivers(spec, self.impls)
        for n in notes:
            out.note(spec, n)
        best: Result | None = None
        #: What peers are compared with, by Target.api: our fastest handle, our one-shot.
        yardstick: dict[str, Target] = {}
        opened: list[Target] = []  # ours stay open: they are the peers' yardsticks

        def best_driver() -> str | None:
            return best.target.driver if best is not None else None

        def note(text: str) -> None:
            out.note(spec, text)

        try:
            for target in iter_targets(spec, drivers, self.with_peers, bufs, note,
                                       best_driver):
                if target.ours:
                    opened.append(target)
                try:
                    self._progress(spec, target.title)
                    res = measure(target, st)
                    auto = self.clock.reading() if self.clock.auto else None
                    out.result(spec, res, self.clock.mhz, auto)
                    self.shown.add((spec.kind, target.role))
                    if target.role == PEER:
                        self._compare(spec, yardstick.get(target.api), target)
                    elif target.path and target.path != self._path:
                        note(f"{target.driver}: data calls through {target.path}, "
                             f"not {self._path}")
                except measure_errors(target) as exc:
                    note(f"{target.driver}: failed ({type(exc).__name__}: {exc})")
                    continue
                finally:
                    if not target.ours:
                        target.close()
                if target.role == IMPL and (best is None or _speed(res.main) < _speed(best.main)):
                    best = res
                    # a handle, or (secretbox) our one-shot API itself
                    yardstick[target.api] = target
                elif target.role == ONE_SHOT:
                    yardstick[peers.ONE_SHOT] = target
        finally:
            for target in opened:
                target.close()
        if spec.kind == "tweakable" and drivers:
            # what a user gets (none chosen: every runnable driver failed its self-test)
            default = next((i.driver for i in gcrylike.implementations(spec.name)
                            if i.chosen), None)
            self._progress(spec, "encrypt_sectors")
            self._sector_batches(spec, drivers, default if default in drivers else best_driver())
            self._threads(spec, default if default in drivers else best_driver(),
                          "encrypt_sectors")
        elif spec.kind == "cipher" and spec.block_size == 1:
            self._threads(spec, best_driver(), "encrypt")
        out.spec_end(spec)

    def _threads(self, spec: Any, driver: str | None, operation: str) -> None:
        """One 16 MiB call on 1 thread and on N (see :mod:`.threads`)."""
        if driver is None or self.thread_count < 2:
            return
        self._progress(spec, f"{operation} on 1 and {self.thread_count} threads")
        times = measure_threads(spec, driver, self.thread_count, self.st)
        self.out.threads(spec, operation, driver, THREAD_BYTES, times)

    def _compare(self, spec: Any, ref: Target | None, target: Target) -> None:
        if ref is None:
            self.out.note(spec, f"{target.driver}: nothing of ours to compare with")
            return
        self._progress(spec, f"ours/peer: {target.title}")
        for style in STYLES:
            if _binder(ref, style) and _binder(target, style):
                self.out.ratio(spec, ref, target, compare(ref, target, self.st, style), style)

    def _sector_batches(self, spec: Any, drivers: list[str], best: str | None) -> None:
        """Per-sector cost of ``encrypt_sectors`` on batches of 4 KiB sectors
        (one native call per batch, as storage uses it), for the default and
        the portable driver, and with peers the reference peer per 4 KiB call,
        all timed turn about."""
        st = self.st
        buf = bytearray(BATCH_SECTOR * BATCH_COUNT)
        chosen = [d for d in (best, drivers[-1]) if d is not None]
        handles, fns = [], {}
        try:
            for driver in dict.fromkeys(chosen):
                h = keyed_tweakable(spec, driver)
                handles.append(h)
                fns[driver] = (lambda h=h: h.encrypt_sectors(buf, 0, BATCH_SECTOR))
            reference = None
            if self.with_peers:
                for peer, offer in peers.peers_for(spec.name):
                    if offer.reference and not peer.unavailable_reason(spec.name):
                        crypter = peer.crypter(offer.reference, key_for(offer.key_sizes),
                                               NONCE[:offer.nonce_sizes[0]])
                        handles.append(crypter)
                        view = memoryview(bytearray(BATCH_SECTOR))
                        reference = f"{peer.name} {offer.reference} (one 4 KiB call)"
                        fns[reference] = crypter.bind(view, view, False)
                        break
            t = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
        finally:
            for h in handles:
                h.close()
        per = {k: v / (BATCH_COUNT if k != reference else 1) for k, v in t.items()}
        self.out.sectors(spec, (BATCH_SECTOR, BATCH_COUNT), per, chosen, best, reference)

