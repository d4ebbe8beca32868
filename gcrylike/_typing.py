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
from typing import TYPE_CHECKING, Protocol

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


__all__ = ["BytesLike", "Encoder"]
