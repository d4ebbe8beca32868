"""cffi build script for ``gcrylike.ciphers.nhpoly1305._nhpoly1305`` (not installed)."""

from gcrylike_build import asm_files, drivers_cdef, make_ffi

CDEF = """
size_t gcry_nhpoly1305_ctxsize(void);
int gcry_nhpoly1305_setkey(void *ctx, const uint8_t *key, size_t keylen,
                           unsigned int nh_impl, unsigned int poly_impl);
int gcry_nhpoly1305_update(void *ctx, const uint8_t *m, size_t n);
int gcry_nhpoly1305_read(void *ctx, uint8_t *out, size_t outlen);
int gcry_nhpoly1305_verify(void *ctx, const uint8_t *tag, size_t taglen);
""" + drivers_cdef("nh")

ffibuilder = make_ffi(
    "gcrylike.ciphers.nhpoly1305._nhpoly1305",
    CDEF,
    ["ciphers/nhpoly1305/nhpoly1305_glue.c", "ciphers/nhpoly1305/nh_generic.c"],
    asm_sources=asm_files("nh"),
    includes='#include "nhpoly1305.h"',
)
