"""NaCl's secretbox (XSalsa20-Poly1305): ``gcrylike.SecretBox`` on every
implementation, and its registry entry.

Independent answers only: NaCl's published ``tests/secretbox.c`` box,
libsodium's ``crypto_secretbox_easy``/``_open_easy`` through ctypes (the
system's library or the copy PyNaCl bundles) and PyNaCl's
``nacl.secret.SecretBox`` (whose ``encrypt`` returns nonce || box: the box
part is compared).  Tests that need them skip with the reason when neither
loads.

Every driver is reached twice, as tests/conftest.py does for ciphers:
forced with ``impl=`` and chosen under a hardware-feature deny list (the
``sbox`` fixture, same ids).  Randomness comes from ``random.Random`` with
fixed seeds, never per driver, so oracle results are computed once.
"""

from __future__ import annotations

import array
import random
from collections.abc import Iterator
from functools import cache

import pytest
from checks import check_threads_share_one_object, refused
from conftest import DriverCase, drivers, on_route
from nacl_oracle import (
    NO_ORACLE,
    PYNACL,
    SODIUM,
    pynacl_secretbox,
    pynacl_secretbox_open,
    sodium_secretbox,
    sodium_secretbox_open,
)

import gcrylike
from gcrylike import ErrorCode
from gcrylike._core import ffi
from gcrylike.selftests import vectors_secretbox

SEED = 0x5EC2E7B0
TAG = 16
NAME = "XSALSA20-POLY1305"
CHUNK = 4096  # the glue's stitching step (its first step is 32 bytes longer)
NEEDS_SODIUM = pytest.mark.skipif(SODIUM is None, reason=NO_ORACLE)
NEEDS_PYNACL = pytest.mark.skipif(PYNACL is None, reason="PyNaCl is not installed")

# NaCl tests/secretbox.c: firstkey, the nonce and the 131-byte message; the
# box is NaCl's output without its 16 leading zero bytes (written once, in
# gcrylike.selftests.vectors_secretbox)
NACL_KEY = bytes.fromhex(vectors_secretbox.NACL.key)
NACL_NONCE = bytes.fromhex(vectors_secretbox.NACL.nonce)
NACL_MESSAGE = vectors_secretbox.NACL.message
NACL_BOX = bytes.fromhex(vectors_secretbox.NACL.box)
KNOWN_DRIVERS = ("xsalsa20-poly1305-amd64-avx512ifma", "xsalsa20-poly1305-amd64-avx512",
                 "xsalsa20-poly1305-amd64-avx2", "xsalsa20-poly1305-amd64-sse2",
                 "xsalsa20-poly1305-aarch64-neon", "xsalsa20-poly1305-generic")


def rng_for(*tags: object) -> random.Random:
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


# ---------------------------------------------------------------------------
# Every driver, by impl= and by the deny list
# ---------------------------------------------------------------------------

class BoxDriver:
    """Makes SecretBox objects guaranteed to use one driver."""

    def __init__(self, case: DriverCase) -> None:
        self.case = case
        self.name = case.driver
        self._impl = self.name if case.route == "impl" else None

    def box(self, key: object) -> gcrylike.SecretBox:
        b = gcrylike.SecretBox(key, impl=self._impl)
        if b.driver != self.name:
            got = b.driver
            b.close()
            raise AssertionError(f"SecretBox chose {got}, expected {self.name} (route "
                                 f"{self.case.id}, active {sorted(gcrylike.hw_features())})")
        return b

    def __repr__(self) -> str:
        return f"<BoxDriver {self.case.id}>"


@pytest.fixture
def sbox(request: pytest.FixtureRequest) -> Iterator[BoxDriver]:
    """One secretbox driver; the deny list is restored afterwards."""
    yield from on_route(request.param, BoxDriver, lambda d: d.box(bytes(32)).close())


EVERY_DRIVER = pytest.mark.parametrize("sbox", drivers(NAME, known=KNOWN_DRIVERS), indirect=True)




def raw_open(box: gcrylike.SecretBox, nonce: bytes, sealed: bytes) -> tuple[int, bytes]:
    """The spec's open hook on the box's keyed context, into a buffer filled
    with 0xa5 first: what a refused open leaves there is visible."""
    spec = gcrylike._registry.lookup(NAME)
    out = bytearray(b"\xa5" * max(len(sealed) - TAG, 0))
    with ffi.from_buffer(out) as buf:
        rc = spec.open(box._ctx.ptr, nonce, len(nonce), sealed, len(sealed), buf)
    return rc, bytes(out)


def untouched(plain: bytes) -> bool:
    """Whether ``raw_open``'s buffer holds only its fill: a refused open
    writes nothing there."""
    return plain == b"\xa5" * len(plain)


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------

def test_registered_as_a_secretbox():
    for name in ("xsalsa20-poly1305", "secretbox", "crypto_secretbox", "XSalsa20Poly1305",
                 1103):
        spec = gcrylike._registry.lookup(name)
        assert spec.name == NAME and spec.kind == "secretbox"
        assert isinstance(spec, gcrylike.SecretBoxSpec)
    assert NAME in gcrylike.algorithms()
    assert spec.key_sizes == (32,) and spec.iv_sizes == (24,) and spec.tag_size == 16
    infos = gcrylike.implementations("secretbox")
    assert [i.priority for i in infos] == sorted((i.priority for i in infos), reverse=True)
    assert infos[-1].driver == "xsalsa20-poly1305-generic" and infos[-1].available
    if gcrylike.config().use_amd64:
        assert [i.driver for i in infos] == [d for d in KNOWN_DRIVERS if "aarch64" not in d]
        assert infos[0].features == {"avx512f", "avx512vl", "avx512ifma", "avx2"}
        assert infos[1].features == {"avx512f", "avx512vl", "avx2"}
        assert infos[2].features == {"sse2", "avx2"} and infos[3].features == {"sse2"}
    # not a cipher, not an AEAD mode
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("secretbox")
    with pytest.raises(gcrylike.GcryError):
        gcrylike.cipher_open("xsalsa20", mode="poly1305")
    assert "SecretBox" in gcrylike.__all__ and "SecretBoxSpec" in gcrylike.__all__


def test_deny_list_routing(hwf_deny):
    key = bytes(32)
    if "avx2" in gcrylike.hw_features() and gcrylike.config().use_amd64:
        if {"avx512f", "avx512vl", "avx512ifma"} <= gcrylike.hw_features():
            with gcrylike.SecretBox(key) as b:
                assert b.driver == "xsalsa20-poly1305-amd64-avx512ifma"
            hwf_deny(["avx512ifma"])
        if {"avx512f", "avx512vl"} <= gcrylike.hw_features():
            with gcrylike.SecretBox(key) as b:
                assert b.driver == "xsalsa20-poly1305-amd64-avx512"
            hwf_deny(["avx512vl"])
        with gcrylike.SecretBox(key) as b:
            assert b.driver == "xsalsa20-poly1305-amd64-avx2"
        hwf_deny(["avx2"])  # the AVX-512 pair's Poly1305 is AVX2
        with gcrylike.SecretBox(key) as b:
            assert b.driver == "xsalsa20-poly1305-amd64-sse2"
        with refused(gcrylike.NotSupported):
            gcrylike.SecretBox(key, impl="xsalsa20-poly1305-amd64-avx2")
    hwf_deny(["sse2", "avx2", "neon"])
    with gcrylike.SecretBox(key) as b:
        assert b.driver == "xsalsa20-poly1305-generic"


def test_impl_keyword(available_drivers):
    for name in available_drivers(NAME):
        with gcrylike.SecretBox(NACL_KEY, impl=name.upper()) as b:
            assert b.driver == name
            assert b.encrypt(NACL_MESSAGE, NACL_NONCE).ciphertext == NACL_BOX
    for bad in ("xsalsa20-poly1305-nonesuch", "xsalsa20-generic", "chacha20-poly1305-generic"):
        with refused(gcrylike.UnknownName):
            gcrylike.SecretBox(NACL_KEY, impl=bad)
    with pytest.raises(gcrylike.InvalidType):
        gcrylike.SecretBox(NACL_KEY, impl=3)


# ---------------------------------------------------------------------------
# Known answers and the oracles, every driver
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_nacl_vector(sbox):
    with sbox.box(NACL_KEY) as b:
        assert b.encrypt(NACL_MESSAGE, NACL_NONCE).ciphertext == NACL_BOX
        assert b.decrypt(NACL_BOX, NACL_NONCE) == NACL_MESSAGE
    info = next(i for i in gcrylike.implementations(NAME) if i.driver == sbox.name)
    assert info.selftest == "passed"


@NEEDS_SODIUM
def test_oracles_agree():
    assert sodium_secretbox(NACL_KEY, NACL_NONCE, NACL_MESSAGE) == NACL_BOX
    if PYNACL is not None:
        assert pynacl_secretbox(NACL_KEY, NACL_NONCE, NACL_MESSAGE) == NACL_BOX
        rng = rng_for("oracles")
        for n in (0, 1, 100, 5000):
            key, nonce, msg = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n)
            assert pynacl_secretbox(key, nonce, msg) == sodium_secretbox(key, nonce, msg)


@cache
def every_length_cases() -> list[tuple[bytes, bytes, bytes, bytes]]:
    rng = rng_for("every-length")
    cases = []
    for n in range(2101):
        key, nonce, msg = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n)
        cases.append((key, nonce, msg, sodium_secretbox(key, nonce, msg)))
    return cases


@EVERY_DRIVER
@NEEDS_SODIUM
def test_every_length_against_libsodium(sbox):
    for key, nonce, msg, want in every_length_cases():
        with sbox.box(key) as b:
            assert b.encrypt(msg, nonce).ciphertext == want, len(msg)
            assert b.decrypt(want, nonce) == msg, len(msg)


def _long_lengths() -> list[int]:
    # around the glue's chunk steps (32 + 4096, then every 4096) and the
    # 8-, 4- and 1-block SIMD groups
    near = {32 + CHUNK * k + d for k in (1, 2, 3) for d in (-65, -64, -1, 0, 1, 63, 64, 65)}
    near |= {CHUNK * k + d for k in (1, 2, 4) for d in (-1, 0, 1)}
    return sorted(near) + [65536 + 7, (1 << 20) + 13, 3 << 20]


@cache
def long_cases() -> list[tuple[bytes, bytes, bytes, bytes]]:
    rng = rng_for("long")
    key, nonce = rng.randbytes(32), rng.randbytes(24)
    return [(key, nonce, msg, sodium_secretbox(key, nonce, msg))
            for msg in (rng.randbytes(n) for n in _long_lengths())]


@EVERY_DRIVER
@NEEDS_SODIUM
def test_long_messages_against_libsodium(sbox):
    key = long_cases()[0][0]
    with sbox.box(key) as b:
        for _, nonce, msg, want in long_cases():
            assert b.encrypt(msg, nonce).ciphertext == want, len(msg)
            assert b.decrypt(want, nonce) == msg, len(msg)


@NEEDS_SODIUM
def test_drivers_agree(available_drivers):
    rng = rng_for("agree")
    key = rng.randbytes(32)
    boxes = [gcrylike.SecretBox(key, impl=n) for n in available_drivers(NAME)]
    try:
        for n in [rng.randrange(20000) for _ in range(60)] + [(2 << 20) + 5]:
            nonce, msg = rng.randbytes(24), rng.randbytes(n)
            outs = {b.driver: b.encrypt(msg, nonce).ciphertext for b in boxes}
            assert len(set(outs.values())) == 1, (n, {k: v[:8].hex() for k, v in outs.items()})
            assert next(iter(outs.values())) == sodium_secretbox(key, nonce, msg), n
    finally:
        for b in boxes:
            b.close()


@EVERY_DRIVER
@NEEDS_PYNACL
def test_pynacl_both_ways(sbox):
    rng = rng_for("pynacl")
    for n in (0, 1, 15, 16, 17, 31, 32, 33, 64, 255, 1000, 4127, 4128, 4129, 20000):
        key, nonce, msg = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n)
        with sbox.box(key) as b:
            mine = b.encrypt(msg, nonce).ciphertext
            assert mine == pynacl_secretbox(key, nonce, msg), n
            assert pynacl_secretbox_open(key, nonce, mine) == msg
            assert b.decrypt(pynacl_secretbox(key, nonce, msg), nonce) == msg
    # PyNaCl's own wire form: nonce || box
    with sbox.box(NACL_KEY) as b:
        sealed = PYNACL.SecretBox(NACL_KEY).encrypt(NACL_MESSAGE, NACL_NONCE)
        assert sealed.ciphertext == NACL_BOX
        assert b.decrypt(sealed.ciphertext, sealed.nonce) == NACL_MESSAGE


# ---------------------------------------------------------------------------
# Forgeries: nothing released
# ---------------------------------------------------------------------------

@EVERY_DRIVER
@pytest.mark.parametrize("n", [0, 1, 64, 100, 1000, 5000])
def test_tampering(sbox, n):
    rng = rng_for("tamper", n)
    key, nonce, msg = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n)
    with sbox.box(key) as b:
        sealed = b.encrypt(msg, nonce).ciphertext
        assert len(sealed) == TAG + n
        # every bit of the tag, and of the ciphertext (sampled for long ones)
        bits = list(range(8 * TAG))
        ct_bits = range(8 * TAG, 8 * len(sealed))
        bits += list(ct_bits) if n <= 100 else rng.sample(ct_bits, 400)
        for bit in bits:
            forged = bytearray(sealed)
            forged[bit // 8] ^= 1 << (bit % 8)
            forged = bytes(forged)
            with refused(gcrylike.AuthenticationFailed):
                b.decrypt(forged, nonce)
            rc, plain = raw_open(b, nonce, forged)
            assert rc == ErrorCode.CHECKSUM and untouched(plain), bit
            if SODIUM is not None and bit % 97 == 0:
                assert sodium_secretbox_open(key, nonce, forged) is None
        # wrong nonce (each part of it), wrong key
        for other in (bytes([nonce[0] ^ 1]) + nonce[1:], nonce[:16] + bytes(8),
                      nonce[:23] + bytes([nonce[23] ^ 0x80])):
            with refused(gcrylike.AuthenticationFailed):
                b.decrypt(sealed, other)
            rc, plain = raw_open(b, other, sealed)
            assert rc == ErrorCode.CHECKSUM and untouched(plain)
        with gcrylike.SecretBox(bytes([key[0] ^ 1]) + key[1:], impl=sbox.name) as wrong:
            with refused(gcrylike.AuthenticationFailed):
                wrong.decrypt(sealed, nonce)
        # truncated, extended, or a box shorter than its tag
        for bad in {sealed[:-1], sealed + b"\x00", sealed[1:], sealed[:TAG], sealed[:TAG - 1],
                    b"", b"\x00", bytes(TAG)} - {sealed}:
            with refused(gcrylike.AuthenticationFailed):
                b.decrypt(bad, nonce)
            for conv in (bytearray, memoryview):
                with refused(gcrylike.AuthenticationFailed):
                    b.decrypt(conv(bad), nonce)
            if len(bad) >= TAG:
                rc, plain = raw_open(b, nonce, bad)
                assert rc == ErrorCode.CHECKSUM and untouched(plain)
        # the object still works after the refusals
        assert b.decrypt(sealed, nonce) == msg


# ---------------------------------------------------------------------------
# Inputs: types, lengths, buffers
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_input_types(sbox):
    rng = rng_for("types")
    key, nonce = rng.randbytes(32), rng.randbytes(24)
    for n in (0, 1, 2, 3, 17, 300):
        msg = rng.randbytes(n)
        with sbox.box(key) as b:
            want = b.encrypt(msg, nonce).ciphertext
            assert type(want) is bytes
        convs = (bytes, bytearray, memoryview, lambda d: array.array("B", d),
                 lambda d: memoryview(bytearray(b"...") + d)[3:])
        for conv in convs:
            with sbox.box(conv(key)) as b:
                got = b.encrypt(conv(msg), conv(nonce)).ciphertext
                assert type(got) is bytes and got == want, (n, conv)
                plain = b.decrypt(conv(want), conv(nonce))
                assert type(plain) is bytes and plain == msg, (n, conv)


@EVERY_DRIVER
def test_results_are_fresh(sbox):
    with sbox.box(NACL_KEY) as b:
        a1, a2 = b.encrypt(b"", NACL_NONCE).ciphertext, b.encrypt(b"", NACL_NONCE).ciphertext
        assert a1 == a2 and a1 is not a2
        p1, p2 = b.decrypt(a1, NACL_NONCE), b.decrypt(a2, NACL_NONCE)
        assert p1 == p2 == b""
        x1 = b.encrypt(b"ab", NACL_NONCE).ciphertext
        x2 = b.encrypt(b"ab", NACL_NONCE).ciphertext
        assert x1 == x2 and x1 is not x2
        d1, d2 = b.decrypt(x1, NACL_NONCE), b.decrypt(x1, NACL_NONCE)
        assert d1 == d2 == b"ab" and d1 is not d2
        assert b.decrypt(b.encrypt(b"a", NACL_NONCE).ciphertext, NACL_NONCE) == b"a"


@EVERY_DRIVER
@pytest.mark.parametrize("noncelen", [0, 1, 8, 12, 16, 23, 25, 32])
def test_bad_nonce_length(sbox, noncelen):
    with sbox.box(NACL_KEY) as b:
        for conv in (bytes, bytearray):
            nonce = conv(noncelen)
            for data in (b"", b"x", NACL_MESSAGE):
                with refused(gcrylike.InvalidIVLength):
                    b.encrypt(data, nonce)
            # the nonce is checked before the box: also for a short one
            for box in (b"", bytes(15), NACL_BOX, bytearray(NACL_BOX)):
                with refused(gcrylike.InvalidIVLength):
                    b.decrypt(box, nonce)
        assert b.decrypt(NACL_BOX, NACL_NONCE) == NACL_MESSAGE


@pytest.mark.parametrize("keylen", [0, 1, 16, 24, 31, 33, 64])
def test_bad_key_length(keylen):
    for key in (bytes(keylen), bytearray(keylen)):
        with refused(gcrylike.InvalidKeyLength):
            gcrylike.SecretBox(key)


@pytest.mark.parametrize("what", ["key", "nonce", "data", "box"])
@pytest.mark.parametrize("bad", ["x" * 24, 24, None, 1.5, [0] * 24])
def test_wrong_types(what, bad):
    if what == "key":
        with refused(gcrylike.InvalidType):
            gcrylike.SecretBox(bad)
        return
    with gcrylike.SecretBox(NACL_KEY) as b:
        if what == "nonce" and bad is None:
            return  # no nonce: a random one (test_random_nonce)
        with refused(gcrylike.InvalidType):
            if what == "nonce":
                b.encrypt(b"data", bad)
            elif what == "data":
                b.encrypt(bad, NACL_NONCE)
            else:
                b.decrypt(bad, NACL_NONCE)
        if what == "nonce":
            with refused(gcrylike.InvalidType):
                b.decrypt(NACL_BOX, bad)
        assert b.decrypt(NACL_BOX, NACL_NONCE) == NACL_MESSAGE


def test_generate_key():
    keys = {gcrylike.SecretBox.generate_key() for _ in range(8)}
    assert len(keys) == 8 and all(type(k) is bytes and len(k) == 32 for k in keys)
    k = keys.pop()
    with gcrylike.SecretBox(k) as b:
        assert b.decrypt(b.encrypt(b"hi", bytes(24)).ciphertext, bytes(24)) == b"hi"
    assert (gcrylike.SecretBox.KEY_SIZE, gcrylike.SecretBox.NONCE_SIZE,
            gcrylike.SecretBox.MACBYTES) == (32, 24, 16)


# ---------------------------------------------------------------------------
# PyNaCl's API: (plaintext, nonce=None), nonce || box messages, encoders
# ---------------------------------------------------------------------------

def test_constants_match_pynacl():
    box = gcrylike.SecretBox
    assert (box.KEY_SIZE, box.NONCE_SIZE, box.MACBYTES) == (32, 24, 16)
    assert box.MESSAGEBYTES_MAX == (1 << 64) - 17
    if PYNACL is not None:
        theirs = PYNACL.SecretBox
        assert (box.KEY_SIZE, box.NONCE_SIZE, box.MACBYTES, box.MESSAGEBYTES_MAX) == (
            theirs.KEY_SIZE, theirs.NONCE_SIZE, theirs.MACBYTES, theirs.MESSAGEBYTES_MAX)


@EVERY_DRIVER
def test_message_is_nonce_then_box(sbox):
    with sbox.box(NACL_KEY) as b:
        sealed = b.encrypt(NACL_MESSAGE, NACL_NONCE)
        assert isinstance(sealed, gcrylike.EncryptedMessage) and isinstance(sealed, bytes)
        assert sealed == NACL_NONCE + NACL_BOX and len(sealed) == 24 + TAG + len(NACL_MESSAGE)
        assert type(sealed.nonce) is bytes and sealed.nonce == NACL_NONCE
        assert type(sealed.ciphertext) is bytes and sealed.ciphertext == NACL_BOX
        # the whole message, or the box with its nonce apart, or any buffer of either
        for whole in (sealed, bytes(sealed), bytearray(sealed), memoryview(sealed)):
            assert b.decrypt(whole) == NACL_MESSAGE
        assert b.decrypt(sealed.ciphertext, sealed.nonce) == NACL_MESSAGE
        assert b.decrypt(bytearray(NACL_BOX), memoryview(NACL_NONCE)) == NACL_MESSAGE
        assert b.encrypt(b"", NACL_NONCE).ciphertext == b.encrypt(b"", NACL_NONCE)[24:]


def test_random_nonce():
    with gcrylike.SecretBox(NACL_KEY) as b:
        sealed = [b.encrypt(b"same message") for _ in range(16)]
        assert len({m.nonce for m in sealed}) == 16  # 192 random bits each
        assert all(len(m.nonce) == 24 and len(m) == 24 + TAG + 12 for m in sealed)
        assert all(b.decrypt(m) == b"same message" for m in sealed)
        assert b.decrypt(sealed[0].ciphertext, sealed[0].nonce) == b"same message"


def test_short_messages_are_forgeries():
    # no nonce given: the message must hold one and a tag, else it is no message
    with gcrylike.SecretBox(NACL_KEY) as b:
        whole = b.encrypt(NACL_MESSAGE, NACL_NONCE)
        for bad in (b"", bytes(1), whole[:23], whole[:24], whole[:24 + TAG - 1],
                    whole[:-1], whole + b"\0"):
            with refused(gcrylike.AuthenticationFailed):
                b.decrypt(bad)
        with refused(gcrylike.InvalidType):
            b.decrypt("x" * 64)
        assert b.decrypt(whole) == NACL_MESSAGE


def test_old_argument_order_is_gone():
    # encrypt(nonce, data) with a short message is now (plaintext, nonce) with
    # a nonce of the wrong length: refused, not silently swapped
    with gcrylike.SecretBox(NACL_KEY) as b:
        with refused(gcrylike.InvalidIVLength):
            b.encrypt(NACL_NONCE, b"data")
        with refused(gcrylike.InvalidIVLength):
            b.decrypt(NACL_NONCE, NACL_BOX)


@NEEDS_PYNACL
def test_encoders_as_pynacl():
    from nacl.encoding import Base64Encoder, HexEncoder, RawEncoder

    theirs = PYNACL.SecretBox(NACL_KEY)
    for enc in (RawEncoder, HexEncoder, Base64Encoder):
        with gcrylike.SecretBox(enc.encode(NACL_KEY), enc) as b:
            ours = b.encrypt(NACL_MESSAGE, NACL_NONCE, encoder=enc)
            want = theirs.encrypt(NACL_MESSAGE, NACL_NONCE, encoder=enc)
            assert (bytes(ours), ours.nonce, ours.ciphertext) == (
                bytes(want), want.nonce, want.ciphertext), enc
            assert b.decrypt(want, encoder=enc) == NACL_MESSAGE
            assert theirs.decrypt(ours, encoder=enc) == NACL_MESSAGE
            assert b.decrypt(ours.ciphertext, NACL_NONCE, encoder=enc) == NACL_MESSAGE

    class Reverse:  # any class with static encode/decode will do
        @staticmethod
        def encode(data: bytes) -> bytes:
            return data[::-1]

        @staticmethod
        def decode(data: bytes) -> bytes:
            return data[::-1]

    with gcrylike.SecretBox(NACL_KEY) as b:
        m = b.encrypt(b"abc", NACL_NONCE, encoder=Reverse)
        assert m.nonce == NACL_NONCE[::-1] and bytes(m) == (NACL_NONCE + m.ciphertext[::-1])[::-1]
        assert b.decrypt(m, encoder=Reverse) == b"abc"


def test_messages_pickle_and_copy():
    import copy
    import pickle

    with gcrylike.SecretBox(NACL_KEY) as b:
        for m in (b.encrypt(NACL_MESSAGE), b.encrypt(b"x", encoder=_Hex)):
            for twin in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
                assert type(twin) is type(m) and twin == m
                assert (twin.nonce, twin.ciphertext) == (m.nonce, m.ciphertext)


class _Hex:
    @staticmethod
    def encode(data: bytes) -> bytes:
        return data.hex().encode()

    @staticmethod
    def decode(data: bytes) -> bytes:
        return bytes.fromhex(data.decode())


@EVERY_DRIVER
def test_close_and_context_manager(sbox):
    b = sbox.box(NACL_KEY)
    assert not b.closed and "keyed" in repr(b) and sbox.name in repr(b)
    with b as same:
        assert same is b
        assert b.encrypt(NACL_MESSAGE, NACL_NONCE).ciphertext == NACL_BOX
    assert b.closed and "closed" in repr(b)
    for call in (lambda: b.encrypt(NACL_MESSAGE, NACL_NONCE).ciphertext,
                 lambda: b.encrypt(NACL_MESSAGE, bytearray(NACL_NONCE)).ciphertext,
                 lambda: b.decrypt(NACL_BOX, NACL_NONCE),
                 lambda: b.decrypt(b"", NACL_NONCE)):
        with refused(gcrylike.HandleClosed):
            call()
    b.close()  # twice is fine
    with refused(gcrylike.HandleClosed):
        with b:
            pass


@EVERY_DRIVER
def test_raw_hooks_in_place_and_overlap(sbox):
    """The C seal/open hooks: in place (box at out, message at out + 16, and
    plaintext over the ciphertext) works; other overlaps are refused."""
    spec = gcrylike._registry.lookup(NAME)
    rng = rng_for("raw")
    msg = rng.randbytes(1000)
    with sbox.box(NACL_KEY) as b:
        want = b.encrypt(msg, NACL_NONCE).ciphertext
        ptr = b._ctx.ptr
        buf = bytearray(TAG) + bytearray(msg)
        with ffi.from_buffer(buf) as p:
            assert spec.seal(ptr, NACL_NONCE, 24, p + TAG, len(msg), p) == 0
        assert buf == want
        with ffi.from_buffer(buf) as p:
            assert spec.open(ptr, NACL_NONCE, 24, p, len(buf), p + TAG) == 0
        assert buf[TAG:] == msg
        buf = bytearray(want)
        with ffi.from_buffer(buf) as p:
            assert spec.seal(ptr, NACL_NONCE, 24, p + 8, 100, p) == ErrorCode.INV_ARG
            assert spec.open(ptr, NACL_NONCE, 24, p, len(buf), p) == ErrorCode.INV_ARG
        assert buf == want  # refused before anything was written


def test_threads_share_one_object(available_drivers):
    rng = rng_for("threads")
    key = rng.randbytes(32)
    nthreads, per_thread = 4, 10
    jobs = []
    for _ in range(nthreads):
        mine = []
        for _i in range(per_thread):
            nonce = rng.randbytes(24)
            msg = rng.randbytes(rng.choice((rng.randrange(3000), rng.randrange(200000))))
            mine.append((nonce, msg))
        jobs.append(mine)
    with gcrylike.SecretBox(key, impl="xsalsa20-poly1305-generic") as ref:
        jobs = [[(nonce, msg, (), ref.encrypt(msg, nonce)) for nonce, msg in mine]
                for mine in jobs]
    for name in available_drivers(NAME):
        with gcrylike.SecretBox(key, impl=name) as box:
            check_threads_share_one_object(box, jobs, name)


def test_cli_lists_and_selftests(capsys):
    from gcrylike._cli import main

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert f"{NAME} [secretbox, id 1103]" in out and "tag 16 bytes" in out
    reports = [r for r in gcrylike.selftest() if r.algorithm == NAME]
    assert reports and all(r.status in ("passed", "skipped") for r in reports)
    assert any(r.status == "passed" for r in reports)
