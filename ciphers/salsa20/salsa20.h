/* salsa20.h - Salsa20, Salsa20/12, XSalsa20 and HSalsa20: context and the
 * implementations behind the glue. */
#ifndef GCRYLIKE_SALSA20_H
#define GCRYLIKE_SALSA20_H

#include "stream_driver.h"
#include "linkage.h"

#define SALSA20_BLOCK GCRY_STREAM_BLOCK

/* Implementation ids: the registry passes one to setkey and the glue
 * dispatches on it for the life of the key (libgcrypt keeps use_* bits in
 * the context the same way). */
enum salsa20_impl {
  SALSA20_IMPL_GENERIC = 0,
  SALSA20_IMPL_SSE2 = 1,
  SALSA20_IMPL_AVX2 = 2,
  SALSA20_IMPL_AVX512 = 3,
  SALSA20_IMPL_NEON = 4
};

/* input[] is the standard Salsa20 state: constants in words 0, 5, 10, 15,
 * key in 1-4 and 11-14, nonce in 6-7, 64-bit block counter in 8-9.  For
 * XSalsa20 the key words hold the HSalsa20 subkey of the current nonce and
 * key[] the key it is derived from. */
typedef struct {
  GCRY_ALIGNED(64) uint32_t input[16];
  gcry_stream_pos pos;          /* leftover keystream, end of counter */
  uint32_t key[8];              /* XSalsa20: the key HSalsa20 derives from */
  unsigned int rounds;
  unsigned int impl;
  unsigned int xsalsa;          /* setiv takes a 24-byte nonce */
} salsa20_ctx;

/* Portable core: one keystream block from IN into OUT (no counter update),
 * and HSalsa20 (OUT gets words 0, 5, 10, 15, 6, 7, 8, 9 of the rounds'
 * result, no feed-forward).  Both return the stack bytes they used. */
unsigned int salsa20_generic_block (uint32_t out[16], const uint32_t in[16],
                                    unsigned int rounds);
unsigned int hsalsa20_generic (uint32_t out[8], const uint32_t in[16],
                               unsigned int rounds);

/* For the secretbox glue: the stream without the entry point's checks and
 * burn (returns the burn depth), setiv likewise, and the exhaustion check
 * (whether NEED more keystream blocks run past the end of the counter). */
unsigned int salsa20_crypt_noburn (salsa20_ctx *ctx, uint8_t *dst,
                                   const uint8_t *src, size_t n);
unsigned int salsa20_setiv_noburn (salsa20_ctx *ctx, const uint8_t *iv,
                                   size_t ivlen, int *rc);
int salsa20_too_many (const salsa20_ctx *ctx, uint64_t need);
int gcry_salsa20_setkey (void *c, const uint8_t *key, size_t keylen,
                         unsigned int rounds, unsigned int impl, int xsalsa);
uint32_t gcry_salsa20_impls (void);
/* The drivers compiled in (salsa20_glue.c, beside the tiers). */
const gcry_driver *gcry_salsa20_drivers (size_t *n);

/* What the salsa20 module exports to the composites built on it
 * (gcrylike/_native/linkage.h): the functions above, by name. */
typedef struct {
  size_t size;
  int (*setkey) (void *c, const uint8_t *key, size_t keylen, unsigned int rounds,
                 unsigned int impl, int xsalsa);
  unsigned int (*setiv_noburn) (salsa20_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc);
  unsigned int (*crypt_noburn) (salsa20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n);
} gcry_salsa20_exports;

#ifdef USE_AMD64
/* asm/salsa20-amd64-sse2.S, asm/salsa20-amd64-avx2.S: dst = src ^ keystream
 * for NBLOCKS blocks (a multiple of 4, resp. 8), words 8-9 advanced as a
 * 64-bit counter; HSalsa20 of a state laid out as above with the 16-byte
 * input in words 6-9.  Each returns its stack burn depth. */
unsigned int _gcry_salsa20_amd64_sse2_blocks4 (uint32_t *state, uint8_t *dst,
                                               const uint8_t *src,
                                               size_t nblocks,
                                               unsigned int rounds);
unsigned int _gcry_salsa20_amd64_avx2_blocks8 (uint32_t *state, uint8_t *dst,
                                               const uint8_t *src,
                                               size_t nblocks,
                                               unsigned int rounds);
unsigned int _gcry_hsalsa20_amd64_sse2 (const uint32_t *state, uint8_t *out32,
                                        unsigned int rounds);
unsigned int _gcry_hsalsa20_amd64_avx2 (const uint32_t *state, uint8_t *out32,
                                        unsigned int rounds);
/* asm/salsa20-amd64-avx512.S (AVX512F + AVX512VL): the same for 16
 * blocks in zmm and 8 in ymm, and HSalsa20. */
unsigned int _gcry_salsa20_amd64_avx512_blocks16 (uint32_t *state, uint8_t *dst,
                                                  const uint8_t *src,
                                                  size_t nblocks,
                                                  unsigned int rounds);
/* blocks16_gpr: the same, from 272 blocks in groups of 17 (the 17th in
 * general-purpose registers beside the vector rounds). */
unsigned int _gcry_salsa20_amd64_avx512_blocks16_gpr (uint32_t *state, uint8_t *dst,
                                                      const uint8_t *src,
                                                      size_t nblocks,
                                                      unsigned int rounds);
unsigned int _gcry_salsa20_amd64_avx512_blocks8 (uint32_t *state, uint8_t *dst,
                                                 const uint8_t *src,
                                                 size_t nblocks,
                                                 unsigned int rounds);
unsigned int _gcry_hsalsa20_amd64_avx512 (const uint32_t *state, uint8_t *out32,
                                          unsigned int rounds);
#endif

#ifdef USE_AARCH64
/* asm/salsa20-aarch64-neon.S: the same contract (gcry_stream_blocks_fn),
 * a multiple of four blocks. */
unsigned int _gcry_salsa20_aarch64_neon_blocks4 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
#endif

#endif
