"""``gcrylike bench``: check the request, run it, write the reports."""

from __future__ import annotations

import argparse
import os
import sys

from .console import Console
from .cpuclock import detect_clock
from .options import settings_from
from .report import plot as plot_report
from .report.records import Recorder, write_csv, write_json
from .report.table import TableReport, label_width
from .selection import BenchError, filter_by_impl, resolve
from .slope import SlopeRun
from .tcrypt import run_tcrypt


def _outputs(args: argparse.Namespace) -> dict[str, str]:
    return {k: v for k in ("json", "csv", "plot") if (v := getattr(args, k, None))}


def check_outputs(args: argparse.Namespace) -> None:
    """Everything about the output files that can fail, before the run."""
    outputs = _outputs(args)
    if outputs and args.format != "slope":
        raise BenchError("--json, --csv and --plot report the slope table: they do not go "
                         "with --format tcrypt")
    for option, path in outputs.items():
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise BenchError(f"--{option} {path}: no such directory {folder}")
    if "plot" in outputs:
        suffix = os.path.splitext(args.plot)[1].lower().lstrip(".")
        if suffix not in plot_report.FORMATS:
            raise BenchError(f"--plot {args.plot}: give a .png, .svg or .pdf file name")
        try:
            plot_report.require_matplotlib()
        except plot_report.PlotUnavailable as exc:
            raise BenchError(str(exc)) from None


def run_bench(args: argparse.Namespace) -> int:
    specs = filter_by_impl(resolve(args.algorithms), args.impl, bool(args.algorithms))
    check_outputs(args)
    st = settings_from(args)
    console = Console()
    try:
        if args.format == "tcrypt":
            run_tcrypt(specs, args.impl, args.peers, st, console)
            return 0
        recorder = Recorder(command=list(getattr(args, "argv", sys.argv)))
        table = TableReport(console, label_width(specs))
        SlopeRun(specs, args.impl, args.peers, st, detect_clock(args.cpu_mhz),
                 [table, recorder], console).run()
        _write(args, recorder)
    except BrokenPipeError:  # `gcrylike bench | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    finally:
        console.clear()
    return 0


def _write(args: argparse.Namespace, recorder: Recorder) -> None:
    for option, path in _outputs(args).items():
        if option == "plot":
            written = plot_report.plot_files(recorder.records, recorder.header(), path)
        else:
            {"json": write_json, "csv": write_csv}[option](recorder, path)
            written = [path]
        for name in written:
            print(f"gcrylike bench: wrote {name}", file=sys.stderr)
