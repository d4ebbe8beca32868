"""Models of stitched AVX-512 loops: is a cipher+MAC loop faster stitched?

Not part of the library or its tests: a measuring tool for the choice that
docs/algorithms.rst records (the AVX-512 ChaCha20-Poly1305 and secretbox
drivers run cipher and MAC one after the other, not stitched).  It writes
one 1024-byte step of each loop as straight-line assembly, the instructions
of the real routines (asm/chacha-amd64-avx512.S, asm/poly1305-amd64-avx512.S,
asm/salsa20-amd64-avx512.h, asm/poly1305-scalar-amd64.h) on junk data:

  chacha     one sixteen-block ChaCha20 group in zmm0-15: rounds, feed-forward,
             transposes, xor and store
  salsa      the same for Salsa20 (the salsa512 double round)
  ifma       four sixteen-block IFMA Poly1305 steps (1024 bytes of MAC input)
  scalar     64 scalar Poly1305 blocks (the stitched AVX2 routines' mul step)
  chacha+ifma, salsa+ifma     the IFMA steps spread through the rounds
  chacha+ifma/coarse          one whole IFMA step after every fifth round
  chacha+scalar               the scalar blocks spread through the group

and prints, per 64 bytes, the native time (rdtsc, min of many calls; needs
an AVX-512 IFMA CPU) and llvm-mca's cycles (-mcpu, default znver4).
Stitching pays where "x+y" is below "x" plus "y".

    python3 docs/models/stitch_model.py [--mcpu znver5] [--calls 20000]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

STEP = 1024  # bytes of cipher output and of MAC input per model call


def z(i: int) -> str:
    return f"%zmm{i}"


# -- ChaCha20: one zmm per state word, sixteen blocks ------------------------

def chacha_rounds(r: list[int]) -> list[str]:
    """Ten double rounds, each step on the four quarter rounds (vprold)."""
    def rnd(quads):
        out = []
        for k1, k2 in ((16, 12), (8, 7)):
            out += [f"vpaddd {z(b)}, {z(a)}, {z(a)}" for a, b, c, d in quads]
            out += [f"vpxord {z(a)}, {z(d)}, {z(d)}" for a, b, c, d in quads]
            out += [f"vprold ${k1}, {z(d)}, {z(d)}" for a, b, c, d in quads]
            out += [f"vpaddd {z(d)}, {z(c)}, {z(c)}" for a, b, c, d in quads]
            out += [f"vpxord {z(c)}, {z(b)}, {z(b)}" for a, b, c, d in quads]
            out += [f"vprold ${k2}, {z(b)}, {z(b)}" for a, b, c, d in quads]
        return out
    cols = [(r[0], r[4], r[8], r[12]), (r[1], r[5], r[9], r[13]),
            (r[2], r[6], r[10], r[14]), (r[3], r[7], r[11], r[15])]
    diags = [(r[0], r[5], r[10], r[15]), (r[1], r[6], r[11], r[12]),
             (r[2], r[7], r[8], r[13]), (r[3], r[4], r[9], r[14])]
    return (rnd(cols) + rnd(diags)) * 10


def salsa_rounds(r: list[int], t: int) -> list[str]:
    """Ten Salsa20 double rounds: x ^= (p + q) <<< k, temporary t."""
    def step(x, p, q, k):
        return [f"vpaddd {z(r[q])}, {z(r[p])}, {z(t)}", f"vprold ${k}, {z(t)}, {z(t)}",
                f"vpxord {z(t)}, {z(r[x])}, {z(r[x])}"]
    out = []
    for quads in (((0, 4, 8, 12), (5, 9, 13, 1), (10, 14, 2, 6), (15, 3, 7, 11)),
                  ((0, 1, 2, 3), (5, 6, 7, 4), (10, 11, 8, 9), (15, 12, 13, 14))):
        # b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18
        for x, p, q, k in ((1, 0, 3, 7), (2, 1, 0, 9), (3, 2, 1, 13), (0, 3, 2, 18)):
            for quad in quads:
                out += step(quad[x], quad[p], quad[q], k)
    return out * 10


def group_init(r: list[int]) -> list[str]:
    """State words broadcast from (rdi); counter lanes from (r9)."""
    out = [f"vpbroadcastd {4 * i}(%rdi), {z(r[i])}" for i in range(16)]
    out += [f"vpaddd 64(%r9), {z(r[12])}, {z(r[12])}",
            f"vpcmpud $1, 64(%r9), {z(r[12])}, %k2",
            f"vpaddd 128(%r9){{1to16}}, {z(r[13])}, {z(r[13])}{{%k2}}"]
    return out


def group_output(r: list[int], s: tuple[int, ...], src: str) -> list[str]:
    """Feed-forward, dword and 128-bit lane transposes (scratch s, 12
    registers), xor with src, store to (rsi)."""
    out = [f"vpaddd {4 * i}(%rdi){{1to16}}, {z(r[i])}, {z(r[i])}" for i in range(16)]

    def tr4(x, t):
        return [f"vpunpckldq {z(x[1])}, {z(x[0])}, {z(t[0])}",
                f"vpunpckhdq {z(x[1])}, {z(x[0])}, {z(t[1])}",
                f"vpunpckldq {z(x[3])}, {z(x[2])}, {z(t[2])}",
                f"vpunpckhdq {z(x[3])}, {z(x[2])}, {z(t[3])}",
                f"vpunpcklqdq {z(t[2])}, {z(t[0])}, {z(x[0])}",
                f"vpunpckhqdq {z(t[2])}, {z(t[0])}, {z(x[1])}",
                f"vpunpcklqdq {z(t[3])}, {z(t[1])}, {z(x[2])}",
                f"vpunpckhqdq {z(t[3])}, {z(t[1])}, {z(x[3])}"]

    def lanes4(x, t):
        return [f"vshufi32x4 $0x44, {z(x[1])}, {z(x[0])}, {z(t[0])}",
                f"vshufi32x4 $0xee, {z(x[1])}, {z(x[0])}, {z(t[1])}",
                f"vshufi32x4 $0x44, {z(x[3])}, {z(x[2])}, {z(t[2])}",
                f"vshufi32x4 $0xee, {z(x[3])}, {z(x[2])}, {z(t[3])}",
                f"vshufi32x4 $0x88, {z(t[2])}, {z(t[0])}, {z(x[0])}",
                f"vshufi32x4 $0xdd, {z(t[2])}, {z(t[0])}, {z(x[1])}",
                f"vshufi32x4 $0x88, {z(t[3])}, {z(t[1])}, {z(x[2])}",
                f"vshufi32x4 $0xdd, {z(t[3])}, {z(t[1])}, {z(x[3])}"]
    out += tr4(r[0:4], s[0:4]) + tr4(r[4:8], s[4:8]) + tr4(r[8:12], s[8:12])
    out += tr4(r[12:16], s[0:4])
    for k, t in ((0, s[4:8]), (1, s[8:12]), (2, s[0:4]), (3, s[4:8])):
        out += lanes4([r[k], r[k + 4], r[k + 8], r[k + 12]], t)
    for i in range(16):
        out += [f"vpxord {64 * i}({src}), {z(r[i])}, {z(r[i])}",
                f"vmovdqu32 {z(r[i])}, {64 * i}(%rsi)"]
    return out


# -- Poly1305 -------------------------------------------------------------------

def ifma_steps(n: int) -> list[str]:
    """n sixteen-block IFMA steps on (rcx) as the unstitched loop runs them
    (A = c_1 r^8 + (A + c_0) r^16, one carry pass), in zmm17-31; powers and
    masks as {1to8} memory operands from (r8)."""
    a, x, y = (17, 18, 19), (20, 21, 22), (23, 24, 25)
    l0, h0, l1, h1, l2, h2 = 26, 27, 28, 29, 30, 31
    m44, m42, hib = "0(%r8){1to8}", "8(%r8){1to8}", "16(%r8){1to8}"
    r8 = [f"{24 + 8 * k}(%r8){{1to8}}" for k in range(5)]
    r16 = [f"{64 + 8 * k}(%r8){{1to8}}" for k in range(5)]

    def load8(off, v, t):
        return [f"vmovdqu64 {off}(%rcx), {z(v[0])}", f"vmovdqu64 {off + 64}(%rcx), {z(v[1])}",
                f"vpunpckhqdq {z(v[1])}, {z(v[0])}, {z(v[2])}",
                f"vpunpcklqdq {z(v[1])}, {z(v[0])}, {z(v[0])}",
                f"vpsllq $20, {z(v[2])}, {z(t)}", f"vpsrlq $44, {z(v[0])}, {z(v[1])}",
                f"vpsrlq $24, {z(v[2])}, {z(v[2])}", f"vpandq {m44}, {z(v[0])}, {z(v[0])}",
                f"vpternlogq $0xa8, {m44}, {z(t)}, {z(v[1])}",
                f"vporq {hib}, {z(v[2])}, {z(v[2])}"]

    def mul(v, p):
        out = []
        for xi, pi, lo, hi in ((0, 0, l0, h0), (0, 1, l1, h1), (0, 2, l2, h2),
                               (1, 4, l0, h0), (1, 0, l1, h1), (1, 1, l2, h2),
                               (2, 3, l0, h0), (2, 4, l1, h1), (2, 0, l2, h2)):
            out += [f"vpmadd52luq {p[pi]}, {z(v[xi])}, {z(lo)}",
                    f"vpmadd52huq {p[pi]}, {z(v[xi])}, {z(hi)}"]
        return out

    t0, t1 = x[0], x[1]  # the group registers are free again for the carries
    out = []
    for s in range(n):
        off = 256 * s
        out += load8(off + 128, y, x[0])
        out += [f"vpxord {z(v)}, {z(v)}, {z(v)}" for v in (l0, h0, l1, h1, l2, h2)]
        out += mul(y, r8) + load8(off, x, y[0])
        out += [f"vpaddq {z(a[i])}, {z(x[i])}, {z(x[i])}" for i in range(3)]
        out += mul(x, r16)
        out += [f"vpsllq $8, {z(h0)}, {z(h0)}", f"vpsllq $8, {z(h1)}, {z(h1)}",
                f"vpsllq $10, {z(h2)}, {z(h2)}", f"vpaddq {z(h0)}, {z(l1)}, {z(l1)}",
                f"vpaddq {z(h1)}, {z(l2)}, {z(l2)}", f"vpsrlq $44, {z(l0)}, {z(t0)}",
                f"vpandq {m44}, {z(l0)}, {z(a[0])}", f"vpaddq {z(t0)}, {z(l1)}, {z(l1)}",
                f"vpsrlq $44, {z(l1)}, {z(t0)}", f"vpandq {m44}, {z(l1)}, {z(a[1])}",
                f"vpaddq {z(t0)}, {z(l2)}, {z(l2)}", f"vpsrlq $42, {z(l2)}, {z(t0)}",
                f"vpandq {m42}, {z(l2)}, {z(a[2])}", f"vpaddq {z(h2)}, {z(t0)}, {z(t0)}",
                f"vpsllq $2, {z(t0)}, {z(t1)}", f"vpaddq {z(t1)}, {z(t0)}, {z(t0)}",
                f"vpaddq {z(t0)}, {z(a[0])}, {z(a[0])}", f"vpsrlq $44, {z(a[0])}, {z(t0)}",
                f"vpandq {m44}, {z(a[0])}, {z(a[0])}", f"vpaddq {z(t0)}, {z(a[1])}, {z(a[1])}"]
    return out


def scalar_blocks(n: int) -> list[str]:
    """n scalar Poly1305 blocks from (rcx): h in r12-r14, r0/r1/s1 at (r8),
    products in r15, r10, r11 (POLY_PART 0-3 of poly1305-scalar-amd64.h)."""
    out = []
    for k in range(n):
        off = 16 * k
        out += [f"addq {off}(%rcx), %r12", f"adcq {off + 8}(%rcx), %r13", "adcq $1, %r14",
                "movq 0(%r8), %rax", "mulq %r12", "movq %rax, %r15", "movq %rdx, %r10",
                "movq 8(%r8), %rax", "mulq %r12", "movq %rax, %r12", "movq %rdx, %r11",
                "movq 16(%r8), %rax", "mulq %r13", "addq %rax, %r15", "adcq %rdx, %r10",
                "movq 0(%r8), %rax", "mulq %r13", "addq %rax, %r12", "adcq %rdx, %r11",
                "movq %r14, %rax", "imulq 16(%r8), %rax", "imulq 0(%r8), %r14",
                "addq %rax, %r12", "adcq %r11, %r14", "addq %r10, %r12", "adcq $0, %r14",
                "movq %r12, %r13", "movq %r14, %rax", "andq $-4, %rax", "movq %r14, %rdx",
                "shrq $2, %rdx", "andq $3, %r14", "addq %rdx, %rax", "addq %r15, %rax",
                "movq %rax, %r12", "adcq $0, %r13", "adcq $0, %r14"]
    return out


def spread(a: list[str], b: list[str]) -> list[str]:
    """b's instructions spread evenly through a's."""
    out, j = [], 0
    for i, ins in enumerate(a):
        out.append(ins)
        while j < len(b) and j * len(a) < (i + 1) * len(b):
            out.append(b[j])
            j += 1
    return out + b[j:]


def chunked(a: list[str], b: list[str], n: int) -> list[str]:
    """b in n equal pieces, one after each n-th of a."""
    ca, cb = -(-len(a) // n), -(-len(b) // n)
    return [ins for k in range(n) for ins in a[k * ca:(k + 1) * ca] + b[k * cb:(k + 1) * cb]]


def models() -> dict[str, list[str]]:
    r = list(range(16))
    out_s = tuple(range(17, 29))
    ch_rounds, sa_rounds = chacha_rounds(r), salsa_rounds(r, 16)
    # (src from rsi where the scalar MAC's mul takes rdx)
    ch_out, ch_out_rsi = group_output(r, out_s, "%rdx"), group_output(r, out_s, "%rsi")
    ifma, scal = ifma_steps(STEP // 256), scalar_blocks(STEP // 16)
    init = group_init(r)
    return {
        "chacha": init + ch_rounds + ch_out,
        "salsa": init + sa_rounds + ch_out,
        "ifma": ifma,
        "scalar": scal,
        "chacha+ifma": init + spread(ch_rounds, ifma) + ch_out,
        "chacha+ifma/coarse": init + chunked(ch_rounds, ifma, STEP // 256) + ch_out,
        "salsa+ifma": init + spread(sa_rounds, ifma) + ch_out,
        "chacha+scalar": spread(init + ch_rounds + ch_out_rsi, scal),
    }


HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
typedef void (*fn) (void *, void *, void *, void *, void *, void *);
%(decls)s
static uint8_t state[64] __attribute__ ((aligned (64)));
static uint8_t src[4096] __attribute__ ((aligned (64))), dst[4096] __attribute__ ((aligned (64)));
static uint64_t consts[32] __attribute__ ((aligned (64)));
static uint32_t lanes[64] __attribute__ ((aligned (64)));
int main (int argc, char **argv)
{
  long calls = argc > 1 ? atol (argv[1]) : 20000;
  fn f[] = { %(names)s };
  const char *n[] = { %(labels)s };
  memset (src, 7, sizeof src);
  consts[0] = 0xfffffffffffull; consts[1] = 0x3ffffffffffull; consts[2] = 1ull << 40;
  for (int i = 0; i < 16; i++) lanes[16 + i] = i;
  for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++)
    {
      uint64_t best = ~0ull;
      for (long i = 0; i < calls; i++)
        {
          uint64_t t = __rdtsc ();
          f[k] (state, dst, src, src, consts, lanes);
          t = __rdtsc () - t;
          if (t < best) best = t;
        }
      printf ("%%s %%.2f\n", n[k], best / %(groups)d.0);
    }
  return 0;
}
"""


def symbol(name: str) -> str:
    return "model_" + re.sub(r"[^a-z0-9]", "_", name)


def native(bodies: dict[str, list[str]], calls: int, tmp: Path) -> dict[str, float]:
    asm = [".text"]
    for name, body in bodies.items():
        asm += [f".globl {symbol(name)}", f"{symbol(name)}:",
                "push %r12", "push %r13", "push %r14", "push %r15", *body,
                "pop %r15", "pop %r14", "pop %r13", "pop %r12", "vzeroupper", "ret"]
    asm.append('.section .note.GNU-stack,"",%progbits')
    (tmp / "models.s").write_text("\n".join(asm) + "\n")
    syms = [symbol(n) for n in bodies]
    (tmp / "harness.c").write_text(HARNESS % {
        "decls": "\n".join(f"void {s} ();" for s in syms),
        "names": ", ".join(f"(fn){s}" for s in syms),
        "labels": ", ".join(f'"{n}"' for n in bodies),
        "groups": STEP // 64})
    exe = tmp / "harness"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(tmp / "harness.c"), str(tmp / "models.s")],
                   check=True)
    res = subprocess.run([str(exe), str(calls)], check=True, capture_output=True, text=True)
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
            for line in res.stdout.splitlines()}


def mca(body: list[str], mcpu: str, tmp: Path) -> float | None:
    tool = shutil.which("llvm-mca-16") or shutil.which("llvm-mca")
    if not tool:
        return None
    path = tmp / "body.s"
    path.write_text("\n".join(body) + "\n")
    res = subprocess.run([tool, "-mtriple=x86_64", f"-mcpu={mcpu}", "-iterations=20",
                          str(path)], capture_output=True, text=True)
    m = re.search(r"Total Cycles:\s+(\d+)", res.stdout)
    return int(m.group(1)) / 20 / (STEP // 64) if m else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mcpu", default="znver4", help="llvm-mca CPU model (default znver4)")
    ap.add_argument("--calls", type=int, default=20000, help="native calls per model (min taken)")
    ap.add_argument("--no-native", action="store_true", help="llvm-mca only (no AVX-512 here)")
    args = ap.parse_args()
    bodies = models()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        ticks = {} if args.no_native else native(bodies, args.calls, tmp)
        print(f"per 64 bytes: native TSC ticks (min of {args.calls} calls), "
              f"llvm-mca -mcpu={args.mcpu} cycles")
        for name, body in bodies.items():
            cyc = mca(body, args.mcpu, tmp)
            t = f"{ticks[name]:8.2f}" if name in ticks else "       -"
            c = f"{cyc:8.2f}" if cyc is not None else "       -"
            print(f"  {name:20s} {t} {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
