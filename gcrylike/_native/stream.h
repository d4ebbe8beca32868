/* stream.h - the keystream position of the 64-byte-block stream ciphers
 * (Salsa20 and ChaCha families): keystream left over from a partial block,
 * and whether the block counter has run out.  Each glue keeps one in its
 * context and uses these helpers, so the rules live in one place; the
 * per-call driver built on them is stream_driver.h. */
#ifndef GCRYLIKE_STREAM_H
#define GCRYLIKE_STREAM_H

#include "common.h"

#define GCRY_STREAM_BLOCK 64

typedef struct {
  uint8_t pad[GCRY_STREAM_BLOCK]; /* keystream of the last partial block */
  unsigned int unused;            /* bytes at the end of pad not used yet */
  unsigned int exhausted;         /* the counter wrapped: no keystream left */
} gcry_stream_pos;

/* The arguments every setkey of these ciphers checks: a 32-byte key (or a
 * 16-byte one, except for the extended-nonce variants, whose subkey
 * derivation takes 32) and an even, non-zero round count. */
static inline int
gcry_stream_check_setkey (size_t keylen, int extended_nonce, unsigned int rounds)
{
  if (keylen != 32 && (extended_nonce || keylen != 16))
    return GCRY_ERR_INV_KEYLEN;
  if (rounds == 0 || rounds % 2)
    return GCRY_ERR_INV_ARG;
  return GCRY_OK;
}

/* The arguments the public HSalsa20/HChaCha functions check: a 32-byte
 * key, a 16-byte input and an even, non-zero round count. */
static inline int
gcry_stream_check_hcore (size_t keylen, size_t inlen, unsigned int rounds)
{
  if (keylen != 32)
    return GCRY_ERR_INV_KEYLEN;
  if (inlen != 16)
    return GCRY_ERR_INV_IV;
  if (rounds == 0 || rounds % 2)
    return GCRY_ERR_INV_ARG;
  return GCRY_OK;
}

/* A portable subkey core: the eight output words of STATE after ROUNDS. */
typedef unsigned int (*gcry_hcore_fn) (uint32_t out[8], const uint32_t state[16],
                                       unsigned int rounds);

/* The subkey of STATE through the portable CORE, stored little-endian in
 * OUT; returns the burn depth. */
static inline unsigned int
gcry_stream_hcore_portable (gcry_hcore_fn core, const uint32_t state[16], uint8_t out[32],
                            unsigned int rounds)
{
  uint32_t words[8];
  unsigned int burn, i;

  burn = core (words, state, rounds);
  for (i = 0; i < 8; i++)
    gcry_store_le32 (out + 4 * i, words[i]);
  gcry_wipememory (words, sizeof words);
  return burn + sizeof (words) + GCRY_C_FRAME;
}

/* The start of a stream: no leftover keystream, counter not run out.  The
 * pad is not touched: for memory that never held keystream of this key
 * (a fresh context its owner wipes). */
static inline void
gcry_stream_start (gcry_stream_pos *pos)
{
  pos->unused = 0;
  pos->exhausted = 0;
}

/* A new nonce or position: the same, the old leftover keystream wiped. */
static inline void
gcry_stream_rewind (gcry_stream_pos *pos)
{
  gcry_wipememory (pos->pad, sizeof pos->pad);
  gcry_stream_start (pos);
}

/* Keystream blocks a request of N bytes needs beyond the leftover. */
static inline uint64_t
gcry_stream_blocks_needed (const gcry_stream_pos *pos, size_t n)
{
  size_t from_pad = n < pos->unused ? n : pos->unused;
  return ((uint64_t)(n - from_pad) + GCRY_STREAM_BLOCK - 1) / GCRY_STREAM_BLOCK;
}

/* Whether NEED more blocks run past the end of a BITS-bit counter (64 or
 * 32) now at CTR: the stream ends there, it never wraps into keystream
 * already used (or, for 32 bits, into the nonce). */
static inline int
gcry_stream_past_end (const gcry_stream_pos *pos, uint64_t need, uint64_t ctr,
                      unsigned int bits)
{
  if (need == 0)
    return 0;
  if (pos->exhausted)
    return 1;
  if (bits == 64)
    return ctr != 0 && need > (uint64_t)0 - ctr;
  return need > ((uint64_t)1 << bits) - ctr;
}

/* XOR the leftover keystream into the first bytes of the request; returns
 * how many bytes it covered (the caller advances past them). */
static inline size_t
gcry_stream_take_pad (gcry_stream_pos *pos, uint8_t *dst, const uint8_t *src, size_t n)
{
  size_t take = n < pos->unused ? n : pos->unused;

  gcry_xor_bytes (dst, src, pos->pad + GCRY_STREAM_BLOCK - pos->unused, take);
  pos->unused -= (unsigned int)take;
  return take;
}

/* The last TAIL (< 64) bytes of a request use the keystream block just
 * written to pad; the rest of that block is kept for the next call. */
static inline void
gcry_stream_keep_tail (gcry_stream_pos *pos, uint8_t *dst, const uint8_t *src, size_t tail)
{
  gcry_xor_bytes (dst, src, pos->pad, tail);
  pos->unused = (unsigned int)(GCRY_STREAM_BLOCK - tail);
}

#endif
