/* chacha.h - ChaCha (RFC 8439 and Bernstein's original), HChaCha and
 * XChaCha: context and the implementations behind the glue. */
#ifndef GCRYLIKE_CHACHA_H
#define GCRYLIKE_CHACHA_H

#include "stream_driver.h"
#include "linkage.h"

#define CHACHA_BLOCK GCRY_STREAM_BLOCK

/* Implementation ids (registry tokens); the glue dispatches on them. */
enum chacha_impl {
  CHACHA_IMPL_GENERIC = 0,
  CHACHA_IMPL_SSSE3 = 1,
  CHACHA_IMPL_AVX2 = 2,
  CHACHA_IMPL_AVX512 = 3,
  CHACHA_IMPL_NEON = 4
};

/* input[] is the RFC 8439 state: constants 0-3, key 4-11, words 12-15 the
 * counter and nonce.  With an 8-byte nonce (and for XChaCha) words 12-13
 * are a 64-bit counter; with a 12- or 16-byte IV word 12 alone is the
 * counter and running it past 2^32 - 1 is an error. */
typedef struct {
  uint32_t input[16] GCRY_ALIGNED(64);
  gcry_stream_pos pos;          /* leftover keystream, end of counter */
  uint32_t key[8];              /* XChaCha: the key HChaCha derives from */
  unsigned int rounds;
  unsigned int impl;
  unsigned int ctr64;           /* words 12-13 are one 64-bit counter */
  unsigned int xchacha;         /* setiv takes a 24-byte nonce */
} chacha_ctx;

/* Portable core: one keystream block (words), and HChaCha (8 words out). */
unsigned int chacha_generic_block (uint32_t out[16], const uint32_t in[16],
                                   unsigned int rounds);
unsigned int hchacha_generic (uint32_t out[8], const uint32_t in[16],
                              unsigned int rounds);

/* For the AEAD glue: the stream without the entry point's checks and burn
 * (returns the burn depth), and the exhaustion check. */
unsigned int chacha_crypt_noburn (chacha_ctx *ctx, uint8_t *dst,
                                  const uint8_t *src, size_t n);
int chacha_too_many (const chacha_ctx *ctx, uint64_t need);
/* After a routine outside this glue made blocks (the AEAD's stitched one):
 * NONCE_WORD is word 13 from before the call. */
void chacha_counter_done (chacha_ctx *ctx, uint32_t nonce_word);
unsigned int chacha_setiv_noburn (chacha_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc);
/* N fresh XChaCha contexts keyed as KEYED with the 24-byte nonces IVS[i],
 * the AVX-512 tier's subkeys up to sixteen at a time (their pads are
 * neither read nor wiped). */
unsigned int xchacha_setiv_many_noburn (const chacha_ctx *keyed, chacha_ctx *const ctxs[],
                                        const uint8_t *const ivs[], size_t n);
int gcry_chacha_setkey (void *c, const uint8_t *key, size_t keylen,
                        unsigned int rounds, unsigned int impl, int xchacha);
int gcry_chacha_setiv (void *c, const uint8_t *iv, size_t ivlen);
/* The drivers compiled in (chacha_glue.c, beside the tiers). */
const gcry_driver *gcry_chacha_drivers (size_t *n);

/* What the chacha module exports to the composites built on it
 * (gcrylike/_native/linkage.h): the functions above, by name. */
typedef struct {
  size_t size;
  int (*setkey) (void *c, const uint8_t *key, size_t keylen, unsigned int rounds,
                 unsigned int impl, int xchacha);
  int (*setiv) (void *c, const uint8_t *iv, size_t ivlen);
  unsigned int (*setiv_noburn) (chacha_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc);
  unsigned int (*xchacha_setiv_many_noburn) (const chacha_ctx *keyed, chacha_ctx *const ctxs[],
                                             const uint8_t *const ivs[], size_t n);
  unsigned int (*crypt_noburn) (chacha_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n);
  void (*counter_done) (chacha_ctx *ctx, uint32_t nonce_word);
} gcry_chacha_exports;

#ifdef USE_AMD64
/* asm/chacha-amd64-{ssse3,avx2,avx512}.S: dst = src ^ keystream
 * for NBLOCKS blocks (a multiple of the routine's width), words 12-13
 * advanced as a 64-bit counter (gcry_stream_blocks_fn); each returns its
 * stack burn depth. */
unsigned int _gcry_chacha_amd64_ssse3_blocks1 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_ssse3_blocks4 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx2_blocks2 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx2_blocks4 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx2_blocks8 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx512_blocks1 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx512_blocks4 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx512_blocks8 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_amd64_avx512_blocks16 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_hchacha_amd64_ssse3 (const uint32_t *state, uint8_t *out32, unsigned int rounds);
unsigned int _gcry_hchacha_amd64_avx2 (const uint32_t *state, uint8_t *out32, unsigned int rounds);
unsigned int _gcry_hchacha_amd64_avx512 (const uint32_t *state, uint8_t *out32, unsigned int rounds);
/* four HChaCha at once: 4 x 16 state words in, 4 x 32 bytes out */
unsigned int _gcry_hchacha4_amd64_avx512 (const uint32_t *states, uint8_t *out128,
                                          unsigned int rounds);
/* sixteen HChaCha sharing state words 0-11, word-major: nonce word w of
 * state j at nonces[16 w + j], output word k at out[16 k + j] */
unsigned int _gcry_hchacha16_amd64_avx512 (const uint32_t *state, const uint32_t *nonces,
                                           uint32_t *out, unsigned int rounds);
#endif

#ifdef USE_AARCH64
/* asm/chacha-aarch64-neon.S: the same contracts (gcry_stream_blocks_fn,
 * gcry_stream_hcore_fn); blocks4 takes a multiple of four blocks. */
unsigned int _gcry_chacha_aarch64_neon_blocks1 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_aarch64_neon_blocks4 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_chacha_aarch64_neon_blocks8 (uint32_t *, uint8_t *, const uint8_t *, size_t, unsigned int);
unsigned int _gcry_hchacha_aarch64_neon (const uint32_t *state, uint8_t *out32, unsigned int rounds);
#endif

#endif
