/* aead_depth.c - test-only: the stitched ChaCha20-Poly1305 assembly
 * routine for tests/test_asm_depth.py, on two groups of eight blocks (the
 * run and the measuring: gcry_asm_depth in gcrylike/_native/burn.c). */
#include "aead.h"

#ifdef USE_AMD64
/* the MAC reads the source, as when decrypting */
GCRY_DEPTH_THUNK (stitched,
                  _gcry_chacha20_poly1305_amd64_avx2_blocks8 (a->state, a->dst, a->src, 16,
                                                              a->h, a->r, a->src))

static const gcry_depth_case cases[] = {
  { "_gcry_chacha20_poly1305_amd64_avx2_blocks8", stitched },
};
#endif

GCRY_ASM_DEPTH_HOOK (gcry_aead_asm_depth)
