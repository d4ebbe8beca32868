"""The native check of the assembly (tests/asmcheck): build it, run it.

``tests/asmcheck/build.py`` links every ``asm/*.S`` with the portable C into
one static binary that compares each routine with the portable C on random
and edge-case inputs and published vectors, and proves each routine's
reported burn depth (see tests/asmcheck/asmcheck.h and docs/building.rst).
The binary is built here from the repository's sources (beside this file:
a git checkout or an unpacked sdist; tox runs this file from the checkout
against the installed wheel) and run natively; when ``GCRYLIKE_ASM_RUNNER``
is set (e.g. ``sde64 -icx --``: a prefix split like a shell command, as
CMake's ``CMAKE_CROSSCOMPILING_EMULATOR``) it runs again under that runner,
and under ``GCRYLIKE_ASM_RUNNER_NOIFMA`` too (a CPU model with AVX-512 but
no IFMA, to prove the IFMA rows are skipped there and the rest pass).
"""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import gcrylike
from gcrylike import _hwf

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "tests" / "asmcheck"
RUNNER_TIMEOUT = 1800       # an emulator boots a kernel first
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def _skip_reason() -> str | None:
    if os.environ.get("GCRYLIKE_NO_ASM", "").strip().lower() not in ("", "0", "no", "false"):
        return "GCRYLIKE_NO_ASM is set: no assembly to check"
    if not (sys.platform.startswith("linux")
            and platform.machine() in ("x86_64", "AMD64", "aarch64", "arm64")):
        return ("the assembly is x86-64 and aarch64 Linux only "
                f"(this is {sys.platform} {platform.machine()})")
    if gcrylike.config().asm_arch is None:
        return "the installed gcrylike was built without the assembly (gcrylike config)"
    if not (NATIVE / "build.py").is_file() or not (ROOT / "asm").is_dir():
        return "the sources (asm/, tests/asmcheck/) are not beside the tests"
    return None


def _builder():
    spec = importlib.util.spec_from_file_location("asmcheck_build", NATIVE / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def asmcheck(tmp_path_factory) -> Path:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    build = _builder()
    ok, why = build.can_link_static()
    if not ok:
        pytest.skip(why)
    out = tmp_path_factory.mktemp("native") / "asmcheck"
    res = build.build(out)
    assert res.returncode == 0, f"the native check does not build:\n{res.stderr[-4000:]}"
    return out


def _run(cmd: list[str], timeout: float | None = None) -> tuple[int, str]:
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    return res.returncode, res.stdout + res.stderr


def _seed_args() -> list[str]:
    """The seed for a runner, whose guest may not see our environment."""
    seed = os.environ.get("GCRYLIKE_ASMCHECK_SEED")
    return ["--seed", seed] if seed else []


def _rows(binary: Path) -> dict[str, set[str]]:
    """Every row of the table (not the mutant): name -> features it needs."""
    code, out = _run([str(binary), "--list"])
    assert code == 0, out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(\S+)\s+width \d+\s+needs([^;]*);", line)
        if m:
            rows[m.group(1)] = set(m.group(2).split())
    return rows


def _assert_clean(code: int, out: str) -> None:
    summary = SUMMARY.findall(out)
    assert summary, f"no summary line:\n{out[-4000:]}"
    passed, failed = map(int, summary[-1])
    failures = "\n".join(line for line in out.splitlines() if "FAIL" in line)
    assert failed == 0, f"{failed} failed:\n{failures}"
    assert code == 0, f"exit status {code}:\n{out[-4000:]}"
    assert passed > 0


def test_every_routine_has_a_row(asmcheck):
    """Each routine defined in the target's asm/*-<arch>-*.S is a row of
    tests/asmcheck/rows.c."""
    arch = _builder().target_arch()
    assert arch, "the native check was built, but its compiler's target has no assembly"
    defined = {m for f in (ROOT / "asm").glob(f"*-{arch}-*.S")
               for m in re.findall(r"GCRY_FUNC_BEGIN\((\w+)\)", f.read_text())}
    assert defined - set(_rows(asmcheck)) == set()


def test_native(asmcheck):
    code, out = _run([str(asmcheck)])
    print(out)
    _assert_clean(code, out)
    # every row this CPU can run was run, not skipped
    detected = set(_hwf.detected())
    ran = set(re.findall(r"^ok   (\S+):", out, re.M))
    for name, needs in _rows(asmcheck).items():
        if needs <= detected:
            assert name in ran, f"{name} was not run although this CPU has {sorted(needs)}"


def test_mutant_fails(asmcheck):
    """The depth proof fails a routine that under-reports (tests/asmcheck/
    mutant-<arch>.S writes 8 bytes more than it reports)."""
    code, out = _run([str(asmcheck), "--mutant", "--only", "asmcheck_mutant_underreports"])
    assert code == 1, out
    assert re.search(r"FAIL asmcheck_mutant_underreports \[depth\].*under-reports", out), out
    failed = int(SUMMARY.findall(out)[-1][1])
    assert failed == 4, out         # once per entry alignment


def test_planted_faults_are_current(tmp_path):
    """Every fault tests/asmcheck/faults.py plants in a real routine (tox -e
    cross builds and runs the check once per fault) still finds its line,
    whatever this machine's architecture: an edit of a routine that
    retires a fault fails here, not only where the cross tools are."""
    if not (NATIVE / "faults.py").is_file() or not (ROOT / "asm").is_dir():
        pytest.skip("the sources (asm/, tests/asmcheck/) are not beside the tests")
    spec = importlib.util.spec_from_file_location("asmcheck_faults", NATIVE / "faults.py")
    faults = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(faults)
    stale = [f"{arch}: {fault.file}: {fault.line!r}"
             for arch, planted in faults.FAULTS.items()
             for n, fault in enumerate(planted)
             if not faults.plant(fault, ROOT / "asm", tmp_path / f"{arch}-{n}")]
    assert not stale


@pytest.mark.parametrize("variable", ["GCRYLIKE_ASM_RUNNER", "GCRYLIKE_ASM_RUNNER_NOIFMA"])
def test_under_runner(asmcheck, variable):
    runner = os.environ.get(variable, "").strip()
    if not runner:
        pytest.skip(f"{variable} is not set (e.g. 'sde64 -icx --')")
    code, out = _run([*shlex.split(runner), str(asmcheck), *_seed_args()],
                     timeout=RUNNER_TIMEOUT)
    print(out)
    _assert_clean(code, out)
    cpu = re.search(r"^cpu:(.*)$", out, re.M)
    assert cpu, out
    features = set(cpu.group(1).split())
    skipped = set(re.findall(r"^skip (\S+):", out, re.M))
    for name, needs in _rows(asmcheck).items():
        if needs <= features:
            assert name not in skipped, f"{name} skipped under {runner}"
    if variable == "GCRYLIKE_ASM_RUNNER_NOIFMA":
        assert "avx512ifma" not in features, f"{runner} reports IFMA: not a no-IFMA model"
