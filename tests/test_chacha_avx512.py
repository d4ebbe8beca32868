"""The AVX-512 ChaCha driver at the widths its dispatch uses.

test_chacha.py runs every driver, this one included, through the published
vectors and the general stream checks; its lengths and counter positions
were chosen for eight-block AVX2.  The AVX-512 tier (its row in
chacha_glue.c) makes blocks in groups of 16 (two groups at a time from 32
blocks), then the 2-16 blocks left, whole and partial, in one call of its
16-, 8- or 4-block routine, or a last single one alone; so here the lengths
run past 40 blocks, the counter carries and ends fall at every lane of
those groups, and calls are split across their edges.

Expected outputs come from implementations that share no code with the
assembly: for 20 rounds pycryptodome's ChaCha20 with an 8-byte nonce (64-bit
counter, Bernstein's layout: the 8-byte IV form and XChaCha20 under
pycryptodome's HChaCha20 subkey) and OpenSSL through ``cryptography`` (its
16-byte nonce is the 32-bit counter then the 12-byte nonce: the 12- and
16-byte forms); and the
portable C driver for 12 rounds (itself checked against the published
vectors and the Python reference in test_chacha.py).  The AVX2 driver, where
it can run, must agree too.

Skipped with the reason when the CPU lacks (or the deny list removes) the
driver's features, or the build has no assembly.
"""

from __future__ import annotations

import random

import pytest
from checks import refused
from conftest import skip_unless_available
from Crypto.Cipher import ChaCha20 as PyCryptodomeChaCha20
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from stream_checks import encrypt_in_random_pieces

import gcrylike

SEED = 0xA5C512
BLOCK = 64
END32 = 1 << 32
END64 = 1 << 64
ALGOS = ("chacha20", "chacha12", "xchacha20", "xchacha12")
ROUNDS = {"chacha20": 20, "chacha12": 12, "xchacha20": 20, "xchacha12": 12}
IV_FORMS = {"chacha20": (8, 12, 16), "chacha12": (8, 12, 16),
            "xchacha20": (24,), "xchacha12": (24,)}

#: Block counts around every group edge of the dispatch (16, 32, the tail
#: windows 2-4, 5-8, 9-16) up to two pairs of groups and a tail.
BLOCK_COUNTS = sorted({*range(0, 42), 47, 48, 49, 63, 64, 65, 72, 73, 79, 80})
#: Partial-block sizes tried after each count.
PARTIALS = (0, 1, 37, 63)


def avx512(algo: str) -> str:
    return f"{algo}-amd64-avx512"


def rng_for(*tags: object) -> random.Random:
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


def keyed(algo: str, impl: str, key: bytes, iv: bytes):
    h = gcrylike.cipher_open(algo, impl=impl)
    h.setkey(key)
    h.setiv(iv)
    return h


def initial_block(iv: bytes) -> int:
    return int.from_bytes(iv[:4], "little") if len(iv) == 16 else 0


def outside_chacha20(key: bytes, iv: bytes, block: int, data: bytes) -> bytes:
    """ChaCha20 from keystream block ``block`` for our IV forms (an XChaCha
    IV after the caller replaced the key by the subkey): pycryptodome's
    8-byte-nonce ChaCha20 (64-bit counter) for the 8- and 24-byte forms,
    OpenSSL through ``cryptography`` (32-bit counter, 12-byte nonce) for
    the 12- and 16-byte ones."""
    if len(iv) in (8, 24):
        c = PyCryptodomeChaCha20.new(key=key, nonce=iv[-8:])
        c.seek(block * BLOCK)
        return c.encrypt(data)
    nonce16 = block.to_bytes(4, "little") + iv[-12:]
    return Cipher(algorithms.ChaCha20(key, nonce16), mode=None).encryptor().update(data)


def expected(algo: str, key: bytes, iv: bytes, data: bytes, block: int | None = None) -> bytes:
    """``data`` encrypted from block ``block`` (default: where setiv starts)
    by an implementation other than the AVX-512 one."""
    block = initial_block(iv) if block is None else block
    if ROUNDS[algo] == 20:
        if len(iv) == 24:
            key = bytes(PyCryptodomeChaCha20._HChaCha20(key, iv[:16]))
        return outside_chacha20(key, iv, block, data)
    with keyed(algo, f"{algo}-generic", key, iv) as h:
        h.setctr(block)
        return h.encrypt(data)


def random_key_iv(rng: random.Random, algo: str, ivlen: int) -> tuple[bytes, bytes]:
    iv = rng.randbytes(ivlen)
    if ivlen == 16:  # a counter word with room for the longest run here
        iv = rng.randrange(END32 - (1 << 22)).to_bytes(4, "little") + iv[4:]
    return rng.randbytes(32), iv


def _available(request) -> str:
    skip_unless_available(request.param, avx512(request.param))
    return request.param


@pytest.fixture(params=ALGOS)
def algo(request) -> str:
    return _available(request)


@pytest.fixture(params=("chacha20", "chacha12"))
def chacha_algo(request) -> str:
    return _available(request)


@pytest.fixture(params=("xchacha20", "xchacha12"))
def xchacha_algo(request) -> str:
    return _available(request)


def other_drivers(algo: str) -> list[str]:
    """The AVX2 driver, if it can run here, to agree with as well."""
    infos = {i.driver: i for i in gcrylike.implementations(algo)}
    d = f"{algo}-amd64-avx2"
    return [d] if d in infos and infos[d].available else []


# ---------------------------------------------------------------------------
# Lengths, splits, buffers
# ---------------------------------------------------------------------------

def test_every_group_edge_length(algo):
    """Every block count around the group edges, each with partial tails,
    on every IV form, against the outside answer and the AVX2 driver."""
    rng = rng_for("lengths", algo)
    for ivlen in IV_FORMS[algo]:
        key, iv = random_key_iv(rng, algo, ivlen)
        longest = (max(BLOCK_COUNTS) + 1) * BLOCK
        msg = rng.randbytes(longest)
        want = expected(algo, key, iv, msg)
        handles = [keyed(algo, d, key, iv) for d in (avx512(algo), *other_drivers(algo))]
        try:
            for nblocks in BLOCK_COUNTS:
                for partial in PARTIALS:
                    n = nblocks * BLOCK + partial
                    for h in handles:
                        h.setiv(iv)
                        assert h.encrypt(msg[:n]) == want[:n], (h.info.driver, ivlen, n)
        finally:
            for h in handles:
                h.close()


def test_large_from_every_pad_state(algo):
    """1 MiB + 13 bytes in one call, after 0, 1, 13 and 63 bytes of a first
    call (so the large call starts with 64, 63, 51 or 1 leftover bytes)."""
    rng = rng_for("large", algo)
    ivlen = IV_FORMS[algo][0]
    key, iv = random_key_iv(rng, algo, ivlen)
    msg = rng.randbytes((1 << 20) + 13 + 63)
    want = expected(algo, key, iv, msg)
    with keyed(algo, avx512(algo), key, iv) as h:
        for first in (0, 1, 13, 63):
            h.setiv(iv)
            n = first + (1 << 20) + 13
            assert h.encrypt(msg[:first]) + h.encrypt(msg[first:n]) == want[:n], first


def test_random_splits(algo):
    """One message through random cuts (some short, some past 32 blocks),
    by encrypt, decrypt and encrypt(out=) in turn."""
    rng = rng_for("splits", algo)
    for ivlen in IV_FORMS[algo]:
        key, iv = random_key_iv(rng, algo, ivlen)
        msg = rng.randbytes(9000)
        want = expected(algo, key, iv, msg)
        with keyed(algo, avx512(algo), key, iv) as h:
            for _ in range(25):
                sizes = [rng.choice((rng.randrange(1, 80), rng.randrange(1, 3000)))
                         for _ in range(8)]
                cuts = sorted({min(sum(sizes[:i + 1]), len(msg)) for i in range(len(sizes))})
                h.setiv(iv)
                assert encrypt_in_random_pieces(h, msg, cuts, rng) == want, (ivlen, cuts)


def test_unaligned_and_in_place(algo):
    """Source and destination at every offset mod 16 (and odd ones), apart
    and the same buffer, for lengths through the two-group path."""
    rng = rng_for("unaligned", algo)
    key, iv = random_key_iv(rng, algo, IV_FORMS[algo][-1])
    with keyed(algo, avx512(algo), key, iv) as h:
        for n in (64 * 16, 64 * 32 + 5, 64 * 47 + 63, 64 * 73 + 1):
            msg = rng.randbytes(n)
            want = expected(algo, key, iv, msg)
            for src_off, dst_off in ((1, 3), (7, 0), (0, 13), (15, 15), (33, 62)):
                src = bytearray(src_off + n)
                src[src_off:] = msg
                dst = bytearray(dst_off + n + 7)
                h.setiv(iv)
                assert h.encrypt(memoryview(src)[src_off:],
                                 out=memoryview(dst)[dst_off:dst_off + n]) == n
                assert dst[dst_off:dst_off + n] == want, (n, src_off, dst_off)
                assert dst[:dst_off] == bytes(dst_off) and dst[dst_off + n:] == bytes(7)
                # in place, at the source's offset
                h.setiv(iv)
                h.encrypt(memoryview(src)[src_off:], out=memoryview(src)[src_off:])
                assert src[src_off:] == want, (n, src_off, "in place")


# ---------------------------------------------------------------------------
# The block counter
# ---------------------------------------------------------------------------

def test_64bit_counter_carry_at_every_lane(algo):
    """8-byte IVs and XChaCha: the carry from word 12 into word 13 at every
    lane of the 16- and 32-block groups, the 8-block one and the tails."""
    rng = rng_for("carry", algo)
    ivlen = 24 if algo.startswith("x") else 8
    key, iv = random_key_iv(rng, algo, ivlen)
    ks = expected(algo, key, iv, bytes(90 * BLOCK), block=END32 - 45)
    with keyed(algo, avx512(algo), key, iv) as h:
        for nblocks in (1, 4, 8, 9, 16, 17, 24, 31, 32, 33, 40, 45):
            for before in sorted({1, 2, nblocks // 2 or 1, nblocks - 1 or 1, nblocks}):
                h.setctr(END32 - before)
                lo = (45 - before) * BLOCK
                n = nblocks * BLOCK + 11
                assert h.encrypt(bytes(n)) == ks[lo: lo + n], (nblocks, before)


@pytest.mark.parametrize("ivlen", [12, 16])
def test_32bit_counter_end(chacha_algo, ivlen):
    """RFC 8439 IVs: k blocks up to 2^32 fit, one byte more is refused and
    writes nothing, and the nonce word (word 13) is never carried into."""
    algo = chacha_algo
    rng = rng_for("end32", algo, ivlen)
    key, nonce = rng.randbytes(32), rng.randbytes(12)
    iv = nonce if ivlen == 12 else bytes(4) + nonce
    start0 = expected(algo, key, nonce, bytes(200), block=0)
    with keyed(algo, avx512(algo), key, iv) as h:
        for left in (1, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 40):
            start = END32 - left
            msg = rng.randbytes(left * BLOCK)
            want = expected(algo, key, nonce, msg, block=start)
            h.setctr(start)
            out = bytearray(b"\xa5" * (len(msg) + 1))
            with refused(gcrylike.CounterExhausted):
                h.encrypt(msg + b"\x00", out=out)
            assert out == b"\xa5" * (len(msg) + 1), left
            assert h.encrypt(msg[:5]) + h.encrypt(msg[5:]) == want, left
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00")
            h.setctr(0)
            assert h.encrypt(bytes(200)) == start0, ("the nonce word changed", left)


def test_64bit_counter_end(algo):
    """8-byte IVs and XChaCha: k blocks up to 2^64 fit on every width; one
    byte more is refused."""
    rng = rng_for("end64", algo)
    ivlen = 24 if algo.startswith("x") else 8
    key, iv = random_key_iv(rng, algo, ivlen)
    with keyed(algo, avx512(algo), key, iv) as h:
        for left in (1, 4, 5, 8, 12, 16, 17, 24, 32, 33, 40):
            start = END64 - left
            msg = rng.randbytes(left * BLOCK)
            with keyed(algo, f"{algo}-generic", key, iv) as ref:
                ref.setctr(start)
                want = ref.encrypt(msg)
            h.setctr(start)
            with refused(gcrylike.CounterExhausted):
                h.encrypt(msg + b"\x00")
            assert h.encrypt(msg[:-3]) + h.encrypt(msg[-3:]) == want, left
            with refused(gcrylike.CounterExhausted):
                h.encrypt(b"\x00")


# ---------------------------------------------------------------------------
# HChaCha and the deny list
# ---------------------------------------------------------------------------

def test_hchacha(xchacha_algo):
    algo = xchacha_algo
    rng = rng_for("hchacha", algo)
    for rounds in (20, 12, 8, 2):
        for _ in range(20):
            key, data = rng.randbytes(32), rng.randbytes(16)
            got = gcrylike.hchacha(key, data, rounds=rounds, impl=avx512(algo))
            assert got == gcrylike.hchacha(key, data, rounds=rounds,
                                           impl=f"{algo}-generic"), rounds
            if rounds == 20:
                assert got == bytes(PyCryptodomeChaCha20._HChaCha20(key, data))


@pytest.mark.parametrize("feature", ["avx512f", "avx512vl"])
def test_denied_feature_steps_back_to_avx2(algo, feature, hwf_deny):
    skip_unless_available(algo, f"{algo}-amd64-avx2")
    with gcrylike.cipher_open(algo) as h:
        assert h.info.driver == avx512(algo)
    previous = hwf_deny(feature)
    hwf_deny(previous | {feature})
    rng = rng_for("deny", algo, feature)
    key, iv = random_key_iv(rng, algo, IV_FORMS[algo][0])
    msg = rng.randbytes(40 * BLOCK + 3)
    with gcrylike.cipher_open(algo) as h:
        assert h.info.driver == f"{algo}-amd64-avx2"
        h.setkey(key)
        h.setiv(iv)
        assert h.encrypt(msg) == expected(algo, key, iv, msg)
    with refused(gcrylike.NotSupported):
        gcrylike.cipher_open(algo, impl=avx512(algo))
