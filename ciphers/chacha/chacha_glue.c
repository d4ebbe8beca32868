/* chacha_glue.c - ChaCha20/ChaCha12 (8-, 12- and 16-byte IVs), XChaCha and
 * HChaCha: key and nonce set-up, leftover keystream, counter exhaustion,
 * per-call dispatch from the widest SIMD routine the length fills down to
 * the narrow ones, and one stack burn per call. */
#include "chacha.h"


size_t
gcry_chacha_ctxsize (void)
{
  return sizeof (chacha_ctx);
}

uint32_t
gcry_chacha_impls (void)
{
  uint32_t impls = 1u << CHACHA_IMPL_GENERIC;
#ifdef USE_AMD64
  impls |= (1u << CHACHA_IMPL_SSSE3) | (1u << CHACHA_IMPL_AVX2);
#endif
  return impls;
}

static int
impl_ok (unsigned int impl)
{
  return impl < 32 && (gcry_chacha_impls () & (1u << impl));
}

/* HChaCha of STATE (constants, key, 16-byte input) with the implementation's
 * own routine, so XChaCha never leaves SIMD for its subkey. */
static unsigned int
hchacha_dispatch (const uint32_t state[16], uint8_t out[32], unsigned int rounds,
                  unsigned int impl)
{
#ifdef USE_AMD64
  if (impl == CHACHA_IMPL_AVX2)
    return _gcry_hchacha_amd64_avx2 (state, out, rounds);
  if (impl == CHACHA_IMPL_SSSE3)
    return _gcry_hchacha_amd64_ssse3 (state, out, rounds);
#endif
  (void)impl;
  return gcry_stream_hcore_portable (hchacha_generic, state, out, rounds);
}

static void
load_key (uint32_t state[16], const uint8_t *key, size_t keylen)
{
  const uint32_t *c = keylen == 32 ? gcry_sigma : gcry_tau;
  const uint8_t *key_hi = keylen == 32 ? key + 16 : key;
  int i;

  for (i = 0; i < 4; i++)
    {
      state[i] = c[i];
      state[4 + i] = gcry_load_le32 (key + 4 * i);
      state[8 + i] = gcry_load_le32 (key_hi + 4 * i);
    }
}

/* Public HChaCha: 32-byte key and 16-byte input to a 32-byte subkey. */
int
gcry_hchacha (const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen,
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
    state[12 + i] = gcry_load_le32 (in + 4 * i);
  burn = hchacha_dispatch (state, out, rounds, impl);
  gcry_wipememory (state, sizeof state);
  gcry_burn_stack (burn + sizeof (state));
  return GCRY_OK;
}

int
gcry_chacha_setkey (void *c, const uint8_t *key, size_t keylen,
                    unsigned int rounds, unsigned int impl, int xchacha)
{
  chacha_ctx *ctx = c;
  int i, rc;

  rc = gcry_stream_check_setkey (keylen, xchacha, rounds);
  if (rc)
    return rc;
  if (!impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;

  gcry_wipememory (ctx, sizeof *ctx);
  load_key (ctx->input, key, keylen);
  if (xchacha)
    for (i = 0; i < 8; i++)
      ctx->key[i] = ctx->input[4 + i];
  ctx->rounds = rounds;
  ctx->impl = impl;
  ctx->xchacha = !!xchacha;
  ctx->ctr64 = 1;
  return GCRY_OK;
}

/* XChaCha: subkey = HChaCha(key, nonce[0:16]); the stream is ChaCha with
 * that subkey, a 64-bit counter from 0 and nonce[16:24] in words 14-15. */
static unsigned int
xchacha_setiv (chacha_ctx *ctx, const uint8_t *iv)
{
  uint32_t state[16] GCRY_ALIGNED(64);
  uint8_t subkey[32];
  unsigned int burn;
  int i;

  for (i = 0; i < 4; i++)
    {
      state[i] = gcry_sigma[i];
      state[12 + i] = gcry_load_le32 (iv + 4 * i);
    }
  for (i = 0; i < 8; i++)
    state[4 + i] = ctx->key[i];
  burn = hchacha_dispatch (state, subkey, ctx->rounds, ctx->impl);
  for (i = 0; i < 8; i++)
    ctx->input[4 + i] = gcry_load_le32 (subkey + 4 * i);
  ctx->input[12] = ctx->input[13] = 0;
  ctx->input[14] = gcry_load_le32 (iv + 16);
  ctx->input[15] = gcry_load_le32 (iv + 20);
  ctx->ctr64 = 1;
  gcry_wipememory (state, sizeof state);
  gcry_wipememory (subkey, sizeof subkey);
  return burn + sizeof (state) + sizeof (subkey) + GCRY_C_FRAME;
}

/* setiv without the burn (the caller burns the returned depth); RC gets
 * the error code. */
unsigned int
chacha_setiv_noburn (chacha_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc)
{
  unsigned int burn = 0;

  *rc = GCRY_OK;
  if (ctx->xchacha)
    {
      if (ivlen != 24)
        {
          *rc = GCRY_ERR_INV_IV;
          return 0;
        }
      burn = xchacha_setiv (ctx, iv);
    }
  else if (ivlen == 8)           /* Bernstein: 64-bit counter, 64-bit nonce */
    {
      ctx->input[12] = ctx->input[13] = 0;
      ctx->input[14] = gcry_load_le32 (iv);
      ctx->input[15] = gcry_load_le32 (iv + 4);
      ctx->ctr64 = 1;
    }
  else if (ivlen == 12 || ivlen == 16) /* RFC 8439: 32-bit counter */
    {
      const uint8_t *nonce = ivlen == 16 ? iv + 4 : iv;
      ctx->input[12] = ivlen == 16 ? gcry_load_le32 (iv) : 0;
      ctx->input[13] = gcry_load_le32 (nonce);
      ctx->input[14] = gcry_load_le32 (nonce + 4);
      ctx->input[15] = gcry_load_le32 (nonce + 8);
      ctx->ctr64 = 0;
    }
  else
    {
      *rc = GCRY_ERR_INV_IV;
      return 0;
    }
  gcry_stream_rewind (&ctx->pos);
  return burn;
}

int
gcry_chacha_setiv (void *c, const uint8_t *iv, size_t ivlen)
{
  int rc;
  gcry_burn_stack (chacha_setiv_noburn (c, iv, ivlen, &rc));
  return rc;
}

/* Seek: the next byte is the first byte of keystream block BLOCK. */
int
gcry_chacha_setctr (void *c, uint64_t block)
{
  chacha_ctx *ctx = c;

  if (!ctx->ctr64 && block > 0xffffffffu)
    return GCRY_ERR_TOO_LARGE;
  ctx->input[12] = (uint32_t)block;
  if (ctx->ctr64)
    ctx->input[13] = (uint32_t)(block >> 32);
  gcry_stream_rewind (&ctx->pos);
  return GCRY_OK;
}

static uint64_t
counter (const chacha_ctx *ctx)
{
  return ctx->ctr64 ? ((uint64_t)ctx->input[13] << 32) | ctx->input[12] : ctx->input[12];
}

/* Whether NEED more blocks would run past the end of the counter
 * (2^64 or 2^32 blocks from 0). */
int
chacha_too_many (const chacha_ctx *ctx, uint64_t need)
{
  return gcry_stream_past_end (&ctx->pos, need, counter (ctx), ctx->ctr64 ? 64 : 32);
}

static unsigned int
generic_block (chacha_ctx *ctx, uint8_t ks[CHACHA_BLOCK])
{
  uint32_t words[16];
  unsigned int burn, i;

  burn = chacha_generic_block (words, ctx->input, ctx->rounds);
  for (i = 0; i < 16; i++)
    gcry_store_le32 (ks + 4 * i, words[i]);
  if (++ctx->input[12] == 0)
    ++ctx->input[13];
  return burn + sizeof (words) + GCRY_C_FRAME;
}

/* Whole blocks: widest routine the count fills first, then narrower ones. */
static unsigned int
whole_blocks (chacha_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
  uint8_t ks[CHACHA_BLOCK];
  unsigned int burn = 0;

#define RUN(fn, nb)                                                        \
  do {                                                                     \
    size_t nb_ = (nb);                                                     \
    burn = gcry_max_burn (burn, fn (ctx->input, dst, src, nb_, ctx->rounds)); \
    dst += nb_ * CHACHA_BLOCK;                                             \
    src += nb_ * CHACHA_BLOCK;                                             \
    nblocks -= nb_;                                                        \
  } while (0)

#ifdef USE_AMD64
  if (ctx->impl == CHACHA_IMPL_AVX2)
    {
      if (nblocks >= 8)
        RUN (_gcry_chacha_amd64_avx2_blocks8, nblocks & ~(size_t)7);
      if (nblocks >= 4)
        RUN (_gcry_chacha_amd64_avx2_blocks4, 4);
      if (nblocks >= 2)
        RUN (_gcry_chacha_amd64_avx2_blocks2, 2);
    }
  if (ctx->impl == CHACHA_IMPL_SSSE3 && nblocks >= 4)
    RUN (_gcry_chacha_amd64_ssse3_blocks4, nblocks & ~(size_t)3);
  if (ctx->impl != CHACHA_IMPL_GENERIC && nblocks)
    RUN (_gcry_chacha_amd64_ssse3_blocks1, nblocks);
#endif
#undef RUN

  for (; nblocks; nblocks--)
    {
      burn = gcry_max_burn (burn, generic_block (ctx, ks));
      gcry_xor_bytes (dst, src, ks, CHACHA_BLOCK);
      dst += CHACHA_BLOCK;
      src += CHACHA_BLOCK;
    }
  gcry_wipememory (ks, sizeof ks);
  return burn + sizeof (ks) + GCRY_C_FRAME;
}

/* After keystream blocks were made: the routines count in 64 bits, so a
 * 32-bit counter must not carry into the nonce (NONCE_WORD is word 13 from
 * before), and reaching zero again means the stream is used up. */
void
chacha_counter_done (chacha_ctx *ctx, uint32_t nonce_word)
{
  if (!ctx->ctr64)
    ctx->input[13] = nonce_word;
  if (counter (ctx) == 0)
    ctx->pos.exhausted = 1;
}

GCRY_NOINLINE unsigned int
chacha_crypt_noburn (chacha_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n)
{
  static const uint8_t zeros[CHACHA_BLOCK];
  const uint32_t nonce_word = ctx->input[13];
  unsigned int burn = 0;
  size_t nblocks, tail;

  /* 1. bytes left over from the previous call's partial block */
  if (ctx->pos.unused)
    {
      size_t take = gcry_stream_take_pad (&ctx->pos, dst, src, n);
      dst += take;
      src += take;
      n -= take;
    }
  nblocks = n / CHACHA_BLOCK;
  tail = n % CHACHA_BLOCK;

#ifdef USE_AMD64
  /* 2a. AVX2 with 5 to 8 blocks (whole and partial) after the groups of
   * eight: one more eight-block call (gcry_stream_wide_tail) */
  if (ctx->impl == CHACHA_IMPL_AVX2 && nblocks % 8 + (tail != 0) >= 5)
    {
      size_t bulk = nblocks & ~(size_t)7;
      if (bulk)
        burn = whole_blocks (ctx, dst, src, bulk);
      burn = gcry_max_burn (burn, gcry_stream_wide_tail (
        _gcry_chacha_amd64_avx2_blocks8, ctx->input, ctx->input + 12, ctx->rounds, 8,
        &ctx->pos, dst + bulk * CHACHA_BLOCK, src + bulk * CHACHA_BLOCK, nblocks - bulk, tail));
      chacha_counter_done (ctx, nonce_word);
      return burn + GCRY_C_FRAME;
    }
#endif

  /* 2. whole blocks */
  if (nblocks)
    burn = whole_blocks (ctx, dst, src, nblocks);
  dst += nblocks * CHACHA_BLOCK;
  src += nblocks * CHACHA_BLOCK;

  /* 3. partial last block: keep the rest of its keystream in pad */
  if (tail)
    {
      burn = gcry_max_burn (burn, whole_blocks (ctx, ctx->pos.pad, zeros, 1));
      gcry_stream_keep_tail (&ctx->pos, dst, src, tail);
    }

  if (nblocks || tail)
    chacha_counter_done (ctx, nonce_word);
  return burn + GCRY_C_FRAME;
}

int
gcry_chacha_crypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  chacha_ctx *ctx = c;
  uint64_t need = gcry_stream_blocks_needed (&ctx->pos, n);

  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  if (chacha_too_many (ctx, need))
    return GCRY_ERR_TOO_LARGE;
  if (n == 0)
    return GCRY_OK;
  gcry_burn_stack (chacha_crypt_noburn (ctx, dst, src, n));
  return GCRY_OK;
}

/* For a request split over threads (gcrylike/_native/fastcall.c): 0 if N
 * more bytes of keystream exist (else the code gcry_chacha_crypt would
 * return), the number of the next keystream block and how many bytes of the
 * current one are left over.  Piece k of the request then starts at that
 * block plus k whole blocks, on a copy of the context seeked there. */
int
gcry_chacha_locate (void *c, size_t n, uint64_t *block, unsigned int *unused)
{
  chacha_ctx *ctx = c;

  *block = counter (ctx);
  *unused = ctx->pos.unused;
  return chacha_too_many (ctx, gcry_stream_blocks_needed (&ctx->pos, n))
    ? GCRY_ERR_TOO_LARGE : GCRY_OK;
}
