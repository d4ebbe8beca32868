"""Salsa20 and Salsa20/12 on every implementation.

Independent answers only: published vectors (tests/vectors/), pycryptodome's
Salsa20 (20 rounds) and a small pure-Python Salsa20 written here from
Bernstein's specification (any even round count, any 64-bit block counter;
slow, so it only sees short inputs and spot checks).  Every test that needs
randomness draws from ``random.Random`` with a fixed seed, so a failure
reproduces.
"""

from __future__ import annotations

import array
import json
import random
import struct
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from checks import refused
from Crypto.Cipher import Salsa20 as PyCryptodomeSalsa20

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


def _rotl(v: int, c: int) -> int:
    return ((v << c) | (v >> (32 - c))) & _M32


@cache
def ref_block(key: bytes, nonce: bytes, counter: int, rounds: int) -> bytes:
    """Keystream block number ``counter`` (the Salsa20 hash of the input)."""
    assert len(key) in (16, 32) and len(nonce) == 8 and 0 <= counter < END
    c = _SIGMA if len(key) == 32 else _TAU
    k = struct.unpack("<8I", key if len(key) == 32 else key + key)
    n = struct.unpack("<2I", nonce)
    inp = [c[0], k[0], k[1], k[2], k[3], c[1], n[0], n[1],
           counter & _M32, counter >> 32, c[2], k[4], k[5], k[6], k[7], c[3]]
    x = list(inp)

    def quarterround(a: int, b: int, cc: int, d: int) -> None:
        x[b] ^= _rotl((x[a] + x[d]) & _M32, 7)
        x[cc] ^= _rotl((x[b] + x[a]) & _M32, 9)
        x[d] ^= _rotl((x[cc] + x[b]) & _M32, 13)
        x[a] ^= _rotl((x[d] + x[cc]) & _M32, 18)

    for _ in range(rounds // 2):
        # columnround, then rowround
        quarterround(0, 4, 8, 12)
        quarterround(5, 9, 13, 1)
        quarterround(10, 14, 2, 6)
        quarterround(15, 3, 7, 11)
        quarterround(0, 1, 2, 3)
        quarterround(5, 6, 7, 4)
        quarterround(10, 11, 8, 9)
        quarterround(15, 12, 13, 14)
    return struct.pack("<16I", *((x[i] + inp[i]) & _M32 for i in range(16)))


def ref_keystream(key: bytes, nonce: bytes, rounds: int, nbytes: int, counter: int = 0) -> bytes:
    """``nbytes`` of keystream from the start of block ``counter``."""
    nblocks = -(-nbytes // BLOCK)
    return b"".join(ref_block(key, nonce, counter + i, rounds) for i in range(nblocks))[:nbytes]


def xor(a: bytes, b: bytes) -> bytes:
    assert len(a) == len(b)
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")


def oracle(rounds: int, key: bytes, nonce: bytes, data: bytes, counter: int = 0) -> bytes:
    """Salsa20 encryption from an outside implementation: pycryptodome
    (20 rounds from block 0), else the reference above."""
    if rounds == 20 and counter == 0:
        return PyCryptodomeSalsa20.new(key=key, nonce=nonce).encrypt(bytes(data))
    return xor(bytes(data), ref_keystream(key, nonce, rounds, len(data), counter))


# ---------------------------------------------------------------------------
# Vectors
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BlockVector:
    name: str
    rounds: int
    key: bytes
    nonce: bytes
    blocks: dict[int, bytes]  # block counter -> 64-byte keystream block


def load_adiantum() -> list[BlockVector]:
    out = []
    for path in sorted((VECTORS / "adiantum").glob("Salsa20_*.json")):
        for entry in json.loads(path.read_text()):
            assert entry["cipher"]["cipher"] == "Salsa20"
            blocks = {t["input"]["offset"]: bytes.fromhex(t["result_hex"]) for t in entry["tests"]}
            out.append(BlockVector(f"{path.stem} {entry['description']}",
                                   entry["cipher"]["rounds"],
                                   bytes.fromhex(entry["input"]["key_hex"]),
                                   bytes.fromhex(entry["input"]["nonce_hex"]), blocks))
    return out


def load_estream() -> list[dict]:
    return json.loads((VECTORS / "estream" / "Salsa20_20_set1.json").read_text())


ADIANTUM = load_adiantum()
ESTREAM = load_estream()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def keyed(driver, key: bytes, nonce: bytes) -> gcrylike.CipherHandle:
    h = driver.open()
    h.setkey(key)
    h.setiv(nonce)
    return h





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
    assert canonical in gcrylike.algorithms()
    infos = gcrylike.implementations(name)
    assert [i.driver for i in infos] == [i.driver for i in gcrylike.implementations(canonical)]
    best = next(i.driver for i in infos if i.available)
    with gcrylike.cipher_open(name) as h:
        info = h.info
        assert info.algorithm == canonical
        assert info.driver == best
        assert info.block_size == 1
        assert sorted(info.key_sizes) == [16, 32]
        assert info.iv_sizes == (8,)


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
    previous = hwf_deny(["sse2"])
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
                # 1. seek straight to the block
                h.setiv(v.nonce)
                h.setctr(k)
                assert h.encrypt(bytes(64)) == want, where
                h.setiv(v.nonce)
                h.setctr(k)
                assert h.decrypt(bytes(64)) == want, where
                # 2. from block 0 in one call
                h.setiv(v.nonce)
                assert h.encrypt(bytes(64 * (k + 1)))[-64:] == want, where
                # 3. inside a long request over non-zero data, which starts a
                #    few blocks earlier and not on a block boundary
                start = max(0, k - rng.randrange(1, 10))
                prefix = rng.randrange(1, 64) if k > start else 0
                h.setiv(v.nonce)
                h.setctr(start)
                h.encrypt(bytes(prefix))
                msg = rng.randbytes(64 * (k - start + rng.randrange(1, 14)))
                ct = h.encrypt(msg)
                pos = 64 * (k - start) - prefix
                assert xor(ct[pos: pos + 64], msg[pos: pos + 64]) == want, where


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
        handles = [gcrylike.cipher_open(algo, impl=n) for n in names]
        try:
            for h in handles:
                h.setkey(key)
            cases = [(n, 0) for n in _long_lengths()]
            cases += [(rng.randrange(1, 40000), rng.randrange(END - 2**20)) for _ in range(40)]
            cases += [(3 << 20, 0), ((2 << 20) + 77, rng.randrange(END - 2**20))]
            for n, start in cases:
                msg = rng.randbytes(n)
                outs = []
                for h in handles:
                    h.setiv(nonce)
                    h.setctr(start)
                    outs.append(h.encrypt(msg))
                for name, out in zip(names, outs, strict=True):
                    assert out == outs[0], f"{name} differs from {names[0]} (n={n}, start={start})"
                ct = outs[0]
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
        finally:
            for h in handles:
                h.close()


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
            for second in (0, 1, 3, 61, 64, 67, 128, 255, 256, 257, 513):
                h.setiv(nonce)
                a = h.encrypt(msg[:first])
                b = h.encrypt(msg[first: first + second])
                c = h.encrypt(msg[first + second:])
                assert a + b + c == whole, (first, second)


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
            out = bytearray()
            for lo, hi in zip([0, *cuts], [*cuts, n], strict=True):
                piece = msg[lo:hi]
                mode = rng.randrange(3)
                if mode == 0:
                    out += h.encrypt(piece)
                elif mode == 1:
                    out += h.decrypt(piece)
                else:
                    dst = bytearray(hi - lo)
                    assert h.encrypt(piece, out=dst) == hi - lo
                    out += dst
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
            for in_off in range(16):
                src = bytearray(rng.randbytes(n + 32))
                src[in_off: in_off + n] = msg
                src_copy = bytes(src)
                for out_off in range(16):
                    dst = bytearray(b"\xa5" * (n + 32))
                    h.setiv(nonce)
                    got = h.encrypt(memoryview(src)[in_off: in_off + n],
                                    out=memoryview(dst)[out_off: out_off + n])
                    assert got == n
                    assert dst[out_off: out_off + n] == want, (n, in_off, out_off)
                    assert dst[:out_off] == b"\xa5" * out_off
                    assert dst[out_off + n:] == b"\xa5" * (32 - out_off)
                    assert src == src_copy
                # in place at the same unaligned offset
                buf = bytearray(src)
                view = memoryview(buf)[in_off: in_off + n]
                h.setiv(nonce)
                assert h.encrypt(view, out=view) == n
                assert buf[in_off: in_off + n] == want
                assert buf[:in_off] == src[:in_off] and buf[in_off + n:] == src[in_off + n:]


@BOTH
def test_in_place_and_long_out(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("in-place", rounds)
    key, nonce = random_key_nonce(rng)
    with keyed(driver, key, nonce) as h:
        for n in (0, 1, 64, 100, 256, 257, 1000, 4096 + 13):
            msg = rng.randbytes(n)
            want = oracle(rounds, key, nonce, msg)
            # in place in a bytearray, and back
            data = bytearray(msg)
            h.setiv(nonce)
            assert h.encrypt(data, out=data) == n
            assert data == want
            h.setiv(nonce)
            assert h.decrypt(data, out=data) == n
            assert data == msg
            # in place in an array('B')
            arr = array.array("B", msg)
            h.setiv(nonce)
            assert h.encrypt(arr, out=arr) == n
            assert arr.tobytes() == want
            # out= longer than needed: the rest is left alone
            for extra in (1, 63, 100):
                out = bytearray(b"\x5a" * (n + extra))
                h.setiv(nonce)
                assert h.encrypt(msg, out=out) == n
                assert out[:n] == want and out[n:] == b"\x5a" * extra
                out = bytearray(b"\x5a" * (n + extra + 8))
                h.setiv(nonce)
                assert h.encrypt(msg, out=memoryview(out)[3:]) == n
                assert out[:3] == b"\x5a" * 3 and out[3: 3 + n] == want
                assert out[3 + n:] == b"\x5a" * (extra + 5)


@BOTH
def test_input_and_output_types(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("types", rounds)
    key, nonce = random_key_nonce(rng)
    msg = rng.randbytes(777)
    want = oracle(rounds, key, nonce, msg)
    inputs = {
        "bytes": bytes(msg),
        "bytearray": bytearray(msg),
        "memoryview": memoryview(bytearray(msg)),
        "memoryview-readonly": memoryview(msg),
        "array-B": array.array("B", msg),
        "memoryview-cast": memoryview(bytearray(msg)).cast("B"),
    }
    with driver.open() as h:
        for kname, k in (("bytes", key), ("bytearray", bytearray(key)),
                         ("memoryview", memoryview(key)), ("array", array.array("B", key))):
            h.setkey(k)
            for iname, iv in (("bytes", nonce), ("bytearray", bytearray(nonce)),
                              ("array", array.array("B", nonce))):
                h.setiv(iv)
                assert h.encrypt(msg) == want, (kname, iname)
        for name, data in inputs.items():
            h.setiv(nonce)
            ct = h.encrypt(data)
            assert type(ct) is bytes and ct == want, name
            h.setiv(nonce)
            assert h.decrypt(ct) == msg, name
            for oname, make in (("bytearray", bytearray),
                                ("memoryview", lambda n: memoryview(bytearray(n))),
                                ("array-B", lambda n: array.array("B", bytes(n)))):
                out = make(len(msg))
                h.setiv(nonce)
                assert h.encrypt(data, out=out) == len(msg)
                assert bytes(out) == want, (name, oname)
            assert bytes(data) == msg, f"{name} input was modified"


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
        out_a, out_b = bytearray(), bytearray()
        for lo in range(0, 1000, 77):
            out_a += a.encrypt(msg[lo: lo + 77])
            out_b += b.encrypt(msg[lo: lo + 77])
    assert out_a == oracle(rounds, k1, n1, msg)
    assert out_b == oracle(rounds, k2, n2, msg)


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
                # one call (the bulk path)
                h.setiv(nonce)
                h.setctr(start)
                assert h.encrypt(msg) == xor(msg, ks), (keylen, start)
                # in pieces that straddle block and batch boundaries
                h.setiv(nonce)
                h.setctr(start)
                out, pos = bytearray(), 0
                for size in (1, 62, 65, 256, 3, 320):
                    out += h.encrypt(msg[pos: pos + size])
                    pos += size
                out += h.encrypt(msg[pos:])
                assert out == xor(msg, ks), (keylen, start, "pieces")
                # seeking to each block
                for b in range(11):
                    h.setctr(start + b)
                    assert h.encrypt(bytes(BLOCK)) == ks[b * BLOCK: (b + 1) * BLOCK], (start, b)
                # the seek discarded any leftover keystream of a partial block
                h.setctr(start)
                h.encrypt(bytes(10))
                h.setctr(start + 1)
                assert h.encrypt(bytes(BLOCK)) == ks[BLOCK: 2 * BLOCK]


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
                h.setiv(nonce)
                h.setctr(start)
                guard = bytearray(b"\xa5" * data_len)
                with refused(gcrylike.CounterExhausted):
                    h.encrypt(bytes(data_len), out=guard)
                assert guard == b"\xa5" * data_len
                inplace = bytearray(msg + rng.randbytes(data_len - n))
                copy = bytes(inplace)
                with refused(gcrylike.CounterExhausted):
                    h.decrypt(inplace, out=inplace)
                assert inplace == copy
                with refused(gcrylike.CounterExhausted):
                    h.encrypt(bytes(data_len))
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
        # the last block in pieces: the leftover keystream is still usable
        for cuts in ((1, 63), (10, 54), (32, 31, 1), (63, 1)):
            h.setiv(nonce)
            h.setctr(END - 1)
            got = b"".join(h.encrypt(bytes(c)) for c in cuts)
            assert got == last, cuts
            out = bytearray(b"\xa5")
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00", out=out)
            assert out == b"\xa5"
        # a partial last block, then more than is left of it
        h.setiv(nonce)
        h.setctr(END - 1)
        assert h.encrypt(bytes(20)) == last[:20]
        out = bytearray(b"\xa5" * 45)
        with refused(gcrylike.CounterExhausted):
            h.encrypt(bytes(45), out=out)
        assert out == b"\xa5" * 45
        assert h.encrypt(bytes(44)) == last[20:]
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
    with gcrylike.cipher_open(algo) as h:
        for key in (bytes(keylen), bytearray(keylen)):
            with refused(gcrylike.InvalidKeyLength):
                h.setkey(key)
        with refused(gcrylike.MissingKey):
            h.encrypt(b"x")
        key, nonce = random_key_nonce(rng_for("bad-key", algo, keylen))
        h.setkey(key)
        h.setiv(nonce)
        assert h.encrypt(bytes(100)) == oracle(rounds, key, nonce, bytes(100))


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("ivlen", [0, 1, 7, 9, 12, 16, 24, 32])
def test_bad_iv_length(algo, ivlen):
    rounds = ROUNDS[algo.upper()]
    key, nonce = random_key_nonce(rng_for("bad-iv", algo, ivlen))
    with gcrylike.cipher_open(algo) as h:
        h.setkey(key)
        with refused(gcrylike.InvalidIVLength):
            h.setiv(bytes(ivlen))
        with refused(gcrylike.InvalidState):
            h.encrypt(b"x")
        h.setiv(nonce)
        assert h.encrypt(bytes(100)) == oracle(rounds, key, nonce, bytes(100))


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("what,bad", [
    (what, bad)
    for what in ("key", "iv", "data", "decrypt-data", "out")
    for bad in ("a str", "an int", "None", "a float", "a list")
    if (what, bad) != ("out", "None")  # out=None is the default: return new bytes
])
def test_wrong_types(algo, what, bad):
    value = {"a str": "x" * 32 if what == "key" else "x" * 8,
             "an int": 32, "None": None, "a float": 1.5, "a list": [0] * 8}[bad]
    rounds = ROUNDS[algo.upper()]
    key, nonce = random_key_nonce(rng_for("types-bad", algo))
    with gcrylike.cipher_open(algo) as h:
        if what != "key":
            h.setkey(key)
        if what not in ("key", "iv"):
            h.setiv(nonce)
            h.encrypt(bytes(5))
        call = {
            "key": lambda: h.setkey(value),
            "iv": lambda: h.setiv(value),
            "data": lambda: h.encrypt(value),
            "decrypt-data": lambda: h.decrypt(value),
            "out": lambda: h.encrypt(b"12345678", out=value),
        }[what]
        with refused(gcrylike.InvalidType):
            call()
        if what not in ("key", "iv"):
            assert_continues(h, rounds, key, nonce, 5)


@BOTH
def test_out_too_short(driver):
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("short-out", rounds))
    with keyed(driver, key, nonce) as h:
        h.encrypt(bytes(3))
        for n, have in ((1, 0), (64, 63), (100, 99), (1000, 1), (257, 256)):
            for out in (bytearray(b"\xa5" * have), memoryview(bytearray(b"\xa5" * (have + 9)))[9:]):
                with refused(gcrylike.InvalidLength):
                    h.encrypt(bytes(n), out=out)
                assert bytes(out) == b"\xa5" * have
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
        with refused(gcrylike.InvalidType):
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
        pos = 11
        base = rng.randbytes(400)
        for (s0, s1), (d0, d1) in [((0, 100), (1, 101)), ((1, 101), (0, 100)),
                                    ((0, 100), (99, 199)), ((99, 199), (0, 100)),
                                    ((50, 150), (0, 200)), ((0, 256), (64, 320)),
                                    ((3, 5), (2, 6))]:
            buf = bytearray(base)
            mv = memoryview(buf)
            with refused(gcrylike.InvalidArgument):
                h.encrypt(mv[s0:s1], out=mv[d0:d1])
            assert buf == base, ((s0, s1), (d0, d1))
        assert_continues(h, rounds, key, nonce, pos)
        pos += 100
        # touching but not overlapping, and the same start: both allowed
        # (and an out= longer than the data, overlapping only past its end)
        for (s0, s1), (d0, d1) in [((0, 100), (100, 200)), ((100, 200), (0, 100)),
                                    ((0, 100), (0, 100)), ((0, 100), (0, 150)),
                                    ((50, 100), (0, 200)), ((3, 4), (2, 5))]:
            buf = bytearray(base)
            mv = memoryview(buf)
            h.setiv(nonce)
            assert h.encrypt(mv[s0:s1], out=mv[d0:d1]) == s1 - s0
            want = oracle(rounds, key, nonce, base[s0:s1])
            assert buf[d0: d0 + (s1 - s0)] == want, ((s0, s1), (d0, d1))
            untouched = set(range(len(base))) - set(range(d0, d0 + (s1 - s0)))
            assert all(buf[i] == base[i] for i in untouched)


@BOTH
def test_non_contiguous_buffer_is_refused(driver):
    key, nonce = random_key_nonce(rng_for("strided"))
    with keyed(driver, key, nonce) as h:
        buf = bytearray(range(200))
        out = bytearray(b"\xa5" * 100)
        for call in (lambda: h.encrypt(memoryview(buf)[::2], out=out),
                     lambda: h.encrypt(bytes(50), out=memoryview(out)[::2])):
            try:
                call()
            except gcrylike.GcryError as e:
                assert isinstance(e, (ValueError, TypeError)), repr(e)
            else:
                pytest.fail("a strided buffer was accepted")
            assert out == b"\xa5" * 100
        assert_continues(h, ROUNDS[driver.algorithm], key, nonce, 0)


# ---------------------------------------------------------------------------
# Handle states and lifetime
# ---------------------------------------------------------------------------

@BOTH
def test_missing_key(driver):
    with driver.open() as h:
        for call in (lambda: h.encrypt(b"x"), lambda: h.decrypt(b"x"),
                     lambda: h.encrypt(b"x", out=bytearray(1)), lambda: h.setiv(bytes(8)),
                     lambda: h.setctr(0), lambda: h.reset()):
            with refused(gcrylike.MissingKey):
                call()


@BOTH
def test_missing_iv(driver):
    rounds = ROUNDS[driver.algorithm]
    key, nonce = random_key_nonce(rng_for("missing-iv", rounds))
    with driver.open() as h:
        h.setkey(key)
        out = bytearray(b"\xa5")
        for call in (lambda: h.encrypt(b"x"), lambda: h.decrypt(b"x"),
                     lambda: h.encrypt(b"x", out=out), lambda: h.setctr(3)):
            with refused(gcrylike.InvalidState):
                call()
        assert out == b"\xa5"
        # a new key needs a new IV too
        h.setiv(nonce)
        h.encrypt(b"abc")
        h.setkey(key)
        with refused(gcrylike.InvalidState):
            h.encrypt(b"x")
        h.setiv(nonce)
        assert h.encrypt(bytes(64)) == ref_block(key, nonce, 0, rounds)


@BOTH
def test_closed_handle(driver):
    key, nonce = random_key_nonce(rng_for("closed"))
    h = keyed(driver, key, nonce)
    h.encrypt(b"abc")
    assert not h.closed
    h.close()
    assert h.closed
    out = bytearray(b"\xa5" * 4)
    calls = {
        "setkey": lambda: h.setkey(key), "setkey-badlen": lambda: h.setkey(b""),
        "setiv": lambda: h.setiv(nonce), "setctr": lambda: h.setctr(0),
        "reset": lambda: h.reset(), "encrypt": lambda: h.encrypt(b"abcd"),
        "decrypt": lambda: h.decrypt(b"abcd"), "encrypt-out": lambda: h.encrypt(b"abcd", out=out),
        "encrypt-str": lambda: h.encrypt("abcd"),
    }
    for name, call in calls.items():
        with refused(gcrylike.HandleClosed):
            call()
        assert out == b"\xa5" * 4, name
    with refused(gcrylike.HandleClosed):
        with h:
            pass
    h.close()  # idempotent
    h.close()
    assert h.closed
    assert "closed" in repr(h)


@BOTH
def test_context_manager_closes(driver):
    with driver.open() as h:
        assert not h.closed
    assert h.closed
    with refused(gcrylike.HandleClosed):
        h.setkey(bytes(32))
    with pytest.raises(KeyError):
        with driver.open() as h2:
            h2.setkey(bytes(16))
            raise KeyError("boom")
    assert h2.closed


@BOTH
def test_reset(driver):
    rounds = ROUNDS[driver.algorithm]
    rng = rng_for("reset", rounds)
    key, nonce = random_key_nonce(rng)
    nonce2 = rng.randbytes(8)
    msg = rng.randbytes(500)
    with keyed(driver, key, nonce) as h:
        first = h.encrypt(msg)
        assert first == oracle(rounds, key, nonce, msg)
        h.setctr(77)
        h.encrypt(b"abc")
        h.reset()
        with refused(gcrylike.InvalidState):
            h.encrypt(b"x")
        with refused(gcrylike.InvalidState):
            h.setctr(0)
        h.setiv(nonce)
        assert h.encrypt(msg) == first
        h.reset()
        h.setiv(nonce2)
        assert h.encrypt(msg) == oracle(rounds, key, nonce2, msg)
        # after the end of the stream
        h.setctr(END - 1)
        h.encrypt(bytes(64))
        with refused(gcrylike.CounterExhausted):
            h.encrypt(b"x")
        h.reset()
        h.setiv(nonce)
        assert h.encrypt(msg) == first
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
