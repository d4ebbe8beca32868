/* salsa20.h - Salsa20 context and the implementations behind the glue. */
#ifndef GCRYLIKE_SALSA20_H
#define GCRYLIKE_SALSA20_H

#include "common.h"

#define SALSA20_BLOCK 64

/* Implementation ids: the registry passes one to setkey and the glue
 * dispatches on it for the life of the key (libgcrypt keeps use_* bits in
 * the context the same way). */
enum salsa20_impl {
  SALSA20_IMPL_GENERIC = 0,
  SALSA20_IMPL_SSE2 = 1
};

/* input[] is the standard Salsa20 state: constants in words 0, 5, 10, 15,
 * key in 1-4 and 11-14, nonce in 6-7, 64-bit block counter in 8-9. */
typedef struct {
  uint32_t input[16] GCRY_ALIGNED(64);
  uint8_t pad[SALSA20_BLOCK];   /* keystream of the last partial block */
  unsigned int unused;          /* bytes of pad not used yet */
  unsigned int rounds;
  unsigned int impl;
  unsigned int exhausted;       /* counter wrapped past 2^64 - 1 */
} salsa20_ctx;

/* One keystream block from IN into OUT (no counter update); returns the
 * stack bytes it used. */
unsigned int salsa20_generic_block (uint32_t out[16], const uint32_t in[16],
                                    unsigned int rounds);

#ifdef USE_AMD64
unsigned int _gcry_salsa20_amd64_sse2_blocks4 (uint32_t *state, uint8_t *dst,
                                               const uint8_t *src,
                                               size_t nblocks,
                                               unsigned int rounds);
#endif

#endif
