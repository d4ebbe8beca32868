"""cffi build script for ``chacha8._chacha8`` (run by setup.py, not installed).

gcrylike.build.make_ffi adds gcrylike's headers and its wiping and
stack-burning C, and the .S file only where gcrylike would build its own
assembly (x86-64 Linux with a capable assembler, GCRYLIKE_NO_ASM unset),
defining USE_AMD64 for the C then.
"""

from gcrylike.build import make_ffi

CDEF = """
size_t c8_ctxsize(void);
uint32_t c8_impls(void);
int c8_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int impl);
void c8_setiv(void *ctx, const uint8_t *iv);
void c8_setctr(void *ctx, uint64_t block);
int c8_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
"""

ffibuilder = make_ffi("chacha8._chacha8", CDEF, ["csrc/chacha8.c"],
                      asm_sources=["csrc/chacha8-amd64-sse2.S"])
