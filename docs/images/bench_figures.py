"""Draw the performance page's figures: one per algorithm family, from the
records of one ``gcrylike bench`` run, with the bench's own ``--plot`` code.

``gcrylike bench --plot FILE`` draws every algorithm of a run into one file
(two panels a row, 1280 px wide: too wide for the page at its own size).
This splits the run's ``--json`` records by kind and draws each family with
the same function, so that all four come from the same measurements.  Two
things differ from ``--plot``'s file, both for reading the figure at its own
size on the page (which the docs' browser check requires): the caption above
the panel is wrapped to the panel's width (``--plot`` clips it at both ends
on a one-panel figure), and the figure is saved at 135 dpi instead of 100
(text a third larger, under 900 px wide: the page's column is 920 px at a
1400 px window) with a tight bounding box, so that the legend under the
panel is never cut.  Made by (docs/performance.rst shows
the run's options)::

    gcrylike bench --peers ... --json docs/images/bench-run.json ALGO...
    python3 docs/images/bench_figures.py docs/images/bench-run.json

Needs an installed gcrylike with matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap

from gcrylike._bench.report import plot as bench_plot

#: Resolution of the page's figures: the bench's 6.4 in panel and its
#: legend come to about 890 px.
DPI = 135
#: Characters of the caption per line, about the panel's width at its font size.
CAPTION_WIDTH = 95


def wrap_caption(text: str) -> str:
    """The bench's caption with its long lines broken at "; " and then at spaces."""
    lines = []
    for line in text.split("\n"):
        parts = line.split("; ") if len(line) > CAPTION_WIDTH else [line]
        lines += [textwrap.fill(part, CAPTION_WIDTH) for part in parts]
    return "\n".join(lines)

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
        fig = bench_plot.plot(family, run, out)
        fig.suptitle(wrap_caption(fig.get_suptitle()), fontsize=9)
        fig.savefig(out, dpi=DPI, bbox_inches="tight", pad_inches=0.15)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
