"""gcrylike's copies of PyNaCl's ``nacl.secret`` classes beyond their bytes:
``Aead`` against PyNaCl's own ``Aead`` (same bytes, each opens the
other's), and what both classes share with PyNaCl's (``bytes(box)``,
``encoder=``, its error types and words).  PyNaCl's own test file runs
against both classes in tests/upstream/pynacl_tests."""

from __future__ import annotations

import copy
import random

import pytest

import gcrylike

nacl_secret = pytest.importorskip("nacl.secret")
nacl_encoding = pytest.importorskip("nacl.encoding")
nacl_exceptions = pytest.importorskip("nacl.exceptions")

CLASSES = pytest.mark.parametrize("cls", [gcrylike.SecretBox, gcrylike.Aead])


def _rng(*tags: object) -> random.Random:
    return random.Random("nacl-style/" + "/".join(map(str, tags)))


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 1000, 5000])
def test_aead_is_pynacls_byte_for_byte(n):
    rng = _rng("bytes", n)
    key, nonce = rng.randbytes(32), rng.randbytes(24)
    data, aad = rng.randbytes(n), rng.randbytes(n % 40)
    ours, theirs = gcrylike.Aead(key), nacl_secret.Aead(key)
    sealed = ours.encrypt(data, aad, nonce)
    assert sealed == theirs.encrypt(data, aad, nonce)
    assert (sealed.nonce, sealed.ciphertext) == (nonce, sealed[24:])
    assert ours.decrypt(sealed, aad) == ours.decrypt(sealed.ciphertext, aad, nonce) == data
    # each opens what the other sealed under a random nonce
    assert theirs.decrypt(ours.encrypt(data, aad), aad) == data
    assert ours.decrypt(theirs.encrypt(data, aad), aad) == data


def test_aead_is_xchacha20poly1305_with_the_nonce_in_front():
    rng = _rng("same")
    key, nonce, data, aad = rng.randbytes(32), rng.randbytes(24), rng.randbytes(99), b"hdr"
    assert (gcrylike.Aead(key).encrypt(data, aad, nonce)
            == nonce + gcrylike.XChaCha20Poly1305(key).encrypt(nonce, data, aad))


def test_aead_encoders_as_pynacl():
    rng = _rng("hex")
    key, nonce, data = rng.randbytes(32), rng.randbytes(24), rng.randbytes(50)
    hexkey, enc = nacl_encoding.HexEncoder.encode(key), nacl_encoding.HexEncoder
    ours, theirs = gcrylike.Aead(hexkey, encoder=enc), nacl_secret.Aead(hexkey, encoder=enc)
    mine, want = ours.encrypt(data, b"a", nonce, encoder=enc), theirs.encrypt(data, b"a", nonce,
                                                                              encoder=enc)
    assert (mine, mine.nonce, mine.ciphertext) == (want, want.nonce, want.ciphertext)
    assert ours.decrypt(want, b"a", encoder=enc) == data


@CLASSES
def test_public_surface_covers_pynacls(cls):
    def public(c: type) -> set[str]:
        return {n for n in dir(c) if not n.startswith("_")}

    theirs = getattr(nacl_secret, cls.__name__)
    # everything but the Encodable mixin's encode(); the constants agree
    assert public(theirs) - {"encode"} <= public(cls)
    for name in ("KEY_SIZE", "NONCE_SIZE", "MACBYTES", "MESSAGEBYTES_MAX"):
        assert getattr(cls, name) == getattr(theirs, name), name


@CLASSES
def test_bytes_of_a_box_is_its_key_until_closed(cls):
    key, other = bytes(range(32)), bytes(range(1, 33))
    box = cls(bytearray(key))
    assert bytes(box) == key and type(bytes(box)) is bytes
    twin = copy.copy(box)
    box.setkey(memoryview(other))
    assert bytes(box) == other and bytes(twin) == key
    box.close()
    with pytest.raises(gcrylike.HandleClosed):
        bytes(box)
    assert bytes(twin) == key


@CLASSES
def test_errors_in_pynacls_words(cls):
    with pytest.raises(gcrylike.InvalidKeyLength,
                       match="The key must be exactly 32 bytes long, got 31"):
        cls(bytes(31))
    for bad in (12, "k" * 32, None, cls(bytes(32))):
        with pytest.raises(gcrylike.InvalidType, match=f"{cls.__name__} must be created "
                                                       "from 32 bytes"):
            cls(bad)
    box = cls(bytes(32))
    for args in ((b"x", bytes(23)), (bytes(40), bytes(25))):
        for call in (box.encrypt, box.decrypt):
            with pytest.raises(gcrylike.InvalidIVLength,
                               match="The nonce must be exactly 24 bytes long, got 2[35]"):
                call(*args, nonce=args[1]) if cls is gcrylike.Aead else call(*args)


def test_aead_forgeries_are_cryptoerror_and_release_nothing():
    box = gcrylike.Aead(bytes(32))
    sealed = box.encrypt(b"attack at dawn", b"hdr")
    for bad, aad in ((sealed[:-1] + bytes([sealed[-1] ^ 1]), b"hdr"), (sealed, b"hdx"),
                     (sealed[:39], b"hdr"), (sealed[:10], b"hdr")):
        with pytest.raises(nacl_exceptions.CryptoError) as info:
            box.decrypt(bad, aad)
        assert isinstance(info.value, gcrylike.AuthenticationFailed)
