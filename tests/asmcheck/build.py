"""Build the native check of the assembly (``asmcheck``): one static binary.

It links every ``asm/*.S``, the portable C of every module
(``ciphers/*/*_generic.c``), the C side of the assembly
(``ciphers/*/*_amd64*.c``), the components' glue (their driver rows: the
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
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

FLAGS = ["-O2", "-static", "-DUSE_AMD64", "-fno-strict-aliasing"]


def compiler() -> list[str]:
    """The C compiler: $CC, else the one Python was built with, else cc."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shlex.split(cc)


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


def sources(root: Path = ROOT) -> list[Path]:
    found = [*sorted(root.glob("asm/*.S")),
             *sorted(root.glob("ciphers/*/*_generic.c")),
             *sorted(root.glob("ciphers/*/*_amd64*.c")),
             *(root / "ciphers" / glue for glue in GLUE),
             root / "gcrylike/_native/core.c",
             root / "gcrylike/_native/burn.c",
             *sorted((root / "tests/asmcheck").glob("*.c")),
             *sorted((root / "tests/asmcheck").glob("*.S"))]
    return found


def include_dirs(root: Path = ROOT) -> list[Path]:
    return [root / "asm", root / "gcrylike/_native", *sorted(root.glob("ciphers/*/")),
            root / "tests/asmcheck"]


def command(out: Path, generated: Path, root: Path = ROOT) -> list[str]:
    """The compiler's command, with the known answers in ``generated``
    (``vectors.c``, written by :func:`generate`)."""
    return [*compiler(), *FLAGS, *(f"-I{d}" for d in include_dirs(root)),
            *map(str, sources(root)), str(generated), "-o", str(out)]


def generate(directory: Path, root: Path = ROOT) -> Path:
    """Write the known answers' C (vectors.c) into ``directory``."""
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


def build(out: Path, root: Path = ROOT) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="asmcheck-vectors-") as tmp:
        return subprocess.run(command(out, generate(Path(tmp), root), root),
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
