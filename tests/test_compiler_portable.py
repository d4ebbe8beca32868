"""gcrylike's C says what only one compiler family understands in one
header, gcrylike/_native/compiler.h (GCC and Clang's spelling beside
MSVC's), and is otherwise ISO C11 without variable-length arrays, which
MSVC lacks.

Here: no GNU or MSVC spelling in the C of gcrylike/_native and ciphers/
outside compiler.h (comments and strings aside), and every glue file
compiles with the host's C compiler under -Wvla -Werror.  tox -e cross
compiles the same files with -Wvla -Werror for aarch64, s390x, armhf and
Windows (mingw-w64), and through clang in MSVC mode, which takes
compiler.h's MSVC branches (tests/asmcheck/cross.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "gcrylike" / "_native"
HEADER = NATIVE / "compiler.h"

#: What only one compiler family understands: GNU attributes, inline
#: assembly, builtins and extensions; MSVC's declspecs and intrinsics.
SPELLINGS = re.compile(r"\b(__attribute__|__asm__|asm\s*(?:volatile\s*)?\(|__atomic_\w+|"
                       r"__sync_\w+|__builtin_\w+|__extension__|__declspec|__typeof__|"
                       r"typeof\s*\(|_ReadWriteBarrier|_Interlocked\w+|__iso_volatile_\w+)")

#: C comments and string and character literals, which may name anything.
_NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def _arch_only(path: Path, files: list[Path]) -> bool:
    """Whether PATH is built only beside an architecture's assembly: its
    name says so (``*_amd64*``, ``*_aarch64*``), or it is a header that
    only such files include (poly1305_p44.h, the radix-2^44 arithmetic of
    both SIMD tables' set-up)."""
    if "_amd64" in path.name or "_aarch64" in path.name:
        return True
    includers = [f for f in files if f'#include "{path.name}"' in f.read_text()]
    return path.suffix == ".h" and bool(includers) and all(
        "_amd64" in f.name or "_aarch64" in f.name for f in includers)


def _sources() -> list[Path]:
    """The C of the native layer and the ciphers, but compiler.h, the C
    built only beside an architecture's assembly (ELF and SysV or AAPCS64
    targets, GCC-compatible compilers only: _arch_only) and the assembler's
    headers (asm-common-*.h)."""
    files = [*NATIVE.glob("*.[ch]"), *(ROOT / "ciphers").glob("*/*.[ch]")]
    return sorted(p for p in files if p != HEADER and not p.name.startswith("asm-common-")
                  and not _arch_only(p, files))


def _code(path: Path) -> str:
    return _NOT_CODE.sub(" ", path.read_text())


def test_the_sources_are_found():
    if not NATIVE.is_dir():
        pytest.skip("no source tree beside the tests")
    names = {p.name for p in _sources()}
    assert {"core.c", "burn.c", "fastcall.c", "common.h", "salsa20_glue.c"} <= names
    assert HEADER.is_file()


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_compiler_specific_spelling(path):
    """A GNU or MSVC spelling outside compiler.h fails: it belongs behind
    one of compiler.h's macros or functions, with the other's spelling."""
    found = sorted({m.group(1) for m in SPELLINGS.finditer(_code(path))})
    assert not found, f"{path.relative_to(ROOT)}: {found} outside gcrylike/_native/compiler.h"


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_int128_only_where_the_compiler_has_it(path):
    """unsigned __int128 (GCC and Clang on 64-bit targets) only under
    ``#ifdef __SIZEOF_INT128__``, with another way beside it."""
    code = _code(path)
    if "__int128" in code:
        assert "__SIZEOF_INT128__" in code


def test_the_scan_sees_a_spelling():
    """The scan is not blind: it finds each family's spellings, in code only."""
    sample = ('static int x __attribute__((unused)); /* __asm__ */ "__builtin_expect";\n'
              "void f (void) { _ReadWriteBarrier (); __atomic_load_n (&x, 0); }\n")
    found = {m.group(1) for m in SPELLINGS.finditer(_NOT_CODE.sub(" ", sample))}
    assert found == {"__attribute__", "_ReadWriteBarrier", "__atomic_load_n"}


def test_no_variable_length_array():
    """Every glue file, core.c and burn.c compile with -Wvla -Werror on
    this host's C compiler (fastcall.c too, with this Python's headers)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    if not NATIVE.is_dir():
        pytest.skip("no source tree beside the tests")
    incs = [f"-I{d}" for d in (NATIVE, ROOT / "asm", *sorted((ROOT / "ciphers").glob("*/")))]
    python = sysconfig.get_paths()["include"]
    sources = [p for p in _sources() if p.suffix == ".c"]
    for extra in ([], ["-DGCRY_TEST_HOOKS"]):
        for src in sources:
            more = [f"-I{python}"] if src.name == "fastcall.c" else []
            res = subprocess.run([cc, "-fsyntax-only", "-Wall", "-Wextra", "-Wvla", "-Werror",
                                  *incs, *more, *extra, str(src)],
                                 capture_output=True, text=True, check=False)
            assert res.returncode == 0, f"{src.relative_to(ROOT)} {extra}:\n{res.stderr[-2000:]}"
