"""cffi build script for ``gcrylike.ciphers.chacha._chacha`` (not installed)."""

from gcrylike_build import CHACHA_ASM, CHACHA_C, TEST_HOOKS_CDEF, make_ffi

CDEF = """
size_t gcry_chacha_ctxsize(void);
uint32_t gcry_chacha_impls(void);
int gcry_chacha_setkey(void *ctx, const uint8_t *key, size_t keylen,
                       unsigned int rounds, unsigned int impl, int xchacha);
int gcry_chacha_setiv(void *ctx, const uint8_t *iv, size_t ivlen);
int gcry_chacha_setctr(void *ctx, uint64_t block);
int gcry_chacha_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_hchacha(const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen,
                 uint8_t *out, unsigned int rounds, unsigned int impl);
/* test-only: the SIMD tier table keeps the stream driver's rules */
int gcry_chacha_tiers_check(void);
/* test-only: the stream driver at widths up to 16 against the portable row */
int gcry_chacha_driver_check(void);
"""

ffibuilder = make_ffi(
    "gcrylike.ciphers.chacha._chacha",
    CDEF + TEST_HOOKS_CDEF,
    [*CHACHA_C, "ciphers/chacha/chacha_driver_check.c"],
    asm_sources=CHACHA_ASM,
    includes='#include "chacha.h"',
)
