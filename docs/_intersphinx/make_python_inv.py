"""Write python3.inv: a small Sphinx inventory of the Python objects these
docs refer to, pointing at docs.python.org.

The docs build offline (CI without network, tox -e docs on a plane), so
intersphinx reads this file first and the real inventory only if this one
is missing.  A new reference to a Python object that is not listed here
shows up as a nitpicky warning: add it below and run this script.
"""

from __future__ import annotations

import zlib
from pathlib import Path

STDTYPES = "library/stdtypes.html"
FUNCTIONS = "library/functions.html"
EXCEPTIONS = "library/exceptions.html"

ENTRIES = [
    # (name, role, page): the anchor is the name ("$")
    *((n, "py:class", STDTYPES) for n in
      ("bytes", "bytearray", "memoryview", "str", "list", "tuple", "dict", "set",
       "frozenset", "range")),
    *((n, "py:class", FUNCTIONS) for n in ("int", "float", "bool", "object", "type")),
    *((n, "py:function", FUNCTIONS) for n in ("len", "callable", "isinstance", "print")),
    *((n, "py:data", "library/constants.html") for n in ("None", "True", "False")),
    *((n, "py:exception", EXCEPTIONS) for n in
      ("Exception", "BaseException", "ValueError", "TypeError", "LookupError",
       "RuntimeError", "OverflowError", "AssertionError", "BufferError", "KeyError",
       "OSError", "ImportError", "Warning", "UserWarning")),
    *((f"collections.abc.{n}", "py:class", "library/collections.abc.html") for n in
      ("Callable", "Iterable", "Iterator", "Sequence", "Mapping", "Buffer")),
    ("typing.Any", "py:data", "library/typing.html"),
    ("enum.IntEnum", "py:class", "library/enum.html"),
    ("copy.copy", "py:function", "library/copy.html"),
    ("copy.deepcopy", "py:function", "library/copy.html"),
    ("os.urandom", "py:function", "library/os.html"),
    ("warnings.warn", "py:function", "library/warnings.html"),
    ("random.Random", "py:class", "library/random.html"),
    ("dataclasses.dataclass", "py:function", "library/dataclasses.html"),
    ("dataclasses.replace", "py:function", "library/dataclasses.html"),
    ("hashlib", "py:module", "library/hashlib.html"),
    ("pickle", "py:module", "library/pickle.html"),
    ("importlib.metadata", "py:module", "library/importlib.metadata.html"),
]


def main() -> None:
    lines = []
    for name, role, page in ENTRIES:
        anchor = f"module-{name}" if role == "py:module" else "$"
        lines.append(f"{name} {role} 1 {page}#{anchor} -\n")
    header = ("# Sphinx inventory version 2\n# Project: Python\n# Version: 3\n"
              "# The remainder of this file is compressed using zlib.\n")
    out = Path(__file__).with_name("python3.inv")
    out.write_bytes(header.encode() + zlib.compress("".join(lines).encode(), 9))
    print(f"{out}: {len(lines)} entries")


if __name__ == "__main__":
    main()
