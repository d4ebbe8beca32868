"""Measured figures live in the docs (and the commit messages), not in code
comments: a comment says why the code is as it is and names the docs section
that holds the figure (for example ``docs/algorithms.rst, "Adiantum",
per-sector cost``).  Copies of one measurement in several comments drift
apart: before this check one 4 KiB Adiantum sector was 2179, 2300, 2330,
2370 and 2390 ticks in five files.

The check reads the comments and docstrings of the shipped sources and build
files (``gcrylike/``, ``ciphers/``, ``asm/``, ``selftests/``,
``build_tools/``, ``setup.py``) from the source tree beside the tests (a
checkout or an unpacked sdist), and fails on every timing it finds: a number
followed by ns, us, ticks, cycles, c/B, MB/s or GB/s, a ratio such as "x1.2
of" or "1.2x faster", or a percentage such as "3% faster".  Constants that
define behaviour (a threshold, a size) are code, not measurements; counts of
instructions or operations are properties of the code, not timings."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What is scanned, relative to the root: folders (recursively) and files.
SCANNED = ("gcrylike", "ciphers", "asm", "selftests", "build_tools", "setup.py")
SUFFIXES = (".py", ".c", ".h", ".S")

#: Matches that are not measurements: (file, matched text) -> why.
ALLOWED: dict[tuple[str, str], str] = {}

_NUM = r"\d+(?:[.,]\d+)*"
_RANGE = rf"~?{_NUM}(?:\s*(?:-|/|to)\s*{_NUM})?"
MEASUREMENT = re.compile(
    # a figure with a time unit: 250 ns, 2179 ticks, 0.412 TSC ticks/B, 1.09 cycles/byte
    rf"(?<![\w.]){_RANGE}\s*(?:(?:TSC|core|CPU)\s+)?(?:ns|us|µs|ticks?|cycles?|c/B|cpb"
    r"|[KMG]i?B/s)(?![\w])"
    # a ratio: x1.06 of OpenSSL, x1.06-1.09 of, 1.2x faster
    r"|(?<![\w.])x\d+(?:\.\d+)?(?:\s*-\s*x?\d+(?:\.\d+)?)?\s+of\b"
    r"|(?<![\w.])\d+(?:\.\d+)?\s?x\s+(?:faster|slower|of)\b"
    # a percentage of speed: ~3% faster, 12% less, 0.7% of its time
    r"|(?<![\w.])~?\d+(?:\.\d+)?\s?%\s+(?:faster|slower|more|less|fewer|of)\b",
    re.IGNORECASE,
)

_DECORATION = re.compile(r"^\s*(?:/\*+|//+|\*+(?!/)|#+:?)?\s?")


def source_files() -> list[str]:
    found: list[str] = []
    for entry in SCANNED:
        path = ROOT / entry
        paths = [path] if path.is_file() else sorted(path.rglob("*"))
        found += [p.relative_to(ROOT).as_posix() for p in paths
                  if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts]
    return found


def _c_comments(text: str) -> Iterator[tuple[int, str]]:
    """``/* */`` and ``//`` comments of C or preprocessed assembly, with their
    first line; string and character literals are skipped."""
    i, line, n = 0, 1, len(text)
    while i < n:
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text[i] in "\"'":
            end = i + 1
            while end < n and text[end] not in (text[i], "\n"):
                end += 2 if text[end] == "\\" else 1
            line += text.count("\n", i, end)
            i = end + 1
            continue
        else:
            line += text[i] == "\n"
            i += 1
            continue
        yield line, text[i:end]
        line += text.count("\n", i, end)
        i = end


def _py_comments(text: str) -> Iterator[tuple[int, str]]:
    """``#`` comments (consecutive lines as one block) and docstrings, and any
    other string that stands alone as a statement."""
    block: list[str] = []
    start = last = 0
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type != tokenize.COMMENT:
            continue
        row = tok.start[0]
        if block and row != last + 1:
            yield start, "\n".join(block)
            block = []
        if not block:
            start = row
        block.append(tok.string)
        last = row
    if block:
        yield start, "\n".join(block)
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        for stmt in body if isinstance(body, list) else ():  # a lambda's is an expression
            if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)):
                yield stmt.lineno, stmt.value.value


def comments(rel: str, text: str) -> Iterator[tuple[int, str]]:
    return _py_comments(text) if rel.endswith(".py") else _c_comments(text)


def measurements(first_line: int, comment: str) -> Iterator[tuple[int, str]]:
    """(line, matched text) of every figure in one comment; the comment's
    lines are joined, so a figure broken over two lines is found too."""
    joined, starts = "", []
    for line in comment.split("\n"):
        starts.append(len(joined))
        joined += _DECORATION.sub("", line, count=1).rstrip().removesuffix("*/") + " "
    for m in MEASUREMENT.finditer(joined):
        row = sum(1 for s in starts if s <= m.start()) - 1
        yield first_line + row, " ".join(m.group().split())


def findings(rel: str, text: str) -> list[str]:
    found = sorted((line, figure) for first, comment in comments(rel, text)
                   for line, figure in measurements(first, comment)
                   if (rel, figure) not in ALLOWED)
    return [f"{rel}:{line}: {figure!r}" for line, figure in found]


def _skip_reason() -> str | None:
    if not (ROOT / "gcrylike" / "_native").is_dir() or not (ROOT / "asm").is_dir():
        return "the sources (gcrylike/_native/, asm/) are not beside the tests"
    return None


needs_sources = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))


@needs_sources
def test_no_measurements_in_code_comments():
    files = source_files()
    assert len(files) > 50, files  # the walk found the tree
    found = [f for rel in files for f in findings(rel, (ROOT / rel).read_text(encoding="utf-8"))]
    assert not found, (
        "measured figures in code comments: move each to the docs section that "
        "holds it and point there (see this test's docstring):\n" + "\n".join(found))


@needs_sources
def test_allowed_entries_exist():
    """An allowed entry whose file is gone is stale: drop it."""
    stale = [rel for rel, _ in ALLOWED if not (ROOT / rel).is_file()]
    assert not stale, stale


@pytest.mark.parametrize("comment, expected", [
    ("/* dependent block steps (60 of its 2390 ticks). */", ["2390 ticks"]),
    ("/* ~250 ns before any work */", ["~250 ns"]),
    ("/* (about 42 TSC\n * ticks a double round) */", ["42 TSC ticks"]),
    ("/* 1024 blocks: 0.412 TSC ticks/B against 0.434 */", ["0.412 TSC ticks"]),
    ("/* 1.09 cycles/byte at 20 rounds */", ["1.09 cycles"]),
    ("/* 0.17 c/B, 950 MB/s, 1.2 GiB/s */", ["0.17 c/B", "950 MB/s", "1.2 GiB/s"]),
    ("/* measured ~3% faster than interleaving */", ["~3% faster"]),
    ("/* x1.06-1.09 of OpenSSL; 2x faster */", ["x1.06-1.09 of", "2x faster"]),
    ("/* 17 zmm operations for 32 products; 4 x u64 each */", []),
    ("/* a chain of four dependent instructions; 2^26 limbs */", []),
    ("/* 16 KiB buffers, 64-byte blocks, 8 KiB threshold */", []),
])
def test_the_pattern(comment, expected):
    """The pattern finds figures (also split over lines) and leaves sizes,
    counts and exponents alone."""
    assert [text for _, text in measurements(1, comment)] == expected


def test_python_comments_and_docstrings_are_read():
    text = ('"""Module: ~250 ns a call."""\n'
            "def f():\n"
            '    """about 40\n    ns"""\n'
            "    x = '5 ns'  # not a comment: the string; this is: 7 us\n"
            "    # split over\n"
            "    # lines: 12 ticks\n")
    assert findings("m.py", text) == ["m.py:1: '~250 ns'", "m.py:3: '40 ns'",
                                      "m.py:5: '7 us'", "m.py:7: '12 ticks'"]
