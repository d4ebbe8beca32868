"""Faults planted in the real routines, which the native check must catch
(tests/asmcheck/cross.py builds and runs one check per fault).

Each fault is a one-line change of one ``asm/*.S`` file, the kind of slip a
hand edit makes: a carry dropped, a branch taken too early, a register
cleared short, a callee-saved register or the stack written.  cross.py
copies ``asm/`` into a scratch directory, plants the fault there, builds
the check against that copy (build.py's ``asm``) and runs the rows the
fault is in (``--only``): the run must fail.  A fault whose line is no
longer in its file, or that no longer builds, is stale: a failure too, so
that an edit of a routine cannot silently retire its faults.

The planted wrong routines of ``mutant-<arch>.S`` are the other half: whole
routines in the check's own binary, run with ``--mutant``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import NamedTuple


class Fault(NamedTuple):
    file: str       #: in asm/
    line: str       #: the first line equal to this is replaced ...
    new: str        #: ... by this (lines joined by \n)
    rows: str       #: the rows that must catch it (--only SUBSTRING)
    what: str       #: what the change breaks


#: by architecture (build.py's names)
FAULTS: dict[str, tuple[Fault, ...]] = {
    "aarch64": (
        Fault("poly1305-aarch64-scalar.S", "\tadc\tx9, x9, xzr", "\tadd\tx9, x9, xzr",
              "_gcry_poly1305_aarch64", "the fold's top carry dropped"),
        Fault("poly1305-aarch64-scalar.S", "\tadc\tx9, x9, x1", "\tadc\tx9, x9, xzr",
              "_gcry_poly1305_aarch64", "no 2^128 bit"),
        Fault("poly1305-aarch64-scalar.S", "\tcbz\tx3, .Lps_ret",
              "\tmov\tx19, x3\n\tcbz\tx3, .Lps_ret",
              "_gcry_poly1305_aarch64", "x19 clobbered"),
        Fault("nh-aarch64-neon.S", "\ttbz\tx2, #4, .Lnh_fold", "\tb\t.Lnh_fold",
              "_gcry_nh_aarch64", "the single group after a pair skipped"),
        Fault("nh-aarch64-neon.S", "\tlsr\tx6, x2, #6",
              "\tstr\txzr, [sp, #-16]\n\tlsr\tx6, x2, #6",
              "_gcry_nh_aarch64", "the stack written, burn 0 returned"),
        Fault("nh-aarch64-neon.S", "\tldp\td\\a3, d\\b3, [x5, #16]",
              "\tldp\td\\a3, d\\b3, [x5, #32]",
              "_gcry_nh_aarch64", "key read past len + 48"),
        Fault("aes-aarch64-ce.S", "\tGCRY_ZERO_V 16, 30", "\tGCRY_ZERO_V 16, 27",
              "_gcry_aes256_aarch64", "round keys 12-14 left in v28-v30"),
        Fault("aes-aarch64-ce.S", "\tcmp\tx3, #4", "\tcmp\tx3, #5",
              "_gcry_aes256_aarch64", "a group of four mishandled"),
        Fault("aes-aarch64-ce.S", "\tmovi\tv0.16b, #0", "\tmovi\tv0.16b, #0\n\tmovi\tv9.16b, #0",
              "_gcry_aes256_aarch64", "d9 clobbered"),
    ),
}


def plant(fault: Fault, asm: Path, out: Path) -> bool:
    """Copy ASM's .S files and headers into OUT with FAULT planted; False
    when its line is not in its file (stale)."""
    out.mkdir(parents=True, exist_ok=True)
    for src in (*asm.glob("*.S"), *asm.glob("*.h")):
        shutil.copy2(src, out / src.name)
    lines = (asm / fault.file).read_text().split("\n")
    if fault.line not in lines:
        return False
    lines[lines.index(fault.line)] = fault.new
    (out / fault.file).write_text("\n".join(lines))
    return True
