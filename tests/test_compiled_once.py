"""Each routine is compiled into one installed extension module.

A composite (the AEADs, secretbox, NHPoly1305, Adiantum) reaches its
components' routines through the tables they export
(gcrylike/_native/linkage.h) instead of compiling their C and assembly
again.  Read from the installed modules' symbol tables (``nm``): every
routine of ``asm/*.S`` is defined in exactly one of them and no external
function of ``ciphers/*/*.c`` in two; the shared C every module includes
(gcrylike/_native/burn.c) is the one thing they all have.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import gcrylike

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(gcrylike.__file__).parent

pytestmark = pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")


def installed_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.so") if not p.name.startswith("_fastcall"))


def defined_functions(module: Path) -> set[str]:
    out = subprocess.run(["nm", "--defined-only", str(module)], capture_output=True,
                         text=True, check=True).stdout
    return {fields[2] for fields in (line.split() for line in out.splitlines())
            if len(fields) == 3 and fields[1] in "tT"}


def asm_routines(arch: str = "*") -> set[str]:
    """The routines of ARCH's asm/*-ARCH-*.S (every architecture's by
    default)."""
    return {name for path in (ROOT / "asm").glob(f"*-{arch}-*.S")
            for name in re.findall(r"GCRY_FUNC_BEGIN\((\w+)\)", path.read_text())}


def external_c_functions() -> set[str]:
    """Functions of ciphers/*/*.c defined without ``static`` (the GNU layout
    the glue uses: the return type on its own line, the name at column 0)."""
    names = set()
    for path in (ROOT / "ciphers").glob("*/*.c"):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        lines = text.splitlines()
        for before, line in zip(lines, lines[1:], strict=False):
            m = re.match(r"([a-z_]\w*) \(", line)
            if m and before and not before.startswith(("static", "#", " ", "}")) \
                    and not before.rstrip().endswith((";", ",")):
                names.add(m.group(1))
    return names


def where_defined(names: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {name: [] for name in names}
    for module in installed_modules():
        for name in defined_functions(module) & names:
            found[name].append(module.name)
    return found


def test_the_scan_sees_the_routines():
    """The parsers find what the check relies on (so it cannot pass empty)."""
    assert {"_gcry_chacha_amd64_avx2_blocks8", "_gcry_poly1305_amd64_avx512_lanes8"} \
        <= asm_routines()
    assert {"gcry_chacha_setkey", "chacha_crypt_noburn", "poly1305_update_noburn",
            "gcry_aead_setkey", "nhpoly1305_acc_chunks"} <= external_c_functions()
    assert len(installed_modules()) >= 8


def test_every_assembly_routine_is_in_exactly_one_module():
    """Each routine of the installed build's architecture."""
    arch = gcrylike.config().asm_arch
    if arch is None:
        pytest.skip("no assembly in this build (GCRYLIKE_NO_ASM, or no assembly for this target)")
    found = where_defined(asm_routines(arch))
    assert {name: mods for name, mods in found.items() if len(mods) != 1} == {}


def test_no_c_function_is_in_two_modules():
    """(A test-only function, under GCRY_TEST_HOOKS, is in none.)"""
    found = where_defined(external_c_functions())
    assert {name: mods for name, mods in found.items() if len(mods) > 1} == {}
    assert all(found[name] for name in ("gcry_chacha_setkey", "poly1305_update_noburn",
                                         "gcry_aead_setkey", "nhpoly1305_acc_chunks"))


def test_the_shared_prelude_is_in_every_module():
    """burn.c is the one source every module compiles (included into each)."""
    prelude = set(re.findall(r"^(\w+) \(", (ROOT / "gcrylike" / "_native" / "burn.c")
                             .read_text(), flags=re.M))
    assert "gcry_ct_memcmp" in prelude
    for module in installed_modules():
        if module.parent.parent.name == "ciphers":
            assert prelude - {"burn_stack_vla"} <= defined_functions(module), module.name


def test_a_routine_in_several_modules_is_seen():
    """The check counts every module defining a name: the prelude's
    wipe, in each of them, is found that many times."""
    found = where_defined({"gcry_wipememory"})["gcry_wipememory"]
    assert len(found) == len(installed_modules())
