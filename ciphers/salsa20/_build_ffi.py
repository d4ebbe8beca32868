"""cffi build script for ``gcrylike.ciphers.salsa20._salsa20`` (not installed)."""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_salsa20_ctxsize(void);
int gcry_salsa20_setkey(void *ctx, const uint8_t *key, size_t keylen,
                        unsigned int rounds, unsigned int impl, int xsalsa);
int gcry_salsa20_setiv(void *ctx, const uint8_t *iv, size_t ivlen);
int gcry_salsa20_setctr(void *ctx, uint64_t block);
int gcry_salsa20_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_salsa20_locate(void *ctx, size_t n, uint64_t *block, unsigned int *unused);
int gcry_hsalsa20(const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen,
                  uint8_t *out, unsigned int rounds, unsigned int impl);
""" + drivers_cdef("salsa20")

ffibuilder = make_ffi(
    "gcrylike.ciphers.salsa20._salsa20",
    CDEF,
    ["ciphers/salsa20/salsa20_glue.c", "ciphers/salsa20/salsa20_generic.c"],
    asm_sources=asm_files("salsa20"),
    includes='#include "salsa20.h"',
)
