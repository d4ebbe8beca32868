"""Build helpers for gcrylike's own extensions and for plugins (installed
as ``gcrylike.build``).

A plugin's ``setup.py``::

    from setuptools import setup
    from gcrylike.build import cmdclass

    setup(cffi_modules=["build_ffi.py:ffibuilder"], cmdclass=cmdclass())

(``cmdclass()``: ``build_ext``, which assembles ``.S`` sources, and
``bdist_wheel``, which tags the wheel ``cp311-abi3`` as gcrylike's own)

and its cffi build script::

    from gcrylike.build import make_ffi

    ffibuilder = make_ffi("myplugin._native", CDEF, ["csrc/glue.c"],
                          asm_sources=["csrc/routine-amd64-avx2.S"],
                          arch_sources={"aarch64": ["csrc/routine-aarch64-neon.S"]})

One place decides which architecture's assembly is built (libgcrypt's
``USE_AMD64`` and ``USE_AARCH64`` switches), for gcrylike and its plugins
alike: :func:`asm_arch` is ``"amd64"`` on a 64-bit x86-64 Linux/ELF target
whose compiler assembles a probe ``.S`` using AVX2, AVX512-IFMA and the
directives gcrylike's files need, ``"aarch64"`` on a 64-bit Arm Linux/ELF
target whose compiler assembles a probe using NEON, the Crypto Extensions
and those directives, else ``None`` (the portable C); never an architecture
when ``GCRYLIKE_NO_ASM`` is set.  ``GCRYLIKE_EXTRA_CFLAGS`` (split like a
shell word list) is added to every extension's compile and link flags (the
``sanitize`` tox env builds with AddressSanitizer and UBSan this way).
Every extension is compiled with ``-Wall -Wextra``, and ``-Werror`` when
``GCRYLIKE_WERROR`` is set.  All three are written to a stamp file that every extension lists in
``depends``, so switching any of them rebuilds them.

This module imports nothing of gcrylike's package (gcrylike's own
``setup.py`` loads it from the source tree, where the package has no
compiled extensions yet) and setuptools only when ``build_ext`` is used.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

# build_ext is made on first access (module __getattr__ below)
__all__ = ["build_ext", "bdist_wheel", "cmdclass", "extra_cflags",  # noqa: F822
           "get_include", "make_ffi", "asm_arch", "bind_now_flags", "use_amd64",
           "warning_flags", "stable_abi", "LIMITED_API_FLOOR"]

#: The stamp every extension depends on, relative to the directory the
#: build runs in (the project's root).
STAMP = os.path.join("build", "gcrylike-asm.stamp")

_PROBE_AMD64 = r"""
#include "asm-common-amd64.h"
GCRY_FUNC_BEGIN(gcrylike_probe)
	vpaddd %ymm0, %ymm1, %ymm2
	vpmadd52luq %zmm16, %zmm17, %zmm18
	vzeroupper
	xorl %eax, %eax
	ret
GCRY_FUNC_END(gcrylike_probe)
"""

_PROBE_AARCH64 = r"""
#include "asm-common-aarch64.h"
GCRY_FUNC_BEGIN(gcrylike_probe)
	add	v2.4s, v0.4s, v1.4s
	rev32	v3.8h, v2.8h
	tbl	v4.16b, {v2.16b}, v3.16b
	aese	v4.16b, v0.16b
	aesmc	v4.16b, v4.16b
	pmull	v5.1q, v0.1d, v1.1d
	GCRY_ZERO_V 0, 5
	mov	w0, #0
	ret
GCRY_FUNC_END(gcrylike_probe)
"""


class Arch(NamedTuple):
    """An architecture with assembly: the end of ``sysconfig.get_platform()``
    on its Linux targets, the macro its C tests, and the probe ``.S`` its
    compiler must assemble."""
    machine: str
    macro: str
    probe: str


#: Every architecture gcrylike has assembly for, by name (the ``asm/``
#: files' ``<prefix>-<name>-*.S``, :func:`asm_arch`'s answers).
ARCHES = {
    "amd64": Arch("x86_64", "USE_AMD64", _PROBE_AMD64),
    "aarch64": Arch("aarch64", "USE_AARCH64", _PROBE_AARCH64),
}

_decision: tuple[str | None, str] | None = None


def get_include() -> str:
    """The directory of gcrylike's C headers (``common.h``, ``stream.h``,
    ``stream_driver.h``, ``asm-common-amd64.h``, ``asm-common-aarch64.h``) and
    of ``burn.c``."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_native")


#: What every extension compiles in, at the top of its cffi module's own
#: source: gcry_wipememory and gcry_burn_stack (an #include, not a source
#: file of the extension, as setuptools refuses source paths outside the
#: project).
NATIVE_PRELUDE = '#include "burn.c"\n'


def env_true(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "no", "false")


def _probe_assembler(probe: str) -> tuple[bool, str]:
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.S")
        with open(src, "w") as f:
            f.write(probe)
        cmd = [*cc, "-c", "-fPIC", "-I", get_include(), src, "-o", os.path.join(tmp, "probe.o")]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except OSError as exc:
            return False, f"assembler probe could not run ({exc})"
        if res.returncode != 0:
            return False, "assembler probe failed: " + res.stderr.strip()[:200]
    return True, "assembler probe passed"


def _decide() -> tuple[str | None, str]:
    platform = sysconfig.get_platform()
    if env_true("GCRYLIKE_NO_ASM"):
        return None, "GCRYLIKE_NO_ASM is set"
    arch = next((name for name, a in ARCHES.items()
                 if platform.startswith("linux-") and platform.endswith(a.machine)), None)
    if arch is None:
        return None, f"platform {platform} has no assembly (linux-x86_64, linux-aarch64)"
    if sys.maxsize <= 2**32:
        return None, "32-bit interpreter"
    ok, reason = _probe_assembler(ARCHES[arch].probe)
    return (arch if ok else None), reason


def asm_arch() -> tuple[str | None, str]:
    """Return (architecture, reason): ``"amd64"``, ``"aarch64"`` or
    ``None`` (portable C only), the architecture whose assembly the build
    compiles in with its macro (``USE_AMD64``, ``USE_AARCH64``) defined;
    decided (and printed) once per build process, and written to the stamp
    file."""
    global _decision
    if _decision is None:
        _decision = _decide()
        arch, reason = _decision
        print(f"gcrylike: {ARCHES[arch].macro + '=1' if arch else 'no assembly'} ({reason})",
              flush=True)
        _write_stamp(arch)
    return _decision


def use_amd64() -> tuple[bool, str]:
    """Return (USE_AMD64, reason): whether :func:`asm_arch` chose the
    amd64 assembly."""
    arch, reason = asm_arch()
    return arch == "amd64", reason


def decide(arch: str | bool | None, reason: str) -> None:
    """Fix the architecture for this process without probing or writing
    the stamp (gcrylike's test-only build takes the installed wheel's
    decision, whatever this machine's assembler could do); ``True`` and
    ``False`` stand for ``"amd64"`` and ``None``."""
    global _decision
    if isinstance(arch, bool):
        arch = "amd64" if arch else None
    if arch is not None and arch not in ARCHES:
        raise ValueError(f"no assembly for {arch!r} (known: {', '.join(ARCHES)})")
    _decision = (arch, reason)


def extra_cflags() -> list[str]:
    """The flags ``GCRYLIKE_EXTRA_CFLAGS`` asks for (none when unset)."""
    return shlex.split(os.environ.get("GCRYLIKE_EXTRA_CFLAGS", ""))


def warning_flags() -> list[str]:
    """The warnings every extension is compiled with: ``-Wall -Wextra``, and
    ``-Werror`` when ``GCRYLIKE_WERROR`` is set (the tox envs' builds, so a
    new warning fails them; a switch of its own, so that it combines with
    whatever ``GCRYLIKE_EXTRA_CFLAGS`` holds)."""
    return ["-Wall", "-Wextra", *(["-Werror"] if env_true("GCRYLIKE_WERROR") else [])]


def bind_now_flags() -> list[str]:
    """``-Wl,-z,now`` on ELF targets, which every extension is linked with:
    every symbol is bound when the module loads, so the dynamic linker's
    lazy-binding resolver, which saves the vector registers to the stack,
    never runs between a call that handled a secret and the caller's burn."""
    elf = not sys.platform.startswith(("darwin", "win32", "cygwin"))
    return ["-Wl,-z,now"] if elf else []


def _write_stamp(arch: str | None) -> None:
    """Rewrite the stamp only when the decision or the extra flags change
    (forces a rebuild)."""
    text = (f"asm={arch or 'none'}\nGCRYLIKE_EXTRA_CFLAGS={shlex.join(extra_cflags())}\n"
            f"warnings={shlex.join(warning_flags())}\nlink={shlex.join(bind_now_flags())}\n")
    try:
        with open(STAMP) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(STAMP), exist_ok=True)
    with open(STAMP, "w") as f:
        f.write(text)


def _headers(dirs: Sequence[str]) -> list[str]:
    """The .h files in DIRS (sorted)."""
    return sorted(os.path.join(d, f) for d in dirs if os.path.isdir(d)
                  for f in os.listdir(d) if f.endswith(".h"))


def make_ffi(module: str, cdef: str, c_sources: Sequence[str],
             asm_sources: Sequence[str] = (), *, includes: str = "",
             amd64_c_sources: Sequence[str] = (),
             arch_sources: Mapping[str, Sequence[str]] | None = None,
             include_dirs: Sequence[str] = (),
             macros: Sequence[tuple[str, str]] = (), extra_compile_args: Sequence[str] = (),
             constants: Sequence[str] = (), root: str | None = None,
             types: str = "") -> Any:
    """One cffi extension ``module``: its C sources, gcrylike's wiping and
    stack-burning C (``burn.c``, included into the module's own source) and
    include directory, and the sources of the architecture
    :func:`asm_arch` chose, with its macro (``USE_AMD64``, ``USE_AARCH64``)
    defined: ``arch_sources`` maps an architecture's name to its ``.S``
    files and the C side of its assembly; ``asm_sources`` and
    ``amd64_c_sources`` are amd64's (added to ``arch_sources["amd64"]``).
    An architecture the mapping does not name gets its macro and no
    sources (the module's C keeps its portable path).

    ``cdef`` must be plain C prototypes: it is both the cffi declaration
    and the prototype block of the generated module (after ``includes``).
    ``constants`` names integer constants of the headers ``includes``
    brings in (enum members or macros, e.g. a C enum of implementation
    ids), for Python to read as ``lib.NAME``: each is declared to cffi
    alone, as ``#define NAME ...``, so its value is the compiler's, written
    once in the header.  ``types`` are cffi declarations of types those
    headers define (a struct Python reads), declared to cffi alone, before
    ``cdef``.  ``macros`` are defined for every source.  Paths are relative to the
    directory the build runs in, as setuptools wants them, or to ``root``
    when given (a build from elsewhere: they are then made absolute).
    Compiled with ``-O2 -fno-strict-aliasing -fvisibility=hidden``, the
    warnings of :func:`warning_flags` and ``GCRYLIKE_EXTRA_CFLAGS``, linked
    with :func:`bind_now_flags` and ``GCRYLIKE_EXTRA_CFLAGS``; every
    header of the include directories is a dependency, so changing one
    rebuilds."""
    from cffi import FFI

    arch, _ = asm_arch()
    ffi = FFI()
    # the constants only in cffi's declarations: the source has the header's
    ffi.cdef(types + cdef + "".join(f"#define {name} ...\n" for name in constants))
    sources = list(c_sources)
    macros = list(macros)
    if arch is not None:
        per_arch = {name: list(files) for name, files in (arch_sources or {}).items()}
        per_arch.setdefault("amd64", []).extend([*asm_sources, *amd64_c_sources])
        sources += per_arch.get(arch, [])
        macros.append((ARCHES[arch].macro, "1"))
    dirs = [*sorted({os.path.dirname(s) or "." for s in c_sources}), *include_dirs,
            get_include()]
    if root is not None:
        sources, dirs = ([os.path.join(root, p) for p in paths] for paths in (sources, dirs))
    ffi.set_source(
        module,
        NATIVE_PRELUDE + includes + "\n" + cdef,
        sources=sources,
        include_dirs=dirs,
        define_macros=macros,
        extra_compile_args=["-O2", "-fno-strict-aliasing", "-fvisibility=hidden",
                            *warning_flags(), *extra_compile_args, *extra_cflags()],
        extra_link_args=[*bind_now_flags(), *extra_cflags()],
        # a changed header rebuilds the module too (an incremental build
        # otherwise keeps objects compiled against the old one)
        depends=[os.path.join(root or "", STAMP), *_headers(dirs)],
    )
    return ffi


#: The oldest CPython whose stable ABI gcrylike's extensions and its plugins'
#: are built for (requires-python): gcrylike's fast path takes its input
#: through PyObject_GetBuffer, limited API from 3.11 on (docs/building.rst,
#: "Wheel tags and the stable ABI").
LIMITED_API_FLOOR = "cp311"


def stable_abi() -> bool:
    """Whether extensions are built for the stable ABI: on a release
    CPython, as cffi does for its modules (a debug build's reference tracing
    has no stable ABI, and other interpreters have none to build for)."""
    import platform

    return platform.python_implementation() == "CPython" and not hasattr(sys, "gettotalrefcount")


def _bdist_wheel_class() -> type:
    try:  # part of setuptools from 70.1, the wheel package's before
        from setuptools.command.bdist_wheel import bdist_wheel as _base
    except ImportError:
        from wheel.bdist_wheel import bdist_wheel as _base

    class bdist_wheel(_base):  # type: ignore[misc,valid-type]  # noqa: N801
        """setuptools' ``bdist_wheel`` that tags the wheel ``cp311-abi3``
        where :func:`stable_abi` holds: cffi builds every module of
        :func:`make_ffi` for the stable ABI there, so one wheel serves every
        CPython from 3.11 on, as gcrylike's own does.  (A debug CPython
        builds version-specific modules: its wheel keeps the ``cpXY-cpXYd``
        tag.)  A plugin that adds an extension of its own not built for the
        limited API must not use it."""

        def finalize_options(self) -> None:
            if not self.py_limited_api and stable_abi():
                self.py_limited_api = LIMITED_API_FLOOR
            super().finalize_options()

    return bdist_wheel


def cmdclass() -> dict[str, type]:
    """The commands a plugin's ``setup()`` takes: :data:`build_ext` (which
    assembles ``.S`` files) and :data:`bdist_wheel` (the abi3 tag)."""
    return {"build_ext": __getattr__("build_ext"), "bdist_wheel": __getattr__("bdist_wheel")}


def _build_ext_class() -> type:
    from setuptools.command.build_ext import build_ext as _base

    class build_ext(_base):  # noqa: N801 - setuptools' command name
        """setuptools' ``build_ext`` that lets the C compiler driver
        preprocess and assemble ``.S`` sources (with the C files' flags)."""

        def build_extensions(self) -> None:
            self.compiler.src_extensions = [*self.compiler.src_extensions, ".S"]
            super().build_extensions()

    return build_ext


_COMMANDS = {"build_ext": _build_ext_class, "bdist_wheel": _bdist_wheel_class}


def __getattr__(name: str) -> Any:
    # the commands subclass setuptools': made on first use, so that
    # importing this module needs no setuptools
    make = _COMMANDS.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = make()
    globals()[name] = cls
    return cls
