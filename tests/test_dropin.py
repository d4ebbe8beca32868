"""Drop-in compatibility: code written for PyNaCl's ``nacl.secret.SecretBox``
and for cryptography's ``ChaCha20Poly1305`` runs unchanged on ours, only
the import swapped.

Each snippet below is source text run twice, once under the peer's import
lines and once under ours, with the same inputs; whatever it leaves in
``result`` must be equal byte for byte.  Snippets that draw their own
randomness (a random nonce, ``generate_key()``) return what they sealed, and
each library must open the other's messages.
"""

from __future__ import annotations

import random
import textwrap

import pytest

import gcrylike

nacl_secret = pytest.importorskip("nacl.secret")
crypto_aead = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")

NACL_IMPORTS = {
    "pynacl": "from nacl.secret import SecretBox\n"
              "from nacl.exceptions import CryptoError\n"
              "from nacl.encoding import HexEncoder\n",
    "gcrylike": "from gcrylike import SecretBox\n"
                "from gcrylike import AuthenticationFailed as CryptoError\n"
                "from nacl.encoding import HexEncoder\n",
}
CRYPTOGRAPHY_IMPORTS = {
    "cryptography": "from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305\n"
                    "from cryptography.exceptions import InvalidTag\n",
    "gcrylike": "from gcrylike import ChaCha20Poly1305\n"
                "from gcrylike import AuthenticationFailed as InvalidTag\n",
}


def run_both(imports: dict[str, str], snippet: str, **inputs: object) -> dict[str, object]:
    """``snippet`` under each import block, with ``inputs`` as globals:
    each run's ``result`` by library."""
    body = textwrap.dedent(snippet)
    results = {}
    for lib, header in imports.items():
        env: dict[str, object] = dict(inputs)
        exec(compile(header + body, f"<snippet under {lib}>", "exec"), env)
        results[lib] = env["result"]
    return results


def same_bytes(results: dict[str, object]) -> None:
    theirs, ours = results.values()
    assert type(ours) is type(theirs)
    assert ours == theirs


def inputs(seed: str, n: int = 300) -> dict[str, bytes]:
    rng = random.Random(seed)
    return {"key": rng.randbytes(32), "nonce24": rng.randbytes(24),
            "nonce12": rng.randbytes(12), "data": rng.randbytes(n), "aad": rng.randbytes(17)}


# ---------------------------------------------------------------------------
# PyNaCl: nacl.secret.SecretBox
# ---------------------------------------------------------------------------

NACL_FIXED_NONCE = """
box = SecretBox(key)
encrypted = box.encrypt(data, nonce24)
assert len(encrypted) == len(data) + box.NONCE_SIZE + box.MACBYTES
result = [bytes(encrypted), encrypted.nonce, encrypted.ciphertext,
          box.decrypt(encrypted), box.decrypt(encrypted.ciphertext, encrypted.nonce),
          box.decrypt(bytes(encrypted)),
          SecretBox.KEY_SIZE, SecretBox.NONCE_SIZE, SecretBox.MACBYTES,
          SecretBox.MESSAGEBYTES_MAX]
for n in (0, 1, 16, 17, 64, 4096 + 33):
    m = box.encrypt(data[:n] * (1 + n // 300), nonce24)
    result += [bytes(m), box.decrypt(m)]
"""

NACL_FORGERY = """
box = SecretBox(key)
encrypted = bytearray(box.encrypt(data, nonce24))
result = []
for i in (0, 23, 24, 39, 40, len(encrypted) - 1):   # nonce, tag and ciphertext
    forged = bytearray(encrypted)
    forged[i] ^= 0x10
    try:
        box.decrypt(bytes(forged))
        result.append("opened")
    except CryptoError:
        result.append("refused")
try:
    SecretBox(key).decrypt(bytes(encrypted), nonce24[:1] + bytes(23))
except CryptoError:
    result.append("wrong nonce refused")
"""

NACL_ENCODED = """
box = SecretBox(HexEncoder.encode(key), encoder=HexEncoder)
encrypted = box.encrypt(data, nonce24, encoder=HexEncoder)
result = [bytes(encrypted), encrypted.nonce, encrypted.ciphertext,
          box.decrypt(encrypted, encoder=HexEncoder)]
"""

NACL_RANDOM_NONCE = """
box = SecretBox(key)
result = [bytes(box.encrypt(data[:n])) for n in (0, 1, 100, 300)]
assert len({m[:24] for m in result}) == 4
"""


def test_pynacl_snippet_fixed_nonce():
    results = run_both(NACL_IMPORTS, NACL_FIXED_NONCE, **inputs("nacl-fixed"))
    same_bytes(results)


def test_pynacl_snippet_forgeries():
    results = run_both(NACL_IMPORTS, NACL_FORGERY, **inputs("nacl-forged"))
    same_bytes(results)
    assert results["gcrylike"] == ["refused"] * 6 + ["wrong nonce refused"]


def test_pynacl_snippet_with_an_encoder():
    same_bytes(run_both(NACL_IMPORTS, NACL_ENCODED, **inputs("nacl-hex")))


def test_pynacl_snippet_random_nonce_opens_across():
    given = inputs("nacl-random")
    results = run_both(NACL_IMPORTS, NACL_RANDOM_NONCE, **given)
    theirs, ours = nacl_secret.SecretBox(given["key"]), gcrylike.SecretBox(given["key"])
    want = [given["data"][:n] for n in (0, 1, 100, 300)]
    assert [ours.decrypt(m) for m in results["pynacl"]] == want
    assert [theirs.decrypt(m) for m in results["gcrylike"]] == want


# ---------------------------------------------------------------------------
# cryptography: ChaCha20Poly1305
# ---------------------------------------------------------------------------

CRYPTOGRAPHY_FIXED = """
chacha = ChaCha20Poly1305(key)
ct = chacha.encrypt(nonce12, data, aad)
result = [ct, chacha.decrypt(nonce12, ct, aad),
          chacha.encrypt(nonce12, data, None),
          chacha.encrypt(nonce12, data, associated_data=aad),
          chacha.decrypt(nonce12, ct, associated_data=aad),
          chacha.encrypt(nonce12, b"", None), chacha.encrypt(bytearray(nonce12), data, b"")]
buf = bytearray(len(data) + 16)
result += [chacha.encrypt_into(nonce12, data, aad, buf), bytes(buf)]
plain = bytearray(len(data))
result += [chacha.decrypt_into(nonce12, bytes(buf), aad, plain), bytes(plain)]
"""

CRYPTOGRAPHY_FORGERY = """
chacha = ChaCha20Poly1305(key)
ct = chacha.encrypt(nonce12, data, aad)
result = []
for forged_ct, forged_aad in ((ct[:-1] + bytes([ct[-1] ^ 1]), aad), (ct, aad + b"x"),
                              (ct[:5], aad)):
    try:
        chacha.decrypt(nonce12, forged_ct, forged_aad)
        result.append("opened")
    except InvalidTag:
        result.append("refused")
for bad_nonce in (nonce12[:8], nonce12 + b"1234"):
    try:
        chacha.encrypt(bad_nonce, data, aad)
    except ValueError:
        result.append("nonce length refused")
try:
    ChaCha20Poly1305(key[:16])
except ValueError:
    result.append("key length refused")
try:
    chacha.encrypt(nonce12, "text", aad)
except TypeError:
    result.append("str refused")
"""

CRYPTOGRAPHY_GENERATED_KEY = """
key = ChaCha20Poly1305.generate_key()
assert isinstance(key, bytes) and len(key) == 32
result = (key, ChaCha20Poly1305(key).encrypt(nonce12, data, aad))
"""


def test_cryptography_snippet_fixed():
    same_bytes(run_both(CRYPTOGRAPHY_IMPORTS, CRYPTOGRAPHY_FIXED, **inputs("crypto-fixed")))


def test_cryptography_snippet_forgeries_and_refusals():
    results = run_both(CRYPTOGRAPHY_IMPORTS, CRYPTOGRAPHY_FORGERY, **inputs("crypto-forged"))
    same_bytes(results)
    assert results["gcrylike"] == ["refused"] * 3 + ["nonce length refused"] * 2 + [
        "key length refused", "str refused"]


def test_cryptography_snippet_generated_key_opens_across():
    given = inputs("crypto-key")
    results = run_both(CRYPTOGRAPHY_IMPORTS, CRYPTOGRAPHY_GENERATED_KEY, **given)
    for key, ct in results.values():
        for cls in (crypto_aead.ChaCha20Poly1305, gcrylike.ChaCha20Poly1305):
            assert cls(key).decrypt(given["nonce12"], ct, given["aad"]) == given["data"]


# ---------------------------------------------------------------------------
# The API surface each peer's users reach for
# ---------------------------------------------------------------------------

def test_aead_constants_and_generate_key():
    for cls, nonce in ((gcrylike.ChaCha20Poly1305, 12), (gcrylike.XChaCha20Poly1305, 24)):
        assert (cls.KEY_SIZE, cls.NONCE_SIZE, cls.TAG_SIZE) == (32, nonce, 16)
        keys = {cls.generate_key() for _ in range(4)}
        assert len(keys) == 4 and all(type(k) is bytes and len(k) == 32 for k in keys)
        with cls(keys.pop()) as box:
            assert box.decrypt(bytes(nonce), box.encrypt(bytes(nonce), b"hi")) == b"hi"


def test_method_names_cover_the_peers():
    def public(cls: type) -> set[str]:
        return {n for n in dir(cls) if not n.startswith("_")}

    assert public(crypto_aead.ChaCha20Poly1305) <= public(gcrylike.ChaCha20Poly1305)
    assert public(crypto_aead.ChaCha20Poly1305) <= public(gcrylike.XChaCha20Poly1305)
    # PyNaCl's SecretBox: everything but its Encodable mixin's encode()
    assert public(nacl_secret.SecretBox) - {"encode"} <= public(gcrylike.SecretBox)


@pytest.mark.parametrize("cls,nonce", [(gcrylike.ChaCha20Poly1305, 12),
                                       (gcrylike.XChaCha20Poly1305, 24)])
def test_into_calls(cls, nonce):
    rng = random.Random(f"into/{cls.__name__}")
    key, iv, aad = rng.randbytes(32), rng.randbytes(nonce), rng.randbytes(9)
    with cls(key) as box:
        for n in (0, 1, 63, 64, 1000, 5000):
            data = rng.randbytes(n)
            want = box.encrypt(iv, data, aad)
            buf = bytearray(n + 16)
            assert box.encrypt_into(iv, data, aad, buf) == n + 16 and buf == want
            plain = bytearray(n)
            assert box.decrypt_into(iv, want, aad, memoryview(plain)) == n and plain == data
            # in place: the message at the front of the buffer, the tag after it
            whole = bytearray(data) + bytearray(16)
            box.encrypt_into(iv, memoryview(whole)[:n], aad, whole)
            assert whole == want
            box.decrypt_into(iv, whole, aad, memoryview(whole)[:n])
            assert whole[:n] == data
        for wrong in (0, 4, 15, 17):
            with pytest.raises(gcrylike.InvalidLength):
                box.encrypt_into(iv, b"ab", None, bytearray(wrong))
        with pytest.raises(gcrylike.InvalidLength):
            box.decrypt_into(iv, box.encrypt(iv, b"ab"), None, bytearray(3))
        with pytest.raises(gcrylike.ReadOnlyBuffer):
            box.encrypt_into(iv, b"ab", None, bytes(18))
        with pytest.raises(gcrylike.InvalidIVLength):
            box.encrypt_into(iv[:-1], b"ab", None, bytearray(18))
        with pytest.raises(gcrylike.AuthenticationFailed):
            box.decrypt_into(iv, bytes(15), None, bytearray(0))
        forged = bytearray(box.encrypt(iv, b"secret", aad))
        forged[0] ^= 1
        out = bytearray(b"\xee" * 6)
        with pytest.raises(gcrylike.AuthenticationFailed):
            box.decrypt_into(iv, forged, aad, out)
        assert out == b"\xee" * 6  # nothing released: left as it was


def test_xchacha_matches_pynacl_bindings():
    from nacl.bindings import crypto_aead_xchacha20poly1305_ietf_encrypt as seal

    rng = random.Random("xchacha-nacl")
    for n in (0, 1, 100, 5000):
        key, nonce, aad, data = (rng.randbytes(32), rng.randbytes(24), rng.randbytes(5),
                                 rng.randbytes(n))
        want = seal(data, aad, nonce, key)
        box = gcrylike.XChaCha20Poly1305(key)
        assert box.encrypt(nonce, data, aad) == want
        assert box.decrypt(nonce, want, associated_data=aad) == data
