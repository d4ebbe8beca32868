"""cffi build script for ``gcrylike.ciphers.chacha20poly1305._aead`` (not installed).

The AEAD glue and its stitched routine; ChaCha and Poly1305 are the chacha
and poly1305 modules' own, reached through what they export
(gcrylike/_native/linkage.h), so each chunk is still one native call.
"""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_aead_ctxsize(void);
int gcry_aead_setkey(void *ctx, const uint8_t *key, size_t keylen,
                     unsigned int chacha_impl, unsigned int poly_impl, unsigned int join,
                     int xchacha);
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
""" + drivers_cdef("aead")

ffibuilder = make_ffi(
    "gcrylike.ciphers.chacha20poly1305._aead",
    CDEF,
    ["ciphers/chacha20poly1305/aead_glue.c"],
    asm_sources=asm_files("chacha20-poly1305"),
    includes='#include "aead.h"',
)
