"""The stitched XSalsa20-Poly1305 path of the AVX2 secretbox driver
(asm/salsa20-poly1305-amd64-avx2.S, ``seal_stitched_noburn`` in
ciphers/secretbox/secretbox_glue.c).

Data byte i of a box is XORed with keystream byte 32 + i (bytes 0-31 key
Poly1305), so the first 32 data bytes finish keystream block 0 and data
bytes 32 + 64m .. 95 + 64m use block m + 1.  The glue runs those 32 bytes
alone and then, when at least one whole 512-byte group follows, whole
groups through the stitched routine; encryption runs the MAC one group
behind, so its first group is encrypted alone: for n data bytes that is
g - 1 groups stitched, g = (n - 32) // 512 when n >= 544.  An open never
stitches: it verifies the tag over the whole ciphertext before it
deciphers any of it.  The boundaries: 543 / 544 / 545 (no group / one),
1055 / 1056 / 1057 (one / two).  The test-only hook ``gcry_secretbox_stitched_groups``
(tests/testhooks.py) counts stitched groups per keyed box; every test
checks it against that rule, and the output against libsodium and PyNaCl (tests/nacl_oracle.py).
"""

from __future__ import annotations

import random

import pytest
import testhooks
from checks import refused
from nacl_oracle import (
    NO_ORACLE,
    PYNACL,
    SODIUM,
    pynacl_secretbox,
    pynacl_secretbox_open,
    ref_keystream,
    sodium_secretbox,
    sodium_secretbox_open,
)

import gcrylike
from gcrylike._core import ffi

NAME = "XSALSA20-POLY1305"
AVX2 = "xsalsa20-poly1305-amd64-avx2"
TAG = 16
HEAD = 32
GROUP = 512
LENGTHS = [0, 1, 31, 32, 33, 543, 544, 545, 1055, 1056, 1057, 1568,
           4096 + 32, 4096 + 32 + 511, 65536 + 17]
NEEDS_ORACLES = pytest.mark.skipif(SODIUM is None or PYNACL is None, reason=NO_ORACLE)

pytestmark = NEEDS_ORACLES


def avx2_box(key: bytes) -> gcrylike.SecretBox:
    """A box on the AVX2 driver; the test is skipped if it cannot run."""
    infos = {i.driver: i for i in gcrylike.implementations(NAME)}
    if AVX2 not in infos:
        pytest.skip(f"{AVX2} is not built")
    if not infos[AVX2].available:
        pytest.skip(f"{AVX2} cannot run here: {infos[AVX2].reason}")
    return gcrylike.SecretBox(key, impl=AVX2)


def stitched(box: gcrylike.SecretBox) -> int:
    return testhooks.copy("secretbox").lib.gcry_secretbox_stitched_groups(box._ctx.ptr)


def expected_groups(n: int) -> int:
    """Groups the glue stitches to seal n data bytes (see the module doc);
    an open stitches none."""
    if n < HEAD + GROUP:
        return 0
    return (n - HEAD) // GROUP - 1


def oracle(key: bytes, nonce: bytes, msg: bytes) -> bytes:
    """tag || ciphertext from libsodium, checked against PyNaCl."""
    want = sodium_secretbox(key, nonce, msg)
    assert pynacl_secretbox(key, nonce, msg) == want
    return want


def case(*tags: object) -> tuple[random.Random, bytes, bytes]:
    rng = random.Random("sb-stitched/" + "/".join(map(str, tags)))
    return rng, rng.randbytes(32), rng.randbytes(24)


def raw_seal(box, nonce: bytes, src, n: int, out) -> int:
    spec = gcrylike._registry.lookup(NAME)
    return spec.seal(box._ctx.ptr, nonce, len(nonce), src, n, out)


def raw_open(box, nonce: bytes, src, n: int, out) -> int:
    spec = gcrylike._registry.lookup(NAME)
    return spec.open(box._ctx.ptr, nonce, len(nonce), src, n, out)


def test_boundaries_of_the_model():
    assert [expected_groups(n) for n in (543, 544, 1055, 1056, 1057)] == [0, 0, 0, 1, 1]
    assert expected_groups(4096 + 32) == 7
    assert expected_groups(4096 + 32 + 511) == 7


@pytest.mark.parametrize("n", LENGTHS)
def test_lengths_against_oracles(n):
    """Seal and open around the group edges, against libsodium and PyNaCl
    both ways, with the stitched group count of each call."""
    rng, key, nonce = case("lengths", n)
    msg = rng.randbytes(n)
    want = oracle(key, nonce, msg)
    with avx2_box(key) as box:
        assert box.encrypt(msg, nonce).ciphertext == want
        assert stitched(box) == expected_groups(n)
        assert box.decrypt(want, nonce) == msg
        assert stitched(box) == expected_groups(n)
        assert sodium_secretbox_open(key, nonce, box.encrypt(msg, nonce).ciphertext) == msg
        assert pynacl_secretbox_open(key, nonce, want) == msg


@pytest.mark.parametrize("n", [544, 1057])
def test_pure_python_spot_check(n):
    """One independent computation, no library: the pure-Python XSalsa20
    of nacl_oracle and Poly1305 from RFC 8439 2.5 on the big integers."""
    rng, key, nonce = case("pure", n)
    msg = rng.randbytes(n)
    stream = ref_keystream(key, nonce, HEAD + n)
    ct = bytes(m ^ k for m, k in zip(msg, stream[HEAD:], strict=True))
    r = int.from_bytes(stream[:16], "little") & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
    s = int.from_bytes(stream[16:32], "little")
    acc, p = 0, (1 << 130) - 5
    for i in range(0, n, 16):
        block = ct[i:i + 16]
        acc = (acc + int.from_bytes(block + b"\x01", "little")) * r % p
    tag = ((acc + s) % (1 << 128)).to_bytes(16, "little")
    with avx2_box(key) as box:
        assert box.encrypt(msg, nonce).ciphertext == tag + ct
        assert box.decrypt(tag + ct, nonce) == msg
        assert stitched(box) == expected_groups(n)


@pytest.mark.parametrize("n", [544, 1056, 1568 + 7, 4096 + 32 + 3, 65536 + 17])
def test_in_place(n):
    """The C hooks in place: seal with the message at out + 16, open with
    the plaintext written over the ciphertext (each group's ciphertext is
    read for the MAC before it is overwritten)."""
    rng, key, nonce = case("in-place", n)
    msg = rng.randbytes(n)
    want = oracle(key, nonce, msg)
    buf = bytearray(TAG) + bytearray(msg)
    with avx2_box(key) as box, ffi.from_buffer(buf) as p:
        assert raw_seal(box, nonce, p + TAG, n, p) == 0
        assert bytes(buf) == want
        assert stitched(box) == expected_groups(n)
        assert raw_open(box, nonce, p, n + TAG, p + TAG) == 0
        assert bytes(buf[TAG:]) == msg
        assert stitched(box) == expected_groups(n)


@pytest.mark.parametrize("offset", range(1, 16))
def test_unaligned_buffers(offset):
    """Message, box and output views at every offset 1..15 from an
    allocation."""
    n = 4096 + 32 + 512 + 3
    rng, key, nonce = case("unaligned", offset)
    msg = rng.randbytes(n)
    want = oracle(key, nonce, msg)
    src = bytearray(n + TAG + offset)
    src[offset:offset + n] = msg
    out = bytearray(n + TAG + offset)
    with avx2_box(key) as box:
        with ffi.from_buffer(memoryview(src)[offset:]) as s, \
             ffi.from_buffer(memoryview(out)[offset:]) as o:
            assert raw_seal(box, nonce, s, n, o) == 0
        assert bytes(out[offset:]) == want
        src[offset:] = want
        out = bytearray(n + offset)
        with ffi.from_buffer(memoryview(src)[offset:]) as s, \
             ffi.from_buffer(memoryview(out)[offset:]) as o:
            assert raw_open(box, nonce, s, n + TAG, o) == 0
        assert bytes(out[offset:]) == msg
        assert stitched(box) == expected_groups(n)


@pytest.mark.parametrize("n", [1056, 4096 + 32])
def test_all_ones_data(n):
    """All-0xff plaintext, and a plaintext whose ciphertext is all 0xff
    (every Poly1305 block the largest): the accumulator's carries."""
    rng, key, nonce = case("ff", n)
    keystream = oracle(key, nonce, bytes(n))[TAG:]
    ff_ct_msg = bytes(k ^ 0xFF for k in keystream)
    for msg in (b"\xff" * n, ff_ct_msg):
        want = oracle(key, nonce, msg)
        with avx2_box(key) as box:
            assert box.encrypt(msg, nonce).ciphertext == want
            assert box.decrypt(want, nonce) == msg
            assert stitched(box) == expected_groups(n)
    assert oracle(key, nonce, ff_ct_msg)[TAG:] == b"\xff" * n


@pytest.mark.parametrize("n", [544, 1057, 4096 + 32 + 100])
def test_tampering_refused(n):
    """A flipped bit in the tag, the head, a stitched group or the tail
    (each place in turn) is refused, and a raw open leaves its output as
    it was."""
    rng, key, nonce = case("tamper", n)
    msg = rng.randbytes(n)
    with avx2_box(key) as box:
        sealed = box.encrypt(msg, nonce).ciphertext
        k = HEAD + (n - HEAD) // GROUP * GROUP  # where the tail starts
        places = [rng.randrange(TAG), TAG + rng.randrange(HEAD),
                  TAG + HEAD + rng.randrange(k - HEAD), TAG + HEAD, TAG + k - 1]
        if k < n:
            places.append(TAG + k + rng.randrange(n - k))
        for at in places:
            bad = bytearray(sealed)
            bad[at] ^= 1 << rng.randrange(8)
            with refused(gcrylike.AuthenticationFailed):
                box.decrypt(bytes(bad), nonce)
            assert sodium_secretbox_open(key, nonce, bytes(bad)) is None
            out = bytearray(b"\xa5" * n)
            with ffi.from_buffer(out) as o:
                assert raw_open(box, nonce, bytes(bad), n + TAG, o) == gcrylike.ErrorCode.CHECKSUM
            assert out == b"\xa5" * n  # not written
        assert box.decrypt(sealed, nonce) == msg


def test_random_round_trips():
    """Random lengths around multiples of the group after the head, fresh
    nonces: seal against the oracle, open back, counts."""
    rng, key, _ = case("round-trip")
    with avx2_box(key) as box:
        total = 0
        for _ in range(40):
            n = HEAD + rng.choice([1, 2, 3, 8]) * GROUP * rng.randrange(1, 4) + rng.randrange(-3, 4)
            nonce, msg = rng.randbytes(24), rng.randbytes(n)
            sealed = box.encrypt(msg, nonce).ciphertext
            assert sealed == oracle(key, nonce, msg)
            assert box.decrypt(sealed, nonce) == msg
            total += expected_groups(n)
            assert stitched(box) == total


def test_other_drivers_do_not_stitch():
    """The hook counts only the AVX2 driver's routine (SSE2 and portable
    drivers take the chunked path)."""
    rng, key, nonce = case("others")
    msg = rng.randbytes(8192 + 32)
    want = oracle(key, nonce, msg)
    seen = 0
    for info in gcrylike.implementations(NAME):
        if not info.available or info.driver == AVX2:
            continue
        with gcrylike.SecretBox(key, impl=info.driver) as box:
            assert box.encrypt(msg, nonce).ciphertext == want
            assert box.decrypt(want, nonce) == msg
            assert stitched(box) == 0
        seen += 1
    assert seen >= 1
