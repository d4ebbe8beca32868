"""cffi build script for ``salsa208._salsa208`` (run by setup.py, not installed)."""

import os
import sys
import sysconfig

from cffi import FFI

CDEF = """
size_t s208_ctxsize(void);
int s208_have_asm(void);
int s208_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int impl);
void s208_setiv(void *ctx, const uint8_t *iv);
void s208_setctr(void *ctx, uint64_t block);
int s208_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
"""

sources = ["csrc/salsa208.c"]
macros = []
# Assemble only for x86-64 Linux (ELF, System V ABI), and allow opting out.
if (sysconfig.get_platform() == "linux-x86_64" and sys.maxsize > 2**32
        and not os.environ.get("SALSA208_NO_ASM")):
    sources.append("csrc/xor-amd64-sse2.S")
    macros.append(("USE_AMD64", "1"))

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "salsa208._salsa208",
    CDEF,  # the prototypes; the definitions are in csrc/
    sources=sources,
    define_macros=macros,
    extra_compile_args=["-O2", "-fvisibility=hidden"],
)
