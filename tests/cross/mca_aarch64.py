"""llvm-mca-16 figures for the aarch64 assembly of issue 21 part B beside the
portable C, on the models docs/hardware.rst names ("aarch64 (models)").

Builds the .S files and the portable C with aarch64-linux-gnu-gcc (-O2, as
the project builds the C), takes each hot loop out of the objdump listing
(from a backward branch's target to the branch, the branch left out), and
runs it through llvm-mca-16 for 200 iterations: cycles per iteration are
then the loop's steady state, dependencies between iterations included.

  python3 tests/cross/mca_aarch64.py            # the table, as RST rows

Not a test: figures of models, for the docs and the commit messages.

The last rows estimate an Adiantum-XChaCha12 4 KiB sector from the parts:
NH over the 4080-byte bulk twice (255 groups each), Poly1305 over the NH
hashes and the tweak twice (20 blocks), one AES-256 block, and 65 ChaCha12
blocks (the 4080-byte stream and HChaCha12).  The portable AES does four
blocks for one.  The "ours" row takes ChaCha12 per block from the NEON
driver's widest routine as docs/models/chacha_aarch64_mca.py models it
(six double rounds of its loop plus the rest of one group, per block).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CC = os.environ.get("CC", "aarch64-linux-gnu-gcc")
OBJDUMP = os.environ.get("OBJDUMP", "aarch64-linux-gnu-objdump")
MCA = os.environ.get("MCA", "/usr/lib/llvm-16/bin/llvm-mca")
CPUS = ("cortex-a53", "cortex-a72", "neoverse-n1", "neoverse-v1")
ITER = 200
INCLUDES = ["-I" + os.path.join(ROOT, d) for d in
            ("gcrylike/_native", "ciphers/aes", "ciphers/nhpoly1305",
             "ciphers/poly1305", "ciphers/chacha", "asm")]
#: the NEON ChaCha model (docs/models/chacha_aarch64_mca.py), loaded by path
CHACHA_MODEL = os.path.join(ROOT, "docs", "models", "chacha_aarch64_mca.py")
BRANCH = re.compile(r"^(b\.\w+|b|cbn?z|tbn?z)$")


def build(src: str, out: str) -> str:
    path = os.path.join(out, os.path.basename(src) + ".o")
    subprocess.run([CC, "-O2", "-march=armv8-a+crypto", "-DUSE_AARCH64", *INCLUDES,
                    "-c", os.path.join(ROOT, src), "-o", path], check=True)
    return path


def listing(obj: str, symbol: str) -> list[tuple[int, str, str]]:
    """(address, mnemonic, operands) of SYMBOL's instructions."""
    text = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", obj], check=True,
                          capture_output=True, text=True).stdout
    out, inside = [], False
    for line in text.splitlines():
        if re.match(r"^[0-9a-f]+ <", line):
            inside = line.endswith(f"<{symbol}>:")
            continue
        m = re.match(r"^\s+([0-9a-f]+):\t(\S+)\t?(.*)$", line)
        if inside and m:
            ops = m.group(3).split("//")[0].strip()
            out.append((int(m.group(1), 16), m.group(2), ops))
    return out


def loop(obj: str, symbol: str, which: int = 0) -> list[str]:
    """The body of SYMBOL's WHICH-th smallest loop (0: the innermost)."""
    ins = listing(obj, symbol)
    loops = []
    for addr, mn, ops in ins:
        if BRANCH.match(mn):
            target = int(ops.split(",")[-1].split()[0], 16)
            if target <= addr:
                loops.append((addr - target, target, addr))
    _, start, end = sorted(loops)[which]
    return [f"{mn}\t{ops}" for a, mn, ops in ins
            if start <= a < end and not BRANCH.match(mn)]


def between(obj: str, symbol: str, first: str, last: str) -> list[str]:
    """The instructions strictly between the last FIRST and the next LAST."""
    ins = [f"{mn}\t{ops}" for _, mn, ops in listing(obj, symbol)]
    i = max(k for k, s in enumerate(ins) if s == first)
    j = ins.index(last, i)
    return ins[i + 1:j]


def mca(body: list[str], cpu: str) -> float:
    """Cycles per iteration of BODY on CPU."""
    text = subprocess.run([MCA, "-mtriple=aarch64", f"-mcpu={cpu}", f"-iterations={ITER}"],
                          input="\n".join(body) + "\n", check=True,
                          capture_output=True, text=True).stdout
    total = int(re.search(r"Total Cycles:\s+(\d+)", text).group(1))
    return total / ITER


def chacha12_neon(out: str) -> list[float]:
    """Cycles per ChaCha12 block of the NEON driver's widest routine on each
    of CPUS, as the ChaCha model counts them."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("chacha_aarch64_mca", CHACHA_MODEL)
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    obj = Path(build("asm/chacha-aarch64-neon.S", out))
    funcs = model.functions(obj)
    width = max(w for w in (8, 4, 1) if f"_gcry_chacha_aarch64_neon_blocks{w}" in funcs)
    rnd, grp = model.parts(obj, funcs, f"_gcry_chacha_aarch64_neon_blocks{width}")
    return [(6 * model.mca(rnd, cpu) + model.mca(grp, cpu)) / width for cpu in CPUS]


def main() -> int:
    with tempfile.TemporaryDirectory() as out:
        poly_s = build("asm/poly1305-aarch64-scalar.S", out)
        poly_c = build("ciphers/poly1305/poly1305_generic.c", out)
        nh_s = build("asm/nh-aarch64-neon.S", out)
        nh_c = build("ciphers/nhpoly1305/nh_generic.c", out)
        aes_s = build("asm/aes-aarch64-ce.S", out)
        aes_c = build("ciphers/aes/aes_generic.c", out)
        chacha_c = build("ciphers/chacha/chacha_generic.c", out)

        # gcc 12 -O2 leaves the portable Poly1305's load_le64 out of line
        # (two calls per block); modelled as the load it inlines to, which
        # favours the C.
        pc = [("ldr\tx0, [x0]" if s.startswith("bl\t") else s)
              for s in loop(poly_c, "poly1305_generic64_blocks")]
        cases = [
            # (name, body, divisor: cycles per iteration / divisor)
            ("Poly1305 asm, per 16 B", loop(poly_s, "_gcry_poly1305_aarch64_scalar_blocks"), 1),
            ("Poly1305 C 2^64, per 16 B", pc, 1),
            ("NH asm, per 16 B", loop(nh_s, "_gcry_nh_aarch64_neon_units"), 4),
            ("NH C, per 16 B", loop(nh_c, "nh_generic"), 1),
            # one block's chain (v0 through every round, no load/store):
            # the latency; iterations depend on each other through v0
            ("AES-256 asm, 1 block latency",
             between(aes_s, "_gcry_aes256_aarch64_ce_encrypt",
                     "ld1\t{v0.16b}, [x2]", "st1\t{v0.16b}, [x1]"), 1),
            ("AES-256 asm, per block of 8", loop(aes_s, "_gcry_aes256_aarch64_ce_encrypt"), 8),
            # the bitsliced C does four blocks in 14 rounds whatever the
            # count; its round loop runs 13 times: 14 x the loop / 4 blocks
            # is a lower bound per block (packing left out)
            ("AES-256 C, per block of 4 (>=)", loop(aes_c, "encrypt4"), 4 / 14),
            # six double rounds; the feed-forward and the xor left out
            ("ChaCha12 C, per 64 B (>=)", loop(chacha_c, "permute"), 1 / 6),
        ]
        neon12 = chacha12_neon(out)
        print("  ".join(["routine".ljust(34)] + [c.rjust(11) for c in CPUS]))
        fig = {}
        for name, body, div in cases:
            fig[name] = [mca(body, cpu) / div for cpu in CPUS]
            print("  ".join([name.ljust(34)] + [f"{v:11.1f}" for v in fig[name]]))

        def sector(nh: str, poly: str, aes: float, chacha: float, i: int) -> float:
            return (2 * 255 * fig[nh][i] + 20 * fig[poly][i] + aes + 65 * chacha)

        ours, portable = [], []
        for i in range(len(CPUS)):
            chacha_c_block = fig["ChaCha12 C, per 64 B (>=)"][i]
            ours.append(sector("NH asm, per 16 B", "Poly1305 asm, per 16 B",
                               fig["AES-256 asm, 1 block latency"][i],
                               neon12[i], i))
            portable.append(sector("NH C, per 16 B", "Poly1305 C 2^64, per 16 B",
                                   4 * fig["AES-256 C, per block of 4 (>=)"][i],
                                   chacha_c_block, i))
        print("  ".join(["ChaCha12 NEON, per 64 B".ljust(34)] + [f"{v:11.1f}" for v in neon12]))
        print("  ".join(["Adiantum 4 KiB, ours".ljust(34)] + [f"{v:11.0f}" for v in ours]))
        print("  ".join(["Adiantum 4 KiB, portable".ljust(34)]
                        + [f"{v:11.0f}" for v in portable]))
        print("  ".join(["Adiantum 4 KiB, gain".ljust(34)]
                        + [f"{p / o:10.2f}x" for o, p in zip(ours, portable, strict=True)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
