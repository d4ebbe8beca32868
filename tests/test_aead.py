"""ChaCha20-Poly1305 (RFC 8439) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha)
on every implementation: the one-shot classes and the streaming handles of
``cipher_open(cipher, mode="poly1305")``.

Independent answers only: published vectors (RFC 8439 2.8.2 and A.5, the
XChaCha draft's A.3.1, from their one copy in ``gcrylike.selftests.
vectors_aead``; Wycheproof in tests/vectors/wycheproof/),
``cryptography``'s ChaCha20Poly1305 (OpenSSL), pycryptodome's
ChaCha20_Poly1305 (a 24-byte nonce selects XChaCha20-Poly1305), and for
XChaCha a second path through ``cryptography``: a pure-Python HChaCha20
from the draft (section 2.2; tests/reference.py) gives the subkey.

Every driver is reached twice, as tests/conftest.py does for ciphers: forced
with ``impl=`` and chosen under a hardware-feature deny list.  (conftest's
``driver`` fixture opens plain cipher handles, so the AEADs get their own
``aead`` fixture built the same way, with the same ids.)  Drivers that cannot
run here, or that this build lacks (``GCRYLIKE_NO_ASM``), are skipped with
the reason.  Randomness comes from ``random.Random`` with fixed seeds.
"""

from __future__ import annotations

import array
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from checks import check_threads_share_one_object, refused
from conftest import DriverCase, drivers, on_route
from Crypto.Cipher import ChaCha20_Poly1305 as PyCryptodomeChaChaPoly
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305 as OpenSSLChaChaPoly
from reference import hchacha

import gcrylike
from gcrylike import ErrorCode
from gcrylike.selftests import vectors_aead, vectors_chacha

SEED = 0xAEAD8439
TAG = 16
CHUNK = 4096  # the glue's stitching step (AEAD_CHUNK)

VECTORS = Path(__file__).resolve().parent / "vectors" / "wycheproof"


@dataclass(frozen=True)
class Algo:
    name: str          # canonical
    cipher: str        # for cipher_open(cipher, mode="poly1305")
    cls: type
    nonce_size: int
    wycheproof: str
    known_drivers: tuple[str, ...]


CHACHA = Algo("CHACHA20-POLY1305", "chacha20", gcrylike.ChaCha20Poly1305, 12,
              "chacha20_poly1305_test.json",
              ("chacha20-poly1305-amd64-avx512-ifma", "chacha20-poly1305-amd64-avx2",
               "chacha20-poly1305-amd64-ssse3", "chacha20-poly1305-aarch64-neon",
               "chacha20-poly1305-generic"))
XCHACHA = Algo("XCHACHA20-POLY1305", "xchacha20", gcrylike.XChaCha20Poly1305, 24,
               "xchacha20_poly1305_test.json",
               ("xchacha20-poly1305-amd64-avx512-ifma", "xchacha20-poly1305-amd64-avx2",
                "xchacha20-poly1305-amd64-ssse3", "xchacha20-poly1305-aarch64-neon",
                "xchacha20-poly1305-generic"))
ALGOS = {a.name: a for a in (CHACHA, XCHACHA)}


def rng_for(*tags: object) -> random.Random:
    """A generator with a fixed seed per test and algorithm (never per
    driver: every driver sees the same inputs, so oracle results are
    computed once and cached)."""
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


# ---------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------

def openssl_seal(algo: Algo, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
    """ct || tag from cryptography (XChaCha: HChaCha20 subkey, RFC nonce
    0^4 || nonce[16:24], draft section 2.3)."""
    if algo is XCHACHA:
        key, nonce = hchacha(key, nonce[:16], 20), bytes(4) + nonce[16:]
    return OpenSSLChaChaPoly(key).encrypt(nonce, data, aad)


def pycryptodome_seal(key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
    c = PyCryptodomeChaChaPoly.new(key=key, nonce=nonce)
    c.update(aad)
    ct, tag = c.encrypt_and_digest(data)
    return ct + tag


def oracle(algo: Algo, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
    """ct || tag, from two outside implementations that must agree."""
    a = openssl_seal(algo, key, nonce, data, aad)
    b = pycryptodome_seal(key, nonce, data, aad)
    assert a == b, "the oracles disagree"
    return a


# ---------------------------------------------------------------------------
# Published vectors
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Vector:
    name: str
    algo: Algo
    key: bytes
    nonce: bytes
    aad: bytes
    plaintext: bytes
    ciphertext: bytes
    tag: bytes


DRAFT = vectors_aead.XCHACHA_DRAFT

# written once, in gcrylike.selftests.vectors_aead
PUBLISHED = [
    *(Vector(f"RFC8439-{name}", CHACHA, v.key, v.nonce, v.aad, v.plaintext,
             bytes.fromhex(v.ciphertext), bytes.fromhex(v.tag))
      for name, v in vectors_aead.RFC8439.items()),
    Vector("xchacha-draft-A.3.1", XCHACHA, DRAFT.key, DRAFT.nonce, DRAFT.aad, DRAFT.plaintext,
           bytes.fromhex(DRAFT.ciphertext), bytes.fromhex(DRAFT.tag)),
]


@dataclass(frozen=True)
class WycheproofCase:
    tc_id: int
    comment: str
    flags: tuple[str, ...]
    key: bytes
    nonce: bytes
    aad: bytes
    msg: bytes
    ct: bytes
    tag: bytes
    result: str  # "valid" or "invalid"


@cache
def load_wycheproof(algo_name: str) -> tuple[dict, list[WycheproofCase]]:
    doc = json.loads((VECTORS / ALGOS[algo_name].wycheproof).read_text())
    cases = [WycheproofCase(t["tcId"], t["comment"], tuple(t["flags"]),
                            *(bytes.fromhex(t[k]) for k in ("key", "iv", "aad", "msg", "ct",
                                                            "tag")),
                            t["result"])
             for g in doc["testGroups"] for t in g["tests"]]
    return doc, cases


# ---------------------------------------------------------------------------
# Drivers: every implementation, forced (impl=) and chosen (deny list)
# ---------------------------------------------------------------------------

class AeadDriver:
    """What the ``aead`` fixture hands a test: one-shot objects and streaming
    handles that are guaranteed to use one driver."""

    def __init__(self, case: DriverCase) -> None:
        self.case = case
        self.name = case.driver
        self.algo = ALGOS[case.algorithm]
        self.nonce_size = self.algo.nonce_size
        self._impl = self.name if case.route == "impl" else None

    def _check(self, got: str, what: str) -> None:
        if got != self.name:
            raise AssertionError(f"{what} chose {got}, expected {self.name} (route "
                                 f"{self.case.id}, active {sorted(gcrylike.hw_features())})")

    def box(self, key: object) -> gcrylike.ChaCha20Poly1305:
        b = self.algo.cls(key, impl=self._impl)
        self._check(b.driver, self.algo.cls.__name__)
        return b

    def stream(self, key: object | None = None) -> gcrylike.AeadHandle:
        h = gcrylike.cipher_open(self.algo.cipher, impl=self._impl, mode="poly1305")
        self._check(h.info.driver, f"cipher_open({self.algo.cipher!r}, mode='poly1305')")
        if key is not None:
            h.setkey(key)
            self._check(h.info.driver, "setkey")
        return h

    def reach(self) -> None:
        """A streaming handle and a one-shot object, each on this driver."""
        self.stream().close()
        self.box(bytes(32)).close()

    def oracle(self, key: bytes, nonce: bytes, data: bytes, aad: bytes) -> bytes:
        return oracle(self.algo, key, nonce, data, aad)

    def __repr__(self) -> str:
        return f"<AeadDriver {self.case.id}>"


@pytest.fixture
def aead(request: pytest.FixtureRequest) -> Iterator[AeadDriver]:
    """One AEAD driver; the deny list is restored afterwards."""
    yield from on_route(request.param, AeadDriver, AeadDriver.reach)


def routes(algo: Algo) -> list:
    return drivers(algo.name, known=algo.known_drivers)


EVERY_DRIVER = pytest.mark.parametrize("aead", routes(CHACHA) + routes(XCHACHA), indirect=True)
CHACHA_DRIVERS = pytest.mark.parametrize("aead", routes(CHACHA), indirect=True)
XCHACHA_DRIVERS = pytest.mark.parametrize("aead", routes(XCHACHA), indirect=True)


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------




def pieces(rng: random.Random, data: bytes, most: int = 6) -> list[bytes]:
    cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(most + 1)))
    return [data[lo:hi] for lo, hi in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def stream_seal(h: gcrylike.AeadHandle, nonce: bytes, data: bytes, aad: bytes,
                rng: random.Random) -> bytes:
    h.setiv(nonce)
    for part in pieces(rng, aad):
        h.authenticate(part)
    ct = b"".join(h.encrypt(part) for part in pieces(rng, data))
    return ct + h.gettag()


def stream_open(h: gcrylike.AeadHandle, nonce: bytes, sealed: bytes, aad: bytes,
                rng: random.Random) -> bytes:
    """Streaming decryption, then checktag (raises on a wrong tag)."""
    h.setiv(nonce)
    for part in pieces(rng, aad):
        h.authenticate(part)
    pt = b"".join(h.decrypt(part) for part in pieces(rng, sealed[:-TAG]))
    h.checktag(sealed[-TAG:])
    return pt


# ---------------------------------------------------------------------------
# The oracles and vectors themselves
# ---------------------------------------------------------------------------

def test_hchacha20_reference():
    # draft-irtf-cfrg-xchacha-03 section 2.2.1
    key, data, rounds, want = vectors_chacha.HCHACHA[0]
    got = hchacha(bytes.fromhex(key), bytes.fromhex(data), rounds)
    assert got.hex() == want
    assert gcrylike.hchacha(bytes.fromhex(key), bytes.fromhex(data)) == got


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_oracles_agree(algo):
    rng = rng_for("oracles", algo.name)
    for n in (0, 1, 63, 64, 65, 1000, 5000):
        key, nonce = rng.randbytes(32), rng.randbytes(algo.nonce_size)
        aad, msg = rng.randbytes(rng.randrange(40)), rng.randbytes(n)
        oracle(algo, key, nonce, msg, aad)  # asserts the two agree


@pytest.mark.parametrize("vec", PUBLISHED, ids=[v.name for v in PUBLISHED])
def test_published_transcription(vec):
    sealed = vec.ciphertext + vec.tag
    assert oracle(vec.algo, vec.key, vec.nonce, vec.plaintext, vec.aad) == sealed
    assert len(vec.key) == 32 and len(vec.nonce) == vec.algo.nonce_size
    assert len(vec.plaintext) == len(vec.ciphertext)


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_wycheproof_files(algo):
    doc, cases = load_wycheproof(algo.name)
    assert doc["algorithm"] == algo.name
    assert len(cases) == doc["numberOfTests"] == len({c.tc_id for c in cases})
    flags = {f for c in cases for f in c.flags}
    assert flags <= {"Ktv", "Pseudorandom", "EdgeCasePoly1305", "EdgeCaseCiphertext",
                     "EdgeCasePolyKey", "EdgeCaseTag", "ModifiedTag", "InvalidNonceSize"}
    assert {c.result for c in cases} == {"valid", "invalid"}
    assert (VECTORS / "LICENSE").read_text().lstrip().startswith("Apache License")
    # the valid ones are what both oracles say
    for c in cases:
        if c.result == "valid":
            assert oracle(algo, c.key, c.nonce, c.msg, c.aad) == c.ct + c.tag, c.tc_id


# ---------------------------------------------------------------------------
# Known answers on every driver
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_published_vectors(aead):
    rng = rng_for("published")
    vectors = [v for v in PUBLISHED if v.algo is aead.algo]
    assert vectors
    for v in vectors:
        sealed = v.ciphertext + v.tag
        with aead.box(v.key) as box:
            assert box.encrypt(v.nonce, v.plaintext, v.aad) == sealed, v.name
            assert box.decrypt(v.nonce, sealed, v.aad) == v.plaintext, v.name
        with aead.stream(v.key) as h:
            for _ in range(5):
                assert stream_seal(h, v.nonce, v.plaintext, v.aad, rng) == sealed, v.name
                assert stream_open(h, v.nonce, sealed, v.aad, rng) == v.plaintext, v.name


@EVERY_DRIVER
def test_wycheproof(aead):
    rng = rng_for("wycheproof")
    _, cases = load_wycheproof(aead.algo.name)
    seen = {"valid": 0, "ModifiedTag": 0, "InvalidNonceSize": 0}
    with aead.stream() as h:
        for c in cases:
            where = f"tcId {c.tc_id} ({c.comment})"
            box = aead.box(c.key)
            h.setkey(c.key)
            sealed = c.ct + c.tag
            if c.result == "valid":
                assert box.encrypt(c.nonce, c.msg, c.aad) == sealed, where
                assert box.decrypt(c.nonce, sealed, c.aad) == c.msg, where
                assert stream_seal(h, c.nonce, c.msg, c.aad, rng) == sealed, where
                assert stream_open(h, c.nonce, sealed, c.aad, rng) == c.msg, where
                seen["valid"] += 1
            elif "InvalidNonceSize" in c.flags:
                assert len(c.nonce) != aead.nonce_size, where
                with refused(gcrylike.InvalidIVLength):
                    box.encrypt(c.nonce, c.msg, c.aad)
                with refused(gcrylike.InvalidIVLength):
                    box.decrypt(c.nonce, sealed, c.aad)
                with refused(gcrylike.InvalidIVLength):
                    h.setiv(c.nonce)
                seen["InvalidNonceSize"] += 1
            else:
                assert c.flags == ("ModifiedTag",), where
                with refused(gcrylike.AuthenticationFailed):
                    box.decrypt(c.nonce, sealed, c.aad)
                with refused(gcrylike.AuthenticationFailed):
                    stream_open(h, c.nonce, sealed, c.aad, rng)
                # the right tag is what encryption gives
                assert box.encrypt(c.nonce, c.msg, c.aad)[:-TAG] == c.ct, where
                seen["ModifiedTag"] += 1
            box.close()
    assert seen["valid"] > 200 and seen["ModifiedTag"] == 60 and seen["InvalidNonceSize"] == 9


@EVERY_DRIVER
def test_selftest_passed_after_use(aead):
    aead.box(bytes(32)).encrypt(bytes(aead.nonce_size), b"x")
    status = {i.driver: i.selftest for i in gcrylike.implementations(aead.algo.name)}
    assert status[aead.name] == "passed"


# ---------------------------------------------------------------------------
# Cross-checks
# ---------------------------------------------------------------------------

@cache
def every_length_cases(algo_name: str) -> list[tuple[bytes, bytes, bytes, bytes, bytes]]:
    """(key, nonce, aad, msg, ct || tag) for message lengths 0..1100."""
    algo = ALGOS[algo_name]
    rng = rng_for("every-length", algo_name)
    out = []
    for n in range(1101):
        key, nonce = rng.randbytes(32), rng.randbytes(algo.nonce_size)
        aad = rng.randbytes(rng.choice((0, 1, 12, 15, 16, 17, rng.randrange(300))))
        msg = rng.randbytes(n)
        out.append((key, nonce, aad, msg, oracle(algo, key, nonce, msg, aad)))
    return out


@EVERY_DRIVER
def test_every_length_against_oracles(aead):
    for key, nonce, aad, msg, sealed in every_length_cases(aead.algo.name):
        n = len(msg)
        box = aead.box(key)
        got = box.encrypt(nonce, msg, aad)
        assert type(got) is bytes and got == sealed, n
        assert box.decrypt(nonce, sealed, aad) == msg, n


@EVERY_DRIVER
def test_every_length_streaming(aead):
    rng = rng_for("every-length-stream", aead.algo.name)
    with aead.stream() as h:
        for key, nonce, aad, msg, sealed in every_length_cases(aead.algo.name)[::3]:
            h.setkey(key)
            assert stream_seal(h, nonce, msg, aad, rng) == sealed, len(msg)
            assert stream_open(h, nonce, sealed, aad, rng) == msg, len(msg)


def _boundary_lengths() -> list[int]:
    """Around the 64-byte ChaCha block, the 4- and 8-block SIMD widths, the
    16-block Poly1305 threshold and the 4096-byte stitching chunk."""
    near = {m * k + d for m in (64, 256, 512, CHUNK) for k in (1, 2, 3, 4)
            for d in (-17, -16, -1, 0, 1, 15, 16, 17)}
    return sorted(n for n in near if n > 1100)


@cache
def boundary_cases(algo_name: str) -> list[tuple[bytes, bytes, bytes, bytes, bytes]]:
    algo = ALGOS[algo_name]
    rng = rng_for("boundaries", algo_name)
    out = []
    for n in _boundary_lengths():
        key, nonce = rng.randbytes(32), rng.randbytes(algo.nonce_size)
        aad = rng.randbytes(rng.choice((0, 1, 15, 16, 17, 255, 256, 257, 4097)))
        msg = rng.randbytes(n)
        out.append((key, nonce, aad, msg, oracle(algo, key, nonce, msg, aad)))
    for n in (3 * (1 << 20) + 13, (5 << 20) - 1):  # several MiB
        key, nonce = rng.randbytes(32), rng.randbytes(algo.nonce_size)
        aad, msg = rng.randbytes(33), rng.randbytes(n)
        out.append((key, nonce, aad, msg, oracle(algo, key, nonce, msg, aad)))
    return out


@EVERY_DRIVER
def test_long_messages(aead):
    rng = rng_for("long-stream", aead.algo.name)
    with aead.stream() as h:
        for key, nonce, aad, msg, sealed in boundary_cases(aead.algo.name):
            n = len(msg)
            with aead.box(key) as box:
                assert box.encrypt(nonce, msg, aad) == sealed, n
                assert box.decrypt(nonce, sealed, aad) == msg, n
            if n < (1 << 20) or rng.randrange(2):
                h.setkey(key)
                assert stream_seal(h, nonce, msg, aad, rng) == sealed, (n, "stream")
                assert stream_open(h, nonce, sealed, aad, rng) == msg, (n, "stream")


def test_drivers_agree(available_drivers):
    rng = rng_for("agree")
    for algo in (CHACHA, XCHACHA):
        names = available_drivers(algo.name)
        for n in (0, 1, 255, 256, 257, 4095, 4096, 4097, 3 * CHUNK + 100, 70000):
            key, nonce = rng.randbytes(32), rng.randbytes(algo.nonce_size)
            aad, msg = rng.randbytes(rng.randrange(100)), rng.randbytes(n)
            outs = [algo.cls(key, impl=name).encrypt(nonce, msg, aad) for name in names]
            assert len(set(outs)) == 1, (algo.name, n, names)
            assert outs[0] == oracle(algo, key, nonce, msg, aad)


# ---------------------------------------------------------------------------
# Tampering: every forgery is refused, and the object keeps working
# ---------------------------------------------------------------------------

@EVERY_DRIVER
@pytest.mark.parametrize("n", [0, 1, 64, 100, 1000, 5000])
def test_tampering(aead, n):
    rng = rng_for("tamper", aead.algo.name, n)
    key, nonce = rng.randbytes(32), rng.randbytes(aead.nonce_size)
    aad, msg = rng.randbytes(20), rng.randbytes(n)
    with aead.box(key) as box:
        sealed = box.encrypt(nonce, msg, aad)
        assert sealed == aead.oracle(key, nonce, msg, aad)

        def forged(data: bytes, nonce_: bytes = nonce, aad_: object = aad) -> None:
            with refused(gcrylike.AuthenticationFailed):
                box.decrypt(nonce_, data, aad_)

        # a flipped bit in every position class: ciphertext first, middle
        # and last byte, tag first and last byte (every tag bit)
        positions = {0, n // 2, n - 1} if n else set()
        for pos in positions:
            for bit in (0, 3, 7):
                bad = bytearray(sealed)
                bad[pos] ^= 1 << bit
                forged(bytes(bad))
        for pos in range(n, n + TAG):
            for bit in range(8):
                bad = bytearray(sealed)
                bad[pos] ^= 1 << bit
                forged(bytes(bad))
        # associated data: flipped, missing, truncated, extended
        bad_aad = bytearray(aad)
        bad_aad[7] ^= 0x10
        for a in (bytes(bad_aad), None, b"", aad[:-1], aad + b"\x00"):
            forged(sealed, aad_=a)
        # truncated tag, tag alone, shorter than a tag, empty, extended
        for data in (sealed[:-1], sealed[:-TAG], sealed[-TAG:] if n else b"",
                     sealed[:TAG - 1], b"", b"\x00" * 15, sealed + b"\x00"):
            if data != sealed:
                forged(data)
        # a wrong nonce; another key's ciphertext
        bad_nonce = bytearray(nonce)
        bad_nonce[-1] ^= 1
        forged(sealed, nonce_=bytes(bad_nonce))
        with aead.box(rng.randbytes(32)) as other:
            forged(other.encrypt(nonce, msg, aad))
        # wrong nonce length: refused before anything else, also for short input
        for ln in (0, 8, aead.nonce_size - 1, aead.nonce_size + 1, 32):
            with refused(gcrylike.InvalidIVLength):
                box.decrypt(bytes(ln), sealed, aad)
            with refused(gcrylike.InvalidIVLength):
                box.decrypt(bytes(ln), b"", aad)
        # after every failure the object still works
        assert box.decrypt(nonce, sealed, aad) == msg
        assert box.encrypt(nonce, msg, aad) == sealed


@EVERY_DRIVER
def test_failed_decrypts_interleaved_with_good_ones(aead):
    rng = rng_for("interleaved", aead.algo.name)
    with aead.box(rng.randbytes(32)) as box:
        for i in range(200):
            nonce, aad = rng.randbytes(aead.nonce_size), rng.randbytes(rng.randrange(40))
            msg = rng.randbytes(rng.randrange(3000))
            sealed = box.encrypt(nonce, msg, aad)
            bad = bytearray(sealed)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            with refused(gcrylike.AuthenticationFailed):
                box.decrypt(nonce, bytes(bad), aad)
            assert box.decrypt(nonce, sealed, aad) == msg, i


# ---------------------------------------------------------------------------
# One-shot API
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_one_shot_input_types(aead):
    rng = rng_for("types", aead.algo.name)
    key, nonce = rng.randbytes(32), rng.randbytes(aead.nonce_size)
    aad, msg = rng.randbytes(30), rng.randbytes(777)
    sealed = aead.oracle(key, nonce, msg, aad)

    def kinds(b: bytes) -> dict[str, object]:
        padded = bytearray(b"\xa5" * 3 + b)
        return {"bytes": b, "bytearray": bytearray(b), "memoryview": memoryview(b),
                "unaligned-memoryview": memoryview(padded)[3:], "array-B": array.array("B", b)}

    for kname, k in kinds(key).items():
        with aead.box(k) as box:
            assert box.encrypt(nonce, msg, aad) == sealed, kname
    with aead.box(key) as box:
        for what, value in (("nonce", nonce), ("data", msg), ("aad", aad)):
            for name, v in kinds(value).items():
                args = {"nonce": nonce, "data": msg, "aad": aad}
                args[what] = v
                got = box.encrypt(args["nonce"], args["data"], args["aad"])
                assert type(got) is bytes and got == sealed, (what, name)
                args["data"] = sealed if what != "data" else kinds(sealed)[name]
                pt = box.decrypt(args["nonce"], args["data"], args["aad"])
                assert type(pt) is bytes and pt == msg, (what, name)
                assert bytes(v) == value, f"{what} {name} was modified"
        # associated_data: None, omitted and b"" are the same
        plain = box.encrypt(nonce, msg)
        assert plain == box.encrypt(nonce, msg, None) == box.encrypt(nonce, msg, b"")
        assert plain == aead.oracle(key, nonce, msg, b"")
        assert box.decrypt(nonce, plain) == box.decrypt(nonce, plain, None) == msg
        assert box.encrypt(nonce, msg, associated_data=aad) == sealed
        assert box.decrypt(nonce, sealed, associated_data=aad) == msg


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_generate_key(algo):
    keys = {algo.cls.generate_key() for _ in range(20)}
    assert len(keys) == 20
    for k in keys:
        assert type(k) is bytes and len(k) == 32
    key = keys.pop()
    nonce = bytes(algo.nonce_size)
    box = algo.cls(key)
    assert box.decrypt(nonce, box.encrypt(nonce, b"hello", b"h"), b"h") == b"hello"
    assert box.encrypt(nonce, b"hello") == oracle(algo, key, nonce, b"hello", b"")


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_impl_keyword(algo, available_drivers):
    key = bytes(range(32))
    want = oracle(algo, key, bytes(algo.nonce_size), b"x" * 300, b"")
    for name in available_drivers(algo.name):
        for spelled in (name, name.upper()):
            box = algo.cls(key, impl=spelled)
            assert box.driver == name
            assert box.encrypt(bytes(algo.nonce_size), b"x" * 300) == want
    other = XCHACHA if algo is CHACHA else CHACHA
    for bad in ("nope", "", "generic", f"{other.name.lower()}-generic", "poly1305-generic64",
                "chacha20-generic"):
        with refused(gcrylike.UnknownName):
            algo.cls(key, impl=bad)
        with refused(gcrylike.UnknownName):
            gcrylike.cipher_open(algo.cipher, impl=bad, mode="poly1305")
    for bad in (5, b"generic"):
        with refused(gcrylike.InvalidType):
            algo.cls(key, impl=bad)


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
@pytest.mark.parametrize("keylen", [0, 1, 16, 24, 31, 33, 64])
def test_one_shot_bad_key_length(algo, keylen):
    for key in (bytes(keylen), bytearray(keylen), memoryview(bytes(keylen))):
        with refused(gcrylike.InvalidKeyLength):
            algo.cls(key)
    with gcrylike.cipher_open(algo.cipher, mode="poly1305") as h:
        with refused(gcrylike.InvalidKeyLength):
            h.setkey(bytes(keylen))
        with refused(gcrylike.MissingKey):
            h.setiv(bytes(algo.nonce_size))


@EVERY_DRIVER
def test_one_shot_bad_nonce_length(aead):
    rng = rng_for("bad-nonce", aead.algo.name)
    key, msg = rng.randbytes(32), rng.randbytes(100)
    with aead.box(key) as box:
        good = bytes(aead.nonce_size)
        sealed = box.encrypt(good, msg)
        for ln in sorted({0, 1, 8, 11, 12, 13, 16, 23, 24, 25, 32, 64} - {aead.nonce_size}):
            for nonce in (bytes(ln), bytearray(ln), memoryview(bytes(ln))):
                with refused(gcrylike.InvalidIVLength):
                    box.encrypt(nonce, msg)
                with refused(gcrylike.InvalidIVLength):
                    box.decrypt(nonce, sealed)
        assert box.decrypt(good, sealed) == msg


BAD_VALUES = {"a str": "x" * 24, "an int": 12, "None": None, "a float": 1.5,
              "a list": [0] * 24}


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
@pytest.mark.parametrize("what,bad", [
    (what, bad)
    for what in ("key", "nonce", "data", "decrypt-data", "aad")
    for bad in BAD_VALUES
    if (what, bad) != ("aad", "None")  # associated_data=None: no associated data
])
def test_one_shot_wrong_types(algo, what, bad):
    value = BAD_VALUES[bad]
    key, nonce = bytes(range(32)), bytes(algo.nonce_size)
    if what == "key":
        if isinstance(value, str):
            value = "x" * 32
        with refused(gcrylike.InvalidType):
            algo.cls(value)
        return
    box = algo.cls(key)
    sealed = box.encrypt(nonce, b"data", b"aad")
    call = {
        "nonce": lambda: box.encrypt(value, b"data"),
        "data": lambda: box.encrypt(nonce, value),
        "decrypt-data": lambda: box.decrypt(nonce, value),
        "aad": lambda: box.encrypt(nonce, b"data", value),
    }[what]
    with refused(gcrylike.InvalidType):
        call()
    assert box.decrypt(nonce, sealed, b"aad") == b"data"


@EVERY_DRIVER
def test_one_shot_close(aead):
    key, nonce = bytes(range(32)), bytes(aead.nonce_size)
    with aead.box(key) as box:
        sealed = box.encrypt(nonce, b"abc")
    for call in (lambda: box.encrypt(nonce, b"abc"), lambda: box.decrypt(nonce, sealed),
                 lambda: box.encrypt(nonce, b"abc", b"aad")):
        with refused(gcrylike.HandleClosed):
            call()
    box.close()  # idempotent
    assert aead.box(key).decrypt(nonce, sealed) == b"abc"


# ---------------------------------------------------------------------------
# Thread safety of the one-shot object
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_threads_share_one_object(algo, available_drivers):
    rng = rng_for("threads", algo.name)
    key = rng.randbytes(32)
    nthreads, per_thread = 4, 12
    jobs = []
    for _ in range(nthreads):
        mine = []
        for _i in range(per_thread):
            nonce, aad = rng.randbytes(algo.nonce_size), rng.randbytes(rng.randrange(50))
            msg = rng.randbytes(rng.choice((rng.randrange(5000), rng.randrange(300000))))
            mine.append((nonce, msg, (aad,), openssl_seal(algo, key, nonce, msg, aad)))
        jobs.append(mine)
    for name in available_drivers(algo.name):
        with algo.cls(key, impl=name) as box:
            check_threads_share_one_object(box, jobs, name)


# ---------------------------------------------------------------------------
# Streaming handles
# ---------------------------------------------------------------------------

@EVERY_DRIVER
def test_stream_matches_one_shot(aead):
    rng = rng_for("stream", aead.algo.name)
    key = rng.randbytes(32)
    with aead.box(key) as box, aead.stream(key) as h:
        for trial in range(150):
            nonce = rng.randbytes(aead.nonce_size)
            aad = rng.randbytes(rng.choice((0, 5, 16, rng.randrange(600))))
            msg = rng.randbytes(rng.choice((0, 1, 63, rng.randrange(20000))))
            sealed = box.encrypt(nonce, msg, aad)
            # several authenticate calls (some empty), random data splits
            h.setiv(nonce)
            for part in pieces(rng, aad, most=8) + [b""]:
                h.authenticate(part)
            ct = bytearray()
            for part in pieces(rng, msg, most=12):
                ct += h.encrypt(part)
            assert bytes(ct) == sealed[:-TAG], trial
            tag = h.gettag()
            assert tag == sealed[-TAG:] and h.gettag() == tag, trial  # repeatable
            h.checktag(tag)
            assert h.gettag() == tag
            # decryption in other pieces
            h.setiv(nonce)
            for part in pieces(rng, aad, most=3):
                h.authenticate(part)
            pt = b"".join(h.decrypt(part) for part in pieces(rng, bytes(ct), most=12))
            assert pt == msg, trial
            h.checktag(tag)
            assert h.gettag() == tag


@EVERY_DRIVER
def test_stream_checktag(aead):
    rng = rng_for("checktag", aead.algo.name)
    key, nonce = rng.randbytes(32), rng.randbytes(aead.nonce_size)
    aad, msg = rng.randbytes(9), rng.randbytes(333)
    sealed = aead.oracle(key, nonce, msg, aad)
    tag = sealed[-TAG:]
    with aead.stream(key) as h:
        h.setiv(nonce)
        h.authenticate(aad)
        assert h.decrypt(sealed[:-TAG]) == msg
        for i in (0, 7, 15):
            for bit in (0, 7):
                bad = bytearray(tag)
                bad[i] ^= 1 << bit
                with refused(gcrylike.AuthenticationFailed):
                    h.checktag(bytes(bad))
        for n in range(TAG):  # truncated, down to nothing
            with refused(gcrylike.AuthenticationFailed):
                h.checktag(tag[:n])
        for t in (tag + b"\x00", tag + tag):
            with refused(gcrylike.AuthenticationFailed):
                h.checktag(t)
        # the refusals changed nothing
        h.checktag(tag)
        h.checktag(bytearray(tag))
        h.checktag(memoryview(tag))
        assert h.gettag() == tag
        # a wrong message: decryption still runs (streaming releases data
        # before the tag, as libgcrypt does) but the tag is refused
        h.setiv(nonce)
        h.authenticate(aad)
        bad = bytearray(sealed[:-TAG])
        bad[100] ^= 4
        h.decrypt(bytes(bad))
        with refused(gcrylike.AuthenticationFailed):
            h.checktag(tag)
        # encrypting: checktag against the computed tag
        h.setiv(nonce)
        h.authenticate(aad)
        h.encrypt(msg)
        h.checktag(tag)
        with refused(gcrylike.AuthenticationFailed):
            h.checktag(bytes(TAG))


@EVERY_DRIVER
def test_stream_states(aead):
    rng = rng_for("states", aead.algo.name)
    key, nonce = rng.randbytes(32), rng.randbytes(aead.nonce_size)
    aad, msg = rng.randbytes(20), rng.randbytes(200)
    sealed = aead.oracle(key, nonce, msg, aad)
    with aead.stream(key) as h:
        # before setiv: nothing but setiv (and setkey, reset)
        for call in (lambda: h.authenticate(b"a"), lambda: h.encrypt(b"a"),
                     lambda: h.decrypt(b"a"), h.gettag, lambda: h.checktag(bytes(TAG))):
            with refused(gcrylike.InvalidState):
                call()
        h.setiv(nonce)
        h.authenticate(aad[:10])
        h.encrypt(msg[:50])
        # authenticate after data; the other direction on the same message
        with refused(gcrylike.InvalidState):
            h.authenticate(aad[10:])
        with refused(gcrylike.InvalidState):
            h.decrypt(b"x")
        with refused(gcrylike.InvalidState):
            h.authenticate(b"")
        # the refusals did not disturb the message
        h.encrypt(msg[50:])
        assert h.gettag() != sealed[-TAG:]  # aad[10:] was refused: a different message
        assert h.gettag() == aead.oracle(key, nonce, msg, aad[:10])[-TAG:]
        # after the tag: no more data or aad until setiv
        for call in (lambda: h.authenticate(b"a"), lambda: h.encrypt(b"a"),
                     lambda: h.decrypt(b"a")):
            with refused(gcrylike.InvalidState):
                call()
        # decrypt first, then encrypt is refused
        h.setiv(nonce)
        h.authenticate(aad)
        assert h.decrypt(sealed[:100]) == msg[:100]
        with refused(gcrylike.InvalidState):
            h.encrypt(b"x")
        assert h.decrypt(sealed[100:-TAG]) == msg[100:]
        h.checktag(sealed[-TAG:])
        # no aad and no data: the tag of the empty message
        h.setiv(nonce)
        assert h.gettag() == aead.oracle(key, nonce, b"", b"")[-TAG:]
        # only aad
        h.setiv(nonce)
        h.authenticate(aad)
        assert h.gettag() == aead.oracle(key, nonce, b"", aad)[-TAG:]
        # an empty encrypt still ends the aad
        h.setiv(nonce)
        h.authenticate(aad)
        assert h.encrypt(b"") == b""
        with refused(gcrylike.InvalidState):
            h.authenticate(b"more")
        assert h.gettag() == aead.oracle(key, nonce, b"", aad)[-TAG:]


@EVERY_DRIVER
def test_stream_reset_and_setkey(aead):
    rng = rng_for("reset", aead.algo.name)
    key, key2 = rng.randbytes(32), rng.randbytes(32)
    nonce, aad, msg = rng.randbytes(aead.nonce_size), rng.randbytes(7), rng.randbytes(500)
    with aead.stream(key) as h:
        h.setiv(nonce)
        h.authenticate(aad)
        h.encrypt(msg[:123])
        h.reset()
        # a nonce is needed again
        for call in (lambda: h.authenticate(b"a"), lambda: h.encrypt(b"a"), h.gettag):
            with refused(gcrylike.InvalidState):
                call()
        assert stream_seal(h, nonce, msg, aad, rng) == aead.oracle(key, nonce, msg, aad)
        h.reset()
        h.reset()
        assert stream_seal(h, nonce, msg, aad, rng) == aead.oracle(key, nonce, msg, aad)
        # reset goes back to the latest key
        h.setkey(key2)
        h.setiv(nonce)
        h.encrypt(b"junk")
        h.reset()
        assert stream_seal(h, nonce, msg, aad, rng) == aead.oracle(key2, nonce, msg, aad)
        # setiv alone starts a new message at any point
        h.setiv(nonce)
        h.authenticate(b"zz")
        h.encrypt(b"partial")
        assert stream_seal(h, nonce, msg, aad, rng) == aead.oracle(key2, nonce, msg, aad)
        # a refused setiv (wrong length) leaves the message being built alone
        h.setiv(nonce)
        h.authenticate(aad)
        with refused(gcrylike.InvalidIVLength):
            h.setiv(bytes(aead.nonce_size + 1))
        h.encrypt(msg)
        assert h.gettag() == aead.oracle(key2, nonce, msg, aad)[-TAG:]


@EVERY_DRIVER
def test_stream_out_buffers(aead):
    rng = rng_for("out", aead.algo.name)
    key, nonce, aad = rng.randbytes(32), rng.randbytes(aead.nonce_size), rng.randbytes(11)
    with aead.stream(key) as h:
        for n in (0, 1, 64, 100, 256, 257, 1000, CHUNK + 13):
            msg = rng.randbytes(n)
            sealed = aead.oracle(key, nonce, msg, aad)
            ct = sealed[:-TAG]
            # out= a bytearray, a longer one, an unaligned view, an array
            for make in (bytearray, lambda k: bytearray(b"\x5a" * (k + 9)),
                         lambda k: memoryview(bytearray(b"\x5a" * (k + 12)))[3:],
                         lambda k: array.array("B", bytes(k))):
                out = make(n)
                before = bytes(out)
                h.setiv(nonce)
                h.authenticate(aad)
                assert h.encrypt(msg, out=out) == n
                assert bytes(out)[:n] == ct and bytes(out)[n:] == before[n:]
                assert h.gettag() == sealed[-TAG:], n
                h.setiv(nonce)
                h.authenticate(aad)
                back = make(n)
                assert h.decrypt(bytes(out)[:n], out=back) == n
                assert bytes(back)[:n] == msg
                h.checktag(sealed[-TAG:])
            # in place, in two pieces
            buf = bytearray(msg)
            h.setiv(nonce)
            h.authenticate(aad)
            half = n // 2
            view = memoryview(buf)
            assert h.encrypt(view[:half], out=view[:half]) == half
            assert h.encrypt(view[half:], out=view[half:]) == n - half
            assert buf == ct and h.gettag() == sealed[-TAG:]
            h.setiv(nonce)
            h.authenticate(aad)
            assert h.decrypt(buf, out=buf) == n
            assert buf == msg
            h.checktag(sealed[-TAG:])
            # the same message via the one-shot
            with aead.box(key) as box:
                assert box.encrypt(nonce, msg, aad) == sealed


@EVERY_DRIVER
def test_stream_refused_buffers(aead):
    rng = rng_for("refused-out", aead.algo.name)
    key, nonce, aad = rng.randbytes(32), rng.randbytes(aead.nonce_size), rng.randbytes(5)
    msg = rng.randbytes(300)
    with aead.stream(key) as h:
        h.setiv(nonce)
        h.authenticate(aad)
        h.encrypt(msg[:10])
        for have in (0, 1, 99):
            out = bytearray(b"\xa5" * have)
            with refused(gcrylike.InvalidLength):
                h.encrypt(msg[10:110], out=out)
            assert out == b"\xa5" * have
        for out in (bytes(100), memoryview(bytes(100))):
            with refused(gcrylike.ReadOnlyBuffer):
                h.encrypt(msg[10:110], out=out)
        for bad in ("str", 5, None, 1.5):
            with refused(gcrylike.InvalidType):
                h.encrypt(bad)
            with refused(gcrylike.InvalidType):
                h.checktag(bad)
        buf = bytearray(msg)
        view = memoryview(buf)
        with refused(gcrylike.InvalidArgument):
            h.encrypt(view[10:110], out=view[11:111])
        assert buf == msg
        # the message goes on where it was
        h.encrypt(msg[10:])
        assert h.gettag() == aead.oracle(key, nonce, msg, aad)[-TAG:]


@EVERY_DRIVER
@pytest.mark.parametrize("direction", ["encrypt", "decrypt"])
def test_stream_refused_call_keeps_the_phase(aead, direction):
    """A refused encrypt/decrypt in the associated-data phase neither ends
    the associated data nor fixes the direction (regression: the C glue
    used to enter the data phase before refusing overlapping buffers)."""
    rng = rng_for("refused-phase", aead.algo.name)
    key, nonce, msg = rng.randbytes(32), rng.randbytes(aead.nonce_size), rng.randbytes(300)
    with aead.stream(key) as h:
        h.setiv(nonce)
        h.authenticate(b"first")
        call = getattr(h, direction)
        buf = bytearray(msg)
        view = memoryview(buf)
        with refused(gcrylike.InvalidArgument):
            call(view[0:100], out=view[1:101])
        with refused(gcrylike.InvalidLength):
            call(msg[:100], out=bytearray(99))
        with refused(gcrylike.InvalidType):
            call("text")
        assert buf == msg
        h.authenticate(b"second")  # still in the associated data
        other = "decrypt" if direction == "encrypt" else "encrypt"
        out = getattr(h, other)(msg)  # and either direction is still open
        sealed = aead.oracle(key, nonce, msg, b"firstsecond")
        if other == "encrypt":
            assert out == sealed[:-TAG]
            assert h.gettag() == sealed[-TAG:]
        else:
            h.checktag(aead.oracle(key, nonce, out, b"firstsecond")[-TAG:])


@EVERY_DRIVER
def test_stream_missing_key_and_closed(aead):
    h = aead.stream()
    for call in (lambda: h.setiv(bytes(aead.nonce_size)), lambda: h.authenticate(b"a"),
                 lambda: h.encrypt(b"a"), lambda: h.decrypt(b"a"), h.gettag,
                 lambda: h.checktag(bytes(TAG)), h.reset):
        with refused(gcrylike.MissingKey):
            call()
    h.setkey(bytes(range(32)))
    h.setiv(bytes(aead.nonce_size))
    assert not h.closed
    h.close()
    assert h.closed and "closed" in repr(h)
    for call in (lambda: h.setkey(bytes(32)), lambda: h.setiv(bytes(aead.nonce_size)),
                 lambda: h.authenticate(b"a"), lambda: h.encrypt(b"a"),
                 lambda: h.encrypt(b"a", out=bytearray(1)), lambda: h.decrypt(b"a"),
                 h.gettag, lambda: h.checktag(bytes(TAG)), h.reset):
        with refused(gcrylike.HandleClosed):
            call()
    with refused(gcrylike.HandleClosed):
        with h:
            pass
    h.close()
    with aead.stream() as h2:
        assert not h2.closed
    assert h2.closed


@EVERY_DRIVER
def test_stream_info(aead):
    with aead.stream() as h:
        info = h.info
        assert isinstance(info, gcrylike.AeadInfo)
        assert (info.algorithm, info.driver, info.key_sizes, info.iv_sizes, info.tag_size) == \
            (aead.algo.name, aead.name, (32,), (aead.nonce_size,), TAG)
        assert isinstance(h, gcrylike.AeadHandle)
        assert "no key" in repr(h)
        h.setkey(bytes(32))
        assert "keyed" in repr(h)


@EVERY_DRIVER
def test_stream_bad_iv_length(aead):
    with aead.stream(bytes(range(32))) as h:
        for ln in sorted({0, 8, 11, 12, 13, 16, 23, 24, 25, 32} - {aead.nonce_size}):
            with refused(gcrylike.InvalidIVLength):
                h.setiv(bytes(ln))
        with refused(gcrylike.InvalidState):
            h.encrypt(b"x")
        with refused(gcrylike.InvalidType):
            h.setiv("x" * aead.nonce_size)


# ---------------------------------------------------------------------------
# Modes and names
# ---------------------------------------------------------------------------

def test_mode_poly1305_opens_the_aeads():
    for cipher, name in (("chacha20", "CHACHA20-POLY1305"), ("CHACHA20", "CHACHA20-POLY1305"),
                         ("xchacha20", "XCHACHA20-POLY1305")):
        for mode in ("poly1305", "POLY1305", "Poly1305"):
            with gcrylike.cipher_open(cipher, mode=mode) as h:
                assert isinstance(h, gcrylike.AeadHandle) and h.info.algorithm == name
    with gcrylike.cipher_open("chacha20", mode="stream") as h:
        assert isinstance(h, gcrylike.CipherHandle)


@pytest.mark.parametrize("cipher,mode", [
    ("salsa20", "poly1305"), ("salsa20r12", "poly1305"), ("chacha12", "poly1305"),
    ("xchacha12", "poly1305"), ("chacha20", "gcm"), ("chacha20", "poly1306"),
    ("xchacha20", ""),
])
def test_mode_not_supported(cipher, mode):
    with refused(gcrylike.NotSupported, ErrorCode.INV_CIPHER_MODE):
        gcrylike.cipher_open(cipher, mode=mode)


def test_mode_on_something_that_is_not_a_cipher():
    # an AEAD's own name opens it, alone or with its own mode (tests/test_openers.py)
    for name in ("chacha20-poly1305", "xchacha20-poly1305"):
        for how in ((name,), (name, "poly1305")):
            with gcrylike.cipher_open(*how) as h:
                assert isinstance(h, gcrylike.AeadHandle)
        with refused(gcrylike.UnknownAlgorithm):
            gcrylike.cipher_open(name, "stream")
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("poly1305", mode="poly1305")
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("poly1305")
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("no-such-cipher", mode="poly1305")


@pytest.mark.parametrize("mode", [5, 1.5, ["poly1305"], b"poly1305"])
def test_mode_of_wrong_type(mode):
    """(regression: cipher_open called mode.lower() first, so a non-string
    mode raised AttributeError)"""
    with refused(gcrylike.InvalidType):
        gcrylike.cipher_open("chacha20", mode=mode)


def test_aeads_are_registered():
    names = gcrylike.algorithms()
    assert "CHACHA20-POLY1305" in names and "XCHACHA20-POLY1305" in names
    for algo in (CHACHA, XCHACHA):
        infos = gcrylike.implementations(algo.name)
        assert any(i.driver.endswith("-generic") for i in infos)
        with refused(gcrylike.UnknownAlgorithm):
            gcrylike.mac_open(algo.name)


# ---------------------------------------------------------------------------
# Choosing through the deny list
# ---------------------------------------------------------------------------

def _chosen(algo: Algo) -> tuple[str, str]:
    box = algo.cls(bytes(32))
    with gcrylike.cipher_open(algo.cipher, mode="poly1305") as h:
        h.setkey(bytes(32))
        return box.driver, h.info.driver


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_deny_list_routing(algo, hwf_deny):
    prefix = algo.name.lower()
    hwf_deny(())
    have = {i.driver: i.available for i in gcrylike.implementations(algo.name)}
    if have.get(f"{prefix}-amd64-avx512-ifma"):
        assert _chosen(algo) == (f"{prefix}-amd64-avx512-ifma",) * 2
        hwf_deny("avx512ifma")  # AVX-512 without IFMA (Skylake-SP) keeps AVX2
    if have.get(f"{prefix}-amd64-avx2"):
        assert _chosen(algo) == (f"{prefix}-amd64-avx2",) * 2
    if have.get(f"{prefix}-amd64-ssse3"):
        hwf_deny("avx2")
        assert _chosen(algo) == (f"{prefix}-amd64-ssse3",) * 2
    # (the AVX-512 ChaCha needs no SSSE3: denying ssse3 alone leaves it)
    for deny in ("ssse3,avx512f,neon", "sse2,ssse3,avx2,neon", "all"):
        hwf_deny(deny)
        assert _chosen(algo) == (f"{prefix}-generic",) * 2, deny
        for name in (f"{prefix}-amd64-avx512-ifma", f"{prefix}-amd64-avx2",
                     f"{prefix}-amd64-ssse3"):
            if name in have:
                with refused(gcrylike.NotSupported):
                    algo.cls(bytes(32), impl=name)
    key, nonce = bytes(range(32)), bytes(algo.nonce_size)
    assert algo.cls(key).encrypt(nonce, b"x" * 100) == oracle(algo, key, nonce, b"x" * 100, b"")


# ---------------------------------------------------------------------------
# A refused decrypt whose exception is kept must not crash the collector
# (see tests/test_salsa20.py, test_gc_after_a_refused_call); in a child
# process so that a crash cannot take the run down.
# ---------------------------------------------------------------------------

_GC_SCRIPT = r"""
import gc
import sys
import gcrylike

cls = getattr(gcrylike, sys.argv[1])
nlen = int(sys.argv[2])
box = cls(bytes(range(32)))
h = gcrylike.cipher_open(sys.argv[3], mode="poly1305")
h.setkey(bytes(range(32)))

def refused_call(case):
    buf = memoryview(bytearray(400))
    sealed = bytearray(box.encrypt(bytes(nlen), bytes(300), b"aad"))
    sealed[5] ^= 1
    try:
        if case == "forged":
            box.decrypt(memoryview(bytearray(nlen + 3))[3:], memoryview(sealed), buf[:3])
        elif case == "short":
            box.decrypt(bytes(nlen), buf[1:10], buf[:3])
        elif case == "overlap":
            h.setiv(bytes(nlen))
            h.encrypt(buf[0:100], out=buf[1:101])
        elif case == "checktag":
            h.setiv(bytes(nlen))
            h.decrypt(buf[:50])
            h.checktag(buf[200:216])
    except gcrylike.GcryError as e:
        kept = e
        return type(kept).__name__
    return "not refused"

for case in ("forged", "short", "overlap", "checktag"):
    print(refused_call(case), flush=True)
gc.collect()
print("survived", flush=True)
"""


@pytest.mark.parametrize("algo", [CHACHA, XCHACHA], ids=["chacha", "xchacha"])
def test_gc_after_a_refused_call(algo):
    res = subprocess.run([sys.executable, "-c", _GC_SCRIPT, algo.cls.__name__,
                          str(algo.nonce_size), algo.cipher],
                         capture_output=True, text=True, timeout=120, check=False)
    assert res.stdout.split()[:4] == ["AuthenticationFailed", "AuthenticationFailed",
                                      "InvalidArgument", "AuthenticationFailed"], \
        (res.stdout, res.stderr[-3000:])
    assert res.returncode == 0 and "survived" in res.stdout, \
        f"exit status {res.returncode}: {res.stderr[-3000:]}"
