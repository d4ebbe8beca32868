"""Build the native check of the assembly (``asmcheck``): one static binary.

It is built for the target of the C compiler (``$CC``, e.g.
``aarch64-linux-gnu-gcc``; its ``-dumpmachine`` names the target) with only
what that target has: on x86-64 every ``asm/*-amd64-*.S`` with
``USE_AMD64``, on aarch64 every ``asm/*-aarch64-*.S`` with ``USE_AARCH64``
(and the check's own probe and mutants, ``tests/asmcheck/*-<arch>.S``),
elsewhere no assembly (the portable C's rows alone).  It links that
assembly, the portable C of every module
(``ciphers/*/*_generic.c``), the C side of the assembly
(``ciphers/*/*_<arch>*.c``), the components' glue (their driver rows: the
features each routine needs), the project's CPU detection
(``gcrylike/_native/core.c``) and the check itself (``tests/asmcheck``),
with its known answers: ``vectors.py`` writes them as C (``vectors.c``) into a
scratch directory from ``selftests/vectors_*.py`` before each build, so
the C holds no copy of a vector.  Static, so it runs unchanged under an
emulator (Intel SDE, or Bochs through a runner script) that boots nothing
but the binary.

By hand, from the repository root::

    python3 tests/asmcheck/build.py -o /tmp/asmcheck && /tmp/asmcheck

tests/test_native_check.py imports this file to build the same way.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

FLAGS = ["-O2", "-static", "-fno-strict-aliasing"]

#: The architecture whose assembly a target has (gcrylike/build.py's names
#: and macros), by the first part of the compiler's target triple.
ARCHES = {"x86_64": ("amd64", "USE_AMD64"), "aarch64": ("aarch64", "USE_AARCH64")}


def compiler() -> list[str]:
    """The C compiler: $CC, else the one Python was built with, else cc."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shlex.split(cc)


def dump_machine(cc: list[str] | None = None) -> str:
    """The compiler's target triple (``-dumpmachine``, e.g.
    aarch64-linux-gnu, x86_64-w64-mingw32), "" when it does not say."""
    res = subprocess.run([*(cc or compiler()), "-dumpmachine"], capture_output=True,
                         text=True, check=False)
    return "" if res.returncode else res.stdout.strip()


def target_arch(cc: list[str] | None = None) -> str | None:
    """The assembly the compiler's target has ("amd64", "aarch64"), or None
    (portable C only): from ``-dumpmachine``, Linux/ELF targets only, as
    the package's own decision (x86_64-w64-mingw32: none)."""
    triple = dump_machine(cc)
    if "-linux" not in triple:
        return None
    return ARCHES.get(triple.split("-")[0], (None, None))[0]


def vectors():
    """tests/asmcheck/vectors.py, the generator of the known answers (loaded by
    path: this file is itself loaded by path, by tests/test_native_check.py)."""
    spec = importlib.util.spec_from_file_location("asmcheck_vectors", HERE / "vectors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


#: The components' glue, for their driver rows (the features each routine's
#: driver needs, rows.c reads them by implementation id).
GLUE = ("chacha/chacha_glue.c", "salsa20/salsa20_glue.c", "poly1305/poly1305_glue.c",
        "nhpoly1305/nhpoly1305_glue.c", "aes/aes_glue.c")


def sources(arch: str | None, root: Path = ROOT, asm: Path | None = None) -> list[Path]:
    """What the check links for a target with ARCH's assembly (None: none),
    the .S files taken from ASM (default root/asm)."""
    own = [*sorted((asm or root / "asm").glob(f"*-{arch}-*.S")),
           *sorted(root.glob(f"ciphers/*/*_{arch}*.c")),
           *sorted((root / "tests/asmcheck").glob(f"*-{arch}.S"))] if arch else []
    return [*sorted(root.glob("ciphers/*/*_generic.c")),
            *(root / "ciphers" / glue for glue in GLUE),
            root / "gcrylike/_native/core.c",
            root / "gcrylike/_native/burn.c",
            *sorted((root / "tests/asmcheck").glob("*.c")),
            *own]


#: What a target's C library needs, by a part of the compiler's target
#: triple: mingw-w64's own printf (C99's %zu and %llu, which the Windows
#: C runtime's printf lacks).
SYSTEM_FLAGS = {"-mingw32": ["-D__USE_MINGW_ANSI_STDIO=1"]}


def flags(arch: str | None, cc: list[str] | None = None) -> list[str]:
    """The compiler flags for a target with ARCH's assembly (None: none),
    with its C library's (:data:`SYSTEM_FLAGS`)."""
    macro = {name: macro for name, macro in ARCHES.values()}.get(arch)
    triple = dump_machine(cc)
    system = [f for part, fl in SYSTEM_FLAGS.items() if part in triple for f in fl]
    return [*FLAGS, *([f"-D{macro}"] if macro else []), *system]


def include_dirs(root: Path = ROOT, asm: Path | None = None) -> list[Path]:
    return [asm or root / "asm", root / "gcrylike/_native", *sorted(root.glob("ciphers/*/")),
            root / "tests/asmcheck"]


def command(out: Path, generated: Path, root: Path = ROOT,
            asm: Path | None = None) -> list[str]:
    """The compiler's command, with the known answers in ``generated``
    (``vectors.c``, written by :func:`generate`), for the compiler's
    target; ASM: another directory of the .S files and their headers (the
    planted faults of tests/asmcheck/faults.py), default root/asm."""
    arch = target_arch()
    return [*compiler(), *flags(arch), *(f"-I{d}" for d in include_dirs(root, asm)),
            f"-I{generated.parent}", *map(str, sources(arch, root, asm)), str(generated),
            "-o", str(out)]


#: a glue file's declaration of assembly it runs (``extern <type> name, ...;``)
DECLARATION = re.compile(r"^extern \w+ _gcry_[^;]*;", re.M)


def declarations(root: Path = ROOT) -> str:
    """The glue's declarations of the assembly (beside its driver rows), for
    rows.c (routines.h): each routine is declared once, where it is run."""
    found = []
    for glue in sorted(root.glob("ciphers/*/*_glue.c")):
        text = re.sub(r"/\*.*?\*/", " ", glue.read_text(), flags=re.S)
        found += [f"/* {glue.relative_to(root)} */\n{d}\n" for d in DECLARATION.findall(text)]
    return "/* generated by tests/asmcheck/build.py */\n" + "".join(found)


def generate(directory: Path, root: Path = ROOT) -> Path:
    """Write the known answers' C (vectors.c) and the routines' declarations
    (routines.h) into ``directory``."""
    (directory / "routines.h").write_text(declarations(root))
    return vectors().write(directory / "vectors.c", root)


def can_link_static() -> tuple[bool, str]:
    """Whether the compiler exists and links a static C program."""
    cc = compiler()
    if not shutil.which(cc[0]):
        return False, f"no C compiler ({cc[0]} not found)"
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "probe.c")
        src.write_text("int main(void) { return 0; }\n")
        res = subprocess.run([*cc, "-static", str(src), "-o", str(Path(tmp, "probe"))],
                             capture_output=True, text=True, check=False)
        if res.returncode:
            return False, "the C compiler cannot link statically (no static libc?): " + \
                res.stderr.strip()[-200:]
    return True, ""


def build(out: Path, root: Path = ROOT, asm: Path | None = None) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="asmcheck-vectors-") as tmp:
        return subprocess.run(command(out, generate(Path(tmp), root), root, asm),
                              capture_output=True, text=True, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", default="asmcheck", help="the binary to write")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="asmcheck-vectors-") as tmp:
        cmd = command(Path(args.output), generate(Path(tmp)))
        print(shlex.join(cmd))
        return subprocess.run(cmd, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
