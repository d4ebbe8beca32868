# This file is dual licensed under the terms of the Apache License, Version
# 2.0, and the BSD License. See the LICENSE file in the root of this repository
# for complete details.
#
# Vendored into gcrylike from cryptography 51.0.1's sdist, tests/utils.py,
# trimmed to the two vector helpers test_aead.py uses.  Changed: the files
# come from ./vectors (copied unchanged from cryptography_vectors 50.0.2)
# instead of the cryptography_vectors package.

from __future__ import annotations

import os
import typing
from contextlib import contextmanager

T = typing.TypeVar("T")


@contextmanager
def _open_vector_file(filename: str, mode: str):
    path = os.path.join(os.path.dirname(__file__), "vectors", filename)
    with open(path, mode) as vector_file:
        yield vector_file


def load_vectors_from_file(
    filename: str, loader: typing.Callable[..., T], mode: str = "r"
) -> T:
    with _open_vector_file(filename, mode) as vector_file:
        return loader(vector_file)


def load_nist_vectors(vector_data: typing.Iterable[str]) -> list[dict]:
    test_data: dict[str, typing.Any] = {}
    data = []

    for line in vector_data:
        line = line.strip()

        # Blank lines, comments, and section headers are ignored
        if (
            not line
            or line.startswith("#")
            or (line.startswith("[") and line.endswith("]"))
        ):
            continue

        if line.strip() == "FAIL":
            test_data["fail"] = True
            continue

        # Build our data using a simple Key = Value format
        name, value = (c.strip() for c in line.split("="))

        # Some tests (PBKDF2) contain \0, which should be interpreted as a
        # null character rather than literal.
        value = value.replace("\\0", "\0")

        # COUNT is a special token that indicates a new block of data
        if name.upper() == "COUNT":
            test_data = {}
            data.append(test_data)
            continue
        # For all other tokens we simply want the name, value stored in
        # the dictionary
        else:
            test_data[name.lower()] = value.encode("ascii")

    return data


