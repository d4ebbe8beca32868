"""llvm-mca's cycles per 64-byte ChaCha20 block on aarch64 cores: the NEON
routines of asm/chacha-aarch64-neon.S beside the portable C.

Not part of the library or its tests: the model behind the figures in
docs/hardware.rst ("aarch64"), for a machine with no Arm hardware.  It
assembles the routines and compiles ciphers/chacha/chacha_generic.c with
the aarch64 cross compiler (-O2), takes the instructions from the objects
(objdump) and gives llvm-mca:

  neonW loop      one double round of the W-block routine (its loop body;
                  the closing branch left out), x 10 for ChaCha20
  neonW group     the rest of one W-block group: state broadcast,
                  feed-forward, transposes, loads, xors, stores
  neonW           (10 x loop + group) / W per block, for each of the
                  routines the .S has: blocks8, blocks4, blocks1 (row form)
  portable        the C's double-round loop x 10 per block (the copy-in,
                  feed-forward and the caller's xor left out: a lower bound)
  x               portable / the widest NEON routine

Each as llvm-mca's steady state of the block repeated (-iterations=200).
For ChaCha it also gives XChaCha12 on a 16 KiB message (Adiantum's bulk
cipher): HChaCha12 (the single-block routine's round loop, 6 double
rounds, as the subkey core's stand-in) plus 256 blocks in groups of the
widest routine, 6 double rounds each.
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


def parts(obj: Path, funcs: dict[str, list[str]], name: str) -> tuple[list[str], list[str]]:
    """NAME's round loop (its innermost loop) and the rest of its group
    loop (the next one out)."""
    (r0, r1), (g0, g1) = loops(obj, name)[:2]
    body = funcs[name]
    return body[r0:r1 + 1], body[g0:r0] + body[r1 + 1:g1 + 1]


def report(cipher: str, argv: list[str] | None = None) -> int:
    """Print the table for CIPHER's NEON routines (asm/CIPHER-aarch64-neon.S:
    _gcry_CIPHER_aarch64_neon_blocks8/4/1, those it has) beside its
    portable C (ciphers/CIPHER/CIPHER_generic.c), 20 rounds; the Salsa20
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
        routines = {w: parts(neon, nf, f"_gcry_{cipher}_aarch64_neon_blocks{w}")
                    for w in (8, 4, 1) if f"_gcry_{cipher}_aarch64_neon_blocks{w}" in nf}
        widest = max(routines)
        # the longest loop of the portable object: the double rounds (for
        # ChaCha in permute, which gcc keeps apart: HChaCha calls it too)
        gen, (p0, p1) = max(((f, lp) for f in pf for lp in loops(port, f)),
                            key=lambda fl: fl[1][1] - fl[1][0])
        roundp = pf[gen][p0:p1 + 1]
        print("instructions: " + "; ".join(f"neon{w} loop {len(r)}, group {len(g)}"
                                           for w, (r, g) in routines.items())
              + f"; portable loop {len(roundp)}")
        head = "".join(f" {f'neon{w} loop':>11} {'group':>7} {f'neon{w}/blk':>10}"
                       for w in routines)
        print(f"{'cpu':<13}{head} {'c/B':>6} {'portable/blk':>13} {'c/B':>6} {'x':>5}")
        xchacha = []
        for cpu in args.mcpu:
            per, line = {}, ""
            for w, (rnd, grp) in routines.items():
                loop, rest = mca(rnd, cpu), mca(grp, cpu)
                per[w] = (loop, rest, (DOUBLE_ROUNDS * loop + rest) / w)
                line += f" {loop:>11.1f} {rest:>7.1f} {per[w][2]:>10.1f}"
            perp = DOUBLE_ROUNDS * mca(roundp, cpu)
            best = per[widest][2]
            print(f"{cpu:<13}{line} {best / 64:>6.2f} {perp:>13.1f} {perp / 64:>6.2f} "
                  f"{perp / best:>5.2f}")
            if cipher == "chacha" and 1 in per:
                loop, rest, _ = per[widest]
                total = 6 * per[1][0] + 256 // widest * (6 * loop + rest)
                xchacha.append(f"{cpu:<13} {total:>8.0f} {total / 16384:>6.2f}")
        if xchacha:
            print(f"\nXChaCha12, 16 KiB (HChaCha12 + 256 blocks, neon{widest})")
            print(f"{'cpu':<13} {'cycles':>8} {'c/B':>6}")
            print("\n".join(xchacha))
    return 0


if __name__ == "__main__":
    sys.exit(report("chacha"))
