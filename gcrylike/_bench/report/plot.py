"""``--plot FILE``: throughput against message size, one line per driver and
peer, one panel per algorithm, drawn from the records' points; with
``{algorithm}`` in FILE, one file per algorithm (:func:`plot_files`).

matplotlib is an optional extra (``pip install 'gcrylike[plot]'``);
:func:`require_matplotlib` says so before a run starts rather than after it.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Iterable
from typing import Any

#: File types --plot writes, by suffix.
FORMATS = ("png", "svg", "pdf")
#: In a --plot file name: one file per algorithm, this replaced by its name.
PER_ALGORITHM = "{algorithm}"
#: Resolution of a bitmap: at 100 dpi the legend's 7.5 pt text is about 10
#: px high, unreadable on a docs page at the figure's own size; 135 dpi
#: makes a one-panel figure about 900 px wide.
DPI = 135
#: Font size of the caption (points), and the width of an average glyph of
#: matplotlib's default font in ems, digits and capitals included: how many
#: characters make a line of the figure's width.
CAPTION_PT, GLYPH_EM = 9, 0.6
EXTRA_HINT = "pip install 'gcrylike[plot]' (or pip install 'matplotlib>=3.7')"


class PlotUnavailable(Exception):
    """matplotlib is missing."""


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError as exc:
        raise PlotUnavailable(f"--plot needs matplotlib, the 'plot' extra of gcrylike: "
                              f"{EXTRA_HINT} ({exc})") from None


def series_label(rec: dict[str, Any]) -> str:
    """Legend text: our driver (or its one-shot row), or the peer library and version."""
    if rec["role"] != "peer":
        return rec["driver"]
    # "cryptography 50.0.2, OpenSSL 3.4.0 (peer, ...)": the library and its version
    name = rec["target"].split(" (", 1)[0].split(",", 1)[0]
    return f"{name} (reference: plain ChaCha20)" if "(reference," in rec["target"] else name


#: One line of a panel: (role, [(size, MiB/s)]).
Series = tuple[str, list[tuple[int, float]]]


def series(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Series]]:
    """algorithm -> legend label -> (role, [(size, MiB/s)]) of each target's
    main operation, in the order the run measured them."""
    out: dict[str, dict[str, Series]] = {}
    for r in records:
        if r["record"] == "point" and r["primary"]:
            lines = out.setdefault(r["algorithm"], {})
            role, pts = lines.setdefault(series_label(r), (r["role"], []))
            pts.append((r["size"], r["mib_per_s"]))
    return out


def _size_text(n: float, _pos: Any = None) -> str:
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n / 1024 / 1024:g} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n / 1024:g} KiB"
    return f"{n:g} B"


def plot(records: list[dict[str, Any]], header: dict[str, Any], path: str) -> Any:
    """Draw the points of ``records`` into ``path`` (.png, .svg or .pdf) and
    return the matplotlib Figure (for tests to read back)."""
    require_matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    data = series(records)
    if not data:
        raise PlotUnavailable("nothing to plot: no algorithm was measured")
    ncols = 1 if len(data) == 1 else 2
    nrows = math.ceil(len(data) / ncols)
    fig = Figure(figsize=(6.4 * ncols, 4.0 * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, (algorithm, lines) in zip(axes, data.items(), strict=False):
        for label, (role, pts) in lines.items():
            pts.sort()
            peer = role == "peer"
            ax.plot([s for s, _ in pts], [m for _, m in pts], label=label,
                    linestyle="--" if peer else "-", marker="s" if peer else "o",
                    markersize=3.5, linewidth=1.4)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(LogLocator(base=2))
        ax.xaxis.set_major_formatter(FuncFormatter(_size_text))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylim(bottom=0)
        ax.set_title(algorithm, fontsize=11)
        ax.set_xlabel("message size (bytes per call)")
        ax.set_ylabel("MiB/s")
        ax.grid(True, which="major", alpha=0.3)
        # under the panel, where it hides no line however many there are
        ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2,
                  frameon=False)
    for ax in axes[len(data):]:
        ax.set_visible(False)
    peers = any(role == "peer" for lines in data.values() for role, _ in lines.values())
    width_pt = fig.get_figwidth() * 72
    fig.suptitle(wrap_caption(_caption(header, peers), int(width_pt / (CAPTION_PT * GLYPH_EM))),
                 fontsize=CAPTION_PT)
    # a tight box: the legends under the panels and the caption are never cut
    fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.15)
    return fig


def wrap_caption(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, broken first at
    its "; " (between its clauses), then at spaces: a centred title wider
    than the figure is clipped at both ends."""
    lines = []
    for line in text.split("\n"):
        parts = line.split("; ") if len(line) > width else [line]
        lines += [wrapped for part in parts for wrapped in textwrap.wrap(part, width)]
    return "\n".join(lines)


def file_name(path: str, algorithm: str) -> str:
    """``path`` with :data:`PER_ALGORITHM` replaced by ``algorithm`` in a
    file-name-safe form: lower case, runs of anything but letters and digits
    as one "-" ("ADIANTUM(XCHACHA12,AES)" -> "adiantum-xchacha12-aes")."""
    slug = re.sub(r"[^a-z0-9]+", "-", algorithm.lower()).strip("-")
    return path.replace(PER_ALGORITHM, slug)


def plot_files(records: list[dict[str, Any]], header: dict[str, Any], path: str) -> list[str]:
    """Draw ``records`` into ``path``, or with :data:`PER_ALGORITHM` in it
    into one file per algorithm; return the files written."""
    if PER_ALGORITHM not in path or not series(records):  # none: plot() says why
        plot(records, header, path)
        return [path]
    written = []
    for algorithm in series(records):
        out = file_name(path, algorithm)
        plot([r for r in records if r["algorithm"] == algorithm], header, out)
        written.append(out)
    return written


def _caption(header: dict[str, Any], peers: bool) -> str:
    m, v, st = header.get("machine", {}), header.get("versions", {}), header.get("settings", {})
    cpu = m.get("cpu_model", "unknown CPU")
    mhz = ""
    if m.get("mhz"):
        given = m.get("mhz_source") == "--cpu-mhz"
        mhz = f", core clock {m['mhz']:.0f} MHz" + ("" if given else " (estimated)")
    path = m.get("data_path")
    via = f", ours via {'gcrylike._fastcall' if path == 'fastcall' else path}" if path else ""
    return (f"gcrylike {v.get('gcrylike', '?')} bench: throughput per call from Python "
            f"({st.get('stat', 'median')} of {_batches(st.get('repeats'))}, "
            f"{st.get('clock', 'cpu')} clock){'; solid: ours, dashed: peers' if peers else ''}\n"
            f"{cpu}{mhz}{via}, {header.get('date', '')[:10]}")


def _batches(n: Any) -> str:
    return "1 batch" if n == 1 else f"{n} batches"
