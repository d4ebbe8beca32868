"""The C that gcrylike installs for plugin authors (the directory of
gcrylike.get_include(): the headers and burn.c) names only files they have.

A plugin author reads these headers from the installed package, not from
gcrylike's repository, so a comment that sends them to ``tests/asmcheck/
rows.c`` or ``chacha_glue.c`` points nowhere (issue 22).  The check lists
what is installed beside what the source tree beside the tests holds (a
checkout or an unpacked sdist) and fails on every file name or path in the
shipped C that is only in the source tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gcrylike

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(gcrylike.__file__).resolve().parent
INCLUDE = Path(gcrylike.get_include()).resolve()

#: Folders of the source tree that are never file names a comment means.
_NOT_SOURCE = {".git", ".tox", "build", "dist", "__pycache__"}

#: A file name or path as a comment writes it: ``rows.c``,
#: ``tests/asmcheck/rows.c``, ``tests/native/``.
_PATHLIKE = re.compile(r"[\w.-]+(?:/[\w.-]*)*")


def _files(top: Path) -> set[str]:
    return {p.relative_to(top).as_posix() for p in top.rglob("*")
            if p.is_file() and not _NOT_SOURCE & set(p.relative_to(top).parts)
            and not any(part.endswith(".egg-info") for part in p.parts)}


def _shipped_c() -> list[Path]:
    return sorted(p for p in INCLUDE.iterdir() if p.suffix in (".h", ".c"))


def test_every_header_of_the_source_is_installed():
    """The installed include directory holds exactly the source's headers
    and burn.c (pyproject.toml's package data): the rest of the C, the
    modules' glue and core, stays in the source tree."""
    source = ROOT / "gcrylike" / "_native"
    if not source.is_dir():
        pytest.skip("no source tree beside the tests")
    expected = {p.name for p in source.glob("*.h")} | {"burn.c"}
    assert {p.name for p in _shipped_c()} == expected
    assert (source / "core.c").is_file() and not (INCLUDE / "core.c").exists()


def _source_only() -> tuple[set[str], set[str]]:
    """(paths, names) of the source tree's files and folders that are not
    installed: a path relative to the root, a bare file name."""
    installed = _files(PACKAGE)
    installed_names = {Path(p).name for p in installed}
    source = _files(ROOT)
    paths = {p for p in source if not _is_installed(p, installed)}
    folders = {Path(*Path(p).parts[:i]).as_posix()
               for p in paths for i in range(1, len(Path(p).parts))}
    folders = {f for f in folders if not (PACKAGE.parent / f).is_dir()
               and not (PACKAGE / f).is_dir()}
    names = {Path(p).name for p in paths if "." in Path(p).name} - installed_names
    return paths | folders, names


def _is_installed(path: str, installed: set[str]) -> bool:
    # the package's own files (gcrylike/_errors.py), and the folders that
    # setuptools installs inside it (selftests/ as gcrylike/selftests/)
    inside = path.removeprefix("gcrylike/")
    return inside in installed


def test_shipped_c_names_no_source_only_file():
    if not (ROOT / "gcrylike" / "_native").is_dir():
        pytest.skip("no source tree beside the tests")
    paths, names = _source_only()
    found = []
    for header in _shipped_c():
        for number, line in enumerate(header.read_text().splitlines(), 1):
            for token in _PATHLIKE.findall(line):
                token = token.rstrip(".,;:")
                # a path has a slash ("tests/native/"); a bare word is a file
                # name only with its extension
                if token.rstrip("/") in paths if "/" in token else token in names:
                    found.append(f"{header.name}:{number}: {token}")
    assert found == [], ("a plugin author has no such file; say what it does, or "
                         "\"gcrylike's own ... (in its source tree)\": " + "; ".join(found))
