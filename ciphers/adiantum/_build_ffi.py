"""cffi build script for ``gcrylike.ciphers.adiantum._adiantum`` (not installed).

The Adiantum glue alone: ChaCha, Poly1305, NHPoly1305 and AES are their
modules' own, reached through what they export
(gcrylike/_native/linkage.h), so one sector is still one native call.
"""

from gcrylike_build import make_ffi

CDEF = """
size_t gcry_adiantum_ctxsize(void);
int gcry_adiantum_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int rounds,
                         unsigned int chacha_impl, unsigned int nh_impl,
                         unsigned int poly_impl, unsigned int aes_impl);
int gcry_adiantum_encrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                          const uint8_t *tweak, size_t tweaklen);
int gcry_adiantum_decrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                          const uint8_t *tweak, size_t tweaklen);
int gcry_adiantum_crypt_sectors(void *ctx, uint8_t *buf, size_t nsectors, size_t sector_size,
                                uint64_t first, int encrypting);
"""

ffibuilder = make_ffi(
    "gcrylike.ciphers.adiantum._adiantum",
    CDEF,
    ["ciphers/adiantum/adiantum_glue.c"],
    includes='#include "adiantum.h"',
)
