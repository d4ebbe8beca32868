"""Adiantum (XChaCha12 or XChaCha20, AES-256, NHPoly1305) on every
implementation and every combination of its parts.

Independent answers only:

* the Adiantum authors' vectors (tests/vectors/adiantum/Adiantum_XChaCha{12,
  20}_32_AES256.json, 180 each: google/adiantum, MIT);
* a reference Adiantum written here from the paper (Crowley and Biggers,
  ToSC 2018(4), section 2 and 6) out of outside or pure-Python parts:
  ``cryptography``'s AES-256, pycryptodome's XChaCha20, a pure-Python
  XChaCha12 (RFC 8439 section 2.3 and draft-irtf-cfrg-xchacha section 2.2)
  and a pure-Python NHPoly1305, both on the ChaCha, NH and bare Poly1305
  pieces of tests/reference.py (which test_chacha.py and test_nhpoly1305.py
  check against their vectors too).  It is checked against every JSON
  vector, both directions, before it is trusted; it then answers for
  lengths and tweaks the vectors do not have.

The construction: key K; XChaCha(K, nonce 1 || 0^23) gives K_E (32 bytes,
AES-256) || K_T (16, Poly1305 r for the tweak) || K_L (16) || K_N (1072)
(NHPoly1305's key).  A message P = P_L || P_R (P_R its last 16 bytes):

    H(T, X) = Poly1305_{K_T}(le64(8 |X|) || 0^8 || T) + NHPoly1305(X)  mod 2^128
    P_M = P_R + H(T, P_L);  C_M = AES_{K_E}(P_M)
    C_L = P_L ^ XChaCha(K, C_M || 1 || 0^7);  C_R = C_M - H(T, C_L)

(Poly1305 values bare: no s; additions on little-endian 128-bit numbers.)

Every registered driver is reached twice, like tests/conftest.py does for
ciphers: forced with ``tweakable_open(name, impl=...)`` and chosen
automatically under a hardware-feature deny list (conftest's ``driver``
fixture opens handles with ``cipher_open`` only, so this file has its own
``adi`` fixture built the same way; the ids are the same).  Every other
combination of the parts is reached through
``gcrylike.ciphers.adiantum.token`` and a private ``TweakableHandle``.
Parts or drivers that cannot run here, or that this build does not contain
(``GCRYLIKE_NO_ASM``), are skipped with the reason.  Randomness comes from
``random.Random`` with a fixed seed per test (never per driver).
"""

from __future__ import annotations

import array
import itertools
import json
import random
import struct
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from checks import (
    bad_length_keys,
    check_each_refused,
    check_implementations_listing,
    check_setkey_refused,
    refused,
)
from conftest import DriverCase, drivers, on_route, skip_unless_available
from Crypto.Cipher import ChaCha20 as PyCryptodomeChaCha20
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from reference import M32, M128, SIGMA, chacha_permute, hchacha, nh, poly1305_bare

import gcrylike

SEED = 0xAD1A7
VARIANTS = ("xchacha12", "xchacha20")
ROUNDS = {"xchacha12": 12, "xchacha20": 20}
SPEC_NAME = {"xchacha12": "ADIANTUM(XCHACHA12,AES)", "xchacha20": "ADIANTUM(XCHACHA20,AES)"}
VARIANT_OF = {name: variant for variant, name in SPEC_NAME.items()}
#: every build's tiers, best first (one architecture's at a time)
TIERS = ("amd64-avx512-aesni", "amd64-avx512", "amd64-avx2-aesni", "amd64-avx2",
         "amd64-sse2-aesni", "amd64-sse2", "aarch64-neon-ce", "aarch64-neon", "generic-aesni",
         "generic-ce", "generic")
BLOCK = 16
MAX_TWEAK = 32

VECTORS = Path(__file__).resolve().parent / "vectors" / "adiantum"
H = bytes.fromhex


def rng_for(*tags: object) -> random.Random:
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


# ---------------------------------------------------------------------------
# Reference parts: XChaCha, bare Poly1305, NH / NHPoly1305, AES
# ---------------------------------------------------------------------------

def ref_xchacha_stream(key: bytes, nonce: bytes, n: int, rounds: int) -> bytes:
    """``n`` bytes of XChaCha keystream from block 0."""
    if rounds == 20:  # an outside implementation (32-bit counter: enough here)
        return PyCryptodomeChaCha20.new(key=key, nonce=nonce).encrypt(bytes(n))
    return pure_xchacha_stream(key, nonce, n, rounds)


def pure_xchacha_stream(key: bytes, nonce: bytes, n: int, rounds: int) -> bytes:
    """The same in pure Python, any round count: HChaCha subkey of the
    nonce's first 16 bytes, then ChaCha with a 64-bit block counter and the
    nonce's last 8 bytes."""
    assert len(key) == 32 and len(nonce) == 24
    subkey = struct.unpack("<8I", hchacha(key, nonce[:16], rounds))
    tail = struct.unpack("<2I", nonce[16:])
    blocks = []
    for i in range(-(-n // 64)):
        state = [*SIGMA, *subkey, i & M32, i >> 32, *tail]
        out = chacha_permute(state, rounds)
        blocks.append(struct.pack("<16I", *((a + b) & M32 for a, b in
                                            zip(out, state, strict=True))))
    return b"".join(blocks)[:n]


def ref_nhpoly1305(key: bytes, msg: bytes) -> int:
    """16-byte r || 1072-byte NH key; the message zero-padded to 16 bytes."""
    words = struct.unpack("<268I", key[16:])
    padded = bytes(msg) + bytes(-len(msg) % 16)
    hashes = b"".join(nh(words, padded[i:i + 1024]) for i in range(0, len(padded), 1024))
    return poly1305_bare(key[:16], hashes)


@dataclass(frozen=True)
class SubKeys:
    aes: bytes
    tweak_r: bytes
    hash_key: bytes  # K_L || K_N


@cache
def ref_subkeys(key: bytes, rounds: int) -> SubKeys:
    d = ref_xchacha_stream(key, b"\x01" + bytes(23), 32 + 16 + 16 + 1072, rounds)
    return SubKeys(d[:32], d[32:48], d[48:])


def _le(b: bytes) -> int:
    return int.from_bytes(b, "little")


def _bytes16(v: int) -> bytes:
    return (v & M128).to_bytes(16, "little")


def _xor(a: bytes, b: bytes) -> bytes:
    return (_le(a) ^ _le(b)).to_bytes(len(a), "little") if a else b""


def ref_crypt(key: bytes, tweak: bytes, data: bytes, rounds: int, encrypting: bool) -> bytes:
    assert len(data) >= 16 and len(tweak) <= 32
    data, tweak = bytes(data), bytes(tweak)
    k = ref_subkeys(bytes(key), rounds)
    left, right = data[:-16], data[-16:]
    h_t = poly1305_bare(k.tweak_r, struct.pack("<QQ", 8 * len(left), 0) + tweak)

    def full_hash(x: bytes) -> int:
        return h_t + ref_nhpoly1305(k.hash_key, x)

    aes = Cipher(algorithms.AES(k.aes), modes.ECB())
    mid = _bytes16(_le(right) + full_hash(left))         # P_M, or C_M when decrypting
    if encrypting:
        mid_out = aes.encryptor().update(mid)            # C_M
        nonce = mid_out + b"\x01" + bytes(7)
    else:
        mid_out = aes.decryptor().update(mid)            # P_M
        nonce = mid + b"\x01" + bytes(7)
    out_left = _xor(left, ref_xchacha_stream(bytes(key), nonce, len(left), rounds))
    return out_left + _bytes16(_le(mid_out) - full_hash(out_left))


@cache
def ref_encrypt(key: bytes, tweak: bytes, data: bytes, rounds: int) -> bytes:
    return ref_crypt(key, tweak, data, rounds, True)


def plain64(sector: int) -> bytes:
    """dm-crypt's plain64 IV as an Adiantum tweak: le64(sector) || 0^24."""
    return sector.to_bytes(8, "little") + bytes(24)


# ---------------------------------------------------------------------------
# The published vectors
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Vector:
    name: str
    key: bytes
    tweak: bytes
    plaintext: bytes
    ciphertext: bytes


def _load(variant: str) -> list[Vector]:
    rounds = ROUNDS[variant]
    with open(VECTORS / f"Adiantum_XChaCha{rounds}_32_AES256.json", encoding="utf-8") as f:
        data = json.load(f)
    out = []
    for i, v in enumerate(data):
        assert v["cipher"]["cipher"] == "Adiantum"
        assert v["cipher"]["streamcipher"]["rounds"] == rounds
        out.append(Vector(f"{variant}#{i}", H(v["input"]["key_hex"]), H(v["input"]["tweak_hex"]),
                          H(v["plaintext_hex"]), H(v["ciphertext_hex"])))
    return out


ALL_VECTORS = {v: _load(v) for v in VARIANTS}


# ---------------------------------------------------------------------------
# Drivers: every registered implementation, forced (impl=) and chosen
# ---------------------------------------------------------------------------

class AdiDriver:
    """What the ``adi`` fixture hands a test: handles on one driver."""

    def __init__(self, case: DriverCase) -> None:
        self.case = case
        self.name = case.driver
        self.variant = VARIANT_OF[case.algorithm]
        self.algo = case.algorithm
        self.rounds = ROUNDS[self.variant]

    def _impl(self) -> str | None:
        return self.name if self.case.route == "impl" else None

    def _check(self, h: gcrylike.TweakableHandle, how: str) -> None:
        if h.info.driver != self.name:
            got = h.info.driver
            h.close()
            raise AssertionError(f"{how} chose {got}, expected {self.name} (route "
                                 f"{self.case.id}, active {sorted(gcrylike.hw_features())})")

    def open(self) -> gcrylike.TweakableHandle:
        h = gcrylike.tweakable_open(self.algo, impl=self._impl())
        self._check(h, f"tweakable_open({self.algo!r})")
        return h

    def keyed(self, key: object) -> gcrylike.TweakableHandle:
        h = self.open()
        h.setkey(key)
        self._check(h, "setkey")
        return h

    def adiantum(self, key: object) -> gcrylike.Adiantum:
        h = gcrylike.Adiantum(key, self.variant, impl=self._impl())
        self._check(h, f"Adiantum(key, {self.variant!r})")
        return h

    def ref(self, key: bytes, tweak: bytes, data: bytes) -> bytes:
        return ref_encrypt(bytes(key), bytes(tweak), bytes(data), self.rounds)

    def __repr__(self) -> str:
        return f"<AdiDriver {self.case.id}>"


@pytest.fixture
def adi(request: pytest.FixtureRequest) -> Iterator[AdiDriver]:
    """One Adiantum driver; the deny list is restored afterwards."""
    yield from on_route(request.param, AdiDriver)


EVERY_DRIVER = pytest.mark.parametrize(
    "adi", [p for v in VARIANTS
            for p in drivers(SPEC_NAME[v], known=[f"adiantum-{v}-{tier}" for tier in TIERS])],
    indirect=True)


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------




# ---------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------

def test_vector_files():
    for variant, vecs in ALL_VECTORS.items():
        assert len(vecs) == 180, variant
        assert {len(v.key) for v in vecs} == {32}
        assert sorted({len(v.tweak) for v in vecs}) == [0, 17, 32]
        assert sorted({len(v.plaintext) for v in vecs}) == [16, 31, 128, 512, 1536, 4096]
        assert all(len(v.plaintext) == len(v.ciphertext) for v in vecs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_matches_vectors(variant):
    rounds = ROUNDS[variant]
    for v in ALL_VECTORS[variant]:
        assert ref_crypt(v.key, v.tweak, v.plaintext, rounds, True) == v.ciphertext, v.name
        assert ref_crypt(v.key, v.tweak, v.ciphertext, rounds, False) == v.plaintext, v.name


def test_reference_parts():
    """The pure-Python XChaCha at 20 rounds equals pycryptodome's XChaCha20
    (so the 12-round one differs only in the round count), the bare Poly1305 plus s
    is RFC 8439 Poly1305 (cryptography), and the reference inverts itself
    on lengths the vectors lack."""
    from cryptography.hazmat.primitives.poly1305 import Poly1305

    rng = rng_for("parts")
    for n in (1, 64, 300, 1136):
        key, nonce = rng.randbytes(32), rng.randbytes(24)
        want = PyCryptodomeChaCha20.new(key=key, nonce=nonce).encrypt(bytes(n))
        assert pure_xchacha_stream(key, nonce, n, 20) == want
    for n in (0, 5, 16, 33):
        r, s, m = rng.randbytes(16), rng.randbytes(16), rng.randbytes(n)
        tag = Poly1305.generate_tag(r + s, m)
        assert _bytes16(poly1305_bare(r, m) + _le(s)) == tag
    for n in (16, 17, 47, 1040, 1041, 2100):
        for rounds in (12, 20):
            k, t, p = rng.randbytes(32), rng.randbytes(rng.randrange(33)), rng.randbytes(n)
            c = ref_crypt(k, t, p, rounds, True)
            assert ref_crypt(k, t, c, rounds, False) == p


# ---------------------------------------------------------------------------
# Lookup, listing, the variant argument, routing
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,canonical", [
    ("adiantum", "ADIANTUM(XCHACHA12,AES)"),
    ("Adiantum", "ADIANTUM(XCHACHA12,AES)"),
    ("adiantum(xchacha12,aes)", "ADIANTUM(XCHACHA12,AES)"),
    ("ADIANTUM(XCHACHA12,AES)", "ADIANTUM(XCHACHA12,AES)"),
    ("adiantum-xchacha12", "ADIANTUM(XCHACHA12,AES)"),
    (1301, "ADIANTUM(XCHACHA12,AES)"),
    ("adiantum(xchacha20,aes)", "ADIANTUM(XCHACHA20,AES)"),
    ("adiantum-xchacha20", "ADIANTUM(XCHACHA20,AES)"),
    (1302, "ADIANTUM(XCHACHA20,AES)"),
])
def test_lookup(name, canonical):
    assert canonical in gcrylike.algorithms()
    best = next(i.driver for i in gcrylike.implementations(name) if i.available)
    with gcrylike.tweakable_open(name) as h:
        assert h.info == gcrylike.TweakableInfo(canonical, best, 16, 32)


@pytest.mark.parametrize("name", ["adiantum", "adiantum(xchacha12,aes)", "adiantum-xchacha20",
                                  1301, 1302])
def test_not_a_cipher_or_mac(name):
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open(name)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open(name, mode="poly1305")
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.mac_open(name)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.mac(name, bytes(32), b"")
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.block_cipher_open(name)


@pytest.mark.parametrize("name", ["adiantum(xchacha8,aes)", "adiantum(xchacha12,aes128)",
                                  "hpolyc", "adiantum-xchacha", "aes256", "nhpoly1305"])
def test_unknown_tweakable(name):
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.tweakable_open(name)


@pytest.mark.parametrize("variant", VARIANTS)
def test_implementations_listing(variant):
    by_name = check_implementations_listing(SPEC_NAME[variant],
                                            [f"adiantum-{variant}-{t}" for t in TIERS],
                                            f"adiantum-{variant}-generic")
    for i in by_name.values():
        assert ("aesni" in i.features) == i.driver.endswith("-aesni"), i.driver
        # the AVX-512 tier: the AVX-512 XChaCha and NH beside the AVX2 Poly1305
        assert ("avx512f" in i.features) == ("-avx512" in i.driver), i.driver
        assert ("avx512vl" in i.features) == ("-avx512" in i.driver), i.driver
        assert "avx512ifma" not in i.features, i.driver
        # SSSE3 is the SSSE3/AVX2 ChaCha's need; the AVX-512 ChaCha has none
        assert ("ssse3" in i.features) == ("-sse2" in i.driver or "-avx2" in i.driver), i.driver
        assert ("avx2" in i.features) == ("-avx2" in i.driver or "-avx512" in i.driver), i.driver


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("impl", ["chacha20-generic", "aes256-generic", "nhpoly1305-generic",
                                  "adiantum-generic", "", "adiantum-{other}-generic",
                                  "adiantum-{same}-amd64-avx1024"])
def test_unknown_impl(variant, impl):
    other = "xchacha20" if variant == "xchacha12" else "xchacha12"
    impl = impl.format(other=other, same=variant)
    with refused(gcrylike.UnknownName):
        gcrylike.tweakable_open(SPEC_NAME[variant], impl=impl)
    with refused(gcrylike.UnknownName):
        gcrylike.Adiantum(bytes(32), variant, impl=impl)


def test_variant_argument():
    rng = rng_for("variant")
    key, tweak, msg = rng.randbytes(32), rng.randbytes(32), rng.randbytes(100)
    with gcrylike.Adiantum(key) as a:
        assert a.info.algorithm == "ADIANTUM(XCHACHA12,AES)"
        assert a.encrypt(msg, tweak) == ref_encrypt(key, tweak, msg, 12)
    for variant in VARIANTS:
        with gcrylike.Adiantum(key, variant) as a, \
                gcrylike.Adiantum(key, variant=variant) as b, \
                gcrylike.tweakable_open(SPEC_NAME[variant]) as c:
            c.setkey(key)
            assert isinstance(a, gcrylike.TweakableHandle)
            assert a.info.algorithm == SPEC_NAME[variant]
            want = ref_encrypt(key, tweak, msg, ROUNDS[variant])
            assert a.encrypt(msg, tweak) == b.encrypt(msg, tweak) == c.encrypt(msg, tweak) == want
    for bad in ("XChaCha12", "XCHACHA20", "chacha12", "xchacha8", "adiantum", "", " xchacha12",
                None, 12, b"xchacha12", ["xchacha12"]):
        try:
            with refused(gcrylike.InvalidArgument):
                gcrylike.Adiantum(key, bad)
        except AssertionError as e:
            raise AssertionError(f"variant {bad!r}: {e}") from None


def _check_chosen(variant: str, expected: str) -> None:
    vecs = ALL_VECTORS[variant][::23]
    with gcrylike.tweakable_open(SPEC_NAME[variant]) as h:
        assert h.info.driver == expected
        for v in vecs:
            h.setkey(v.key)
            assert h.info.driver == expected
            assert h.encrypt(v.plaintext, v.tweak) == v.ciphertext
            assert h.decrypt(v.ciphertext, v.tweak) == v.plaintext
    with gcrylike.Adiantum(vecs[0].key, variant) as a:
        assert a.info.driver == expected


@pytest.mark.parametrize("feature", ["avx512f", "avx512vl"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_deny_avx512_chooses_avx2(variant, feature, hwf_deny):
    """Without AVX512F (NH, ChaCha) or AVX512VL (the AVX-512 ChaCha's ymm and
    xmm routines) the AVX-512 tier steps back to the AVX2 one."""
    skip_unless_available(SPEC_NAME[variant], f"adiantum-{variant}-amd64-avx512",
                          f"adiantum-{variant}-amd64-avx2")
    previous = hwf_deny(())
    hwf_deny(previous | {feature})
    aesni = "aesni" in gcrylike.hw_features()
    _check_chosen(variant, f"adiantum-{variant}-amd64-avx2" + ("-aesni" if aesni else ""))
    for tier in ("amd64-avx512", "amd64-avx512-aesni"):
        with refused(gcrylike.NotSupported):
            gcrylike.tweakable_open(SPEC_NAME[variant], impl=f"adiantum-{variant}-{tier}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_deny_ssse3_keeps_avx512(variant, hwf_deny):
    """The AVX-512 tier runs the AVX-512 XChaCha, which needs no SSSE3:
    denying SSSE3 alone leaves it chosen (and the SSSE3 and AVX2 tiers out)."""
    skip_unless_available(SPEC_NAME[variant], f"adiantum-{variant}-amd64-avx512")
    previous = hwf_deny(())
    hwf_deny(previous | {"ssse3"})
    aesni = "aesni" in gcrylike.hw_features()
    _check_chosen(variant, f"adiantum-{variant}-amd64-avx512" + ("-aesni" if aesni else ""))
    for tier in ("amd64-avx2", "amd64-sse2"):
        with refused(gcrylike.NotSupported):
            gcrylike.tweakable_open(SPEC_NAME[variant], impl=f"adiantum-{variant}-{tier}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_deny_avx2_chooses_sse2(variant, hwf_deny):
    skip_unless_available(SPEC_NAME[variant], f"adiantum-{variant}-amd64-avx2",
                          f"adiantum-{variant}-amd64-sse2")
    previous = hwf_deny("avx2")
    hwf_deny(previous | {"avx2"})
    aesni = "aesni" in gcrylike.hw_features()
    _check_chosen(variant, f"adiantum-{variant}-amd64-sse2" + ("-aesni" if aesni else ""))
    for tier in ("amd64-avx2", "amd64-avx2-aesni", "amd64-avx512", "amd64-avx512-aesni"):
        with refused(gcrylike.NotSupported):
            gcrylike.tweakable_open(SPEC_NAME[variant], impl=f"adiantum-{variant}-{tier}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_deny_aesni_chooses_a_non_aesni_driver(variant, hwf_deny):
    skip_unless_available(SPEC_NAME[variant], f"adiantum-{variant}-generic-aesni")
    previous = hwf_deny("aesni")
    hwf_deny(previous | {"aesni"})
    best = next(i.driver for i in gcrylike.implementations(SPEC_NAME[variant]) if i.available)
    assert not best.endswith("-aesni")
    _check_chosen(variant, best)
    for tier in TIERS:
        if tier.endswith("-aesni"):
            with refused(gcrylike.NotSupported):
                gcrylike.tweakable_open(SPEC_NAME[variant], impl=f"adiantum-{variant}-{tier}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_deny_everything_chooses_generic(variant, hwf_deny):
    hwf_deny("all")
    _check_chosen(variant, f"adiantum-{variant}-generic")


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_selftest_passed_after_use(adi):
    with adi.keyed(bytes(32)) as h:
        h.encrypt(bytes(16), b"t")
    status = {i.driver: i.selftest for i in gcrylike.implementations(adi.algo)}
    assert status[adi.name] == "passed"


@EVERY_DRIVER
def test_vectors(adi):
    vecs = ALL_VECTORS[adi.variant]
    with adi.open() as h:
        for v in vecs:
            h.setkey(v.key)
            assert h.encrypt(v.plaintext, v.tweak) == v.ciphertext, v.name
            assert h.decrypt(v.ciphertext, v.tweak) == v.plaintext, v.name
    # the same through the Adiantum class, with other buffer types and in place
    for v in vecs[::7]:
        with adi.adiantum(v.key) as a:
            buf = bytearray(v.plaintext)
            assert a.encrypt(buf, bytearray(v.tweak), out=buf) == len(buf)
            assert buf == v.ciphertext, v.name
            assert a.decrypt(memoryview(buf), memoryview(v.tweak)) == v.plaintext, v.name


# ---------------------------------------------------------------------------
# Every combination of the parts
# ---------------------------------------------------------------------------

def _part_rows() -> tuple[tuple, ...]:
    """Each part's driver rows as its own module compiled them (a row not
    compiled in is not there: GCRYLIKE_NO_ASM, not x86-64)."""
    from gcrylike.ciphers.aes import DRIVERS as AES
    from gcrylike.ciphers.chacha import DRIVERS as CHACHA
    from gcrylike.ciphers.nhpoly1305 import NH_DRIVERS as NH
    from gcrylike.ciphers.poly1305 import DRIVERS as POLY
    return CHACHA, NH, POLY, AES


COMBINATIONS = list(itertools.product(*_part_rows()))


def _combination_param(combo):
    chacha, nh, poly, aes = combo
    cid = f"chacha-{chacha.suffix}/nh-{nh.suffix}/poly-{poly.suffix}/aes-{aes.suffix}"
    needs = frozenset().union(*(part.features for part in combo))
    lacking = needs - gcrylike.hw_features()
    marks = [pytest.mark.skip(reason=f"{cid}: CPU lacks or denies {', '.join(sorted(lacking))}")
             ] if lacking else []
    return pytest.param(combo, id=cid, marks=marks)


def _case_pool(variant: str) -> list[tuple[bytes, bytes, bytes]]:
    """Random (key, tweak, plaintext) cases shared by every combination."""
    rng = rng_for("pool", variant)
    lengths = [16, 17, 31, 32, 33, 1023 + 16, 1024 + 16, 1025 + 16, 2048 + 16, 8192]
    lengths += [rng.randrange(16, 8193) for _ in range(10)]
    return [(rng.randbytes(32), rng.randbytes(rng.randrange(MAX_TWEAK + 1)), rng.randbytes(n))
            for n in lengths]


CASE_POOL = {v: _case_pool(v) for v in VARIANTS}


@pytest.mark.parametrize("combo", [_combination_param(c) for c in COMBINATIONS])
def test_every_combination(combo):
    """Each combination of ChaCha x NH x Poly1305 x AES implementations gives
    the reference's bytes on a sample of the shared random cases (so they
    all agree with each other), decrypts, and does sectors."""
    from gcrylike._registry import lookup
    from gcrylike._tweakable import TweakableHandle
    names = [part.suffix for part in combo]
    impl = gcrylike.Implementation("adiantum-test-" + "-".join(names), 1,
                                   token=tuple(part.token for part in combo))
    rng = rng_for("combination", *names)
    for variant in VARIANTS:
        rounds = ROUNDS[variant]
        pool = CASE_POOL[variant]
        sample = [pool[0], pool[4]] + rng.sample(pool, 4)  # 16 bytes and 1039, then random
        with TweakableHandle(lookup(SPEC_NAME[variant], "tweakable"), impl, False,
                             _selftesting=True) as h:
            for key, tweak, pt in sample:
                h.setkey(key)
                ct = ref_encrypt(key, tweak, pt, rounds)
                assert h.encrypt(pt, tweak) == ct, (variant, len(pt), len(tweak))
                assert h.decrypt(ct, tweak) == pt, (variant, len(pt), len(tweak))
            v = ALL_VECTORS[variant][rng.randrange(180)]
            h.setkey(v.key)
            assert h.encrypt(v.plaintext, v.tweak) == v.ciphertext, v.name
            first = (1 << 64) - 2
            key, _, pt = pool[9]  # 8192 bytes
            h.setkey(key)
            buf = bytearray(pt[:1040 * 2])
            h.encrypt_sectors(buf, first, 1040)
            assert buf == b"".join(ref_encrypt(key, plain64(first + i), pt[1040 * i:1040 * (i + 1)],
                                               rounds) for i in range(2))


# ---------------------------------------------------------------------------
# Random lengths and tweaks, buffers, in place
# ---------------------------------------------------------------------------

@cache
def _random_cases(variant: str) -> list[tuple[bytes, bytes, bytes]]:
    rng = rng_for("random", variant)
    return [(rng.randbytes(32), rng.randbytes(rng.randrange(MAX_TWEAK + 1)),
             rng.randbytes(rng.randrange(16, 8193))) for _ in range(60)]


@EVERY_DRIVER
def test_round_trips_random_lengths_and_tweaks(adi):
    cases = _random_cases(adi.variant)
    with adi.open() as h:
        for i, (key, tweak, pt) in enumerate(cases):
            h.setkey(key)
            ct = h.encrypt(pt, tweak)
            assert type(ct) is bytes and len(ct) == len(pt)
            assert ct != pt
            assert h.decrypt(ct, tweak) == pt, (len(pt), len(tweak))
            if i < 6:  # the reference is slow: a few of them, the same for every driver
                assert ct == adi.ref(key, tweak, pt), (len(pt), len(tweak))
            # the tweak matters, and so does its length
            other = tweak[:-1] if tweak else b"\x00"
            assert h.decrypt(ct, other) != pt


# NHPoly1305 absorbs its NH outputs 16 chunks (16 KiB) at a time: lengths
# around one and two such batches, whole and partial last chunks
BATCH_EDGE_LENGTHS = (16384, 16384 + 16, 16384 + 17, 16384 + 1024 + 16, 32768 + 16 + 5)


@cache
def _batch_edge_cases(variant: str) -> list[tuple[bytes, bytes, bytes]]:
    rng = rng_for("batch-edges", variant)
    return [(rng.randbytes(32), rng.randbytes(32), rng.randbytes(n)) for n in BATCH_EDGE_LENGTHS]


@EVERY_DRIVER
def test_lengths_around_the_nh_batch(adi):
    with adi.open() as h:
        for key, tweak, pt in _batch_edge_cases(adi.variant):
            h.setkey(key)
            ct = h.encrypt(pt, tweak)
            assert ct == adi.ref(key, tweak, pt), len(pt)
            assert h.decrypt(ct, tweak) == pt, len(pt)
            # the sector call of the same size, two sectors, in place
            buf = bytearray(pt + pt[::-1])
            h.encrypt_sectors(buf, 9, len(pt))
            assert buf == h.encrypt(pt, plain64(9)) + h.encrypt(pt[::-1], plain64(10))
            h.decrypt_sectors(buf, 9, len(pt))
            assert buf == pt + pt[::-1]


@EVERY_DRIVER
def test_every_short_length_and_tweak_length(adi):
    rng = rng_for("short", adi.variant)
    key = rng.randbytes(32)
    with adi.keyed(key) as h:
        for n in range(16, 80):
            pt = rng.randbytes(n)
            tweak = rng.randbytes(n % (MAX_TWEAK + 1))
            ct = h.encrypt(pt, tweak)
            assert h.decrypt(ct, tweak) == pt
            if n < 40:
                assert ct == adi.ref(key, tweak, pt), n
        pt = rng.randbytes(100)
        outs = set()
        for tlen in range(MAX_TWEAK + 1):
            tweak = bytes(tlen)
            ct = h.encrypt(pt, tweak)
            outs.add(ct)
            assert h.decrypt(ct, tweak) == pt
        assert len(outs) == MAX_TWEAK + 1, "zero tweaks of different lengths collide"
        # there is no default tweak: forgetting it would encrypt every sector alike
        assert h.encrypt(pt, b"") == adi.ref(key, b"", pt)
        for call in (h.encrypt, h.decrypt):
            with pytest.raises(TypeError, match="tweak"):
                call(pt)
            with pytest.raises(TypeError, match="tweak"):
                call(bytearray(pt), out=bytearray(len(pt)))


@EVERY_DRIVER
def test_buffer_types(adi):
    rng = rng_for("types", adi.variant)
    key, tweak, pt = rng.randbytes(32), rng.randbytes(32), rng.randbytes(1500)
    want = adi.ref(key, tweak, pt)
    datas = {"bytes": pt, "bytearray": bytearray(pt), "memoryview": memoryview(bytearray(pt)),
             "memoryview-ro": memoryview(pt), "array-B": array.array("B", pt),
             "array-I": array.array("I", pt)}
    tweaks = {"bytes": tweak, "bytearray": bytearray(tweak), "memoryview": memoryview(tweak),
              "array": array.array("B", tweak)}
    keys = {"bytes": key, "bytearray": bytearray(key), "memoryview": memoryview(key)}
    with adi.open() as h:
        for kname, k in keys.items():
            h.setkey(k)
            for dname, d in datas.items():
                for tname, t in tweaks.items():
                    assert h.encrypt(d, t) == want, (kname, dname, tname)
                    assert bytes(d) == pt
        assert h.decrypt(bytearray(want), memoryview(tweak)) == pt


@EVERY_DRIVER
def test_in_place_and_out(adi):
    rng = rng_for("in-place", adi.variant)
    key = rng.randbytes(32)
    with adi.keyed(key) as h:
        for n in (16, 17, 100, 1024, 1040, 4096, 5000):
            pt, tweak = rng.randbytes(n), rng.randbytes(rng.randrange(MAX_TWEAK + 1))
            want = h.encrypt(pt, tweak)
            # in place, the whole bytearray
            buf = bytearray(pt)
            assert h.encrypt(buf, tweak, out=buf) == n
            assert buf == want
            assert h.decrypt(buf, tweak, out=buf) == n
            assert buf == pt
            buf.extend(b"x")  # no export left behind
            del buf[-1]
            # in place on an unaligned window of a bigger buffer
            big = bytearray(rng.randbytes(n + 9))
            big[3:3 + n] = pt
            head, tail = bytes(big[:3]), bytes(big[3 + n:])
            view = memoryview(big)[3:3 + n]
            assert h.encrypt(view, bytearray(tweak), out=view) == n
            assert big[3:3 + n] == want and big[:3] == head and big[3 + n:] == tail
            assert h.decrypt(view, tweak, out=view) == n
            assert big[3:3 + n] == pt
            del view
            # into a longer buffer: the rest is left alone
            out = bytearray(b"\x5a" * (n + 20))
            assert h.encrypt(pt, tweak, out=out) == n
            assert out[:n] == want and out[n:] == b"\x5a" * 20
            out2 = bytearray(n + 1)
            assert h.decrypt(memoryview(out)[:n], tweak, out=memoryview(out2)[1:]) == n
            assert out2[1:] == pt
            # too short
            short = bytearray(b"\x77" * (n - 1))
            with refused(gcrylike.InvalidLength):
                h.encrypt(pt, tweak, out=short)
            assert short == b"\x77" * (n - 1)
            # a read-only out
            with refused(gcrylike.ReadOnlyBuffer):
                h.encrypt(pt, tweak, out=bytes(n))


@EVERY_DRIVER
def test_partial_overlap_is_refused(adi):
    rng = rng_for("overlap", adi.variant)
    key, tweak = rng.randbytes(32), rng.randbytes(32)
    with adi.keyed(key) as h:
        buf = bytearray(rng.randbytes(300))
        before = bytes(buf)
        view = memoryview(buf)
        for src, dst in ((view[0:100], view[1:101]), (view[1:101], view[0:100]),
                         (view[0:100], view[99:199]), (view[50:150], view[0:100])):
            for call in (h.encrypt, h.decrypt):
                with refused(gcrylike.InvalidArgument):
                    call(src, tweak, out=dst)
        assert buf == before, "a refused call wrote"
        assert h.encrypt(view[0:100], tweak, out=view[100:200]) == 100
        assert bytes(buf[100:200]) == adi.ref(key, tweak, before[:100])


@EVERY_DRIVER
def test_two_handles_and_rekeying(adi):
    rng = rng_for("rekey", adi.variant)
    k1, k2, tweak, pt = rng.randbytes(32), rng.randbytes(32), rng.randbytes(17), rng.randbytes(600)
    with adi.keyed(k1) as a, adi.keyed(k2) as b:
        ca, cb = a.encrypt(pt, tweak), b.encrypt(pt, tweak)
        assert ca == adi.ref(k1, tweak, pt) and cb == adi.ref(k2, tweak, pt)
        a.setkey(k2)
        assert a.encrypt(pt, tweak) == cb
        assert b.decrypt(ca, tweak) != pt
        for _ in range(100):
            k = rng.randbytes(32)
            a.setkey(k)
            assert a.decrypt(a.encrypt(pt, tweak), tweak) == pt


@EVERY_DRIVER
def test_info(adi):
    with adi.open() as h:
        assert h.info == gcrylike.TweakableInfo(adi.algo, adi.name, 16, 32)
        h.setkey(bytes(32))
        assert h.info == gcrylike.TweakableInfo(adi.algo, adi.name, 16, 32)


# ---------------------------------------------------------------------------
# Sectors
# ---------------------------------------------------------------------------

SECTOR_FIRSTS = (0, 1, 7, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, (1 << 64) - 3)


@EVERY_DRIVER
@pytest.mark.parametrize("sector_size", [16, 512, 1000, 4096])
def test_sectors_match_per_sector_encryption(adi, sector_size):
    rng = rng_for("sectors", adi.variant, sector_size)
    key = rng.randbytes(32)
    with adi.keyed(key) as h:
        # the AVX-512 tier makes XChaCha keys up to sixteen sectors at a time
        # (two to four with HChaCha4): small counts here, every count to 40
        # in test_sector_batches_of_every_count
        for nsectors in (0, 1, 2, 3, 4, 5, 8, 9):
            for first in SECTOR_FIRSTS[:3] if nsectors not in (0, 1, 3) else SECTOR_FIRSTS:
                pt = rng.randbytes(nsectors * sector_size)
                want = b"".join(h.encrypt(pt[i * sector_size:(i + 1) * sector_size],
                                          plain64(first + i)) for i in range(nsectors))
                buf = bytearray(pt)
                assert h.encrypt_sectors(buf, first, sector_size) is None
                assert buf == want, (nsectors, first)
                h.decrypt_sectors(buf, first, sector_size)
                assert buf == pt, (nsectors, first)
                # keywords, a memoryview, an unaligned window
                big = bytearray(len(pt) + 5)
                big[5:] = pt
                h.encrypt_sectors(memoryview(big)[5:], first_sector=first,
                                  sector_size=sector_size)
                assert big[5:] == want
        # the last possible sector, and one reference answer
        last = (1 << 64) - 1
        pt = rng.randbytes(sector_size)
        buf = bytearray(pt)
        h.encrypt_sectors(buf, last, sector_size)
        assert buf == adi.ref(key, plain64(last), pt) == h.encrypt(pt, plain64(last))


@EVERY_DRIVER
def test_sector_batches_of_every_count(adi):
    """Batches of 1 to 40 sectors (groups of sixteen, HChaCha16 and HChaCha4
    groups, the eight-message Poly1305 lanes full and partial), odd and
    large sector sizes (the lanes take up to 4096 + 16 bytes), numbers
    running up to 2^64 - 1: the sector calls' tweak hashes (in closed form
    where the build has 128-bit products), hashes and schedule against one
    message at a time."""
    rng = rng_for("sector-batches", adi.variant)
    key = rng.randbytes(32)
    with adi.keyed(key) as h:
        for sector_size, counts in ((17, range(1, 41)), (512, (1, 7, 8, 9, 16, 17, 33, 40)),
                                    (4096, (7, 16, 20)), (4112, (9, 17)), (4113, (9,)),
                                    (65536, (1, 3))):
            for nsectors in counts:
                first = rng.choice((0, rng.randrange((1 << 64) - nsectors), (1 << 64) - nsectors))
                pt = rng.randbytes(nsectors * sector_size)
                want = b"".join(h.encrypt(pt[i * sector_size:(i + 1) * sector_size],
                                          plain64(first + i)) for i in range(nsectors))
                buf = bytearray(pt)
                h.encrypt_sectors(buf, first, sector_size)
                assert buf == want, (sector_size, nsectors, first)
                h.decrypt_sectors(buf, first, sector_size)
                assert buf == pt, (sector_size, nsectors, first)
        last = (1 << 64) - 1
        pt = rng.randbytes(17)
        assert h.encrypt(pt, plain64(last)) == adi.ref(key, plain64(last), pt)


@EVERY_DRIVER
def test_sectors_default_size_and_many(adi):
    rng = rng_for("sectors-default", adi.variant)
    key = rng.randbytes(32)
    pt = rng.randbytes(4096 * 8)
    with adi.keyed(key) as h:
        buf = bytearray(pt)
        h.encrypt_sectors(buf, 1000)
        for i in range(8):
            assert buf[4096 * i:4096 * (i + 1)] == h.encrypt(pt[4096 * i:4096 * (i + 1)],
                                                             plain64(1000 + i))
        assert buf[:4096] == adi.ref(key, plain64(1000), pt[:4096])
        # sectors are independent: decrypting a sub-range with its numbers works
        part = bytearray(buf[4096 * 3:4096 * 5])
        h.decrypt_sectors(part, 1003)
        assert part == pt[4096 * 3:4096 * 5]
        h.decrypt_sectors(buf, 1000, 4096)
        assert buf == pt
        arr = array.array("B", pt[:4096])
        h.encrypt_sectors(arr, 5)
        assert arr.tobytes() == h.encrypt(pt[:4096], plain64(5))


@EVERY_DRIVER
def test_sector_refusals(adi):
    rng = rng_for("sector-refusals", adi.variant)
    key = rng.randbytes(32)
    with adi.keyed(key) as h:
        for call in (h.encrypt_sectors, h.decrypt_sectors):
            buf = bytearray(rng.randbytes(2048))
            before = bytes(buf)
            # not a whole number of sectors
            for size in (4096, 1000, 3000, 2047, 17):
                with refused(gcrylike.InvalidLength):
                    call(buf, 0, size)
            # sector_size below the minimum
            for size in (15, 8, 1, 0, -16, -4096):
                with refused(gcrylike.InvalidLength):
                    call(buf, 0, size)
            # sector numbers past 2^64 - 1, or negative
            for first, size in (((1 << 64) - 1, 1024), ((1 << 64) - 2, 512), (1 << 64, 2048),
                                (1 << 70, 512), (-1, 512), (-(1 << 64), 2048)):
                with refused(gcrylike.InvalidArgument):
                    call(buf, first, size)
            # types
            for first in (1.0, "0", None, True, b"\x00"):
                with refused(gcrylike.InvalidType):
                    call(buf, first, 512)
            for size in (512.0, "512", None, False):
                with refused(gcrylike.InvalidType):
                    call(buf, 0, size)
            for bad in (bytes(2048), memoryview(bytes(2048))):
                with refused(gcrylike.ReadOnlyBuffer):
                    call(bad, 0, 512)
            for bad in ("x" * 2048, None, 2048):
                with refused(gcrylike.InvalidType):
                    call(bad, 0, 512)
            assert buf == before, "a refused call wrote"
        # an empty batch is fine anywhere in range
        h.encrypt_sectors(bytearray(), (1 << 64) - 1, 512)
        h.encrypt_sectors(bytearray(), 0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_empty_batch_past_the_last_sector(variant):
    """A first sector of 2^64 or more does not fit in 64 bits even when the
    batch is empty: InvalidArgument, like a non-empty batch (not the
    OverflowError of the native call's uint64_t argument)."""
    with gcrylike.Adiantum(bytes(32), variant) as h:
        for first in (1 << 64, (1 << 64) + 5, 1 << 80):
            for call in (h.encrypt_sectors, h.decrypt_sectors):
                with refused(gcrylike.InvalidArgument):
                    call(bytearray(), first, 512)


@pytest.mark.parametrize("variant", VARIANTS)
def test_sectors_from_threads(variant):
    """Sector batches run without the GIL: handles used from several threads
    at once give what one thread gives."""
    rng = rng_for("threads", variant)
    key = rng.randbytes(32)
    bufs = [rng.randbytes(4096 * 64) for _ in range(4)]
    with gcrylike.Adiantum(key, variant) as h:
        want = []
        for i, b in enumerate(bufs):
            w = bytearray(b)
            h.encrypt_sectors(w, 64 * i)
            want.append(bytes(w))

    def work(i: int) -> bytes:
        with gcrylike.Adiantum(key, variant) as a:
            out = bytearray(bufs[i])
            for _ in range(3):
                a.encrypt_sectors(out, 64 * i)
                a.decrypt_sectors(out, 64 * i)
            a.encrypt_sectors(out, 64 * i)
            return bytes(out)

    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(work, range(4)))
    assert got == want


# ---------------------------------------------------------------------------
# Strong pseudorandom permutation: one flipped bit changes everything
# ---------------------------------------------------------------------------

def _flip(data: bytes, bit: int) -> bytes:
    b = bytearray(data)
    b[bit // 8] ^= 1 << (bit % 8)
    return bytes(b)


def _pieces(data: bytes) -> list[bytes]:
    return [data[i:i + 16] for i in range(0, len(data), 16)]


def _bit_positions(n: int, rng: random.Random) -> list[int]:
    """First byte, the last byte of the XChaCha part, the 16 bytes that go
    through AES (first, middle, last byte), and random bits elsewhere."""
    nbits = 8 * n
    fixed = [0, 7, 8, 8 * (n - 17), 8 * (n - 17) + 7, 8 * (n - 16), 8 * (n - 16) + 3,
             8 * (n - 8) + 5, nbits - 8, nbits - 1]
    return sorted({b for b in fixed if 0 <= b < nbits} | {rng.randrange(nbits) for _ in range(8)})


@EVERY_DRIVER
def test_sprp_single_bit_flips(adi):
    """Flipping one bit of the ciphertext or of the tweak changes the whole
    decryption: every 16-byte block (and the trailing piece) differs from the
    original plaintext, and about half of all bits flip; the same for one
    plaintext bit and the encryption."""
    rng = rng_for("sprp", adi.variant)
    flipped = total = 0
    with adi.open() as h:
        for n in (4096, 512, 1000, 31, 16):
            key, tweak, pt = rng.randbytes(32), rng.randbytes(32), rng.randbytes(n)
            h.setkey(key)
            ct = h.encrypt(pt, tweak)
            trials = []
            for bit in _bit_positions(n, rng):
                trials.append(("ciphertext", bit, h.decrypt(_flip(ct, bit), tweak), pt))
                trials.append(("plaintext", bit, h.encrypt(_flip(pt, bit), tweak), ct))
            for bit in (0, 1, 7, 8, 63, 64, 128, 200, 255):
                trials.append(("tweak", bit, h.decrypt(ct, _flip(tweak, bit)), pt))
            trials.append(("tweak-shorter", 0, h.decrypt(ct, tweak[:-1]), pt))
            for what, bit, got, orig in trials:
                assert len(got) == n
                for i, (a, b) in enumerate(zip(_pieces(got), _pieces(orig), strict=True)):
                    assert a != b, f"{n}-byte message, {what} bit {bit}: block {i} unchanged"
                d = (_le(got) ^ _le(orig)).bit_count()
                if n >= 512:
                    assert 0.45 < d / (8 * n) < 0.55, (n, what, bit, d)
                flipped += d
                total += 8 * n
    assert 0.49 < flipped / total < 0.51, flipped / total


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------

@EVERY_DRIVER
@pytest.mark.parametrize("keylen", [0, 1, 16, 24, 31, 33, 64])
def test_bad_key_length(adi, keylen):
    rng = rng_for("bad-key", adi.variant)
    key, pt = rng.randbytes(32), rng.randbytes(64)
    with adi.open() as h:
        check_setkey_refused(h, bad_length_keys(keylen), gcrylike.InvalidKeyLength,
                             lambda: h.encrypt(pt, b""))
        h.setkey(key)
        with refused(gcrylike.InvalidKeyLength):
            h.setkey(rng.randbytes(keylen))
        assert h.encrypt(pt, b"") == adi.ref(key, b"", pt)  # the old key stays
    with refused(gcrylike.InvalidKeyLength):
        adi.adiantum(bytes(keylen))


@EVERY_DRIVER
@pytest.mark.parametrize("n", [0, 1, 8, 15])
def test_message_too_short(adi, n):
    with adi.keyed(bytes(32)) as h:
        for tweak in (b"", bytes(17), bytearray(32), bytes(40)):
            for data in (bytes(n), bytearray(n), memoryview(bytes(n))):
                for call in (h.encrypt, h.decrypt):
                    with refused(gcrylike.InvalidLength):
                        call(data, tweak)
            buf = bytearray(b"\x99" * n)
            with refused(gcrylike.InvalidLength):
                h.encrypt(buf, tweak, out=buf)
            out = bytearray(b"\x99" * 32)
            with refused(gcrylike.InvalidLength):
                h.encrypt(bytes(n), tweak, out=out)
            assert buf == b"\x99" * n and out == b"\x99" * 32


@EVERY_DRIVER
@pytest.mark.parametrize("tlen", [33, 34, 48, 64, 1000])
def test_tweak_too_long(adi, tlen):
    rng = rng_for("long-tweak")
    pt = rng.randbytes(100)
    with adi.keyed(bytes(32)) as h:
        for tweak in (bytes(tlen), bytearray(tlen), memoryview(bytes(tlen))):
            for call in (h.encrypt, h.decrypt):
                with refused(gcrylike.InvalidIVLength):
                    call(pt, tweak)
            buf = bytearray(pt)
            with refused(gcrylike.InvalidIVLength):
                h.encrypt(buf, tweak, out=buf)
            assert buf == pt, "a refused call wrote"
        assert h.encrypt(pt, bytes(32)) == adi.ref(bytes(32), bytes(32), pt)


BAD_VALUES = {"a str": "x" * 32, "None": None, "an int": 32, "a float": 1.5,
              "a list": [0] * 32}


@EVERY_DRIVER
@pytest.mark.parametrize("bad", list(BAD_VALUES))
def test_wrong_types(adi, bad):
    value = BAD_VALUES[bad]
    rng = rng_for("wrong-types")
    key, tweak, pt = rng.randbytes(32), rng.randbytes(8), rng.randbytes(48)
    with adi.open() as h:
        check_setkey_refused(h, [value], gcrylike.InvalidType, lambda: h.encrypt(pt, b""))
        h.setkey(key)
        for call in (h.encrypt, h.decrypt):
            with refused(gcrylike.InvalidType):
                call(value, tweak)
            with refused(gcrylike.InvalidType):
                call(pt, value)
            if value is not None:  # out=None means "return bytes"
                with refused(gcrylike.InvalidType):
                    call(pt, tweak, out=value)
        assert h.encrypt(pt, tweak) == adi.ref(key, tweak, pt)
    with refused(gcrylike.InvalidType):
        adi.adiantum(value)


@EVERY_DRIVER
def test_missing_key(adi):
    with adi.open() as h:
        buf = bytearray(64)
        for call in (lambda: h.encrypt(bytes(16), b"t"), lambda: h.decrypt(bytes(16), b"t"),
                     lambda: h.encrypt(buf, b"t", out=buf), lambda: h.encrypt(b"", b"t"),
                     lambda: h.encrypt_sectors(buf, 0, 16), lambda: h.decrypt_sectors(buf, 0, 32)):
            with refused(gcrylike.MissingKey):
                call()
        assert buf == bytes(64)


def _assert_closed(h: gcrylike.TweakableHandle, key: bytes) -> None:
    buf = bytearray(64)
    calls = {
        "setkey": lambda: h.setkey(key), "setkey-badlen": lambda: h.setkey(b""),
        "encrypt": lambda: h.encrypt(bytes(16), b"t"),
        "encrypt-tweak": lambda: h.encrypt(bytes(16), bytes(32)),
        "decrypt": lambda: h.decrypt(bytes(32), b"x"),
        "in-place": lambda: h.encrypt(buf, b"t", out=buf),
        "bytearray": lambda: h.decrypt(bytearray(16), bytearray(3)),
        "too-short": lambda: h.encrypt(bytes(3), b"t"),
        "encrypt_sectors": lambda: h.encrypt_sectors(buf, 0, 16),
        "decrypt_sectors": lambda: h.decrypt_sectors(buf, 0, 32),
    }
    check_each_refused(gcrylike.HandleClosed, calls)
    assert buf == bytes(64)


@EVERY_DRIVER
def test_closed_handle(adi):
    key = rng_for("closed").randbytes(32)
    for h in (adi.keyed(key), adi.adiantum(key)):
        h.encrypt(bytes(16), b"t")
        h.close()
        _assert_closed(h, key)
        h.close()  # idempotent


@EVERY_DRIVER
def test_context_manager_closes(adi):
    with adi.keyed(bytes(32)) as h:
        h.encrypt(bytes(16), b"t")
    with refused(gcrylike.HandleClosed):
        h.encrypt(bytes(16), b"t")
    with pytest.raises(KeyError):
        with adi.adiantum(bytes(32)) as a:
            raise KeyError("boom")
    with refused(gcrylike.HandleClosed):
        a.encrypt(bytes(16), b"t")
