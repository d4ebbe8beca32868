"""Burn-stack accounting, proven: after an encrypt no keystream or cipher
state word is left on the stack the call used, and with burning switched off
the same probe does find them, so the probe can see.

The scanner, the burn switch and the probes of composite calls are test-only
(tests/testhooks.py: a test copy of each module).  With burning on, a public
entry point runs as installed (the scanner calls it through its address);
the probes and the burning-off runs use the test copy."""

from __future__ import annotations

import os
import struct

import pytest
import testhooks

import gcrylike

MASK = 0xFFFFFFFF
SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)
TAU = (0x61707865, 0x3120646E, 0x79622D36, 0x6B206574)
SCAN_DEPTH = 8192


def salsa20_input_words(key: bytes, nonce: bytes, block: int) -> list[int]:
    c = SIGMA if len(key) == 32 else TAU
    k = struct.unpack("<8I", key if len(key) == 32 else key + key)
    n = struct.unpack("<2I", nonce)
    return [c[0], *k[:4], c[1], *n, block & MASK, block >> 32, c[2], *k[4:], c[3]]


def salsa20_needles(key: bytes, nonce: bytes, keystream: bytes) -> set[int]:
    """Keystream words, the pre-feed-forward round outputs, and key words."""
    needles = set(struct.unpack(f"<{len(key) // 4}I", key))
    for b in range(len(keystream) // 64):
        inp = salsa20_input_words(key, nonce, b)
        for i, w in enumerate(struct.unpack("<16I", keystream[64 * b: 64 * b + 64])):
            needles.update((w, (w - inp[i]) & MASK))
    # Words that commonly sit on a stack for unrelated reasons would make
    # the "found" side pass for the wrong reason; random keys make them rare.
    needles -= {0, MASK}
    return needles


def chacha_needles(key: bytes, nonce: bytes, keystream: bytes) -> set[int]:
    """As for Salsa20, with the RFC 8439 state (8-byte nonce, 64-bit counter)."""
    needles = set(struct.unpack("<8I", key))
    k = struct.unpack("<8I", key)
    n = struct.unpack("<2I", nonce)
    for b in range(len(keystream) // 64):
        inp = [*SIGMA, *k, b & MASK, b >> 32, *n]
        for i, w in enumerate(struct.unpack("<16I", keystream[64 * b: 64 * b + 64])):
            needles.update((w, (w - inp[i]) & MASK))
    needles -= {0, MASK}
    return needles


def xchacha_needles(key: bytes, nonce: bytes, keystream: bytes) -> set[int]:
    """XChaCha: the ChaCha needles under the HChaCha subkey, and the key."""
    subkey = gcrylike.hchacha(key, nonce[:16])
    return chacha_needles(subkey, nonce[16:], keystream) | salsa_key_words(key)


def xsalsa20_needles(key: bytes, nonce: bytes, keystream: bytes) -> set[int]:
    """XSalsa20: the Salsa20 needles under the HSalsa20 subkey, and the key."""
    subkey = gcrylike.hsalsa20(key, nonce[:16])
    return salsa20_needles(subkey, nonce[16:], keystream) | salsa_key_words(key)


def salsa_key_words(key: bytes) -> set[int]:
    return set(struct.unpack(f"<{len(key) // 4}I", key)) - {0, MASK}


CASES = [
    # (algorithm, module (testhooks key), crypt entry point, needle maker)
    ("salsa20", "salsa20", "gcry_salsa20_crypt", salsa20_needles),
    ("salsa20r12", "salsa20", "gcry_salsa20_crypt", salsa20_needles),
    ("chacha20", "chacha", "gcry_chacha_crypt", chacha_needles),
    ("chacha12", "chacha", "gcry_chacha_crypt", chacha_needles),
    ("xchacha20", "chacha", "gcry_chacha_crypt", xchacha_needles),
    ("xsalsa20", "salsa20", "gcry_salsa20_crypt", xsalsa20_needles),
]


def _drivers():
    for algo, module, entry, needles in CASES:
        for info in gcrylike.implementations(algo):
            marks = () if info.available else (pytest.mark.skip(reason=info.reason),)
            yield pytest.param(algo, module, entry, needles, info.driver,
                               id=info.driver, marks=marks)


def probe(key: str, entry: str, ctx, data: bytes, needles: set[int],
          burn: bool) -> tuple[int, bytes]:
    """Run ``entry(ctx, dst, data, len(data))`` with stack burning on or
    off; how many ``needles`` it left on the stack below its frame, and what
    it wrote.  ``key`` names the module (testhooks.copy).

    Not under AddressSanitizer: the burn depths are sized for the frames of
    the real build, and ASan's redzones, its other inlining and its memset
    interceptor change what a call leaves below it, both ways."""
    if testhooks.sanitized():
        pytest.skip("stack residue is measured on the uninstrumented build (py, noasm envs)")
    mod = testhooks.copy(key)
    ffi, lib = mod.ffi, mod.lib
    c_needles = ffi.new("uint32_t[]", sorted(needles))
    src = ffi.new("uint8_t[]", data)
    dst = ffi.new("uint8_t[]", len(data))
    rc = ffi.new("int *")
    fn = testhooks.crypt_entry(mod, entry)
    if burn and hasattr(testhooks.installed(key).lib, entry):
        fn = testhooks.installed_entry(mod, key, entry)  # the shipped code
    saved = lib.gcry_burn_enabled
    lib.gcry_burn_enabled = int(burn)
    try:
        found = lib.gcry_stack_residue_after(fn, ctx, dst, src, len(data),
                                             c_needles, len(needles), SCAN_DEPTH, rc)
    finally:
        lib.gcry_burn_enabled = saved
    assert rc[0] == 0
    return found, bytes(ffi.buffer(dst))


def residue(algo, module, entry, make_needles, driver, length, burn):
    with gcrylike.cipher_open(algo, impl=driver) as h:
        key = os.urandom(32)
        nonce = os.urandom(8 if 8 in h.info.iv_sizes else h.info.iv_sizes[0])
        h.setkey(key)
        h.setiv(nonce)
        keystream = h.encrypt(bytes(length))
        h.setiv(nonce)
        found, out = probe(module, entry, h._ctx.ptr, bytes(length),
                            make_needles(key, nonce, keystream), burn)
        assert out == keystream  # the probe ran the real thing
    return found


# 64 * 47 + 9: AVX-512 ChaCha's two groups of 16 (which spill), one of 16,
# one of 8 and a tail of 6 whole blocks and a partial one.  AVX-512 Salsa20:
# 16 blocks + 1 partial (portable), 16 + 9 + 1 partial and 16 + 15 + 1
# partial (a 16-block tail), then from 272 blocks groups of 17 (on Zen 4):
# 17 * 16 + 16 + 1 + a partial (an 8-block tail), 17 * 16 + 16 * 2
@pytest.mark.parametrize("length", [64, 64 * 7 + 5, 64 * 9 + 13, 4096, 64 * 47 + 9,
                                    64 * 16 + 13, 64 * 25 + 13, 64 * 31 + 5, 64 * 289 + 9,
                                    64 * 304])
@pytest.mark.parametrize("algo,module,entry,needles,driver", list(_drivers()))
def test_no_secrets_left_on_stack(algo, module, entry, needles, driver, length):
    # A residue the burn missed is left by the same code on the same stack
    # whatever the key, so it shows again with a fresh random key; a stack
    # word that equals one of the random needles by chance (up to ~9,000
    # needles against 2,048 scanned words at the longest lengths: about one
    # run in 200 there) does not.
    found = residue(algo, module, entry, needles, driver, length, burn=True)
    if found:
        found = residue(algo, module, entry, needles, driver, length, burn=True)
    assert found == 0


@pytest.mark.parametrize("algo,module,entry,needles,driver", list(_drivers()))
def test_probe_sees_secrets_without_burning(algo, module, entry, needles, driver):
    # Several tries: a single random word can be overwritten by chance,
    # but a call that leaves nothing at all means the probe is blind.  (The
    # AVX-512 routines use no stack: 64 * 17 has one portable block; 2 blocks
    # and a partial one are a wide tail, made in a stack buffer.)
    found = [residue(algo, module, entry, needles, driver, n, burn=False)
             for n in (4096, 64 * 17, 64 * 2 + 5) for _ in range(3)]
    assert max(found) > 0


# -- composite kinds: no word of the key schedule or per-message keys ------
#
# For MACs, AEADs, AES and Adiantum the secrets are the words of the keyed
# context itself (round keys, subkeys, Poly1305 r and s, NH key, ChaCha
# state).  The probe looks for every such word after one call.

KIND_CASES = [
    # (algorithm, opener, module (testhooks key), probe entry point, length,
    #  needs an IV)
    ("poly1305", gcrylike.mac_open, "poly1305", "gcry_poly1305_probe", 1000, False),
    ("nhpoly1305", gcrylike.mac_open, "nhpoly1305", "gcry_nhpoly1305_probe", 3000, False),
    ("aes256", gcrylike.block_cipher_open, "aes", "gcry_aes256_probe", 4096, False),
    ("adiantum", gcrylike.tweakable_open, "adiantum", "gcry_adiantum_probe", 4096, False),
    ("chacha20-poly1305", None, "aead", "gcry_aead_encrypt", 1000, True),
    # the sector calls: the AVX-512 tier's XChaCha keys sixteen at a time,
    # two to four with HChaCha4, one alone: 20 sectors of 512 bytes (groups
    # of 16 and 4), 17 (16 and 1)
    ("adiantum", gcrylike.tweakable_open, "adiantum", "gcry_adiantum_sectors_probe", 20 * 512,
     False),
    ("adiantum", gcrylike.tweakable_open, "adiantum", "gcry_adiantum_sectors_probe", 17 * 512,
     False),
    # long enough for the AVX2 drivers' stitched routine (its frame holds
    # r); decryption of whole 512-byte groups runs that routine alone
    ("chacha20-poly1305", None, "aead", "gcry_aead_encrypt", 3000, True),
    ("chacha20-poly1305", None, "aead", "gcry_aead_decrypt", 2560, True),
    ("xchacha20-poly1305", None, "aead", "gcry_aead_decrypt", 2560 + 7, True),
    # the one-shot seal: a short message (keystream with the Poly1305 key) and a chunked one
    ("chacha20-poly1305", None, "aead", "gcry_aead_seal_probe", 16 + 100, True),
    ("chacha20-poly1305", None, "aead", "gcry_aead_seal_probe", 16 + 5000, True),
    ("xchacha20-poly1305", None, "aead", "gcry_aead_seal_probe", 16 + 100, True),
    ("xsalsa20-poly1305", "secretbox", "secretbox", "gcry_secretbox_probe", 1000, False),
    # long enough for the AVX2 driver's stitched routine (its frame holds
    # r): 4 groups after the 32-byte head (3 stitched when sealing, 4 when
    # opening), and a tail
    ("xsalsa20-poly1305", "secretbox", "secretbox", "gcry_secretbox_probe",
     16 + 32 + 4 * 512 + 7, False),
    ("xsalsa20-poly1305", "secretbox", "secretbox", "gcry_secretbox_open_probe",
     16 + 32 + 4 * 512 + 7, False),
]


def _kind_drivers():
    for algo, opener, module, entry, length, needs_iv in KIND_CASES:
        for info in gcrylike.implementations(algo):
            marks = () if info.available else (pytest.mark.skip(reason=info.reason),)
            yield pytest.param(algo, opener, module, entry, length, needs_iv, info.driver,
                               id=f"{info.driver}-{entry.removeprefix('gcry_')}-{length}",
                               marks=marks)


def _secret_words(blob: bytes) -> set[int]:
    """Words of a keyed context that can only come from key material: not
    small integers (lengths, flags, ids), not the ChaCha/Salsa constants."""
    words = set(struct.unpack(f"<{len(blob) // 4}I", blob[: len(blob) // 4 * 4]))
    return {w for w in words if 0x10000 <= w <= 0xFFFF0000} - set(SIGMA) - set(TAU)


def _seal_probe_keystream(algo: str, key: bytes, length: int) -> bytes:
    """The per-message secrets of gcry_aead_seal_probe and the secretbox
    probes (zero nonce): the Poly1305 key in keystream block 0 and the
    data's keystream after it."""
    cipher = algo.split("-")[0]
    with gcrylike.cipher_open(cipher) as c:
        c.setkey(key)
        c.setiv(bytes(24 if cipher.startswith("x") else 12))
        return c.encrypt(bytes(64 + length))


def kind_residue(algo, opener, module, entry, length, needs_iv, driver, burn):
    ffi = testhooks.copy(module).ffi
    if opener is None:
        h = gcrylike.cipher_open(algo.split("-")[0], impl=driver, mode="poly1305")
    elif opener == "secretbox":  # keyed at construction
        box_key = os.urandom(32)
        h = gcrylike.SecretBox(box_key, impl=driver)
    else:
        h = opener(algo, impl=driver)
    with h:
        key_size = h._spec.key_sizes[0]
        key = os.urandom(key_size)
        if opener != "secretbox":
            h.setkey(key)
        else:
            key = box_key
        if needs_iv:
            h.setiv(os.urandom(h._spec.iv_sizes[0]))
        data = os.urandom(length)
        if algo == "aes256":  # its probe re-keys from the data: know that schedule
            h.setkey(data[:32])
        secrets = _secret_words(bytes(ffi.buffer(h._ctx.ptr, h._spec.context_size)))
        if entry in ("gcry_aead_seal_probe", "gcry_secretbox_probe",
                     "gcry_secretbox_open_probe"):
            secrets |= _secret_words(_seal_probe_keystream(algo, key, length))
        assert len(secrets) >= 4  # the context really holds key material
        found, _ = probe(module, entry, h._ctx.ptr, data, secrets, burn)
    return found


@pytest.mark.parametrize("algo,opener,module,entry,length,needs_iv,driver",
                         list(_kind_drivers()))
def test_no_key_material_left_on_stack(algo, opener, module, entry, length, needs_iv, driver):
    assert kind_residue(algo, opener, module, entry, length, needs_iv, driver, burn=True) == 0


def test_probe_sees_key_material_without_burning():
    """With burning off, key material does show up on the stack for some
    algorithm of these kinds in this build, so the probe above can see.
    (Per algorithm it may not: code that keeps keys in registers and wipes
    its copies leaves nothing even unburned, e.g. NH in portable C.)"""
    found = {}
    for algo, opener, module, entry, length, needs_iv in KIND_CASES:
        for info in gcrylike.implementations(algo):
            if info.available:
                found[info.driver] = kind_residue(algo, opener, module, entry, length,
                                                  needs_iv, info.driver, burn=False)
    assert max(found.values()) > 0, found
