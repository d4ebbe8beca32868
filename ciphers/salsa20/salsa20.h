/* salsa20.h - Salsa20, Salsa20/12, XSalsa20 and HSalsa20: context and the
 * implementations behind the glue. */
#ifndef GCRYLIKE_SALSA20_H
#define GCRYLIKE_SALSA20_H

#include "stream_driver.h"
#include "linkage.h"

#define SALSA20_BLOCK GCRY_STREAM_BLOCK

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
/* The drivers compiled in (salsa20_glue.c). */
const gcry_driver *gcry_salsa20_drivers (size_t *n);

/* What the salsa20 module exports to the composites built on it
 * (gcrylike/_native/linkage.h): the functions above, by name. */
typedef struct {
  size_t size;
  int (*setkey) (void *c, const uint8_t *key, size_t keylen, unsigned int rounds,
                 unsigned int impl, int xsalsa);
  unsigned int (*setiv_noburn) (salsa20_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc);
  unsigned int (*crypt_noburn) (salsa20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n);
  const gcry_driver *(*drivers) (size_t *n);
} gcry_salsa20_exports;

#endif
