/* aead.h - ChaCha20-Poly1305 (RFC 8439 2.8) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha 2.3) context. */
#ifndef GCRYLIKE_AEAD_H
#define GCRYLIKE_AEAD_H

#include "chacha.h"
#include "poly1305.h"

/* How a ChaCha and a Poly1305 driver are joined: the composite's own
 * drivers (aead_glue.c's rows), one id each. */
enum aead_join {
  AEAD_JOIN_SEPARATE = 0,       /* each part's own routine, chunk by chunk */
  AEAD_JOIN_STITCHED_AVX2 = 1   /* both in one pass (the AVX2 pair) */
};

enum aead_phase {
  AEAD_NEED_IV = 0,   /* keyed, no nonce yet */
  AEAD_AAD = 1,       /* nonce set: associated data may be added */
  AEAD_DATA = 2,      /* encrypting or decrypting */
  AEAD_DONE = 3       /* tag computed; setiv starts a new message */
};

typedef struct {
  chacha_ctx chacha;
  poly1305_ctx mac;
  uint8_t tag[POLY1305_TAG];
  uint64_t aadlen;
  uint64_t ctlen;
  unsigned int phase;
  unsigned int poly_impl;
  unsigned int join;        /* enum aead_join */
  unsigned int encrypting;  /* direction of the data phase: 1 enc, 0 dec */
  uint64_t stitched;        /* groups through the stitched routine since
                             * setkey (read by the test-only hooks,
                             * tests/native/) */
} aead_ctx;

#ifdef USE_AMD64
/* asm/chacha20-poly1305-amd64-avx2.S: ChaCha20 over NBLOCKS (a multiple of
 * 8) blocks of SRC into DST, and Poly1305 over NBLOCKS * 64 bytes of
 * MAC_SRC into H (each 16 bytes with the 2^128 bit), in one pass; words
 * 12-13 of INPUT advanced as a 64-bit counter.  Returns the burn depth. */
unsigned int _gcry_chacha20_poly1305_amd64_avx2_blocks8 (uint32_t input[16], uint8_t *dst,
                                                        const uint8_t *src, size_t nblocks,
                                                        uint64_t h[3], const uint64_t r[2],
                                                        const uint8_t *mac_src);
#endif

#endif
