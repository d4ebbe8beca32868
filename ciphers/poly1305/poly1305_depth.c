/* poly1305_depth.c - test-only: the Poly1305 assembly routines for
 * tests/test_asm_depth.py (the runs and the measuring: gcry_asm_depth in
 * gcrylike/_native/burn.c).  The SIMD ones run twice: with 64 blocks (their
 * main loops, which keep powers of r in a frame) and with the most blocks
 * they take without a frame (16 AVX2, 8 SSE2; "/n" in the case's name). */
#include "poly1305.h"
#ifdef USE_AMD64
# include "poly1305_amd64.h"
#endif

#ifdef USE_AMD64
GCRY_DEPTH_THUNK (avx2_blocks, _gcry_poly1305_amd64_avx2_blocks (a->h, a->table, a->src, 64))
GCRY_DEPTH_THUNK (avx2_blocks16, _gcry_poly1305_amd64_avx2_blocks (a->h, a->table, a->src, 16))
GCRY_DEPTH_THUNK (sse2_blocks, _gcry_poly1305_amd64_sse2_blocks (a->h, a->table, a->src, 64))
GCRY_DEPTH_THUNK (sse2_blocks8, _gcry_poly1305_amd64_sse2_blocks (a->h, a->table, a->src, 8))
GCRY_DEPTH_THUNK (scalar_blocks, _gcry_poly1305_amd64_scalar_blocks (a->h, a->r, a->src, 4))

static const gcry_depth_case cases[] = {
  { "_gcry_poly1305_amd64_avx2_blocks", avx2_blocks },
  { "_gcry_poly1305_amd64_avx2_blocks/16", avx2_blocks16 },
  { "_gcry_poly1305_amd64_sse2_blocks", sse2_blocks },
  { "_gcry_poly1305_amd64_sse2_blocks/8", sse2_blocks8 },
  { "_gcry_poly1305_amd64_scalar_blocks", scalar_blocks },
};
#endif

/* Routine WHICH: its name, and unless REPORTED is NULL its reported and
 * measured depth, run SHIFT bytes deeper (0 or 16); GCRY_ERR_INV_ARG past
 * the last, NOT_SUPPORTED without assembly. */
int
gcry_poly1305_asm_depth (unsigned int which, unsigned int shift, const char **name,
                         unsigned int *reported, size_t *measured)
{
#ifdef USE_AMD64
  return gcry_asm_depth (cases, sizeof cases / sizeof cases[0], which, shift, name,
                         reported, measured);
#else
  (void)which, (void)shift, (void)name, (void)reported, (void)measured;
  return GCRY_ERR_NOT_SUPPORTED;
#endif
}
