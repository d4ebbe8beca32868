"""Pure-Python reference pieces that several test files build their oracles
on: the ChaCha permutation and HChaCha (RFC 8439 section 2.1-2.3,
draft-irtf-cfrg-xchacha-03 section 2.2), NH and Poly1305 without its pad
(the Adiantum paper, RFC 8439 section 2.5.1).  Slow; for short inputs and
spot checks.  Each user checks what it builds on them against published
vectors or an outside implementation (test_chacha, test_aead,
test_nhpoly1305, test_adiantum).
"""

from __future__ import annotations

import struct

M32, M64, M128 = (1 << 32) - 1, (1 << 64) - 1, (1 << 128) - 1
P1305 = (1 << 130) - 5
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
SIGMA = struct.unpack("<4I", b"expand 32-byte k")
CHACHA_QUARTER_ROUNDS = (
    (0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),  # columns
    (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14),  # diagonals
)


def _rotl(v: int, c: int) -> int:
    return ((v << c) | (v >> (32 - c))) & M32


def chacha_permute(state: list[int], rounds: int) -> list[int]:
    """``rounds`` ChaCha rounds (column, then diagonal quarter rounds) over
    the 16-word ``state``; no feed-forward."""
    x = list(state)
    for _ in range(rounds // 2):
        for a, b, c, d in CHACHA_QUARTER_ROUNDS:
            x[a] = (x[a] + x[b]) & M32
            x[d] = _rotl(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & M32
            x[b] = _rotl(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & M32
            x[d] = _rotl(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & M32
            x[b] = _rotl(x[b] ^ x[c], 7)
    return x


def hchacha(key: bytes, data: bytes, rounds: int) -> bytes:
    """HChaCha: the ChaCha rounds over constants, a 32-byte key and 16 bytes
    of input; words 0-3 and 12-15 of the result, no feed-forward."""
    assert len(key) == 32 and len(data) == 16
    x = chacha_permute([*SIGMA, *struct.unpack("<8I", key), *struct.unpack("<4I", data)], rounds)
    return struct.pack("<8I", *x[:4], *x[12:])


def nh(key_words: tuple[int, ...], msg: bytes) -> bytes:
    """NH over one chunk (16 .. 1024 bytes, a multiple of 16): four passes
    p with the key shifted by 4p words; each 16-byte group (m0, m1, m2, m3)
    adds (m0+k0)(m2+k2) + (m1+k1)(m3+k3), additions mod 2^32, products of
    32-bit values, sums mod 2^64; the result is the four sums in le64."""
    m = struct.unpack(f"<{len(msg) // 4}I", msg)
    sums = []
    for p in range(4):
        s = 0
        for i in range(0, len(m), 4):
            j = i + 4 * p
            s += (((m[i] + key_words[j]) & M32) * ((m[i + 2] + key_words[j + 2]) & M32)
                  + ((m[i + 1] + key_words[j + 1]) & M32) * ((m[i + 3] + key_words[j + 3]) & M32))
        sums.append(s & M64)
    return struct.pack("<4Q", *sums)


def poly1305_bare(r_bytes: bytes, msg: bytes) -> int:
    """Poly1305 without the s pad: the accumulator mod p, mod 2^128."""
    r = int.from_bytes(r_bytes, "little") & CLAMP
    acc = 0
    for i in range(0, len(msg), 16):
        acc = (acc + int.from_bytes(msg[i:i + 16] + b"\x01", "little")) * r % P1305
    return acc & M128
