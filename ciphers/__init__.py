"""Built-in cipher modules (installed as ``gcrylike.ciphers``).

Each sub-package holds one algorithm family: its spec, C glue and cffi
build script, with the assembly in the repository's ``asm/`` folder.
"""

from __future__ import annotations

import importlib
import pkgutil


def builtin_modules() -> list[str]:
    """The sub-packages whose ``SPECS`` the registry loads on first use:
    every one installed (a new built-in cipher is its folder)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def builtin_specs():
    specs = []
    for name in builtin_modules():
        module = importlib.import_module(f"{__name__}.{name}")
        specs.extend(module.SPECS)
    return specs
