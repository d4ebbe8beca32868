"""cffi build script for ``gcrylike.ciphers.aes._aes`` (not installed)."""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_aes256_ctxsize(void);
int gcry_aes256_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int impl);
int gcry_aes256_encrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_aes256_decrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
""" + drivers_cdef("aes")

ffibuilder = make_ffi(
    "gcrylike.ciphers.aes._aes",
    CDEF,
    ["ciphers/aes/aes_glue.c", "ciphers/aes/aes_generic.c"],
    asm_sources=asm_files("aes"),
    includes='#include "aes_glue.h"',
)
