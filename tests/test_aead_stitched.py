"""The stitched ChaCha20-Poly1305 path of the AVX2 drivers
(asm/chacha20-poly1305-amd64-avx2.S, ``stitched_noburn`` in
ciphers/chacha20poly1305/aead_glue.c).

The glue sends whole 512-byte groups of a data call through the stitched
routine when the call starts on a 64-byte boundary of the data (no leftover
keystream, no buffered Poly1305 bytes) and has at least 512 bytes;
encryption runs the MAC one group behind, so group 0 of the call is
encrypted alone and only the other groups are stitched.  The test-only hook
``gcry_aead_stitched_groups`` (tests/testhooks.py) counts stitched groups per context, and every
test here checks that count against that rule as well as the output against
``cryptography`` and pycryptodome (test_aead.oracle, which makes them agree
first).
"""

from __future__ import annotations

import random

import pytest
import testhooks
from checks import refused
from test_aead import CHACHA, TAG, XCHACHA, Algo, oracle

import gcrylike

GROUP = 512
LENGTHS = [511, 512, 513, 1023, 1024, 1536 + 7, 4096, 4096 + 512 + 3, 65536 + 17]
AAD_LENGTHS = [0, 1, 15, 16, 17]
ALGOS = pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])


def avx2_driver(algo: Algo) -> str:
    """The AVX2 driver of ``algo``; the test is skipped if it cannot run."""
    name = f"{algo.cipher}-poly1305-amd64-avx2"
    infos = {i.driver: i for i in gcrylike.implementations(algo.name)}
    if name not in infos:
        pytest.skip(f"{name} is not built")
    if not infos[name].available:
        pytest.skip(f"{name} cannot run here: {infos[name].reason}")
    return name


def open_avx2(algo: Algo, key: bytes) -> gcrylike.AeadHandle:
    h = gcrylike.cipher_open(algo.cipher, impl=avx2_driver(algo), mode="poly1305")
    h.setkey(key)
    return h


def stitched(h: gcrylike.AeadHandle) -> int:
    return testhooks.copy("aead").lib.gcry_aead_stitched_groups(h._ctx.ptr)


def expected_groups(sizes: list[int], encrypting: bool) -> int:
    """Groups the glue stitches for data calls of these sizes: a call that
    starts at a multiple of 64 bytes with n >= 512 stitches n // 512 groups
    (one fewer when encrypting)."""
    pos = total = 0
    for n in sizes:
        if pos % 64 == 0 and n >= GROUP:
            total += n // GROUP - (1 if encrypting else 0)
        pos += n
    return total


def case(algo: Algo, *tags: object) -> tuple[random.Random, bytes, bytes]:
    rng = random.Random("stitched/" + "/".join(map(str, (algo.name, *tags))))
    return rng, rng.randbytes(32), rng.randbytes(algo.nonce_size)


def split(rng: random.Random, n: int, most: int = 8) -> list[int]:
    """Random piece sizes summing to n: some cuts on 64-byte boundaries (the
    stitched path is entered again), some anywhere (it is left)."""
    cuts = set()
    for _ in range(rng.randrange(most + 1)):
        c = rng.randrange(n + 1)
        cuts.add(c - c % 64 if rng.random() < 0.5 else c)
    bounds = [0, *sorted(cuts), n]
    return [hi - lo for lo, hi in zip(bounds, bounds[1:], strict=False)]


def stream_crypt(h: gcrylike.AeadHandle, nonce: bytes, aad: bytes, data: bytes,
                 sizes: list[int], encrypting: bool) -> bytes:
    h.setiv(nonce)
    h.authenticate(aad)
    out, pos = [], 0
    for n in sizes:
        part = data[pos:pos + n]
        out.append(h.encrypt(part) if encrypting else h.decrypt(part))
        pos += n
    return b"".join(out)


@ALGOS
@pytest.mark.parametrize("n", LENGTHS)
def test_one_call_against_oracles(algo, n):
    """Streaming encrypt and decrypt of the whole message in one call, with
    each AAD length; the one-shot class on the same input."""
    for aadlen in AAD_LENGTHS:
        rng, key, nonce = case(algo, "one-call", n, aadlen)
        aad, msg = rng.randbytes(aadlen), rng.randbytes(n)
        want = oracle(algo, key, nonce, msg, aad)
        with open_avx2(algo, key) as h:
            ct = stream_crypt(h, nonce, aad, msg, [n], True)
            assert ct + h.gettag() == want
            assert stitched(h) == expected_groups([n], True)
            before = stitched(h)
            pt = stream_crypt(h, nonce, aad, want[:-TAG], [n], False)
            h.checktag(want[-TAG:])
            assert pt == msg
            assert stitched(h) - before == expected_groups([n], False)
        box = algo.cls(key, impl=avx2_driver(algo))
        assert box.encrypt(nonce, msg, aad) == want
        assert box.decrypt(nonce, want, aad) == msg


@ALGOS
def test_stitched_count_follows_the_rule(algo):
    """Hand-picked splits: a misaligned piece keeps the stitched path off
    until the data is back on a 64-byte boundary."""
    rng, key, nonce = case(algo, "rule")
    for sizes in ([512], [1024], [511, 1], [13, 1000, 3, 8, 2048, 517, 4096],
                  [64, 512, 16, 1024, 48, 1536 + 7], [1, 4095, 4096], [16, 16, 32, 4096 + 3]):
        n = sum(sizes)
        aad, msg = rng.randbytes(rng.choice(AAD_LENGTHS)), rng.randbytes(n)
        want = oracle(algo, key, nonce, msg, aad)
        with open_avx2(algo, key) as h:
            assert stream_crypt(h, nonce, aad, msg, sizes, True) + h.gettag() == want
            enc = stitched(h)
            assert enc == expected_groups(sizes, True)
            assert stream_crypt(h, nonce, aad, want[:-TAG], sizes, False) == msg
            h.checktag(want[-TAG:])
            assert stitched(h) - enc == expected_groups(sizes, False)
    # the model itself: after 13, 1000, 3, 8 the data is back on a 64-byte
    # boundary: 2048 bytes are 4 groups (3 when encrypting), the 517 after
    # them 1 (0), and the 4096 after the 517 start misaligned
    assert expected_groups([13, 1000, 3, 8, 2048, 517, 4096], True) == 3
    assert expected_groups([13, 1000, 3, 8, 2048, 517, 4096], False) == 5


@ALGOS
@pytest.mark.parametrize("n", [4096 + 512 + 3, 65536 + 17])
def test_random_splits(algo, n):
    """Streamed in random pieces (partial Poly1305 blocks and leftover
    keystream in between), both directions, against the oracles."""
    for trial in range(12):
        rng, key, nonce = case(algo, "splits", n, trial)
        aad, msg = rng.randbytes(rng.choice(AAD_LENGTHS)), rng.randbytes(n)
        want = oracle(algo, key, nonce, msg, aad)
        enc_sizes, dec_sizes = split(rng, n), split(rng, n)
        with open_avx2(algo, key) as h:
            assert stream_crypt(h, nonce, aad, msg, enc_sizes, True) + h.gettag() == want
            enc = stitched(h)
            assert enc == expected_groups(enc_sizes, True)
            assert stream_crypt(h, nonce, aad, want[:-TAG], dec_sizes, False) == msg
            h.checktag(want[-TAG:])
            assert stitched(h) - enc == expected_groups(dec_sizes, False)


@ALGOS
@pytest.mark.parametrize("n", [512, 1024, 1536 + 7, 4096 + 512 + 3, 65536 + 17])
def test_in_place(algo, n):
    """encrypt and decrypt with out= the input bytearray: decryption reads
    each group's ciphertext for the MAC before it overwrites it."""
    rng, key, nonce = case(algo, "in-place", n)
    aad, msg = rng.randbytes(17), rng.randbytes(n)
    want = oracle(algo, key, nonce, msg, aad)
    buf = bytearray(msg)
    with open_avx2(algo, key) as h:
        h.setiv(nonce)
        h.authenticate(aad)
        assert h.encrypt(buf, out=buf) == n
        assert bytes(buf) + h.gettag() == want
        enc = stitched(h)
        assert enc == expected_groups([n], True)
        h.setiv(nonce)
        h.authenticate(aad)
        assert h.decrypt(buf, out=buf) == n
        h.checktag(want[-TAG:])
        assert bytes(buf) == msg
        assert stitched(h) - enc == expected_groups([n], False)


@ALGOS
@pytest.mark.parametrize("offset", range(1, 16))
def test_unaligned_buffers(algo, offset):
    """Input and output views at every offset 1..15 from an allocation."""
    n = 4096 + 512 + 3
    rng, key, nonce = case(algo, "unaligned", offset)
    aad, msg = rng.randbytes(offset), rng.randbytes(n)
    want = oracle(algo, key, nonce, msg, aad)
    src = bytearray(n + offset)
    src[offset:] = msg
    dst = bytearray(n + 16)
    with open_avx2(algo, key) as h:
        h.setiv(nonce)
        h.authenticate(aad)
        h.encrypt(memoryview(src)[offset:], out=memoryview(dst)[offset:offset + n])
        assert bytes(dst[offset:offset + n]) + h.gettag() == want
        src[offset:] = want[:-TAG]
        h.setiv(nonce)
        h.authenticate(aad)
        h.decrypt(memoryview(src)[offset:], out=memoryview(dst)[offset:offset + n])
        h.checktag(want[-TAG:])
        assert bytes(dst[offset:offset + n]) == msg
        assert stitched(h) == expected_groups([n], True) + expected_groups([n], False)


@ALGOS
@pytest.mark.parametrize("n", [1024, 4096 + 512])
def test_all_ones_data(algo, n):
    """All-0xff plaintext, and a plaintext whose ciphertext is all 0xff
    (every Poly1305 block the largest): the accumulator's carries."""
    rng, key, nonce = case(algo, "ff", n)
    keystream = oracle(algo, key, nonce, bytes(n), b"")[:-TAG]
    ff_ct_msg = bytes(k ^ 0xFF for k in keystream)
    for msg in (b"\xff" * n, ff_ct_msg):
        want = oracle(algo, key, nonce, msg, b"")
        with open_avx2(algo, key) as h:
            assert stream_crypt(h, nonce, b"", msg, [n], True) + h.gettag() == want
            assert stream_crypt(h, nonce, b"", want[:-TAG], [n], False) == msg
            h.checktag(want[-TAG:])
            assert stitched(h) == expected_groups([n], True) + expected_groups([n], False)
    assert oracle(algo, key, nonce, ff_ct_msg, b"")[:-TAG] == b"\xff" * n


@ALGOS
def test_round_trips(algo):
    """Random lengths around group sizes: one-shot seal, streaming open,
    and a tampered ciphertext refused."""
    rng, key, nonce = case(algo, "round-trip")
    box = algo.cls(key, impl=avx2_driver(algo))
    with open_avx2(algo, key) as h:
        for _ in range(40):
            n = rng.choice([1, 2, 8]) * GROUP * rng.randrange(1, 4) + rng.randrange(-3, 4)
            aad, msg = rng.randbytes(rng.choice(AAD_LENGTHS)), rng.randbytes(n)
            nonce = rng.randbytes(algo.nonce_size)
            sealed = box.encrypt(nonce, msg, aad)
            assert sealed == oracle(algo, key, nonce, msg, aad)
            assert stream_crypt(h, nonce, aad, sealed[:-TAG], [n], False) == msg
            h.checktag(sealed[-TAG:])
            # a flipped ciphertext bit: refused one-shot and streaming
            bad = bytearray(sealed)
            bad[rng.randrange(n)] ^= 1 << rng.randrange(8)
            with refused(gcrylike.AuthenticationFailed):
                box.decrypt(nonce, bytes(bad), aad)
            stream_crypt(h, nonce, aad, bytes(bad[:-TAG]), [n], False)
            with refused(gcrylike.AuthenticationFailed):
                h.checktag(sealed[-TAG:])


@ALGOS
def test_other_drivers_do_not_stitch(algo):
    """The hook counts only the AVX2 driver's routine (SSSE3 and portable
    drivers take the chunked path)."""
    for info in gcrylike.implementations(algo.name):
        if not info.available or info.driver.endswith("-avx2"):
            continue
        with gcrylike.cipher_open(algo.cipher, impl=info.driver, mode="poly1305") as h:
            h.setkey(bytes(32))
            h.setiv(bytes(algo.nonce_size))
            h.encrypt(bytes(8192))
            assert stitched(h) == 0
