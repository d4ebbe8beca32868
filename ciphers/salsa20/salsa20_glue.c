/* salsa20_glue.c - Salsa20 and Salsa20/12 stream glue: key and nonce set-up,
 * leftover keystream, counter exhaustion, dispatch to the implementation
 * chosen at setkey, and one stack burn per call. */
#include "salsa20.h"

size_t
gcry_salsa20_ctxsize (void)
{
  return sizeof (salsa20_ctx);
}

/* Bit i set: implementation id i is compiled into this module. */
uint32_t
gcry_salsa20_impls (void)
{
  uint32_t impls = 1u << SALSA20_IMPL_GENERIC;
#ifdef USE_AMD64
  impls |= 1u << SALSA20_IMPL_SSE2;
#endif
  return impls;
}

int
gcry_salsa20_setkey (void *c, const uint8_t *key, size_t keylen,
                     unsigned int rounds, unsigned int impl)
{
  /* "expand 32-byte k" and "expand 16-byte k" as little-endian words */
  static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
  static const uint32_t tau[4] = { 0x61707865, 0x3120646e, 0x79622d36, 0x6b206574 };
  salsa20_ctx *ctx = c;
  const uint32_t *k;
  const uint8_t *key_hi;
  int i;

  if (keylen != 16 && keylen != 32)
    return GCRY_ERR_INV_KEYLEN;
  if (rounds == 0 || rounds % 2)
    return GCRY_ERR_INV_ARG;
  if (impl > 31 || !(gcry_salsa20_impls () & (1u << impl)))
    return GCRY_ERR_NOT_SUPPORTED;

  gcry_wipememory (ctx, sizeof *ctx);
  k = keylen == 32 ? sigma : tau;
  key_hi = keylen == 32 ? key + 16 : key;
  ctx->input[0] = k[0];
  ctx->input[5] = k[1];
  ctx->input[10] = k[2];
  ctx->input[15] = k[3];
  for (i = 0; i < 4; i++)
    {
      ctx->input[1 + i] = gcry_load_le32 (key + 4 * i);
      ctx->input[11 + i] = gcry_load_le32 (key_hi + 4 * i);
    }
  ctx->rounds = rounds;
  ctx->impl = impl;
  return GCRY_OK;
}

int
gcry_salsa20_setiv (void *c, const uint8_t *iv, size_t ivlen)
{
  salsa20_ctx *ctx = c;

  if (ivlen != 8)
    return GCRY_ERR_INV_IV;
  ctx->input[6] = gcry_load_le32 (iv);
  ctx->input[7] = gcry_load_le32 (iv + 4);
  ctx->input[8] = ctx->input[9] = 0;
  gcry_wipememory (ctx->pad, sizeof ctx->pad);
  ctx->unused = 0;
  ctx->exhausted = 0;
  return GCRY_OK;
}

/* Seek: the next byte is the first byte of keystream block BLOCK. */
int
gcry_salsa20_setctr (void *c, uint64_t block)
{
  salsa20_ctx *ctx = c;

  ctx->input[8] = (uint32_t)block;
  ctx->input[9] = (uint32_t)(block >> 32);
  gcry_wipememory (ctx->pad, sizeof ctx->pad);
  ctx->unused = 0;
  ctx->exhausted = 0;
  return GCRY_OK;
}

static uint64_t
get_counter (const salsa20_ctx *ctx)
{
  return ((uint64_t)ctx->input[9] << 32) | ctx->input[8];
}

static void
set_counter (salsa20_ctx *ctx, uint64_t v)
{
  ctx->input[8] = (uint32_t)v;
  ctx->input[9] = (uint32_t)(v >> 32);
}

/* Generic path: one block of keystream into KS (little-endian bytes). */
static unsigned int
keystream_block (salsa20_ctx *ctx, uint8_t ks[SALSA20_BLOCK])
{
  uint32_t words[16];
  unsigned int burn, i;

  burn = salsa20_generic_block (words, ctx->input, ctx->rounds);
  for (i = 0; i < 16; i++)
    gcry_store_le32 (ks + 4 * i, words[i]);
  set_counter (ctx, get_counter (ctx) + 1);
  return burn + sizeof (words) + GCRY_C_FRAME;
}

static GCRY_NOINLINE unsigned int
do_crypt (salsa20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n)
{
  uint8_t ks[SALSA20_BLOCK];
  unsigned int burn = 0;
  size_t nblocks, tail;
  int made_blocks = 0;

  /* 1. bytes left over from the previous call's partial block */
  if (ctx->unused)
    {
      size_t take = n < ctx->unused ? n : ctx->unused;
      gcry_xor_bytes (dst, src, ctx->pad + SALSA20_BLOCK - ctx->unused, take);
      ctx->unused -= take;
      dst += take;
      src += take;
      n -= take;
    }

  nblocks = n / SALSA20_BLOCK;
  tail = n % SALSA20_BLOCK;
  made_blocks = nblocks > 0 || tail > 0;

#ifdef USE_AMD64
  /* 2. bulk: groups of four blocks in the SSE2 routine */
  if (ctx->impl == SALSA20_IMPL_SSE2 && nblocks >= 4)
    {
      size_t nb = nblocks & ~(size_t)3;
      burn = gcry_max_burn (burn, _gcry_salsa20_amd64_sse2_blocks4 (
                                      ctx->input, dst, src, nb, ctx->rounds));
      dst += nb * SALSA20_BLOCK;
      src += nb * SALSA20_BLOCK;
      nblocks -= nb;
    }
#endif

  /* 3. remaining whole blocks, one at a time */
  for (; nblocks; nblocks--)
    {
      burn = gcry_max_burn (burn, keystream_block (ctx, ks));
      gcry_xor_bytes (dst, src, ks, SALSA20_BLOCK);
      dst += SALSA20_BLOCK;
      src += SALSA20_BLOCK;
    }

  /* 4. partial last block: keep the rest of its keystream in pad */
  if (tail)
    {
      burn = gcry_max_burn (burn, keystream_block (ctx, ctx->pad));
      gcry_xor_bytes (dst, src, ctx->pad, tail);
      ctx->unused = SALSA20_BLOCK - tail;
    }

  if (made_blocks && get_counter (ctx) == 0)
    ctx->exhausted = 1;

  gcry_wipememory (ks, sizeof ks);
  return burn + sizeof (ks) + GCRY_C_FRAME;
}

int
gcry_salsa20_crypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  salsa20_ctx *ctx = c;
  size_t from_pad = n < ctx->unused ? n : ctx->unused;
  uint64_t need = ((uint64_t)(n - from_pad) + SALSA20_BLOCK - 1) / SALSA20_BLOCK;
  uint64_t ctr = get_counter (ctx);

  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  /* The stream ends after block 2^64 - 1; never wrap into reused keystream. */
  if (need && (ctx->exhausted || (ctr != 0 && need > (uint64_t)0 - ctr)))
    return GCRY_ERR_TOO_LARGE;
  if (n == 0)
    return GCRY_OK;

  gcry_burn_stack (do_crypt (ctx, dst, src, n));
  return GCRY_OK;
}
