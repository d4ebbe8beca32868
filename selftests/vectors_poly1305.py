"""Poly1305 known answers: the self-tests, the test suite
(tests/test_poly1305.py) and the native check of the assembly
(tests/asmcheck/vectors.py) read them from here.

RFC 8439 section 2.5.2 and Appendix A.3 #1-#11 (the edge cases #5-#11
carry through every limb and land near 2^130 - 5), plus two long messages
whose tags were computed with OpenSSL (through ``cryptography``) so the SIMD
paths produce a known answer too.
"""

from __future__ import annotations

from .rfc8439 import IETF_CONTRIBUTION, JABBERWOCKY, KEY_A2_3
from .vector_types import MacVector


def _pattern(n: int, a: int, b: int) -> bytes:
    return bytes((i * a + b) & 0xFF for i in range(n))


_S_A3_2 = "36e5f6b5c5e06070f0efca96227a863e"
_R1 = "01" + "00" * 31
_R2 = "02" + "00" * 31
_K10 = "01000000000000000400000000000000" + "00" * 16
_M10 = bytes.fromhex("e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
                     "0000000000000000000000000000000001000000000000000000000000000000")

#: RFC 8439 section 2.5.2 and Appendix A.3, by their names in the RFC.
RFC8439 = {
    "2.5.2": MacVector("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
                       b"Cryptographic Forum Research Group", "a8061dc1305136c6c22b8baf0c0127a9"),
    "A.3 #1": MacVector("00" * 32, bytes(64), "00" * 16),
    "A.3 #2": MacVector("00" * 16 + _S_A3_2, IETF_CONTRIBUTION, _S_A3_2),
    "A.3 #3": MacVector(_S_A3_2 + "00" * 16, IETF_CONTRIBUTION, "f3477e7cd95417af89a6b8794c310cf0"),
    "A.3 #4": MacVector(KEY_A2_3, JABBERWOCKY, "4541669a7eaaee61e708dc7cbcc5eb62"),
    "A.3 #5": MacVector(_R2, b"\xff" * 16, "03" + "00" * 15),
    "A.3 #6": MacVector("02" + "00" * 15 + "ff" * 16, b"\x02" + b"\x00" * 15, "03" + "00" * 15),
    "A.3 #7": MacVector(_R1, b"\xff" * 16 + b"\xf0" + b"\xff" * 15 + b"\x11" + b"\x00" * 15,
                        "05" + "00" * 15),
    "A.3 #8": MacVector(_R1, b"\xff" * 16 + b"\xfb" + b"\xfe" * 15 + b"\x01" * 16, "00" * 16),
    "A.3 #9": MacVector(_R2, b"\xfd" + b"\xff" * 15, "fa" + "ff" * 15),
    "A.3 #10": MacVector(_K10, _M10, "14000000000000005500000000000000"),
    "A.3 #11": MacVector(_K10, _M10[:48], "13000000000000000000000000000000"),
}

#: Long messages (every SIMD path), tags from OpenSSL.
LONG = (
    MacVector(_pattern(32, 13, 5).hex(), _pattern(1000, 7, 3),
              "5464b02676537aec53b79d002ca3cd64"),
    MacVector(_pattern(32, 13, 5)[::-1].hex(), _pattern(4133, 11, 1),
              "ce69d668f53b9da37996669e6719d860"),
)

POLY1305 = (*RFC8439.values(), *LONG)
