"""How the gcrylike command reports an error: one form whoever finds it.

Every error is one line on stderr, ``PROG: error: MESSAGE``, where PROG is
the command as typed (``gcrylike bench``; ``gcrylike`` for the global
options).  Two kinds, told apart by the exit status:

* a usage error (status 2): the command line asks for something that cannot
  be done here, found before anything runs: what argparse refuses, an
  unknown algorithm, driver or hardware feature, options that do not go
  together, a missing extra.  A second line points to the help:
  ``see 'PROG --help'``;
* a failure (status 1): a valid request went wrong while it ran (a driver
  raised, an output file could not be written).

argparse's own form (a usage block, then ``PROG: error: ...``) is replaced
by this one, so that both kinds read alike and the message is the last
thing on the screen, not buried under the usage block.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

import gcrylike

USAGE, FAILURE = 2, 1

#: Errors of gcrylike's own that mean "you asked for something that is not
#: there", i.e. usage errors when a command line names it.
USAGE_ERRORS: tuple[type[BaseException], ...] = (gcrylike.UnknownAlgorithm,
                                                  gcrylike.UnknownName)


class UsageError(Exception):
    """A request the command refuses before running it (exit status 2)."""


def report(prog: str, message: str, status: int) -> int:
    """Print the error in the command's one form; return ``status``."""
    lines = [f"{prog}: error: {message}"]
    if status == USAGE:
        lines.append(f"see '{prog} --help'")
    print("\n".join(lines), file=sys.stderr)
    return status


def report_exception(prog: str, exc: BaseException) -> int:
    """``exc`` as a usage error or a failure (see the module doc)."""
    if isinstance(exc, (UsageError, *USAGE_ERRORS)):
        # gcrylike's errors end in "[CODE]": for a typo, the text is enough
        message = str(exc.args[0]) if exc.args else str(exc)
        return report(prog, message, USAGE)
    return report(prog, str(exc), FAILURE)


class Parser(argparse.ArgumentParser):
    """argparse with the command's error form (its subcommands too:
    ``add_subparsers`` makes them of the parent's class)."""

    def error(self, message: str) -> NoReturn:
        sys.exit(report(self.prog, message, USAGE))
