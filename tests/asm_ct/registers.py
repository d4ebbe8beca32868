"""x86-64 register names: general registers by their 64-bit name and width,
and which names are vector or mask registers."""

from __future__ import annotations

import re

# name -> (64-bit register, width in bytes)
GPR: dict[str, tuple[str, int]] = {}
for _r in "abcd":
    GPR.update({f"r{_r}x": (f"r{_r}x", 8), f"e{_r}x": (f"r{_r}x", 4), f"{_r}x": (f"r{_r}x", 2),
                f"{_r}l": (f"r{_r}x", 1), f"{_r}h": (f"r{_r}x", 1)})
for _r in ("si", "di", "bp", "sp"):
    GPR.update({f"r{_r}": (f"r{_r}", 8), f"e{_r}": (f"r{_r}", 4), _r: (f"r{_r}", 2),
                f"{_r}l": (f"r{_r}", 1)})
for _n in range(8, 16):
    GPR.update({f"r{_n}": (f"r{_n}", 8), f"r{_n}d": (f"r{_n}", 4), f"r{_n}w": (f"r{_n}", 2),
                f"r{_n}b": (f"r{_n}", 1)})

ALL_GPRS = sorted({full for full, _ in GPR.values()})

# the SysV AMD64 argument registers, in order
ARGUMENTS = ("rdi", "rsi", "rdx", "rcx", "r8", "r9")

_VECTOR = re.compile(r"^(?:[xyz]mm\d+|k[0-7]|mm[0-7])$")
VECTOR_BYTES = {"x": 16, "y": 32, "z": 64}


def is_vector(name: str) -> bool:
    return bool(_VECTOR.match(name))


def vector_bytes(name: str) -> int:
    """The bytes a store from this register can write (at most)."""
    return VECTOR_BYTES.get(name[0], 8)
