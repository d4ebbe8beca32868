"""Salsa20 and Salsa20/12 on every implementation.

Independent answers only: published vectors (tests/vectors/), pycryptodome's
Salsa20 (20 rounds) and a small pure-Python Salsa20 written here from
Bernstein's specification, on the rounds of tests/nacl_oracle.py (any even
round count, any 64-bit block counter; slow, so it only sees short inputs
and spot checks).  Every test that needs randomness draws from
``random.Random`` with a fixed seed, so a failure reproduces.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import stream_checks
from checks import check_context_manager_closes, check_strided_refused, refused
from Crypto.Cipher import Salsa20 as PyCryptodomeSalsa20
from nacl_oracle import salsa20_rounds
from stream_checks import keyed, xor

import gcrylike

SEED = 0x5A15A20
ROUNDS = {"SALSA20": 20, "SALSA20R12": 12}
ALGOS = ("salsa20", "salsa20r12")
KEY_SIZES = (16, 32)
BLOCK = 64
END = 1 << 64  # the block counter is 64 bits: blocks 0 .. 2^64 - 1

BOTH = pytest.mark.algorithms(*ALGOS)
SALSA20_ONLY = pytest.mark.algorithms("salsa20")

VECTORS = Path(__file__).resolve().parent / "vectors"


def rng_for(*tags: object) -> random.Random:
    """A generator with a fixed seed per test (and per algorithm, never per
    driver: every driver sees the same inputs, so reference results are
    computed once and cached)."""
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


# ---------------------------------------------------------------------------
# Pure-Python Salsa20 (Bernstein, "Salsa20 specification", sections 2-10)
# ---------------------------------------------------------------------------

_M32 = 0xFFFFFFFF
_SIGMA = struct.unpack("<4I", b"expand 32-byte k")
_TAU = struct.unpack("<4I", b"expand 16-byte k")


@cache
def ref_block(key: bytes, nonce: bytes, counter: int, rounds: int) -> bytes:
    """Keystream block number ``counter`` (the Salsa20 hash of the input)."""
    assert len(key) in (16, 32) and len(nonce) == 8 and 0 <= counter < END
    c = _SIGMA if len(key) == 32 else _TAU
    k = struct.unpack("<8I", key if len(key) == 32 else key + key)
    n = struct.unpack("<2I", nonce)
    inp = [c[0], k[0], k[1], k[2], k[3], c[1], n[0], n[1],
           counter & _M32, counter >> 32, c[2], k[4], k[5], k[6], k[7], c[3]]
    x = salsa20_rounds(inp, rounds)
    return struct.pack("<16I", *((x[i] + inp[i]) & _M32 for i in range(16)))


def ref_keystream(key: bytes, nonce: bytes, rounds: int, nbytes: int, counter: int = 0) -> bytes:
    """``nbytes`` of keystream from the start of block ``counter``."""
    nblocks = -(-nbytes // BLOCK)
    return b"".join(ref_block(key, nonce, counter + i, rounds) for i in range(nblocks))[:nbytes]


def oracle(rounds: int, key: bytes, nonce: bytes, data: bytes, counter: int = 0) -> bytes:
    """Salsa20 encryption from an outside implementation: pycryptodome
    (20 rounds from block 0), else the reference above."""
    if rounds == 20 and counter == 0:
        return PyCryptodomeSalsa20.new(key=key, nonce=nonce).encrypt(bytes(data))
    return xor(bytes(data), ref_keystream(key, nonce, rounds, len(data), counter))


# ---------------------------------------------------------------------------
# Vectors
# ---------------------------------------------------------------------------

def load_estream() -> list[dict]:
    return json.loads((VECTORS / "estream" / "Salsa20_20_set1.json").read_text())


ADIANTUM = stream_checks.load_adiantum_vectors("Salsa20_*.json", "Salsa20")
ESTREAM = load_estream()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def random_key_nonce(rng: random.Random, keylen: int | None = None) -> tuple[bytes, bytes]:
    keylen = keylen or rng.choice(KEY_SIZES)
    return rng.randbytes(keylen), rng.randbytes(8)


def assert_continues(h, rounds: int, key: bytes, nonce: bytes, pos: int, n: int = 100) -> None:
    """The handle's next ``n`` bytes are keystream bytes ``pos .. pos + n``:
    a refused call changed neither the output nor the stream position."""
    start, skip = divmod(pos, BLOCK)
    ks = ref_keystream(key, nonce, rounds, skip + n, counter=start)[skip:]
    assert h.encrypt(bytes(n)) == ks


# ---------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------

def test_vector_files_present():
    assert len(ADIANTUM) == 20
    for rounds in (20, 12):
        for keylen in KEY_SIZES:
            vs = [v for v in ADIANTUM if v.rounds == rounds and len(v.key) == keylen]
            assert len(vs) == 5
            for v in vs:
                assert len(v.nonce) == 8 and sorted(v.blocks) == [0, 1, 1023, 1024, 2048]
                assert all(len(b) == BLOCK for b in v.blocks.values())
    assert (VECTORS / "adiantum" / "LICENSE").read_text().startswith("Copyright (c) 2018 Google")
    assert sorted(len(bytes.fromhex(v["key_hex"])) for v in ESTREAM) == [16, 16, 32, 32]


def test_reference_matches_published_vectors():
    for v in ADIANTUM:
        for k, want in v.blocks.items():
            assert ref_block(v.key, v.nonce, k, v.rounds) == want, (v.name, k)
    for v in ESTREAM:
        key, iv = bytes.fromhex(v["key_hex"]), bytes.fromhex(v["iv_hex"])
        for off, want in v["stream_hex"].items():
            want_block = bytes.fromhex(want)
            assert ref_block(key, iv, int(off) // BLOCK, 20) == want_block, v["description"]


def test_estream_transcription_matches_pycryptodome():
    for v in ESTREAM:
        key, iv = bytes.fromhex(v["key_hex"]), bytes.fromhex(v["iv_hex"])
        ks = PyCryptodomeSalsa20.new(key=key, nonce=iv).encrypt(bytes(512))
        for off, want in v["stream_hex"].items():
            assert ks[int(off): int(off) + 64] == bytes.fromhex(want), (v["description"], off)
        if "xor_digest_hex" in v:
            digest = bytes(64)
            for i in range(0, 512, 64):
                digest = xor(digest, ks[i: i + 64])
            assert digest == bytes.fromhex(v["xor_digest_hex"]), v["description"]


def test_reference_matches_pycryptodome():
    rng = rng_for("ref-vs-pycryptodome")
    for n in (0, 1, 63, 64, 65, 200, 511):
        key, nonce = random_key_nonce(rng)
        msg = rng.randbytes(n)
        want = PyCryptodomeSalsa20.new(key=key, nonce=nonce).encrypt(msg)
        assert xor(msg, ref_keystream(key, nonce, 20, n)) == want


# ---------------------------------------------------------------------------
# Look-ups, drivers, the deny list
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,canonical", [
    ("salsa20", "SALSA20"), ("SALSA20", "SALSA20"), ("SaLsA20", "SALSA20"),
    ("salsa20/20", "SALSA20"), ("SALSA20/20", "SALSA20"), (313, "SALSA20"),
    ("salsa20r12", "SALSA20R12"), ("SALSA20R12", "SALSA20R12"), ("salsa20/12", "SALSA20R12"),
    ("Salsa20/12", "SALSA20R12"), ("salsa20-12", "SALSA20R12"), ("SALSA20-12", "SALSA20R12"),
    (314, "SALSA20R12"),
])
def test_lookup(name, canonical):
    stream_checks.check_lookup(name, canonical, key_sizes=(16, 32), iv_sizes=(8,))


def test_aliases_and_ids_give_the_same_cipher():
    rng = rng_for("aliases")
    key, nonce = random_key_nonce(rng, 32)
    msg = rng.randbytes(300)
    out = {}
    for name in ("salsa20", "salsa20/20", 313, "salsa20r12", "salsa20/12", "salsa20-12", 314):
        with gcrylike.cipher_open(name) as h:
            h.setkey(key)
            h.setiv(nonce)
            out[name] = h.encrypt(msg)
    assert out["salsa20"] == out["salsa20/20"] == out[313] == oracle(20, key, nonce, msg)
    assert out["salsa20r12"] == out["salsa20/12"] == out["salsa20-12"] == out[314]
    assert out[314] == oracle(12, key, nonce, msg)


@pytest.mark.parametrize("algo", ALGOS)
def test_implementations_listing(algo):
    infos = gcrylike.implementations(algo)
    assert infos, "no implementation registered"
    assert [i.priority for i in infos] == sorted((i.priority for i in infos), reverse=True)
    assert len({i.driver for i in infos}) == len(infos)
    generic = [i for i in infos if not i.features]
    assert generic and all(i.available for i in generic), "a portable driver must always run"
    for i in infos:
        assert i.driver.startswith(algo + "-")
        assert i.features <= set(gcrylike.hw_features()) or not i.available
        assert i.available == (i.reason == "")
        assert i.selftest in ("passed", "failed", "untested")


@pytest.mark.parametrize("algo", ALGOS)
def test_impl_name_any_case(algo):
    for info in gcrylike.implementations(algo):
        if info.available:
            with gcrylike.cipher_open(algo.upper(), impl=info.driver.upper()) as h:
                assert h.info.driver == info.driver


@pytest.mark.parametrize("algo", ALGOS)
def test_deny_list_picks_the_next_driver(algo, hwf_deny):
    infos = gcrylike.implementations(algo)
    with gcrylike.cipher_open(algo) as before:
        chosen_before = before.info.driver
        for info in infos:
            if not info.available or not info.features:
                continue
            hwf_deny(info.features)
            assert not (info.features & gcrylike.hw_features())
            now = {i.driver: i for i in gcrylike.implementations(algo)}
            assert not now[info.driver].available
            assert all(f"{f}" in now[info.driver].reason for f in info.features)
            assert "denied" in now[info.driver].reason
            expected = next(i.driver for i in gcrylike.implementations(algo) if i.available)
            with gcrylike.cipher_open(algo) as h:
                assert h.info.driver == expected != info.driver
            # a forced driver whose features are denied cannot be opened
            with refused(gcrylike.NotSupported):
                gcrylike.cipher_open(algo, impl=info.driver)
        # the list applies to handles opened afterwards only
        before.setkey(bytes(32))
        before.setiv(bytes(8))
        assert before.info.driver == chosen_before
        rounds = ROUNDS[before.info.algorithm]
        assert before.encrypt(bytes(64)) == ref_block(bytes(32), bytes(8), 0, rounds)


@pytest.mark.parametrize("algo", ALGOS)
def test_sse2_denied_means_generic(algo, hwf_deny):
    # (the AVX-512 driver does not use SSE2: it steps down on its own
    # features; on aarch64 the NEON one is denied by its own)
    previous = hwf_deny(["sse2", "avx512f", "neon"])
    assert "sse2" not in gcrylike.hw_features()
    with gcrylike.cipher_open(algo) as h:
        assert h.info.driver == f"{algo}-generic"
    # set_hwf_deny returns the list it replaces
    assert "sse2" in hwf_deny(previous)
    hwf_deny("all")
    assert not gcrylike.hw_features()
    with gcrylike.cipher_open(algo) as h:
        assert h.info.driver == f"{algo}-generic"


@pytest.mark.parametrize("name", ["salsa", "salsa20/8", "salsa21", "no-such-cipher", "",
                                  0, -1, 312, 315, 99999, 1 << 70])
def test_unknown_algorithm(name):
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open(name)
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.implementations(name)


@pytest.mark.parametrize("name", [None, 313.0, b"salsa20", True, ["salsa20"]])
def test_algorithm_of_wrong_type(name):
    with refused(gcrylike.InvalidType):
        gcrylike.cipher_open(name)


@pytest.mark.parametrize("algo,impl", [
    ("salsa20", "nope"), ("salsa20", ""), ("salsa20", "salsa20-nosuch"),
    ("salsa20", "salsa20r12-generic"), ("salsa20r12", "salsa20-generic"), ("salsa20r12", "generic"),
])
def test_unknown_impl(algo, impl):
    with refused(gcrylike.UnknownName):
        gcrylike.cipher_open(algo, impl=impl)


def test_impl_of_wrong_type():
    with refused(gcrylike.InvalidType):
        gcrylike.cipher_open("salsa20", impl=5)


@BOTH
def test_selftest_passed_after_use(driver):
    with keyed(driver, bytes(16), bytes(8)) as h:
        h.encrypt(b"x")
    status = {i.driver: i.selftest for i in gcrylike.implementations(driver.algorithm)}
    assert status[driver.name] == "passed"


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@BOTH
def test_adiantum_vectors(driver):
    rounds = ROUNDS[driver.algorithm]
    vectors = [v for v in ADIANTUM if v.rounds == rounds]
    assert len(vectors) == 10
    rng = rng_for("adiantum", rounds)
    with driver.open() as h:
        for v in vectors:
            h.setkey(v.key)
            for k, want in sorted(v.blocks.items()):
                where = f"{v.name}, block {k}"
                # seeking to the block, and inside a long request
                stream_checks.check_keystream_block(h, v.nonce, k, want, rng, where,
                                                    most_before=10, most_after=14)
                # from block 0 in one call
                h.setiv(v.nonce)
                assert h.encrypt(bytes(64 * (k + 1)))[-64:] == want, where


@SALSA20_ONLY
def test_estream_set1_vectors(driver):
    with driver.open() as h:
        for v in ESTREAM:
            key, iv = bytes.fromhex(v["key_hex"]), bytes.fromhex(v["iv_hex"])
            h.setkey(key)
            h.setiv(iv)
            ks = h.encrypt(bytes(512))
            for off, want in v["stream_hex"].items():
                assert ks[int(off): int(off) + 64] == bytes.fromhex(want), (v["description"], off)
                h.setiv(iv)
                h.setctr(int(off) // BLOCK)
                assert h.encrypt(bytes(64)) == bytes.fromhex(want), (v["description"], off)
            if "xor_digest_hex" in v:
                digest = bytes(64)
                for i in range(0, 512, 64):
                    digest = xor(digest, ks[i: i + 64])
                assert digest == bytes.fromhex(v["xor_digest_hex"]), v["description"]


# ---------------------------------------------------------------------------
# Cross-checks
# ---------------------------------------------------------------------------

@BOTH
def test_every_length_against_oracle(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("every-length", rounds)
    with driver.open() as h:
        for keylen in KEY_SIZES:
            if rounds == 20:
                # pycryptodome is fast: a fresh key and nonce for every length
                for n in range(1101):
                    key, nonce = random_key_nonce(rng, keylen)
                    msg = rng.randbytes(n)
                    h.setkey(key)
                    h.setiv(nonce)
                    ct = h.encrypt(msg)
                    assert type(ct) is bytes
                    assert ct == oracle(20, key, nonce, msg), (keylen, n)
                    if n % 97 == 0:
                        h.setiv(nonce)
                        assert h.decrypt(ct) == msg
            else:
                # the reference is slow: fresh keys up to 300 bytes, then
                # prefixes of a few reference streams
                for n in range(301):
                    key, nonce = random_key_nonce(rng, keylen)
                    msg = rng.randbytes(n)
                    h.setkey(key)
                    h.setiv(nonce)
                    assert h.encrypt(msg) == oracle(12, key, nonce, msg), (keylen, n)
                for trial in range(3):
                    key, nonce = random_key_nonce(rng, keylen)
                    ks = ref_keystream(key, nonce, 12, 1100)
                    h.setkey(key)
                    for n in range(301 + trial, 1101, 3):
                        msg = rng.randbytes(n)
                        h.setiv(nonce)
                        assert h.encrypt(msg) == xor(msg, ks[:n]), (keylen, n)


def _long_lengths() -> list[int]:
    near = {m * k + d for m in (64, 256) for k in (1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33,
                                                     63, 64, 65, 127, 128, 129, 255, 256, 257)
            for d in (-3, -2, -1, 0, 1, 2, 3)}
    stride = set(range(1100, 70000, 997))
    return sorted(n for n in near | stride if n > 0)


@pytest.mark.parametrize("algo", ALGOS)
def test_drivers_agree_on_long_inputs(algo, available_drivers):
    names = available_drivers(algo)
    rounds = ROUNDS[algo.upper()]
    rng = rng_for("agree", algo)
    for keylen in KEY_SIZES:
        key, nonce = random_key_nonce(rng, keylen)
        with stream_checks.open_on_each(algo, names) as handles:
            for h in handles:
                h.setkey(key)
            cases = [(n, 0) for n in _long_lengths()]
            cases += [(rng.randrange(1, 40000), rng.randrange(END - 2**20)) for _ in range(40)]
            cases += [(3 << 20, 0), ((2 << 20) + 77, rng.randrange(END - 2**20))]
            for n, start in cases:
                msg = rng.randbytes(n)
                ct = stream_checks.encrypt_on_every_handle(handles, names, nonce, start, msg)
                if rounds == 20 and start == 0:
                    assert ct == oracle(20, key, nonce, msg), (n, start)
                else:
                    # spot-check whole blocks (the last one too) against the reference
                    nblocks = n // BLOCK
                    picks = {rng.randrange(nblocks) for _ in range(3)} if nblocks else set()
                    picks |= {nblocks - 1} if nblocks else set()
                    for b in picks:
                        seg = slice(b * BLOCK, (b + 1) * BLOCK)
                        assert xor(ct[seg], msg[seg]) == ref_block(key, nonce, start + b, rounds), \
                            (n, start, b)
                    tail = n % BLOCK
                    if tail:
                        seg = slice(n - tail, n)
                        want = ref_block(key, nonce, start + nblocks, rounds)[:tail]
                        assert xor(ct[seg], msg[seg]) == want, (n, start, "tail")


# ---------------------------------------------------------------------------
# Streaming: splits, buffers, types
# ---------------------------------------------------------------------------

@BOTH
def test_split_at_every_offset(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("split-window", rounds)
    key, nonce = random_key_nonce(rng)
    msg = rng.randbytes(1400)
    with keyed(driver, key, nonce) as h:
        whole = h.encrypt(msg)
        assert whole == oracle(rounds, key, nonce, msg)
        for first in range(201):
            stream_checks.check_three_way_splits(h, nonce, msg, whole, first,
                                                 (0, 1, 3, 61, 64, 67, 128, 255, 256, 257, 513))


@BOTH
def test_random_multiway_splits(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("multiway", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        for trial in range(150):
            n = rng.randrange(0, 6000)
            msg = rng.randbytes(n)
            start = rng.choice((0, rng.randrange(1000), rng.randrange(END - 1000)))
            h.setiv(nonce)
            h.setctr(start)
            whole = h.encrypt(msg)
            cuts = sorted(rng.randrange(n + 1) for _ in range(rng.randrange(1, 25)))
            h.setiv(nonce)
            h.setctr(start)
            out = stream_checks.encrypt_in_random_pieces(h, msg, cuts, rng)
            assert out == whole, (trial, n, start, cuts)


@BOTH
def test_unaligned_input_and_output(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("unaligned", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        for n in (1, 15, 63, 64, 65, 255, 256, 257, 1000, 1031):
            msg = rng.randbytes(n)
            want = oracle(rounds, key, nonce, msg)
            # every pair of offsets 0..15, and in place at each of them
            stream_checks.check_unaligned(h, nonce, msg, want, rng,
                                          [(i, o) for i in range(16) for o in range(16)], range(16))


@BOTH
def test_in_place_and_long_out(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("in-place", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        stream_checks.check_in_place_and_long_out(h, nonce, rng,
                                                  lambda msg: oracle(rounds, key, nonce, msg))


@BOTH
def test_input_and_output_types(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("types", rounds)
    key, nonce = random_key_nonce(rng)
    msg = rng.randbytes(777)
    with driver.open() as h:
        want = oracle(rounds, key, nonce, msg)
        stream_checks.check_input_and_output_types(h, key, nonce, msg, want)


@BOTH
def test_results_are_fresh_and_inputs_untouched(driver):
    """Every result is a new bytes object (equal, hash-consistent), and no
    input or shared constant is written to, for every small length."""
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("fresh", rounds))
    ks = ref_keystream(key, nonce, rounds, 300)
    with keyed(driver, key, nonce) as h:
        for n in range(300):
            for data in (bytes(n), b"\x00" * n):
                h.setiv(nonce)
                ct = h.encrypt(data)
                assert type(ct) is bytes and ct == ks[:n], n
                assert data == bytes(bytearray(n)), f"input of {n} bytes was written to"
                copy = bytes(bytearray(ct))
                assert hash(ct) == hash(copy) and {copy: n}[ct] == n
                if n:
                    assert ct is not data
                h.setiv(nonce)
                assert h.decrypt(ct) == data
    for n in range(70):
        assert b"\x00" * n == bytes(n) == bytes(bytearray(n))
        assert b"\xa5" * n == bytes(bytearray(b"\xa5") * n)


@BOTH
def test_two_handles_are_independent(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("independent", rounds)
    k1, n1 = random_key_nonce(rng)
    k2, n2 = random_key_nonce(rng)
    msg = rng.randbytes(1000)
    with keyed(driver, k1, n1) as a, keyed(driver, k2, n2) as b:
        stream_checks.check_two_handles_are_independent(a, b, msg, oracle(rounds, k1, n1, msg),
                                                        oracle(rounds, k2, n2, msg))


# ---------------------------------------------------------------------------
# The block counter
# ---------------------------------------------------------------------------

CARRY_STARTS = [
    2**32 - 1, 2**32 - 2, 2**32 - 3, 2**32 - 4, 2**32 - 5, 2**32 - 8, 2**32 - 9,
    2**33 - 3, 2**48 - 6, 2**63 - 3, END - 2**32 - 3,
]


@BOTH
def test_counter_carries_into_the_high_word(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("carry", rounds)
    with driver.open() as h:
        for keylen in KEY_SIZES:
            key, nonce = random_key_nonce(rng, keylen)
            h.setkey(key)
            for start in CARRY_STARTS:
                n = 11 * BLOCK + 17
                ks = ref_keystream(key, nonce, rounds, n, counter=start)
                msg = rng.randbytes(n)
                stream_checks.check_counter_run(h, nonce, start, msg, ks)


@BOTH
def test_counter_end_exact_fit(driver):
    """The last blocks of the stream can be used; one byte more is refused,
    before anything is written, and the position stays where it was."""
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("end", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        for left in (1, 2, 3, 4, 5, 7, 8, 9, 12):
            start = END - left
            n = left * BLOCK
            ks = ref_keystream(key, nonce, rounds, n, counter=start)
            msg = rng.randbytes(n)
            # one byte too many, from the start: refused, nothing written
            for data_len in (n + 1, n + 64, n + 1000):
                data = msg + rng.randbytes(data_len - n)
                stream_checks.check_too_long_refused(h, nonce, start, data)
            # the refusals did not move the position: the whole rest still fits
            assert h.encrypt(msg) == xor(msg, ks), left
            # now at the end: one more byte is refused and nothing written
            out = bytearray(b"\xa5" * 8)
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00", out=out)
            assert out == b"\xa5" * 8
            with refused(gcrylike.CounterExhausted):
                h.decrypt(bytes(64))


@BOTH
def test_counter_last_block(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("last-block", rounds)
    key, nonce = random_key_nonce(rng)
    last = ref_block(key, nonce, END - 1, rounds)
    with keyed(driver, key, nonce) as h:
        h.setctr(END - 1)
        assert h.encrypt(bytes(64)) == last
        with refused(gcrylike.CounterExhausted):
            h.encrypt(bytes(1))
        stream_checks.check_last_block_in_pieces(h, nonce, END - 1, last)
        # a partial last block, then more than is left of it
        h.setiv(nonce)
        stream_checks.check_partial_last_block(h, END - 1, last)
        # setiv and setctr start over after the end
        h.setiv(nonce)
        assert h.encrypt(bytes(64)) == ref_block(key, nonce, 0, rounds)
        h.setctr(END - 1)
        h.encrypt(bytes(64))
        h.setctr(5)
        assert h.encrypt(bytes(64)) == ref_block(key, nonce, 5, rounds)


@BOTH
def test_counter_2_64_minus_2_then_200_bytes(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("minus-2", rounds)
    key, nonce = random_key_nonce(rng)
    msg = rng.randbytes(200)
    with keyed(driver, key, nonce) as h:
        h.setctr(END - 2)
        out = bytearray(b"\xa5" * 200)
        with refused(gcrylike.CounterExhausted):
            h.encrypt(msg, out=out)
        assert out == b"\xa5" * 200
        data = bytearray(msg)
        with refused(gcrylike.CounterExhausted):
            h.encrypt(data, out=data)
        assert data == msg
        # nothing moved: blocks 2^64-2 and 2^64-1 are still ahead
        assert h.encrypt(msg[:128]) == oracle(rounds, key, nonce, msg[:128], counter=END - 2)


@BOTH
def test_setctr_past_the_end(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("past-end", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        h.encrypt(bytes(10))
        for bad in (END, END + 1, 2 * END, 1 << 100):
            with refused(gcrylike.CounterExhausted):
                h.setctr(bad)
        assert_continues(h, rounds, key, nonce, 10)


@BOTH
@pytest.mark.parametrize("bad,cls", [
    (-1, gcrylike.InvalidArgument),
    (-(2**64), gcrylike.InvalidArgument),
    (True, gcrylike.InvalidType),
    (False, gcrylike.InvalidType),
    (1.0, gcrylike.InvalidType),
    (2.5, gcrylike.InvalidType),
    ("3", gcrylike.InvalidType),
    (None, gcrylike.InvalidType),
], ids=["-1", "-2^64", "True", "False", "1.0", "2.5", "str", "None"])
def test_setctr_bad_values(driver, bad, cls):
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("setctr-bad", rounds))
    with keyed(driver, key, nonce) as h:
        h.encrypt(bytes(70))
        with refused(cls):
            h.setctr(bad)
        assert_continues(h, rounds, key, nonce, 70)


# ---------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("keylen", [0, 1, 15, 17, 24, 31, 33, 64])
def test_bad_key_length(algo, keylen):
    rounds = ROUNDS[algo.upper()]
    key, nonce = random_key_nonce(rng_for("bad-key", algo, keylen))
    with gcrylike.cipher_open(algo) as h:
        want = oracle(rounds, key, nonce, bytes(100))
        stream_checks.check_bad_key_length(h, keylen, key, nonce, want)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("ivlen", [0, 1, 7, 9, 12, 16, 24, 32])
def test_bad_iv_length(algo, ivlen):
    rounds = ROUNDS[algo.upper()]
    key, nonce = random_key_nonce(rng_for("bad-iv", algo, ivlen))
    with gcrylike.cipher_open(algo) as h:
        want = oracle(rounds, key, nonce, bytes(100))
        stream_checks.check_bad_iv_length(h, ivlen, key, nonce, want)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("what,bad", stream_checks.WRONG_TYPES)
def test_wrong_types(algo, what, bad):
    value = stream_checks.wrong_value(bad, 32 if what == "key" else 8)
    rounds = ROUNDS[algo.upper()]
    key, nonce = random_key_nonce(rng_for("types-bad", algo))
    with gcrylike.cipher_open(algo) as h:
        stream_checks.check_wrong_type_refused(h, what, value, key, nonce)
        if what not in ("key", "iv"):
            assert_continues(h, rounds, key, nonce, 5)


@BOTH
def test_out_too_short(driver):
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("short-out", rounds))
    with keyed(driver, key, nonce) as h:
        h.encrypt(bytes(3))
        stream_checks.check_short_out_refused(h)
        assert_continues(h, rounds, key, nonce, 3)


@BOTH
@pytest.mark.parametrize("make_out", [bytes, lambda n: memoryview(bytes(n))],
                         ids=["bytes", "readonly-memoryview"])
def test_out_read_only(driver, make_out):
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("readonly-out", rounds))
    with keyed(driver, key, nonce) as h:
        h.encrypt(bytes(7))
        out = make_out(16)
        with refused(gcrylike.ReadOnlyBuffer):
            h.encrypt(bytes(16), out=out)
        assert bytes(out) == bytes(16)
        assert_continues(h, rounds, key, nonce, 7)


@BOTH
def test_overlapping_buffers(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("overlap", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        h.encrypt(bytes(11))
        base = rng.randbytes(600)
        stream_checks.check_overlapping_out_refused(h, base)
        assert_continues(h, rounds, key, nonce, 11)
        stream_checks.check_touching_out_allowed(h, nonce, base,
                                                 lambda m: oracle(rounds, key, nonce, m))


@BOTH
def test_non_contiguous_buffer_is_refused(driver):
    key, nonce = random_key_nonce(rng_for("strided"))
    with keyed(driver, key, nonce) as h:
        buf = bytearray(range(200))
        out = bytearray(b"\xa5" * 100)
        for call in (lambda: h.encrypt(memoryview(buf)[::2], out=out),
                     lambda: h.encrypt(bytes(50), out=memoryview(out)[::2])):
            check_strided_refused([call])
            assert out == b"\xa5" * 100
        assert_continues(h, ROUNDS[driver.algorithm], key, nonce, 0)


# ---------------------------------------------------------------------------
# Handle states and lifetime
# ---------------------------------------------------------------------------

@BOTH
def test_missing_key(driver):
    with driver.open() as h:
        stream_checks.check_refused_without_key(h, bytes(8))


@BOTH
def test_missing_iv(driver):
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("missing-iv", rounds))
    with driver.open() as h:
        stream_checks.check_refused_without_iv(h, key, nonce, ref_block(key, nonce, 0, rounds))


@BOTH
def test_closed_handle(driver):
    key, nonce = random_key_nonce(rng_for("closed"))
    h = keyed(driver, key, nonce)
    h.encrypt(b"abc")
    stream_checks.check_closed_handle(h, key, nonce)


@BOTH
def test_context_manager_closes(driver):
    check_context_manager_closes(driver.open, bytes(16))


@BOTH
def test_reset(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("reset", rounds)
    key, nonce = random_key_nonce(rng)
    nonce2 = rng.randbytes(8)
    msg = rng.randbytes(500)
    with keyed(driver, key, nonce) as h:
        first = oracle(rounds, key, nonce, msg)
        second = oracle(rounds, key, nonce2, msg)
        stream_checks.check_reset(h, nonce, nonce2, msg, first, second, END)
        # reset goes back to the latest key
        key2, _ = random_key_nonce(rng)
        h.setkey(key2)
        h.setiv(nonce)
        h.encrypt(b"xyz")
        h.reset()
        h.setiv(nonce)
        assert h.encrypt(msg) == oracle(rounds, key2, nonce, msg)
        # setiv alone rewinds too
        h.setiv(nonce)
        assert h.encrypt(msg) == oracle(rounds, key2, nonce, msg)


@BOTH
def test_many_setkey_setiv_cycles(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("cycles", rounds)
    with driver.open() as h:
        for i in range(600):
            key, nonce = random_key_nonce(rng)
            msg = rng.randbytes(rng.randrange(0, 200))
            h.setkey(key)
            step = i % 3
            if step == 1:
                h.setiv(rng.randbytes(8))
                h.encrypt(rng.randbytes(rng.randrange(100)))
                h.reset()
            elif step == 2:
                h.setiv(rng.randbytes(8))
                h.encrypt(rng.randbytes(rng.randrange(100)))
            h.setiv(nonce)
            assert h.encrypt(msg) == oracle(rounds, key, nonce, msg), i


# A refused call whose exception is kept (pytest.raises, a logger, ``except
# ... as e: saved = e``) puts the library's frames in a reference cycle; if
# they still hold cffi views of memoryview arguments, collecting the cycle
# crashes CPython (memoryview tp_clear with live exports).  Regression test
# for that crash, in a child process so that it cannot take the run down.
_GC_SCRIPT = r"""
import gc, sys
import gcrylike

h = gcrylike.cipher_open(sys.argv[1])
h.setkey(bytes(32))
h.setiv(bytes(8))
case = sys.argv[2]

def refused_call():
    view = memoryview(bytearray(300))
    try:
        if case == "out-too-short":
            h.encrypt(bytes(10), out=view[:5])
        elif case == "overlap":
            h.encrypt(view[0:100], out=view[1:101])
        elif case == "exhausted":
            h.setctr(2**64 - 1)
            h.encrypt(view[:100])
    except gcrylike.GcryError as e:
        kept = e  # this frame -> kept -> traceback -> this frame
        return type(kept).__name__
    return "not refused"

print(refused_call(), flush=True)
gc.collect()
print("survived", flush=True)
"""


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("case", ["out-too-short", "overlap", "exhausted"])
def test_gc_after_a_refused_call(algo, case):
    res = subprocess.run([sys.executable, "-c", _GC_SCRIPT, algo, case],
                         capture_output=True, text=True, timeout=120, check=False)
    expected = {"out-too-short": "InvalidLength", "overlap": "InvalidArgument",
                "exhausted": "CounterExhausted"}[case]
    assert res.stdout.split()[:1] == [expected], (res.stdout, res.stderr[-3000:])
    assert res.returncode == 0 and "survived" in res.stdout, \
        f"exit status {res.returncode}: {res.stderr[-3000:]}"
