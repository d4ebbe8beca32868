"""Poly1305 (RFC 8439 section 2.5) as a MAC, on every implementation.

Independent answers only: the RFC 8439 vectors (transcribed once, in
``gcrylike.selftests.vectors_poly1305``, and checked here against
``cryptography`` before they are trusted), ``cryptography``'s
Poly1305 (OpenSSL) and a pure-Python Poly1305 on big integers written here
from RFC 8439 section 2.5.1.  The pure-Python one also builds the
arithmetic edge cases: messages that drive the accumulator to chosen values
next to p = 2^130 - 5, carries through every limb, all-ones blocks and keys,
and pads that carry out of the final 128-bit addition.

Every driver is reached twice, like tests/conftest.py does for ciphers:
forced with ``mac_open("poly1305", impl=...)`` and chosen automatically
under a hardware-feature deny list.  (conftest's ``driver`` fixture opens
handles with ``cipher_open`` only, so the MAC gets its own ``poly`` fixture
built the same way; the ids are the same.)  Drivers that cannot run here, or
that this build does not contain (``GCRYLIKE_NO_ASM``), are skipped with the
reason.  Every test that needs randomness draws from ``random.Random`` with
a fixed seed, so a failure reproduces.
"""

from __future__ import annotations

import array
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import mac_checks
import pytest
from checks import buffer_kinds, check_context_manager_closes, check_strided_refused, refused
from conftest import Driver, drivers, on_route
from cryptography.hazmat.primitives.poly1305 import Poly1305 as OpenSSLPoly1305

import gcrylike
from gcrylike.selftests import vectors_poly1305

SEED = 0x1305
ALGO = "poly1305"
P = (1 << 130) - 5
M128 = (1 << 128) - 1
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
BLOCK = 16
SIMD_MIN_BYTES = 64 * BLOCK   # the glue's POLY1305_SIMD_MIN_BLOCKS
IFMA_MIN_BYTES = 24 * BLOCK   # the glue's POLY1305_IFMA_MIN_BLOCKS
AVX2_BYTES = 4 * BLOCK        # the AVX2 routine's width
IFMA_BYTES = 8 * BLOCK        # the AVX512-IFMA routine's width (16 blocks a loop step)

#: Every driver of the amd64 and aarch64 builds; those missing from this build are
#: reported as skipped rather than silently absent.
KNOWN_DRIVERS = ("poly1305-amd64-avx512ifma", "poly1305-amd64-avx2", "poly1305-amd64-sse2",
                 "poly1305-aarch64-neon", "poly1305-aarch64", "poly1305-generic64",
                 "poly1305-generic32")


def rng_for(*tags: object) -> random.Random:
    """A generator with a fixed seed per test (never per driver: every
    driver sees the same inputs)."""
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


# ---------------------------------------------------------------------------
# Pure-Python Poly1305 (RFC 8439 section 2.5.1) and the outside oracle
# ---------------------------------------------------------------------------

def coefficients(msg: bytes) -> list[int]:
    """Each 16-byte chunk with a 1 byte appended, as a little-endian number."""
    return [int.from_bytes(msg[i:i + BLOCK] + b"\x01", "little")
            for i in range(0, len(msg), BLOCK)]


def ref_accumulator(r: int, msg: bytes) -> int:
    """The accumulator after the last block, fully reduced modulo p."""
    acc = 0
    for c in coefficients(msg):
        acc = (acc + c) * r % P
    return acc


def split_key(key: bytes) -> tuple[int, int]:
    """(clamped r, s)."""
    return int.from_bytes(key[:16], "little") & CLAMP, int.from_bytes(key[16:], "little")


def make_key(r: int, s: int) -> bytes:
    return r.to_bytes(16, "little") + s.to_bytes(16, "little")


def ref_tag(key: bytes, msg: bytes) -> bytes:
    r, s = split_key(key)
    return ((ref_accumulator(r, msg) + s) & M128).to_bytes(16, "little")


def oracle(key: bytes, msg: bytes) -> bytes:
    """Poly1305 from OpenSSL, through cryptography."""
    return OpenSSLPoly1305.generate_tag(bytes(key), bytes(msg))


# ---------------------------------------------------------------------------
# RFC 8439 vectors (section 2.5.2 and Appendix A.3 #1 - #11): written once, in
# gcrylike.selftests.vectors_poly1305
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RfcVector:
    name: str
    key: bytes
    msg: bytes
    tag: bytes


RFC_VECTORS = [RfcVector(name.replace(" ", ""), bytes.fromhex(v.key), v.message,
                         bytes.fromhex(v.tag))
               for name, v in vectors_poly1305.RFC8439.items()]


# ---------------------------------------------------------------------------
# Drivers: every implementation, forced (impl=) and chosen (deny list)
# ---------------------------------------------------------------------------

@pytest.fixture
def poly(request: pytest.FixtureRequest) -> Iterator[Driver]:
    """One Poly1305 driver; the deny list is restored afterwards."""
    yield from on_route(request.param, Driver)


EVERY_DRIVER = pytest.mark.parametrize("poly", drivers(ALGO, known=KNOWN_DRIVERS), indirect=True)


def one_shot_mac(key: object, data: object) -> bytes:
    """``gcrylike.mac`` on Poly1305, the default driver."""
    return gcrylike.mac(ALGO, key, data)


def random_cuts(rng: random.Random, n: int, most: int = 6) -> list[int]:
    return sorted(rng.randrange(n + 1) for _ in range(rng.randrange(1, most + 1)))


# ---------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------

def test_reference_matches_cryptography():
    rng = rng_for("reference")
    for n in list(range(0, 100)) + [255, 256, 257, 1000, 4096 + 5]:
        for key in (rng.randbytes(32), b"\xff" * 32, make_key(1, M128)):
            msg = rng.randbytes(n)
            assert ref_tag(key, msg) == oracle(key, msg), (n, key.hex())
            assert ref_tag(key, b"\xff" * n) == oracle(key, b"\xff" * n), (n, key.hex())


@pytest.mark.parametrize("vec", RFC_VECTORS, ids=[v.name for v in RFC_VECTORS])
def test_rfc_transcription(vec):
    """Each transcribed vector is what two independent implementations say."""
    assert oracle(vec.key, vec.msg) == vec.tag
    assert ref_tag(vec.key, vec.msg) == vec.tag
    assert len(vec.key) == 32 and len(vec.tag) == 16


def test_rfc_vector_lengths():
    lengths = {v.name: len(v.msg) for v in RFC_VECTORS}
    assert list(lengths) == ["2.5.2", *(f"A.3#{i}" for i in range(1, 12))]
    assert lengths["A.3#2"] == lengths["A.3#3"] == 375
    assert lengths["A.3#4"] == 127
    assert lengths["A.3#10"] == 64 and lengths["A.3#11"] == 48


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_rfc_vectors(poly):
    for v in RFC_VECTORS:
        assert poly.mac(v.key, v.msg) == v.tag, v.name
        with poly.keyed(v.key) as h:
            h.update(v.msg)
            assert h.digest() == v.tag, v.name
            assert h.digest() == v.tag, v.name  # digest leaves the state alone
            h.verify(v.tag)
            # one byte at a time, and split at every offset
            h.reset()
            for i in range(len(v.msg)):
                h.update(v.msg[i:i + 1])
            assert h.digest() == v.tag, (v.name, "bytewise")
            for cut in range(len(v.msg) + 1):
                h.reset()
                h.update(v.msg[:cut])
                h.update(v.msg[cut:])
                assert h.digest() == v.tag, (v.name, cut)
            assert h.final() == v.tag, v.name


@EVERY_DRIVER
def test_selftest_passed_after_use(poly):
    with poly.keyed(bytes(32)) as h:
        h.update(b"x")
    status = {i.driver: i.selftest for i in gcrylike.implementations(ALGO)}
    assert status[poly.name] == "passed"


# ---------------------------------------------------------------------------
# Arithmetic edge cases
# ---------------------------------------------------------------------------

def _blocks_summing_to(total: int, nblocks: int, tail_len: int,
                       rng: random.Random) -> bytes | None:
    """``nblocks`` full blocks then ``tail_len`` bytes whose coefficients
    (with the appended 1 bits) add up to exactly ``total``, or None.  With
    r = 1 the accumulator is that sum (an implementation may only reduce it
    modulo p), so the final reduction sees values chosen here."""
    tail = rng.randbytes(tail_len) if tail_len else b""
    rest = total - (int.from_bytes(tail + b"\x01", "little") if tail_len else 0)
    rest -= nblocks << 128
    if not 0 <= rest <= nblocks * M128:
        return None
    out = []
    for i in range(nblocks):
        left = nblocks - 1 - i
        lo, hi = max(0, rest - left * M128), min(rest, M128)
        m = (lo, hi, rng.randint(lo, hi))[rng.randrange(3)] if left else rest
        out.append(m.to_bytes(16, "little"))
        rest -= m
    assert rest == 0
    return b"".join(out) + tail


def _r1_sums() -> list[int]:
    """Accumulator values for r = 1: around multiples of p and powers of two."""
    sums = [j * P + d for j in (1, 2, 3) for d in (-6, -5, -4, -1, 0, 1, 2, 4, 5, 6, 7)]
    sums += [(1 << b) + d for b in (129, 130, 131) for d in (-1, 0, 1, 4, 5)]
    # a chain of ones below bit b, then the carry into it, at every limb
    # boundary of both radices (2^26 and 2^64)
    sums += [(2 << 128) + (1 << b) - 1 for b in (26, 52, 64, 78, 104, 127)]
    sums += [(2 << 128) + (1 << b) for b in (26, 52, 64, 78, 104, 128)]
    return sums


@cache
def r1_cases() -> list[tuple[str, bytes, bytes, bytes]]:
    """(label, key, message, tag) with r = 1 and accumulators near p."""
    rng = rng_for("r1-cases")
    cases = []
    for total in _r1_sums():
        for tail_len in (0, 1, 15):
            shapes = []
            for k in range(1, 8):  # the shortest messages that reach the total
                msg = _blocks_summing_to(total, k, tail_len, rng)
                if msg is not None:
                    shapes.append(msg)
            # long ones, through the SIMD paths: the same value plus m p
            for k in (16, 17, 19, 20, 32, 35, 48, 64, 67, 100):
                m = max(0, -(-((k << 128) + (1 << 8 * tail_len + 8) - total) // P))
                msg = _blocks_summing_to(total + m * P, k, tail_len, rng)
                assert msg is not None, (total, k, tail_len)
                shapes.append(msg)
            assert shapes, (total, tail_len)
            for msg in shapes:
                acc = total % P
                for s in (0, M128, (-acc) & M128, rng.getrandbits(128)):
                    key = make_key(1, s)
                    cases.append((f"sum={total:#x} tail={tail_len} len={len(msg)} s={s:#x}",
                                  key, msg, ((acc + s) & M128).to_bytes(16, "little")))
    return cases


def test_r1_cases_are_right():
    cases = r1_cases()
    assert len(cases) > 1000
    for label, key, msg, tag in cases:
        assert ref_tag(key, msg) == tag, label
    for label, key, msg, tag in cases[::7]:
        assert oracle(key, msg) == tag, label


@EVERY_DRIVER
def test_accumulator_near_p_with_r_1(poly):
    """r = 1: the accumulator is the plain sum of the blocks, so the final
    reduction meets p - 1, p, p + 1, 2^130 - 1, 2p, ... exactly; the pads
    include s = 2^128 - 1 and the one that wraps the tag to zero."""
    with poly.open() as h:
        for label, key, msg, tag in r1_cases():
            h.setkey(key)
            h.update(msg)
            assert h.digest() == tag, label
            if len(msg) >= 48:
                # block by block (portable code only), then blocks 1..3 apart
                h.reset()
                for i in range(0, len(msg), BLOCK):
                    h.update(msg[i:i + BLOCK])
                assert h.digest() == tag, (label, "blockwise")
                h.reset()
                h.update(msg[:7])
                h.update(msg[7:len(msg) - 33])
                h.update(msg[len(msg) - 33:])
                assert h.digest() == tag, (label, "odd splits")


def _last_block_for(r: int, prefix: bytes, target: int) -> bytes | None:
    """The full block that, after ``prefix``, leaves the accumulator at
    ``target`` (mod p), if the needed coefficient is a full block's."""
    c = (target * pow(r, -1, P) - ref_accumulator(r, prefix)) % P
    if (1 << 128) <= c < (2 << 128):
        return (c - (1 << 128)).to_bytes(16, "little")
    return None


@cache
def forged_cases() -> list[tuple[str, bytes, bytes, bytes]]:
    """(label, key, message, tag): random-looking messages whose last block
    lands the accumulator on a chosen value, for several r (the largest
    clamped r among them) and prefixes that reach the SIMD paths."""
    rng = rng_for("forged")
    rs = [CLAMP, split_key(b"\xff" * 32)[0], split_key(rng.randbytes(32))[0],
          split_key(rng.randbytes(32))[0], 5, 1 << 27]
    targets = [0, 1, 2, 4, 5, 6, P - 1, P - 2, P - 5, P - 6, (1 << 128) - 1, 1 << 128,
               (1 << 129) - 1, 1 << 129, (1 << 130) - 7]
    cases = []
    for r in rs:
        for target in targets:
            for nprefix in (1, 3, 4, 7, 15, 16, 19, 31, 35, 47, 63, 64, 100):
                for _attempt in range(200):  # each succeeds with probability 1/4
                    prefix = rng.randbytes(16 * nprefix)
                    if rng.randrange(3) == 0:  # mostly all-ones blocks
                        prefix = b"\xff" * 16 * (nprefix - 1) + prefix[-16:]
                    last = _last_block_for(r, prefix, target)
                    if last is not None:
                        break
                else:
                    raise AssertionError(f"no last block for r={r:#x} target={target:#x}")
                msg = prefix + last
                s = (0, M128, (-target) & M128, rng.getrandbits(128))[len(cases) % 4]
                tag = ((target + s) & M128).to_bytes(16, "little")
                cases.append((f"r={r:#x} target={target:#x} blocks={nprefix + 1} s={s:#x}",
                              make_key(r, s), msg, tag))
    return cases


def test_forged_cases_are_right():
    for label, key, msg, tag in forged_cases():
        assert ref_tag(key, msg) == tag, label
        assert oracle(key, msg) == tag, label


@EVERY_DRIVER
def test_accumulator_lands_on_chosen_values(poly):
    with poly.open() as h:
        for label, key, msg, tag in forged_cases():
            h.setkey(key)
            h.update(msg)
            assert h.digest() == tag, label
            h.reset()
            mac_checks.absorb(h, msg, [len(msg) - 16])  # the last block on its own
            assert h.digest() == tag, (label, "last block apart")


#: r = 2^k for bits the clamp keeps: the first and last bit of every 32-bit
#: word and bits on both radices' limb boundaries, so products shift the
#: accumulator across every limb and past 2^130 (where it wraps times 5).
R_BITS = (0, 13, 26, 27, 34, 52, 59, 64 + 2, 78, 64 + 27, 96 + 2, 104, 123)


def test_r_bits_survive_clamping():
    for b in R_BITS:
        assert CLAMP >> b & 1, b


@EVERY_DRIVER
def test_single_bit_and_extreme_r(poly):
    rng = rng_for("r-bits")
    lengths = (1, 16, 17, 64, 255, 256, 257, 272, 320, 1000, 1024 + 48)
    msgs = [b"\xff" * n for n in lengths] + [rng.randbytes(n) for n in lengths]
    with poly.open() as h:
        for r in [1 << b for b in R_BITS] + [CLAMP, 0]:
            for s in (0, M128):
                key = make_key(r, s)
                h.setkey(key)
                for msg in msgs:
                    h.reset()
                    h.update(msg)
                    assert h.digest() == ref_tag(key, msg), (hex(r), s, len(msg))


@EVERY_DRIVER
def test_all_ones(poly):
    """All-0xff keys (r clamped to its largest value, s = 2^128 - 1) and
    all-0xff messages of every length up to 600, and a long one."""
    key = b"\xff" * 32
    with poly.keyed(key) as h:
        for n in range(601):
            msg = b"\xff" * n
            h.reset()
            h.update(msg)
            assert h.digest() == ref_tag(key, msg), n
        long = b"\xff" * ((1 << 20) + 77)
        h.reset()
        h.update(long)
        assert h.digest() == oracle(key, long)
    # clamping: bits the clamp clears make no difference
    rng = rng_for("clamp")
    for _ in range(20):
        key = bytearray(rng.randbytes(32))
        msg = rng.randbytes(rng.randrange(600))
        r_bits = int.from_bytes(key[:16], "little")
        set_cleared = (r_bits | (M128 ^ CLAMP)).to_bytes(16, "little") + key[16:]
        unset_cleared = (r_bits & CLAMP).to_bytes(16, "little") + key[16:]
        want = oracle(bytes(key), msg)
        assert poly.mac(set_cleared, msg) == poly.mac(unset_cleared, msg) == want
    # only cleared bits set in r: r = 0, the tag is s whatever the message
    s = rng.randbytes(16)
    zero_r = (M128 ^ CLAMP).to_bytes(16, "little") + s
    for n in (0, 1, 16, 300, 5000):
        assert poly.mac(zero_r, rng.randbytes(n)) == s


# ---------------------------------------------------------------------------
# Cross-checks against cryptography
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_every_length_against_cryptography(poly):
    rng = rng_for("every-length")
    with poly.open() as h:
        for n in range(1101):
            key, msg = rng.randbytes(32), rng.randbytes(n)
            want = oracle(key, msg)
            assert poly.mac(key, msg) == want, n
            h.setkey(key)
            mac_checks.absorb(h, msg, random_cuts(rng, n))
            assert h.digest() == want, (n, "split")
            if n % 5 == 0:
                h.reset()
                for i in range(n):
                    h.update(msg[i:i + 1])
                assert h.digest() == want, (n, "bytewise")


def _threshold_lengths() -> list[int]:
    """Update lengths around the SIMD thresholds and the 2-, 4- and 8-block widths."""
    near = {m * k + d for m in (BLOCK, AVX2_BYTES, IFMA_BYTES, IFMA_MIN_BYTES, SIMD_MIN_BYTES)
            for k in (1, 2, 3, 4, 5)
            for d in (-17, -16, -15, -1, 0, 1, 15, 16, 17)}
    return sorted(n for n in near if n >= 0)


@EVERY_DRIVER
def test_splits_straddling_simd_thresholds(poly):
    """A few bytes buffered first (0..40, so the next update's blocks start
    at every phase), then an update whose block count is just below, at and
    above the glue's SIMD threshold and the 2- and 4-block widths, then the
    rest."""
    rng = rng_for("thresholds")
    key = rng.randbytes(32)
    msg = rng.randbytes(5 * SIMD_MIN_BYTES + 100)
    want = oracle(key, msg)
    with poly.keyed(key) as h:
        for first in range(41):
            for second in _threshold_lengths():
                h.reset()
                mac_checks.absorb(h, msg, [first, first + second])
                assert h.digest() == want, (first, second)
        # an update of the threshold plus one byte per call
        h.reset()
        pos = 0
        while pos < len(msg):
            step = SIMD_MIN_BYTES + 1 if pos % 2 == 0 else 3
            h.update(msg[pos:pos + step])
            pos += step
        assert h.digest() == want


@EVERY_DRIVER
def test_every_block_count_in_one_update(poly):
    """0..130 whole blocks in one update (every remainder of the SIMD
    routines' 2-, 4-, 8- and 16-block passes), after 0, 1 or 15 buffered
    bytes, followed by nothing or a partial block."""
    rng = rng_for("block-counts")
    key = rng.randbytes(32)
    msg = rng.randbytes(131 * BLOCK + 40)
    with poly.keyed(key) as h:
        for before in (0, 1, 15):
            for nblocks in range(131):
                for after in (0, 7):
                    end = before + nblocks * BLOCK + after
                    h.reset()
                    mac_checks.absorb(h, msg[:end], [before, end - after])
                    assert h.digest() == oracle(key, msg[:end]), (before, nblocks, after)


@EVERY_DRIVER
def test_simd_tables_follow_the_key(poly):
    """Long updates (the SIMD routines' tables of powers of r) under a
    sequence of keys, with short messages, reset() and final() between."""
    rng = rng_for("tables")
    long_msg, short_msg = rng.randbytes(5000), rng.randbytes(100)
    with poly.open() as h:
        for i in range(12):
            key = rng.randbytes(32)
            h.setkey(key)
            if i % 3 == 0:  # a short message first: no table yet
                h.update(short_msg)
                assert h.digest() == oracle(key, short_msg), i
                h.reset()
            h.update(long_msg)
            assert h.digest() == oracle(key, long_msg), i
            h.reset()  # back to before the table was computed
            h.update(long_msg[:300])
            h.update(long_msg[300:])
            assert h.final() == oracle(key, long_msg), i
            h.reset()
            h.update(long_msg + short_msg)
            assert h.digest() == oracle(key, long_msg + short_msg), i
            assert poly.mac(key, long_msg) == oracle(key, long_msg), i


@EVERY_DRIVER
def test_random_multiway_splits_and_digests_midway(poly):
    rng = rng_for("multiway")
    with poly.open() as h:
        for trial in range(120):
            n = rng.randrange(0, 9000)
            key, msg = rng.randbytes(32), rng.randbytes(n)
            h.setkey(key)
            cuts = random_cuts(rng, n, most=30)
            for lo, hi in zip([0, *cuts], [*cuts, n], strict=True):
                h.update(msg[lo:hi])
                if rng.randrange(4) == 0:  # digest midway: the stream goes on
                    assert h.digest() == oracle(key, msg[:hi]), (trial, hi)
            assert h.digest() == oracle(key, msg), (trial, n, cuts)


@EVERY_DRIVER
def test_megabytes(poly):
    rng = rng_for("megabytes")
    for n in (1 << 20, 3 * (1 << 20) + 5):
        key, msg = rng.randbytes(32), rng.randbytes(n)
        want = oracle(key, msg)
        assert poly.mac(key, msg) == want, n
        with poly.keyed(key) as h:
            pos = 0
            while pos < n:
                step = rng.choice((1, 15, 16, 17, 255, 256, 257, 4093, 65536 + 3,
                                   rng.randrange(1, 300000)))
                h.update(msg[pos:pos + step])
                pos += step
            assert h.digest() == want, (n, "chunked")


def _long_lengths() -> list[int]:
    near = {m * k + d for m in (BLOCK, IFMA_MIN_BYTES, SIMD_MIN_BYTES)
            for k in (1, 2, 3, 4, 8, 15, 16, 17, 64)
            for d in (-17, -16, -1, 0, 1, 16, 17)}
    return sorted(n for n in near | set(range(1100, 40000, 1999)) if n >= 0)


def test_drivers_agree(available_drivers):
    names = available_drivers(ALGO)
    rng = rng_for("agree")
    cases = [(rng.randbytes(32), rng.randbytes(n)) for n in _long_lengths()]
    cases += [(b"\xff" * 32, b"\xff" * n) for n in (256, 4096, 65536 + 16)]
    cases += [(rng.randbytes(32), rng.randbytes(2 * (1 << 20) + 33))]
    for key, msg in cases:
        want = oracle(key, msg)
        for name in names:
            assert gcrylike.mac(ALGO, key, msg, impl=name) == want, (name, len(msg))


@EVERY_DRIVER
def test_unaligned_memoryviews(poly):
    rng = rng_for("unaligned")
    key = rng.randbytes(32)
    with poly.keyed(key) as h:
        for n in (0, 1, 15, 16, 17, 63, 64, 255, 256, 257, 1000, 4099):
            msg = rng.randbytes(n)
            want = oracle(key, msg)
            for off in range(16):
                buf = bytearray(rng.randbytes(n + 32))
                buf[off:off + n] = msg
                before = bytes(buf)
                h.reset()
                h.update(memoryview(buf)[off:off + n])
                assert h.digest() == want, (n, off)
                ro = memoryview(bytes(buf))[off:off + n]  # read-only, unaligned
                h.reset()
                h.update(ro[: n // 2])
                h.update(ro[n // 2:])
                assert h.digest() == want, (n, off, "read-only split")
                assert buf == before
            # the key from an unaligned view too
            kbuf = bytearray(rng.randbytes(40))
            kbuf[5:37] = key
            h.setkey(memoryview(kbuf)[5:37])
            h.update(msg)
            assert h.digest() == want, (n, "unaligned key")


@EVERY_DRIVER
def test_input_types(poly):
    rng = rng_for("types")
    key, msg = rng.randbytes(32), rng.randbytes(777)
    want = oracle(key, msg)
    inputs = {
        **buffer_kinds(msg),
        "array-I": array.array("I", msg[:776]),  # raw bytes of a wider array
    }
    keys = {"bytes": key, "bytearray": bytearray(key), "memoryview": memoryview(key),
            "array-B": array.array("B", key)}
    with poly.open() as h:
        for kname, k in keys.items():
            h.setkey(k)
            for name, data in inputs.items():
                h.reset()
                h.update(data)
                expect = oracle(key, bytes(data)) if name == "array-I" else want
                assert h.digest() == expect, (kname, name)
                assert poly.mac(k, data) == expect, (kname, name)
                assert bytes(data) == (msg[:776] if name == "array-I" else msg)
        h.setkey(key)
        h.update(msg)
        for tname, tag in (("bytes", want), ("bytearray", bytearray(want)),
                           ("memoryview", memoryview(want)), ("array", array.array("B", want))):
            h.verify(tag)
            assert type(h.digest()) is bytes, tname


@EVERY_DRIVER
def test_two_handles_are_independent(poly):
    rng = rng_for("independent")
    k1, k2, msg = rng.randbytes(32), rng.randbytes(32), rng.randbytes(3000)
    with poly.keyed(k1) as a, poly.keyed(k2) as b:
        mac_checks.check_two_handles_are_independent(a, b, msg, 77, oracle(k1, msg),
                                                     oracle(k2, msg))


# ---------------------------------------------------------------------------
# digest, verify, final, reset, close
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_verify(poly):
    rng = rng_for("verify")
    key, msg = rng.randbytes(32), rng.randbytes(300)
    with poly.keyed(key) as h:
        mac_checks.check_verify(h, msg, lambda m: oracle(key, m))


@EVERY_DRIVER
def test_digest_leaves_the_state(poly):
    rng = rng_for("digest")
    key, msg = rng.randbytes(32), rng.randbytes(1500)
    with poly.keyed(key) as h:
        assert h.digest() == oracle(key, b"")
        for cut in (0, 1, 15, 16, 17, 300, 1024, 1500):
            h.reset()
            h.update(msg[:cut])
            first = h.digest()
            assert first == h.digest() == oracle(key, msg[:cut]), cut
            h.update(msg[cut:])
            assert h.digest() == oracle(key, msg), cut


@EVERY_DRIVER
def test_final(poly):
    rng = rng_for("final")
    key, msg = rng.randbytes(32), rng.randbytes(500)
    tag = oracle(key, msg)
    with poly.keyed(key) as h:
        h.update(msg)
        assert h.final() == tag
        for call in (lambda: h.update(b"x"), lambda: h.update(bytearray(b"x")),
                     lambda: h.update(b""), h.digest, lambda: h.verify(tag), h.final):
            with refused(gcrylike.InvalidState):
                call()
        # reset: back to the key, nothing absorbed
        h.reset()
        h.update(msg)
        assert h.final() == tag
        # setkey also starts over (a new key)
        key2 = rng.randbytes(32)
        h.setkey(key2)
        h.update(msg)
        h.verify(oracle(key2, msg))
        assert h.final() == oracle(key2, msg)
        h.reset()
        assert h.final() == oracle(key2, b"")
        with refused(gcrylike.InvalidState):
            h.update(msg)


@EVERY_DRIVER
def test_reset(poly):
    rng = rng_for("reset")
    key, key2, msg = rng.randbytes(32), rng.randbytes(32), rng.randbytes(700)
    with poly.keyed(key) as h:
        h.update(msg[:333])
        h.reset()
        h.update(msg)
        assert h.digest() == oracle(key, msg)
        h.reset()
        h.reset()
        assert h.digest() == oracle(key, b"")
        # reset goes back to the latest key
        h.setkey(key2)
        h.update(b"junk" * 100)
        h.reset()
        h.update(msg)
        assert h.digest() == oracle(key2, msg)


@EVERY_DRIVER
def test_many_setkey_cycles(poly):
    rng = rng_for("cycles")
    with poly.open() as h:
        for i in range(400):
            key, msg = rng.randbytes(32), rng.randbytes(rng.randrange(0, 700))
            h.setkey(key)
            step = i % 3
            if step:
                h.update(rng.randbytes(rng.randrange(400)))
                if step == 1:
                    h.final()
                h.setkey(key)
            h.update(msg)
            assert h.digest() == oracle(key, msg), i


@EVERY_DRIVER
def test_info(poly):
    with poly.open() as h:
        info = h.info
        assert isinstance(info, gcrylike.MacInfo)
        assert (info.algorithm, info.driver, info.digest_size, info.key_sizes) == \
            ("POLY1305", poly.name, 16, (32,))
        assert "no key" in repr(h) and poly.name in repr(h)
        h.setkey(bytes(32))
        assert h.info == info
        assert "keyed" in repr(h)


@EVERY_DRIVER
def test_closed_handle(poly):
    key = rng_for("closed").randbytes(32)
    h = poly.keyed(key)
    h.update(b"abc")
    mac_checks.check_closed_handle(h, key)


@EVERY_DRIVER
def test_context_manager(poly):
    check_context_manager_closes(poly.open, bytes(32))


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

@EVERY_DRIVER
@pytest.mark.parametrize("keylen", [0, 1, 16, 31, 33, 64])
def test_bad_key_length(poly, keylen):
    rng = rng_for("bad-key", keylen)
    key, msg = rng.randbytes(32), rng.randbytes(100)
    with poly.open() as h:
        mac_checks.check_bad_key_length(h, one_shot_mac, keylen, key, msg, oracle(key, msg))


BAD_VALUES = {"a str": "x" * 32, "an int": 32, "None": None, "a float": 1.5,
              "a list": [0] * 32}


@EVERY_DRIVER
@pytest.mark.parametrize("what", ["key", "data", "tag"])
@pytest.mark.parametrize("bad", list(BAD_VALUES))
def test_wrong_types(poly, what, bad):
    value = BAD_VALUES[bad]
    rng = rng_for("types-bad")
    key, msg = rng.randbytes(32), rng.randbytes(40)
    with poly.open() as h:
        mac_checks.check_wrong_type_refused(h, one_shot_mac, what, value, key, msg,
                                            oracle(key, msg))


@EVERY_DRIVER
def test_non_contiguous_input_is_refused(poly):
    key = bytes(range(32))
    with poly.keyed(key) as h:
        h.update(b"abc")
        check_strided_refused([lambda: h.update(memoryview(bytearray(64))[::2]),
                               lambda: h.verify(memoryview(bytearray(32))[::2]),
                               lambda: h.setkey(memoryview(bytearray(64))[::2])])
        assert h.digest() == oracle(key, b"abc")


@EVERY_DRIVER
def test_missing_key(poly):
    with poly.open() as h:
        mac_checks.check_refused_without_key(h)


def test_wrong_kind_of_algorithm():
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("poly1305")
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("POLY1305", impl="poly1305-generic64")
    for name in ("chacha20", "salsa20", "chacha20-poly1305", "xchacha20-poly1305"):
        with refused(gcrylike.UnknownAlgorithm):
            gcrylike.mac_open(name)
        with refused(gcrylike.UnknownAlgorithm):
            gcrylike.mac(name, bytes(32), b"data")
    for name in ("poly1306", "poly", "", "no-such-mac", 0, 99999):
        with refused(gcrylike.UnknownAlgorithm):
            gcrylike.mac_open(name)


@pytest.mark.parametrize("name", [None, 501.0, b"poly1305", True, ["poly1305"]])
def test_algorithm_of_wrong_type(name):
    with refused(gcrylike.InvalidType):
        gcrylike.mac_open(name)
    with refused(gcrylike.InvalidType):
        gcrylike.mac(name, bytes(32), b"x")


def test_names_and_id():
    key, msg = bytes(range(32)), b"abc" * 50
    want = oracle(key, msg)
    for name in ("poly1305", "POLY1305", "Poly1305", 501):
        with gcrylike.mac_open(name) as h:
            assert h.info.algorithm == "POLY1305"
            h.setkey(key)
            h.update(msg)
            assert h.digest() == want, name
        assert gcrylike.mac(name, key, msg) == want
    assert "POLY1305" in gcrylike.algorithms()


@pytest.mark.parametrize("impl", ["nope", "", "poly1305", "poly1305-generic",
                                  "chacha20-generic", "chacha20-poly1305-generic"])
def test_unknown_impl(impl):
    with refused(gcrylike.UnknownName):
        gcrylike.mac_open(ALGO, impl=impl)
    with refused(gcrylike.UnknownName):
        gcrylike.mac(ALGO, bytes(32), b"x", impl=impl)


@pytest.mark.parametrize("impl", [5, 1.5, b"poly1305-generic64", ["poly1305-generic64"]])
def test_impl_of_wrong_type(impl):
    with refused(gcrylike.InvalidType):
        gcrylike.mac_open(ALGO, impl=impl)
    with refused(gcrylike.InvalidType):
        gcrylike.mac(ALGO, bytes(32), b"x", impl=impl)


def test_impl_names_are_case_insensitive(available_drivers):
    for name in available_drivers(ALGO):
        with gcrylike.mac_open(ALGO, impl=name.upper()) as h:
            assert h.info.driver == name


# ---------------------------------------------------------------------------
# Choosing through the deny list
# ---------------------------------------------------------------------------

def _available() -> dict[str, bool]:
    return {i.driver: i.available for i in gcrylike.implementations(ALGO)}


def _chosen() -> str:
    with gcrylike.mac_open(ALGO) as h:
        h.setkey(bytes(32))
        return h.info.driver


def test_deny_avx2_picks_sse2(hwf_deny):
    hwf_deny(())
    have = _available()
    if not have.get("poly1305-amd64-sse2"):
        pytest.skip("poly1305-amd64-sse2 is not available here")
    if have.get("poly1305-amd64-avx512ifma"):
        assert _chosen() == "poly1305-amd64-avx512ifma"
    elif have.get("poly1305-amd64-avx2"):
        assert _chosen() == "poly1305-amd64-avx2"
    hwf_deny("avx2")
    assert _chosen() == "poly1305-amd64-sse2"
    assert gcrylike.mac(ALGO, bytes(32), b"x") == oracle(bytes(32), b"x")


def _best_without_features() -> str:
    """The driver a full deny list leaves: the best one that needs no CPU
    feature (generic64; on aarch64 its scalar assembly, integer-only)."""
    rows = [i for i in gcrylike.implementations(ALGO) if not i.features]
    return max(rows, key=lambda i: i.priority).driver


def test_deny_simd_picks_generic64(hwf_deny):
    hwf_deny(["sse2", "avx2", "neon"])  # every SIMD driver's, on either architecture
    assert _chosen() == _best_without_features()
    hwf_deny("all")
    assert _chosen() == _best_without_features()
    assert _best_without_features() in ("poly1305-generic64", "poly1305-aarch64")
    have = _available()
    for name in ("poly1305-amd64-sse2", "poly1305-amd64-avx2", "poly1305-amd64-avx512ifma",
                 "poly1305-aarch64-neon"):
        if name in have:
            assert not have[name]
            with refused(gcrylike.NotSupported):
                gcrylike.mac_open(ALGO, impl=name)
    assert gcrylike.mac(ALGO, bytes(32), b"x") == oracle(bytes(32), b"x")


def test_deny_list_applies_to_new_handles_only(hwf_deny):
    hwf_deny(())
    best = _chosen()
    key, msg = bytes(range(32)), bytes(1000)
    with gcrylike.mac_open(ALGO) as h:
        h.setkey(key)
        hwf_deny("all")
        h.update(msg)  # keeps its driver
        assert h.info.driver == best
        assert h.digest() == oracle(key, msg)


# ---------------------------------------------------------------------------
# A refused verify whose exception is kept must not crash the collector
# (see tests/test_salsa20.py, test_gc_after_a_refused_call); in a child
# process so that a crash cannot take the run down.
# ---------------------------------------------------------------------------

_GC_SCRIPT = r"""
import gc
import gcrylike

h = gcrylike.mac_open("poly1305")
h.setkey(bytes(range(1, 33)))  # not all zero: its tags are never zero

def refused_call():
    data = memoryview(bytearray(300))
    tag = memoryview(bytearray(40))
    h.update(data[3:250])
    try:
        h.verify(tag[1:17])
    except gcrylike.GcryError as e:
        kept = e
        return type(kept).__name__
    return "not refused"

print(refused_call(), flush=True)
gc.collect()
print("survived", flush=True)
"""


def test_gc_after_a_refused_verify():
    res = subprocess.run([sys.executable, "-c", _GC_SCRIPT], capture_output=True, text=True,
                         timeout=120, check=False)
    assert res.stdout.split()[:1] == ["AuthenticationFailed"], (res.stdout, res.stderr[-3000:])
    assert res.returncode == 0 and "survived" in res.stdout, res.stderr[-3000:]


@pytest.mark.parametrize("driver", ["poly1305-amd64-sse2", "poly1305-amd64-avx2"])
def test_setkey_retires_the_previous_keys_powers(driver):
    """The SIMD powers of r are computed lazily and kept in the context; a
    new key must not leave the old powers behind (live or saved copy)."""
    if not any(i.driver == driver and i.available for i in gcrylike.implementations("poly1305")):
        pytest.skip(f"{driver} cannot run here")
    from gcrylike._core import ffi

    h = gcrylike.mac_open("poly1305", impl=driver)
    size = h._spec.context_size
    h.setkey(bytes(range(1, 33)))
    h.update(bytes(4096))  # long enough for the SIMD path: powers computed
    before = bytes(ffi.buffer(h._ctx.ptr, size))
    h.setkey(bytes(range(101, 133)))
    for view in (h._ctx.ptr, h._ctx._saved):
        after = bytes(ffi.buffer(view, size))
        same = sum(1 for i in range(0, size - 7, 8)
                   if before[i:i + 8] == after[i:i + 8] and any(before[i:i + 8]))
        assert same < 4, f"{same} words of the old key's state survived setkey"
    h.close()
