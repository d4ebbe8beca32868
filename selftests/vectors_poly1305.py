"""Poly1305 known answers for the self-tests.

RFC 8439 section 2.5.2 and Appendix A.3 (#2, and the edge cases #5-#11 that
carry through every limb and land near 2^130 - 5), plus two long messages
whose tags were computed with OpenSSL (through ``cryptography``) so the SIMD
paths produce a known answer too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MacVector:
    """One MAC known answer: key and tag as hex, the message as bytes."""

    key: str
    message: bytes
    tag: str


def _pattern(n: int, a: int, b: int) -> bytes:
    return bytes((i * a + b) & 0xFF for i in range(n))


_IETF = (b"Any submission to the IETF intended by the Contributor for publication as all or "
         b"part of an IETF Internet-Draft or RFC and any statement made within the context "
         b"of an IETF activity is considered an \"IETF Contribution\". Such statements include "
         b"oral statements in IETF sessions, as well as written and electronic communications "
         b"made at any time or place, which are addressed to")
_R1 = "01" + "00" * 31
_R2 = "02" + "00" * 31
_K10 = "01000000000000000400000000000000" + "00" * 16
_M10 = bytes.fromhex("e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
                     "0000000000000000000000000000000001000000000000000000000000000000")

POLY1305 = (
    MacVector("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
              b"Cryptographic Forum Research Group", "a8061dc1305136c6c22b8baf0c0127a9"),
    MacVector("00" * 16 + "36e5f6b5c5e06070f0efca96227a863e", _IETF,
              "36e5f6b5c5e06070f0efca96227a863e"),
    MacVector(_R2, b"\xff" * 16, "03" + "00" * 15),
    MacVector("02" + "00" * 15 + "ff" * 16, b"\x02" + b"\x00" * 15, "03" + "00" * 15),
    MacVector(_R1, b"\xff" * 16 + b"\xf0" + b"\xff" * 15 + b"\x11" + b"\x00" * 15,
              "05" + "00" * 15),
    MacVector(_R1, b"\xff" * 16 + b"\xfb" + b"\xfe" * 15 + b"\x01" * 16, "00" * 16),
    MacVector(_R2, b"\xfd" + b"\xff" * 15, "fa" + "ff" * 15),
    MacVector(_K10, _M10, "14000000000000005500000000000000"),
    MacVector(_K10, _M10[:48], "13000000000000000000000000000000"),
    MacVector(_pattern(32, 13, 5).hex(), _pattern(1000, 7, 3),
              "5464b02676537aec53b79d002ca3cd64"),
    MacVector(_pattern(32, 13, 5)[::-1].hex(), _pattern(4133, 11, 1),
              "ce69d668f53b9da37996669e6719d860"),
)
