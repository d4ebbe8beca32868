"""Built-in cipher modules (installed as ``gcrylike.ciphers``).

Each sub-package holds one algorithm family: its spec, C glue and cffi
build script, with the assembly in the repository's ``asm/`` folder.
"""

from __future__ import annotations

import importlib

#: Sub-packages whose ``SPECS`` the registry loads on first use.
BUILTIN_MODULES = (
    "salsa20", "chacha", "poly1305", "chacha20poly1305", "nhpoly1305", "aes", "adiantum",
    "secretbox",
)


def builtin_specs():
    specs = []
    for name in BUILTIN_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        specs.extend(module.SPECS)
    return specs
