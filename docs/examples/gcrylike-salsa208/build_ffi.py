"""cffi build script for ``salsa208._salsa208`` (run by setup.py, not installed).

gcrylike.build.make_ffi adds gcrylike's headers and its wiping and
stack-burning C, and the .S file only where gcrylike would build its own
assembly (x86-64 Linux with a capable assembler, GCRYLIKE_NO_ASM unset),
defining USE_AMD64 for the C then.
"""

from gcrylike.build import make_ffi

CDEF = """
size_t s208_ctxsize(void);
int s208_have_asm(void);
int s208_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int impl);
void s208_setiv(void *ctx, const uint8_t *iv);
void s208_setctr(void *ctx, uint64_t block);
int s208_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
"""

ffibuilder = make_ffi("salsa208._salsa208", CDEF, ["csrc/salsa208.c"],
                      asm_sources=["csrc/xor-amd64-sse2.S"])
