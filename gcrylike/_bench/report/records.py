"""Every figure of a slope run as flat records, for ``--json`` and ``--csv``.

One record per table row (``record`` ``"slope"``: the fit of one operation
of one driver or peer), per point the fit went through (``"point"``: the
time per call at one size, what ``--plot`` draws), per ratio the table shows
(``"ratio"``: ours/peer at one size, or an ``encrypt_sectors`` ratio) and per
``encrypt_sectors`` line (``"sectors"``).  Every record has every key of
:data:`FIELDS`; a figure a record does not have is None (null in JSON, an
empty cell in CSV).  Only the JSON file has the run's header: the command,
the settings, the machine and the versions; the CSV file is the records
alone, header row first.
"""

from __future__ import annotations

import csv
import json
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .. import machine as host
from ..cpuclock import Clock
from ..fit import CALL_SIZE, NOISY_R2
from ..options import Settings
from ..slope import SECTIONS
from ..targets import Result, Target

#: Schema name and version written into both formats.
FORMAT, SCHEMA = "gcrylike-bench", 3

FIELDS = (
    "record",  # slope | point | ratio | sectors | threads
    "section",  # Cipher, MAC, Storage, Other
    "algorithm",
    "kind",  # cipher, block, aead, secretbox, mac, tweakable
    "role",  # impl (our driver), one-shot (our one-shot API), peer
    "driver",  # our driver, "DRIVER one-shot", or "peer NAME VERSION via BINDING"
    "target",  # the table's group line
    "operation",  # the row label: STREAM enc, MAC, POLY1305 dec, ...
    "primary",  # the target's main operation (plotted, compared with peers)
    "size",  # bytes per call (point, ratio, sectors)
    "size_min", "size_max",  # the sizes of the fit (slope)
    "ns_per_byte", "mib_per_s", "cycles_per_byte",
    "mhz",  # the core clock used for cycles/byte (None: no estimate trusted yet)
    "auto_mhz",  # the highest clock estimate after this row (the table's "auto Mhz")
    "call_ns",  # the table's "call ns": fixed cost per call, never < 0
    "call_from",  # "fit" (call_ns is the intercept) or "64-byte call" (measured)
    "intercept_ns",  # the fit's intercept itself (noise can make it < 0)
    "r2", "noisy",
    "ns_per_call",  # point: one call; ratio: the peer's call; sectors: one sector
    "ratio",  # ratio: time of theirs over time of ours at size (x > 1: ours faster)
    "versus",  # ratio: our driver compared with
    "versus_ns_per_call",  # ratio: our time per call
    "style",  # ratio: "in place", "out= buffer", "new bytes", "sectors" or "threads"
    "threads",  # threads: native threads of the call; ratio (threads): the N compared with 1
    "cpu_ns_thread",  # threads: this thread's CPU time per call
    "cpu_ns_process",  # threads: the process's CPU time per call (every thread)
)


def _mib(nbytes: float, ns: float) -> float:
    return nbytes / ns * 1e9 / 2**20


#: kind of algorithm -> the table section it is printed in
_SECTION_OF = {kind: name for name, kinds in SECTIONS for kind in kinds}


@dataclass
class Recorder:
    """A slope-run sink (see :mod:`..slope`) keeping every figure."""

    command: list[str] = field(default_factory=lambda: list(sys.argv))
    records: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, str]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    started: str = ""
    machine: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, Any] = field(default_factory=dict)

    def _add(self, spec: Any, **values: Any) -> None:
        for key, value in values.items():  # 9 figures: more than any timing holds
            if isinstance(value, float):
                values[key] = float(f"{value:.9g}")
        rec = dict.fromkeys(FIELDS)
        rec.update(algorithm=spec.name, kind=spec.kind,
                   section=_SECTION_OF.get(spec.kind, "Other"), **values)
        self.records.append(rec)

    def begin(self, st: Settings) -> None:
        self.started = datetime.now(UTC).isoformat(timespec="seconds")
        self.settings = {"sizes": list(st.sizes), "repeats": st.repeats,
                         "batch_ms": st.batch_ns / 1e6, "stat": st.stat, "clock": st.clock}

    def section(self, name: str) -> None:
        pass

    def spec(self, spec: Any) -> None:
        pass

    def note(self, spec: Any, text: str) -> None:
        self.notes.append({"algorithm": spec.name, "note": text})

    def result(self, spec: Any, res: Result, mhz: float | None,
               auto_mhz: float | None) -> None:
        t = res.target
        who = {"role": t.role, "driver": t.driver, "target": t.title}
        for label, fit in res.fits.items():
            primary, call = label == t.main, res.calls[label]
            per_byte = fit.slope if fit.slope > 0 else None
            self._add(spec, record="slope", **who, operation=label, primary=primary,
                      size_min=min(res.points[label]), size_max=max(res.points[label]),
                      ns_per_byte=per_byte,
                      mib_per_s=1e9 / per_byte / 2**20 if per_byte else None,
                      cycles_per_byte=per_byte * mhz / 1000 if per_byte and mhz else None,
                      mhz=mhz, auto_mhz=auto_mhz, call_ns=call.ns,
                      call_from="fit" if call.fitted else f"{CALL_SIZE}-byte call",
                      intercept_ns=fit.intercept, r2=fit.r2,
                      noisy=fit.r2 < NOISY_R2)
            for size, ns in res.points[label].items():
                self._add(spec, record="point", **who, operation=label, primary=primary,
                          size=size, ns_per_call=ns, mib_per_s=_mib(size, ns))

    def ratio(self, spec: Any, ours: Target, peer: Target,
              points: dict[int, tuple[float, float]], style: str) -> None:
        for size, (mine, theirs) in points.items():
            self._add(spec, record="ratio", role=peer.role, driver=peer.driver,
                      target=peer.title, operation=peer.main, primary=True, size=size,
                      ns_per_call=theirs, ratio=theirs / mine, versus=ours.driver,
                      versus_ns_per_call=mine, style=style)

    def sectors(self, spec: Any, batch: tuple[int, int], per: dict[str, float],
                chosen: list[str], best: str | None, reference: str | None) -> None:
        size, _count = batch
        for key, ns in per.items():
            self._add(spec, record="sectors", role="peer" if key == reference else "impl",
                      driver=key, operation="encrypt_sectors", size=size, ns_per_call=ns,
                      mib_per_s=_mib(size, ns))
        if best and len(chosen) == 2 and chosen[0] != chosen[1]:
            self._add(spec, record="ratio", role="impl", driver=chosen[1],
                      operation="encrypt_sectors", size=size, ns_per_call=per[chosen[1]],
                      ratio=per[chosen[1]] / per[chosen[0]], versus=chosen[0],
                      versus_ns_per_call=per[chosen[0]], style="sectors")
        if best and reference:
            self._add(spec, record="ratio", role="peer", driver=reference,
                      operation="encrypt_sectors", size=size, ns_per_call=per[reference],
                      ratio=per[reference] / per[best], versus=best,
                      versus_ns_per_call=per[best], style="sectors")

    def threads(self, spec: Any, operation: str, driver: str, size: int,
                times: dict[int, tuple[float, float, float]]) -> None:
        one, many = sorted(times)
        for n, (ns, mine, total) in times.items():
            self._add(spec, record="threads", role="impl", driver=driver, operation=operation,
                      size=size, ns_per_call=ns, mib_per_s=_mib(size, ns), threads=n,
                      cpu_ns_thread=mine, cpu_ns_process=total)
        wall_one, wall_many = times[one][0], times[many][0]
        self._add(spec, record="ratio", role="impl", driver=driver, operation=operation,
                  size=size, ns_per_call=wall_many, ratio=wall_one / wall_many,
                  versus=driver, versus_ns_per_call=wall_one, style="threads", threads=many)

    def spec_end(self, spec: Any) -> None:
        pass

    def end(self, clock: Clock, peers: bool, st: Settings,
            shown: set[tuple[str, str]]) -> None:
        self.machine = host.machine(clock)
        self.versions = host.versions(peers)

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "schema": SCHEMA, "date": self.started,
                "command": self.command, "settings": self.settings,
                "machine": self.machine, "versions": self.versions, "notes": self.notes}


def write_json(rec: Recorder, path: str) -> None:
    """The header, then ``"records"``: one compact object per line."""
    head = json.dumps({**rec.header(), "fields": list(FIELDS)}, indent=1)
    rows = ",\n  ".join(json.dumps(r) for r in rec.records)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'{head[:-2]},\n "records": [\n  {rows}\n ]\n}}\n')


def write_csv(rec: Recorder, path: str) -> None:
    """The records as a plain CSV file: the header row of :data:`FIELDS`,
    then one row per record, so that ``csv.DictReader`` (or any CSV reader)
    takes it as it is.  The run's header (machine, versions, settings) is
    the JSON file's alone: comment lines above the header row made
    ``DictReader`` read the first comment as the column names."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rec.records:
            w.writerow({k: "" if v is None else v for k, v in r.items()})


def read_csv(path: str) -> list[dict[str, str]]:
    """The rows of a file :func:`write_csv` wrote, as strings by field."""
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))
