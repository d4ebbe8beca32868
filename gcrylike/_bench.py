"""Placeholder: replaced by the bench-slope implementation."""


def add_arguments(parser):
    parser.add_argument("algorithms", nargs="*")


def run_bench(args):
    raise SystemExit("bench not implemented yet")
