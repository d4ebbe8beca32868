"""cffi build script for ``gcrylike.ciphers.poly1305._poly1305`` (not installed)."""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_poly1305_ctxsize(void);
int gcry_poly1305_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int impl);
int gcry_poly1305_update(void *ctx, const uint8_t *m, size_t n);
int gcry_poly1305_read(void *ctx, uint8_t *tag, size_t taglen);
int gcry_poly1305_verify(void *ctx, const uint8_t *tag, size_t taglen);
int gcry_poly1305_oneshot(const uint8_t *key, size_t keylen, const uint8_t *m, size_t n,
                          uint8_t *tag, unsigned int impl);
""" + drivers_cdef("poly1305")

ffibuilder = make_ffi(
    "gcrylike.ciphers.poly1305._poly1305",
    CDEF,
    ["ciphers/poly1305/poly1305_glue.c", "ciphers/poly1305/poly1305_generic.c"],
    asm_sources=asm_files("poly1305"),
    arch_c_sources={"amd64": ["ciphers/poly1305/poly1305_amd64_tables.c"],
                    "aarch64": ["ciphers/poly1305/poly1305_aarch64_tables.c"]},
    includes='#include "poly1305.h"',
)
