"""ChaCha20, ChaCha12, XChaCha20, XChaCha12 and HChaCha on every implementation.

Independent answers only:

* published vectors: RFC 8439 (2.3.2, 2.4.2, Appendix A.1 #1-#5 and A.2 #1-#3)
  and draft-irtf-cfrg-xchacha-03 (HChaCha20 2.2.1, XChaCha20 A.3.2), read
  from their one copy, ``gcrylike.selftests.vectors_chacha``, and the
  Adiantum authors' XChaCha12/XChaCha20 keystream vectors (tests/vectors/);
* outside implementations: ``cryptography``'s ChaCha20 (RFC 8439 layout: its
  16-byte nonce is the 4-byte little-endian block counter followed by the
  12-byte nonce) for the 12- and 16-byte IV forms, pycryptodome's ChaCha20
  (8-byte nonce: 64-bit block counter; 24-byte nonce: XChaCha20; ``seek``
  for positions) for the 8-byte form and XChaCha20, and pycryptodome's
  HChaCha20;
* a small pure-Python ChaCha and HChaCha from RFC 8439 section 2 and the
  XChaCha draft section 2.2, with a round count (the block function here, the
  rounds and HChaCha in tests/reference.py; slow: it only sees short inputs
  and spot checks; it is checked against the published vectors and the
  outside implementations first).

Every test that needs randomness draws from ``random.Random`` with a fixed
seed per test and algorithm (never per driver), so a failure reproduces and
every driver sees the same inputs.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import stream_checks
from checks import check_implementations_listing, refused
from conftest import skip_unless_available
from Crypto.Cipher import ChaCha20 as PyCryptodomeChaCha20
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from reference import chacha_permute, hchacha
from stream_checks import keyed, xor

import gcrylike
from gcrylike.selftests import vectors_chacha

SEED = 0xC4AC4A20
ROUNDS = {"CHACHA20": 20, "CHACHA12": 12, "XCHACHA20": 20, "XCHACHA12": 12}
XCHACHA_ALGOS = frozenset({"XCHACHA20", "XCHACHA12"})
ALGOS = ("chacha20", "chacha12", "xchacha20", "xchacha12")
CHACHA_IV_SIZES = (8, 12, 16)
XCHACHA_IV_SIZE = 24
BLOCK = 64
END32 = 1 << 32  # 12- and 16-byte IVs: blocks 0 .. 2^32 - 1
END64 = 1 << 64  # 8-byte IVs and XChaCha: blocks 0 .. 2^64 - 1

ALL = pytest.mark.algorithms(*ALGOS)
CHACHA = pytest.mark.algorithms("chacha20", "chacha12")
CHACHA20_ONLY = pytest.mark.algorithms("chacha20")
XCHACHA = pytest.mark.algorithms("xchacha20", "xchacha12")
XCHACHA20_ONLY = pytest.mark.algorithms("xchacha20")

VECTORS = Path(__file__).resolve().parent / "vectors"
H = bytes.fromhex


def rng_for(*tags: object) -> random.Random:
    """A generator with a fixed seed per test and algorithm."""
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


def is_xchacha(algo: str) -> bool:
    return algo.upper() in XCHACHA_ALGOS


def iv_sizes(algo: str) -> tuple[int, ...]:
    return (XCHACHA_IV_SIZE,) if is_xchacha(algo) else CHACHA_IV_SIZES


def key_sizes(algo: str) -> tuple[int, ...]:
    return (32,) if is_xchacha(algo) else (32, 16)


# ---------------------------------------------------------------------------
# Pure-Python ChaCha (RFC 8439 section 2.1-2.3) and HChaCha (draft-irtf-cfrg-
# xchacha-03 section 2.2), any even number of rounds
# ---------------------------------------------------------------------------

_M32 = 0xFFFFFFFF
_SIGMA = struct.unpack("<4I", b"expand 32-byte k")
_TAU = struct.unpack("<4I", b"expand 16-byte k")


def _state(key: bytes, words12_15: tuple[int, ...]) -> list[int]:
    """Constants, key (a 16-byte key is used twice, with the tau constants),
    then words 12-15."""
    assert len(key) in (16, 32) and len(words12_15) == 4
    consts = _SIGMA if len(key) == 32 else _TAU
    return [*consts, *struct.unpack("<8I", key if len(key) == 32 else key + key), *words12_15]


@cache
def ref_block(key: bytes, words12_15: tuple[int, ...], rounds: int) -> bytes:
    """The ChaCha block function: one 64-byte keystream block."""
    inp = _state(key, words12_15)
    out = chacha_permute(inp, rounds)
    return struct.pack("<16I", *((a + b) & _M32 for a, b in zip(out, inp, strict=True)))


ref_hchacha = cache(hchacha)


def initial_block(iv: bytes) -> int:
    """The block setiv starts at: the counter word of a 16-byte IV, else 0."""
    return int.from_bytes(iv[:4], "little") if len(iv) == 16 else 0


def ref_words(iv: bytes, block: int) -> tuple[int, ...]:
    """Words 12-15 of keystream block ``block`` for a ChaCha IV."""
    if len(iv) == 8:  # Bernstein: 64-bit counter in words 12-13
        assert 0 <= block < END64
        return (block & _M32, block >> 32, *struct.unpack("<2I", iv))
    assert len(iv) in (12, 16) and 0 <= block < END32  # RFC 8439: counter word 12
    return (block, *struct.unpack("<3I", iv[-12:]))


def ref_keystream(key: bytes, iv: bytes, rounds: int, nbytes: int,
                  block: int | None = None) -> bytes:
    """``nbytes`` of keystream from the start of block ``block`` (default:
    where setiv starts).  A 24-byte IV is XChaCha: the HChaCha subkey of its
    first 16 bytes, and its last 8 bytes as an 8-byte IV."""
    if len(iv) == XCHACHA_IV_SIZE:
        key, iv = ref_hchacha(key, iv[:16], rounds), iv[16:]
    if block is None:
        block = initial_block(iv)
    nblocks = -(-nbytes // BLOCK)
    return b"".join(ref_block(key, ref_words(iv, block + i), rounds)
                    for i in range(nblocks))[:nbytes]


def cryptography_chacha20(key: bytes, counter: int, nonce12: bytes, data: bytes) -> bytes:
    """``cryptography``'s ChaCha20: 16-byte nonce = LE32 counter || 12-byte nonce."""
    nonce16 = counter.to_bytes(4, "little") + nonce12
    return Cipher(algorithms.ChaCha20(key, nonce16), mode=None).encryptor().update(data)


def pycryptodome_hchacha20(key: bytes, data: bytes) -> bytes:
    return bytes(PyCryptodomeChaCha20._HChaCha20(key, data))


def oracle(rounds: int, key: bytes, iv: bytes, data: bytes, block: int | None = None) -> bytes:
    """Encryption of ``data`` from keystream block ``block`` (default: where
    setiv starts) by an outside implementation (20 rounds, 32-byte key),
    else by the reference above."""
    data = bytes(data)
    nblocks = -(-len(data) // BLOCK)
    if rounds != 20 or len(key) != 32:
        return xor(data, ref_keystream(key, iv, rounds, len(data), block))
    if len(iv) in (12, 16):
        start = initial_block(iv) if block is None else block
        assert start + nblocks <= END32, "the request must fit the 32-bit counter"
        return cryptography_chacha20(key, start, iv[-12:], data)
    start = block or 0
    if len(iv) == XCHACHA_IV_SIZE and start + nblocks > END32:
        # pycryptodome's XChaCha20 cannot seek past 2^32 blocks: its own
        # HChaCha20 subkey with the 8-byte (64-bit counter) layout
        cipher = PyCryptodomeChaCha20.new(key=pycryptodome_hchacha20(key, iv[:16]), nonce=iv[16:])
    else:
        cipher = PyCryptodomeChaCha20.new(key=key, nonce=iv)
    if start:
        cipher.seek(start * BLOCK)
    return cipher.encrypt(data)


# ---------------------------------------------------------------------------
# Published vectors: written once, in gcrylike.selftests.vectors_chacha
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BlockVector:
    """A keystream block: RFC 8439 layout, 12-byte nonce, 32-bit counter."""

    name: str
    key: bytes
    nonce: bytes
    counter: int
    block: bytes


@dataclass(frozen=True)
class EncryptionVector:
    name: str
    key: bytes
    nonce: bytes  # 12 bytes, RFC 8439 layout
    counter: int
    plaintext: bytes
    ciphertext: bytes


RFC_BLOCKS = tuple(
    BlockVector(f"RFC 8439 {name}", H(v.key), H(v.nonce), counter, H(block))
    for name, v in vectors_chacha.RFC8439_BLOCKS.items() for counter, block in v.blocks.items())

RFC_ENCRYPTIONS = tuple(
    EncryptionVector(f"RFC 8439 {name}", H(v.key), H(v.nonce), v.counter, v.plaintext,
                     H(v.ciphertext))
    for name, v in vectors_chacha.RFC8439_ENCRYPTIONS.items())

# draft-irtf-cfrg-xchacha-03 section 2.2.1: (key, 16-byte input, subkey)
_HCHACHA = vectors_chacha.HCHACHA[0]
HCHACHA20_VECTOR = tuple(map(H, (_HCHACHA[0], _HCHACHA[1], _HCHACHA[3])))

# draft-irtf-cfrg-xchacha-03 Appendix A.3.2 (the ciphertext starts at
# keystream block 1)
_DRAFT = vectors_chacha.XCHACHA20_DRAFT
XCHACHA20_VECTOR = EncryptionVector("draft-irtf-cfrg-xchacha-03 A.3.2", H(_DRAFT.key),
                                    H(_DRAFT.nonce), _DRAFT.counter, _DRAFT.plaintext,
                                    H(_DRAFT.ciphertext))


ADIANTUM = stream_checks.load_adiantum_vectors("XChaCha*_32.json", "XChaCha")


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def random_key_iv(rng: random.Random, algo: str, ivlen: int | None = None,
                  keylen: int = 32) -> tuple[bytes, bytes]:
    """A key and an IV of ``ivlen`` bytes (default: a random form of the
    algorithm's).  A 16-byte IV gets a counter word with room for at least
    2^20 blocks."""
    ivlen = ivlen or rng.choice(iv_sizes(algo))
    iv = rng.randbytes(ivlen)
    if ivlen == 16:
        iv = rng.randrange(END32 - (1 << 20)).to_bytes(4, "little") + iv[4:]
    return rng.randbytes(keylen), iv


def hchacha_on(driver, key, data) -> list[bytes]:
    """HChaCha on the driver: forced by name, and for the deny-list routes
    also through the automatic choice (which must land on the same driver)."""
    rounds = ROUNDS[driver.algorithm]
    outs = [gcrylike.hchacha(key, data, rounds=rounds, impl=driver.name)]
    if driver.case.route != "impl":
        outs.append(gcrylike.hchacha(key, data, rounds=rounds))
    return outs





def assert_continues(h, rounds: int, key: bytes, iv: bytes, pos: int, n: int = 100,
                     block: int | None = None) -> None:
    """The handle's next ``n`` bytes are keystream bytes ``pos .. pos + n``
    counted from block ``block`` (default: where setiv starts): a refused
    call changed neither the output nor the position."""
    first = initial_block(iv) if block is None else block
    skip, off = divmod(pos, BLOCK)
    ks = ref_keystream(key, iv, rounds, off + n, block=first + skip)[off:]
    assert h.encrypt(bytes(n)) == ks


def fits(iv: bytes, start: int, nbytes: int) -> bool:
    """Whether ``nbytes`` from block ``start`` fit the IV form's counter."""
    end = END32 if len(iv) in (12, 16) else END64
    return start + -(-nbytes // BLOCK) <= end


# ---------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------

def test_vector_files_present():
    assert len(ADIANTUM) == 10
    for rounds in (20, 12):
        vs = [v for v in ADIANTUM if v.rounds == rounds]
        assert len(vs) == 5
        for v in vs:
            assert len(v.key) == 32 and len(v.nonce) == 24
            assert sorted(v.blocks) == [0, 1, 1023, 1024, 2048]
            assert all(len(b) == BLOCK for b in v.blocks.values())
    assert (VECTORS / "adiantum" / "LICENSE").read_text().startswith("Copyright (c) 2018 Google")


def test_rfc8439_transcription_matches_cryptography():
    assert [v.name for v in RFC_BLOCKS] == ["RFC 8439 2.3.2",
                                            *(f"RFC 8439 A.1 #{i}" for i in range(1, 6))]
    for v in RFC_BLOCKS:
        assert cryptography_chacha20(v.key, v.counter, v.nonce, bytes(64)) == v.block, v.name
    for v in RFC_ENCRYPTIONS:
        assert len(v.plaintext) == len(v.ciphertext), v.name
        got = cryptography_chacha20(v.key, v.counter, v.nonce, v.plaintext)
        assert got == v.ciphertext, v.name
    assert [len(v.plaintext) for v in RFC_ENCRYPTIONS] == [114, 64, 375, 127]


def test_xchacha_draft_transcription_matches_pycryptodome():
    key, data, want = HCHACHA20_VECTOR
    assert pycryptodome_hchacha20(key, data) == want
    v = XCHACHA20_VECTOR
    assert len(v.plaintext) == len(v.ciphertext) == 304
    cipher = PyCryptodomeChaCha20.new(key=v.key, nonce=v.nonce)
    cipher.seek(v.counter * BLOCK)
    assert cipher.encrypt(v.plaintext) == v.ciphertext


def test_reference_matches_published_vectors():
    for v in RFC_BLOCKS:
        assert ref_keystream(v.key, v.nonce, 20, 64, block=v.counter) == v.block, v.name
    for v in RFC_ENCRYPTIONS:
        ks = ref_keystream(v.key, v.nonce, 20, len(v.plaintext), block=v.counter)
        assert xor(v.plaintext, ks) == v.ciphertext, v.name
    key, data, want = HCHACHA20_VECTOR
    assert ref_hchacha(key, data, 20) == want
    v = XCHACHA20_VECTOR
    ks = ref_keystream(v.key, v.nonce, 20, len(v.plaintext), block=v.counter)
    assert xor(v.plaintext, ks) == v.ciphertext
    for v in ADIANTUM:
        for k, want in v.blocks.items():
            assert ref_keystream(v.key, v.nonce, v.rounds, 64, block=k) == want, (v.name, k)


def test_reference_matches_oracles():
    rng = rng_for("ref-vs-oracles")
    for ivlen in (*CHACHA_IV_SIZES, XCHACHA_IV_SIZE):
        algo = "xchacha20" if ivlen == XCHACHA_IV_SIZE else "chacha20"
        for n in (0, 1, 63, 64, 65, 200, 300):
            key, iv = random_key_iv(rng, algo, ivlen)
            msg = rng.randbytes(n)
            assert oracle(20, key, iv, msg) == xor(msg, ref_keystream(key, iv, 20, n)), (ivlen, n)
        key, iv = random_key_iv(rng, algo, ivlen)
        starts = [0, 1, 1000, END32 - 4]
        if ivlen in (8, XCHACHA_IV_SIZE):  # across 2^32 blocks and up to the end
            starts += [END32 - 2, END32, 2**48 + 3, END64 - 3]
        for start in starts:
            msg = rng.randbytes(4 * BLOCK - 5 if fits(iv, start, 4 * BLOCK) else 3 * BLOCK)
            ks = ref_keystream(key, iv, 20, len(msg), block=start)
            assert oracle(20, key, iv, msg, block=start) == xor(msg, ks), (ivlen, start)
    # HChaCha20 against pycryptodome's
    for _ in range(5):
        key, data = rng.randbytes(32), rng.randbytes(16)
        assert ref_hchacha(key, data, 20) == pycryptodome_hchacha20(key, data)


# ---------------------------------------------------------------------------
# Look-ups, drivers, the deny list
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,canonical", [
    ("chacha20", "CHACHA20"), ("CHACHA20", "CHACHA20"), ("ChaCha20", "CHACHA20"),
    ("chacha20-ietf", "CHACHA20"), ("chacha", "CHACHA20"), (316, "CHACHA20"),
    ("chacha12", "CHACHA12"), ("ChaCha12", "CHACHA12"), (1001, "CHACHA12"),
    ("xchacha20", "XCHACHA20"), ("XChaCha20", "XCHACHA20"), (1002, "XCHACHA20"),
    ("xchacha12", "XCHACHA12"), ("XCHACHA12", "XCHACHA12"), (1003, "XCHACHA12"),
])
def test_lookup(name, canonical):
    stream_checks.check_lookup(name, canonical, key_sizes(canonical), iv_sizes(canonical))


@pytest.mark.parametrize("algo", ALGOS)
def test_implementations_listing(algo):
    allowed = [f"{algo}-amd64-avx512", f"{algo}-amd64-avx2", f"{algo}-amd64-ssse3",
               f"{algo}-aarch64-neon", f"{algo}-generic"]
    by_name = check_implementations_listing(algo, allowed, f"{algo}-generic")
    if f"{algo}-amd64-ssse3" in by_name:
        assert by_name[f"{algo}-amd64-ssse3"].features == {"ssse3"}
    if f"{algo}-amd64-avx2" in by_name:
        assert by_name[f"{algo}-amd64-avx2"].features == {"ssse3", "avx2"}
    if f"{algo}-amd64-avx512" in by_name:
        assert by_name[f"{algo}-amd64-avx512"].features == {"avx2", "avx512f", "avx512vl"}


@pytest.mark.parametrize("algo,impl", [
    ("chacha20", "xchacha20-generic"), ("chacha20", "chacha12-generic"),
    ("chacha12", "chacha20-generic"), ("xchacha20", "chacha20-generic"),
    ("xchacha12", "xchacha20-generic"), ("chacha20", "salsa20-generic"),
    ("chacha20", "generic"), ("chacha20", ""), ("xchacha12", "xchacha12-amd64-neon"),
])
def test_unknown_impl(algo, impl):
    with refused(gcrylike.UnknownName):
        gcrylike.cipher_open(algo, impl=impl)


def _check_chosen(algo: str, expected: str) -> None:
    rng = rng_for("deny", algo)
    key, iv = random_key_iv(rng, algo)
    msg = rng.randbytes(1000)
    with gcrylike.cipher_open(algo) as h:
        assert h.info.driver == expected
        h.setkey(key)
        h.setiv(iv)
        assert h.encrypt(msg) == oracle(ROUNDS[algo.upper()], key, iv, msg)
    if is_xchacha(algo):
        data = rng.randbytes(16)
        rounds = ROUNDS[algo.upper()]
        assert gcrylike.hchacha(key, data, rounds=rounds) == ref_hchacha(key, data, rounds)


@pytest.mark.parametrize("algo", ALGOS)
def test_deny_avx2_chooses_ssse3(algo, hwf_deny):
    skip_unless_available(algo, f"{algo}-amd64-avx2", f"{algo}-amd64-ssse3")
    previous = hwf_deny("avx2")
    hwf_deny(previous | {"avx2"})
    _check_chosen(algo, f"{algo}-amd64-ssse3")
    with refused(gcrylike.NotSupported):
        gcrylike.cipher_open(algo, impl=f"{algo}-amd64-avx2")
    if is_xchacha(algo):
        with refused(gcrylike.NotSupported):
            gcrylike.hchacha(bytes(32), bytes(16), rounds=ROUNDS[algo.upper()],
                             impl=f"{algo}-amd64-avx2")


@pytest.mark.parametrize("algo", ALGOS)
def test_deny_ssse3_chooses_generic(algo, hwf_deny):
    skip_unless_available(algo, f"{algo}-amd64-ssse3")
    previous = hwf_deny("ssse3")
    # the AVX-512 driver needs no SSSE3: deny it as well
    hwf_deny(previous | {"ssse3", "avx512f"})
    _check_chosen(algo, f"{algo}-generic")
    for d in (f"{algo}-amd64-ssse3", f"{algo}-amd64-avx2"):
        if any(i.driver == d for i in gcrylike.implementations(algo)):
            with refused(gcrylike.NotSupported):
                gcrylike.cipher_open(algo, impl=d)


@ALL
def test_selftest_passed_after_use(driver):
    with keyed(driver, bytes(32), bytes(iv_sizes(driver.algorithm)[0])) as h:
        h.encrypt(b"x")
    status = {i.driver: i.selftest for i in gcrylike.implementations(driver.algorithm)}
    assert status[driver.name] == "passed"


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@CHACHA20_ONLY
def test_rfc8439_block_vectors(driver):
    with driver.open() as h:
        for v in RFC_BLOCKS:
            h.setkey(v.key)
            # 12-byte IV and a seek; decrypt is the same operation
            for op in (h.encrypt, h.decrypt):
                h.setiv(v.nonce)
                h.setctr(v.counter)
                assert op(bytes(64)) == v.block, v.name
            # 16-byte IV: the counter word, then the nonce
            h.setiv(v.counter.to_bytes(4, "little") + v.nonce)
            assert h.encrypt(bytes(64)) == v.block, v.name
            # from block 0 in one call
            h.setiv(v.nonce)
            assert h.encrypt(bytes(64 * (v.counter + 1)))[-64:] == v.block, v.name
            # the 8-byte layout is the same stream while nonce word 13 is 0
            if v.nonce[:4] == bytes(4):
                h.setiv(v.nonce[4:])
                h.setctr(v.counter)
                assert h.encrypt(bytes(64)) == v.block, v.name


@CHACHA20_ONLY
def test_rfc8439_encryption_vectors(driver):
    with driver.open() as h:
        for v in RFC_ENCRYPTIONS:
            h.setkey(v.key)
            n = len(v.plaintext)
            iv16 = v.counter.to_bytes(4, "little") + v.nonce
            h.setiv(iv16)
            assert h.encrypt(v.plaintext) == v.ciphertext, v.name
            h.setiv(iv16)
            assert h.decrypt(v.ciphertext) == v.plaintext, v.name
            h.setiv(v.nonce)
            h.setctr(v.counter)
            assert h.encrypt(v.plaintext) == v.ciphertext, v.name
            # in pieces, in place
            for cuts in ((1,), (63,), (64,), (65,), (7, 100), (64, 64, 1)):
                h.setiv(iv16)
                buf = bytearray(v.plaintext)
                pos = 0
                for c in (*cuts, n):
                    piece = memoryview(buf)[pos: min(pos + c, n)]
                    h.encrypt(piece, out=piece)
                    pos += len(piece)
                assert buf == v.ciphertext, (v.name, cuts)
            if v.nonce[:4] == bytes(4):
                h.setiv(v.nonce[4:])
                h.setctr(v.counter)
                assert h.encrypt(v.plaintext) == v.ciphertext, v.name


@XCHACHA20_ONLY
def test_hchacha20_draft_vector(driver):
    key, data, want = HCHACHA20_VECTOR
    for got in hchacha_on(driver, key, data):
        assert got == want
    for got in hchacha_on(driver, bytearray(key), memoryview(data)):
        assert got == want


@XCHACHA20_ONLY
def test_xchacha20_draft_vector(driver):
    v = XCHACHA20_VECTOR
    with keyed(driver, v.key, v.nonce) as h:
        h.setctr(v.counter)
        assert h.encrypt(v.plaintext) == v.ciphertext
        h.setctr(v.counter)
        assert h.decrypt(v.ciphertext) == v.plaintext
        # from block 0: the published ciphertext follows one block of keystream
        h.setiv(v.nonce)
        msg = bytes(64) + v.plaintext
        ct = h.encrypt(msg)
        assert ct[64:] == v.ciphertext
        assert ct == oracle(20, v.key, v.nonce, msg)


@XCHACHA
def test_adiantum_vectors(driver):
    rounds = ROUNDS[driver.algorithm]
    vectors = [v for v in ADIANTUM if v.rounds == rounds]
    assert len(vectors) == 5
    rng = rng_for("adiantum", rounds)
    with driver.open() as h:
        for v in vectors:
            h.setkey(v.key)
            from_zero = None
            for k, want in sorted(v.blocks.items()):
                where = f"{v.name}, block {k}"
                # seeking to the block, and inside a long request
                stream_checks.check_keystream_block(h, v.nonce, k, want, rng, where,
                                                    most_before=12, most_after=20)
                # from block 0 in one long call (every block up to 2048)
                if from_zero is None:
                    h.setiv(v.nonce)
                    from_zero = h.encrypt(bytes(64 * (max(v.blocks) + 1)))
                assert from_zero[64 * k: 64 * (k + 1)] == want, where


@XCHACHA
def test_xchacha_is_chacha_with_the_hchacha_subkey(driver):
    """XChaCha(key, nonce) == ChaCha(HChaCha(key, nonce[:16]), nonce[16:]) with
    the 8-byte layout, on the matching ChaCha driver."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("x-is-chacha", rounds)
    chacha_driver = driver.name[1:]  # "xchacha20-amd64-avx2" -> "chacha20-amd64-avx2"
    with driver.open() as x, gcrylike.cipher_open(driver.algorithm[1:], impl=chacha_driver) as c:
        for start in (0, 1, 7, END32 - 3, 2**40 + 5, END64 - 9):
            key, nonce = rng.randbytes(32), rng.randbytes(24)
            subkeys = hchacha_on(driver, key, nonce[:16])
            assert subkeys == [ref_hchacha(key, nonce[:16], rounds)] * len(subkeys)
            msg = rng.randbytes(rng.randrange(1, 9 * BLOCK))
            x.setkey(key)
            x.setiv(nonce)
            x.setctr(start)
            c.setkey(subkeys[0])
            c.setiv(nonce[16:])
            c.setctr(start)
            assert x.encrypt(msg) == c.encrypt(msg), start


# ---------------------------------------------------------------------------
# Every length against the oracle
# ---------------------------------------------------------------------------

MAX_LEN = 2100


@dataclass(frozen=True)
class Case:
    key: bytes
    iv: bytes
    msg: bytes
    ct: bytes


@cache
def every_length_cases(algo: str) -> tuple[Case, ...]:
    """Every length 0..MAX_LEN with every IV form (and 16-byte keys for
    ChaCha), with the expected ciphertexts; computed once per algorithm.

    With 20 rounds and a 32-byte key the oracle is fast: a fresh key and IV
    for every case.  Otherwise (the reference) fresh ones up to 200 bytes,
    then prefixes of a few reference streams.  A 16-byte IV starts at a
    random counter word, or one that the request fills up to the last block.
    """
    rounds = ROUNDS[algo]
    rng = rng_for("every-length", algo)
    cases = []
    for keylen in key_sizes(algo):
        fast = rounds == 20 and keylen == 32
        for ivlen in iv_sizes(algo):
            streams = []
            for _ in range(3):
                key, iv = random_key_iv(rng, algo, ivlen, keylen)
                streams.append((key, iv, None if fast else ref_keystream(key, iv, rounds, MAX_LEN)))
            for n in range(MAX_LEN + 1):
                msg = rng.randbytes(n)
                if fast or n <= 200:
                    key, iv = random_key_iv(rng, algo, ivlen, keylen)
                    if ivlen == 16 and n % 3 == 0 and n:
                        iv = (END32 - -(-n // BLOCK)).to_bytes(4, "little") + iv[4:]
                    ct = oracle(rounds, key, iv, msg)
                else:
                    key, iv, ks = streams[n % 3]
                    ct = xor(msg, ks[:n])
                cases.append(Case(key, iv, msg, ct))
    return tuple(cases)


@ALL
def test_every_length_against_oracle(driver):
    cases = every_length_cases(driver.algorithm)
    with driver.open() as h:
        for i, c in enumerate(cases):
            h.setkey(c.key)
            h.setiv(c.iv)
            ct = h.encrypt(c.msg)
            assert type(ct) is bytes
            assert ct == c.ct, (len(c.key), len(c.iv), len(c.msg))
            if i % 61 == 0:
                h.setiv(c.iv)
                assert h.decrypt(ct) == c.msg


def _long_lengths() -> list[int]:
    near = {m * k + d for m in (64, 512) for k in (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32,
                                                     33, 63, 64, 65, 127, 128, 129)
            for d in (-3, -2, -1, 0, 1, 2, 3)}
    stride = set(range(MAX_LEN, 70000, 1999))
    return sorted(n for n in near | stride if n > MAX_LEN)


@pytest.mark.parametrize("algo", ALGOS)
def test_drivers_agree_on_long_inputs(algo, available_drivers):
    """Every runnable driver, long inputs and a few MiB, each IV form, from
    the IV's start and from random counters; against the oracle (20 rounds)
    or reference spot checks of whole blocks and the tail (12 rounds)."""
    names = available_drivers(algo)
    rounds = ROUNDS[algo.upper()]
    rng = rng_for("agree", algo)
    with stream_checks.open_on_each(algo, names) as handles:
        for ivlen in iv_sizes(algo):
            key, iv = random_key_iv(rng, algo, ivlen)
            for h in handles:
                h.setkey(key)
            end = END32 if ivlen in (12, 16) else END64
            cases = [(n, None) for n in _long_lengths()]
            cases += [(rng.randrange(1, 40000), rng.randrange(end - 2**20)) for _ in range(20)]
            cases += [(rng.randrange(1, 40000), end - 2**10 - rng.randrange(2**9))
                      for _ in range(3)]
            cases += [(3 << 20, None), ((2 << 20) + 77, rng.randrange(end - 2**20))]
            for n, start in cases:
                msg = rng.randbytes(n)
                ct = stream_checks.encrypt_on_every_handle(handles, names, iv, start, msg)
                if rounds == 20:
                    assert ct == oracle(20, key, iv, msg, block=start), (ivlen, n, start)
                    continue
                first = initial_block(iv) if start is None else start
                nblocks = n // BLOCK
                picks = {rng.randrange(nblocks) for _ in range(3)} | {0, nblocks - 1}
                for b in sorted(picks) if nblocks else ():
                    seg = slice(b * BLOCK, (b + 1) * BLOCK)
                    want = ref_keystream(key, iv, rounds, BLOCK, block=first + b)
                    assert xor(ct[seg], msg[seg]) == want, (ivlen, n, start, b)
                tail = n % BLOCK
                if tail:
                    seg = slice(n - tail, n)
                    want = ref_keystream(key, iv, rounds, tail, block=first + nblocks)
                    assert xor(ct[seg], msg[seg]) == want, (ivlen, n, start, "tail")


# ---------------------------------------------------------------------------
# Streaming: splits, buffers, types
# ---------------------------------------------------------------------------

@ALL
def test_split_at_every_offset(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("split-window", driver.algorithm)
    forms = []
    for ivlen in iv_sizes(driver.algorithm):
        key, iv = random_key_iv(rng, driver.algorithm, ivlen)
        msg = rng.randbytes(1400)
        forms.append((key, iv, msg, oracle(rounds, key, iv, msg)))
    with driver.open() as h:
        for key, iv, msg, whole in forms:
            h.setkey(key)
            h.setiv(iv)
            assert h.encrypt(msg) == whole
        for first in range(201):
            key, iv, msg, whole = forms[first % len(forms)]
            h.setkey(key)
            stream_checks.check_three_way_splits(h, iv, msg, whole, first,
                                                 (0, 1, 3, 61, 64, 67, 128, 255, 256, 257, 513))


@ALL
def test_random_multiway_splits(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("multiway", driver.algorithm)
    with driver.open() as h:
        for trial in range(120):
            key, iv = random_key_iv(rng, driver.algorithm)
            n = rng.randrange(0, 6000)
            msg = rng.randbytes(n)
            end = END32 if len(iv) in (12, 16) else END64
            start = rng.choice((None, rng.randrange(1000), rng.randrange(end - 1000),
                                END32 - rng.randrange(1, 60)))
            if start is not None and not fits(iv, start, n):
                start = end - -(-n // BLOCK)
            h.setkey(key)
            h.setiv(iv)
            if start is not None:
                h.setctr(start)
            whole = h.encrypt(msg)
            if rounds == 20:
                assert whole == oracle(20, key, iv, msg, block=start), (trial, len(iv), start)
            cuts = sorted(rng.randrange(n + 1) for _ in range(rng.randrange(1, 25)))
            h.setiv(iv)
            if start is not None:
                h.setctr(start)
            out = stream_checks.encrypt_in_random_pieces(h, msg, cuts, rng)
            assert out == whole, (trial, len(iv), n, start, cuts)


@ALL
def test_unaligned_input_and_output(driver):
    """memoryview slices at offsets 0..31 on both sides, and in place."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("unaligned", driver.algorithm)
    key, iv = random_key_iv(rng, driver.algorithm)
    with keyed(driver, key, iv) as h:
        for n in (1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1031, 2000):
            msg = rng.randbytes(n)
            want = oracle(rounds, key, iv, msg)
            grid = n in (65, 513)  # every pair of offsets; else every offset on each side
            pairs = ([(i, o) for i in range(32) for o in range(32)] if grid else
                     [(i, (7 * i + 3) % 32) for i in range(32)] + [(0, o) for o in range(32)])
            stream_checks.check_unaligned(h, iv, msg, want, rng, pairs, range(32))


@ALL
def test_in_place_and_long_out(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("in-place", driver.algorithm)
    key, iv = random_key_iv(rng, driver.algorithm)
    with keyed(driver, key, iv) as h:
        stream_checks.check_in_place_and_long_out(h, iv, rng,
                                                  lambda msg: oracle(rounds, key, iv, msg))


@ALL
def test_input_and_output_types(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("types", driver.algorithm)
    key, iv = random_key_iv(rng, driver.algorithm)
    msg = rng.randbytes(777)
    with driver.open() as h:
        stream_checks.check_input_and_output_types(h, key, iv, msg, oracle(rounds, key, iv, msg))


@ALL
def test_two_handles_are_independent(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("independent", driver.algorithm)
    k1, n1 = random_key_iv(rng, driver.algorithm)
    k2, n2 = random_key_iv(rng, driver.algorithm)
    msg = rng.randbytes(1000)
    with keyed(driver, k1, n1) as a, keyed(driver, k2, n2) as b:
        stream_checks.check_two_handles_are_independent(a, b, msg, oracle(rounds, k1, n1, msg),
                                                        oracle(rounds, k2, n2, msg))


@CHACHA
def test_iv_forms_and_setiv_rewinds(driver):
    """The three ChaCha IV forms give their own streams; setiv starts over
    (dropping leftover keystream) and a new IV form replaces the old one."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("iv-forms", driver.algorithm)
    key = rng.randbytes(32)
    nonce12 = rng.randbytes(12)
    msg = rng.randbytes(300)
    with driver.open() as h:
        h.setkey(key)
        h.setiv(nonce12)
        first = h.encrypt(msg)
        assert first == oracle(rounds, key, nonce12, msg)
        # a 16-byte IV with counter word 0 is the 12-byte IV
        h.setiv(bytes(4) + nonce12)
        assert h.encrypt(msg) == first
        # a 16-byte IV with counter word 3 starts at block 3 of that stream
        h.setiv((3).to_bytes(4, "little") + nonce12)
        assert h.encrypt(msg[:100]) == oracle(rounds, key, nonce12, msg[:100], block=3)
        # ... and setctr is absolute, not relative to that counter word
        h.setctr(1)
        assert h.encrypt(msg[:100]) == oracle(rounds, key, nonce12, msg[:100], block=1)
        # 8-byte IV, after a partial block of another form
        h.setiv(nonce12)
        h.encrypt(b"abc")
        h.setiv(nonce12[4:])
        assert h.encrypt(msg) == oracle(rounds, key, nonce12[4:], msg)
        h.encrypt(b"abc")
        h.setiv(nonce12)
        assert h.encrypt(msg) == first


# ---------------------------------------------------------------------------
# The block counter
# ---------------------------------------------------------------------------

CARRY_STARTS = (END32 - 5, END32 - 1, END32 - 2, END32 - 8, END32 - 9, 2**33 - 3,
                2**48 - 6, 2**63 - 3, END64 - END32 - 3)


@ALL
def test_64bit_counter_crosses_2_32(driver):
    """8-byte IVs and XChaCha: words 12-13 are one 64-bit counter."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("carry", driver.algorithm)
    ivlen = XCHACHA_IV_SIZE if is_xchacha(driver.algorithm) else 8
    with driver.open() as h:
        for keylen in key_sizes(driver.algorithm):
            key, iv = random_key_iv(rng, driver.algorithm, ivlen, keylen)
            h.setkey(key)
            h.setiv(iv)
            # setctr(2^32 - 5) and 20 blocks, as one call
            h.setctr(END32 - 5)
            msg = rng.randbytes(20 * BLOCK)
            assert h.encrypt(msg) == oracle(rounds, key, iv, msg, block=END32 - 5), keylen
            # every request of 1..17 blocks with the carry at every position
            # in it: each SIMD group width, each lane
            ks = oracle(rounds, key, iv, bytes(34 * BLOCK), block=END32 - 17)
            for nblocks in range(1, 18):
                for before in range(1, nblocks + 1):
                    h.setctr(END32 - before)
                    lo = (17 - before) * BLOCK
                    assert h.encrypt(bytes(nblocks * BLOCK)) == ks[lo: lo + nblocks * BLOCK], \
                        (keylen, nblocks, before)
            for start in CARRY_STARTS:
                n = 11 * BLOCK + 17
                ks = oracle(rounds, key, iv, bytes(n), block=start)
                msg = rng.randbytes(n)
                stream_checks.check_counter_run(h, iv, start, msg, ks)


@ALL
def test_64bit_counter_end(driver):
    """setctr(2^64 - k) and k blocks fit exactly, on every dispatch width;
    one byte more is refused before anything is written; setctr(2^64) is
    refused."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("end64", driver.algorithm)
    ivlen = XCHACHA_IV_SIZE if is_xchacha(driver.algorithm) else 8
    key, iv = random_key_iv(rng, driver.algorithm, ivlen)
    with keyed(driver, key, iv) as h:
        h.setctr(END64 - 1)
        last = oracle(rounds, key, iv, bytes(64), block=END64 - 1)
        assert h.encrypt(bytes(64)) == last
        out = bytearray(b"\xa5")
        with refused(gcrylike.CounterExhausted):
            h.encrypt(b"\x00", out=out)
        assert out == b"\xa5"
        with refused(gcrylike.CounterExhausted):
            h.decrypt(bytes(64))
        for left in (1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17):
            start = END64 - left
            msg = rng.randbytes(left * BLOCK)
            want = oracle(rounds, key, iv, msg, block=start)
            for extra in (1, 64, 1000):
                stream_checks.check_too_long_refused(h, iv, start, msg + bytes(extra))
            # the refusals did not move the position
            assert h.encrypt(msg) == want, left
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00")
        # the last block in pieces, then one byte more
        stream_checks.check_last_block_in_pieces(h, iv, END64 - 1, last)
        # setctr past the end is refused and keeps the position
        h.setiv(iv)
        h.encrypt(bytes(10))
        for bad in (END64, END64 + 1, 1 << 100):
            with refused(gcrylike.CounterExhausted):
                h.setctr(bad)
        assert_continues(h, rounds, key, iv, 10)
        # setctr starts over after the end
        h.setctr(END64 - 1)
        h.encrypt(bytes(64))
        h.setctr(5)
        assert h.encrypt(bytes(64)) == oracle(rounds, key, iv, bytes(64), block=5)


@CHACHA
def test_32bit_counter_end_12_byte_iv(driver):
    """RFC 8439 layout: the last block is 2^32 - 1; a request past it is
    refused and writes nothing; the nonce word never changes."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("end32", driver.algorithm)
    key, iv = random_key_iv(rng, driver.algorithm, 12)
    assert iv[:4] != bytes(4), "word 13 must be non-zero to catch a carry into it"
    stream0 = oracle(rounds, key, iv, bytes(300))
    with keyed(driver, key, iv) as h:
        h.setctr(END32 - 1)
        assert h.encrypt(bytes(64)) == oracle(rounds, key, iv, bytes(64), block=END32 - 1)
        out = bytearray(b"\xa5" * 100)
        for n in (1, 64, 100):
            with refused(gcrylike.CounterExhausted):
                h.encrypt(bytes(n), out=out)
            assert out == b"\xa5" * 100
        with refused(gcrylike.CounterExhausted):
            h.decrypt(b"\x00")
        h.setctr(0)
        assert h.encrypt(bytes(300)) == stream0, "the nonce word changed"
        # k blocks up to the end on every dispatch width (8, 4, 2, 1 and the tails)
        for left in range(1, 21):
            start = END32 - left
            msg = rng.randbytes(left * BLOCK)
            want = oracle(rounds, key, iv, msg, block=start)
            h.setctr(start)
            data = bytearray(msg + b"\x00")
            with refused(gcrylike.CounterExhausted):
                h.encrypt(data, out=data)
            assert data == msg + b"\x00"
            assert h.encrypt(msg) == want, left
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00")
            # in pieces, the last one partial
            h.setctr(start)
            pieces = [h.encrypt(msg[:7]), h.encrypt(msg[7:-5]), h.encrypt(msg[-5:])]
            assert b"".join(pieces) == want, left
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00")
            h.setctr(3)
            assert h.encrypt(bytes(64)) == stream0[3 * BLOCK: 4 * BLOCK], left
            h.setctr(0)
            assert h.encrypt(bytes(300)) == stream0, ("nonce word changed", left)
        # a partial last block, then more than is left of it
        last = oracle(rounds, key, iv, bytes(64), block=END32 - 1)
        stream_checks.check_partial_last_block(h, END32 - 1, last)
        with refused(gcrylike.CounterExhausted):
            h.encrypt(b"\x00")
        # setiv starts over too
        h.setiv(iv)
        assert h.encrypt(bytes(300)) == stream0


@CHACHA
def test_32bit_counter_end_16_byte_iv(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("end32-16", driver.algorithm)
    key, nonce = rng.randbytes(32), rng.randbytes(12)
    with driver.open() as h:
        h.setkey(key)
        for left in (1, 2, 3, 8, 9):
            iv = (END32 - left).to_bytes(4, "little") + nonce
            want = oracle(rounds, key, iv, bytes(64 * left))
            h.setiv(iv)
            out = bytearray(b"\xa5" * (64 * left + 1))
            with refused(gcrylike.CounterExhausted):
                h.encrypt(bytes(64 * left + 1), out=out)
            assert out == b"\xa5" * (64 * left + 1)
            assert h.encrypt(bytes(64 * left)) == want, left
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00")
            # setiv again: the same blocks
            h.setiv(iv)
            assert h.encrypt(bytes(64 * left)) == want, left
            # setctr(0): the nonce of the 16-byte IV, from block 0
            h.setctr(0)
            assert h.encrypt(bytes(200)) == oracle(rounds, key, nonce, bytes(200)), left


@CHACHA
@pytest.mark.parametrize("ivlen", [12, 16])
def test_setctr_past_2_32_with_rfc_iv(driver, ivlen):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("setctr-2-32", driver.algorithm, ivlen)
    key, iv = random_key_iv(rng, driver.algorithm, ivlen)
    with keyed(driver, key, iv) as h:
        h.encrypt(bytes(70))
        for bad in (END32, END32 + 1, END64 - 1, END64, 1 << 80):
            with refused(gcrylike.CounterExhausted):
                h.setctr(bad)
        assert_continues(h, rounds, key, iv, 70)
        h.setctr(END32 - 1)
        assert h.encrypt(bytes(64)) == oracle(rounds, key, iv, bytes(64), block=END32 - 1)


@ALL
@pytest.mark.parametrize("bad,cls", [
    (-1, gcrylike.InvalidArgument),
    (-(2**64), gcrylike.InvalidArgument),
    (True, gcrylike.InvalidType),
    (1.0, gcrylike.InvalidType),
    ("3", gcrylike.InvalidType),
    (None, gcrylike.InvalidType),
], ids=["-1", "-2^64", "True", "1.0", "str", "None"])
def test_setctr_bad_values(driver, bad, cls):
    rounds = ROUNDS[driver.algorithm]
    key, iv = random_key_iv(rng_for("setctr-bad", driver.algorithm), driver.algorithm)
    with keyed(driver, key, iv) as h:
        h.encrypt(bytes(70))
        with refused(cls):
            h.setctr(bad)
        assert_continues(h, rounds, key, iv, 70)


@ALL
def test_reset(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("reset", driver.algorithm)
    key, iv = random_key_iv(rng, driver.algorithm)
    _, iv2 = random_key_iv(rng, driver.algorithm)
    msg = rng.randbytes(500)
    end = END32 if len(iv2) in (12, 16) else END64
    with keyed(driver, key, iv) as h:
        stream_checks.check_reset(h, iv, iv2, msg, oracle(rounds, key, iv, msg),
                                  oracle(rounds, key, iv2, msg), end)


# ---------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algo,keylen", [
    *(("chacha20", n) for n in (0, 1, 15, 17, 24, 31, 33, 64)),
    *(("chacha12", n) for n in (0, 15, 17, 31, 33)),
    *((x, n) for x in ("xchacha20", "xchacha12") for n in (0, 16, 31, 33)),
])
def test_bad_key_length(algo, keylen):
    rounds = ROUNDS[algo.upper()]
    key, iv = random_key_iv(rng_for("bad-key", algo, keylen), algo)
    with gcrylike.cipher_open(algo) as h:
        stream_checks.check_bad_key_length(h, keylen, key, iv, oracle(rounds, key, iv, bytes(100)))


@pytest.mark.parametrize("algo,ivlen", [
    *((x, n) for x in ("chacha20", "chacha12") for n in (0, 7, 9, 11, 13, 15, 17, 23, 24, 25)),
    *((x, n) for x in ("xchacha20", "xchacha12") for n in (0, 8, 12, 16, 23, 25, 32)),
])
def test_bad_iv_length(algo, ivlen):
    rounds = ROUNDS[algo.upper()]
    key, iv = random_key_iv(rng_for("bad-iv", algo, ivlen), algo)
    with gcrylike.cipher_open(algo) as h:
        stream_checks.check_bad_iv_length(h, ivlen, key, iv, oracle(rounds, key, iv, bytes(100)))


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("what,bad", stream_checks.WRONG_TYPES)
def test_wrong_types(algo, what, bad):
    key, iv = random_key_iv(rng_for("types-bad", algo), algo)
    value = stream_checks.wrong_value(bad, 32 if what == "key" else len(iv))
    rounds = ROUNDS[algo.upper()]
    with gcrylike.cipher_open(algo) as h:
        stream_checks.check_wrong_type_refused(h, what, value, key, iv)
        if what not in ("key", "iv"):
            assert_continues(h, rounds, key, iv, 5)


@ALL
def test_out_too_short(driver):
    rounds = ROUNDS[driver.algorithm]
    key, iv = random_key_iv(rng_for("short-out", driver.algorithm), driver.algorithm)
    with keyed(driver, key, iv) as h:
        h.encrypt(bytes(3))
        stream_checks.check_short_out_refused(h)
        assert_continues(h, rounds, key, iv, 3)


@ALL
def test_overlapping_buffers(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("overlap", driver.algorithm)
    key, iv = random_key_iv(rng, driver.algorithm)
    base = rng.randbytes(600)
    with keyed(driver, key, iv) as h:
        h.encrypt(bytes(11))
        stream_checks.check_overlapping_out_refused(h, base)
        assert_continues(h, rounds, key, iv, 11)
        stream_checks.check_touching_out_allowed(h, iv, base, lambda m: oracle(rounds, key, iv, m))


@ALL
def test_missing_key_and_iv(driver):
    rounds = ROUNDS[driver.algorithm]
    key, iv = random_key_iv(rng_for("missing", driver.algorithm), driver.algorithm)
    with driver.open() as h:
        stream_checks.check_refused_without_key(h, iv)
        stream_checks.check_refused_without_iv(h, key, iv, oracle(rounds, key, iv, bytes(64)))


@ALL
def test_closed_handle(driver):
    key, iv = random_key_iv(rng_for("closed", driver.algorithm), driver.algorithm)
    h = keyed(driver, key, iv)
    h.encrypt(b"abc")
    stream_checks.check_closed_handle(h, key, iv)


# ---------------------------------------------------------------------------
# HChaCha
# ---------------------------------------------------------------------------

@XCHACHA
def test_hchacha_on_every_driver(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("hchacha", rounds)
    for _ in range(40):
        key, data = rng.randbytes(32), rng.randbytes(16)
        want = pycryptodome_hchacha20(key, data) if rounds == 20 else ref_hchacha(key, data, 12)
        assert hchacha_on(driver, key, data) == [want] * (1 + (driver.case.route != "impl"))
    if rounds == 20:
        key, data = bytes(32), bytes(16)
        assert hchacha_on(driver, key, data)[0] == ref_hchacha(key, data, 20)


@pytest.mark.parametrize("rounds", [20, 12])
def test_hchacha_drivers_agree(rounds, available_drivers):
    algo = f"xchacha{rounds}"
    names = available_drivers(algo)
    rng = rng_for("hchacha-agree", rounds)
    for _ in range(200):
        key, data = rng.randbytes(32), rng.randbytes(16)
        outs = {n: gcrylike.hchacha(key, data, rounds=rounds, impl=n) for n in names}
        outs["auto"] = gcrylike.hchacha(key, data, rounds=rounds)
        if rounds == 20:
            outs["default rounds"] = gcrylike.hchacha(key, data)
            outs["pycryptodome"] = pycryptodome_hchacha20(key, data)
        assert len(set(outs.values())) == 1, outs
    for _ in range(10):
        key, data = rng.randbytes(32), rng.randbytes(16)
        want = ref_hchacha(key, data, rounds)
        for n in names:
            got = gcrylike.hchacha(key, data, rounds=rounds, impl=n)
            assert type(got) is bytes and got == want, n


def test_hchacha_other_round_counts(available_drivers):
    """Any even round count runs (on the XChaCha20 drivers; 12 on XChaCha12's)."""
    rng = rng_for("hchacha-rounds")
    for rounds in (2, 4, 8, 10, 12, 14, 20, 24):
        names = available_drivers("xchacha12" if rounds == 12 else "xchacha20")
        key, data = rng.randbytes(32), rng.randbytes(16)
        want = ref_hchacha(key, data, rounds)
        assert gcrylike.hchacha(key, data, rounds=rounds) == want, rounds
        for n in names:
            assert gcrylike.hchacha(key, data, rounds=rounds, impl=n) == want, (rounds, n)


def test_hchacha_bad_inputs():
    key, data = bytes(range(32)), bytes(16)
    for bad in (0, 15, 16, 17, 31, 33, 64):
        with refused(gcrylike.InvalidKeyLength):
            gcrylike.hchacha(bytes(bad), data)
        with refused(gcrylike.InvalidKeyLength):
            gcrylike.hchacha(bytes(bad), data, rounds=12)
    for bad in (0, 8, 12, 15, 17, 24, 32):
        with refused(gcrylike.InvalidIVLength):
            gcrylike.hchacha(key, bytes(bad))
        with refused(gcrylike.InvalidIVLength):
            gcrylike.hchacha(key, bytearray(bad), rounds=12)
    for bad in ("x" * 16, 16, None, 1.5, [0] * 16):
        with refused(gcrylike.InvalidType):
            gcrylike.hchacha(key, bad)
        with refused(gcrylike.InvalidType):
            gcrylike.hchacha(bad if not isinstance(bad, str) else "x" * 32, data)
    for bad in (True, 20.0, "20", None):
        with refused(gcrylike.InvalidType):
            gcrylike.hchacha(key, data, rounds=bad)
    for bad in (0, 7, 13, 21):
        with refused(gcrylike.InvalidArgument):
            gcrylike.hchacha(key, data, rounds=bad)
    # a driver of another algorithm
    for rounds, impl in ((20, "chacha20-generic"), (12, "chacha12-generic"),
                         (20, "salsa20-generic"), (20, "generic"), (20, "")):
        with refused(gcrylike.UnknownName):
            gcrylike.hchacha(key, data, rounds=rounds, impl=impl)
    # any XChaCha driver computes any round count
    assert (gcrylike.hchacha(key, data, rounds=20, impl="xchacha12-generic")
            == gcrylike.hchacha(key, data, rounds=20))
    with refused(gcrylike.InvalidType):
        gcrylike.hchacha(key, data, impl=20)


@pytest.mark.parametrize("rounds", [-2, -20, 1 << 32, 1 << 40])
def test_hchacha_rounds_out_of_range(rounds):
    with refused(gcrylike.InvalidArgument):
        gcrylike.hchacha(bytes(32), bytes(16), rounds=rounds)
