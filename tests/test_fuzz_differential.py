"""Differential fuzzing (hypothesis, bounded and derandomized: see
fuzz_support.py): every driver of every stream cipher, MAC, AEAD, secretbox,
tweakable and block cipher against a pure-Python reference or a peer
library (pycryptodome, cryptography, PyNaCl) over random keys, lengths,
split points, buffer offsets and counters near 2^32 and 2^64."""

from __future__ import annotations

import nacl.secret
from Crypto.Cipher import ChaCha20_Poly1305 as PyCryptodomeAead
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305 as PeerAead
from cryptography.hazmat.primitives.poly1305 import Poly1305 as PeerPoly1305
from fuzz_support import STREAMS, available, bounded, counter_bits, keystream
from hypothesis import assume, given
from hypothesis import strategies as st
from stream_checks import xor
from test_adiantum import ref_crypt
from test_nhpoly1305 import ref_nhpoly1305

import gcrylike

STREAM_DRIVERS = [(name, d) for name in STREAMS for d in available(name)]


def pieces(total: int, cuts: list[int]) -> list[int]:
    """Lengths of the pieces ``total`` bytes fall into at the cut points."""
    points = sorted({c % (total + 1) for c in cuts} | {0, total})
    return [b - a for a, b in zip(points, points[1:], strict=False)]


def start_block(bits: int) -> st.SearchStrategy[int]:
    """Near 0, near 2^32 (a carry into the high word) and near the end."""
    edges = [0, 2**32 - 3, 2**32 + 1, 2**bits - 40]
    return st.sampled_from(edges).flatmap(
        lambda e: st.integers(max(0, e - 2), min(2**bits - 1, e + 40)))


@st.composite
def stream_case(draw):
    name, driver = draw(st.sampled_from(STREAM_DRIVERS))
    spec = gcrylike._registry.lookup(name)
    key = draw(st.binary(min_size=32, max_size=32)) if len(spec.key_sizes) == 1 else \
        draw(st.sampled_from(spec.key_sizes).flatmap(lambda n: st.binary(min_size=n, max_size=n)))
    ivlen = draw(st.sampled_from([n for n in spec.iv_sizes if n != 16]))
    iv = draw(st.binary(min_size=ivlen, max_size=ivlen))
    bits = counter_bits(name, iv)
    start = draw(start_block(bits))
    msg = draw(st.binary(max_size=1200))
    cuts = draw(st.lists(st.integers(0, 1200), max_size=6))
    offset = draw(st.integers(0, 15))
    in_place = draw(st.booleans())
    return name, driver, key, iv, bits, start, msg, cuts, offset, in_place


@bounded(1000)
@given(stream_case())
def test_stream_drivers_match_the_reference(case):
    name, driver, key, iv, bits, start, msg, cuts, offset, in_place = case
    h = gcrylike.cipher_open(name, impl=driver)
    h.setkey(key)
    h.setiv(iv)
    h.setctr(start)
    pos, end, out = 64 * start, 64 * 2**bits, []
    for n in pieces(len(msg), cuts):
        piece = msg[len(b"".join(out)):][:n]
        if pos + n > end:  # past the keystream: refused, nothing consumed
            try:
                h.encrypt(piece)
            except gcrylike.CounterExhausted:
                continue
            raise AssertionError("ran past the end of the counter")
        if in_place:
            buf = bytearray(offset + n)
            buf[offset:] = piece
            view = memoryview(buf)[offset:]
            assert h.encrypt(view, out=view) == n
            got = bytes(view)
        else:
            got = h.encrypt(piece)
        assert got == xor(piece, keystream(name, key, iv, pos, n)), (pos, n)
        out.append(piece)
        pos += n
    h.close()


def _aead_case(nonce_sizes):
    return st.tuples(st.binary(min_size=32, max_size=32),
                     st.sampled_from(nonce_sizes).flatmap(
                         lambda n: st.binary(min_size=n, max_size=n)),
                     st.binary(max_size=300), st.binary(max_size=1100),
                     st.lists(st.integers(0, 1100), max_size=5),
                     st.lists(st.integers(0, 300), max_size=3))


AEAD_DRIVERS = [(n, d) for n in ("CHACHA20-POLY1305", "XCHACHA20-POLY1305")
                for d in available(n)]


@bounded(600)
@given(st.sampled_from(AEAD_DRIVERS), st.data())
def test_aead_drivers_match_the_peers(named, data):
    name, driver = named
    x = name.startswith("X")
    key, nonce, aad, msg, cuts, aad_cuts = data.draw(_aead_case([24] if x else [12]))
    if x:
        peer = PyCryptodomeAead.new(key=key, nonce=nonce)
        peer.update(aad)
        ct, tag = peer.encrypt_and_digest(msg)
        want = ct + tag
    else:
        want = PeerAead(key).encrypt(nonce, msg, aad)
    one_shot = (gcrylike.XChaCha20Poly1305 if x else gcrylike.ChaCha20Poly1305)(key, impl=driver)
    assert one_shot.encrypt(nonce, msg, aad) == want
    assert one_shot.decrypt(nonce, bytearray(want), aad) == msg
    # streaming, in pieces: AAD split too
    h = gcrylike.cipher_open("XCHACHA20" if x else "CHACHA20", mode="poly1305", impl=driver)
    h.setkey(key)
    h.setiv(nonce)
    done = 0
    for n in pieces(len(aad), aad_cuts):
        h.authenticate(aad[done:done + n])
        done += n
    done, ct = 0, b""
    for n in pieces(len(msg), cuts):
        ct += h.encrypt(msg[done:done + n])
        done += n
    assert ct + h.gettag() == want
    # a flipped bit anywhere is refused and releases nothing
    flip = data.draw(st.integers(0, 8 * len(want) - 1))
    bad = bytearray(want)
    bad[flip // 8] ^= 1 << flip % 8
    try:
        one_shot.decrypt(nonce, bytes(bad), aad)
    except gcrylike.AuthenticationFailed:
        pass
    else:
        raise AssertionError("a tampered message decrypted")


@bounded(300)
@given(st.sampled_from(available("XSALSA20-POLY1305")), st.binary(min_size=32, max_size=32),
       st.binary(min_size=24, max_size=24), st.binary(max_size=1500))
def test_secretbox_drivers_match_pynacl(driver, key, nonce, msg):
    want = nacl.secret.SecretBox(key).encrypt(msg, nonce)
    box = gcrylike.SecretBox(key, impl=driver)
    assert box.encrypt(msg, nonce) == want
    assert box.decrypt(memoryview(want)) == msg
    assert box.decrypt(memoryview(want.ciphertext), want.nonce) == msg


@bounded(400)
@given(st.sampled_from(available("POLY1305")), st.binary(min_size=32, max_size=32),
       st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=6))
def test_poly1305_drivers_match_cryptography(driver, key, msg, cuts):
    want = PeerPoly1305.generate_tag(key, msg)
    assert gcrylike.mac("poly1305", key, msg, impl=driver) == want
    h = gcrylike.mac_open("poly1305", impl=driver)
    h.setkey(key)
    done, copies = 0, []
    for n in pieces(len(msg), cuts):
        h.update(bytearray(msg[done:done + n]))
        done += n
        copies.append((done, h.copy()))
    assert h.digest() == want
    for at, twin in copies:  # each copy continues from where it was taken
        twin.update(msg[at:])
        assert twin.digest() == want
        twin.close()


@bounded(150)
@given(st.sampled_from(available("NHPOLY1305")), st.binary(min_size=1088, max_size=1088),
       st.binary(max_size=2500), st.lists(st.integers(0, 2500), max_size=5))
def test_nhpoly1305_drivers_match_the_reference(driver, key, msg, cuts):
    want = ref_nhpoly1305(key, msg)
    h = gcrylike.mac_open("nhpoly1305", impl=driver)
    h.setkey(key)
    done = 0
    for n in pieces(len(msg), cuts):
        h.update(msg[done:done + n])
        done += n
    assert h.digest() == want


ADIANTUM_DRIVERS = [(v, d) for v, name in (("xchacha12", "ADIANTUM(XCHACHA12,AES)"),
                                           ("xchacha20", "ADIANTUM(XCHACHA20,AES)"))
                    for d in available(name)]


@bounded(100)
@given(st.sampled_from(ADIANTUM_DRIVERS), st.binary(min_size=32, max_size=32),
       st.binary(max_size=32), st.binary(min_size=16, max_size=700), st.integers(0, 15))
def test_adiantum_drivers_match_the_reference(named, key, tweak, msg, offset):
    variant, driver = named
    want = ref_crypt(key, tweak, msg, 12 if variant == "xchacha12" else 20, True)
    h = gcrylike.Adiantum(key, variant, impl=driver)
    assert h.encrypt(msg, tweak) == want
    buf = bytearray(offset + len(msg))
    buf[offset:] = want
    view = memoryview(buf)[offset:]
    h.decrypt(view, tweak, out=view)
    assert bytes(view) == msg


@bounded(150)
@given(st.sampled_from(available("AES256")), st.binary(min_size=32, max_size=32),
       st.integers(0, 40).flatmap(lambda n: st.binary(min_size=16 * n, max_size=16 * n)))
def test_aes_drivers_match_cryptography(driver, key, blocks):
    want = Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(blocks)
    h = gcrylike.block_cipher_open("aes256", impl=driver)
    h.setkey(key)
    assert h.encrypt_blocks(blocks) == want
    assert h.decrypt_blocks(want) == blocks


@bounded(150)
@given(st.sampled_from(["chacha", "salsa"]), st.sampled_from([8, 12, 20]),
       st.binary(min_size=32, max_size=32), st.binary(min_size=16, max_size=16))
def test_subkey_functions_match_the_reference(family, rounds, key, data):
    from nacl_oracle import ref_hsalsa20
    from reference import hchacha

    if family == "chacha":
        assert gcrylike.hchacha(key, data, rounds=rounds) == hchacha(key, data, rounds)
    else:
        assume(rounds != 8)
        assert gcrylike.hsalsa20(key, data, rounds=rounds) == ref_hsalsa20(key, data, rounds)
