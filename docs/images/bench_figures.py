"""Draw the performance page's figures: one per algorithm family, from the
records of one ``gcrylike bench`` run, with the bench's own ``--plot`` code.

``gcrylike bench --plot 'bench-{algorithm}.png'`` draws one file per
algorithm; the page wants one per family (stream, AEAD, MAC, Adiantum),
named by family and redrawn from the run's stored ``--json`` records, so
that all four come from the same measurements and can be redrawn without
measuring again.  The figures are --plot's own: caption wrapped to the
panel, 135 dpi, a tight box.  Made by (docs/performance.rst shows the run's
options)::

    gcrylike bench --peers ... --json docs/images/bench-run.json ALGO...
    python3 docs/images/bench_figures.py docs/images/bench-run.json

Needs an installed gcrylike with matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import json
import os
import sys

from gcrylike._bench.report import plot as bench_plot

#: record kind -> the figure's file name (bench-NAME.png beside the JSON)
FAMILIES = {"cipher": "stream", "aead": "aead", "mac": "mac", "tweakable": "adiantum"}


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
    records = run.pop("records")
    folder = os.path.dirname(os.path.abspath(path))
    for kind, name in FAMILIES.items():
        family = [r for r in records if r["kind"] == kind]
        if not family:
            print(f"no {kind} records in {path}: {name} not drawn", file=sys.stderr)
            continue
        out = os.path.join(folder, f"bench-{name}.png")
        bench_plot.plot(family, run, out)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
