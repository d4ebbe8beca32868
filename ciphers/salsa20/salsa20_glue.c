/* salsa20_glue.c - Salsa20, Salsa20/12 and XSalsa20 stream glue, and
 * HSalsa20: key and nonce set-up, and Salsa20's table of SIMD tiers for the
 * shared stream driver (gcrylike/_native/stream_driver.h: leftover
 * keystream, widest routine first, wide tails, counter exhaustion, and how
 * to add a tier), with one stack burn per call. */
#include <string.h>
#include "salsa20.h"

#ifdef USE_AMD64
/* asm/salsa20-amd64-{sse2,avx2,avx512}.S; blocks16_gpr: the AVX-512
 * routine from 272 blocks in groups of 17 (the 17th in general-purpose
 * registers beside the vector rounds) */
extern gcry_stream_blocks_routine _gcry_salsa20_amd64_sse2_blocks4, _gcry_salsa20_amd64_avx2_blocks8,
  _gcry_salsa20_amd64_avx512_blocks8, _gcry_salsa20_amd64_avx512_blocks16,
  _gcry_salsa20_amd64_avx512_blocks16_gpr;
extern gcry_stream_hcore_routine _gcry_hsalsa20_amd64_sse2, _gcry_hsalsa20_amd64_avx2,
  _gcry_hsalsa20_amd64_avx512;
#endif
#ifdef USE_AARCH64
/* asm/salsa20-aarch64-neon.S: a multiple of four blocks */
extern gcry_stream_blocks_routine _gcry_salsa20_aarch64_neon_blocks4;
#endif

#ifdef USE_AMD64
/* Whether the AVX-512 bulk takes groups of 17 blocks, one in the integer
 * units (_gcry_salsa20_amd64_avx512_blocks16_gpr): never by default.  On
 * AMD Zen 4 it beat one group of 16 at a time (the integer ALUs idle beside
 * latency-bound vector rounds), but blocks16 now runs two groups of 16
 * interleaved, which fills the vector pipes and is faster again; where
 * 512-bit instructions run whole (Intel), the scalar steps would take
 * ports the vector rounds need (figures: docs/algorithms.rst, "The Salsa20
 * family").  The routine stays for a test hook to force. */
static int avx512_gpr;

static int
avx512_gpr_helps (void)
{
  return gcry_atomic_load_int (&avx512_gpr);
}

/* The AVX-512 tier's 16-block routine: two groups of sixteen at a time,
 * or seventeen a group from 272 blocks when a test forces it (above). */
static unsigned int
salsa20_avx512_blocks16 (uint32_t *state, uint8_t *dst, const uint8_t *src, size_t nblocks,
                         unsigned int rounds)
{
  return (avx512_gpr_helps () ? _gcry_salsa20_amd64_avx512_blocks16_gpr
                              : _gcry_salsa20_amd64_avx512_blocks16) (state, dst, src,
                                                                      nblocks, rounds)
         + GCRY_C_FRAME;
}
#endif

#ifdef GCRY_TEST_HOOKS
/* Test-only, in the test copies alone: whether the AVX-512 bulk takes
 * groups of 17 (SET < 0: ask; 0 or 1: force it, returning the previous
 * answer; 0 unless forced). */
int
gcry_salsa20_avx512_gpr (int set)
{
#ifdef USE_AMD64
  int previous = avx512_gpr_helps ();

  if (set >= 0)
    gcry_atomic_store_int (&avx512_gpr, !!set);
  return previous;
#else
  (void)set;
  return 0;
#endif
}
#endif

/* The drivers, one per tier compiled in: name suffix, priority, the
 * GCRY_HWF_* bits its routines need, tag, description, and its tier
 * (stream_driver.h): routines widest first, then the wide-tail rules, then
 * the tier's HSalsa20.  A row's place is its id.  On amd64 the blocks left
 * after the groups, whole and partial, come from one call into a stack
 * buffer when there are at least two; a single one is cheaper in portable
 * code, so no amd64 tier has a width-1 routine. */
static const gcry_driver salsa20_drivers[] = {
  { "generic", 100, 0, "", "portable C, one block at a time", NULL },
#ifdef USE_AMD64
  /* 2-4 blocks left from one more four-block call */
  { "amd64-sse2", 300, GCRY_HWF_SSE2, "",
    "four blocks in parallel with SSE2, single blocks in C",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_salsa20_amd64_sse2_blocks4, 4 } },
      .tails = { { _gcry_salsa20_amd64_sse2_blocks4, 4, 2 } },
      .hcore = _gcry_hsalsa20_amd64_sse2) },
  /* 5-8 left from one more eight-block call, 2-4 from a four-block one */
  { "amd64-avx2", 400, GCRY_HWF_SSE2 | GCRY_HWF_AVX2, "",
    "eight blocks in parallel with AVX2, then four with SSE2, single blocks in C",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_salsa20_amd64_avx2_blocks8, 8 } },
      .tails = { { _gcry_salsa20_amd64_avx2_blocks8, 8, 5 },
                 { _gcry_salsa20_amd64_sse2_blocks4, 4, 2 } },
      .hcore = _gcry_hsalsa20_amd64_avx2) },
  /* 9-16 left from one 16-block call, 2-8 from one 8-block ymm call, which
   * takes about one portable block's time */
  { "amd64-avx512", 500, GCRY_HWF_AVX512F | GCRY_HWF_AVX512VL, "",
    "sixteen blocks in parallel in zmm (two groups interleaved while there are 32), the "
    "last 2-16 from one 16- or 8-block call, a single block in C",
    GCRY_STREAM_TIER (
      .blocks = { { salsa20_avx512_blocks16, 16 },
                  { _gcry_salsa20_amd64_avx512_blocks8, 8 } },
      .tails = { { salsa20_avx512_blocks16, 16, 9 },
                 { _gcry_salsa20_amd64_avx512_blocks8, 8, 2 } },
      .hcore = _gcry_hsalsa20_amd64_avx512) },
#endif
#ifdef USE_AARCH64
  /* four blocks only (asm/salsa20-aarch64-neon.S says why): the 2-4 left
   * from one more four-block call; single blocks, partial ones and the
   * subkey are portable C */
  { "aarch64-neon", 300, GCRY_HWF_NEON, "",
    "four blocks in parallel (one per lane); the 2-4 blocks left (whole and "
    "partial) in one more such call, a last single one and HSalsa20 portable",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_salsa20_aarch64_neon_blocks4, 4 } },
      .tails = { { _gcry_salsa20_aarch64_neon_blocks4, 4, 2 } }) },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_salsa20_drivers, salsa20_drivers)

/* Salsa20 for the driver: block counter in words 8-9. */
static const gcry_stream_cipher salsa20_cipher = {
  NULL, 0, salsa20_generic_block, hsalsa20_generic, 8
};

/* What driver IMPL (checked at setkey) runs. */
static const gcry_stream_tier *
tier_of (unsigned int impl)
{
  return gcry_stream_driver_tier (salsa20_drivers, impl);
}

size_t
gcry_salsa20_ctxsize (void)
{
  return sizeof (salsa20_ctx);
}

#ifdef GCRY_TEST_HOOKS
/* Test-only, in the test copies alone (tests/test_stream_tiers.py): the
 * table keeps the driver's rules. */
int
gcry_salsa20_tiers_check (void)
{
  return gcry_stream_check_drivers (salsa20_drivers,
                                    sizeof salsa20_drivers / sizeof salsa20_drivers[0]);
}
#endif

static int
impl_ok (unsigned int impl)
{
  return GCRY_DRIVER_OK (salsa20_drivers, impl);
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
  return gcry_stream_hcore_on (&salsa20_cipher, tier_of (impl), state, out, rounds);
}

/* Public HSalsa20: 32-byte key and 16-byte input to a 32-byte subkey. */
int
gcry_hsalsa20 (const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen,
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
  GCRY_ALIGNED(64) uint32_t state[16];
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

/* Whether NEED more blocks would run past block 2^64 - 1 (the stream ends
 * there; it never wraps into reused keystream). */
int
salsa20_too_many (const salsa20_ctx *ctx, uint64_t need)
{
  return gcry_stream_past_end (&ctx->pos, need, get_counter (ctx), 64);
}

GCRY_NOINLINE unsigned int
salsa20_crypt_noburn (salsa20_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n)
{
  return gcry_stream_crypt_on (&salsa20_cipher, tier_of (ctx->impl), ctx->input, ctx->rounds,
                               64, &ctx->pos, dst, src, n);
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

static const gcry_salsa20_exports salsa20_exports = {
  sizeof (gcry_salsa20_exports), gcry_salsa20_setkey, salsa20_setiv_noburn,
  salsa20_crypt_noburn, gcry_salsa20_drivers
};
GCRY_EXPORT (salsa20, gcry_salsa20_exports, salsa20_exports)
