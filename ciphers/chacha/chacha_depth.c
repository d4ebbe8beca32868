/* chacha_depth.c - test-only: the ChaCha assembly routines for
 * tests/test_asm_depth.py, each with enough blocks to run every loop and
 * frame it has (the runs and the measuring: gcry_asm_depth in
 * gcrylike/_native/burn.c). */
#include "chacha.h"

#ifdef USE_AMD64
/* blocks16 with 32 blocks runs the two-group loop (spills), with 16 the
 * one-group path */
GCRY_DEPTH_THUNK (avx512_blocks16x2,
                  _gcry_chacha_amd64_avx512_blocks16 (a->state, a->dst, a->src, 32, 20))
GCRY_DEPTH_THUNK (avx512_blocks16,
                  _gcry_chacha_amd64_avx512_blocks16 (a->state, a->dst, a->src, 16, 20))
GCRY_DEPTH_THUNK (avx512_blocks8,
                  _gcry_chacha_amd64_avx512_blocks8 (a->state, a->dst, a->src, 16, 20))
GCRY_DEPTH_THUNK (avx512_blocks4,
                  _gcry_chacha_amd64_avx512_blocks4 (a->state, a->dst, a->src, 8, 20))
GCRY_DEPTH_THUNK (avx512_blocks1,
                  _gcry_chacha_amd64_avx512_blocks1 (a->state, a->dst, a->src, 3, 20))
GCRY_DEPTH_THUNK (avx512_hchacha, _gcry_hchacha_amd64_avx512 (a->state, a->dst, 20))
/* four states from the src buffer */
GCRY_DEPTH_THUNK (avx512_hchacha4,
                  _gcry_hchacha4_amd64_avx512 ((const uint32_t *)a->src, a->dst, 20))
GCRY_DEPTH_THUNK (avx2_blocks8, _gcry_chacha_amd64_avx2_blocks8 (a->state, a->dst, a->src, 16, 20))
GCRY_DEPTH_THUNK (avx2_blocks4, _gcry_chacha_amd64_avx2_blocks4 (a->state, a->dst, a->src, 8, 20))
GCRY_DEPTH_THUNK (avx2_blocks2, _gcry_chacha_amd64_avx2_blocks2 (a->state, a->dst, a->src, 4, 20))
GCRY_DEPTH_THUNK (avx2_hchacha, _gcry_hchacha_amd64_avx2 (a->state, a->dst, 20))
GCRY_DEPTH_THUNK (ssse3_blocks4,
                  _gcry_chacha_amd64_ssse3_blocks4 (a->state, a->dst, a->src, 8, 20))
GCRY_DEPTH_THUNK (ssse3_blocks1,
                  _gcry_chacha_amd64_ssse3_blocks1 (a->state, a->dst, a->src, 2, 20))
GCRY_DEPTH_THUNK (ssse3_hchacha, _gcry_hchacha_amd64_ssse3 (a->state, a->dst, 20))

static const gcry_depth_case cases[] = {
  { "_gcry_chacha_amd64_avx512_blocks16", avx512_blocks16x2 },
  { "_gcry_chacha_amd64_avx512_blocks16/16", avx512_blocks16 },
  { "_gcry_chacha_amd64_avx512_blocks8", avx512_blocks8 },
  { "_gcry_chacha_amd64_avx512_blocks4", avx512_blocks4 },
  { "_gcry_chacha_amd64_avx512_blocks1", avx512_blocks1 },
  { "_gcry_hchacha_amd64_avx512", avx512_hchacha },
  { "_gcry_hchacha4_amd64_avx512", avx512_hchacha4 },
  { "_gcry_chacha_amd64_avx2_blocks8", avx2_blocks8 },
  { "_gcry_chacha_amd64_avx2_blocks4", avx2_blocks4 },
  { "_gcry_chacha_amd64_avx2_blocks2", avx2_blocks2 },
  { "_gcry_hchacha_amd64_avx2", avx2_hchacha },
  { "_gcry_chacha_amd64_ssse3_blocks4", ssse3_blocks4 },
  { "_gcry_chacha_amd64_ssse3_blocks1", ssse3_blocks1 },
  { "_gcry_hchacha_amd64_ssse3", ssse3_hchacha },
};
#endif

GCRY_ASM_DEPTH_HOOK (gcry_chacha_asm_depth)
