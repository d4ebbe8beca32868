/* salsa20_depth.c - test-only: the Salsa20 assembly routines for
 * tests/test_asm_depth.py, each with enough blocks to run every loop and
 * frame it has (the runs and the measuring: gcry_asm_depth in
 * gcrylike/_native/burn.c). */
#include "salsa20.h"

#ifdef USE_AMD64
GCRY_DEPTH_THUNK (avx512_blocks16,
                  _gcry_salsa20_amd64_avx512_blocks16 (a->state, a->dst, a->src, 32, 20))
/* From 272 blocks blocks16_gpr runs groups of 17 with a frame: in place on
 * a buffer of its own (the args' buffers hold 32 blocks). */
static uint8_t avx512_big[272 * 64];
GCRY_DEPTH_THUNK (avx512_blocks16_gpr,
                  _gcry_salsa20_amd64_avx512_blocks16_gpr (a->state, avx512_big, avx512_big,
                                                           272, 20))
GCRY_DEPTH_THUNK (avx512_blocks8,
                  _gcry_salsa20_amd64_avx512_blocks8 (a->state, a->dst, a->src, 16, 20))
GCRY_DEPTH_THUNK (avx512_hsalsa20, _gcry_hsalsa20_amd64_avx512 (a->state, a->dst, 20))
GCRY_DEPTH_THUNK (avx2_blocks8,
                  _gcry_salsa20_amd64_avx2_blocks8 (a->state, a->dst, a->src, 16, 20))
GCRY_DEPTH_THUNK (avx2_hsalsa20, _gcry_hsalsa20_amd64_avx2 (a->state, a->dst, 20))
GCRY_DEPTH_THUNK (sse2_blocks4, _gcry_salsa20_amd64_sse2_blocks4 (a->state, a->dst, a->src, 8, 20))
GCRY_DEPTH_THUNK (sse2_hsalsa20, _gcry_hsalsa20_amd64_sse2 (a->state, a->dst, 20))

static const gcry_depth_case cases[] = {
  { "_gcry_salsa20_amd64_avx512_blocks16", avx512_blocks16 },
  { "_gcry_salsa20_amd64_avx512_blocks16_gpr", avx512_blocks16_gpr },
  { "_gcry_salsa20_amd64_avx512_blocks8", avx512_blocks8 },
  { "_gcry_hsalsa20_amd64_avx512", avx512_hsalsa20 },
  { "_gcry_salsa20_amd64_avx2_blocks8", avx2_blocks8 },
  { "_gcry_hsalsa20_amd64_avx2", avx2_hsalsa20 },
  { "_gcry_salsa20_amd64_sse2_blocks4", sse2_blocks4 },
  { "_gcry_hsalsa20_amd64_sse2", sse2_hsalsa20 },
};
#endif

GCRY_ASM_DEPTH_HOOK (gcry_salsa20_asm_depth)
