"""cffi build script for ``gcrylike.ciphers.adiantum._adiantum`` (not installed).

Compiles the ChaCha, Poly1305, NH/NHPoly1305 and AES sources again beside
the Adiantum glue (symbols are hidden per shared object), so one sector is
one native call.
"""

from gcrylike_build import (
    AES_IDS,
    CHACHA_ASM,
    CHACHA_C,
    CHACHA_IDS,
    NH_IDS,
    POLY1305_AMD64_C,
    POLY1305_ASM,
    POLY1305_C,
    POLY1305_IDS,
    drivers_cdef,
    make_ffi,
)

CDEF = """
size_t gcry_adiantum_ctxsize(void);
uint32_t gcry_chacha_impls(void);
uint32_t gcry_nh_impls(void);
uint32_t gcry_poly1305_impls(void);
uint32_t gcry_aes_impls(void);
int gcry_adiantum_setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int rounds,
                         unsigned int chacha_impl, unsigned int nh_impl,
                         unsigned int poly_impl, unsigned int aes_impl);
int gcry_adiantum_encrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                          const uint8_t *tweak, size_t tweaklen);
int gcry_adiantum_decrypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                          const uint8_t *tweak, size_t tweaklen);
int gcry_adiantum_crypt_sectors(void *ctx, uint8_t *buf, size_t nsectors, size_t sector_size,
                                uint64_t first, int encrypting);
""" + drivers_cdef("chacha", "nh", "poly1305", "aes")

ffibuilder = make_ffi(
    "gcrylike.ciphers.adiantum._adiantum",
    CDEF,
    ["ciphers/adiantum/adiantum_glue.c",
     *CHACHA_C,
     *POLY1305_C,
     "ciphers/nhpoly1305/nhpoly1305_glue.c", "ciphers/nhpoly1305/nh_generic.c",
     "ciphers/aes/aes_glue.c", "ciphers/aes/aes_generic.c"],
    asm_sources=[*CHACHA_ASM,
                 *POLY1305_ASM,
                 "nh-amd64-sse2.S", "nh-amd64-avx2.S", "nh-amd64-avx512.S",
                 "poly1305-amd64-avx512-lanes.S", "aes-amd64-aesni.S"],
    amd64_c_sources=POLY1305_AMD64_C,
    includes='#include "adiantum.h"',
    # the components' ids, from their headers (adiantum.h includes them)
    constants=[*CHACHA_IDS, *NH_IDS, *POLY1305_IDS, *AES_IDS],
)
