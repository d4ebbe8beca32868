"""cffi build script for ``gcrylike.ciphers.chacha._chacha`` (not installed)."""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_chacha_ctxsize(void);
int gcry_chacha_setkey(void *ctx, const uint8_t *key, size_t keylen,
                       unsigned int rounds, unsigned int impl, int xchacha);
int gcry_chacha_setiv(void *ctx, const uint8_t *iv, size_t ivlen);
int gcry_chacha_setctr(void *ctx, uint64_t block);
int gcry_chacha_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_chacha_locate(void *ctx, size_t n, uint64_t *block, unsigned int *unused);
int gcry_hchacha(const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen,
                 uint8_t *out, unsigned int rounds, unsigned int impl);
""" + drivers_cdef("chacha")

ffibuilder = make_ffi(
    "gcrylike.ciphers.chacha._chacha",
    CDEF,
    ["ciphers/chacha/chacha_glue.c", "ciphers/chacha/chacha_generic.c"],
    asm_sources=asm_files("chacha"),
    includes='#include "chacha.h"',
)
