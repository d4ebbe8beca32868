/* poly1305_depth.c - test-only: the Poly1305 assembly routines for
 * tests/test_asm_depth.py (the runs and the measuring: gcry_asm_depth in
 * gcrylike/_native/burn.c).  The SIMD ones run twice: with 64 blocks (their
 * main loops, which keep powers of r in a frame) and with the most blocks
 * they take without a frame (16 AVX2, 8 SSE2; "/n" in the case's name).
 * The IFMA routine has no frame at all (depth 0): 64 blocks run its
 * sixteen-block loop, 8 blocks only its last step. */
#include "poly1305.h"
#ifdef USE_AMD64
# include "poly1305_amd64.h"
#endif

#ifdef USE_AMD64
GCRY_DEPTH_THUNK (ifma_blocks, _gcry_poly1305_amd64_avx512ifma_blocks (a->h, a->table, a->src, 64))
GCRY_DEPTH_THUNK (ifma_blocks8, _gcry_poly1305_amd64_avx512ifma_blocks (a->h, a->table, a->src, 8))
GCRY_DEPTH_THUNK (avx2_blocks, _gcry_poly1305_amd64_avx2_blocks (a->h, a->table, a->src, 64))
GCRY_DEPTH_THUNK (avx2_blocks16, _gcry_poly1305_amd64_avx2_blocks (a->h, a->table, a->src, 16))
GCRY_DEPTH_THUNK (sse2_blocks, _gcry_poly1305_amd64_sse2_blocks (a->h, a->table, a->src, 64))
GCRY_DEPTH_THUNK (sse2_blocks8, _gcry_poly1305_amd64_sse2_blocks (a->h, a->table, a->src, 8))
GCRY_DEPTH_THUNK (scalar_blocks, _gcry_poly1305_amd64_scalar_blocks (a->h, a->r, a->src, 4))

static const gcry_depth_case cases[] = {
  { "_gcry_poly1305_amd64_avx512ifma_blocks", ifma_blocks },
  { "_gcry_poly1305_amd64_avx512ifma_blocks/8", ifma_blocks8 },
  { "_gcry_poly1305_amd64_avx2_blocks", avx2_blocks },
  { "_gcry_poly1305_amd64_avx2_blocks/16", avx2_blocks16 },
  { "_gcry_poly1305_amd64_sse2_blocks", sse2_blocks },
  { "_gcry_poly1305_amd64_sse2_blocks/8", sse2_blocks8 },
  { "_gcry_poly1305_amd64_scalar_blocks", scalar_blocks },
};
#endif

GCRY_ASM_DEPTH_HOOK (gcry_poly1305_asm_depth)
