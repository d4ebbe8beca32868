"""ChaCha20-Poly1305 and XChaCha20-Poly1305 known answers: the self-tests and
the test suite (tests/test_aead.py) read them from here.

RFC 8439 section 2.8.2 and Appendix A.5, and draft-irtf-cfrg-xchacha-03
Appendix A.3.1 (the "sunscreen" message), plus long messages whose tags
were computed with OpenSSL (``cryptography``) and pycryptodome, so the
stitched SIMD paths produce a known answer too.
"""

from __future__ import annotations

from .rfc8439 import KEY_A2_3, SUNSCREEN
from .vector_types import AeadVector


def _pattern(n: int, a: int, b: int) -> bytes:
    return bytes((i * a + b) & 0xFF for i in range(n))


_KEY = bytes(range(0x80, 0xA0))
_AAD = bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
_DRAFTS = ("Internet-Drafts are draft documents valid for a maximum of six months and may be "
           "updated, replaced, or obsoleted by other documents at any time. It is "
           "inappropriate to use Internet-Drafts as reference material or to cite them other "
           "than as /\u201cwork in progress./\u201d").encode()

#: RFC 8439 section 2.8.2 and Appendix A.5, by their names in the RFC.
RFC8439 = {
    "2.8.2": AeadVector(
        _KEY, bytes.fromhex("070000004041424344454647"), _AAD, SUNSCREEN,
        "1ae10b594f09e26a7e902ecbd0600691",
        ciphertext=(
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
            "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
            "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
            "3ff4def08e4b7a9de576d26586cec64b6116"
        ),
    ),
    "A.5": AeadVector(
        bytes.fromhex(KEY_A2_3), bytes.fromhex("000000000102030405060708"),
        bytes.fromhex("f33388860000000000004e91"), _DRAFTS,
        "eead9d67890cbb22392336fea1851f38",
        ciphertext=(
            "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2"
            "4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf"
            "332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855"
            "9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4"
            "b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
            "af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a"
            "0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10"
            "49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29"
            "a6ad5cb4022b02709b"
        ),
    ),
}

#: draft-irtf-cfrg-xchacha-03 Appendix A.3.1.
XCHACHA_DRAFT = AeadVector(
    _KEY, bytes(range(0x40, 0x58)), _AAD, SUNSCREEN,
    "c0875924c1c7987947deafd8780acf49",
    ciphertext=(
        "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
        "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
        "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
        "21f9664c97637da9768812f615c68b13b52e"
    ),
)

CHACHA20_POLY1305 = (
    *RFC8439.values(),
    AeadVector(_pattern(32, 13, 5), _pattern(12, 5, 9), _pattern(37, 3, 1),
               _pattern(5000, 7, 3), "22798e49806e8b9b687a539046724253"),
)

XCHACHA20_POLY1305 = (
    XCHACHA_DRAFT,
    AeadVector(_pattern(32, 13, 5), _pattern(24, 5, 9), _pattern(37, 3, 1),
               _pattern(5000, 7, 3), "006d3adb382389788c3ead495cd04a02"),
)
