"""Build helpers shared by setup.py and every cffi build script.

Not a package and not installed: setup.py puts this folder on ``sys.path``.

One place decides ``USE_AMD64`` (libgcrypt's switch): assembly is built only
for a 64-bit x86-64 Linux/ELF target whose compiler assembles a probe ``.S``
using AVX2, AVX512-IFMA and the directives our files need, and never when
``GCRYLIKE_NO_ASM`` is set.  The decision (and GCRYLIKE_EXTRA_CFLAGS) is
written to a stamp file that every extension lists in ``depends``, so
switching either rebuilds them.

``GCRYLIKE_EXTRA_CFLAGS`` (split like a shell word list) is added to every
extension's compile and link flags: the ``sanitize`` tox env builds with
AddressSanitizer and UBSan this way.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile

from cffi import FFI

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASM_DIR = "asm"
NATIVE_DIR = os.path.join("gcrylike", "_native")
STAMP = os.path.join("build", "gcrylike-asm.stamp")
SHARED_C = [os.path.join(NATIVE_DIR, "burn.c")]

_PROBE = r"""
#include "asm-common-amd64.h"
GCRY_FUNC_BEGIN(gcrylike_probe)
	vpaddd %ymm0, %ymm1, %ymm2
	vpmadd52luq %zmm16, %zmm17, %zmm18
	vzeroupper
	xorl %eax, %eax
	ret
GCRY_FUNC_END(gcrylike_probe)
"""



_decision: tuple[bool, str] | None = None


def _env_true(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "no", "false")


def _probe_assembler() -> tuple[bool, str]:
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.S")
        with open(src, "w") as f:
            f.write(_PROBE)
        cmd = [*cc, "-c", "-fPIC", "-I", os.path.join(ROOT, ASM_DIR), src,
               "-o", os.path.join(tmp, "probe.o")]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except OSError as exc:
            return False, f"assembler probe could not run ({exc})"
        if res.returncode != 0:
            return False, "assembler probe failed: " + res.stderr.strip()[:200]
    return True, "assembler probe passed"


def use_amd64() -> tuple[bool, str]:
    """Return (USE_AMD64, reason); computed once per build process."""
    global _decision
    if _decision is None:
        platform = sysconfig.get_platform()
        if _env_true("GCRYLIKE_NO_ASM"):
            _decision = (False, "GCRYLIKE_NO_ASM is set")
        elif not (platform.startswith("linux-") and platform.endswith("x86_64")):
            _decision = (False, f"platform {platform} is not linux-x86_64")
        elif sys.maxsize <= 2**32:
            _decision = (False, "32-bit interpreter")
        else:
            _decision = _probe_assembler()
        print(f"gcrylike: USE_AMD64={int(_decision[0])} ({_decision[1]})", flush=True)
        _write_stamp(_decision[0])
    return _decision


def decide(flag: bool, reason: str) -> None:
    """Fix USE_AMD64 for this process without probing or writing the stamp:
    the test-only build (tests/native/build_hooks.py) takes the installed
    wheel's decision, whatever this machine's assembler could do."""
    global _decision
    _decision = (flag, reason)


def extra_cflags() -> list[str]:
    """The flags GCRYLIKE_EXTRA_CFLAGS asks for (none when unset)."""
    return shlex.split(os.environ.get("GCRYLIKE_EXTRA_CFLAGS", ""))


def _write_stamp(flag: bool) -> None:
    """Rewrite the stamp only when the decision or the extra flags change
    (forces a rebuild)."""
    path = os.path.join(ROOT, STAMP)
    text = f"USE_AMD64={int(flag)}\nGCRYLIKE_EXTRA_CFLAGS={shlex.join(extra_cflags())}\n"
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


#: ChaCha as every module that uses it links it: the glue and the portable
#: core, and on amd64 the SSSE3/AVX2/AVX-512 routines its dispatch calls.
CHACHA_C = ["ciphers/chacha/chacha_glue.c", "ciphers/chacha/chacha_generic.c"]
CHACHA_ASM = ["chacha-amd64-ssse3.S", "chacha-amd64-avx2.S", "chacha-amd64-avx512.S"]

#: Poly1305 as every module with a MAC links it: the glue and the portable
#: code, and on amd64 the SSE2/AVX2/AVX512-IFMA routines, their scalar part and the C
#: that fills their tables.
POLY1305_C = ["ciphers/poly1305/poly1305_glue.c", "ciphers/poly1305/poly1305_generic.c"]
POLY1305_ASM = ["poly1305-amd64-sse2.S", "poly1305-amd64-avx2.S", "poly1305-amd64-avx512.S",
                "poly1305-amd64-scalar.S"]
POLY1305_AMD64_C = ["ciphers/poly1305/poly1305_amd64_tables.c"]


def _headers(dirs: list[str]) -> list[str]:
    """The .h files in DIRS (relative paths, sorted)."""
    return sorted(os.path.join(d, f) for d in dirs for f in os.listdir(os.path.join(ROOT, d))
                  if f.endswith(".h"))


def make_ffi(module: str, cdef: str, c_sources: list[str],
             asm_sources: list[str] = (), includes: str = "",
             amd64_c_sources: list[str] = (), macros: list[tuple[str, str]] = (),
             absolute: bool = False) -> FFI:
    """One cffi extension: its C glue, the shared C helpers and, when
    USE_AMD64 holds, its own ``.S`` files from ``asm/``.

    ``cdef`` must be plain C prototypes: it is both the cffi declaration and
    the prototype block of the generated module (after ``includes``).
    ``amd64_c_sources`` are C files that only an amd64 build compiles (the
    C side of an assembly implementation); ``macros`` are defined for
    every source (the test-only build's GCRY_TEST_HOOKS).  Paths are
    relative to the repository, as setuptools wants them, unless
    ``absolute`` (the test-only build compiles from its own directory)."""
    amd64, _ = use_amd64()
    ffi = FFI()
    ffi.cdef(cdef)
    sources = list(c_sources) + SHARED_C
    macros = list(macros)
    if amd64:
        sources += [os.path.join(ASM_DIR, s) for s in asm_sources]
        sources += list(amd64_c_sources)
        macros.append(("USE_AMD64", "1"))
    include_dirs = [*sorted({os.path.dirname(s) for s in c_sources}), ASM_DIR, NATIVE_DIR]
    depends = [STAMP, *_headers(include_dirs)]
    if absolute:
        sources, include_dirs, depends = ([os.path.join(ROOT, p) for p in paths]
                                          for paths in (sources, include_dirs, depends))
    ffi.set_source(
        module,
        includes + "\n" + cdef,
        sources=sources,
        include_dirs=include_dirs,
        define_macros=macros,
        extra_compile_args=["-O2", "-fno-strict-aliasing", "-fvisibility=hidden",
                            *extra_cflags()],
        extra_link_args=extra_cflags(),
        # a changed header rebuilds the module too (an incremental build
        # otherwise keeps objects compiled against the old one)
        depends=depends,
    )
    return ffi
