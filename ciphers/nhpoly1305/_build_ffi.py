"""cffi build script for ``gcrylike.ciphers.nhpoly1305._nhpoly1305`` (not installed)."""

from gcrylike_build import (
    NH_IDS,
    POLY1305_AMD64_C,
    POLY1305_ASM,
    POLY1305_C,
    POLY1305_IDS,
    drivers_cdef,
    make_ffi,
)

CDEF = """
size_t gcry_nhpoly1305_ctxsize(void);
uint32_t gcry_nh_impls(void);
uint32_t gcry_poly1305_impls(void);
int gcry_nhpoly1305_setkey(void *ctx, const uint8_t *key, size_t keylen,
                           unsigned int nh_impl, unsigned int poly_impl);
int gcry_nhpoly1305_update(void *ctx, const uint8_t *m, size_t n);
int gcry_nhpoly1305_read(void *ctx, uint8_t *out, size_t outlen);
int gcry_nhpoly1305_verify(void *ctx, const uint8_t *tag, size_t taglen);
""" + drivers_cdef("nh", "poly1305")

ffibuilder = make_ffi(
    "gcrylike.ciphers.nhpoly1305._nhpoly1305",
    CDEF,
    ["ciphers/nhpoly1305/nhpoly1305_glue.c", "ciphers/nhpoly1305/nh_generic.c", *POLY1305_C],
    asm_sources=["nh-amd64-sse2.S", "nh-amd64-avx2.S", "nh-amd64-avx512.S",
                 *POLY1305_ASM],
    amd64_c_sources=POLY1305_AMD64_C,
    includes='#include "nhpoly1305.h"',
    # NH's ids and Poly1305's (from poly1305.h, which nhpoly1305.h includes)
    constants=[*NH_IDS, *POLY1305_IDS],
)
