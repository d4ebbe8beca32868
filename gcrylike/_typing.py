"""Types of the public signatures, without a runtime dependency.

``BytesLike`` is anything with the buffer protocol (``bytes``,
``bytearray``, ``memoryview``, ``array.array``, numpy arrays, ``mmap``):
``collections.abc.Buffer`` on Python 3.12+.  Before 3.12 the buffer
protocol has no Python-level type; type checkers then read
``typing_extensions.Buffer``, which they ship in their own stubs, and at run
time the name stands for the common bytes-like types (only introspection
sees it: every module here postpones its annotations).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Literal, Protocol

if sys.version_info >= (3, 12):
    from collections.abc import Buffer as BytesLike
elif TYPE_CHECKING:
    from typing_extensions import Buffer as BytesLike
else:
    BytesLike = bytes | bytearray | memoryview


class Encoder(Protocol):
    """PyNaCl's encoder shape (``nacl.encoding.RawEncoder``, ``HexEncoder``,
    ``Base64Encoder``, ...): usually a class with two static methods, passed
    as the class itself."""

    def encode(self, data: bytes, /) -> bytes:
        """Raw bytes to their encoding."""
        ...

    def decode(self, data: bytes, /) -> bytes:
        """An encoding back to the raw bytes."""
        ...


# The built-in names, for cipher_open's overloads: a literal one of these
# gives the exact handle class (tests/test_typing.py keeps them in step
# with the registry); any other name types as either handle.
StreamName = Literal[
    "SALSA20", "salsa20", "salsa20/20", "SALSA20R12", "salsa20r12", "salsa20/12", "salsa20-12",
    "CHACHA20", "chacha20", "chacha20-ietf", "chacha", "CHACHA12", "chacha12",
    "XCHACHA20", "xchacha20", "XCHACHA12", "xchacha12", "XSALSA20", "xsalsa20", "xsalsa20/20",
]
AeadName = Literal["CHACHA20-POLY1305", "chacha20-poly1305",
                   "XCHACHA20-POLY1305", "xchacha20-poly1305"]
StreamMode = Literal["stream", "STREAM"]
AeadMode = Literal["poly1305", "POLY1305"]

__all__ = ["AeadMode", "AeadName", "BytesLike", "Encoder", "StreamMode", "StreamName"]
