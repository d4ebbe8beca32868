"""cffi build script for ``gcrylike.ciphers.chacha20poly1305._aead`` (not installed).

Compiles the ChaCha and Poly1305 sources again (their symbols are hidden in
each shared object) so the AEAD glue can stitch them without crossing
extension boundaries.
"""

from gcrylike_build import (
    CHACHA_ASM,
    CHACHA_C,
    CHACHA_IDS,
    POLY1305_AMD64_C,
    POLY1305_ASM,
    POLY1305_C,
    POLY1305_IDS,
    drivers_cdef,
    make_ffi,
)

CDEF = """
size_t gcry_aead_ctxsize(void);
uint32_t gcry_chacha_impls(void);
uint32_t gcry_poly1305_impls(void);
int gcry_aead_setkey(void *ctx, const uint8_t *key, size_t keylen,
                     unsigned int chacha_impl, unsigned int poly_impl, int xchacha);
int gcry_aead_setiv(void *ctx, const uint8_t *iv, size_t ivlen);
int gcry_aead_authenticate(void *ctx, const uint8_t *aad, size_t n);
int gcry_aead_encrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_aead_decrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_aead_gettag(void *ctx, uint8_t *tag, size_t taglen);
int gcry_aead_checktag(void *ctx, const uint8_t *tag, size_t taglen);
int gcry_aead_seal(void *ctx, const uint8_t *nonce, size_t noncelen,
                   const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
                   uint8_t *out);
int gcry_aead_open(void *ctx, const uint8_t *nonce, size_t noncelen,
                   const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
                   uint8_t *out);
""" + drivers_cdef("chacha", "poly1305")

ffibuilder = make_ffi(
    "gcrylike.ciphers.chacha20poly1305._aead",
    CDEF,
    ["ciphers/chacha20poly1305/aead_glue.c",
     *CHACHA_C,
     *POLY1305_C],
    asm_sources=[*CHACHA_ASM,
                 *POLY1305_ASM,
                 "chacha20-poly1305-amd64-avx2.S"],
    amd64_c_sources=POLY1305_AMD64_C,
    includes='#include "aead.h"',
    # the components' ids, from their headers (aead.h includes them)
    constants=[*CHACHA_IDS, *POLY1305_IDS],
)
