"""ChaCha20-Poly1305 and XChaCha20-Poly1305 known answers for the self-tests.

RFC 8439 section 2.8.2 and draft-irtf-cfrg-xchacha-03 Appendix A.3.1 (the
"sunscreen" message), plus long messages whose tags were computed with
OpenSSL (``cryptography``) and pycryptodome, so the stitched SIMD paths
produce a known answer too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AeadVector:
    """One AEAD known answer: key, nonce, associated data and plaintext as
    bytes; the tag (and the ciphertext, if recorded) as hex."""

    key: bytes
    nonce: bytes
    aad: bytes
    plaintext: bytes
    tag: str
    ciphertext: str = ""  # hex; empty when only the tag is recorded


def _pattern(n: int, a: int, b: int) -> bytes:
    return bytes((i * a + b) & 0xFF for i in range(n))


_KEY = bytes(range(0x80, 0xA0))
_AAD = bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
_SUNSCREEN = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one "
              b"tip for the future, sunscreen would be it.")

CHACHA20_POLY1305 = (
    AeadVector(
        _KEY, bytes.fromhex("070000004041424344454647"), _AAD, _SUNSCREEN,
        "1ae10b594f09e26a7e902ecbd0600691",
        ciphertext=(
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
            "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
            "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
            "3ff4def08e4b7a9de576d26586cec64b6116"
        ),
    ),
    AeadVector(_pattern(32, 13, 5), _pattern(12, 5, 9), _pattern(37, 3, 1),
               _pattern(5000, 7, 3), "22798e49806e8b9b687a539046724253"),
)

XCHACHA20_POLY1305 = (
    AeadVector(
        _KEY, bytes(range(0x40, 0x58)), _AAD, _SUNSCREEN,
        "c0875924c1c7987947deafd8780acf49",
        ciphertext=(
            "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
            "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
            "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
            "21f9664c97637da9768812f615c68b13b52e"
        ),
    ),
    AeadVector(_pattern(32, 13, 5), _pattern(24, 5, 9), _pattern(37, 3, 1),
               _pattern(5000, 7, 3), "006d3adb382389788c3ead495cd04a02"),
)
