"""llvm-mca's cycles per 16-byte Poly1305 block on aarch64 cores: the NEON
routine of asm/poly1305-aarch64-neon.S beside the scalar assembly
(asm/poly1305-aarch64-scalar.S) and the portable C (poly1305_generic64_blocks
in ciphers/poly1305/poly1305_generic.c).

Not part of the library or its tests: the model behind the Poly1305 figures
in docs/hardware.rst ("aarch64") and the glue's POLY1305_NEON_MIN_BLOCKS,
for a machine with no Arm hardware.  It assembles the routines and compiles
the C with the aarch64 cross compiler (-O2), takes the instructions from the
objects (objdump, the helpers of chacha_aarch64_mca.py) and gives llvm-mca:

  per 16 B        the steady state of each loop (-iterations=200): the NEON
                  routine's eight-block step / 8, the scalar routine's
                  block, the portable C's block (its two calls of the
                  out-of-line load_le64 modelled as the load they inline
                  to, which favours the C)
  one call        the instructions one call executes for N blocks (the
                  branches followed for that N, left out of the input), as
                  llvm-mca's cycles for a single pass from an idle core
                  (-iterations=1): the set-up of the table of powers
                  (_gcry_poly1305_aarch64_neon_setup, the C), the NEON
                  routine, the scalar routine

and the two thresholds the glue's tier row takes from them: the fewest
blocks (a multiple of 4) for which a call of the NEON routine beats the
scalar one (its min_run), and the fewest blocks in one update for which
the set-up and the NEON call beat the scalar routine (table_pays).

Usage (Debian: gcc-aarch64-linux-gnu, llvm-16):

    python3 docs/models/poly1305_aarch64_mca.py [--mcpu cortex-a53 ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chacha_aarch64_mca import CC, CPUS, MCA, OBJDUMP, ROOT, functions, loops, mca  # noqa: E402

NEON = "_gcry_poly1305_aarch64_neon_blocks"
SCALAR = "_gcry_poly1305_aarch64_scalar_blocks"
SETUP = "_gcry_poly1305_aarch64_neon_setup"
PORTABLE = "poly1305_generic64_blocks"
NEON_STEP = 8            # blocks per pass of the NEON routine's loop
#: passes of the one loop gcc -O2 keeps in the set-up (the last step's
#: lanes, k = 0..4); checked against the listing's count of loops
SETUP_LOOP_PASSES = 5
BRANCH = re.compile(r"^(b\.\w+|b|cbn?z|tbn?z|ret)\b")


def listing(obj: Path, func: str) -> list[tuple[int, str]]:
    """FUNC's instructions as (address, text)."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", str(obj)], check=True,
                         capture_output=True, text=True).stdout
    body = out.split(f"<{func}>:\n", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in body.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m:
            rows.append((int(m.group(1), 16), re.sub(r"\s*(//|<).*$", "", m.group(2)).strip()))
    return rows


def trace(obj: Path, func: str, x3: int) -> list[str]:
    """The instructions one call of a block routine executes with nblocks =
    X3 (x3), following its branches: they test x3 and the step count x4
    only (cmp/subs/lsr on them, cbz, tbz, b.cond)."""
    rows = listing(obj, func)
    index = {a: i for i, (a, _) in enumerate(rows)}
    regs, flags, out, i = {"x3": x3, "x4": 0}, 0, [], 0
    while True:
        _, text = rows[i]
        op, args = (text.split(None, 1) + [""])[:2]
        # w3 is x3's low half (objdump names tbz's register by the bit)
        a = [re.sub(r"^w(\d+)$", r"x\1", s.strip()) for s in args.split(",")]
        i += 1
        if op == "ret":
            return out
        if not BRANCH.match(op):
            out.append(text)
        if op == "lsr" and a[0] in regs:
            regs[a[0]] = regs[a[1]] >> int(a[2].lstrip("#"), 0)
        elif op in ("subs", "cmp") and (a[0] if op == "cmp" else a[1]) in regs:
            src = a[0] if op == "cmp" else a[1]
            flags = regs[src] - int(a[-1].lstrip("#"), 0)
            if op == "subs":
                regs[a[0]] = flags
        elif BRANCH.match(op):
            if op == "b":
                taken = True
            elif op in ("b.eq", "b.ne", "b.lo", "b.cc"):
                taken = {"b.eq": flags == 0, "b.ne": flags != 0}.get(op, flags < 0)
            elif op in ("cbz", "cbnz"):
                taken = (regs[a[0]] == 0) == (op == "cbz")
            elif op in ("tbz", "tbnz"):
                taken = (regs[a[0]] >> int(a[1].lstrip("#"), 0) & 1 == 0) == (op == "tbz")
            else:
                raise ValueError(f"{func}: branch {text!r} not modelled")
            if taken:
                i = index[int(a[-1], 16)]


def setup_trace(obj: Path) -> list[str]:
    """The set-up's instructions, its one loop repeated SETUP_LOOP_PASSES
    times."""
    body = [t for _, t in listing(obj, SETUP)]
    (first, last), = loops(obj, SETUP)
    return (body[:first] + body[first:last + 1] * SETUP_LOOP_PASSES
            + body[last + 1:])


def once(insns: list[str], cpu: str) -> int:
    """llvm-mca's cycles for one pass of INSNS (branches left out)."""
    text = "\n".join(i for i in insns if not BRANCH.match(i))
    res = subprocess.run([MCA, "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1"],
                         input=text + "\n", capture_output=True, text=True, check=True)
    return int(re.search(r"Total Cycles:\s+(\d+)", res.stdout).group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="llvm-mca's cycles per 16-byte Poly1305 block")
    ap.add_argument("--mcpu", nargs="*", default=CPUS)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        objs = {}
        inc = [f"-I{ROOT / d}" for d in ("gcrylike/_native", "ciphers/poly1305", "asm")]
        for name, src, opt in (("neon", "asm/poly1305-aarch64-neon.S", []),
                               ("scalar", "asm/poly1305-aarch64-scalar.S", []),
                               ("tables", "ciphers/poly1305/poly1305_aarch64_tables.c", ["-O2"]),
                               ("generic", "ciphers/poly1305/poly1305_generic.c", ["-O2"])):
            objs[name] = Path(tmp, name + ".o")
            subprocess.run([CC, *opt, "-DUSE_AARCH64", "-c", *inc, str(ROOT / src), "-o",
                            str(objs[name])], check=True)
        nf = functions(objs["neon"])[NEON]
        (n0, n1), = loops(objs["neon"], NEON)
        sf = functions(objs["scalar"])[SCALAR]
        (s0, s1), = loops(objs["scalar"], SCALAR)
        gf = functions(objs["generic"])[PORTABLE]
        (g0, g1) = loops(objs["generic"], PORTABLE)[0]
        step, block = nf[n0:n1 + 1], sf[s0:s1 + 1]
        portable = [("ldr\tx0, [x0]" if s.startswith("bl\t") else s) for s in gf[g0:g1 + 1]]
        setup = setup_trace(objs["tables"])
        print(f"instructions: neon step {len(step)} (8 blocks), scalar block {len(block)}, "
              f"portable block {len(portable)}, set-up {len(setup)}")
        print(f"{'cpu':<13} {'neon/16B':>9} {'scalar':>7} {'portable':>9} {'gain':>6} "
              f"{'vs scalar':>9} {'set-up':>7} {'min_run':>8} {'table_pays':>10}")
        sizes = [4 * k for k in range(1, 17)]           # the thresholds are below 64
        for cpu in args.mcpu:
            neon, scalar = mca(step, cpu) / NEON_STEP, mca(block, cpu)
            port = mca(portable, cpu)
            cost = once(setup, cpu)
            call_n = {n: once(trace(objs["neon"], NEON, n), cpu) for n in sizes}
            call_s = {n: once(trace(objs["scalar"], SCALAR, n), cpu) for n in sizes}
            min_run = next((n for n in sizes if call_n[n] < call_s[n]), None)
            pays = next((n for n in sizes if cost + call_n[n] < call_s[n]), None)
            print(f"{cpu:<13} {neon:>9.2f} {scalar:>7.2f} {port:>9.2f} {port / neon:>5.2f}x "
                  f"{scalar / neon:>8.2f}x {cost:>7} {min_run!s:>8} {pays!s:>10}")
            print(f"{'':<13} one call, cycles (blocks: neon / scalar): " + ", ".join(
                f"{n}: {call_n[n]}/{call_s[n]}" for n in (4, 8, 12, 16, 32, 64)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
