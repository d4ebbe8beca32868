/* nhpoly1305_depth.c - test-only: the NH assembly routines for
 * tests/test_asm_depth.py, on whole 1024-byte units (the runs and the
 * measuring: gcry_asm_depth in gcrylike/_native/burn.c). */
#include "nhpoly1305.h"

#ifdef USE_AMD64
/* one 1024-byte message, and two units */
#define KEY(a) ((const uint32_t *)(a)->key)
GCRY_DEPTH_THUNK (avx512_nh, _gcry_nh_amd64_avx512 (KEY (a), a->src, 1024, a->dst))
GCRY_DEPTH_THUNK (avx512_units, _gcry_nh_amd64_avx512_units (KEY (a), a->src, 2, a->dst))
GCRY_DEPTH_THUNK (avx2_nh, _gcry_nh_amd64_avx2 (KEY (a), a->src, 1024, a->dst))
GCRY_DEPTH_THUNK (avx2_units, _gcry_nh_amd64_avx2_units (KEY (a), a->src, 2, a->dst))
GCRY_DEPTH_THUNK (sse2_nh, _gcry_nh_amd64_sse2 (KEY (a), a->src, 1024, a->dst))
GCRY_DEPTH_THUNK (sse2_units, _gcry_nh_amd64_sse2_units (KEY (a), a->src, 2, a->dst))

static const gcry_depth_case cases[] = {
  { "_gcry_nh_amd64_avx512", avx512_nh },
  { "_gcry_nh_amd64_avx512_units", avx512_units },
  { "_gcry_nh_amd64_avx2", avx2_nh },
  { "_gcry_nh_amd64_avx2_units", avx2_units },
  { "_gcry_nh_amd64_sse2", sse2_nh },
  { "_gcry_nh_amd64_sse2_units", sse2_units },
};
#endif

GCRY_ASM_DEPTH_HOOK (gcry_nhpoly1305_asm_depth)
