"""cffi build script for ``gcrylike._core`` (not installed)."""

from gcrylike_build import make_ffi

CDEF = """
uint32_t gcry_hwf_detect(void);
const char *gcry_hwf_name(unsigned int bit);
void *gcry_ctx_alloc(size_t size);
void gcry_ctx_release(void *p);
void gcry_wipememory(void *p, size_t len);
void gcry_copy_secret(void *dst, const void *src, size_t n);
uint64_t gcry_cycles(void);
int gcry_build_use_amd64(void);
const char *gcry_build_asm_arch(void);
double gcry_estimate_mhz(void);
"""

ffibuilder = make_ffi(
    "gcrylike._core",
    CDEF,
    ["gcrylike/_native/core.c"],
    includes='#include "common.h"',
)
