"""llvm-mca's cycles per 64-byte ChaCha20 block on aarch64 cores: the NEON
routines of asm/chacha-aarch64-neon.S beside the portable C.

Not part of the library or its tests: the model behind the figures in
docs/hardware.rst ("aarch64"), for a machine with no Arm hardware.  It
assembles the routines and compiles ciphers/chacha/chacha_generic.c with
the aarch64 cross compiler (-O2), takes the instructions from the objects
(objdump) and gives llvm-mca:

  neon4 loop      one double round of the four-block routine (its loop
                  body; the closing branch left out), x 10 for ChaCha20
  neon4 group     the rest of one four-block group: state broadcast,
                  feed-forward, transposes, loads, xors, stores
  neon4           (10 x loop + group) / 4 per block
  neon1           the single-block routine likewise (row form), per block
  portable        the C's double-round loop x 10 per block (the copy-in,
                  feed-forward and the caller's xor left out: a lower bound)

Each as llvm-mca's steady state of the block repeated (-iterations=200).
Usage (Debian: gcc-aarch64-linux-gnu, llvm-16):

    python3 docs/models/chacha_aarch64_mca.py [--mcpu cortex-a53 ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CC = "aarch64-linux-gnu-gcc"
OBJDUMP = "aarch64-linux-gnu-objdump"
MCA = "llvm-mca-16"
CPUS = ["cortex-a53", "cortex-a72", "neoverse-n1", "neoverse-v1"]
DOUBLE_ROUNDS = 10  # ChaCha20 and Salsa20/20


def functions(obj: Path) -> dict[str, list[str]]:
    """Each function's instructions ("mnemonic operands"), comments cut."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", str(obj)], check=True,
                         capture_output=True, text=True).stdout
    funcs: dict[str, list[str]] = {}
    name = None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\w+)>:$", line)
        if m:
            name = m.group(1)
            funcs[name] = []
        elif name and (m := re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line)):
            funcs[name].append(re.sub(r"\s*(//|<).*$", "", m.group(1)).strip())
    return funcs


def loops(obj: Path, func: str) -> list[tuple[int, int]]:
    """The loops of FUNC as (first, last) instruction indices, from its
    backward branches (innermost first, by length)."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", str(obj)], check=True,
                         capture_output=True, text=True).stdout
    body = out.split(f"<{func}>:\n", 1)[1].split("\n\n", 1)[0]
    addrs, found = [], []
    for line in body.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(\S*)", line)
        if not m:
            continue
        addrs.append(int(m.group(1), 16))
        branch = re.match(r"^(b\.\w+|cbn?z|tbn?z|b)$", m.group(2))
        target = re.search(r"\b([0-9a-f]+) <", line)
        if branch and target and int(target.group(1), 16) < addrs[-1]:
            found.append((addrs.index(int(target.group(1), 16)), len(addrs) - 1))
    return sorted(found, key=lambda f: f[1] - f[0])


def mca(insns: list[str], cpu: str) -> float:
    """llvm-mca's cycles per iteration of INSNS (branches left out)."""
    text = "\n".join(i for i in insns if not re.match(r"^(b\.\w+|b|cbn?z|tbn?z|ret)\b", i))
    res = subprocess.run([MCA, "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=200"],
                         input=text + "\n", capture_output=True, text=True, check=True)
    cycles = int(re.search(r"Total Cycles:\s+(\d+)", res.stdout).group(1))
    return cycles / 200


def report(cipher: str, argv: list[str] | None = None) -> int:
    """Print the table for CIPHER's NEON routines (asm/CIPHER-aarch64-neon.S:
    _gcry_CIPHER_aarch64_neon_blocks4, and _blocks1 where it has one) beside
    its portable C (ciphers/CIPHER/CIPHER_generic.c), 20 rounds; the Salsa20
    model uses it too."""
    ap = argparse.ArgumentParser(description=f"llvm-mca's cycles per 64-byte {cipher} block")
    ap.add_argument("--mcpu", nargs="*", default=CPUS)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        neon, port = Path(tmp, "neon.o"), Path(tmp, "generic.o")
        inc = [f"-I{ROOT / d}" for d in ("gcrylike/_native", f"ciphers/{cipher}", "asm")]
        subprocess.run([CC, "-c", *inc, str(ROOT / f"asm/{cipher}-aarch64-neon.S"), "-o",
                        str(neon)], check=True)
        subprocess.run([CC, "-O2", "-c", *inc, str(ROOT / f"ciphers/{cipher}/{cipher}_generic.c"),
                        "-o", str(port)], check=True)
        nf, pf = functions(neon), functions(port)
        b4 = nf[f"_gcry_{cipher}_aarch64_neon_blocks4"]
        (r0, r1), (g0, g1) = loops(neon, f"_gcry_{cipher}_aarch64_neon_blocks4")[:2]
        round4, group4 = b4[r0:r1 + 1], b4[g0:r0] + b4[r1 + 1:g1 + 1]
        one = f"_gcry_{cipher}_aarch64_neon_blocks1"
        round1 = group1 = []
        if one in nf:
            (s0, s1), (h0, h1) = loops(neon, one)[:2]
            round1, group1 = nf[one][s0:s1 + 1], nf[one][h0:s0] + nf[one][s1 + 1:h1 + 1]
        # the longest loop of the portable object: the double rounds (for
        # ChaCha in permute, which gcc keeps apart: HChaCha calls it too)
        gen, (p0, p1) = max(((f, lp) for f in pf for lp in loops(port, f)),
                            key=lambda fl: fl[1][1] - fl[1][0])
        roundp = pf[gen][p0:p1 + 1]
        print(f"instructions: neon4 loop {len(round4)}, group {len(group4)}; neon1 loop "
              f"{len(round1)}, block {len(group1)}; portable loop {len(roundp)}")
        print(f"{'cpu':<13} {'neon4 loop':>10} {'group':>7} {'neon4/blk':>10} {'c/B':>6} "
              f"{'neon1/blk':>10} {'portable/blk':>13} {'c/B':>6} {'x':>5}")
        for cpu in args.mcpu:
            loop4, grp4 = mca(round4, cpu), mca(group4, cpu)
            per4 = (DOUBLE_ROUNDS * loop4 + grp4) / 4
            per1 = DOUBLE_ROUNDS * mca(round1, cpu) + mca(group1, cpu) if round1 else float("nan")
            perp = DOUBLE_ROUNDS * mca(roundp, cpu)
            print(f"{cpu:<13} {loop4:>10.1f} {grp4:>7.1f} {per4:>10.1f} {per4 / 64:>6.2f} "
                  f"{per1:>10.1f} {perp:>13.1f} {perp / 64:>6.2f} {perp / per4:>5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(report("chacha"))
