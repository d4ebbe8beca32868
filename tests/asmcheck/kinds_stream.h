/* kinds_stream.h - what the ChaCha/Salsa20 kinds share with the stitched
 * ones (kinds_stitched.c). */
#ifndef GCRYLIKE_KINDS_STREAM_H
#define GCRYLIKE_KINDS_STREAM_H

#include "asmcheck.h"
#include "chacha.h"
#include "vectors.h"
#include "salsa20.h"

typedef unsigned int (*blocks_fn) (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                   size_t nblocks, unsigned int rounds);
typedef unsigned int (*hash_fn) (const uint32_t *state, uint8_t *out32, unsigned int rounds);
/* four HChaCha at once: four states one after the other, their outputs in order */
typedef unsigned int (*hash4_fn) (const uint32_t *states, uint8_t *out128, unsigned int rounds);

/* Where a cipher keeps its words, and its portable reference. */
typedef struct {
  const char *name;
  unsigned int ctr;             /* the 64-bit counter: words ctr, ctr + 1 */
  unsigned int nonce;           /* an 8-byte nonce: words nonce, nonce + 1 */
  unsigned int key_words[8];
  unsigned int const_words[4];
  unsigned int in_words[4];     /* the 16-byte input of HChaCha / HSalsa20 */
  unsigned int (*block) (uint32_t out[16], const uint32_t in[16], unsigned int rounds);
  unsigned int (*hash) (uint32_t out[8], const uint32_t in[16], unsigned int rounds);
} core;

extern const core CORE_CHACHA, CORE_SALSA20;


uint64_t core_counter (const core *c, const uint32_t st[16]);
void core_state (const core *c, uint32_t st[16], const uint8_t *key, size_t keylen,
                 const uint8_t *nonce, size_t noncelen, uint64_t ctr);
/* A random state: random key (either size), nonce, and a counter of the
 * kind MODE (0-3) asks for, N blocks ahead (kinds_stream.c). */
void core_random_state (check *t, const core *c, uint32_t st[16], size_t n, unsigned int mode);
void hash_vector_state (const core *c, const hash_vector *v, uint32_t st[16], uint8_t want[32]);
void core_ref_blocks (const core *c, uint32_t st[16], uint8_t *dst, const uint8_t *src,
                      size_t n, unsigned int rounds);
uint32_t *place_state (check *t, const uint32_t st[16]);
size_t first_diff (const uint8_t *a, const uint8_t *b, size_t n);
unsigned int max_multiple (const row *r);

#endif
