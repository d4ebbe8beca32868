"""Checks shared by the stream-cipher test files (Salsa20, ChaCha, XSalsa20).

Each function proves one property of a handle (or a few handles) that the
caller has opened on its own driver, against expected results the caller
computed with its own oracle; nothing here knows an algorithm.  A key,
``iv`` and keystream position are the caller's; where a check needs the
expected output of another input it takes ``expected(msg)``: the oracle's
encryption of ``msg`` from where ``setiv(iv)`` starts.
"""

from __future__ import annotations

import array
import contextlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from checks import bad_length_keys, buffer_kinds, check_setkey_refused, refused

import gcrylike

BLOCK = 64
ADIANTUM_VECTORS = Path(__file__).resolve().parent / "vectors" / "adiantum"

Handle = gcrylike.CipherHandle

#: test_wrong_types' cases: what gets a value of the wrong type (the key, the
#: IV, the data of encrypt or decrypt, ``out=``), and which wrong value.
WRONG_TYPES = [
    (what, bad)
    for what in ("key", "iv", "data", "decrypt-data", "out")
    for bad in ("a str", "an int", "None", "a float", "a list")
    if (what, bad) != ("out", "None")  # out=None is the default: return new bytes
]


def wrong_value(bad: str, size: int) -> object:
    """The value ``bad`` names in :data:`WRONG_TYPES`; a str or list has
    ``size`` items, the length a right value would have."""
    return {"a str": "x" * size, "an int": 32, "None": None, "a float": 1.5,
            "a list": [0] * size}[bad]


def xor(a: bytes, b: bytes) -> bytes:
    assert len(a) == len(b)
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")


def keyed(driver, key: bytes, iv: bytes) -> Handle:
    """A handle on ``driver`` with ``key`` and ``iv`` set."""
    h = driver.open()
    h.setkey(key)
    h.setiv(iv)
    return h


@contextlib.contextmanager
def open_on_each(algo: str, names: Sequence[str]) -> Iterator[list[Handle]]:
    """A handle on ``algo`` forced to each driver in ``names``; all are
    closed afterwards."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(gcrylike.cipher_open(algo, impl=n)) for n in names]


# ---------------------------------------------------------------------------
# Published keystream blocks and look-ups
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class KeystreamVector:
    name: str
    rounds: int
    key: bytes
    nonce: bytes
    blocks: dict[int, bytes]  # block counter -> 64-byte keystream block


def load_adiantum_vectors(pattern: str, cipher: str) -> list[KeystreamVector]:
    """The Adiantum authors' keystream vectors for ``cipher`` from the files
    of tests/vectors/adiantum/ that match ``pattern``."""
    out = []
    for path in sorted(ADIANTUM_VECTORS.glob(pattern)):
        for entry in json.loads(path.read_text()):
            assert entry["cipher"]["cipher"] == cipher
            blocks = {t["input"]["offset"]: bytes.fromhex(t["result_hex"])
                      for t in entry["tests"]}
            out.append(KeystreamVector(f"{path.stem} {entry['description']}",
                                       entry["cipher"]["rounds"],
                                       bytes.fromhex(entry["input"]["key_hex"]),
                                       bytes.fromhex(entry["input"]["nonce_hex"]), blocks))
    return out


def check_keystream_block(h: Handle, iv: bytes, k: int, want: bytes, rng: random.Random,
                          where: str, most_before: int, most_after: int) -> None:
    """Keystream block ``k`` from ``setiv(iv)`` is ``want``: seeking to it
    (encrypt and decrypt), and inside a long request over non-zero data that
    starts fewer than ``most_before`` blocks earlier, not on a block boundary,
    and runs on for fewer than ``most_after`` blocks."""
    h.setiv(iv)
    h.setctr(k)
    assert h.encrypt(bytes(64)) == want, where
    h.setiv(iv)
    h.setctr(k)
    assert h.decrypt(bytes(64)) == want, where
    start = max(0, k - rng.randrange(1, most_before))
    prefix = rng.randrange(1, 64) if k > start else 0
    h.setiv(iv)
    h.setctr(start)
    h.encrypt(bytes(prefix))
    msg = rng.randbytes(64 * (k - start + rng.randrange(1, most_after)))
    ct = h.encrypt(msg)
    pos = 64 * (k - start) - prefix
    assert xor(ct[pos: pos + 64], msg[pos: pos + 64]) == want, where


def check_lookup(name: str | int, canonical: str, key_sizes: Sequence[int],
                 iv_sizes: Sequence[int]) -> None:
    """``name`` is ``canonical``: the same drivers, a handle on the best
    runnable one, a stream cipher (block size 1) with these key and IV sizes
    (as tuples)."""
    assert canonical in gcrylike.algorithms()
    infos = gcrylike.implementations(name)
    assert [i.driver for i in infos] == [i.driver for i in gcrylike.implementations(canonical)]
    best = next(i.driver for i in infos if i.available)
    with gcrylike.cipher_open(name) as h:
        info = h.info
        assert info.algorithm == canonical
        assert info.driver == best
        assert info.block_size == 1
        assert type(info.key_sizes) is tuple and type(info.iv_sizes) is tuple
        assert sorted(info.key_sizes) == sorted(key_sizes)
        assert sorted(info.iv_sizes) == sorted(iv_sizes)


# ---------------------------------------------------------------------------
# Streaming: pieces, splits, several handles
# ---------------------------------------------------------------------------

def encrypt_in_pieces(h: Handle, msg: bytes, sizes: Sequence[int]) -> bytes:
    """``msg`` through ``h`` in calls of ``sizes`` bytes, then the rest in one."""
    out, pos = bytearray(), 0
    for size in sizes:
        out += h.encrypt(msg[pos: pos + size])
        pos += size
    out += h.encrypt(msg[pos:])
    return bytes(out)


def encrypt_in_random_pieces(h: Handle, msg: bytes, cuts: Sequence[int],
                             rng: random.Random) -> bytes:
    """``msg`` through ``h`` cut at ``cuts``, each piece by a random one of
    encrypt(), decrypt() and encrypt(out=) (which must return its length)."""
    out = bytearray()
    for lo, hi in zip([0, *cuts], [*cuts, len(msg)], strict=True):
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
    return bytes(out)


def check_three_way_splits(h: Handle, iv: bytes, msg: bytes, whole: bytes, first: int,
                           seconds: Sequence[int]) -> None:
    """``msg`` in three calls (``first`` bytes, each of ``seconds``, the
    rest) from ``setiv(iv)`` gives ``whole``: the keystream position carries
    over between calls."""
    for second in seconds:
        h.setiv(iv)
        a = h.encrypt(msg[:first])
        b = h.encrypt(msg[first: first + second])
        c = h.encrypt(msg[first + second:])
        assert a + b + c == whole, (len(iv), first, second)


def check_two_handles_are_independent(a: Handle, b: Handle, msg: bytes, want_a: bytes,
                                      want_b: bytes) -> None:
    """Two keyed handles used in turn, 77 bytes at a time, each give their
    own stream: neither disturbs the other's key or position."""
    out_a, out_b = bytearray(), bytearray()
    for lo in range(0, len(msg), 77):
        out_a += a.encrypt(msg[lo: lo + 77])
        out_b += b.encrypt(msg[lo: lo + 77])
    assert out_a == want_a
    assert out_b == want_b


def encrypt_on_every_handle(handles: Sequence[Handle], names: Sequence[str], iv: bytes,
                            start: int | None, msg: bytes) -> bytes:
    """``msg`` on every handle from ``setiv(iv)`` (and ``setctr(start)``
    unless None); all of them must agree.  Returns the common ciphertext."""
    outs = []
    for h in handles:
        h.setiv(iv)
        if start is not None:
            h.setctr(start)
        outs.append(h.encrypt(msg))
    for name, out in zip(names, outs, strict=True):
        assert out == outs[0], f"{name} differs from {names[0]} (n={len(msg)}, start={start})"
    return outs[0]


# ---------------------------------------------------------------------------
# Buffers and types
# ---------------------------------------------------------------------------

def check_unaligned(h: Handle, iv: bytes, msg: bytes, want: bytes, rng: random.Random,
                    pairs: Sequence[tuple[int, int]], in_place_offsets: Sequence[int]) -> None:
    """From a memoryview at each input offset into one at each output offset
    (``pairs``, offsets below 32) encryption gives ``want``, returns the
    length and touches neither the input nor the output around it; in place
    at each of ``in_place_offsets`` it gives ``want`` (nothing around it
    changes) and decryption there gives ``msg`` back."""
    n = len(msg)
    for in_off, out_off in pairs:
        src = bytearray(rng.randbytes(n + 32))
        src[in_off: in_off + n] = msg
        src_copy = bytes(src)
        dst = bytearray(b"\xa5" * (n + 32))
        h.setiv(iv)
        got = h.encrypt(memoryview(src)[in_off: in_off + n],
                        out=memoryview(dst)[out_off: out_off + n])
        assert got == n
        assert dst[out_off: out_off + n] == want, (n, in_off, out_off)
        assert dst[:out_off] == b"\xa5" * out_off
        assert dst[out_off + n:] == b"\xa5" * (32 - out_off)
        assert src == src_copy
    for off in in_place_offsets:
        buf = bytearray(rng.randbytes(n + 32))
        copy = bytes(buf)
        buf[off: off + n] = msg
        view = memoryview(buf)[off: off + n]
        h.setiv(iv)
        assert h.encrypt(view, out=view) == n
        assert buf[off: off + n] == want, (n, off)
        assert buf[:off] == copy[:off] and buf[off + n:] == copy[off + n:]
        h.setiv(iv)
        assert h.decrypt(view, out=view) == n
        assert buf[off: off + n] == msg, (n, off)


def check_in_place_and_long_out(h: Handle, iv: bytes, rng: random.Random,
                                expected: Callable[[bytes], bytes]) -> None:
    """For lengths 0 .. 4109: encryption in place (bytearray, array('B'))
    gives the oracle's ciphertext and decryption in place undoes it; an
    ``out=`` longer than the data (also a memoryview at an offset) gets the
    ciphertext and nothing past it; every call returns the length."""
    for n in (0, 1, 64, 100, 256, 257, 1000, 4096 + 13):
        msg = rng.randbytes(n)
        want = expected(msg)
        # in place in a bytearray, and back
        data = bytearray(msg)
        h.setiv(iv)
        assert h.encrypt(data, out=data) == n
        assert data == want
        h.setiv(iv)
        assert h.decrypt(data, out=data) == n
        assert data == msg
        # in place in an array('B')
        arr = array.array("B", msg)
        h.setiv(iv)
        assert h.encrypt(arr, out=arr) == n
        assert arr.tobytes() == want
        # out= longer than needed: the rest is left alone
        for extra in (1, 63, 100):
            out = bytearray(b"\x5a" * (n + extra))
            h.setiv(iv)
            assert h.encrypt(msg, out=out) == n
            assert out[:n] == want and out[n:] == b"\x5a" * extra
            out = bytearray(b"\x5a" * (n + extra + 8))
            h.setiv(iv)
            assert h.encrypt(msg, out=memoryview(out)[3:]) == n
            assert out[:3] == b"\x5a" * 3 and out[3: 3 + n] == want
            assert out[3 + n:] == b"\x5a" * (extra + 5)


def check_input_and_output_types(h: Handle, key: bytes, iv: bytes, msg: bytes,
                                 want: bytes) -> None:
    """Keys and IVs as bytes, bytearray, memoryview and array('B'), data as
    any of six buffer kinds and ``out=`` as three writable ones all give
    ``want`` (results are ``bytes``); no input is modified."""
    inputs = buffer_kinds(msg)
    for kname, k in (("bytes", key), ("bytearray", bytearray(key)),
                     ("memoryview", memoryview(key)), ("array", array.array("B", key))):
        h.setkey(k)
        for iname, v in (("bytes", iv), ("bytearray", bytearray(iv)),
                         ("memoryview", memoryview(iv)), ("array", array.array("B", iv))):
            h.setiv(v)
            assert h.encrypt(msg) == want, (kname, iname)
    for name, data in inputs.items():
        h.setiv(iv)
        ct = h.encrypt(data)
        assert type(ct) is bytes and ct == want, name
        h.setiv(iv)
        assert h.decrypt(ct) == msg, name
        for oname, make in (("bytearray", bytearray),
                            ("memoryview", lambda n: memoryview(bytearray(n))),
                            ("array-B", lambda n: array.array("B", bytes(n)))):
            out = make(len(msg))
            h.setiv(iv)
            assert h.encrypt(data, out=out) == len(msg)
            assert bytes(out) == want, (name, oname)
        assert bytes(data) == msg, f"{name} input was modified"


def check_short_out_refused(h: Handle) -> None:
    """An ``out=`` shorter than the data (bytearray or an offset memoryview)
    is refused with InvalidLength and left unwritten.  The caller checks
    that the position did not move."""
    for n, have in ((1, 0), (64, 63), (100, 99), (1000, 1), (257, 256), (513, 512)):
        for out in (bytearray(b"\xa5" * have), memoryview(bytearray(b"\xa5" * (have + 9)))[9:]):
            with refused(gcrylike.InvalidLength):
                h.encrypt(bytes(n), out=out)
            assert bytes(out) == b"\xa5" * have


def check_overlapping_out_refused(h: Handle, base: bytes) -> None:
    """Input and ``out=`` views of one buffer (at least 576 bytes) that
    overlap without starting together are refused with InvalidArgument and
    the buffer is left as it was.  The caller checks that the position did
    not move."""
    for (s0, s1), (d0, d1) in [((0, 100), (1, 101)), ((1, 101), (0, 100)),
                                ((0, 100), (99, 199)), ((99, 199), (0, 100)),
                                ((50, 150), (0, 200)), ((0, 256), (64, 320)),
                                ((0, 512), (64, 576)), ((3, 5), (2, 6)), ((3, 6), (2, 5))]:
        buf = bytearray(base)
        mv = memoryview(buf)
        with refused(gcrylike.InvalidArgument):
            h.encrypt(mv[s0:s1], out=mv[d0:d1])
        assert buf == base, ((s0, s1), (d0, d1))


def check_touching_out_allowed(h: Handle, iv: bytes, base: bytes,
                               expected: Callable[[bytes], bytes]) -> None:
    """Input and ``out=`` views of one buffer that touch without overlapping,
    start together, or overlap only past the end of the data are allowed:
    the output is the oracle's and nothing else in the buffer changes."""
    for (s0, s1), (d0, d1) in [((0, 100), (100, 200)), ((100, 200), (0, 100)),
                                ((0, 100), (0, 100)), ((0, 100), (0, 150)),
                                ((50, 100), (0, 200)), ((3, 4), (2, 5))]:
        buf = bytearray(base)
        mv = memoryview(buf)
        h.setiv(iv)
        assert h.encrypt(mv[s0:s1], out=mv[d0:d1]) == s1 - s0
        n = s1 - s0
        assert buf[d0: d0 + n] == expected(base[s0:s1]), ((s0, s1), (d0, d1))
        assert buf[:d0] == base[:d0] and buf[d0 + n:] == base[d0 + n:]


# ---------------------------------------------------------------------------
# Handle states
# ---------------------------------------------------------------------------

def check_refused_without_key(h: Handle, iv: bytes) -> None:
    """On a handle with no key every data call, setiv, setctr and reset are
    refused with MissingKey."""
    for call in (lambda: h.encrypt(b"x"), lambda: h.decrypt(b"x"),
                 lambda: h.encrypt(b"x", out=bytearray(1)), lambda: h.setiv(iv),
                 lambda: h.setctr(0), lambda: h.reset()):
        with refused(gcrylike.MissingKey):
            call()


def check_refused_without_iv(h: Handle, key: bytes, iv: bytes, first_block: bytes) -> None:
    """After setkey and before setiv, data calls and setctr are refused with
    InvalidState and write nothing; a new key needs a new IV too; after
    setiv the first 64 bytes are ``first_block``."""
    h.setkey(key)
    out = bytearray(b"\xa5")
    for call in (lambda: h.encrypt(b"x"), lambda: h.decrypt(b"x"),
                 lambda: h.encrypt(b"x", out=out), lambda: h.setctr(3)):
        with refused(gcrylike.InvalidState):
            call()
    assert out == b"\xa5"
    # a new key needs a new IV too
    h.setiv(iv)
    h.encrypt(b"abc")
    h.setkey(key)
    with refused(gcrylike.InvalidState):
        h.encrypt(b"x")
    h.setiv(iv)
    assert h.encrypt(bytes(64)) == first_block


def check_closed_handle(h: Handle, key: bytes, iv: bytes) -> None:
    """Once the keyed, used handle is closed every method (and ``with``) is
    refused with HandleClosed and writes nothing; close() is idempotent and
    repr says closed."""
    assert not h.closed
    h.close()
    assert h.closed
    out = bytearray(b"\xa5" * 4)
    calls = {
        "setkey": lambda: h.setkey(key), "setkey-badlen": lambda: h.setkey(b""),
        "setiv": lambda: h.setiv(iv), "setctr": lambda: h.setctr(0),
        "reset": lambda: h.reset(), "encrypt": lambda: h.encrypt(b"abcd"),
        "decrypt": lambda: h.decrypt(b"abcd"),
        "encrypt-out": lambda: h.encrypt(b"abcd", out=out),
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
    assert h.closed and "closed" in repr(h)


def check_reset(h: Handle, iv: bytes, iv2: bytes, msg: bytes, first: bytes, second: bytes,
                end: int) -> None:
    """On a handle keyed with ``iv`` set, ``msg`` encrypts to ``first``;
    reset() needs a new IV (data calls and setctr are refused with
    InvalidState) and then rewinds: ``iv`` gives ``first`` again and ``iv2``
    gives ``second``, also after the stream ran out at block ``end``."""
    assert h.encrypt(msg) == first
    h.setctr(77)
    h.encrypt(b"abc")
    h.reset()
    with refused(gcrylike.InvalidState):
        h.encrypt(b"x")
    with refused(gcrylike.InvalidState):
        h.setctr(0)
    h.setiv(iv)
    assert h.encrypt(msg) == first
    h.reset()
    h.setiv(iv2)
    assert h.encrypt(msg) == second
    # after the end of the stream
    h.setctr(end - 1)
    h.encrypt(bytes(64))
    with refused(gcrylike.CounterExhausted):
        h.encrypt(b"x")
    h.reset()
    h.setiv(iv)
    assert h.encrypt(msg) == first


def check_wrong_type_refused(h: Handle, what: str, value: object, key: bytes,
                             iv: bytes) -> None:
    """``value`` as the key, the IV, the data (encrypt or decrypt) or
    ``out=`` (``what``) is refused with InvalidType; for the data calls the
    handle was keyed and 5 bytes in, and the caller checks that it still is."""
    if what != "key":
        h.setkey(key)
    if what not in ("key", "iv"):
        h.setiv(iv)
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


def check_bad_key_length(h: Handle, keylen: int, key: bytes, iv: bytes, want: bytes) -> None:
    """A ``keylen``-byte key (bytes, bytearray, memoryview) is refused with
    InvalidKeyLength and leaves no key (MissingKey) or, after a good key,
    that key; then ``key`` and ``iv`` encrypt 100 zero bytes to ``want``."""
    check_setkey_refused(h, bad_length_keys(keylen), gcrylike.InvalidKeyLength,
                         lambda: h.encrypt(b"x"))
    h.setkey(key)
    # a refused key leaves a working key alone
    with refused(gcrylike.InvalidKeyLength):
        h.setkey(bytes(keylen))
    h.setiv(iv)
    assert h.encrypt(bytes(100)) == want


def check_bad_iv_length(h: Handle, ivlen: int, key: bytes, iv: bytes, want: bytes) -> None:
    """An ``ivlen``-byte IV is refused with InvalidIVLength, before and after
    a good one, and leaves the handle needing an IV (InvalidState); then
    ``iv`` encrypts 100 zero bytes to ``want``."""
    h.setkey(key)
    with refused(gcrylike.InvalidIVLength):
        h.setiv(bytes(ivlen))
    with refused(gcrylike.InvalidState):
        h.encrypt(b"x")
    h.setiv(iv)
    h.encrypt(bytes(10))
    # a refused IV after a good one: refused, and the handle needs a new IV
    with refused(gcrylike.InvalidIVLength):
        h.setiv(bytearray(ivlen))
    h.setiv(iv)
    assert h.encrypt(bytes(100)) == want


# ---------------------------------------------------------------------------
# The block counter
# ---------------------------------------------------------------------------

def check_counter_run(h: Handle, iv: bytes, start: int, msg: bytes, ks: bytes,
                      piece_sizes: Sequence[int] = (1, 62, 65, 256, 3, 320)) -> None:
    """From block ``start`` the keystream is ``ks`` (as long as ``msg``): in
    one call, in pieces of ``piece_sizes`` that straddle block and batch
    boundaries, and seeking to each whole block; a seek drops the leftover
    keystream of a partial block."""
    h.setiv(iv)
    h.setctr(start)
    assert h.encrypt(msg) == xor(msg, ks), start
    h.setiv(iv)
    h.setctr(start)
    assert encrypt_in_pieces(h, msg, piece_sizes) == xor(msg, ks), (start, "pieces")
    for b in range(len(msg) // BLOCK):
        h.setctr(start + b)
        assert h.encrypt(bytes(BLOCK)) == ks[b * BLOCK: (b + 1) * BLOCK], (start, b)
    h.setctr(start)
    h.encrypt(bytes(10))
    h.setctr(start + 1)
    assert h.encrypt(bytes(BLOCK)) == ks[BLOCK: 2 * BLOCK]


def check_too_long_refused(h: Handle, iv: bytes, start: int, data: bytes) -> None:
    """``data`` is longer than what is left of the stream from block
    ``start``: encryption into an ``out=``, in place, into new bytes, and
    decryption in place are each refused with CounterExhausted before
    anything is written.  The caller checks that the position did not move."""
    h.setiv(iv)
    h.setctr(start)
    guard = bytearray(b"\xa5" * len(data))
    with refused(gcrylike.CounterExhausted):
        h.encrypt(bytes(len(data)), out=guard)
    assert guard == b"\xa5" * len(data)
    for op in (h.encrypt, h.decrypt):
        inplace = bytearray(data)
        with refused(gcrylike.CounterExhausted):
            op(inplace, out=inplace)
        assert inplace == data
    with refused(gcrylike.CounterExhausted):
        h.encrypt(bytes(len(data)))


def check_last_block_in_pieces(h: Handle, iv: bytes, last_index: int, last: bytes) -> None:
    """Block ``last_index``, the last of the stream, is ``last`` when read in
    pieces (the leftover keystream stays usable); one byte more is then
    refused with CounterExhausted, into new bytes or an ``out=`` it leaves
    unwritten."""
    for cuts in ((1, 63), (10, 54), (32, 31, 1), (63, 1)):
        h.setiv(iv)
        h.setctr(last_index)
        assert b"".join(h.encrypt(bytes(c)) for c in cuts) == last, cuts
        out = bytearray(b"\xa5")
        with refused(gcrylike.CounterExhausted):
            h.encrypt(b"\x00", out=out)
        assert out == b"\xa5"
        with refused(gcrylike.CounterExhausted):
            h.encrypt(b"\x00")


def check_partial_last_block(h: Handle, last_index: int, last: bytes) -> None:
    """20 bytes of the last block ``last``, then a request for more than is
    left of it is refused (into new bytes or an ``out=`` it leaves
    unwritten) without moving the position: the other 44 bytes follow."""
    h.setctr(last_index)
    assert h.encrypt(bytes(20)) == last[:20]
    out = bytearray(b"\xa5" * 45)
    with refused(gcrylike.CounterExhausted):
        h.encrypt(bytes(45), out=out)
    assert out == b"\xa5" * 45
    with refused(gcrylike.CounterExhausted):
        h.encrypt(bytes(45))
    assert h.encrypt(bytes(44)) == last[20:]
