"""The AVX-512 Salsa20 driver (asm/salsa20-amd64-avx512.S) against the
others and against outside implementations.

test_salsa20.py and test_xsalsa20.py already run every driver, this one
included, through vectors, oracles, splits and the counter's end; the
checks here aim at what is new in it: 16-block zmm groups, the 8-block ymm
routine for whole blocks after them and for the tail, per-lane counter
carries inside a group, and its place in the driver order.  The answers
come from the portable driver (and the AVX2 one where the CPU has it),
pycryptodome's Salsa20, libsodium / PyNaCl's XSalsa20 and HSalsa20, and the
pure-Python rounds of tests/nacl_oracle.py.  Everything skips with the
reason when the driver cannot run here.
"""

from __future__ import annotations

import random
import struct

import pytest
import stream_checks
from Crypto.Cipher import Salsa20 as PyCryptodomeSalsa20
from nacl_oracle import (
    END,
    NO_ORACLE,
    SODIUM,
    ref_hsalsa20,
    salsa20_rounds,
    sodium_hsalsa20,
    sodium_xsalsa20,
)
from stream_checks import xor

import gcrylike

SEED = 0x5A15A512
ALGOS = ("salsa20", "salsa20r12", "xsalsa20")
ROUNDS = {"salsa20": 20, "salsa20r12": 12, "xsalsa20": 20}
BLOCK = 64
M32 = 0xFFFFFFFF
FEATURES = {"avx512f", "avx512vl"}
TAU = struct.unpack("<4I", b"expand 16-byte k")
SIGMA = struct.unpack("<4I", b"expand 32-byte k")


def avx512(algo: str) -> str:
    return f"{algo}-amd64-avx512"


def info_of(driver: str):
    algo = driver.split("-")[0]
    return {i.driver: i for i in gcrylike.implementations(algo)}.get(driver)


def need(driver: str) -> None:
    """Skip unless ``driver`` is built and can run here."""
    info = info_of(driver)
    if info is None:
        pytest.skip(f"{driver} not built (no amd64 assembly)")
    if not info.available:
        pytest.skip(f"{driver}: {info.reason}")


def others(algo: str) -> list[str]:
    """The drivers the AVX-512 one is compared with: portable, and AVX2 if it runs."""
    names = [f"{algo}-generic"]
    avx2 = info_of(f"{algo}-amd64-avx2")
    if avx2 is not None and avx2.available:
        names.append(avx2.driver)
    return names


def rng_for(*tags: object) -> random.Random:
    return random.Random(f"{SEED}/" + "/".join(map(str, tags)))


def key_nonce(algo: str, rng: random.Random, keylen: int = 32) -> tuple[bytes, bytes]:
    return rng.randbytes(keylen), rng.randbytes(24 if algo == "xsalsa20" else 8)


def ref_salsa20_block(key: bytes, nonce: bytes, block: int, rounds: int) -> bytes:
    """Salsa20 keystream block ``block`` (16- or 32-byte key) from the
    pure-Python rounds."""
    c = SIGMA if len(key) == 32 else TAU
    k = struct.unpack("<8I", key if len(key) == 32 else key + key)
    n = struct.unpack("<2I", nonce)
    inp = [c[0], *k[:4], c[1], *n, block & M32, block >> 32, c[2], *k[4:], c[3]]
    x = salsa20_rounds(inp, rounds)
    return struct.pack("<16I", *((a + b) & M32 for a, b in zip(x, inp, strict=True)))


def outside(algo: str, key: bytes, nonce: bytes, data: bytes, start: int = 0) -> bytes | None:
    """The same encryption from an outside library, where one offers it."""
    if algo == "salsa20" and start == 0:
        return PyCryptodomeSalsa20.new(key=key, nonce=nonce).encrypt(data)
    if algo == "xsalsa20" and SODIUM is not None:
        return sodium_xsalsa20(key, nonce, data, start)
    return None


def encrypt_on(driver: str, algo: str, key: bytes, nonce: bytes, data: bytes,
               start: int = 0) -> bytes:
    with gcrylike.cipher_open(algo, impl=driver) as h:
        h.setkey(key)
        h.setiv(nonce)
        if start:
            h.setctr(start)
        return h.encrypt(data)


# ---------------------------------------------------------------------------
# Registry: listed, chosen first, stepped over by the deny list
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algo", ALGOS)
def test_listed_above_avx2(algo):
    info = info_of(avx512(algo))
    if info is None:
        pytest.skip("no amd64 assembly in this build")
    assert info.priority == 500 and info.features == FEATURES
    if FEATURES <= gcrylike.hw_features():
        assert info.available
        with gcrylike.cipher_open(algo) as h:
            assert h.info.driver == avx512(algo)
    else:
        assert not info.available and "avx512" in info.reason


def test_cli_list_shows_the_driver(capsys):
    from gcrylike._cli import main

    if info_of(avx512("salsa20")) is None:
        pytest.skip("no amd64 assembly in this build")
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for algo in ALGOS:
        assert avx512(algo) in out


@pytest.mark.parametrize("feature", sorted(FEATURES))
@pytest.mark.parametrize("algo", ALGOS)
def test_deny_list_steps_back_to_avx2(algo, feature, hwf_deny):
    need(avx512(algo))
    need(f"{algo}-amd64-avx2")
    hwf_deny([feature])
    info = info_of(avx512(algo))
    assert not info.available and feature in info.reason and "denied" in info.reason
    with gcrylike.cipher_open(algo) as h:
        assert h.info.driver == f"{algo}-amd64-avx2"
    with pytest.raises(gcrylike.NotSupported):
        gcrylike.cipher_open(algo, impl=avx512(algo))
    with pytest.raises(gcrylike.NotSupported):
        gcrylike.hsalsa20(bytes(32), bytes(16), impl=avx512("xsalsa20"))
    # the default HSalsa20 follows the list too
    assert gcrylike.hsalsa20(bytes(32), bytes(16)) == ref_hsalsa20(bytes(32), bytes(16))


# ---------------------------------------------------------------------------
# Every length around the group widths
# ---------------------------------------------------------------------------

def _lengths() -> list[int]:
    """0 .. 41 blocks, each whole and with partials (so every split between
    16-block groups, the 8-block ymm call, the eight-wide tail and the
    portable single block), and a few past several groups."""
    near = {b * BLOCK + d for b in range(42) for d in (0, 1, 13, 63)}
    far = {m * 16 * BLOCK + d for m in (3, 4, 7) for d in (-65, -64, -1, 0, 1, 511, 512, 577)}
    return sorted(n for n in near | far if n >= 0)


@pytest.mark.parametrize("keylen", [16, 32])
@pytest.mark.parametrize("algo", ALGOS)
def test_every_length_against_the_other_drivers(algo, keylen):
    if algo == "xsalsa20" and keylen == 16:
        pytest.skip("XSalsa20 takes 32-byte keys only")
    need(avx512(algo))
    rng = rng_for("lengths", algo, keylen)
    names = [avx512(algo), *others(algo)]
    with stream_checks.open_on_each(algo, names) as handles:
        for n in _lengths():
            key, nonce = key_nonce(algo, rng, keylen)
            msg = rng.randbytes(n)
            outs = []
            for h in handles:
                h.setkey(key)
                h.setiv(nonce)
                outs.append(h.encrypt(msg))
            assert all(o == outs[0] for o in outs[1:]), (n, names)
            want = outside(algo, key, nonce, msg)
            if want is not None:
                assert outs[0] == want, n


@pytest.mark.parametrize("algo", ALGOS)
def test_one_mebibyte_and_13(algo):
    need(avx512(algo))
    rng = rng_for("large", algo)
    key, nonce = key_nonce(algo, rng)
    msg = rng.randbytes((1 << 20) + 13)
    got = encrypt_on(avx512(algo), algo, key, nonce, msg)
    for other in others(algo):
        assert got == encrypt_on(other, algo, key, nonce, msg), other
    want = outside(algo, key, nonce, msg)
    if want is not None:
        assert got == want


# ---------------------------------------------------------------------------
# Buffers: unaligned, in place, split calls
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algo", ALGOS)
def test_unaligned_and_in_place(algo):
    need(avx512(algo))
    rng = rng_for("unaligned", algo)
    key, nonce = key_nonce(algo, rng)
    with gcrylike.cipher_open(algo, impl=avx512(algo)) as h:
        h.setkey(key)
        for n in (16 * BLOCK, 16 * BLOCK + 8 * BLOCK + 7 * BLOCK + 33, 48 * BLOCK + 1):
            msg = rng.randbytes(n)
            want = encrypt_on(f"{algo}-generic", algo, key, nonce, msg)
            stream_checks.check_unaligned(h, nonce, msg, want, rng,
                                          pairs=[(1, 0), (0, 3), (7, 31), (13, 13)],
                                          in_place_offsets=[0, 1, 5, 31])


@pytest.mark.parametrize("algo", ALGOS)
def test_split_calls(algo):
    need(avx512(algo))
    rng = rng_for("splits", algo)
    key, nonce = key_nonce(algo, rng)
    msg = rng.randbytes(100 * BLOCK + 29)
    want = encrypt_on(f"{algo}-generic", algo, key, nonce, msg)
    with gcrylike.cipher_open(algo, impl=avx512(algo)) as h:
        h.setkey(key)
        # pieces that end inside and at the edges of 16-block groups
        for sizes in ((1, 1023, 1024, 1025), (16 * BLOCK - 1, 2, 8 * BLOCK + 5),
                      (63, 64 * 17, 64 * 24 + 1, 3), (64 * 15 + 63, 64 * 9, 1)):
            h.setiv(nonce)
            assert stream_checks.encrypt_in_pieces(h, msg, sizes) == want, sizes
        for _ in range(20):
            h.setiv(nonce)
            cuts = sorted(rng.sample(range(1, len(msg)), rng.randrange(1, 12)))
            pieces = [msg[a:b] for a, b in zip([0, *cuts], [*cuts, len(msg)], strict=True)]
            assert b"".join(h.encrypt(p) for p in pieces) == want, cuts


# ---------------------------------------------------------------------------
# The 64-bit counter: carries between lanes of one group, the end
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("algo", ALGOS)
def test_counter_carry_inside_a_group(algo):
    """Runs that cross 2^32 (and 2^33, 2^63) at every lane of a 16-block
    group, of the 17-block groups of long calls (the 17th block in integer
    registers) and of the 8-block calls: each lane carries into word 9
    alone."""
    need(avx512(algo))
    rng = rng_for("carry", algo)
    key, nonce = key_nonce(algo, rng)
    names = [avx512(algo), *others(algo)]
    with stream_checks.open_on_each(algo, names) as handles:
        for h in handles:
            h.setkey(key)
        for base in (1 << 32, 2 << 32, 1 << 63):
            for back, nblocks in [(b, 41) for b in (1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 40)] \
                    + [(b, 300) for b in (1, 16, 17, 18, 33, 34, 50, 51, 271, 272, 273, 289)]:
                # (300 blocks: 16 groups of 17, one of 16, 8 in ymm, 4 in the tail)
                start = base - back
                msg = rng.randbytes(nblocks * BLOCK + 5)
                outs = stream_checks.encrypt_on_every_handle(handles, names, nonce, start, msg)
                if algo != "xsalsa20":
                    # blocks either side of the carry from the pure-Python rounds
                    for b in {back - 1, back, back + 1} & set(range(nblocks)):
                        seg = slice(b * BLOCK, (b + 1) * BLOCK)
                        assert xor(outs[seg], msg[seg]) == ref_salsa20_block(
                            key, nonce, start + b, ROUNDS[algo]), (start, b)
                want = outside(algo, key, nonce, msg, start)
                if want is not None:
                    assert outs == want, start


@pytest.mark.parametrize("algo", ALGOS)
def test_counter_end(algo):
    """The stream's last 40 blocks in one call (16 + 16 + 8), then nothing
    more; the same from further back in pieces; too much in one call is
    refused without moving the position.  Then the last 300 (16 groups of
    17, one of 16, 8 and 4)."""
    need(avx512(algo))
    rng = rng_for("end", algo)
    key, nonce = key_nonce(algo, rng)
    ks = encrypt_on(f"{algo}-generic", algo, key, nonce, bytes(40 * BLOCK), END - 40)
    with gcrylike.cipher_open(algo, impl=avx512(algo)) as h:
        h.setkey(key)
        msg = rng.randbytes(40 * BLOCK)
        stream_checks.check_counter_run(h, nonce, END - 40, msg, ks)
        h.setiv(nonce)
        h.setctr(END - 40)
        assert h.encrypt(bytes(40 * BLOCK - 5)) == ks[:-5]
        assert h.encrypt(bytes(5)) == ks[-5:]
        with pytest.raises(gcrylike.CounterExhausted):
            h.encrypt(b"\x00")
        stream_checks.check_too_long_refused(h, nonce, END - 40, bytes(40 * BLOCK + 1))
        h.setctr(END - 40)
        assert h.encrypt(bytes(40 * BLOCK)) == ks
        stream_checks.check_last_block_in_pieces(h, nonce, END - 1, ks[-BLOCK:])
        ks300 = encrypt_on(f"{algo}-generic", algo, key, nonce, bytes(300 * BLOCK), END - 300)
        h.setiv(nonce)
        h.setctr(END - 300)
        assert h.encrypt(bytes(300 * BLOCK)) == ks300
        with pytest.raises(gcrylike.CounterExhausted):
            h.encrypt(b"\x00")


# ---------------------------------------------------------------------------
# HSalsa20 and XSalsa20 against libsodium
# ---------------------------------------------------------------------------

def test_hsalsa20_against_libsodium_and_reference():
    need(avx512("xsalsa20"))
    rng = rng_for("hsalsa20")
    for i in range(200):
        key, data = rng.randbytes(32), rng.randbytes(16)
        got = gcrylike.hsalsa20(key, data, impl=avx512("xsalsa20"))
        if SODIUM is not None:
            assert got == sodium_hsalsa20(key, data), i
        else:
            assert got == ref_hsalsa20(key, data), i
        for rounds in (8, 12) if i % 10 == 0 else ():
            assert gcrylike.hsalsa20(key, data, rounds=rounds, impl=avx512("salsa20")) \
                == ref_hsalsa20(key, data, rounds)


def test_xsalsa20_against_libsodium():
    need(avx512("xsalsa20"))
    if SODIUM is None:
        pytest.skip(NO_ORACLE)
    rng = rng_for("xsalsa20-sodium")
    with gcrylike.cipher_open("xsalsa20", impl=avx512("xsalsa20")) as h:
        for n in [*range(0, 40 * BLOCK + 70, 61), 1 << 16, (1 << 16) + 13]:
            key, nonce = rng.randbytes(32), rng.randbytes(24)
            msg = rng.randbytes(n)
            h.setkey(key)
            h.setiv(nonce)
            assert h.encrypt(msg) == sodium_xsalsa20(key, nonce, msg), n


# ---------------------------------------------------------------------------
# The groups of 17 (one block in integer registers) on and off
# ---------------------------------------------------------------------------

@pytest.fixture
def gpr_copy():
    """The Salsa20 test copy (tests/testhooks.py), whose test-only
    ``gcry_salsa20_avx512_gpr`` forces whether its AVX-512 bulk takes groups
    of 17 (the glue decides by CPU otherwise); restored afterwards."""
    import testhooks

    mod = testhooks.copy("salsa20")
    previous = mod.lib.gcry_salsa20_avx512_gpr(-1)
    yield mod
    mod.lib.gcry_salsa20_avx512_gpr(previous)


def test_groups_of_17_only_when_forced(gpr_copy):
    """Two interleaved groups of 16 beat the groups of 17 on every CPU
    measured, so the glue takes them only when a test forces it."""
    if info_of(avx512("salsa20")) is None:
        pytest.skip("no amd64 assembly in this build")
    gpr_copy.lib.gcry_salsa20_avx512_gpr(0)
    assert gpr_copy.lib.gcry_salsa20_avx512_gpr(-1) == 0
    assert gpr_copy.lib.gcry_salsa20_avx512_gpr(1) == 0
    assert gpr_copy.lib.gcry_salsa20_avx512_gpr(-1) == 1


@pytest.mark.parametrize("on", [False, True])
@pytest.mark.parametrize("algo", ALGOS)
def test_long_calls_with_and_without_groups_of_17(algo, on, gpr_copy):
    """The test copy's glue, groups of 17 forced on or off, on a context
    keyed through the installed AVX-512 driver, against the other drivers."""
    need(avx512(algo))
    lib, ffi = gpr_copy.lib, gpr_copy.ffi
    lib.gcry_salsa20_avx512_gpr(int(on))
    rng = rng_for("gpr", algo)
    names = others(algo)
    with stream_checks.open_on_each(algo, [avx512(algo), *names]) as (h, *refs):
        for n in (272 * BLOCK - 1, 272 * BLOCK, 288 * BLOCK + 17, 544 * BLOCK + 63,
                  1024 * BLOCK, 1100 * BLOCK + 5):
            key, nonce = key_nonce(algo, rng)
            msg = rng.randbytes(n)
            for start in (None, (1 << 32) - rng.randrange(1, 600)):
                for x in (h, *refs):
                    x.setkey(key)
                want = stream_checks.encrypt_on_every_handle(refs, names, nonce, start, msg)
                h.setiv(nonce)
                if start is not None:
                    h.setctr(start)
                out = bytearray(n)
                assert lib.gcry_salsa20_crypt(h._ctx.ptr, ffi.from_buffer(out), msg, n) == 0
                assert bytes(out) == want, f"n={n}, start={start}, groups of 17 {on}"
