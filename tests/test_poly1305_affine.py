"""Poly1305's affine helpers (ciphers/poly1305/poly1305.h, 128-bit builds):
``poly1305_r_squared`` (r^2 mod p of a keyed context) and
``poly1305_muladd64`` (h = a + x k mod p), which Adiantum's sector calls
use for their tweak hashes in closed form (tests/test_adiantum.py checks
those against the per-message tweak hash).

Here against Python integers, through the test copy's probe
(tests/native/poly1305_hooks.c): every input at its bounds (a and k as
accumulators, three words with the top one up to 7, so up to 2^131 - 1,
past p = 2^130 - 5), x from 0 to 2^64 - 1, random values, and the largest
clamped r.  The results must be congruent mod p and within the
accumulator bound (top word at most 4).
"""

from __future__ import annotations

import random

import pytest
import testhooks

P = (1 << 130) - 5
M64 = (1 << 64) - 1
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF


def probe(key: bytes, a: int, k: int, x: int) -> tuple[int, int]:
    """(h, r2) from the native helpers, as integers."""
    mod = testhooks.copy("poly1305")
    ffi, lib = mod.ffi, mod.lib
    words = lambda v: ffi.new("uint64_t[3]", [v & M64, v >> 64 & M64, v >> 128])  # noqa: E731
    h, r2 = ffi.new("uint64_t[3]"), ffi.new("uint64_t[3]")
    if lib.gcry_poly1305_affine_probe(key, words(a), words(k), x, h, r2) != 0:
        pytest.skip("this build has no 128-bit products: no affine helpers")
    for v in (h, r2):
        assert v[2] <= 7
    assert h[2] <= 4
    return (h[0] | h[1] << 64 | h[2] << 128, r2[0] | r2[1] << 64 | r2[2] << 128)


def accumulator_values(rng: random.Random) -> list[int]:
    top = (1 << 131) - 1                  # three words, the top one 7
    return [0, 1, P - 1, P, P + 1, (1 << 130) - 1, 1 << 130, top, top - 1,
            *(rng.randrange(top + 1) for _ in range(6))]


def test_muladd_against_integers():
    rng = random.Random("poly1305-affine")
    key = rng.randbytes(32)
    xs = [0, 1, 2, 5, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, M64 - 1, M64,
          *(rng.randrange(1 << 64) for _ in range(4))]
    values = accumulator_values(rng)
    for a in values:
        for k in values:
            for x in xs:
                h, _ = probe(key, a, k, x)
                assert h % P == (a + x * k) % P, (a, k, x)


@pytest.mark.parametrize("key", [bytes(16) + bytes(range(16)), b"\xff" * 32,
                                 bytes(range(32)), random.Random(7).randbytes(32)])
def test_r_squared(key):
    r = int.from_bytes(key[:16], "little") & CLAMP
    _, r2 = probe(key, 0, 0, 0)
    assert r2 % P == r * r % P
