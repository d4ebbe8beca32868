"""cffi build script for ``gcrylike.ciphers.secretbox._secretbox`` (not installed).

Compiles the Salsa20 and Poly1305 sources again (their symbols are hidden in
each shared object) so the secretbox glue can stitch them without crossing
extension boundaries.
"""

from gcrylike_build import (
    POLY1305_AMD64_C,
    POLY1305_ASM,
    POLY1305_C,
    POLY1305_IDS,
    SALSA20_IDS,
    drivers_cdef,
    make_ffi,
)

CDEF = """
size_t gcry_secretbox_ctxsize(void);
uint32_t gcry_salsa20_impls(void);
uint32_t gcry_poly1305_impls(void);
int gcry_secretbox_setkey(void *ctx, const uint8_t *key, size_t keylen,
                          unsigned int salsa_impl, unsigned int poly_impl);
int gcry_secretbox_seal(void *ctx, const uint8_t *nonce, size_t noncelen,
                        const uint8_t *src, size_t n, uint8_t *out);
int gcry_secretbox_open(void *ctx, const uint8_t *nonce, size_t noncelen,
                        const uint8_t *src, size_t n, uint8_t *out);
""" + drivers_cdef("salsa20", "poly1305")

ffibuilder = make_ffi(
    "gcrylike.ciphers.secretbox._secretbox",
    CDEF,
    ["ciphers/secretbox/secretbox_glue.c",
     "ciphers/salsa20/salsa20_glue.c", "ciphers/salsa20/salsa20_generic.c",
     *POLY1305_C],
    asm_sources=["salsa20-amd64-sse2.S", "salsa20-amd64-avx2.S",
                 "salsa20-amd64-avx512.S",
                 *POLY1305_ASM,
                 "salsa20-poly1305-amd64-avx2.S"],
    amd64_c_sources=POLY1305_AMD64_C,
    includes='#include "secretbox.h"',
    # the components' ids, from their headers (secretbox.h includes them)
    constants=[*SALSA20_IDS, *POLY1305_IDS],
)
