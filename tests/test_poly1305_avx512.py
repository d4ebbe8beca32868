"""The AVX512-IFMA Poly1305 driver (asm/poly1305-amd64-avx512.S) in detail.

tests/test_poly1305.py runs its whole suite on every driver, this one
included.  Here: what is particular to the IFMA routine, against three
independent answers (``cryptography``'s Poly1305, the portable C driver and
the AVX2 driver, which share no vector code with it):

- every length from 0 to 50 blocks (and partials) in one update, with a
  fresh key (the glue's POLY1305_IFMA_MIN_BLOCKS threshold: 24 blocks) and
  with the table of powers already computed (from 8 blocks), so every count
  of 8-block groups, odd and even (the routine's 16-block loop), and every
  leftover for the scalar code is reached;
- values next to p = 2^130 - 5: all-ones messages under the largest
  clamped r and s = 2^128 - 1, and messages whose last IFMA block drives
  the accumulator to chosen values around p;
- large, streamed and unaligned inputs;
- the deny list: without ``avx512ifma`` every algorithm that links Poly1305
  chooses a driver without it (AVX2 for Poly1305 itself).

Skipped, with the reason, where the CPU (or the deny list) lacks IFMA.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import mac_checks
import pytest
from cryptography.hazmat.primitives.poly1305 import Poly1305 as OpenSSLPoly1305

import gcrylike

ALGO = "poly1305"
IFMA = "poly1305-amd64-avx512ifma"
AVX2 = "poly1305-amd64-avx2"
BLOCK = 16
IFMA_MIN_BLOCKS = 24          # the glue's POLY1305_IFMA_MIN_BLOCKS
P = (1 << 130) - 5
M128 = (1 << 128) - 1
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
#: Algorithms whose drivers pair a cipher or NH with a Poly1305 driver.
LINKING = ("chacha20-poly1305", "xchacha20-poly1305", "xsalsa20-poly1305", "nhpoly1305",
           "adiantum-xchacha12", "adiantum-xchacha20")


def _ifma_available() -> tuple[bool, str]:
    infos = {i.driver: i for i in gcrylike.implementations(ALGO)}
    if IFMA not in infos:
        return False, f"{IFMA} is not in this build (no assembly)"
    if not infos[IFMA].available:
        return False, f"{IFMA} cannot run here: {infos[IFMA].reason}"
    return True, ""


_OK, _WHY = _ifma_available()
pytestmark = pytest.mark.skipif(not _OK, reason=_WHY)


def rng_for(tag: str) -> random.Random:
    return random.Random(f"poly1305-avx512/{tag}")


def want(key: bytes, msg: bytes) -> bytes:
    return OpenSSLPoly1305.generate_tag(key, msg)


def others() -> list[str]:
    """The independent drivers to compare with: portable C, and AVX2 when
    this CPU runs it."""
    names = [i.driver for i in gcrylike.implementations(ALGO) if i.available]
    return [n for n in ("poly1305-generic64", "poly1305-generic32", AVX2) if n in names]


def ifma(key: bytes, msg: bytes) -> bytes:
    return gcrylike.mac(ALGO, key, msg, impl=IFMA)


def test_ifma_is_chosen_by_default():
    with gcrylike.mac_open(ALGO) as h:
        assert h.info.driver == IFMA
    info = {i.driver: i for i in gcrylike.implementations(ALGO)}[IFMA]
    assert info.features == {"avx2", "avx512f", "avx512ifma"}


def test_every_block_count_fresh_key():
    """One update of 0..50 blocks plus 0..15 bytes on a fresh key: scalar
    below 24 blocks, IFMA (table computed) from 24 on."""
    rng = rng_for("fresh")
    for nblocks in range(51):
        for tail in (0, 1, 15):
            key = rng.randbytes(32)
            msg = rng.randbytes(nblocks * BLOCK + tail)
            tag = want(key, msg)
            assert ifma(key, msg) == tag, (nblocks, tail)
            for name in others():
                assert gcrylike.mac(ALGO, key, msg, impl=name) == tag, (name, nblocks, tail)


def test_every_block_count_warm_table():
    """With the table already computed (a first update of 24 blocks), a
    second update of 0..50 blocks after 0, 1 or 15 buffered bytes: the IFMA
    routine takes every group count from one 8-block group on, the scalar
    code the 0..7 blocks left over."""
    rng = rng_for("warm")
    key = rng.randbytes(32)
    first = rng.randbytes(IFMA_MIN_BLOCKS * BLOCK)
    body = rng.randbytes(50 * BLOCK + 15 + 7)
    with gcrylike.mac_open(ALGO, impl=IFMA) as h:
        for before in (0, 1, 15):
            for nblocks in range(51):
                for after in (0, 7):
                    end = before + nblocks * BLOCK + after
                    h.setkey(key)
                    h.update(first)
                    mac_checks.absorb(h, body[:end], [before, end - after])
                    assert h.digest() == want(key, first + body[:end]), (before, nblocks, after)


def test_group_edges_against_avx2_and_generic():
    """Lengths at every 8-block group edge (and the 16-block loop's) up to
    40 groups, a byte either side, on random keys."""
    rng = rng_for("edges")
    lengths = sorted({8 * BLOCK * g + d for g in range(1, 41) for d in (-1, 0, 1)})
    for n in lengths:
        key, msg = rng.randbytes(32), rng.randbytes(n)
        tag = want(key, msg)
        assert ifma(key, msg) == tag, n
        for name in others():
            assert gcrylike.mac(ALGO, key, msg, impl=name) == tag, (name, n)


def test_largest_values():
    """All-ones blocks (the largest message limbs) under r at its clamped
    maximum and s = 2^128 - 1, and under all-ones keys, at lengths that run
    the 8-block step, the loop and the last group."""
    r_max = CLAMP.to_bytes(16, "little")
    keys = (r_max + b"\xff" * 16, b"\xff" * 32, r_max + bytes(16),
            (1).to_bytes(16, "little") + b"\xff" * 16)
    for key in keys:
        for nblocks in (24, 32, 40, 48, 56, 64, 72, 136, 1024, 4096 + 8):
            for tail in (0, 15):
                msg = b"\xff" * (nblocks * BLOCK + tail)
                assert ifma(key, msg) == want(key, msg), (key.hex(), nblocks, tail)


def _accumulator(r: int, msg: bytes) -> int:
    """RFC 8439 2.5.1 on big integers (whole blocks only)."""
    acc = 0
    for i in range(0, len(msg), BLOCK):
        acc = (acc + int.from_bytes(msg[i:i + BLOCK], "little") + (1 << 128)) * r % P
    return acc


def test_accumulator_near_p():
    """Messages of 48 and 63 blocks whose last block brings the
    accumulator to p - 1, p - 2, 0, 1, 2^128 +- 1 and 2^129: the IFMA routine
    absorbs that block (as part of its last group), the glue reduces and adds
    s; under r at its clamped maximum and at random."""
    rng = rng_for("near-p")
    targets = (P - 1, P - 2, 0, 1, 4, M128, 1 << 128, (1 << 128) + 1, 1 << 129)
    r_values = (CLAMP, rng.getrandbits(128) & CLAMP, (rng.getrandbits(128) & CLAMP) | 1)
    checked = 0
    for r in r_values:
        r_inv = pow(r, -1, P)
        for s in (0, M128):
            key = r.to_bytes(16, "little") + s.to_bytes(16, "little")
            for target in targets:
                for nblocks in (48, 63):
                    for _ in range(64):  # a prefix whose last block fits
                        prefix = rng.randbytes((nblocks - 1) * BLOCK)
                        acc = _accumulator(r, prefix)
                        c = (target * r_inv - acc) % P - (1 << 128)
                        if 0 <= c <= M128:
                            break
                    else:
                        pytest.fail("no prefix found")
                    msg = prefix + c.to_bytes(16, "little")
                    assert _accumulator(r, msg) == target
                    assert ifma(key, msg) == want(key, msg), (hex(r), s, target, nblocks)
                    checked += 1
    assert checked == len(r_values) * 2 * len(targets) * 2


def test_large_and_streamed():
    rng = rng_for("large")
    key = rng.randbytes(32)
    msg = rng.randbytes((1 << 20) + 7)
    tag = want(key, msg)
    assert ifma(key, msg) == tag
    for name in others():
        assert gcrylike.mac(ALGO, key, msg, impl=name) == tag, name
    with gcrylike.mac_open(ALGO, impl=IFMA) as h:
        for trial in range(4):
            h.setkey(key)
            pos = 0
            while pos < len(msg):
                step = rng.choice((1, 7, 127, 128, 129, 383, 384, 385, 4096,
                                   rng.randrange(1, 100000)))
                h.update(msg[pos:pos + step])
                pos += step
            assert h.digest() == tag, trial


def test_unaligned():
    """Every start offset 0..63 in a buffer (the routine's 64-byte loads at
    every misalignment), lengths around the thresholds."""
    rng = rng_for("unaligned")
    key = rng.randbytes(32)
    buf = bytearray(rng.randbytes(64 + 3000))
    for off in range(64):
        for n in (IFMA_MIN_BLOCKS * BLOCK, 2047, 3000 - 63):
            view = memoryview(buf)[off:off + n]
            assert ifma(key, view) == want(key, bytes(view)), (off, n)


_CHOSEN = """
import json, gcrylike
algos = json.loads({algos!r})
out = {{}}
for a in algos:
    out[a] = [i.driver for i in gcrylike.implementations(a) if i.available][0]
print(json.dumps(out))
"""


def _chosen_under(deny: str) -> dict[str, str]:
    """The first available driver of Poly1305 and of every algorithm that
    links it, in a fresh interpreter with GCRYLIKE_HWF_DENY=deny."""
    env = dict(os.environ, GCRYLIKE_HWF_DENY=deny)
    code = _CHOSEN.format(algos=json.dumps([ALGO, *LINKING]))
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(res.stdout)


def test_deny_avx512ifma_steps_back_to_avx2():
    """GCRYLIKE_HWF_DENY=avx512ifma (a CPU with AVX-512 but no IFMA, such as
    Intel Skylake-SP, looks the same to the registry): Poly1305 chooses
    AVX2, and every algorithm that links Poly1305 its best driver without
    IFMA (an AVX2 or AVX-512 one, never a slower tier)."""
    free = _chosen_under("")
    no_ifma = _chosen_under("avx512ifma")
    assert free[ALGO] == IFMA
    assert no_ifma[ALGO] == AVX2
    for algo in LINKING:
        infos = [i for i in gcrylike.implementations(algo) if i.available]
        best = next(i for i in infos if "avx512ifma" not in i.features)
        assert no_ifma[algo] == best.driver, algo
        assert "avx2" in best.features, algo
        assert free[algo] == infos[0].driver, algo


def test_deny_list_in_process():
    previous = gcrylike.set_hwf_deny("avx512ifma")
    try:
        with gcrylike.mac_open(ALGO) as h:
            assert h.info.driver == AVX2
        with pytest.raises(gcrylike.GcryError):
            gcrylike.mac_open(ALGO, impl=IFMA)
    finally:
        gcrylike.set_hwf_deny(previous)
    with gcrylike.mac_open(ALGO) as h:
        assert h.info.driver == IFMA
