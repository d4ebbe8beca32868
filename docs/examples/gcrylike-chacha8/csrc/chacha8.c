/* chacha8.c - ChaCha with 8 rounds (Bernstein's original layout: 64-bit
 * block counter in words 12-13, 64-bit nonce in words 14-15) on gcrylike's
 * stream driver skeleton (stream_driver.h, found through
 * gcrylike.get_include()): the skeleton handles the leftover keystream of a
 * partial block, the end of the counter and the dispatch to the SIMD
 * routine; this file has the key and nonce set-up, the portable core, and
 * one table row per implementation. */
#include "stream_driver.h"

#define CHACHA8_ROUNDS 8

/* implementation ids: the Python side's Implementation tokens */
enum { CHACHA8_GENERIC = 0, CHACHA8_SSE2 = 1 };

typedef struct {
  GCRY_ALIGNED(64) uint32_t state[16];
  gcry_stream_pos pos;
  unsigned int impl;
} chacha8_ctx;

#define QROUND(x, a, b, c, d)                                               \
  do {                                                                      \
    x[a] += x[b]; x[d] = gcry_rol32 (x[d] ^ x[a], 16);                      \
    x[c] += x[d]; x[b] = gcry_rol32 (x[b] ^ x[c], 12);                      \
    x[a] += x[b]; x[d] = gcry_rol32 (x[d] ^ x[a], 8);                       \
    x[c] += x[d]; x[b] = gcry_rol32 (x[b] ^ x[c], 7);                       \
  } while (0)

/* The portable core: one keystream block of IN as words (the skeleton
 * advances the counter and burns the returned depth). */
static unsigned int
chacha8_block (uint32_t out[16], const uint32_t in[16], unsigned int rounds)
{
  uint32_t x[16];
  unsigned int i;

  memcpy (x, in, sizeof x);
  for (i = 0; i < rounds; i += 2)
    {
      QROUND (x, 0, 4, 8, 12); QROUND (x, 1, 5, 9, 13);     /* columns */
      QROUND (x, 2, 6, 10, 14); QROUND (x, 3, 7, 11, 15);
      QROUND (x, 0, 5, 10, 15); QROUND (x, 1, 6, 11, 12);   /* diagonals */
      QROUND (x, 2, 7, 8, 13); QROUND (x, 3, 4, 9, 14);
    }
  for (i = 0; i < 16; i++)
    out[i] = x[i] + in[i];
  return sizeof x + GCRY_C_FRAME;
}

#ifdef USE_AMD64
unsigned int chacha8_amd64_sse2_blocks1 (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                         size_t nblocks, unsigned int rounds);
#endif

/* One row per implementation id: row 0 (portable) is empty; a row's
 * routines, widest first, are what that implementation runs.  A width-1
 * routine also makes the partial last block. */
static const gcry_stream_tier chacha8_tiers[] = {
  [CHACHA8_GENERIC] = { { { 0 } } },
#ifdef USE_AMD64
  [CHACHA8_SSE2] = { .blocks = { { chacha8_amd64_sse2_blocks1, 1 } } },
#endif
};

static const gcry_stream_cipher chacha8 = {
  chacha8_tiers, sizeof chacha8_tiers / sizeof chacha8_tiers[0],
  chacha8_block,
  NULL,                 /* no HChaCha: no extended-nonce variant here */
  12,                   /* the block counter's low word */
};

size_t
c8_ctxsize (void)
{
  return sizeof (chacha8_ctx);
}

/* Bit i set: implementation id i is built (no assembly: only bit 0). */
uint32_t
c8_impls (void)
{
  return gcry_stream_impls (&chacha8);
}

int
c8_setkey (void *c, const uint8_t *key, size_t keylen, unsigned int impl)
{
  chacha8_ctx *ctx = c;
  const uint32_t *constants = keylen == 32 ? gcry_sigma : gcry_tau;
  unsigned int i;

  if (keylen != 32 && keylen != 16)
    return GCRY_ERR_INV_KEYLEN;
  if (impl >= 32 || !(c8_impls () >> impl & 1))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_wipememory (ctx, sizeof *ctx);   /* a previous key goes first */
  for (i = 0; i < 4; i++)
    {
      ctx->state[i] = constants[i];
      ctx->state[4 + i] = gcry_load_le32 (key + 4 * i);
      ctx->state[8 + i] = gcry_load_le32 (key + (keylen == 32 ? 16 : 0) + 4 * i);
    }
  ctx->impl = impl;
  return GCRY_OK;
}

void
c8_setiv (void *c, const uint8_t *iv)
{
  chacha8_ctx *ctx = c;

  ctx->state[12] = ctx->state[13] = 0;
  ctx->state[14] = gcry_load_le32 (iv);
  ctx->state[15] = gcry_load_le32 (iv + 4);
  gcry_stream_rewind (&ctx->pos);
}

void
c8_setctr (void *c, uint64_t block)
{
  chacha8_ctx *ctx = c;

  ctx->state[12] = (uint32_t)block;
  ctx->state[13] = (uint32_t)(block >> 32);
  gcry_stream_rewind (&ctx->pos);
}

/* The stream hook itself: N bytes from SRC into DST (DST may be SRC). */
int
c8_crypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  chacha8_ctx *ctx = c;
  uint64_t ctr = (uint64_t)ctx->state[13] << 32 | ctx->state[12];

  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  /* 64 here and below: all 64 bits of words 12-13 count */
  if (gcry_stream_past_end (&ctx->pos, gcry_stream_blocks_needed (&ctx->pos, n), ctr, 64))
    return GCRY_ERR_TOO_LARGE;  /* before writing anything */
  if (n)
    gcry_burn_stack (gcry_stream_crypt (&chacha8, ctx->impl, ctx->state, CHACHA8_ROUNDS, 64,
                                        &ctx->pos, dst, src, n));
  return GCRY_OK;
}
