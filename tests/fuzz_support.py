"""What the hypothesis tests share: bounded, reproducible settings, and a
pure-Python keystream oracle for every stream cipher variant at any counter.

Settings: derandomized (the same examples on every run and machine, no
example database), no deadline, and example counts scaled by the
environment variable ``GCRYLIKE_FUZZ_SCALE`` (default 1; e.g. 50 for a long
local run).  ``GCRYLIKE_FUZZ_RANDOM=1`` draws fresh random examples instead.
"""

from __future__ import annotations

import os
import struct
from functools import lru_cache

from hypothesis import HealthCheck, settings
from nacl_oracle import ref_hsalsa20, salsa20_rounds
from reference import M32, SIGMA, chacha_permute, hchacha

import gcrylike

SCALE = float(os.environ.get("GCRYLIKE_FUZZ_SCALE", "1"))
RANDOM = os.environ.get("GCRYLIKE_FUZZ_RANDOM", "") not in ("", "0")
TAU = struct.unpack("<4I", b"expand 16-byte k")


def bounded(max_examples: int, **extra) -> settings:
    """Settings for a fuzz test: ``max_examples`` times GCRYLIKE_FUZZ_SCALE."""
    return settings(max_examples=max(1, int(max_examples * SCALE)), deadline=None,
                    derandomize=not RANDOM, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much],
                    **extra)


def available(name: str) -> list[str]:
    return [i.driver for i in gcrylike.implementations(name) if i.available]


# -- stream ciphers: (rounds, family, extended nonce) ------------------------------------------

STREAMS = {
    "SALSA20": (20, "salsa", False), "SALSA20R12": (12, "salsa", False),
    "XSALSA20": (20, "salsa", True), "CHACHA20": (20, "chacha", False),
    "CHACHA12": (12, "chacha", False), "XCHACHA20": (20, "chacha", True),
    "XCHACHA12": (12, "chacha", True),
}


def key_words(key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Constants and eight key words (a 16-byte key is used twice)."""
    if len(key) == 16:
        return TAU, struct.unpack("<4I", key) * 2
    return SIGMA, struct.unpack("<8I", key)


def counter_bits(name: str, iv: bytes) -> int:
    """ChaCha with a 12-byte IV has a 32-bit block counter; the rest 64."""
    return 32 if STREAMS[name][1] == "chacha" and len(iv) == 12 else 64


@lru_cache(maxsize=4096)
def block(name: str, key: bytes, iv: bytes, index: int) -> bytes:
    """Keystream block ``index`` of ``name`` under ``key`` and ``iv``."""
    rounds, family, extended = STREAMS[name]
    if extended:  # the subkey of the first 16 nonce bytes, the last 8 as an 8-byte nonce
        derive = hchacha if family == "chacha" else ref_hsalsa20
        key, iv = derive(key, iv[:16], rounds), iv[16:]
    c, k = key_words(key)
    if family == "chacha":
        if len(iv) == 12:
            tail = (index, *struct.unpack("<3I", iv))
        else:
            tail = (index & M32, index >> 32, *struct.unpack("<2I", iv))
        state = [*c, *k, *tail]
        x = chacha_permute(state, rounds)
    else:
        n = struct.unpack("<2I", iv)
        state = [c[0], *k[:4], c[1], *n, index & M32, index >> 32, c[2], *k[4:], c[3]]
        x = salsa20_rounds(state, rounds)
    return struct.pack("<16I", *((a + b) & M32 for a, b in zip(x, state, strict=True)))


def keystream(name: str, key: bytes, iv: bytes, pos: int, n: int) -> bytes:
    """``n`` keystream bytes from byte position ``pos``."""
    first, last = pos // 64, (pos + n + 63) // 64
    ks = b"".join(block(name, key, iv, i) for i in range(first, last))
    return ks[pos % 64:pos % 64 + n]
