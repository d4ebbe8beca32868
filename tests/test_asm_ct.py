"""The static constant-time check of the assembly (tests/asm_ct/check.py):
every routine in asm/*-amd64-*.S, AVX-512 included, must have no finding, and the
deliberately leaky routines of tests/asm_ct/leaky-amd64.S must give exactly
their planted findings, which shows the check sees leaks.

Static (objdump and a taint analysis, nothing executed), so it needs only
the assembler and binutils, not the CPU features: a few seconds, run in
every env that collects the tests, and named in the ``ct`` env."""

from __future__ import annotations

import importlib.util
import platform
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "tests" / "asm_ct" / "check.py"
LEAKY = ROOT / "tests" / "asm_ct" / "leaky-amd64.S"
SUMMARY = re.compile(r"^asm-ct: (\d+) routines checked, (\d+) findings$", re.M)

# what each planted instruction (its label in leaky-amd64.S) must be reported for
PLANTED = {
    "planted_branch_on_key_bit": "conditional branch on secret flags",
    "planted_table_indexed_by_data": "secret-dependent address (index %rax)",
    "planted_vmovd_word_as_index": "secret-dependent address (index %rcx)",
    "planted_branch_on_kortest": "conditional branch on secret flags",
    "planted_setcc_as_index": "secret-dependent address (index %rax)",
    "planted_shift_by_secret_cl": "shift or rotate count from a secret %cl",
    "planted_shlx_by_secret_count": "shift or rotate count from a secret %rdx",
    "planted_div_of_secret": "div/idiv of a secret",
    "planted_gather_with_secret_index": "memory index is a vector register",
    "planted_spilled_secret_as_index": "secret-dependent address (index %rcx)",
    "planted_rep_with_secret_count": "rep string operation with a secret count",
    "planted_jump_through_secret": "indirect jump through a secret",
    "planted_unclassified_mnemonic": "unclassified mnemonic 'bsf'",
    "planted_branch_in_called_helper": "conditional branch on secret flags",
}


def _skip_reason() -> str | None:
    if not (sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")):
        return f"the assembly is x86-64 Linux only (this is {sys.platform} {platform.machine()})"
    if not CHECK.is_file() or not (ROOT / "asm").is_dir():
        return "the sources (asm/, tests/asm_ct/) are not beside the tests"
    for tool in ("objdump",):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (binutils)"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))


@pytest.fixture(scope="module")
def checker():
    spec = importlib.util.spec_from_file_location("asm_ct_check", CHECK)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cc = mod.compiler()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler to assemble with ({cc} not found)")
    return mod


def real_routines() -> list[str]:
    begin = re.compile(r"^\s*GCRY_FUNC_BEGIN\((\w+)\)", re.M)
    return [name for path in sorted((ROOT / "asm").glob("*-amd64-*.S"))
            for name in begin.findall(path.read_text())]


def test_every_assembly_routine_is_constant_time(checker):
    res = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True,
                         check=False)
    out = res.stdout + res.stderr
    names = real_routines()
    assert SUMMARY.search(out).groups() == (str(len(names)), "0"), out
    assert res.returncode == 0, out
    ok = re.findall(r"^ok   (\S+)  \d+ insns$", res.stdout, re.M)
    assert sorted(ok) == sorted(names), out


def test_planted_leaks_are_found_exactly(checker):
    results = checker.check_files([LEAKY])
    code = next(iter(results.values()))[0]
    planted = {code.labels[label]: label for label in PLANTED}
    assert len(planted) == len(PLANTED), "two planted labels at one address"
    found = Counter(f.addr for _, _, findings in results.values() for f in findings)
    assert sorted(found) == sorted(planted), [
        (checker.where(code, a), n) for a, n in found.items() if a not in planted]
    assert set(found.values()) == {1}, found
    for _, _, findings in results.values():
        for f in findings:
            assert PLANTED[planted[f.addr]] in f.reason, (planted[f.addr], f)
    assert results["ct_decoys"][2] == []


def test_planted_leaks_fail_the_command(checker):
    res = subprocess.run([sys.executable, str(CHECK), str(LEAKY)], capture_output=True,
                         text=True, check=False)
    assert res.returncode == 1, res.stdout + res.stderr
    routines = len(re.findall(r"^GCRY_FUNC_BEGIN\(", LEAKY.read_text(), re.M))
    assert SUMMARY.search(res.stdout).groups() == (str(routines), str(len(PLANTED)))
