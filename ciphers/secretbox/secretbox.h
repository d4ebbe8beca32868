/* secretbox.h - NaCl crypto_secretbox (XSalsa20-Poly1305): the keyed
 * context.  The one-shot calls work on a copy of it, so one keyed context
 * may serve many threads. */
#ifndef GCRYLIKE_SECRETBOX_H
#define GCRYLIKE_SECRETBOX_H

#include "salsa20.h"
#include "poly1305.h"

#define SECRETBOX_KEY 32
#define SECRETBOX_NONCE 24
#define SECRETBOX_TAG POLY1305_TAG

/* How a Salsa20 and a Poly1305 driver are joined: the composite's own
 * drivers (secretbox_glue.c's rows), one id each. */
enum secretbox_join {
  SECRETBOX_JOIN_SEPARATE = 0,      /* each part's own routine, chunk by chunk */
  SECRETBOX_JOIN_STITCHED_AVX2 = 1  /* both in one pass (the AVX2 pair) */
};

typedef struct {
  salsa20_ctx xsalsa;           /* XSalsa20 (20 rounds), keyed, no nonce */
  unsigned int poly_impl;       /* Poly1305 implementation id */
  unsigned int join;            /* enum secretbox_join */
  uint64_t stitched;            /* 512-byte groups through the stitched
                                 * routine since setkey (read by the test-only
                                 * hooks, tests/native/;
                                 * added to atomically, as one keyed
                                 * context may serve many threads) */
} secretbox_ctx;

#ifdef USE_AMD64
/* asm/salsa20-poly1305-amd64-avx2.S: Salsa20/20 over NBLOCKS (a multiple
 * of 8) blocks of SRC into DST, and Poly1305 over NBLOCKS * 64 bytes of
 * MAC_SRC into H (each 16 bytes with the 2^128 bit), in one pass; words
 * 8-9 of INPUT advanced as a 64-bit counter.  Returns the burn depth. */
unsigned int _gcry_salsa20_poly1305_amd64_avx2_blocks8 (uint32_t input[16], uint8_t *dst,
                                                        const uint8_t *src, size_t nblocks,
                                                        uint64_t h[3], const uint64_t r[2],
                                                        const uint8_t *mac_src);
#endif

#endif
