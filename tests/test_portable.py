"""gcrylike/_native/portable.h: the aligned memory, threads and clock of
the native layer on POSIX and on the Windows C runtime (core.c and
fastcall.c use nothing else of the operating system's).  tox -e cross runs
the same program on each cross target, Windows under wine included."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "gcrylike" / "_native"
CHECK = ROOT / "tests" / "native" / "portable_check.c"
FLAGS = ["-Wall", "-Wextra", "-Werror", f"-I{NATIVE}"]


def test_runs_on_this_host(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / "portable_check"
    subprocess.run([cc, *FLAGS, "-pthread", str(CHECK), "-o", str(exe)], check=True)
    assert subprocess.run([str(exe)], capture_output=True, text=True).stdout == \
        "4 passed, 0 failed\n"


@pytest.mark.skipif(shutil.which("x86_64-w64-mingw32-gcc") is None,
                    reason="mingw-w64 (x86_64-w64-mingw32-gcc) is not installed")
def test_builds_for_windows(tmp_path):
    """The check program and the core extension's C compile for the Windows
    C runtime.  tox -e cross runs the program under wine, in a prefix of its
    own (here, in every env at once and under the sanitize env's preloaded
    runtime, wine would race to make its prefix or not start)."""
    mingw = "x86_64-w64-mingw32-gcc"
    subprocess.run([mingw, *FLAGS, str(CHECK), "-o", str(tmp_path / "check.exe")], check=True)
    subprocess.run([mingw, *FLAGS, "-c", str(NATIVE / "core.c"), "-o", str(tmp_path / "core.o")],
                   check=True)
