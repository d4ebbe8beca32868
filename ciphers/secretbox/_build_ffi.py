"""cffi build script for ``gcrylike.ciphers.secretbox._secretbox`` (not installed).

The secretbox glue and its stitched routine; Salsa20 and Poly1305 are the
salsa20 and poly1305 modules' own, reached through what they export
(gcrylike/_native/linkage.h).
"""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_secretbox_ctxsize(void);
int gcry_secretbox_setkey(void *ctx, const uint8_t *key, size_t keylen,
                          unsigned int salsa_impl, unsigned int poly_impl,
                          unsigned int join);
int gcry_secretbox_seal(void *ctx, const uint8_t *nonce, size_t noncelen,
                        const uint8_t *src, size_t n, uint8_t *out);
int gcry_secretbox_open(void *ctx, const uint8_t *nonce, size_t noncelen,
                        const uint8_t *src, size_t n, uint8_t *out);
""" + drivers_cdef("secretbox")

ffibuilder = make_ffi(
    "gcrylike.ciphers.secretbox._secretbox",
    CDEF,
    ["ciphers/secretbox/secretbox_glue.c"],
    asm_sources=asm_files("salsa20-poly1305"),
    includes='#include "secretbox.h"',
)
