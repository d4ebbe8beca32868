"""NHPoly1305 (Adiantum's hash; the kernel's ``nhpoly1305``) as a MAC, on
every implementation.

Independent answers only:

* the Adiantum authors' vectors (tests/vectors/adiantum/NH.json for NH
  alone, NHPoly1305.json for the whole hash; google/adiantum, MIT);
* a pure-Python NH and bare Poly1305 (tests/reference.py) from the
  Adiantum paper (Crowley and Biggers, ToSC 2018(4), sections 6.3 and 6.4)
  and RFC 8439 section 2.5.1: NH^T[256, 32, 4] with stride 2 over each
  1024-byte chunk of the message zero-padded to a multiple of 16, Poly1305
  (clamped r, no s) over the 32-byte NH outputs.  It is checked against both JSON files
  first, then compared with every driver on random messages.

The key is 1088 bytes: the 16-byte Poly1305 r, then the 1072-byte NH key;
the output is 16 bytes.

Every driver is reached twice, like tests/conftest.py does for ciphers:
forced with ``mac_open("nhpoly1305", impl=...)`` and chosen automatically
under a hardware-feature deny list (conftest's ``driver`` fixture opens
handles with ``cipher_open`` only, so this file has its own ``nhp``
fixture built the same way; the ids are the same).  Drivers that cannot run
here, or that this build does not contain (``GCRYLIKE_NO_ASM``), are
skipped with the reason.  Randomness comes from ``random.Random`` with a
fixed seed per test (never per driver: every driver sees the same inputs).
"""

from __future__ import annotations

import array
import json
import os
import random
import struct
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import mac_checks
import pytest
from checks import check_implementations_listing, refused
from conftest import Driver, drivers, on_route, skip_unless_available
from reference import nh, poly1305_bare

import gcrylike

SEED = 0x4E481305
ALGO = "nhpoly1305"
KEY_BYTES = 1088
NH_KEY_BYTES = 1072
UNIT = 1024          # NH message unit (one chunk)
GRAIN = 16           # messages are zero-padded to a multiple of this
P = (1 << 130) - 5
M128 = (1 << 128) - 1
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF

#: Every driver the amd64 build has; those missing from this build are
#: reported as skipped rather than silently absent.
KNOWN_DRIVERS = ("nhpoly1305-amd64-avx512", "nhpoly1305-amd64-avx2", "nhpoly1305-amd64-sse2",
                 "nhpoly1305-aarch64-neon", "nhpoly1305-generic")

VECTORS = Path(__file__).resolve().parent / "vectors" / "adiantum"
H = bytes.fromhex


def rng_for(*tags: object) -> random.Random:
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


# ---------------------------------------------------------------------------
# Pure-Python NH and NHPoly1305
# ---------------------------------------------------------------------------

@cache
def _key_words(nh_key: bytes) -> tuple[int, ...]:
    assert len(nh_key) == NH_KEY_BYTES
    return struct.unpack(f"<{NH_KEY_BYTES // 4}I", nh_key)


def ref_nh(nh_key: bytes, msg: bytes) -> bytes:
    """NH (tests/reference.py) of one message of 16 .. 1024 bytes (a
    multiple of 16) under the 1072-byte NH key."""
    assert len(msg) % GRAIN == 0 and 0 < len(msg) <= UNIT
    return nh(_key_words(nh_key), msg)


def ref_poly1305_bare(r_bytes: bytes, msg: bytes) -> bytes:
    """Poly1305 without the s pad (tests/reference.py), 16 bytes le."""
    return poly1305_bare(r_bytes, msg).to_bytes(16, "little")


def ref_nhpoly1305(key: bytes, msg: bytes) -> bytes:
    assert len(key) == KEY_BYTES
    msg = bytes(msg)
    padded = msg + bytes(-len(msg) % GRAIN)
    hashes = b"".join(ref_nh(key[16:], padded[i:i + UNIT]) for i in range(0, len(padded), UNIT))
    return ref_poly1305_bare(key[:16], hashes)


# ---------------------------------------------------------------------------
# The published vectors
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Vector:
    name: str
    key: bytes
    msg: bytes
    hash: bytes


def _load(name: str) -> list[Vector]:
    with open(VECTORS / name, encoding="utf-8") as f:
        data = json.load(f)
    return [Vector(f"{name}:{i}:{len(H(v['input']['message_hex']))}B",
                   H(v["input"]["key_hex"]), H(v["input"]["message_hex"]), H(v["hash_hex"]))
            for i, v in enumerate(data)]


NH_VECTORS = _load("NH.json")
NHPOLY_VECTORS = _load("NHPoly1305.json")


# ---------------------------------------------------------------------------
# Drivers: every implementation, forced (impl=) and chosen (deny list)
# ---------------------------------------------------------------------------

@pytest.fixture
def nhp(request: pytest.FixtureRequest) -> Iterator[Driver]:
    """One NHPoly1305 driver; the deny list is restored afterwards."""
    yield from on_route(request.param, Driver)


EVERY_DRIVER = pytest.mark.parametrize("nhp", drivers(ALGO, known=KNOWN_DRIVERS), indirect=True)


def split_schedules(n: int, rng: random.Random) -> dict[str, list[int]]:
    """Ways to cut an ``n``-byte message into update calls: at chunk edges
    (1023/1024/1025 and multiples), at 16-byte granularity, at odd offsets,
    and random multi-way cuts."""
    def ok(cuts):
        return sorted({c for c in cuts if 0 <= c <= n})

    edges = [k * UNIT + d for k in range(1, n // UNIT + 2) for d in (-17, -16, -1, 0, 1, 15, 16)]
    return {
        "whole": [],
        "empty-updates": ok([0, 0, n, n]),
        "chunk-edges": ok(edges),
        "each-chunk-minus-1": ok(range(UNIT - 1, n, UNIT)),
        "each-chunk-plus-1": ok(range(UNIT + 1, n, UNIT)),
        "16-byte-steps": ok(range(16, n, 16)),
        "odd-steps": ok(range(1, n, 37)),
        "inside-a-chunk": ok([rng.randrange(n + 1) for _ in range(3)]),
        "across-chunks": ok([rng.randrange(0, UNIT + 1), rng.randrange(UNIT, 2 * UNIT + 40)]),
        "random": ok([rng.randrange(n + 1) for _ in range(rng.randrange(1, 12))]),
        "random-16": ok([16 * rng.randrange(n // 16 + 1) for _ in range(5)]),
        "random-odd": ok([rng.randrange(n // 2 + 1) * 2 + 1 for _ in range(5)]),
    }


# ---------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------

def test_vector_files():
    assert len(NH_VECTORS) == 15 and len(NHPOLY_VECTORS) == 30
    assert {len(v.key) for v in NH_VECTORS} == {NH_KEY_BYTES}
    assert {len(v.hash) for v in NH_VECTORS} == {32}
    assert {len(v.msg) for v in NH_VECTORS} == {16, 1008, 1024}
    assert {len(v.key) for v in NHPOLY_VECTORS} == {KEY_BYTES}
    assert {len(v.hash) for v in NHPOLY_VECTORS} == {16}
    assert {len(v.msg) for v in NHPOLY_VECTORS} == {0, 16, 19, 1024, 1040, 2048}


@pytest.mark.parametrize("vec", NH_VECTORS, ids=lambda v: v.name)
def test_reference_nh(vec):
    assert ref_nh(vec.key, vec.msg) == vec.hash


@pytest.mark.parametrize("vec", NHPOLY_VECTORS, ids=lambda v: v.name)
def test_reference_nhpoly1305(vec):
    assert ref_nhpoly1305(vec.key, vec.msg) == vec.hash


def test_reference_poly1305_bare_matches_cryptography():
    """The bare Poly1305 plus s (mod 2^128) is RFC 8439 Poly1305."""
    from cryptography.hazmat.primitives.poly1305 import Poly1305

    rng = rng_for("poly-ref")
    for n in (0, 1, 15, 16, 17, 32, 64, 100, 1000):
        r, s, msg = rng.randbytes(16), rng.randbytes(16), rng.randbytes(n)
        bare = int.from_bytes(ref_poly1305_bare(r, msg), "little")
        want = Poly1305.generate_tag(r + s, msg)
        assert ((bare + int.from_bytes(s, "little")) & M128).to_bytes(16, "little") == want


def test_reference_zero_padding():
    """Trailing bytes are zero-padded to 16 and a zero-length message gives
    zero: consequences the paper's definition has, checked on the reference."""
    rng = rng_for("padding")
    key = rng.randbytes(KEY_BYTES)
    assert ref_nhpoly1305(key, b"") == bytes(16)
    msg = rng.randbytes(19)
    assert ref_nhpoly1305(key, msg) == ref_nhpoly1305(key, msg + bytes(13))
    assert ref_nhpoly1305(key, msg) != ref_nhpoly1305(key, msg + bytes(16))


# ---------------------------------------------------------------------------
# NH alone, on each NH implementation (the test hook gcry_nh_test)
# ---------------------------------------------------------------------------

def _nh_impls():
    from gcrylike.ciphers.nhpoly1305 import NH_DRIVERS

    return {d.suffix: (d.token, d.features) for d in NH_DRIVERS}


#: NH's drivers in this build (nhpoly1305_glue.c's rows, as the installed
#: module reads them): suffix -> (token, the CPU features it needs).
NH_IMPLS = _nh_impls()


def _nh_impl_param(name: str):
    _, needs = NH_IMPLS[name]
    marks = []
    if needs - gcrylike.hw_features():
        marks.append(pytest.mark.skip(reason=f"NH {name}: CPU lacks or denies "
                                             f"{', '.join(sorted(needs))}"))
    return pytest.param(name, id=f"nh-{name}", marks=marks)


EVERY_NH = pytest.mark.parametrize("nh_impl", [_nh_impl_param(n) for n in NH_IMPLS])


def nh_direct(nh_impl: str, key: bytes, msg: bytes, nunits: int = 0, offset: int = 0) -> bytes:
    """NH of MSG (one message of up to 1024 bytes, or NUNITS whole units)
    on one implementation, MSG placed OFFSET bytes into a fresh buffer
    (the test-only gcry_nh_test of the module's test copy)."""
    import testhooks

    ffi, lib = testhooks.copy("nhpoly1305").ffi, testhooks.copy("nhpoly1305").lib

    buf = ffi.new("uint8_t[]", len(msg) + offset + 1)
    ffi.memmove(buf + offset, msg, len(msg))
    out = ffi.new("uint8_t[]", NH_HASH * max(nunits, 1))
    rc = lib.gcry_nh_test(NH_IMPLS[nh_impl][0], key, buf + offset, 0 if nunits else len(msg),
                          nunits, out)
    assert rc == 0
    return bytes(ffi.buffer(out))


NH_HASH = 32


@EVERY_NH
def test_nh_vectors_direct(nh_impl):
    """NH.json byte for byte, as one message and (1024 bytes) as one unit."""
    for i, vec in enumerate(NH_VECTORS):
        assert nh_direct(nh_impl, vec.key, vec.msg, offset=i % 5) == vec.hash, vec.name
        if len(vec.msg) == UNIT:
            assert nh_direct(nh_impl, vec.key, vec.msg, nunits=1) == vec.hash, vec.name


@EVERY_NH
def test_nh_direct_every_length(nh_impl):
    """Every multiple of 16 from 0 to 1024 (each SIMD block/tail split),
    random and all-ones keys and messages, aligned and not, and runs of 1
    to 3 units, against the pure-Python NH."""
    rng = rng_for("nh-direct")
    for n in range(0, UNIT + 1, GRAIN):
        key = rng.randbytes(NH_KEY_BYTES) if n % 80 else b"\xff" * NH_KEY_BYTES
        msg = rng.randbytes(n) if n % 48 else b"\xff" * n
        want = ref_nh(key, msg) if n else bytes(NH_HASH)
        assert nh_direct(nh_impl, key, msg, offset=n % 13) == want, n
    for nunits in (1, 2, 3):
        key, msg = rng.randbytes(NH_KEY_BYTES), rng.randbytes(nunits * UNIT)
        want = b"".join(ref_nh(key, msg[i:i + UNIT]) for i in range(0, len(msg), UNIT))
        assert nh_direct(nh_impl, key, msg, nunits=nunits, offset=nunits) == want, nunits


# ---------------------------------------------------------------------------
# Lookup, listing, routing
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["nhpoly1305", "NHPOLY1305", "NHPoly1305",
                                  "nhpoly1305-adiantum", 1201])
def test_lookup(name):
    assert "NHPOLY1305" in gcrylike.algorithms()
    best = next(i.driver for i in gcrylike.implementations(name) if i.available)
    with gcrylike.mac_open(name) as h:
        info = h.info
        assert isinstance(info, gcrylike.MacInfo)
        assert (info.algorithm, info.driver, info.digest_size, info.key_sizes) == \
            ("NHPOLY1305", best, 16, (KEY_BYTES,))


@pytest.mark.parametrize("name", ["nhpoly1305", "nhpoly1305-adiantum", 1201])
def test_not_a_cipher(name):
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open(name)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.block_cipher_open(name)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.tweakable_open(name)


def test_implementations_listing():
    by_name = check_implementations_listing(ALGO, KNOWN_DRIVERS, "nhpoly1305-generic")
    if "nhpoly1305-amd64-avx512" in by_name:
        # the AVX-512 NH (AVX512F only, VEX ymm in its fold) beside the AVX2 Poly1305
        assert by_name["nhpoly1305-amd64-avx512"].features == {"avx512f", "avx2"}
        assert by_name["nhpoly1305-amd64-avx512"].priority > by_name[
            "nhpoly1305-amd64-avx2"].priority
    if "nhpoly1305-amd64-avx2" in by_name:
        assert "avx2" in by_name["nhpoly1305-amd64-avx2"].features
    if "nhpoly1305-amd64-sse2" in by_name:
        assert "avx2" not in by_name["nhpoly1305-amd64-sse2"].features


@pytest.mark.parametrize("impl", ["nhpoly1305-amd64-avx1024", "poly1305-generic64", "generic",
                                  "", "nh-generic", "aes256-generic"])
def test_unknown_impl(impl):
    with refused(gcrylike.UnknownName):
        gcrylike.mac_open(ALGO, impl=impl)
    with refused(gcrylike.UnknownName):
        gcrylike.mac(ALGO, bytes(KEY_BYTES), b"", impl=impl)


def _check_chosen(expected: str) -> None:
    rng = rng_for("deny")
    key, msg = rng.randbytes(KEY_BYTES), rng.randbytes(3000)
    with gcrylike.mac_open(ALGO) as h:
        assert h.info.driver == expected
        h.setkey(key)
        assert h.info.driver == expected
        h.update(msg)
        assert h.digest() == ref_nhpoly1305(key, msg)
    assert gcrylike.mac(ALGO, key, msg) == ref_nhpoly1305(key, msg)


def test_deny_avx512f_chooses_avx2(hwf_deny):
    skip_unless_available(ALGO, "nhpoly1305-amd64-avx512", "nhpoly1305-amd64-avx2")
    previous = hwf_deny(())
    hwf_deny(previous | {"avx512f"})
    _check_chosen("nhpoly1305-amd64-avx2")
    with refused(gcrylike.NotSupported):
        gcrylike.mac_open(ALGO, impl="nhpoly1305-amd64-avx512")


def test_env_deny_avx512f_steps_back_to_avx2():
    """GCRYLIKE_HWF_DENY=avx512f at start-up: NHPoly1305 and Adiantum choose
    their AVX2 drivers (a fresh interpreter, as the list is read at import)."""
    skip_unless_available(ALGO, "nhpoly1305-amd64-avx512", "nhpoly1305-amd64-avx2")
    env = {**os.environ, "GCRYLIKE_HWF_DENY": "avx512f"}
    res = subprocess.run([sys.executable, "-I", "-m", "gcrylike", "config"],
                         capture_output=True, text=True, env=env, check=False)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert "hwf-denied:avx512f" in lines
    assert "mac:NHPOLY1305:nhpoly1305-amd64-avx2" in lines
    chosen = [line for line in lines if line.startswith("tweakable:ADIANTUM(")]
    assert len(chosen) == 2 and all("-amd64-avx2" in line for line in chosen), chosen


def test_deny_avx2_chooses_sse2(hwf_deny):
    skip_unless_available(ALGO, "nhpoly1305-amd64-avx2", "nhpoly1305-amd64-sse2")
    previous = hwf_deny("avx2")
    hwf_deny(previous | {"avx2"})
    _check_chosen("nhpoly1305-amd64-sse2")
    with refused(gcrylike.NotSupported):
        gcrylike.mac_open(ALGO, impl="nhpoly1305-amd64-avx2")


def test_deny_sse2_and_avx2_chooses_generic(hwf_deny):
    skip_unless_available(ALGO, "nhpoly1305-amd64-sse2")
    previous = hwf_deny(())  # read the list, then deny more on top
    hwf_deny(previous | {"sse2", "avx2"})
    _check_chosen("nhpoly1305-generic")
    for d in ("nhpoly1305-amd64-sse2", "nhpoly1305-amd64-avx2", "nhpoly1305-amd64-avx512"):
        if any(i.driver == d for i in gcrylike.implementations(ALGO)):
            with refused(gcrylike.NotSupported):
                gcrylike.mac_open(ALGO, impl=d)


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_selftest_passed_after_use(nhp):
    with nhp.keyed(bytes(KEY_BYTES)) as h:
        h.update(b"x")
    status = {i.driver: i.selftest for i in gcrylike.implementations(ALGO)}
    assert status[nhp.name] == "passed"


@EVERY_DRIVER
@pytest.mark.parametrize("vec", NHPOLY_VECTORS, ids=lambda v: v.name)
def test_vectors(nhp, vec):
    rng = rng_for("vectors", vec.name)
    with nhp.keyed(vec.key) as h:
        for label, cuts in split_schedules(len(vec.msg), rng).items():
            h.reset()
            mac_checks.absorb(h, vec.msg, cuts)
            assert h.digest() == vec.hash, (label, cuts)
            h.verify(vec.hash)
        # byte by byte
        h.reset()
        for i in range(len(vec.msg)):
            h.update(vec.msg[i:i + 1])
        assert h.digest() == vec.hash, "byte by byte"
    assert nhp.mac(vec.key, vec.msg) == vec.hash


@EVERY_DRIVER
def test_nh_vectors_through_the_hash(nhp):
    """NH.json seen through the MAC: with r = 1 (clamping keeps it), the bare
    Poly1305 of one 32-byte NH output h0 || h1 is ((h0 + 2^128) + (h1 +
    2^128)) mod p, low 128 bits; so a driver's NH is checked on the NH
    vectors' own keys and messages (16, 1008 and 1024 bytes)."""
    r1 = (1).to_bytes(16, "little")
    for vec in NH_VECTORS:
        h0 = int.from_bytes(vec.hash[:16], "little")
        h1 = int.from_bytes(vec.hash[16:], "little")
        want = (((h0 + (1 << 128)) * 1 + h1 + (1 << 128)) % P & M128).to_bytes(16, "little")
        assert ref_poly1305_bare(r1, vec.hash) == want
        with nhp.keyed(r1 + vec.key) as h:
            h.update(vec.msg)
            assert h.digest() == want, vec.name


# ---------------------------------------------------------------------------
# Against the reference
# ---------------------------------------------------------------------------

def _random_lengths() -> list[int]:
    return list(range(0, 301)) + list(range(301, 5001, 97)) + [
        1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 4111, 4112, 4113]


@cache
def _random_case(n: int) -> tuple[bytes, bytes, bytes]:
    rng = rng_for("random-message", n)
    key, msg = rng.randbytes(KEY_BYTES), rng.randbytes(n)
    return key, msg, ref_nhpoly1305(key, msg)


@EVERY_DRIVER
def test_random_messages(nhp):
    rng = rng_for("random-splits")
    with nhp.open() as h:
        for n in _random_lengths():
            key, msg, want = _random_case(n)
            h.setkey(key)
            h.update(msg)
            assert h.digest() == want, n
            h.reset()
            mac_checks.absorb(h, msg, sorted(rng.randrange(n + 1) for _ in range(3)))
            assert h.digest() == want, (n, "split")


@EVERY_DRIVER
def test_extreme_values(nhp):
    """All-ones keys and messages: the NH sums wrap mod 2^64, the 32-bit
    additions carry, Poly1305's accumulator is large."""
    cases = [(b"\xff" * KEY_BYTES, b"\xff" * n) for n in (16, 1024, 3000)]
    cases += [(bytes(KEY_BYTES), b"\xff" * 2048), (b"\xff" * KEY_BYTES, bytes(2048)),
              (b"\x01" * 16 + b"\xff" * NH_KEY_BYTES, b"\x01" * 4096)]
    # key words that make every (m + k) mod 2^32 the maximum
    m = b"\x01\x00\x00\x00" * 256
    cases.append((b"\xff" * 16 + b"\xfe\xff\xff\xff" * 268, m))
    for key, msg in cases:
        with nhp.keyed(key) as h:
            h.update(msg)
            assert h.digest() == ref_nhpoly1305(key, msg), (key[:2].hex(), len(msg))


@EVERY_DRIVER
def test_r_is_clamped(nhp):
    rng = rng_for("clamp")
    key, msg = bytearray(rng.randbytes(KEY_BYTES)), rng.randbytes(2500)
    with nhp.keyed(bytes(key)) as h:
        h.update(msg)
        want = h.digest()
    key[:16] = (int.from_bytes(key[:16], "little") | (M128 ^ CLAMP)).to_bytes(16, "little")
    with nhp.keyed(bytes(key)) as h:
        h.update(msg)
        assert h.digest() == want == ref_nhpoly1305(bytes(key), msg)


@EVERY_DRIVER
def test_long_messages(nhp):
    rng = rng_for("long")
    key = rng.randbytes(KEY_BYTES)
    for n in (16 * UNIT, 16 * UNIT + 5, 33 * UNIT - 16, 50 * UNIT + 1000):
        msg = rng.randbytes(n)
        want = _long_reference(key, msg)
        with nhp.keyed(key) as h:
            h.update(msg)
            assert h.digest() == want, n
            h.reset()
            mac_checks.absorb(h, msg, [UNIT * 3 + 7, UNIT * 20 + 16, UNIT * 20 + 17])
            assert h.digest() == want, (n, "split")
        assert nhp.mac(key, msg) == want


@cache
def _long_reference(key: bytes, msg: bytes) -> bytes:
    return ref_nhpoly1305(key, msg)


def test_drivers_agree_on_megabytes(available_drivers):
    names = available_drivers(ALGO)
    rng = rng_for("agree")
    for n in (1 << 20, (1 << 20) + 16 * 5 + 3, 3 * (1 << 20) - 1):
        key, msg = rng.randbytes(KEY_BYTES), rng.randbytes(n)
        outs = {name: gcrylike.mac(ALGO, key, msg, impl=name) for name in names}
        assert len(set(outs.values())) == 1, outs
        with gcrylike.mac_open(ALGO, impl=names[-1]) as h:
            h.setkey(key)
            for lo in range(0, n, 65536 + 7):
                h.update(msg[lo:lo + 65536 + 7])
            assert set(outs.values()) == {h.digest()}


def _grain_lengths() -> list[int]:
    """Every NH length (multiples of 16) up to three chunks and a bit, so
    each SIMD routine's block/tail split (64 bytes for AVX-512 and AVX2, 32
    and 16 inside them) meets every chunk edge; and odd lengths near them."""
    lengths = list(range(0, 3 * UNIT + 129, GRAIN))
    return lengths + [n + d for n in (UNIT, 2 * UNIT, 3 * UNIT) for d in (-15, -1, 1, 15, 17, 49)]


def test_drivers_agree_on_every_grain_length(available_drivers):
    """Every available driver (AVX-512 included where the CPU has it) gives
    the generic driver's hash for every multiple of 16 up to 3 KiB + 128,
    one call and split at a 1 KiB edge, from aligned and unaligned buffers."""
    names = available_drivers(ALGO)
    if names == ["nhpoly1305-generic"]:
        pytest.skip("only the generic driver can run here")
    rng = rng_for("grain")
    key = rng.randbytes(KEY_BYTES)
    big = rng.randbytes(3 * UNIT + 200)
    handles = {name: gcrylike.mac_open(ALGO, impl=name) for name in names}
    try:
        for h in handles.values():
            h.setkey(key)
        for n in _grain_lengths():
            off = n % 61
            msg = memoryview(big)[off:off + n]
            want = gcrylike.mac(ALGO, key, bytes(msg), impl="nhpoly1305-generic")
            for name, h in handles.items():
                h.reset()
                h.update(msg)
                assert h.digest() == want, (name, n, off)
                cut = min(n, UNIT + 16 * (n % 3))
                h.reset()
                h.update(msg[:cut])
                h.update(msg[cut:])
                assert h.digest() == want, (name, n, off, cut)
    finally:
        for h in handles.values():
            h.close()


def test_drivers_agree_on_random_keys(available_drivers):
    """Fresh random keys (and all-ones words) with lengths across the SIMD
    tails: every driver against the generic one."""
    names = available_drivers(ALGO)
    rng = rng_for("keys")
    for i in range(40):
        key = rng.randbytes(KEY_BYTES) if i % 8 else b"\xff" * KEY_BYTES
        n = rng.choice([16, 48, 64, 80, 1008, 1024, 1040, 2000, 4096]) + rng.randrange(3) * 16
        msg = rng.randbytes(n)
        want = gcrylike.mac(ALGO, key, msg, impl="nhpoly1305-generic")
        for name in names:
            assert gcrylike.mac(ALGO, key, msg, impl=name) == want, (name, i, n)


# ---------------------------------------------------------------------------
# Buffers and handle behaviour
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_unaligned_and_typed_inputs(nhp):
    rng = rng_for("unaligned")
    key = rng.randbytes(KEY_BYTES)
    with nhp.keyed(key) as h:
        for n in (16, 33, 1024, 1100, 2048):
            msg = rng.randbytes(n)
            want = _random_case_for(key, msg)
            for off in (1, 3, 8, 13):
                buf = bytearray(rng.randbytes(n + 16))
                buf[off:off + n] = msg
                h.reset()
                h.update(memoryview(buf)[off:off + n])
                assert h.digest() == want, (n, off)
                h.reset()
                ro = memoryview(bytes(buf))[off:off + n]
                h.update(ro[:n // 3])
                h.update(ro[n // 3:])
                assert h.digest() == want, (n, off, "read-only split")
            for data in (bytearray(msg), array.array("B", msg), memoryview(msg)):
                h.reset()
                h.update(data)
                assert h.digest() == want, type(data).__name__
        kbuf = bytearray(KEY_BYTES + 9)
        kbuf[5:5 + KEY_BYTES] = key
        h.setkey(memoryview(kbuf)[5:5 + KEY_BYTES])
        h.update(b"abc")
        assert h.digest() == _random_case_for(key, b"abc")
        h.setkey(array.array("B", key))
        h.update(b"abc")
        assert h.digest() == _random_case_for(key, b"abc")


@cache
def _random_case_for(key: bytes, msg: bytes) -> bytes:
    return ref_nhpoly1305(key, msg)


@EVERY_DRIVER
def test_verify(nhp):
    rng = rng_for("verify")
    key, msg = rng.randbytes(KEY_BYTES), rng.randbytes(1500)
    with nhp.keyed(key) as h:
        mac_checks.check_verify(h, msg, lambda m: _random_case_for(key, m))


@EVERY_DRIVER
def test_digest_final_reset(nhp):
    rng = rng_for("states")
    key, key2, msg = rng.randbytes(KEY_BYTES), rng.randbytes(KEY_BYTES), rng.randbytes(2100)
    with nhp.keyed(key) as h:
        assert h.digest() == bytes(16)  # nothing absorbed: zero
        for cut in (0, 1, 16, 1023, 1024, 1025, 2100):
            h.reset()
            h.update(msg[:cut])
            assert h.digest() == h.digest() == _random_case_for(key, msg[:cut]), cut
            h.update(msg[cut:])
            assert h.digest() == _random_case_for(key, msg), cut
        assert h.final() == _random_case_for(key, msg)
        for call in (lambda: h.update(b"x"), lambda: h.update(bytearray(3)), h.digest,
                     lambda: h.verify(bytes(16)), h.final):
            with refused(gcrylike.InvalidState):
                call()
        h.reset()
        h.update(msg)
        assert h.final() == _random_case_for(key, msg)
        h.setkey(key2)
        h.update(msg[:500])
        h.reset()  # back to key2, nothing absorbed
        h.update(msg)
        assert h.digest() == _random_case_for(key2, msg)


@EVERY_DRIVER
def test_two_handles_are_independent(nhp):
    rng = rng_for("independent")
    k1, k2, msg = rng.randbytes(KEY_BYTES), rng.randbytes(KEY_BYTES), rng.randbytes(3000)
    with nhp.keyed(k1) as a, nhp.keyed(k2) as b:
        mac_checks.check_two_handles_are_independent(a, b, msg, 333, _random_case_for(k1, msg),
                                                     _random_case_for(k2, msg))


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------

@EVERY_DRIVER
@pytest.mark.parametrize("keylen", [0, 16, 32, 1072, 1087, 1089, 2176])
def test_bad_key_length(nhp, keylen):
    rng = rng_for("bad-key")
    key, msg = rng.randbytes(KEY_BYTES), rng.randbytes(100)
    with nhp.open() as h:
        mac_checks.check_bad_key_length(h, nhp.mac, keylen, key, msg, _random_case_for(key, msg))


BAD_VALUES = {"a str": "x" * KEY_BYTES, "None": None, "an int": KEY_BYTES, "a float": 1.5,
              "a list": [0] * KEY_BYTES}


@EVERY_DRIVER
@pytest.mark.parametrize("what", ["key", "data", "tag"])
@pytest.mark.parametrize("bad", list(BAD_VALUES))
def test_wrong_types(nhp, what, bad):
    value = BAD_VALUES[bad]
    rng = rng_for("types-bad")
    key, msg = rng.randbytes(KEY_BYTES), rng.randbytes(40)
    with nhp.open() as h:
        mac_checks.check_wrong_type_refused(h, nhp.mac, what, value, key, msg,
                                            _random_case_for(key, msg))


@EVERY_DRIVER
def test_missing_key(nhp):
    with nhp.open() as h:
        mac_checks.check_refused_without_key(h)


@EVERY_DRIVER
def test_closed_handle(nhp):
    key = rng_for("closed").randbytes(KEY_BYTES)
    h = nhp.keyed(key)
    h.update(b"abc")
    mac_checks.check_closed_handle(h, key)
