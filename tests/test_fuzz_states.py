"""State-machine fuzzing (hypothesis, bounded and derandomized: see
fuzz_support.py) over every handle kind: random sequences of setkey, setiv,
setctr, encrypt, decrypt, authenticate, update, digest, gettag, checktag,
reset, copy and close, on several handles and their clones at once, with
arguments of random types and lengths.  A model predicts each call: either
its exact result (from the pure-Python keystream or a peer library) or the
GcryError subclass it must raise; anything else (a builtin exception, a
crash, a wrong byte) fails."""

from __future__ import annotations

import copy
import struct
from dataclasses import dataclass, field, replace

import pytest
from Crypto.Cipher import ChaCha20_Poly1305 as PyCryptodomeAead
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305 as PeerAead
from cryptography.hazmat.primitives.poly1305 import Poly1305 as PeerPoly1305
from fuzz_support import STREAMS, available, bounded, keystream
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from nacl.secret import SecretBox as PeerSecretBox
from stream_checks import xor

import gcrylike
from gcrylike import (
    AuthenticationFailed,
    CounterExhausted,
    HandleClosed,
    InvalidArgument,
    InvalidIVLength,
    InvalidKeyLength,
    InvalidState,
    InvalidType,
    MissingKey,
    NotContiguous,
)

MAX_HANDLES = 4

# -- arguments of random types -------------------------------------------------------------

GOOD_KINDS = ("bytes", "bytearray", "memoryview", "offset")
BAD_KINDS = {"str": InvalidType, "none": InvalidType, "int": InvalidType,
             "float": InvalidType, "strided": NotContiguous}


@dataclass(frozen=True)
class Arg:
    """A drawn argument: its bytes and the kind of object that carries them,
    or a bad kind and the error it must cause."""

    kind: str
    raw: bytes = b""

    @property
    def error(self):
        return BAD_KINDS.get(self.kind)

    def value(self):
        raw = self.raw
        if self.kind == "bytes":
            return raw
        if self.kind == "bytearray":
            return bytearray(raw)
        if self.kind == "memoryview":
            return memoryview(raw)
        if self.kind == "offset":  # an unaligned slice of a bigger writable buffer
            return memoryview(bytearray(b"\xee" * 3 + raw + b"\xee"))[3:3 + len(raw)]
        return {"str": "text", "none": None, "int": 7, "float": 1.5,
                "strided": memoryview(bytes(2 * len(raw) + 4))[::2]}[self.kind]


def args(sizes: st.SearchStrategy[int]) -> st.SearchStrategy[Arg]:
    good = st.builds(lambda k, b: Arg(k, b), st.sampled_from(GOOD_KINDS),
                     sizes.flatmap(lambda n: st.binary(min_size=n, max_size=n)))
    bad = st.sampled_from(sorted(BAD_KINDS)).map(Arg)
    # seven in eight arguments are good ones, so that sequences get somewhere
    return st.sampled_from([True] * 7 + [False]).flatmap(lambda ok: good if ok else bad)


def sized(*valid: int, upto: int = 40) -> st.SearchStrategy[int]:
    return st.sampled_from([*valid] * 3 + [None]).flatmap(
        lambda n: st.integers(0, upto) if n is None else st.just(n))


def expect(error, call, *a, **k):
    """Run ``call``: it must raise exactly the predicted GcryError class (a
    subclass of it), or succeed when ``error`` is None."""
    if error is None:
        return call(*a, **k)
    with pytest.raises(error):
        call(*a, **k)
    return None


has_handles = precondition(lambda self: bool(self.pool))


class PoolMachine(RuleBasedStateMachine):
    """Several (handle, model) pairs; rules pick one by index."""

    def __init__(self):
        super().__init__()
        self.pool: list[list] = []

    def pick(self, i: int):
        return self.pool[i % len(self.pool)]

    def add(self, handle, model):
        if len(self.pool) >= MAX_HANDLES:
            old = self.pool.pop(0)
            old[0].close()
        self.pool.append([handle, model])

    def teardown(self):
        for h, _ in self.pool:
            h.close()
            h.close()  # idempotent

    def _copy(self, i, how):
        h, m = self.pick(i)
        if m.closed:
            expect(HandleClosed, copy.copy, h)
            if hasattr(h, "copy"):
                expect(HandleClosed, h.copy)
            return
        twin = {"copy": copy.copy, "deepcopy": copy.deepcopy}.get(how, lambda x: x.copy())(h)
        self.add(twin, replace(m))

    def _close(self, i):
        h, m = self.pick(i)
        h.close()
        m.closed = True
        assert h.closed

    # Rules every machine shares (subclasses inherit them; MacMachine widens copy_handle).

    @has_handles
    @rule(i=st.integers(0, 99), how=st.sampled_from(["copy", "deepcopy"]))
    def copy_handle(self, i, how):
        self._copy(i, how)

    @has_handles
    @rule(i=st.integers(0, 99), dice=st.integers(0, 3))
    def close(self, i, dice):
        if dice == 0:  # a quarter of the draws: handles live long enough to do things
            self._close(i)


# -- stream cipher handles -----------------------------------------------------------------

STREAM_DRIVERS = [(n, d) for n in STREAMS for d in available(n)]


@dataclass
class StreamModel:
    name: str
    closed: bool = False
    key: bytes | None = None
    iv: bytes | None = None   # as a 12-byte or 8/24-byte nonce
    pos: int = 0              # byte position in the keystream
    bits: int = 64

    def spec(self):
        return gcrylike._registry.lookup(self.name)

    def state_error(self, need_iv=True):
        if self.closed:
            return HandleClosed
        if self.key is None:
            return MissingKey
        if need_iv and self.iv is None:
            return InvalidState
        return None


class StreamMachine(PoolMachine):
    @rule(which=st.sampled_from(STREAM_DRIVERS), ready=st.booleans(),
          key=st.binary(min_size=32, max_size=32), iv=st.binary(min_size=24, max_size=24),
          ivlen=st.integers(0, 3))
    def open(self, which, ready, key, iv, ivlen):
        name, driver = which
        self.add(gcrylike.cipher_open(name, impl=driver), StreamModel(name))
        if ready:  # keyed, with a nonce of one of its sizes
            sizes = gcrylike._registry.lookup(name).iv_sizes
            self.setkey(-1, Arg("bytes", key))
            self.setiv(-1, Arg("bytes", iv[:sizes[ivlen % len(sizes)]]))

    @has_handles
    @rule(i=st.integers(0, 99), key=args(sized(16, 32)))
    def setkey(self, i, key):
        h, m = self.pick(i)
        err = HandleClosed if m.closed else key.error
        if err is None and len(key.raw) not in m.spec().key_sizes:
            err = InvalidKeyLength
        expect(err, h.setkey, key.value())
        if err is None:
            m.key, m.iv, m.pos = key.raw, None, 0

    @has_handles
    @rule(i=st.integers(0, 99), iv=args(sized(8, 12, 16, 24)))
    def setiv(self, i, iv):
        h, m = self.pick(i)
        err = m.state_error(need_iv=False) or iv.error
        if err is None and len(iv.raw) not in m.spec().iv_sizes:
            err = InvalidIVLength
        expect(err, h.setiv, iv.value())
        if err is None:
            raw = iv.raw
            if len(raw) == 16:  # RFC 8439 counter word, then the 12-byte nonce
                m.iv, m.pos, m.bits = raw[4:], 64 * struct.unpack("<I", raw[:4])[0], 32
            else:
                m.iv, m.pos = raw, 0
                m.bits = 32 if STREAMS[m.name][1] == "chacha" and len(raw) == 12 else 64

    @has_handles
    @rule(i=st.integers(0, 99), block=st.one_of(
        st.integers(0, 5), st.integers(2**32 - 3, 2**32 + 2), st.integers(2**64 - 3, 2**64 + 1),
        st.integers(-2, -1), st.sampled_from(["1", None, 1.5, True])))
    def setctr(self, i, block):
        h, m = self.pick(i)
        err = m.state_error()
        if err is None:
            if isinstance(block, bool) or not isinstance(block, int):
                err = InvalidType
            elif block < 0:
                err = InvalidArgument
            elif block >= 2**m.bits:
                err = CounterExhausted
        expect(err, h.setctr, block)
        if err is None:
            m.pos = 64 * block

    @has_handles
    @rule(i=st.integers(0, 99), data=args(st.integers(0, 300)),
          decrypting=st.booleans(), in_place=st.booleans())
    def crypt(self, i, data, decrypting, in_place):
        h, m = self.pick(i)
        n = len(data.raw)
        err = m.state_error() or data.error
        if err is None and m.pos + n > 64 * 2**m.bits:
            err = CounterExhausted
        call = h.decrypt if decrypting else h.encrypt
        value = data.value()
        if in_place and data.kind in ("bytearray", "offset"):
            got = expect(err, call, value, out=value)
            got = bytes(value) if err is None else None
            if err is not None:
                assert bytes(value) == data.raw  # nothing written
        else:
            got = expect(err, call, value)
        if err is None:
            assert got == xor(data.raw, keystream(m.name, m.key, m.iv, m.pos, n))
            m.pos += n

    @has_handles
    @rule(i=st.integers(0, 99))
    def reset(self, i):
        h, m = self.pick(i)
        err = m.state_error(need_iv=False)
        expect(err, h.reset)
        if err is None:
            m.iv, m.pos = None, 0


# -- MAC handles ---------------------------------------------------------------------------

MAC_DRIVERS = [(n, d) for n in ("POLY1305", "NHPOLY1305") for d in available(n)]


def mac_oracle(name: str, key: bytes, data: bytes) -> bytes:
    if name == "POLY1305":
        return PeerPoly1305.generate_tag(key, data)
    from test_nhpoly1305 import ref_nhpoly1305

    return ref_nhpoly1305(key, data)


@dataclass
class MacModel:
    name: str
    closed: bool = False
    key: bytes | None = None
    data: bytes = b""
    finished: bool = False

    def state_error(self, need_open=True):
        if self.closed:
            return HandleClosed
        if self.key is None:
            return MissingKey
        if need_open and self.finished:
            return InvalidState
        return None

    def tag(self):
        return mac_oracle(self.name, self.key, self.data)


class MacMachine(PoolMachine):
    @rule(which=st.sampled_from(MAC_DRIVERS), ready=st.booleans(),
          key=st.binary(min_size=1088, max_size=1088))
    def open(self, which, ready, key):
        name, driver = which
        self.add(gcrylike.mac_open(name, impl=driver), MacModel(name))
        if ready:
            self.setkey(-1, Arg("bytes", key[:gcrylike._registry.lookup(name).key_sizes[0]]))

    @has_handles
    @rule(i=st.integers(0, 99), key=args(sized(32, 1088, upto=40)))
    def setkey(self, i, key):
        h, m = self.pick(i)
        err = HandleClosed if m.closed else key.error
        if err is None and len(key.raw) not in gcrylike._registry.lookup(m.name).key_sizes:
            err = InvalidKeyLength
        expect(err, h.setkey, key.value())
        if err is None:
            m.key, m.data, m.finished = key.raw, b"", False

    @has_handles
    @rule(i=st.integers(0, 99), data=args(st.integers(0, 400)))
    def update(self, i, data):
        h, m = self.pick(i)
        err = m.state_error() or data.error
        expect(err, h.update, data.value())
        if err is None:
            m.data += data.raw

    @has_handles
    @rule(i=st.integers(0, 99), how=st.sampled_from(["digest", "final", "verify", "bad"]))
    def finish(self, i, how):
        h, m = self.pick(i)
        err = m.state_error()
        if how == "digest":
            got = expect(err, h.digest)
        elif how == "final":
            got = expect(err, h.final)
            if err is None:
                m.finished = True
        else:
            tag = m.tag() if err is None else bytes(16)
            if how == "bad":
                tag = bytes([tag[0] ^ 1]) + tag[1:]
            expect(err or (AuthenticationFailed if how == "bad" else None), h.verify, tag)
            return
        if err is None:
            assert got == mac_oracle(m.name, m.key, m.data)

    @has_handles
    @rule(i=st.integers(0, 99))
    def reset(self, i):
        h, m = self.pick(i)
        err = m.state_error(need_open=False)
        expect(err, h.reset)
        if err is None:
            m.data, m.finished = b"", False

    @has_handles
    @rule(i=st.integers(0, 99), how=st.sampled_from(["copy", "deepcopy", "method"]))
    def copy_handle(self, i, how):
        self._copy(i, how)


# -- AEAD handles --------------------------------------------------------------------------

AEAD_DRIVERS = [(n, d) for n in ("CHACHA20-POLY1305", "XCHACHA20-POLY1305")
                for d in available(n)]


def aead_oracle(x: bool, key: bytes, nonce: bytes, aad: bytes, pt: bytes) -> bytes:
    if x:
        peer = PyCryptodomeAead.new(key=key, nonce=nonce)
        peer.update(aad)
        ct, tag = peer.encrypt_and_digest(pt)
        return ct + tag
    return PeerAead(key).encrypt(nonce, pt, aad)


@dataclass
class AeadModel:
    x: bool
    closed: bool = False
    key: bytes | None = None
    nonce: bytes | None = None
    phase: str = "need_iv"          # need_iv, aad, encrypting, decrypting, done
    aad: bytes = b""
    pt: bytes = b""
    ct: bytes = b""
    tag: bytes | None = None
    history: list = field(default_factory=list)

    def keyed_error(self):
        if self.closed:
            return HandleClosed
        if self.key is None:
            return MissingKey
        return None

    def finish(self):
        if self.phase != "done":
            sealed = aead_oracle(self.x, self.key, self.nonce, self.aad, self.pt)
            assert sealed[:-16] == self.ct, "ciphertext differs from the peer's"
            self.tag, self.phase = sealed[-16:], "done"
        return self.tag


class AeadMachine(PoolMachine):
    @rule(which=st.sampled_from(AEAD_DRIVERS), ready=st.booleans(),
          key=st.binary(min_size=32, max_size=32), nonce=st.binary(min_size=24, max_size=24))
    def open(self, which, ready, key, nonce):
        name, driver = which
        x = name.startswith("X")
        h = gcrylike.cipher_open("XCHACHA20" if x else "CHACHA20", mode="poly1305", impl=driver)
        self.add(h, AeadModel(x))
        if ready:
            self.setkey(-1, Arg("bytes", key))
            self.setiv(-1, Arg("bytes", nonce[:24 if x else 12]))

    @has_handles
    @rule(i=st.integers(0, 99), key=args(sized(32)))
    def setkey(self, i, key):
        h, m = self.pick(i)
        err = HandleClosed if m.closed else key.error
        if err is None and len(key.raw) != 32:
            err = InvalidKeyLength
        expect(err, h.setkey, key.value())
        if err is None:
            m.key, m.phase = key.raw, "need_iv"

    @has_handles
    @rule(i=st.integers(0, 99), nonce=args(sized(12, 24, upto=30)))
    def setiv(self, i, nonce):
        h, m = self.pick(i)
        err = m.keyed_error() or nonce.error
        if err is None and len(nonce.raw) != (24 if m.x else 12):
            err = InvalidIVLength
        expect(err, h.setiv, nonce.value())
        if err is None:
            m.nonce, m.phase, m.aad, m.pt, m.ct = nonce.raw, "aad", b"", b"", b""

    @has_handles
    @rule(i=st.integers(0, 99), aad=args(st.integers(0, 100)))
    def authenticate(self, i, aad):
        h, m = self.pick(i)
        err = m.keyed_error() or aad.error
        if err is None and m.phase != "aad":
            err = InvalidState
        expect(err, h.authenticate, aad.value())
        if err is None:
            m.aad += aad.raw

    @has_handles
    @rule(i=st.integers(0, 99), data=args(st.integers(0, 700)), decrypting=st.booleans(),
          in_place=st.booleans())
    def crypt(self, i, data, decrypting, in_place):
        h, m = self.pick(i)
        err = m.keyed_error() or data.error
        doing = "decrypting" if decrypting else "encrypting"
        if err is None and m.phase not in ("aad", doing):
            err = InvalidState
        call = h.decrypt if decrypting else h.encrypt
        value = data.value()
        if in_place and data.kind in ("bytearray", "offset"):
            expect(err, call, value, out=value)
            got = bytes(value)
        else:
            got = expect(err, call, value)
        if err is None:
            m.phase = doing
            m.pt += got if decrypting else data.raw
            m.ct += data.raw if decrypting else got
            assert len(got) == len(data.raw)

    @has_handles
    @rule(i=st.integers(0, 99), how=st.sampled_from(["gettag", "checktag", "badtag", "short"]))
    def tag(self, i, how):
        h, m = self.pick(i)
        err = m.keyed_error()
        if err is None and m.phase == "need_iv":
            err = InvalidState
        if how == "gettag":
            got = expect(err, h.gettag)
            if err is None:
                assert got == m.finish()
            return
        if err is not None:
            expect(err, h.checktag, bytes(16))
            return
        want = m.finish()
        tag = {"checktag": want, "badtag": bytes([want[0] ^ 0x80]) + want[1:],
               "short": want[:15]}[how]
        expect(None if how == "checktag" else AuthenticationFailed, h.checktag, tag)

    @has_handles
    @rule(i=st.integers(0, 99))
    def reset(self, i):
        h, m = self.pick(i)
        err = m.keyed_error()
        expect(err, h.reset)
        if err is None:
            m.phase = "need_iv"


# -- one-shot objects, tweakable and block handles -------------------------------------------

@dataclass
class KeyedModel:
    kind: str
    key: bytes
    closed: bool = False


def _make(kind: str, key, driver):
    if kind == "tweakable":
        h = gcrylike.tweakable_open("adiantum", impl=driver)
        h.setkey(key)
        return h
    if kind == "block":
        h = gcrylike.block_cipher_open("aes256", impl=driver)
        h.setkey(key)
        return h
    cls = {"chacha20poly1305": gcrylike.ChaCha20Poly1305,
           "xchacha20poly1305": gcrylike.XChaCha20Poly1305,
           "secretbox": gcrylike.SecretBox, "adiantum": gcrylike.Adiantum}[kind]
    return cls(key, impl=driver)


KEYED_KINDS = [
    ("chacha20poly1305", "CHACHA20-POLY1305"), ("xchacha20poly1305", "XCHACHA20-POLY1305"),
    ("secretbox", "XSALSA20-POLY1305"), ("adiantum", "ADIANTUM(XCHACHA12,AES)"),
    ("tweakable", "ADIANTUM(XCHACHA12,AES)"), ("block", "AES256"),
]
KEYED_DRIVERS = [(k, d) for k, name in KEYED_KINDS for d in available(name)]
NONCE = {"chacha20poly1305": 12, "xchacha20poly1305": 24, "secretbox": 24}


def _adiantum_reference(key, tweak, data, encrypting):
    from test_adiantum import ref_crypt

    return ref_crypt(key, tweak, data, 12, encrypting)


class KeyedMachine(PoolMachine):
    @rule(which=st.sampled_from(KEYED_DRIVERS), key=args(sized(32)))
    def open(self, which, key):
        kind, driver = which
        err = key.error or (None if len(key.raw) == 32 else InvalidKeyLength)
        h = expect(err, _make, kind, key.value(), driver)
        if err is None:
            self.add(h, KeyedModel(kind, key.raw))

    @has_handles
    @rule(i=st.integers(0, 99), nonce=args(sized(12, 24, upto=30)),
          data=args(st.integers(0, 200)), aad=args(st.integers(0, 40)), tamper=st.booleans())
    def seal_and_open(self, i, nonce, data, aad, tamper):
        h, m = self.pick(i)
        if m.kind not in NONCE:
            return self.tweak_or_blocks(h, m, data, aad)
        if aad.kind == "none":  # associated_data=None means none
            aad = Arg("bytes")
        if m.kind == "secretbox":  # PyNaCl's order; no nonce is a random one
            return self.secretbox(h, m, nonce, data, tamper)
        err = HandleClosed if m.closed else (nonce.error or data.error or aad.error)
        if err is None and len(nonce.raw) != NONCE[m.kind]:
            err = InvalidIVLength
        sealed = expect(err, h.encrypt, nonce.value(), data.value(), aad.value())
        if err is not None:
            return
        want = aead_oracle(m.kind.startswith("x"), m.key, nonce.raw, aad.raw, data.raw)
        assert sealed == want
        if tamper:
            sealed = bytes([sealed[0] ^ 4]) + sealed[1:] if sealed else b"x"
        got = expect(AuthenticationFailed if tamper else None, h.decrypt, nonce.raw,
                     bytearray(sealed), aad.value())
        if not tamper:
            assert got == data.raw

    def secretbox(self, h, m, nonce, data, tamper):
        random_nonce = nonce.kind == "none"
        err = HandleClosed if m.closed else (None if random_nonce else nonce.error) or data.error
        if err is None and not random_nonce and len(nonce.raw) != NONCE[m.kind]:
            err = InvalidIVLength
        sealed = expect(err, h.encrypt, data.value(), nonce.value())
        if err is not None:
            return
        assert sealed == PeerSecretBox(m.key).encrypt(data.raw, sealed.nonce)
        assert random_nonce or sealed.nonce == nonce.raw
        if tamper:
            sealed = bytes([sealed[0] ^ 4]) + sealed[1:]
        got = expect(AuthenticationFailed if tamper else None, h.decrypt, bytearray(sealed))
        if not tamper:
            assert got == data.raw

    def tweak_or_blocks(self, h, m, data, tweak):
        if m.kind == "block":
            err = HandleClosed if m.closed else data.error
            if err is None and len(data.raw) % 16:
                err = gcrylike.InvalidLength
            got = expect(err, h.encrypt_blocks, data.value())
            if err is None:
                enc = Cipher(algorithms.AES(m.key), modes.ECB()).encryptor()
                assert got == enc.update(data.raw)
            return
        err = HandleClosed if m.closed else (data.error or tweak.error)
        if err is None and len(data.raw) < 16:
            err = gcrylike.InvalidLength
        if err is None and len(tweak.raw) > 32:
            err = InvalidIVLength
        got = expect(err, h.encrypt, data.value(), tweak.value())
        if err is None:
            assert got == _adiantum_reference(m.key, tweak.raw, data.raw, True)
            assert h.decrypt(got, tweak.raw) == data.raw

    @invariant()
    def closed_flags_agree(self):
        for h, m in self.pool:
            assert h.closed == m.closed


for machine, examples, steps in ((StreamMachine, 250, 40), (MacMachine, 200, 40),
                                 (AeadMachine, 250, 40), (KeyedMachine, 100, 25)):
    machine.TestCase.settings = bounded(examples, stateful_step_count=steps)

TestStreamHandles = StreamMachine.TestCase
TestMacHandles = MacMachine.TestCase
TestAeadHandles = AeadMachine.TestCase
TestKeyedObjects = KeyedMachine.TestCase

