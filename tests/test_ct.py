"""Constant time, checked by valgrind memcheck (the ``ct`` tox env):
tests/ct_driver.py runs every algorithm on every implementation that can
run under valgrind with its secrets marked undefined, and memcheck must
report nothing; the same driver's deliberately leaky routines must be
reported, which shows the check can see a leak (a branch, a secret-indexed
load, and a branch on a byte of real keystream).

Slow (valgrind runs the interpreter): only where GCRYLIKE_CT is set."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
import testhooks

import gcrylike
from gcrylike import _hwf, _registry

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ct_driver.py")
VALGRIND = shutil.which("valgrind")
HEADER = "/usr/include/valgrind/memcheck.h"
LEAK_EXIT = 99

pytestmark = [
    pytest.mark.skipif(not os.environ.get("GCRYLIKE_CT"), reason="slow: run by tox -e ct"),
    pytest.mark.skipif(VALGRIND is None, reason="valgrind is not installed"),
    pytest.mark.skipif(not os.path.exists(HEADER), reason=f"no {HEADER} (valgrind's headers)"),
    pytest.mark.skipif(_hwf.under_valgrind(), reason="already under valgrind"),
]


def run_driver(*args: str) -> tuple[int, str]:
    testhooks.build_dir(ct=True)  # outside valgrind, once
    # PYTHONMALLOC=malloc_debug: fresh Python memory is filled, not left
    # undefined (CPython 3.11's int.from_bytes of zeros otherwise feeds
    # memcheck an undefined digit at every start-up)
    env = {**os.environ, "PYTHONMALLOC": "malloc_debug"}
    res = subprocess.run([VALGRIND, "--tool=memcheck", f"--error-exitcode={LEAK_EXIT}",
                          sys.executable, DRIVER, *args],
                         capture_output=True, text=True, env=env, check=False)
    return res.returncode, res.stdout + res.stderr


def errors(log: str) -> int:
    return int(re.search(r"ERROR SUMMARY: (\d+) errors", log).group(1))


def test_no_secret_dependent_branch_or_address():
    rc, log = run_driver()
    assert (rc, errors(log)) == (0, 0), log[-6000:]
    ran = set(re.findall(r"^ct: (\S+) (\S+)$", log, re.M))
    # every implementation valgrind can run (all but AVX-512 ones) was checked
    for spec in _registry.all_specs():
        for info in gcrylike.implementations(spec.name):
            if info.available and not _hwf.AVX512_FAMILY & set(info.features):
                assert (spec.name, info.driver) in ran


def test_leaky_routines_are_caught():
    rc, log = run_driver("--leaky")
    assert rc == LEAK_EXIT
    assert errors(log) == 3, log[-6000:]
    assert "gcry_ct_leaky_branch" in log and "gcry_ct_leaky_lookup" in log
