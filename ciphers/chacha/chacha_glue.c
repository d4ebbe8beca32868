/* chacha_glue.c - ChaCha20/ChaCha12 (8-, 12- and 16-byte IVs), XChaCha and
 * HChaCha: key and nonce set-up, the counter forms, and ChaCha's table of
 * SIMD tiers for the shared stream driver (gcrylike/_native/stream_driver.h:
 * leftover keystream, widest routine first, wide tails, counter exhaustion,
 * and how to add a tier), with one stack burn per call. */
#include "chacha.h"

#ifdef USE_AMD64
/* asm/chacha-amd64-{ssse3,avx2,avx512}.S */
extern gcry_stream_blocks_routine _gcry_chacha_amd64_ssse3_blocks1, _gcry_chacha_amd64_ssse3_blocks4,
  _gcry_chacha_amd64_avx2_blocks2, _gcry_chacha_amd64_avx2_blocks4,
  _gcry_chacha_amd64_avx2_blocks8, _gcry_chacha_amd64_avx512_blocks1,
  _gcry_chacha_amd64_avx512_blocks4, _gcry_chacha_amd64_avx512_blocks8,
  _gcry_chacha_amd64_avx512_blocks16;
extern gcry_stream_hcore_routine _gcry_hchacha_amd64_ssse3, _gcry_hchacha_amd64_avx2,
  _gcry_hchacha_amd64_avx512;
extern gcry_stream_hcore4_routine _gcry_hchacha4_amd64_avx512;
extern gcry_stream_hcore16_routine _gcry_hchacha16_amd64_avx512;
#endif
#ifdef USE_AARCH64
/* asm/chacha-aarch64-neon.S (blocksN: a multiple of N blocks) */
extern gcry_stream_blocks_routine _gcry_chacha_aarch64_neon_blocks1,
  _gcry_chacha_aarch64_neon_blocks4, _gcry_chacha_aarch64_neon_blocks8;
extern gcry_stream_hcore_routine _gcry_hchacha_aarch64_neon;
#endif

/* The drivers, one per tier compiled in: name suffix, priority, the
 * GCRY_HWF_* bits its routines need, tag, description, and its tier
 * (stream_driver.h): routines widest first, then the wide-tail rules, then
 * the tier's HChaCha.  A row's place is its id. */
static const gcry_driver chacha_drivers[] = {
  { "generic", 100, 0, "", "portable C, one block at a time", NULL },
#ifdef USE_AMD64
  /* groups of four, then single blocks, which also make a partial last
   * block */
  { "amd64-ssse3", 300, GCRY_HWF_SSSE3, "",
    "four blocks in parallel, single-block tail, pshufb rotates",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_chacha_amd64_ssse3_blocks4, 4 },
                  { _gcry_chacha_amd64_ssse3_blocks1, 1 } },
      .hcore = _gcry_hchacha_amd64_ssse3) },
  /* groups of eight; 5-8 blocks left (whole and partial) from one more
   * eight-block call, fewer four, two and one at a time */
  { "amd64-avx2", 400, GCRY_HWF_SSSE3 | GCRY_HWF_AVX2, "",
    "eight blocks in parallel; tails of 5-8 blocks in one more such call, "
    "shorter ones four/two/one blocks",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_chacha_amd64_avx2_blocks8, 8 },
                  { _gcry_chacha_amd64_avx2_blocks4, 4 },
                  { _gcry_chacha_amd64_avx2_blocks2, 2 },
                  { _gcry_chacha_amd64_ssse3_blocks1, 1 } },
      .tails = { { _gcry_chacha_amd64_avx2_blocks8, 8, 5 } },
      .hcore = _gcry_hchacha_amd64_avx2) },
  /* groups of 16 (the routine runs two at a time from 32); the 2-16 blocks
   * left (whole and partial) from one 16-, 8- or 4-block call (the 4- and
   * 1-block routines are row form, with the shortest path through the
   * rounds), a last single one alone */
  { "amd64-avx512", 500, GCRY_HWF_AVX2 | GCRY_HWF_AVX512F | GCRY_HWF_AVX512VL, "",
    "sixteen blocks in parallel in zmm (two such groups interleaved from 32 "
    "blocks), vprold rotates; the 2-16 blocks left (whole and partial) in one "
    "16-, 8- (ymm) or 4-block (row-form zmm) call, a last single one alone",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_chacha_amd64_avx512_blocks16, 16 },
                  { _gcry_chacha_amd64_avx512_blocks8, 8 },
                  { _gcry_chacha_amd64_avx512_blocks4, 4 },
                  { _gcry_chacha_amd64_avx512_blocks1, 1 } },
      .tails = { { _gcry_chacha_amd64_avx512_blocks16, 16, 9 },
                 { _gcry_chacha_amd64_avx512_blocks8, 8, 5 },
                 { _gcry_chacha_amd64_avx512_blocks4, 4, 2 } },
      .hcore = _gcry_hchacha_amd64_avx512,
      .hcore4 = _gcry_hchacha4_amd64_avx512,
      .hcore16 = _gcry_hchacha16_amd64_avx512) },
#endif
#ifdef USE_AARCH64
  /* groups of eight (two sets of four lanes); the 5-8 blocks left (whole
   * and partial) from one more eight-block call, 2-4 from a four-block call
   * (whose rounds take hardly longer than one block's), a last single one
   * alone */
  { "aarch64-neon", 300, GCRY_HWF_NEON, "",
    "eight blocks in parallel (two sets of four lanes); the 5-8 blocks left "
    "(whole and partial) in one more such call, 2-4 in a four-block call, a "
    "last single one in row form",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_chacha_aarch64_neon_blocks8, 8 },
                  { _gcry_chacha_aarch64_neon_blocks4, 4 },
                  { _gcry_chacha_aarch64_neon_blocks1, 1 } },
      .tails = { { _gcry_chacha_aarch64_neon_blocks8, 8, 5 },
                 { _gcry_chacha_aarch64_neon_blocks4, 4, 2 } },
      .hcore = _gcry_hchacha_aarch64_neon) },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_chacha_drivers, chacha_drivers)

/* ChaCha for the driver: block counter in words 12-13. */
static const gcry_stream_cipher chacha_cipher = {
  NULL, 0, chacha_generic_block, hchacha_generic, 12
};

/* What driver IMPL (checked at setkey) runs. */
static const gcry_stream_tier *
tier_of (unsigned int impl)
{
  return gcry_stream_driver_tier (chacha_drivers, impl);
}

size_t
chacha_call_blocks (unsigned int impl, size_t need, size_t most)
{
  return gcry_stream_call_blocks (tier_of (impl), need, most);
}

size_t
gcry_chacha_ctxsize (void)
{
  return sizeof (chacha_ctx);
}

#ifdef GCRY_TEST_HOOKS
/* Test-only, in the test copies alone (tests/test_stream_tiers.py): the
 * table keeps the driver's rules. */
int
gcry_chacha_tiers_check (void)
{
  return gcry_stream_check_drivers (chacha_drivers,
                                    sizeof chacha_drivers / sizeof chacha_drivers[0]);
}
#endif

static int
impl_ok (unsigned int impl)
{
  return GCRY_DRIVER_OK (chacha_drivers, impl);
}

/* HChaCha of STATE (constants, key, 16-byte input) with the implementation's
 * own routine, so XChaCha never leaves SIMD for its subkey. */
static unsigned int
hchacha_dispatch (const uint32_t state[16], uint8_t out[32], unsigned int rounds,
                  unsigned int impl)
{
  return gcry_stream_hcore_on (&chacha_cipher, tier_of (impl), state, out, rounds);
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
  GCRY_ALIGNED(64) uint32_t state[16];
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
 * that subkey, a 64-bit counter from 0 and nonce[16:24] in words 14-15.
 * First the HChaCha input state of CTX's key and IV ... */
static void
xchacha_hstate (const chacha_ctx *ctx, const uint8_t *iv, uint32_t state[16])
{
  int i;

  for (i = 0; i < 4; i++)
    {
      state[i] = gcry_sigma[i];
      state[12 + i] = gcry_load_le32 (iv + 4 * i);
    }
  for (i = 0; i < 8; i++)
    state[4 + i] = ctx->key[i];
}

/* ... then the stream state from its subkey (in words 4-11): the counter
 * and nonce words ... */
static void
xchacha_counter_words (chacha_ctx *ctx, const uint8_t *iv)
{
  ctx->input[12] = ctx->input[13] = 0;
  ctx->input[14] = gcry_load_le32 (iv + 16);
  ctx->input[15] = gcry_load_le32 (iv + 20);
  ctx->ctr64 = 1;
}

/* ... and a new position (the leftover keystream wiped). */
static void
xchacha_after_subkey (chacha_ctx *ctx, const uint8_t *iv)
{
  xchacha_counter_words (ctx, iv);
  gcry_stream_rewind (&ctx->pos);
}

/* The stream state from the 32-byte SUBKEY. */
static void
xchacha_use_subkey (chacha_ctx *ctx, const uint8_t *iv, const uint8_t subkey[32])
{
  int i;

  for (i = 0; i < 8; i++)
    ctx->input[4 + i] = gcry_load_le32 (subkey + 4 * i);
  xchacha_after_subkey (ctx, iv);
}

static unsigned int
xchacha_setiv (chacha_ctx *ctx, const uint8_t *iv)
{
  GCRY_ALIGNED(64) uint32_t state[16];
  uint8_t subkey[32];
  unsigned int burn;

  xchacha_hstate (ctx, iv, state);
  burn = hchacha_dispatch (state, subkey, ctx->rounds, ctx->impl);
  xchacha_use_subkey (ctx, iv, subkey);
  gcry_wipememory (state, sizeof state);
  gcry_wipememory (subkey, sizeof subkey);
  return burn + sizeof (state) + sizeof (subkey) + GCRY_C_FRAME;
}

/* Subkeys of the N (2 to 4) contexts CTXS with nonces IVS from one HChaCha4
 * call (the states in rows). */
static unsigned int
xchacha_setiv4 (const gcry_stream_tier *tier, chacha_ctx *const ctxs[],
                const uint8_t *const ivs[], size_t n)
{
  GCRY_ALIGNED(64) uint32_t states[4][16];
  uint8_t subkeys[4][32];
  unsigned int burn;
  size_t j;

  for (j = 0; j < 4; j++)             /* unused lanes: a copy of the first */
    xchacha_hstate (ctxs[j < n ? j : 0], ivs[j < n ? j : 0], states[j]);
  burn = tier->hcore4 (&states[0][0], &subkeys[0][0], ctxs[0]->rounds);
  for (j = 0; j < n; j++)
    xchacha_use_subkey (ctxs[j], ivs[j], subkeys[j]);
  gcry_wipememory (states, sizeof states);
  gcry_wipememory (subkeys, sizeof subkeys);
  return burn + sizeof (states) + sizeof (subkeys) + GCRY_C_FRAME;
}

/* The same for N (up to 16) contexts from one HChaCha16 call: the nonce
 * words and the subkeys word-major (word w of context j at [w][j]). */
static unsigned int
xchacha_setiv16 (const gcry_stream_tier *tier, chacha_ctx *const ctxs[],
                 const uint8_t *const ivs[], size_t n)
{
  uint32_t state[16];
  GCRY_ALIGNED(64) uint32_t nonces[4][16], out[8][16];
  unsigned int burn;
  size_t j, w;

  xchacha_hstate (ctxs[0], ivs[0], state);
  for (j = 0; j < 16; j++)            /* unused lanes: a copy of the first */
    for (w = 0; w < 4; w++)
      nonces[w][j] = gcry_load_le32 (ivs[j < n ? j : 0] + 4 * w);
  burn = tier->hcore16 (state, &nonces[0][0], &out[0][0], ctxs[0]->rounds);
  for (j = 0; j < n; j++)            /* fresh contexts: no pad to wipe */
    {
      for (w = 0; w < 8; w++)
        ctxs[j]->input[4 + w] = out[w][j];
      xchacha_counter_words (ctxs[j], ivs[j]);
      gcry_stream_start (&ctxs[j]->pos);
    }
  gcry_wipememory (out, sizeof out);
  gcry_wipememory (nonces, sizeof nonces);
  gcry_wipememory (state, sizeof state);
  return burn + sizeof (state) + sizeof (nonces) + sizeof (out) + GCRY_C_FRAME;
}

/* The key, rounds and implementation of the XChaCha context KEYED into
 * CTX; the constants too (the rest of words 0-11 is the subkey's).  Its
 * pad is left as it was: the callers set a new position. */
static void
xchacha_keyed_like (chacha_ctx *ctx, const chacha_ctx *keyed)
{
  memcpy (ctx->input, keyed->input, 4 * sizeof ctx->input[0]);
  memcpy (ctx->key, keyed->key, sizeof ctx->key);
  ctx->rounds = keyed->rounds;
  ctx->impl = keyed->impl;
  ctx->xchacha = 1;
}

/* N fresh XChaCha contexts CTXS[i] keyed as KEYED, with the 24-byte nonces
 * IVS[i] (Adiantum's sectors): a context's 64 bytes of key, rounds and
 * implementation are copied, not all its 192 (with the 64-byte pad that a
 * fresh position then wiped again; for Adiantum, with its nonces completed
 * in place, a measurable share of a sector).  Their pads are not read; a
 * caller whose CTXS memory held keystream wipes it itself.  On the AVX-512
 * tier up to sixteen subkeys come from one HChaCha16 call (from five on:
 * it is throughput-bound, where HChaCha4 and one HChaCha alone are bound
 * by their rounds' latency), two to four from one HChaCha4; elsewhere one
 * at a time (figures: docs/algorithms.rst, "Adiantum", per-sector cost).
 * Returns the burn depth. */
unsigned int
xchacha_setiv_many_noburn (const chacha_ctx *keyed, chacha_ctx *const ctxs[],
                           const uint8_t *const ivs[], size_t n)
{
  const gcry_stream_tier *tier = tier_of (keyed->impl);
  unsigned int burn = 0;
  size_t i;

  for (i = 0; i < n; i++)
    xchacha_keyed_like (ctxs[i], keyed);
  i = 0;                              /* the contexts whose subkeys are made */
  if (n >= 2 && tier->hcore16)
    while (n - i >= 2)
      {
        size_t k = n - i < 16 ? n - i : 16;

        burn = gcry_max_burn (burn, (k > 4 ? xchacha_setiv16 : xchacha_setiv4) (
                                      tier, ctxs + i, ivs + i, k));
        i += k;
      }
  for (; i < n; i++)
    burn = gcry_max_burn (burn, xchacha_setiv (ctxs[i], ivs[i]));
  return burn + GCRY_C_FRAME;
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

/* After a routine outside the driver made blocks (the AEAD's stitched
 * one): NONCE_WORD is word 13 from before. */
void
chacha_counter_done (chacha_ctx *ctx, uint32_t nonce_word)
{
  gcry_stream_counter_done (&ctx->pos, ctx->input + 12, ctx->ctr64 ? 64 : 32, nonce_word);
}

GCRY_NOINLINE unsigned int
chacha_crypt_noburn (chacha_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n)
{
  return gcry_stream_crypt_on (&chacha_cipher, tier_of (ctx->impl), ctx->input, ctx->rounds,
                               ctx->ctr64 ? 64 : 32, &ctx->pos, dst, src, n);
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

static const gcry_chacha_exports chacha_exports = {
  sizeof (gcry_chacha_exports), gcry_chacha_setkey, gcry_chacha_setiv, chacha_setiv_noburn,
  xchacha_setiv_many_noburn, chacha_crypt_noburn, chacha_counter_done, gcry_chacha_drivers,
  chacha_call_blocks
};
GCRY_EXPORT (chacha, gcry_chacha_exports, chacha_exports)
