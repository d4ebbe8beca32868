"""The ``gcrylike`` command: list, selftest, config, bench."""

from __future__ import annotations

import argparse
import os
import sys

import gcrylike

from . import _registry


def _cmd_list(args: argparse.Namespace) -> int:
    for spec in _registry.all_specs():
        try:
            chosen = _registry.choose(spec).driver
        except gcrylike.GcryError as exc:
            chosen = f"none ({exc})"
        aliases = f" (aliases: {', '.join(spec.aliases)})" if spec.aliases else ""
        print(f"{spec.name} [{spec.kind}, id {spec.algo}]{aliases}: {_sizes(spec)}; "
              f"using {chosen}")
        for info in gcrylike.implementations(spec.name):
            feats = ",".join(sorted(info.features)) or "-"
            state = "available" if info.available else f"unavailable: {info.reason}"
            mark = "*" if info.driver == chosen else " "
            print(f"  {mark} {info.driver:<28} prio {info.priority:>4}  needs {feats:<18}"
                  f" {state}; selftest {info.selftest}")
    return 0


def _sizes(spec) -> str:
    def join(sizes):
        return "/".join(map(str, sizes)) or "-"

    parts = [f"key {join(spec.key_sizes)} bytes"]
    if hasattr(spec, "iv_sizes"):
        parts.append(f"iv {join(spec.iv_sizes)} bytes")
    if hasattr(spec, "digest_size"):
        parts.append(f"output {spec.digest_size} bytes")
    if hasattr(spec, "tag_size"):
        parts.append(f"tag {spec.tag_size} bytes")
    return ", ".join(parts)


def _cmd_selftest(args: argparse.Namespace) -> int:
    failed = 0
    for rep in gcrylike.selftest():
        extra = f" ({rep.reason})" if rep.reason else ""
        print(f"{rep.algorithm:<14} {rep.driver:<30} {rep.status}{extra}")
        failed += rep.status == "failed"
    print("selftest: " + ("FAILED" if failed else "all passed"))
    return 1 if failed else 0


def _cmd_config(args: argparse.Namespace) -> int:
    print(gcrylike.config().format())
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from ._bench import run_bench

    return run_bench(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcrylike", description=__doc__)
    p.add_argument("--hwf-deny", metavar="FEATURES",
                   help="deny hardware features (comma list, or 'all') for this run")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="algorithms, implementations and the one chosen here")
    sub.add_parser("selftest", help="run every self-test on every runnable implementation")
    sub.add_parser("config", help="build switches, CPU features, choices")
    b = sub.add_parser("bench", help="bench-slope throughput per implementation")
    from ._bench import add_arguments

    add_arguments(b)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.hwf_deny:
            gcrylike.set_hwf_deny(args.hwf_deny)
        handler = {"list": _cmd_list, "selftest": _cmd_selftest,
                   "config": _cmd_config, "bench": _cmd_bench}[args.command]
        return handler(args)
    except gcrylike.GcryError as exc:
        print(f"gcrylike: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `gcrylike list | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
