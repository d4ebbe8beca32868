"""gcrylike's own build: which sources each module links, on the build
helper it installs for plugins (gcrylike/build.py, ``gcrylike.build``).

Not a package and not installed: setup.py puts this folder on ``sys.path``.
The helper is loaded from the source tree by path, as the ``gcrylike``
package cannot be imported before its extensions are built; the
architecture decision (``asm_arch``: USE_AMD64 or USE_AARCH64),
GCRYLIKE_NO_ASM, GCRYLIKE_EXTRA_CFLAGS, the stamp and the
``.S``-aware ``build_ext`` are the helper's, shared with every plugin.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASM_DIR = "asm"


def _load_helper():
    name = "gcrylike_build_helper"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, os.path.join(ROOT, "gcrylike", "build.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_helper = _load_helper()
asm_arch = _helper.asm_arch
use_amd64 = _helper.use_amd64
ARCHES = _helper.ARCHES
decide = _helper.decide
extra_cflags = _helper.extra_cflags
warning_flags = _helper.warning_flags
bind_now_flags = _helper.bind_now_flags
env_true = _helper.env_true
STAMP = _helper.STAMP


def build_ext() -> type:
    """The helper's ``.S``-aware setuptools ``build_ext`` command."""
    return _helper.build_ext


def drivers_cdef(*components: str) -> str:
    """The cdef of each component's driver accessor ``gcry_<component>_drivers``
    (rows of ``gcry_driver``, gcrylike/_native/driver.h), for the module
    that compiles the component (composites read their parts' rows from
    those modules)."""
    return "".join(f"const gcry_driver *gcry_{c}_drivers(size_t *n);\n" for c in components)


#: The driver row (gcrylike/_native/driver.h, which every component's header
#: includes), declared to cffi alone: the header defines it.
DRIVER_TYPES = ("typedef struct { const char *suffix; int priority; uint32_t hwf;"
                " const char *tag; const char *description; const void *ops; } gcry_driver;\n")


def asm_files(prefix: str) -> dict[str, list[str]]:
    """A module's assembly by architecture: every ``asm/PREFIX-ARCH-*.S``
    for each architecture the helper knows (``amd64``, ``aarch64``), so a
    new tier is its file (and its rows) without a line here; ``make_ffi``
    compiles the decided architecture's."""
    files = os.listdir(os.path.join(ROOT, ASM_DIR))
    return {arch: sorted(f for f in files if re.fullmatch(
        re.escape(prefix) + "-" + arch + r"-[\w-]+\.S", f)) for arch in ARCHES}


def linkage_cdef(c_sources: list[str]) -> str:
    """The cdef of what a module's sources export to composites and import
    from components (GCRY_EXPORT / GCRY_IMPORT, gcrylike/_native/linkage.h):
    found in the sources, so the component list is written once, there."""
    cdef = ""
    for source in c_sources:
        with open(os.path.join(ROOT, source)) as f:
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        for kind, part in re.findall(r"^GCRY_(EXPORT|IMPORT)\s*\(\s*(\w+)", text, flags=re.M):
            cdef += (f"const void *gcry_export_{part}(void);\n" if kind == "EXPORT"
                     else f"int gcry_import_{part}(const void *table);\n")
    return cdef


#: Every module's header folders: a composite includes its components'
#: headers (their contexts and exported tables) without their sources.
COMPONENT_DIRS = sorted(os.path.join("ciphers", d)
                        for d in os.listdir(os.path.join(ROOT, "ciphers"))
                        if os.path.isdir(os.path.join(ROOT, "ciphers", d)) and d != "__pycache__")


def make_ffi(module: str, cdef: str, c_sources: list[str],
             asm_sources: dict[str, list[str]] | None = None, includes: str = "",
             arch_c_sources: dict[str, list[str]] | None = None,
             macros: list[tuple[str, str]] = (), absolute: bool = False):
    """One of gcrylike's cffi extensions through the helper's make_ffi: its
    C glue, and the decided architecture's own ``.S`` files from ``asm/``
    (``asm_sources``, by architecture as :func:`asm_files` gives them,
    named without the folder) and the C side of its assembly
    (``arch_c_sources``, by architecture).

    ``macros`` are defined for every
    source (the test-only build's GCRY_TEST_HOOKS).  Paths are relative to
    the repository, as setuptools wants them, unless ``absolute`` (the
    test-only build compiles from its own directory)."""
    per_arch = {arch: [*(os.path.join(ASM_DIR, s) for s in (asm_sources or {}).get(arch, ())),
                       *(arch_c_sources or {}).get(arch, ())] for arch in ARCHES}
    return _helper.make_ffi(
        module, cdef + linkage_cdef(c_sources), c_sources, arch_sources=per_arch,
        includes=includes, include_dirs=[ASM_DIR, *COMPONENT_DIRS],
        macros=macros, root=ROOT if absolute else None,
        types=DRIVER_TYPES if "gcry_driver" in cdef else "")
