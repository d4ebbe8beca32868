"""llvm-mca's cycles per 64-byte Salsa20 block on aarch64 cores: the NEON
routines of asm/salsa20-aarch64-neon.S beside the portable C.

Not part of the library or its tests: the same model as
chacha_aarch64_mca.py (whose helpers it uses; see there for the parts
measured), on asm/salsa20-aarch64-neon.S and
ciphers/salsa20/salsa20_generic.c.  The portable C's double round is 67
instructions: gcc folds each rotation into the eor (``eor w, w, w, ror #n``),
so Salsa20's C is about twice as dense as ChaCha's on aarch64.

Usage (Debian: gcc-aarch64-linux-gnu, llvm-16):

    python3 docs/models/salsa20_aarch64_mca.py [--mcpu cortex-a53 ...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chacha_aarch64_mca import CC, CPUS, ROOT, functions, loops, mca  # noqa: E402

DOUBLE_ROUNDS = 10  # Salsa20


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcpu", nargs="*", default=CPUS)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        neon, port = Path(tmp, "neon.o"), Path(tmp, "generic.o")
        inc = [f"-I{ROOT / d}" for d in ("gcrylike/_native", "ciphers/salsa20", "asm")]
        subprocess.run([CC, "-c", *inc, str(ROOT / "asm/salsa20-aarch64-neon.S"), "-o", str(neon)],
                       check=True)
        subprocess.run([CC, "-O2", "-c", *inc, str(ROOT / "ciphers/salsa20/salsa20_generic.c"),
                        "-o", str(port)], check=True)
        nf, pf = functions(neon), functions(port)
        b4 = nf["_gcry_salsa20_aarch64_neon_blocks4"]
        (r0, r1), (g0, g1) = loops(neon, "_gcry_salsa20_aarch64_neon_blocks4")[:2]
        round4, group4 = b4[r0:r1 + 1], b4[g0:r0] + b4[r1 + 1:g1 + 1]
        b1 = nf["_gcry_salsa20_aarch64_neon_blocks1"]
        (s0, s1), (h0, h1) = loops(neon, "_gcry_salsa20_aarch64_neon_blocks1")[:2]
        round1, group1 = b1[s0:s1 + 1], b1[h0:s0] + b1[s1 + 1:h1 + 1]
        # the longest loop of the portable object: the double rounds
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
            per1 = DOUBLE_ROUNDS * mca(round1, cpu) + mca(group1, cpu)
            perp = DOUBLE_ROUNDS * mca(roundp, cpu)
            print(f"{cpu:<13} {loop4:>10.1f} {grp4:>7.1f} {per4:>10.1f} {per4 / 64:>6.2f} "
                  f"{per1:>10.1f} {perp:>13.1f} {perp / 64:>6.2f} {perp / per4:>5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
