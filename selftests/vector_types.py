"""The records the known answers are written in (``gcrylike.selftests.vector_types``).

Only the standard library: the known-answer modules (``vectors_*.py``) build
on these alone, so that the native check of the assembly can read them
from the source tree without the compiled package (tests/asmcheck/vectors.py
turns them into C).  :mod:`gcrylike.selftests` re-exports the public ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class StreamVector:
    """Keystream of one key and nonce (hex), as hex blocks by block number.

    ``rounds`` only labels the vector, so that variants sharing one list
    (Salsa20 and Salsa20/12) can pick theirs: no check reads it, and a
    cipher without a round count leaves the default.  ``block_size`` is the
    size of one keystream block, the unit of ``setctr``.
    """

    key: str
    nonce: str
    blocks: dict[int, str]
    rounds: int = 20
    block_size: int = 64


@dataclass(frozen=True)
class EncryptionVector:
    """A published encryption: ``plaintext`` under key and nonce (hex) from
    keystream block ``counter`` on gives ``ciphertext`` (hex)."""

    key: str
    nonce: str
    counter: int
    plaintext: bytes
    ciphertext: str


@dataclass(frozen=True)
class MacVector:
    """One MAC known answer: key and tag as hex, the message as bytes."""

    key: str
    message: bytes
    tag: str


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


@dataclass(frozen=True)
class SecretBoxVector:
    """One NaCl secretbox: key and nonce (hex), the message, and the box
    (tag || ciphertext) as hex, or for a long one only its SHA-256."""

    key: str
    nonce: str
    message: bytes
    box: str = ""
    box_sha256: str = ""


@dataclass(frozen=True)
class BlockVector:
    """One block-cipher known answer: key, plaintext and ciphertext (hex);
    the texts are one or more whole blocks."""

    key: str
    plaintext: str
    ciphertext: str


@dataclass(frozen=True)
class TweakVector:
    """One tweakable-cipher known answer: key, tweak, plaintext and
    ciphertext, all hex."""

    key: str
    tweak: str
    plaintext: str
    ciphertext: str


#: An HChaCha or HSalsa20 answer: (key, 16-byte input, rounds, 32-byte
#: output), hex.
HashAnswer = tuple[str, str, int, str]


def through_subkeys(vectors: Iterable[StreamVector],
                    hashes: Iterable[HashAnswer]) -> tuple[StreamVector, ...]:
    """The extended-nonce vectors (24-byte nonce: XChaCha, XSalsa20) whose
    subkey ``hashes`` records, as vectors of the 8-byte-nonce cipher: the
    keystream of key K and nonce N is that of the subkey H(K, N[:16]) and
    the nonce N[16:], block for block.  The others are left out."""
    table = {(key, data, rounds): out for key, data, rounds, out in hashes}
    return tuple(StreamVector(key=table[v.key, v.nonce[:32], v.rounds], nonce=v.nonce[32:],
                              blocks=dict(v.blocks), rounds=v.rounds, block_size=v.block_size)
                 for v in vectors
                 if len(v.nonce) == 48 and (v.key, v.nonce[:32], v.rounds) in table)
