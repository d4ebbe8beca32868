"""The gcrylike command: list, selftest, config, bench."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any

import gcrylike

from ._cli_errors import Parser, UsageError, report_exception

# gcrylike._bench (the benchmark, some 27 modules) is imported by the bench
# command only: list, selftest and config do not pay for loading it.


def _cmd_list(args: argparse.Namespace) -> int:
    # built on the public views only: what it prints, the API reports
    infos: dict[str, list[gcrylike.ImplementationInfo]] = {}
    for info in gcrylike.implementations():  # algorithms by id, drivers best first
        infos.setdefault(info.algorithm, []).append(info)
    algos = [gcrylike.algorithm_info(name) for name in infos]
    broken = gcrylike.plugin_errors()
    if args.json:
        return _print_json({
            "algorithms": [{**_plain(a), "implementations": [_plain(i) for i in infos[a.name]]}
                           for a in algos],
            "plugin_errors": broken})
    every = [info for found in infos.values() for info in found]
    driver_w = max((len(i.driver) for i in every), default=0)
    feats_w = max((len(_features(i)) for i in every), default=0)
    for algo in algos:
        chosen = next((i.driver for i in infos[algo.name] if i.chosen), None)
        if chosen is None:  # config() says why none
            chosen = gcrylike.config().chosen[algo.name]
        aliases = f" (aliases: {', '.join(algo.aliases)})" if algo.aliases else ""
        lines = [f"{algo.name} [{algo.kind}, id {algo.id}]{aliases}: {_sizes(algo)}; "
                 f"using {chosen}"]
        for info in infos[algo.name]:
            state = "available" if info.available else f"unavailable: {info.reason}"
            mark = "*" if info.chosen else " "
            lines.append(f"  {mark} {info.driver:<{driver_w}}  prio {info.priority:>4}  "
                         f"needs {_features(info):<{feats_w}}  {state}; "
                         f"selftest {info.selftest}")
        print("\n".join(lines))
    for plugin, reason in broken.items():
        print(f"plugin {plugin}: not registered: {reason}")
    print(_UNTESTED)
    # a broken plugin is shown, not an error of `list`: `gcrylike selftest`
    # is the command whose exit status says whether everything works
    return 0


#: What the list's selftest column means (printed under it).
_UNTESTED = ("# selftest: 'untested' = not yet run in this process (each driver's known-answer "
             "test runs on its first setkey); `gcrylike selftest` runs them all now")


def _features(info: gcrylike.ImplementationInfo) -> str:
    return ",".join(sorted(info.features)) or "-"


def _sizes(algo: gcrylike.AlgorithmInfo) -> str:
    def join(sizes: tuple[int, ...]) -> str:
        return "/".join(map(str, sizes)) or "-"

    parts = [f"key {join(algo.key_sizes)} bytes"]
    if algo.iv_sizes is not None:
        parts.append(f"iv {join(algo.iv_sizes)} bytes")
    if algo.digest_size is not None:
        parts.append(f"output {algo.digest_size} bytes")
    if algo.tag_size is not None:
        parts.append(f"tag {algo.tag_size} bytes")
    return ", ".join(parts)


def _plain(record: Any) -> dict[str, Any]:
    """A report dataclass as JSON-ready fields (sets as sorted lists)."""
    return {k: sorted(v) if isinstance(v, (set, frozenset)) else v
            for k, v in dataclasses.asdict(record).items()}


def _print_json(obj: Any) -> int:
    print(json.dumps(obj, indent=2))
    return 0


def _cmd_selftest(args: argparse.Namespace) -> int:
    # names or aliases, any case (an unknown one fails before any test runs);
    # plugins that failed to load are reported by the full run only
    wanted = {gcrylike.algorithm_info(a).name for a in args.algorithms}
    reports = gcrylike.selftest()
    if wanted:
        reports = [r for r in reports if r.algorithm in wanted]
    failed_any = any(r.status == "failed" for r in reports)
    if args.json:
        _print_json({"passed": not failed_any, "reports": [_plain(r) for r in reports]})
        return 1 if failed_any else 0
    algo_w = max((len(r.algorithm) for r in reports), default=0)
    driver_w = max((len(r.driver) for r in reports), default=0)
    failed = 0
    for rep in reports:
        extra = f" ({rep.reason})" if rep.reason else ""
        print(f"{rep.algorithm:<{algo_w}}  {rep.driver:<{driver_w}}  {rep.status}{extra}")
        failed += rep.status == "failed"
    print("selftest: " + ("FAILED" if failed else "all passed"))
    return 1 if failed else 0


def _cmd_config(args: argparse.Namespace) -> int:
    config = gcrylike.config()
    if args.json:
        return _print_json(_plain(config))
    print(config.format())
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from ._bench import BenchError, run_bench

    try:
        return run_bench(args)
    except BenchError as exc:  # refused before measuring anything
        raise UsageError(str(exc)) from None


def build_parser(bench_options: bool = True) -> argparse.ArgumentParser:
    """The command line parser; ``bench_options``: with the bench command's
    options (which imports the benchmark), else that command takes none."""
    p = Parser(
        prog="gcrylike", description=__doc__,
        epilog="gcrylike COMMAND --help describes each command's options.")
    p.add_argument("--version", action="version", version=f"gcrylike {gcrylike.__version__}")
    p.add_argument("--hwf-deny", metavar="FEATURES",
                   help="deny hardware features (comma list, or 'all') for this run")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in _COMMANDS.items():
        cmd = sub.add_parser(name, help=text, description=text)
        if name != "bench":  # the bench's own --json writes a file (its options)
            cmd.add_argument("--json", action="store_true",
                             help="print JSON instead of text")
    sub.choices["selftest"].add_argument(
        "algorithms", nargs="*", metavar="ALGO",
        help="only these algorithms (names or aliases, any case); default: all")
    if bench_options:
        from ._bench import add_arguments

        add_arguments(sub.choices["bench"])
    return p


_COMMANDS = {
    "list": "algorithms, implementations and the one chosen here",
    "selftest": "run the self-tests of every runnable implementation (of ALGO... only)",
    "config": "build switches, CPU features, choices",
    "bench": "bench-slope throughput per implementation (or tcrypt lines), "
             "optionally against peer libraries, as a table, JSON, CSV or a plot",
}


def main(argv: list[str] | None = None) -> int:
    typed = sys.argv[1:] if argv is None else argv
    # the bench's options only where the word appears (also as an option's
    # value, which costs only the import); any other command lacks nothing
    args = build_parser(bench_options="bench" in typed).parse_args(typed)
    args.argv = ["gcrylike", *typed]  # the command as typed, for the bench's reports
    if args.hwf_deny:
        try:
            gcrylike.set_hwf_deny(args.hwf_deny)
        except gcrylike.GcryError as exc:  # a global option: `gcrylike --help` has it
            return report_exception("gcrylike", exc)
    try:
        handler = {"list": _cmd_list, "selftest": _cmd_selftest,
                   "config": _cmd_config, "bench": _cmd_bench}[args.command]
        return handler(args)
    except BrokenPipeError:  # `gcrylike list | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (UsageError, gcrylike.GcryError, OSError) as exc:
        # see gcrylike._cli_errors: usage errors exit 2, failures 1
        return report_exception(f"gcrylike {args.command}", exc)


if __name__ == "__main__":
    sys.exit(main())
