/* salsa20_glue.c - Salsa20, Salsa20/12 and XSalsa20 stream glue, and
 * HSalsa20: key and nonce set-up, leftover keystream, counter exhaustion,
 * per-call dispatch from the widest SIMD routine the length fills down to
 * the portable block function, and one stack burn per call. */
#include <string.h>
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
  impls |= (1u << SALSA20_IMPL_SSE2) | (1u << SALSA20_IMPL_AVX2);
#endif
  return impls;
}

static int
impl_ok (unsigned int impl)
{
  return impl < 32 && (gcry_salsa20_impls () & (1u << impl));
}

/* Constants and key into the Salsa20 state layout (words 0, 5, 10, 15 and
 * 1-4, 11-14); a 16-byte key is used twice with gcry_tau. */
static void
load_key (uint32_t state[16], const uint8_t *key, size_t keylen)
{
  const uint32_t *k = keylen == 32 ? gcry_sigma : gcry_tau;
  const uint8_t *key_hi = keylen == 32 ? key + 16 : key;
  int i;

  state[0] = k[0];
  state[5] = k[1];
  state[10] = k[2];
  state[15] = k[3];
  for (i = 0; i < 4; i++)
    {
      state[1 + i] = gcry_load_le32 (key + 4 * i);
      state[11 + i] = gcry_load_le32 (key_hi + 4 * i);
    }
}

/* HSalsa20 of STATE (constants, key, 16-byte input in words 6-9) with the
 * implementation's own routine, so XSalsa20 never leaves SIMD for its
 * subkey. */
static unsigned int
hsalsa20_dispatch (const uint32_t state[16], uint8_t out[32], unsigned int rounds,
                   unsigned int impl)
{
#ifdef USE_AMD64
  if (impl == SALSA20_IMPL_AVX2)
    return _gcry_hsalsa20_amd64_avx2 (state, out, rounds);
  if (impl == SALSA20_IMPL_SSE2)
    return _gcry_hsalsa20_amd64_sse2 (state, out, rounds);
#endif
  (void)impl;
  return gcry_stream_hcore_portable (hsalsa20_generic, state, out, rounds);
}

/* Public HSalsa20: 32-byte key and 16-byte input to a 32-byte subkey. */
int
gcry_hsalsa20 (const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen,
               uint8_t *out, unsigned int rounds, unsigned int impl)
{
  uint32_t state[16] GCRY_ALIGNED(64);
  unsigned int burn;
  int i, rc;

  rc = gcry_stream_check_hcore (keylen, inlen, rounds);
  if (rc)
    return rc;
  if (!impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;
  load_key (state, key, keylen);
  for (i = 0; i < 4; i++)
    state[6 + i] = gcry_load_le32 (in + 4 * i);
  burn = hsalsa20_dispatch (state, out, rounds, impl);
  gcry_wipememory (state, sizeof state);
  gcry_burn_stack (burn + sizeof (state) + GCRY_C_FRAME);
  return GCRY_OK;
}

int
gcry_salsa20_setkey (void *c, const uint8_t *key, size_t keylen,
                     unsigned int rounds, unsigned int impl, int xsalsa)
{
  salsa20_ctx *ctx = c;
  int i, rc;

  rc = gcry_stream_check_setkey (keylen, xsalsa, rounds);
  if (rc)
    return rc;
  if (!impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;

  gcry_wipememory (ctx, sizeof *ctx);
  load_key (ctx->input, key, keylen);
  if (xsalsa)
    for (i = 0; i < 4; i++)
      {
        ctx->key[i] = ctx->input[1 + i];
        ctx->key[4 + i] = ctx->input[11 + i];
      }
  ctx->rounds = rounds;
  ctx->impl = impl;
  ctx->xsalsa = !!xsalsa;
  return GCRY_OK;
}

/* XSalsa20: subkey = HSalsa20(key, nonce[0:16]) into the key words; the
 * caller puts nonce[16:24] in words 6-7. */
static unsigned int
xsalsa_subkey (salsa20_ctx *ctx, const uint8_t *iv)
{
  uint32_t state[16] GCRY_ALIGNED(64);
  uint8_t subkey[32];
  unsigned int burn;
  int i;

  state[0] = gcry_sigma[0];
  state[5] = gcry_sigma[1];
  state[10] = gcry_sigma[2];
  state[15] = gcry_sigma[3];
  for (i = 0; i < 4; i++)
    {
      state[1 + i] = ctx->key[i];
      state[11 + i] = ctx->key[4 + i];
      state[6 + i] = gcry_load_le32 (iv + 4 * i);
    }
  burn = hsalsa20_dispatch (state, subkey, ctx->rounds, ctx->impl);
  for (i = 0; i < 4; i++)
    {
      ctx->input[1 + i] = gcry_load_le32 (subkey + 4 * i);
      ctx->input[11 + i] = gcry_load_le32 (subkey + 16 + 4 * i);
    }
  gcry_wipememory (state, sizeof state);
  gcry_wipememory (subkey, sizeof subkey);
  return burn + sizeof (state) + sizeof (subkey) + GCRY_C_FRAME;
}

/* setiv without the burn (the caller burns the returned depth); RC gets
 * the error code.  8-byte nonce for Salsa20, 24 bytes for XSalsa20; the
 * counter starts at 0. */
unsigned int
salsa20_setiv_noburn (salsa20_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc)
{
  const uint8_t *nonce = iv;
  unsigned int burn = 0;

  if (ivlen != (ctx->xsalsa ? 24u : 8u))
    {
      *rc = GCRY_ERR_INV_IV;
      return 0;
    }
  if (ctx->xsalsa)
    {
      burn = xsalsa_subkey (ctx, iv);
      nonce = iv + 16;
    }
  ctx->input[6] = gcry_load_le32 (nonce);
  ctx->input[7] = gcry_load_le32 (nonce + 4);
  ctx->input[8] = ctx->input[9] = 0;
  gcry_stream_rewind (&ctx->pos);
  *rc = GCRY_OK;
  return burn;
}

int
gcry_salsa20_setiv (void *c, const uint8_t *iv, size_t ivlen)
{
  int rc;
  gcry_burn_stack (salsa20_setiv_noburn (c, iv, ivlen, &rc));
  return rc;
}

/* Seek: the next byte is the first byte of keystream block BLOCK. */
int
gcry_salsa20_setctr (void *c, uint64_t block)
{
  salsa20_ctx *ctx = c;

  ctx->input[8] = (uint32_t)block;
  ctx->input[9] = (uint32_t)(block >> 32);
  gcry_stream_rewind (&ctx->pos);
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

/* Whether NEED more blocks would run past block 2^64 - 1 (the stream ends
 * there; it never wraps into reused keystream). */
int
salsa20_too_many (const salsa20_ctx *ctx, uint64_t need)
{
  return gcry_stream_past_end (&ctx->pos, need, get_counter (ctx), 64);
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

GCRY_NOINLINE unsigned int
salsa20_crypt_noburn (salsa20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n)
{
  uint8_t ks[SALSA20_BLOCK];
  unsigned int burn = 0;
  size_t nblocks, tail;
  int made_blocks = 0;

  /* 1. bytes left over from the previous call's partial block */
  if (ctx->pos.unused)
    {
      size_t take = gcry_stream_take_pad (&ctx->pos, dst, src, n);
      dst += take;
      src += take;
      n -= take;
    }

  nblocks = n / SALSA20_BLOCK;
  tail = n % SALSA20_BLOCK;
  made_blocks = nblocks > 0 || tail > 0;

#ifdef USE_AMD64
  /* 2. bulk, widest first: groups of eight blocks in AVX2; with SSE2
   * alone, groups of four */
  {
    size_t group = ctx->impl == SALSA20_IMPL_AVX2 ? 8 : 4, bulk;
    gcry_stream_blocks_fn wide = ctx->impl == SALSA20_IMPL_AVX2
                                 ? _gcry_salsa20_amd64_avx2_blocks8
                                 : _gcry_salsa20_amd64_sse2_blocks4;

    bulk = ctx->impl != SALSA20_IMPL_GENERIC ? nblocks - nblocks % group : 0;
    if (bulk)
      {
        burn = wide (ctx->input, dst, src, bulk, ctx->rounds);
        dst += bulk * SALSA20_BLOCK;
        src += bulk * SALSA20_BLOCK;
        nblocks -= bulk;
      }

    /* 3a. SIMD drivers: the last 2 to 8 blocks (whole and partial) from
     * one call into a stack buffer (gcry_stream_wide_tail), eight-wide in
     * AVX2 from 5 blocks, else four-wide in SSE2; a single block is
     * cheaper in portable code */
    if (ctx->impl != SALSA20_IMPL_GENERIC && nblocks + (tail != 0) >= 2)
      {
        int eight = ctx->impl == SALSA20_IMPL_AVX2 && nblocks + (tail != 0) >= 5;
        burn = gcry_max_burn (burn, gcry_stream_wide_tail (
          eight ? _gcry_salsa20_amd64_avx2_blocks8 : _gcry_salsa20_amd64_sse2_blocks4,
          ctx->input, ctx->input + 8, ctx->rounds, eight ? 8 : 4, &ctx->pos,
          dst, src, nblocks, tail));
        nblocks = 0;
        tail = 0;
      }
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
      burn = gcry_max_burn (burn, keystream_block (ctx, ctx->pos.pad));
      gcry_stream_keep_tail (&ctx->pos, dst, src, tail);
    }

  if (made_blocks && get_counter (ctx) == 0)
    ctx->pos.exhausted = 1;

  gcry_wipememory (ks, sizeof ks);
  return burn + sizeof (ks) + GCRY_C_FRAME;
}

int
gcry_salsa20_crypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  salsa20_ctx *ctx = c;
  uint64_t need = gcry_stream_blocks_needed (&ctx->pos, n);

  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  if (salsa20_too_many (ctx, need))
    return GCRY_ERR_TOO_LARGE;
  if (n == 0)
    return GCRY_OK;

  gcry_burn_stack (salsa20_crypt_noburn (ctx, dst, src, n));
  return GCRY_OK;
}

/* For a request split over threads (gcrylike/_native/fastcall.c): 0 if N
 * more bytes of keystream exist (else the code gcry_salsa20_crypt would
 * return), the next keystream block's number and the leftover bytes of the
 * current one (see gcry_chacha_locate). */
int
gcry_salsa20_locate (void *c, size_t n, uint64_t *block, unsigned int *unused)
{
  salsa20_ctx *ctx = c;

  *block = get_counter (ctx);
  *unused = ctx->pos.unused;
  return salsa20_too_many (ctx, gcry_stream_blocks_needed (&ctx->pos, n))
    ? GCRY_ERR_TOO_LARGE : GCRY_OK;
}
