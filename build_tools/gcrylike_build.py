"""Build helpers shared by setup.py and every cffi build script.

Not a package and not installed: setup.py puts this folder on ``sys.path``.

One place decides ``USE_AMD64`` (libgcrypt's switch): assembly is built only
for a 64-bit x86-64 Linux/ELF target whose compiler assembles a probe ``.S``
using AVX2, AVX512-IFMA and the directives our files need, and never when
``GCRYLIKE_NO_ASM`` is set.  The decision is written to a stamp file that
every extension lists in ``depends``, so switching it rebuilds them.
"""

from __future__ import annotations

import os
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

# Declared by every extension (from gcrylike/_native/burn.c): the test-only
# burn switch and the stack-residue probe used by tests/test_burn_stack.py.
TEST_HOOKS_CDEF = """
extern int gcry_burn_enabled;
typedef int (*gcry_crypt_fn)(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
size_t gcry_stack_residue_after(gcry_crypt_fn fn, void *ctx, uint8_t *dst,
                                const uint8_t *src, size_t n,
                                const uint32_t *needles, size_t nneedles,
                                size_t depth, int *rc);
"""



def asm_depth_cdef(key: str) -> str:
    """The declaration of a module's test hook gcry_KEY_asm_depth (assembly
    routine WHICH's name, reported and measured burn depth; defined by
    GCRY_ASM_DEPTH_HOOK in its ciphers/*/*_depth.c)."""
    return (f"int gcry_{key}_asm_depth(unsigned int which, unsigned int shift, "
            "const char **name, unsigned int *reported, size_t *measured);\n")


_decision: tuple[bool, str] | None = None


def env_true(name: str) -> bool:
    """Whether environment variable ``name`` is set to something true."""
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
        if env_true("GCRYLIKE_NO_ASM"):
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


def _write_stamp(flag: bool) -> None:
    """Rewrite the stamp only when the decision changes (forces a rebuild)."""
    path = os.path.join(ROOT, STAMP)
    text = f"USE_AMD64={int(flag)}\n"
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


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
             amd64_c_sources: list[str] = ()) -> FFI:
    """One cffi extension: its C glue, the shared C helpers and, when
    USE_AMD64 holds, its own ``.S`` files from ``asm/``.

    ``cdef`` must be plain C prototypes: it is both the cffi declaration and
    the prototype block of the generated module (after ``includes``).
    ``amd64_c_sources`` are C files that only an amd64 build compiles (the
    C side of an assembly implementation)."""
    amd64, _ = use_amd64()
    ffi = FFI()
    ffi.cdef(cdef)
    sources = list(c_sources) + SHARED_C
    macros = []
    if amd64:
        sources += [os.path.join(ASM_DIR, s) for s in asm_sources]
        sources += list(amd64_c_sources)
        macros.append(("USE_AMD64", "1"))
    include_dirs = [*sorted({os.path.dirname(s) for s in c_sources}), ASM_DIR, NATIVE_DIR]
    ffi.set_source(
        module,
        includes + "\n" + cdef,
        sources=sources,
        include_dirs=include_dirs,
        define_macros=macros,
        extra_compile_args=["-O2", "-fno-strict-aliasing", "-fvisibility=hidden"],
        # a changed header rebuilds the module too (an incremental build
        # otherwise keeps objects compiled against the old one)
        depends=[STAMP, *_headers(include_dirs)],
    )
    return ffi
