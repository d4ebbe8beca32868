# This file is dual licensed under the terms of the Apache License, Version
# 2.0, and the BSD License. See the LICENSE file in the root of this repository
# for complete details.
#
# Vendored into gcrylike from cryptography 51.0.1's sdist,
# tests/hazmat/primitives/test_aead.py, trimmed to TestChaCha20Poly1305
# (the other classes test ciphers gcrylike does not have).  Changed: the
# class under test is imported from gcrylike instead of
# cryptography.hazmat.primitives.ciphers.aead, the vector helpers from the
# trimmed ./utils.py, and the imports the trimmed classes used are gone.
# The class body is unchanged; tests/upstream/cryptography_tests/conftest.py skips
# the two tests of behaviour gcrylike deliberately does not copy, with why.

import binascii
import mmap
import os
import sys
import typing

import pytest

from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from gcrylike import ChaCha20Poly1305

from .utils import (
    load_nist_vectors,
    load_vectors_from_file,
)


def _aead_supported(cls):
    try:
        cls(b"0" * 32)
        return True
    except UnsupportedAlgorithm:
        return False


def large_mmap(length: int = 2**32):
    # Silencing mypy prot argument warning on Windows, even though this
    # function is only used in non-Windows-based tests.
    return mmap.mmap(-1, length, prot=mmap.PROT_READ)  # type: ignore[call-arg,attr-defined,unused-ignore]



@pytest.mark.skipif(
    not _aead_supported(ChaCha20Poly1305),
    reason="Does not support ChaCha20Poly1305",
)
class TestChaCha20Poly1305:
    @pytest.mark.skipif(
        sys.platform not in {"linux", "darwin"} or sys.maxsize < 2**31,
        reason="mmap and 64-bit platform required",
    )
    def test_data_too_large(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = b"0" * 12

        large_data = large_mmap()

        with pytest.raises(OverflowError):
            chacha.encrypt(nonce, large_data, b"")

        with pytest.raises(OverflowError):
            chacha.encrypt(nonce, b"", large_data)

    def test_generate_key(self):
        key = ChaCha20Poly1305.generate_key()
        assert len(key) == 32

    def test_bad_key(self):
        with pytest.raises(TypeError):
            ChaCha20Poly1305(typing.cast(typing.Any, object()))

        with pytest.raises(ValueError):
            ChaCha20Poly1305(b"0" * 31)

    @pytest.mark.parametrize(
        ("nonce", "data", "associated_data"),
        [
            [object(), b"data", b""],
            [b"0" * 12, object(), b""],
            [b"0" * 12, b"data", object()],
        ],
    )
    def test_params_not_bytes_encrypt(self, nonce, data, associated_data):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        with pytest.raises(TypeError):
            chacha.encrypt(nonce, data, associated_data)

        with pytest.raises(TypeError):
            chacha.decrypt(nonce, data, associated_data)

    def test_nonce_not_12_bytes(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        with pytest.raises(ValueError):
            chacha.encrypt(b"00", b"hello", b"")

        with pytest.raises(ValueError):
            buf = bytearray(16)
            chacha.encrypt_into(b"00", b"hello", b"", buf)

        with pytest.raises(ValueError):
            chacha.decrypt(b"00", b"hello", b"")

        with pytest.raises(ValueError):
            buf = bytearray(1)
            chacha.decrypt_into(b"00", b"hello", b"", buf)

    def test_decrypt_data_too_short(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        with pytest.raises(InvalidTag):
            chacha.decrypt(b"0" * 12, b"0", None)

        with pytest.raises(InvalidTag):
            buf = bytearray(16)
            chacha.decrypt_into(b"0" * 12, b"0", None, buf)

    def test_associated_data_none_equal_to_empty_bytestring(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        ct1 = chacha.encrypt(nonce, b"some_data", None)
        ct2 = chacha.encrypt(nonce, b"some_data", b"")
        assert ct1 == ct2
        pt1 = chacha.decrypt(nonce, ct1, None)
        pt2 = chacha.decrypt(nonce, ct2, b"")
        assert pt1 == pt2

    def test_openssl_vectors(self, subtests):
        vectors = load_vectors_from_file(
            os.path.join("ciphers", "ChaCha20Poly1305", "openssl.txt"),
            load_nist_vectors,
        )
        for vector in vectors:
            with subtests.test():
                key = binascii.unhexlify(vector["key"])
                nonce = binascii.unhexlify(vector["iv"])
                aad = binascii.unhexlify(vector["aad"])
                tag = binascii.unhexlify(vector["tag"])
                pt = binascii.unhexlify(vector["plaintext"])
                ct = binascii.unhexlify(vector["ciphertext"])
                chacha = ChaCha20Poly1305(key)
                if vector.get("result") == b"CIPHERFINAL_ERROR":
                    with pytest.raises(InvalidTag):
                        chacha.decrypt(nonce, ct + tag, aad)
                else:
                    computed_pt = chacha.decrypt(nonce, ct + tag, aad)
                    assert computed_pt == pt
                    computed_ct = chacha.encrypt(nonce, pt, aad)
                    assert computed_ct == ct + tag

    def test_boringssl_vectors(self, subtests):
        vectors = load_vectors_from_file(
            os.path.join("ciphers", "ChaCha20Poly1305", "boringssl.txt"),
            load_nist_vectors,
        )
        for vector in vectors:
            with subtests.test():
                key = binascii.unhexlify(vector["key"])
                nonce = binascii.unhexlify(vector["nonce"])
                if vector["ad"].startswith(b'"'):
                    aad = vector["ad"][1:-1]
                else:
                    aad = binascii.unhexlify(vector["ad"])
                tag = binascii.unhexlify(vector["tag"])
                if vector["in"].startswith(b'"'):
                    pt = vector["in"][1:-1]
                else:
                    pt = binascii.unhexlify(vector["in"])
                ct = binascii.unhexlify(vector["ct"].strip(b'"'))
                chacha = ChaCha20Poly1305(key)
                computed_pt = chacha.decrypt(nonce, ct + tag, aad)
                assert computed_pt == pt
                computed_ct = chacha.encrypt(nonce, pt, aad)
                assert computed_ct == ct + tag

    def test_buffer_protocol(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        pt = b"encrypt me"
        ad = b"additional"
        nonce = os.urandom(12)
        ct = chacha.encrypt(nonce, pt, ad)
        computed_pt = chacha.decrypt(nonce, ct, ad)
        assert computed_pt == pt
        chacha2 = ChaCha20Poly1305(bytearray(key))
        ct2 = chacha2.encrypt(bytearray(nonce), pt, ad)
        assert ct2 == ct
        computed_pt2 = chacha2.decrypt(bytearray(nonce), ct2, ad)
        assert computed_pt2 == pt

    def test_encrypt_into(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        pt = b"encrypt me"
        ad = b"additional"
        buf = bytearray(len(pt) + 16)
        n = chacha.encrypt_into(nonce, pt, ad, buf)
        assert n == len(pt) + 16
        ct = chacha.encrypt(nonce, pt, ad)
        assert buf == ct

    @pytest.mark.parametrize(
        ("ptlen", "buflen"), [(10, 25), (10, 27), (15, 30), (20, 37)]
    )
    def test_encrypt_into_buffer_incorrect_size(self, ptlen, buflen):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        pt = b"x" * ptlen
        buf = bytearray(buflen)
        with pytest.raises(ValueError, match="buffer must be"):
            chacha.encrypt_into(nonce, pt, None, buf)

    def test_decrypt_into(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        pt = b"decrypt me"
        ad = b"additional"
        ct = chacha.encrypt(nonce, pt, ad)
        buf = bytearray(len(pt))
        n = chacha.decrypt_into(nonce, ct, ad, buf)
        assert n == len(pt)
        assert buf == pt

    @pytest.mark.parametrize(
        ("ctlen", "buflen"), [(26, 9), (26, 11), (31, 14), (36, 21)]
    )
    def test_decrypt_into_buffer_incorrect_size(self, ctlen, buflen):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        ct = b"x" * ctlen
        buf = bytearray(buflen)
        with pytest.raises(ValueError, match="buffer must be"):
            chacha.decrypt_into(nonce, ct, None, buf)

    def test_decrypt_into_invalid_tag(self):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        pt = b"some data"
        ad = b"additional"
        ct = chacha.encrypt(nonce, pt, ad)
        # Corrupt the ciphertext
        corrupted_ct = bytearray(ct)
        corrupted_ct[0] ^= 1
        buf = bytearray(len(pt))
        with pytest.raises(InvalidTag):
            chacha.decrypt_into(nonce, bytes(corrupted_ct), ad, buf)
        assert buf == bytearray(len(pt))

    @pytest.mark.parametrize("offset", [0, 1, 12, 16])
    def test_encrypt_into_overlapping_buffer(self, offset):
        key = ChaCha20Poly1305.generate_key()
        chacha = ChaCha20Poly1305(key)
        nonce = os.urandom(12)
        pt = os.urandom(1000)
        ad = b"additional"
        ct = chacha.encrypt(nonce, pt, ad)

        buf = bytearray(offset + len(pt) + 16)
        buf[: len(pt)] = pt
        with pytest.raises(ValueError, match="must not overlap"):
            chacha.encrypt_into(
                nonce, memoryview(buf)[: len(pt)], ad, memoryview(buf)[offset:]
            )

        buf = bytearray(ct + bytes(offset))
        with pytest.raises(ValueError, match="must not overlap"):
            chacha.decrypt_into(
                nonce,
                memoryview(buf)[: len(ct)],
                ad,
                memoryview(buf)[offset : offset + len(pt)],
            )

