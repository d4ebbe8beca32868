"""Static constant-time check of every amd64 assembly routine in
asm/*-amd64-*.S (the taint analysis reads x86-64 instructions; the aarch64
files are not checked here yet).

Each file is assembled, disassembled with objdump, and each routine (ELF
function symbol) goes through a taint analysis (taint.py): key, state and
message memory are secret, pointers and lengths public, and any branch,
address, shift count, division or unknown instruction that could depend
on a secret is a finding.  AVX-512 included: nothing is executed.

By hand, from anywhere::

    python3 tests/asm_ct/check.py            # every asm/*-amd64-*.S
    python3 tests/asm_ct/check.py FILE.S...  # other files (the planted routine)

One line per routine, then ``asm-ct: N routines checked, M findings``;
the exit status is 1 on any finding.  tests/test_asm_ct.py runs it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import arguments  # noqa: E402
import mnemonics  # noqa: E402
from disasm import ROOT, ObjectCode, assemble, compiler, disassemble  # noqa: E402, F401
from taint import Finding, Routine  # noqa: E402


def load(source: Path, workdir: Path) -> ObjectCode:
    obj = workdir / (source.stem + ".o")
    assemble(source, obj)
    return disassemble(obj, mnemonics.PREFIXES | mnemonics.REP_PREFIXES)


def check_object(code: ObjectCode) -> dict[str, tuple[int, list[Finding]]]:
    """Routine name -> (its instruction count, its findings)."""
    results = {}
    for name in sorted(code.functions, key=lambda n: code.functions[n][0]):
        routine = Routine(code, name, arguments.SECRET_REGISTERS.get(name, ()),
                          arguments.STACK_ARGUMENTS.get(name, 0))
        results[name] = (len(code.routine_insns(name)), routine.analyse())
    return results


def check_files(sources: list[Path]) -> dict[str, tuple[ObjectCode, int, list[Finding]]]:
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for source in sources:
            code = load(source, Path(tmp))
            for name, (count, findings) in check_object(code).items():
                out[name] = (code, count, findings)
    return out


def where(code: ObjectCode, addr: int) -> str:
    """addr as function+offset (a finding may lie in a routine jumped to)."""
    for name, (start, size) in code.functions.items():
        if start <= addr < start + size:
            return f"{name}+{addr - start:#x}"
    return f"{code.path.name}:{addr:#x}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sources", nargs="*", type=Path,
                        help="the .S files (default: every asm/*-amd64-*.S)")
    args = parser.parse_args(argv)
    sources = args.sources or sorted((ROOT / "asm").glob("*-amd64-*.S"))
    results = check_files(sources)
    total = 0
    for name, (code, count, findings) in results.items():
        if not findings:
            print(f"ok   {name}  {count} insns")
        for f in findings:
            print(f"LEAK {name}  {where(code, f.addr)}  {f.text}: {f.reason}")
        total += len(findings)
    print(f"asm-ct: {len(results)} routines checked, {total} findings")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
