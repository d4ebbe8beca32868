"""gcrylike.testing, the plugin authors' test helpers: each known-answer
runner accepts the published vectors and catches a wrong one, the
differential helper passes on agreeing implementations and catches a wrong
one (driver or reference), and the burn-stack probe hook reports residue."""

from __future__ import annotations

import dataclasses
import os
import struct

import pytest
import toy_cipher
from Crypto.Cipher import AES, ChaCha20
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.poly1305 import Poly1305

import gcrylike
from gcrylike import testing
from gcrylike.selftests.vectors_adiantum import ADIANTUM_XCHACHA12
from gcrylike.selftests.vectors_aead import CHACHA20_POLY1305
from gcrylike.selftests.vectors_aes import FIPS197_C3, KEY, MULTI_CIPHER, MULTI_PLAIN
from gcrylike.selftests.vectors_poly1305 import POLY1305
from gcrylike.selftests.vectors_salsa20 import VECTORS as SALSA20
from gcrylike.selftests.vectors_secretbox import SECRETBOX

AES_VECTORS = [testing.BlockVector(KEY.hex(), *FIPS197_C3),
               testing.BlockVector(KEY.hex(), MULTI_PLAIN.hex(), MULTI_CIPHER)]


def _flip(text: str) -> str:
    return f"{int(text[:2], 16) ^ 1:02x}" + text[2:]


def _flip_last(text: str) -> str:
    return text[:-2] + f"{int(text[-2:], 16) ^ 1:02x}"


def _wrong_stream(vec):
    block = max(vec.blocks)
    return dataclasses.replace(vec, blocks={**vec.blocks, block: _flip(vec.blocks[block])})


# (algorithm, good vectors, the same with one wrong answer)
KNOWN_ANSWERS = {
    "stream": ("salsa20", [v for v in SALSA20 if v.rounds == 20],
               [_wrong_stream(v) for v in SALSA20 if v.rounds == 20][:1]),
    "mac": ("poly1305", POLY1305, [dataclasses.replace(POLY1305[0], tag=_flip(POLY1305[0].tag))]),
    "aead": ("chacha20-poly1305", CHACHA20_POLY1305,
             [dataclasses.replace(CHACHA20_POLY1305[0],
                                  tag=_flip_last(CHACHA20_POLY1305[0].tag))]),
    "secretbox": ("xsalsa20-poly1305", SECRETBOX,
                  [dataclasses.replace(v, box=_flip(v.box)) for v in SECRETBOX if v.box][:1]),
    "block": ("aes256", AES_VECTORS,
              [dataclasses.replace(AES_VECTORS[1], ciphertext=_flip_last(MULTI_CIPHER))]),
    "tweakable": ("adiantum", ADIANTUM_XCHACHA12,
                  [dataclasses.replace(ADIANTUM_XCHACHA12[2], ciphertext=_flip_last(
                      ADIANTUM_XCHACHA12[2].ciphertext))]),
}


@pytest.mark.parametrize("kind", sorted(KNOWN_ANSWERS))
def test_known_answers_pass_on_every_driver(kind):
    algo, good, _ = KNOWN_ANSWERS[kind]
    checked = testing.check_known_answers(algo, good)
    assert checked == testing.runnable_drivers(algo) and checked


@pytest.mark.parametrize("kind", sorted(KNOWN_ANSWERS))
def test_known_answers_catch_a_wrong_vector(kind):
    algo, _, wrong = KNOWN_ANSWERS[kind]
    assert wrong
    driver = testing.runnable_drivers(algo)[-1]
    with pytest.raises(gcrylike.SelftestFailed, match=driver):
        testing.check_known_answers(algo, wrong, drivers=[driver])


def test_known_answers_refuse_nothing_to_check():
    with pytest.raises(gcrylike.InvalidArgument):
        testing.check_known_answers("salsa20", [])
    with pytest.raises(gcrylike.InvalidArgument):
        testing.check_known_answers("salsa20", SALSA20, drivers=["chacha20-generic"])
    with pytest.raises(gcrylike.InvalidType):
        testing.check_known_answers("salsa20", SALSA20, drivers="salsa20-generic")


# --- differential ------------------------------------------------------------

def _chacha20(key, nonce, data):
    return ChaCha20.new(key=key, nonce=nonce).encrypt(data)


def _poly1305(key, data):
    return Poly1305.generate_tag(key, data)


def _chacha20_poly1305(key, nonce, aad, data):
    return ChaCha20Poly1305(key).encrypt(nonce, data, aad)


def _aes256(key, data):
    return AES.new(key, AES.MODE_ECB).encrypt(data)


#: The sizes the outside references take.
SIZES = {"key_sizes": [32]}
CHACHA_SIZES = {"key_sizes": [32], "iv_sizes": [8, 12]}

REFERENCES = {
    "chacha20": _chacha20, "poly1305": _poly1305, "chacha20-poly1305": _chacha20_poly1305,
    "aes256": _aes256,
}


def _wrong(ref):
    """``ref`` with one bit flipped in outputs of 200 bytes and more."""
    def bad(*args):
        out = ref(*args)
        if len(args[-1]) < 200:
            return out
        return out[:-1] + bytes([out[-1] ^ 1])
    return bad


@pytest.mark.parametrize("algo", sorted(REFERENCES))
def test_compare_against_a_python_reference(algo):
    sizes = CHACHA_SIZES if algo == "chacha20" else SIZES
    assert testing.compare(algo, REFERENCES[algo], trials=3, **sizes) > 20


@pytest.mark.parametrize("algo", sorted(REFERENCES))
def test_compare_catches_a_wrong_reference(algo):
    with pytest.raises(testing.Mismatch, match="seed=5"):
        testing.compare(algo, _wrong(REFERENCES[algo]), trials=3, seed=5,
                        **(CHACHA_SIZES if algo == "chacha20" else SIZES))


@pytest.mark.parametrize("algo", ["salsa20", "adiantum", "poly1305"])
def test_compare_driver_against_driver(algo):
    drivers = testing.runnable_drivers(algo)
    n = testing.compare(algo, drivers[-1], drivers=drivers[:-1] or drivers, trials=2,
                        lengths=[0, 1, 63, 64, 65, 1023, 1024, 4097])
    assert n == 8


def test_compare_catches_a_wrong_driver():
    """A driver that passes its self-test but is wrong from byte 1000 on."""
    good = gcrylike.Implementation("toy-good", 100, token="good")
    late = gcrylike.Implementation("toy-wrong-late", 200, token="late")
    gcrylike.register(toy_cipher.make_spec(impls=[good, late]))
    try:
        assert testing.compare("toy", "toy-good", lengths=[100, 999]) == 2
        with pytest.raises(testing.Mismatch, match="toy-wrong-late .* first difference at "
                                                   "byte 1000"):
            testing.compare("toy", "toy-good", lengths=[100, 2000])
    finally:
        gcrylike.unregister("toy")


def test_compare_refuses_bad_arguments():
    with pytest.raises(gcrylike.InvalidType):
        testing.compare("salsa20", 3)
    with pytest.raises(gcrylike.InvalidArgument):
        testing.compare("salsa20", "salsa20-generic", trials=-1)
    with pytest.raises(gcrylike.NotSupported):
        testing.compare("xsalsa20-poly1305", "x")


# --- burn-stack probe hook -------------------------------------------------

def test_stack_residue_hook_sees_residue_only_without_burning():
    """stack_residue with gcrylike's own probe (the test copy of the ChaCha
    module, tests/native/testhooks.c): none after the installed code, some
    after the copy's code with burning switched off."""
    import testhooks
    if testhooks.sanitized():
        pytest.skip("stack residue is measured on the uninstrumented build")
    mod = testhooks.copy("chacha")
    probe = mod.lib.gcry_stack_residue_after

    def residue(burn: bool) -> int:
        with gcrylike.cipher_open("chacha20", impl="chacha20-generic") as h:
            key, nonce = os.urandom(32), os.urandom(8)
            h.setkey(key)
            h.setiv(nonce)
            keystream = h.encrypt(bytes(4096))
            h.setiv(nonce)
            needles = set(struct.unpack(f"<{len(keystream) // 4}I", keystream))
            if burn:
                crypt = testhooks.installed_entry(mod, "chacha", "gcry_chacha_crypt")
            else:
                crypt = testhooks.crypt_entry(mod, "gcry_chacha_crypt")
            mod.lib.gcry_burn_enabled = int(burn)
            try:
                rc, out, found = testing.stack_residue(probe, crypt, h._ctx.ptr,
                                                       bytes(4096), needles)
            finally:
                mod.lib.gcry_burn_enabled = 1
            assert rc == 0 and out == keystream
            return found

    assert residue(True) == 0
    assert max(residue(False) for _ in range(3)) > 0


def test_isolated_registry_loads_plugins_afresh_and_restores():
    gcrylike.register(toy_cipher.make_spec())
    try:
        with testing.isolated_registry(plugins="none"):
            assert "TOY" not in gcrylike.algorithms() and "SALSA20" in gcrylike.algorithms()
            assert gcrylike.implementations("salsa20")[0].selftest == "untested"
            gcrylike.register(toy_cipher.make_spec("TOY2", 90002, aliases=()))
            assert "TOY2" in gcrylike.algorithms()
        names = gcrylike.algorithms()
        assert "TOY" in names and "TOY2" not in names
        with gcrylike.cipher_open("toy") as h:
            h.setkey(bytes(32))
    finally:
        gcrylike.unregister("toy")
