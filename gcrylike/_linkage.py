"""A composite module's components, handed over once when it loads.

Each built-in routine is compiled into one extension module, its
component's; a composite's C reaches it through the table of function
pointers the component exports (gcrylike/_native/linkage.h).  Python is
what knows both modules, so it passes each table's address from the one to
the other, before the composite's module is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ._errors import check

IMPORT = "gcry_import_"
EXPORT = "gcry_export_"


def installed_component(part: str) -> Any:
    """The installed module of component PART (``chacha``: gcrylike.ciphers.chacha._chacha)."""
    return importlib.import_module(f"gcrylike.ciphers.{part}._{part}")


def import_components(ffi: Any, lib: Any,
                      find: Callable[[str], Any] = installed_component) -> None:
    """Give LIB every component table it imports (its ``gcry_import_*``
    functions), each from the module FIND returns for that component."""
    for name in dir(lib):
        if name.startswith(IMPORT):
            part = name[len(IMPORT):]
            exporter = find(part)
            table = getattr(exporter.lib, EXPORT + part)()
            address = int(exporter.ffi.cast("uintptr_t", table))
            check(getattr(lib, name)(ffi.cast("const void *", address)), f"import of {part}")
