"""AES-256 as a raw block cipher (``block_cipher_open("aes256")``) on every
implementation.

Independent answers only:

* FIPS-197 Appendix C.3 (the AES-256 example vector) and Appendix A.3 (the
  AES-256 key expansion of key 603deb10...): the published expanded key
  words are transcribed here; since the library does not expose its key
  schedule, A.3 is tested through encryption: a small pure-Python AES
  written here from FIPS-197 sections 5.1-5.3, fed the *published* round
  keys, must encrypt and decrypt exactly like the library under that key
  (and SP 800-38A F.1.5, the ECB-AES256 example, uses the same key);
* NIST AESAVS known-answer samples for 256-bit keys (GFSbox, KeySbox,
  VarKey, VarTxt), transcribed and checked against ``cryptography`` before
  they are trusted;
* ``cryptography``'s AES-256-ECB (OpenSSL) on random keys and buffers.

Every driver is reached twice, like tests/conftest.py does for ciphers:
forced with ``block_cipher_open("aes256", impl=...)`` and chosen
automatically under a hardware-feature deny list (conftest's ``driver``
fixture opens handles with ``cipher_open`` only, which AES-256 is
deliberately not reachable through, so this file has its own ``aes``
fixture built the same way; the ids are the same).  Drivers that cannot run
here, or that this build does not contain (``GCRYLIKE_NO_ASM``), are skipped
with the reason.  Randomness comes from ``random.Random`` with a fixed seed
per test (never per driver: every driver sees the same inputs).
"""

from __future__ import annotations

import array
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest
from checks import (
    bad_length_keys,
    check_each_refused,
    check_implementations_listing,
    check_setkey_refused,
    check_strided_refused,
    refused,
)
from conftest import Driver, drivers, on_route, skip_unless_available
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import gcrylike
from gcrylike.selftests import vectors_aes

SEED = 0xAE5256
ALGO = "aes256"
BLOCK = 16
H = bytes.fromhex

#: Every driver the amd64 build has; those missing from this build are
#: reported as skipped rather than silently absent.
#: every build's drivers, best first (one architecture's at a time)
KNOWN_DRIVERS = ("aes256-amd64-aesni", "aes256-aarch64-ce", "aes256-generic")


def rng_for(*tags: object) -> random.Random:
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


def oracle_encrypt(key: bytes, data: bytes) -> bytes:
    """AES-256-ECB from OpenSSL, through cryptography."""
    return Cipher(algorithms.AES(bytes(key)), modes.ECB()).encryptor().update(bytes(data))


def oracle_decrypt(key: bytes, data: bytes) -> bytes:
    return Cipher(algorithms.AES(bytes(key)), modes.ECB()).decryptor().update(bytes(data))


# ---------------------------------------------------------------------------
# Pure-Python AES (FIPS-197 sections 4, 5.1 - 5.3), round keys given
# ---------------------------------------------------------------------------

def _xtime(a: int) -> int:
    a <<= 1
    return a ^ 0x11B if a & 0x100 else a


def _gmul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a, b = _xtime(a), b >> 1
    return r


def _sbox_entry(a: int) -> int:
    """FIPS-197 5.1.1: the multiplicative inverse in GF(2^8), then the affine map."""
    inv = 0
    if a:
        inv = 1
        for _ in range(254):  # a^254 = a^-1
            inv = _gmul(inv, a)
    out = 0x63
    for i in range(5):
        out ^= ((inv << i) | (inv >> (8 - i))) & 0xFF
    return out


SBOX = bytes(_sbox_entry(a) for a in range(256))
INV_SBOX = bytes(SBOX.index(a) for a in range(256))


def ref_expand_key(key: bytes) -> list[bytes]:
    """FIPS-197 5.2 for Nk = 8: the 60 words w[0..59], 4 bytes each."""
    assert len(key) == 32
    w = [key[4 * i:4 * i + 4] for i in range(8)]
    rcon = 1
    for i in range(8, 60):
        t = w[i - 1]
        if i % 8 == 0:
            t = bytes(SBOX[b] for b in t[1:] + t[:1])
            t = bytes([t[0] ^ rcon]) + t[1:]
            rcon = _xtime(rcon)
        elif i % 8 == 4:
            t = bytes(SBOX[b] for b in t)
        w.append(bytes(a ^ b for a, b in zip(w[i - 8], t, strict=True)))
    return w


def _round_keys(words: list[bytes]) -> list[bytes]:
    assert len(words) == 60
    return [b"".join(words[4 * r:4 * r + 4]) for r in range(15)]


def _mix(col: bytes, m: tuple[int, int, int, int]) -> bytes:
    return bytes(_gmul(m[0], col[i]) ^ _gmul(m[1], col[(i + 1) % 4])
                 ^ _gmul(m[2], col[(i + 2) % 4]) ^ _gmul(m[3], col[(i + 3) % 4])
                 for i in range(4))


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


# state byte index: column c, row r at 4c + r (FIPS-197 3.4 input order)
_SHIFT = [4 * ((c + r) % 4) + r for c in range(4) for r in range(4)]
_INV_SHIFT = [4 * ((c - r) % 4) + r for c in range(4) for r in range(4)]


def ref_encrypt_block(words: list[bytes], block: bytes) -> bytes:
    """FIPS-197 5.1 Cipher() with the expanded key ``words``."""
    rk = _round_keys(words)
    s = _xor(block, rk[0])
    for rnd in range(1, 15):
        s = bytes(SBOX[b] for b in s)
        s = bytes(s[i] for i in _SHIFT)
        if rnd != 14:
            s = b"".join(_mix(s[4 * c:4 * c + 4], (2, 3, 1, 1)) for c in range(4))
        s = _xor(s, rk[rnd])
    return s


def ref_decrypt_block(words: list[bytes], block: bytes) -> bytes:
    """FIPS-197 5.3 InvCipher()."""
    rk = _round_keys(words)
    s = _xor(block, rk[14])
    for rnd in range(13, -1, -1):
        s = bytes(s[i] for i in _INV_SHIFT)
        s = bytes(INV_SBOX[b] for b in s)
        s = _xor(s, rk[rnd])
        if rnd:
            s = b"".join(_mix(s[4 * c:4 * c + 4], (14, 11, 13, 9)) for c in range(4))
    return s


@cache
def ref_encrypt(key: bytes, data: bytes) -> bytes:
    words = ref_expand_key(key)
    return b"".join(ref_encrypt_block(words, data[i:i + 16]) for i in range(0, len(data), 16))


# ---------------------------------------------------------------------------
# Published known answers
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Kat:
    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes


#: FIPS-197 Appendix C.3 (AES-256 example vector), written once in
#: gcrylike.selftests.vectors_aes.
C3 = Kat("FIPS-197 C.3", vectors_aes.KEY, *map(H, vectors_aes.FIPS197_C3))
#: FIPS-197 C.3 round key schedule values round[1].k_sch, round[2].k_sch and
#: round[14].k_sch.
C3_ROUND_KEYS = {1: H("101112131415161718191a1b1c1d1e1f"),
                 2: H("a573c29fa176c498a97fce93a572c09c"),
                 14: H("24fc79ccbf0979e9371ac23c6d68de36")}

#: FIPS-197 Appendix A.3: Cipher Key and the expanded words w[8] .. w[59]
#: (w[0] .. w[7] are the key itself).
A3_KEY = H("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
A3_WORDS = [A3_KEY[4 * i:4 * i + 4] for i in range(8)] + [H(w) for w in (
    "9ba35411 8e6925af a51a8b5f 2067fcde a8b09c1a 93d194cd be49846e b75d5b9a "
    "d59aecb8 5bf3c917 fee94248 de8ebe96 b5a9328a 2678a647 98312229 2f6c79b3 "
    "812c81ad dadf48ba 24360af2 fab8b464 98c5bfc9 bebd198e 268c3ba7 09e04214 "
    "68007bac b2df3316 96e939e4 6c518d80 c814e204 76a9fb8a 5025c02d 59c58239 "
    "de136967 6ccc5a71 fa256395 9674ee15 5886ca5d 2e2f31d7 7e0af1fa 27cf73c3 "
    "749c47ab 18501dda e2757e4f 7401905a cafaaae3 e4d59b34 9adf6ace bd10190d "
    "fe4890d1 e6188d0b 046df344 706c631e").split()]

#: NIST SP 800-38A F.1.5 ECB-AES256.Encrypt: the A.3 key again.
SP800_38A_F15 = [
    Kat("SP 800-38A F.1.5 #1", A3_KEY, H("6bc1bee22e409f96e93d7e117393172a"),
        H("f3eed1bdb5d2a03c064b5a7e3db181f8")),
    Kat("SP 800-38A F.1.5 #2", A3_KEY, H("ae2d8a571e03ac9c9eb76fac45af8e51"),
        H("591ccb10d410ed26dc5ba74a31362870")),
    Kat("SP 800-38A F.1.5 #3", A3_KEY, H("30c81c46a35ce411e5fbc1191a0a52ef"),
        H("b6ed21b99ca6f4f9f153e7b1beafed1d")),
    Kat("SP 800-38A F.1.5 #4", A3_KEY, H("f69f2445df4f9b17ad2b417be66c3710"),
        H("23304b7a39f9f3ff067d8d8f9e24ecc7")),
]

_Z32, _Z16 = bytes(32), bytes(16)

#: NIST AESAVS (ECBGFSbox256, ECBKeySbox256, ECBVarKey256, ECBVarTxt256
#: samples).
AESAVS = [
    # GFSbox: key 0, chosen plaintexts
    Kat("GFSbox256 #0", _Z32, H("014730f80ac625fe84f026c60bfd547d"),
        H("5c9d844ed46f9885085e5d6a4f94c7d7")),
    Kat("GFSbox256 #1", _Z32, H("0b24af36193ce4665f2825d7b4749c98"),
        H("a9ff75bd7cf6613d3731c77c3b6d0c04")),
    Kat("GFSbox256 #2", _Z32, H("761c1fe41a18acf20d241650611d90f1"),
        H("623a52fcea5d443e48d9181ab32c7421")),
    Kat("GFSbox256 #3", _Z32, H("8a560769d605868ad80d819bdba03771"),
        H("38f2c7ae10612415d27ca190d27da8b4")),
    Kat("GFSbox256 #4", _Z32, H("91fbef2d15a97816060bee1feaa49afe"),
        H("1bc704f1bce135ceb810341b216d7abe")),
    # KeySbox: plaintext 0, chosen keys
    Kat("KeySbox256 #0", H("c47b0294dbbbee0fec4757f22ffeee3587ca4730c3d33b691df38bab076bc558"),
        _Z16, H("46f2fb342d6f0ab477476fc501242c5f")),
    Kat("KeySbox256 #1", H("28d46cffa158533194214a91e712fc2b45b518076675affd910edeca5f41ac64"),
        _Z16, H("4bf3b0a69aeb6657794f2901b1440ad4")),
    Kat("KeySbox256 #2", H("c1cc358b449909a19436cfbb3f852ef8bcb5ed12ac7058325f56e6099aab1a1c"),
        _Z16, H("352065272169abf9856843927d0674fd")),
    Kat("KeySbox256 #3", H("984ca75f4ee8d706f46c2d98c0bf4a45f5b00d791c2dfeb191b5ed8e420fd627"),
        _Z16, H("4307456a9e67813b452e15fa8fffe398")),
    Kat("KeySbox256 #4", H("b43d08a447ac8609baadae4ff12918b9f68fc1653f1269222f123981ded7a92f"),
        _Z16, H("4663446607354989477a5c6f0f007ef4")),
    # VarKey: plaintext 0, key = the top COUNT+1 bits set
    Kat("VarKey256 #0", H("80" + "00" * 31), _Z16, H("e35a6dcb19b201a01ebcfa8aa22b5759")),
    Kat("VarKey256 #1", H("c0" + "00" * 31), _Z16, H("b29169cdcf2d83e838125a12ee6aa400")),
    Kat("VarKey256 #2", H("e0" + "00" * 31), _Z16, H("d8f3a72fc3cdf74dfaf6c3e6b97b2fa6")),
    Kat("VarKey256 #255", H("ff" * 32), _Z16, H("4bf85f1b5d54adbc307b0a048389adcb")),
    # VarTxt: key 0, plaintext = the top COUNT+1 bits set
    Kat("VarTxt256 #0", _Z32, H("80" + "00" * 15), H("ddc6bf790c15760d8d9aeb6f9a75fd4e")),
    Kat("VarTxt256 #1", _Z32, H("c0" + "00" * 15), H("0a6bdc6d4c1e6280301fd8e97ddbe601")),
    Kat("VarTxt256 #2", _Z32, H("e0" + "00" * 15), H("9b80eefb7ebe2d2b16247aa0efc72f5d")),
    Kat("VarTxt256 #127", _Z32, H("ff" * 16), H("acdace8078a32b1a182bfa4987ca1347")),
]

ALL_KATS = [C3, *SP800_38A_F15, *AESAVS]


# ---------------------------------------------------------------------------
# Drivers: every implementation, forced (impl=) and chosen (deny list)
# ---------------------------------------------------------------------------

@pytest.fixture
def aes(request: pytest.FixtureRequest) -> Iterator[Driver]:
    """One AES-256 driver (block cipher handles); the deny list is restored
    afterwards."""
    yield from on_route(request.param, Driver)


EVERY_DRIVER = pytest.mark.parametrize("aes", drivers(ALGO, known=KNOWN_DRIVERS), indirect=True)


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------




# ---------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kat", ALL_KATS, ids=lambda k: k.name)
def test_transcription_matches_cryptography(kat):
    assert len(kat.key) == 32 and len(kat.plaintext) == len(kat.ciphertext) == 16
    assert oracle_encrypt(kat.key, kat.plaintext) == kat.ciphertext
    assert oracle_decrypt(kat.key, kat.ciphertext) == kat.plaintext


def test_kat_counts():
    families = {k.name.split(" #")[0] for k in AESAVS}
    assert families == {"GFSbox256", "KeySbox256", "VarKey256", "VarTxt256"}
    assert len(AESAVS) == 18 and len(SP800_38A_F15) == 4


def test_reference_sbox():
    # FIPS-197 Figure 7 and Figure 14 spot values
    assert SBOX[0x00] == 0x63 and SBOX[0x53] == 0xED and SBOX[0xFF] == 0x16
    assert INV_SBOX[0x00] == 0x52 and INV_SBOX[0x63] == 0x00
    assert sorted(SBOX) == list(range(256))


def test_reference_key_expansion_matches_fips197():
    """The pure-Python key expansion reproduces A.3 word for word, and the
    C.3 schedule values; so the reference cipher below is the FIPS one."""
    assert len(A3_WORDS) == 60
    assert ref_expand_key(A3_KEY) == A3_WORDS
    rk = _round_keys(ref_expand_key(C3.key))
    for rnd, want in C3_ROUND_KEYS.items():
        assert rk[rnd] == want, rnd


def test_reference_matches_published_and_cryptography():
    for kat in ALL_KATS:
        words = ref_expand_key(kat.key)
        assert ref_encrypt_block(words, kat.plaintext) == kat.ciphertext, kat.name
        assert ref_decrypt_block(words, kat.ciphertext) == kat.plaintext, kat.name
    rng = rng_for("reference")
    for _ in range(20):
        key, block = rng.randbytes(32), rng.randbytes(16)
        words = ref_expand_key(key)
        ct = ref_encrypt_block(words, block)
        assert ct == oracle_encrypt(key, block)
        assert ref_decrypt_block(words, ct) == block


# ---------------------------------------------------------------------------
# Lookup, listing, routing
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["aes256", "AES256", "Aes256", "aes-256", "AES-256", 9])
def test_lookup(name):
    assert "AES256" in gcrylike.algorithms()
    best = next(i.driver for i in gcrylike.implementations(name) if i.available)
    with gcrylike.block_cipher_open(name) as h:
        info = h.info
        assert isinstance(info, gcrylike.BlockInfo)
        assert (info.algorithm, info.driver, info.block_size, info.key_sizes) == \
            ("AES256", best, 16, (32,))


@pytest.mark.parametrize("name", ["aes256", "AES256", "aes-256", 9])
def test_not_an_encryption_mode(name):
    """AES-256 is a building block: cipher_open (with or without a mode),
    mac_open and tweakable_open do not offer it."""
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open(name)
    for mode in ("ecb", "poly1305", "gcm"):
        with refused(gcrylike.UnknownAlgorithm):
            gcrylike.cipher_open(name, mode=mode)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.mac_open(name)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.tweakable_open(name)


@pytest.mark.parametrize("name", ["aes", "aes128", "aes192", "aes-128", "rijndael", 7, 8])
def test_other_aes_sizes_are_unknown(name):
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.block_cipher_open(name)


def test_implementations_listing():
    by_name = check_implementations_listing(ALGO, KNOWN_DRIVERS, "aes256-generic")
    if "aes256-amd64-aesni" in by_name:
        assert "aesni" in by_name["aes256-amd64-aesni"].features


@pytest.mark.parametrize("impl", ["aes256-amd64-vaes", "aes128-generic", "generic", "",
                                  "nhpoly1305-generic", "chacha20-generic"])
def test_unknown_impl(impl):
    with refused(gcrylike.UnknownName):
        gcrylike.block_cipher_open(ALGO, impl=impl)


def test_deny_aesni_chooses_generic(hwf_deny):
    skip_unless_available(ALGO, "aes256-amd64-aesni", "aes256-generic")
    previous = hwf_deny("aesni")
    hwf_deny(previous | {"aesni"})
    assert "aesni" not in gcrylike.hw_features()
    rng = rng_for("deny")
    key, data = rng.randbytes(32), rng.randbytes(16 * 37)
    with gcrylike.block_cipher_open(ALGO) as h:
        assert h.info.driver == "aes256-generic"
        h.setkey(key)
        assert h.info.driver == "aes256-generic"
        assert h.encrypt_blocks(data) == oracle_encrypt(key, data)
    with refused(gcrylike.NotSupported):
        gcrylike.block_cipher_open(ALGO, impl="aes256-amd64-aesni")
    # lifting the denial brings AES-NI back for new handles
    hwf_deny(previous)
    if "aesni" in gcrylike.hw_features():
        with gcrylike.block_cipher_open(ALGO) as h:
            assert h.info.driver == "aes256-amd64-aesni"


def test_handle_keeps_its_driver_when_denied_later(hwf_deny):
    """The deny list applies to handles opened afterwards."""
    skip_unless_available(ALGO, "aes256-amd64-aesni")
    rng = rng_for("deny-later")
    key, data = rng.randbytes(32), rng.randbytes(160)
    with gcrylike.block_cipher_open(ALGO) as h:
        h.setkey(key)
        previous = hwf_deny("aesni")
        hwf_deny(previous | {"aesni"})
        assert h.info.driver == "aes256-amd64-aesni"
        assert h.encrypt_blocks(data) == oracle_encrypt(key, data)


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_selftest_passed_after_use(aes):
    with aes.keyed(bytes(32)) as h:
        h.encrypt_blocks(bytes(16))
    status = {i.driver: i.selftest for i in gcrylike.implementations(ALGO)}
    assert status[aes.name] == "passed"


@EVERY_DRIVER
def test_fips197_c3(aes):
    with aes.keyed(C3.key) as h:
        assert h.encrypt_blocks(C3.plaintext) == C3.ciphertext
        assert h.decrypt_blocks(C3.ciphertext) == C3.plaintext
        # the same block many times: every lane of the wide paths
        for n in (2, 3, 4, 5, 7, 8, 9, 16, 17):
            assert h.encrypt_blocks(C3.plaintext * n) == C3.ciphertext * n, n
            assert h.decrypt_blocks(C3.ciphertext * n) == C3.plaintext * n, n


@EVERY_DRIVER
def test_fips197_a3_schedule_through_encryption(aes):
    """Under the A.3 key the driver computes the cipher defined by the
    published A.3 round keys (FIPS-197 Cipher() and InvCipher() over them),
    on blocks that reach every lane, and the SP 800-38A example."""
    rng = rng_for("a3")
    blocks = [rng.randbytes(16) for _ in range(19)] + [bytes(16), b"\xff" * 16]
    want = [ref_encrypt_block(A3_WORDS, b) for b in blocks]
    with aes.keyed(A3_KEY) as h:
        assert h.encrypt_blocks(b"".join(blocks)) == b"".join(want)
        assert h.decrypt_blocks(b"".join(want)) == b"".join(blocks)
        for b, c in zip(blocks, want, strict=True):
            assert h.encrypt_blocks(b) == c
            assert h.decrypt_blocks(c) == b
            # decryption is InvCipher() with the same published words
            assert ref_decrypt_block(A3_WORDS, c) == b
        pt = b"".join(k.plaintext for k in SP800_38A_F15)
        ct = b"".join(k.ciphertext for k in SP800_38A_F15)
        assert h.encrypt_blocks(pt) == ct
        assert h.decrypt_blocks(ct) == pt


@EVERY_DRIVER
@pytest.mark.parametrize("kat", AESAVS, ids=lambda k: k.name)
def test_aesavs(aes, kat):
    with aes.keyed(kat.key) as h:
        assert h.encrypt_blocks(kat.plaintext) == kat.ciphertext
        assert h.decrypt_blocks(kat.ciphertext) == kat.plaintext


@EVERY_DRIVER
def test_aesavs_varkey_and_vartxt_sweep(aes):
    """Every VarKey / VarTxt position (the full AESAVS families) against the
    reference and cryptography: ``bits`` leading one bits."""
    with aes.open() as h:
        for bits in range(1, 257):
            key = ((1 << 256) - (1 << (256 - bits))).to_bytes(32, "big")
            h.setkey(key)
            assert h.encrypt_blocks(_Z16) == oracle_encrypt(key, _Z16), bits
        h.setkey(_Z32)
        pts = b"".join(((1 << 128) - (1 << (128 - bits))).to_bytes(16, "big")
                       for bits in range(1, 129))
        assert h.encrypt_blocks(pts) == oracle_encrypt(_Z32, pts)
        assert h.encrypt_blocks(pts[:16 * 4]) == ref_encrypt(_Z32, pts[:16 * 4])


# ---------------------------------------------------------------------------
# Against cryptography
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_random_keys_every_block_count(aes):
    rng = rng_for("blocks")
    with aes.open() as h:
        for nblocks in range(65):
            for _ in range(3):
                key, data = rng.randbytes(32), rng.randbytes(16 * nblocks)
                h.setkey(key)
                ct = h.encrypt_blocks(data)
                assert type(ct) is bytes
                assert ct == oracle_encrypt(key, data), nblocks
                assert h.decrypt_blocks(ct) == data, nblocks
                assert h.decrypt_blocks(data) == oracle_decrypt(key, data), nblocks


@EVERY_DRIVER
def test_reference_on_random_keys(aes):
    rng = rng_for("reference-random")
    with aes.open() as h:
        for nblocks in (1, 3, 9):
            key, data = rng.randbytes(32), rng.randbytes(16 * nblocks)
            h.setkey(key)
            assert h.encrypt_blocks(data) == ref_encrypt(key, data)


@EVERY_DRIVER
def test_large_buffers(aes):
    rng = rng_for("large")
    key = rng.randbytes(32)
    with aes.keyed(key) as h:
        for nblocks in (255, 256, 257, 4095, 4096, 4097, (1 << 16) + 3, (1 << 18) + 7):
            data = rng.randbytes(16 * nblocks)
            ct = h.encrypt_blocks(data)
            assert ct == oracle_encrypt(key, data), nblocks
            assert h.decrypt_blocks(ct) == data, nblocks


def test_drivers_agree(available_drivers):
    names = available_drivers(ALGO)
    rng = rng_for("agree")
    for _ in range(30):
        key = rng.randbytes(32)
        data = rng.randbytes(16 * rng.randrange(0, 300))
        outs = set()
        for name in names:
            with gcrylike.block_cipher_open(ALGO, impl=name) as h:
                h.setkey(key)
                outs.add(h.encrypt_blocks(data))
        assert outs == {oracle_encrypt(key, data)}


@EVERY_DRIVER
def test_round_trip(aes):
    rng = rng_for("round-trip")
    with aes.open() as h:
        for _ in range(200):
            key, data = rng.randbytes(32), rng.randbytes(16 * rng.randrange(0, 100))
            h.setkey(key)
            assert h.decrypt_blocks(h.encrypt_blocks(data)) == data
            assert h.encrypt_blocks(h.decrypt_blocks(data)) == data


# ---------------------------------------------------------------------------
# Buffers: alignment, in place, out=, types
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_unaligned_input_and_output(aes):
    rng = rng_for("unaligned")
    key = rng.randbytes(32)
    with aes.keyed(key) as h:
        for nblocks in (1, 2, 3, 4, 5, 8, 9, 17, 33):
            n = 16 * nblocks
            data = rng.randbytes(n)
            want = oracle_encrypt(key, data)
            for src_off in (0, 1, 3, 7, 8, 15):
                src = bytearray(rng.randbytes(n + 32))
                src[src_off:src_off + n] = data
                src_before = bytes(src)
                view = memoryview(src)[src_off:src_off + n]
                assert h.encrypt_blocks(view) == want, (n, src_off)
                ro = memoryview(bytes(src))[src_off:src_off + n]
                assert h.encrypt_blocks(ro) == want, (n, src_off, "read-only")
                for dst_off in (0, 5, 13):
                    dst = bytearray(b"\xa5" * (n + 32))
                    assert h.encrypt_blocks(view, out=memoryview(dst)[dst_off:]) == n
                    assert dst[dst_off:dst_off + n] == want, (n, src_off, dst_off)
                    assert dst[:dst_off] == b"\xa5" * dst_off
                    assert dst[dst_off + n:] == b"\xa5" * (32 - dst_off), "wrote past n"
                    back = bytearray(n + 7)
                    assert h.decrypt_blocks(memoryview(dst)[dst_off:dst_off + n],
                                            out=memoryview(back)[7:]) == n
                    assert back[7:] == data
                assert src == src_before, "the input was modified"
            # an unaligned key view too
            kbuf = bytearray(40)
            kbuf[3:35] = key
            h.setkey(memoryview(kbuf)[3:35])
            assert h.encrypt_blocks(data) == want


@EVERY_DRIVER
def test_in_place(aes):
    rng = rng_for("in-place")
    key = rng.randbytes(32)
    with aes.keyed(key) as h:
        for nblocks in (0, 1, 4, 7, 8, 9, 64, 1000):
            data = rng.randbytes(16 * nblocks)
            want = oracle_encrypt(key, data)
            buf = bytearray(data)
            assert h.encrypt_blocks(buf, out=buf) == len(data)
            assert buf == want
            assert h.decrypt_blocks(buf, out=buf) == len(data)
            assert buf == data
            # in place on an unaligned slice of a bigger buffer
            big = bytearray(rng.randbytes(len(data) + 11))
            big[5:5 + len(data)] = data
            head, tail = bytes(big[:5]), bytes(big[5 + len(data):])
            view = memoryview(big)[5:5 + len(data)]
            assert h.encrypt_blocks(view, out=view) == len(data)
            assert big[5:5 + len(data)] == want
            assert big[:5] == head and big[5 + len(data):] == tail


@EVERY_DRIVER
def test_out_longer_and_too_short(aes):
    rng = rng_for("out")
    key, data = rng.randbytes(32), rng.randbytes(64)
    want = oracle_encrypt(key, data)
    with aes.keyed(key) as h:
        out = bytearray(b"\x11" * 100)
        assert h.encrypt_blocks(data, out=out) == 64
        assert out[:64] == want and out[64:] == b"\x11" * 36
        for short in (0, 16, 63):
            out = bytearray(b"\x22" * short)
            with refused(gcrylike.InvalidLength):
                h.encrypt_blocks(data, out=out)
            with refused(gcrylike.InvalidLength):
                h.decrypt_blocks(data, out=out)
            assert out == b"\x22" * short, "a refused call wrote"
        arr = array.array("B", bytes(64))
        assert h.encrypt_blocks(data, out=arr) == 64
        assert arr.tobytes() == want


@EVERY_DRIVER
def test_partial_overlap_is_refused(aes):
    rng = rng_for("overlap")
    key = rng.randbytes(32)
    with aes.keyed(key) as h:
        buf = bytearray(rng.randbytes(256))
        before = bytes(buf)
        view = memoryview(buf)
        for src, dst in ((view[0:128], view[1:129]), (view[1:129], view[0:128]),
                         (view[0:128], view[16:144]), (view[16:144], view[0:128]),
                         (view[0:128], view[127:255]), (view[0:32], view[31:255])):
            for call in (h.encrypt_blocks, h.decrypt_blocks):
                with refused(gcrylike.InvalidArgument):
                    call(src, out=dst)
        assert buf == before, "a refused call wrote"
        # adjacent but disjoint is fine
        assert h.encrypt_blocks(view[0:128], out=view[128:256]) == 128
        assert bytes(buf[128:]) == oracle_encrypt(key, before[:128])


@EVERY_DRIVER
def test_input_types(aes):
    rng = rng_for("types")
    key, data = rng.randbytes(32), rng.randbytes(96)
    want = oracle_encrypt(key, data)
    inputs = {
        "bytes": data, "bytearray": bytearray(data), "memoryview": memoryview(bytearray(data)),
        "memoryview-readonly": memoryview(data), "array-B": array.array("B", data),
        "array-I": array.array("I", data),  # raw bytes of a wider array
    }
    keys = {"bytes": key, "bytearray": bytearray(key), "memoryview": memoryview(key),
            "array-B": array.array("B", key)}
    with aes.open() as h:
        for kname, k in keys.items():
            h.setkey(k)
            for name, d in inputs.items():
                assert h.encrypt_blocks(d) == want, (kname, name)
                assert bytes(d) == data


@EVERY_DRIVER
def test_two_handles_and_rekeying(aes):
    rng = rng_for("independent")
    k1, k2, data = rng.randbytes(32), rng.randbytes(32), rng.randbytes(160)
    with aes.keyed(k1) as a, aes.keyed(k2) as b:
        for _ in range(3):
            assert a.encrypt_blocks(data) == oracle_encrypt(k1, data)
            assert b.encrypt_blocks(data) == oracle_encrypt(k2, data)
        a.setkey(k2)
        assert a.encrypt_blocks(data) == b.encrypt_blocks(data)
        for _ in range(50):
            k = rng.randbytes(32)
            a.setkey(k)
            assert a.decrypt_blocks(oracle_encrypt(k, data)) == data


@EVERY_DRIVER
def test_info(aes):
    with aes.open() as h:
        info = h.info
        assert info == gcrylike.BlockInfo("AES256", aes.name, 16, (32,))
        h.setkey(bytes(32))
        assert h.info == info


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------

@EVERY_DRIVER
@pytest.mark.parametrize("keylen", [0, 1, 16, 24, 31, 33, 48, 64])
def test_bad_key_length(aes, keylen):
    rng = rng_for("bad-key")
    key, data = rng.randbytes(32), rng.randbytes(48)
    with aes.open() as h:
        check_setkey_refused(h, bad_length_keys(keylen), gcrylike.InvalidKeyLength,
                             lambda: h.encrypt_blocks(data))
        # a refused key leaves a keyed handle as it was
        h.setkey(key)
        with refused(gcrylike.InvalidKeyLength):
            h.setkey(rng.randbytes(keylen))
        assert h.encrypt_blocks(data) == oracle_encrypt(key, data)


@EVERY_DRIVER
@pytest.mark.parametrize("n", [1, 8, 15, 17, 31, 33, 47, 100, 4095])
def test_bad_data_length(aes, n):
    rng = rng_for("bad-length")
    key = rng.randbytes(32)
    with aes.keyed(key) as h:
        for data in (bytes(n), bytearray(n), memoryview(bytes(n))):
            with refused(gcrylike.InvalidLength):
                h.encrypt_blocks(data)
            with refused(gcrylike.InvalidLength):
                h.decrypt_blocks(data)
        out = bytearray(b"\x33" * (n + 16))
        with refused(gcrylike.InvalidLength):
            h.encrypt_blocks(bytes(n), out=out)
        assert out == b"\x33" * (n + 16), "a refused call wrote"
        assert h.encrypt_blocks(bytes(16)) == oracle_encrypt(key, bytes(16))
    # without a key the key is what is missing, whatever the length
    with aes.open() as h2:
        with refused(gcrylike.MissingKey):
            h2.encrypt_blocks(bytes(n))


def test_empty_input():
    with gcrylike.block_cipher_open(ALGO) as h:
        h.setkey(bytes(32))
        assert h.encrypt_blocks(b"") == b""
        assert h.decrypt_blocks(bytearray()) == b""
        assert h.encrypt_blocks(b"", out=bytearray()) == 0


BAD_VALUES = {"a str": "x" * 32, "None": None, "an int": 32, "a float": 1.5,
              "a list": [0] * 32}


@EVERY_DRIVER
@pytest.mark.parametrize("bad", list(BAD_VALUES))
def test_wrong_types(aes, bad):
    value = BAD_VALUES[bad]
    rng = rng_for("wrong-types")
    key, data = rng.randbytes(32), rng.randbytes(32)
    with aes.open() as h:
        check_setkey_refused(h, [value], gcrylike.InvalidType, lambda: h.encrypt_blocks(data))
        h.setkey(key)
        for call in (h.encrypt_blocks, h.decrypt_blocks):
            with refused(gcrylike.InvalidType):
                call(value)
            if value is not None:  # out=None means "return bytes"
                with refused(gcrylike.InvalidType):
                    call(data, out=value)
        assert h.encrypt_blocks(data) == oracle_encrypt(key, data)


@EVERY_DRIVER
def test_read_only_out_is_refused(aes):
    with aes.keyed(bytes(32)) as h:
        for out in (bytes(32), memoryview(bytes(32))):
            with refused(gcrylike.ReadOnlyBuffer):
                h.encrypt_blocks(bytes(32), out=out)


@EVERY_DRIVER
def test_non_contiguous_buffers(aes):
    with aes.keyed(bytes(32)) as h:
        strided = memoryview(bytearray(64))[::2]
        check_strided_refused([lambda: h.encrypt_blocks(strided), lambda: h.setkey(strided),
                               lambda: h.encrypt_blocks(bytes(32), out=strided)])


@EVERY_DRIVER
def test_missing_key(aes):
    with aes.open() as h:
        for call in (lambda: h.encrypt_blocks(bytes(16)), lambda: h.decrypt_blocks(bytes(16)),
                     lambda: h.encrypt_blocks(bytes(16), out=bytearray(16)),
                     lambda: h.encrypt_blocks(b"")):
            with refused(gcrylike.MissingKey):
                call()


@EVERY_DRIVER
def test_closed_handle(aes):
    h = aes.keyed(bytes(32))
    h.close()
    calls = {
        "setkey": lambda: h.setkey(bytes(32)), "setkey-badlen": lambda: h.setkey(b""),
        "encrypt": lambda: h.encrypt_blocks(bytes(16)),
        "decrypt": lambda: h.decrypt_blocks(bytes(16)),
        "encrypt-out": lambda: h.encrypt_blocks(bytes(16), out=bytearray(16)),
        "encrypt-badlen": lambda: h.encrypt_blocks(bytes(5)),
    }
    check_each_refused(gcrylike.HandleClosed, calls)
    h.close()  # idempotent
    with refused(gcrylike.HandleClosed):
        h.encrypt_blocks(bytes(16))


@EVERY_DRIVER
def test_context_manager_closes(aes):
    with aes.keyed(bytes(32)) as h:
        h.encrypt_blocks(bytes(16))
    with refused(gcrylike.HandleClosed):
        h.encrypt_blocks(bytes(16))
    with pytest.raises(KeyError):
        with aes.keyed(bytes(32)) as h2:
            raise KeyError("boom")
    with refused(gcrylike.HandleClosed):
        h2.decrypt_blocks(bytes(16))
