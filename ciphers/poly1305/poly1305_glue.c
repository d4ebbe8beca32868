/* poly1305_glue.c - Poly1305 MAC glue: key set-up, buffering of partial
 * blocks, the switch between one block at a time (short inputs, where SIMD
 * set-up costs more than it saves: the SIMD drivers' scalar assembly, else
 * the portable function) and the SIMD routines, the final
 * reduction, constant-time verification, and one stack burn per call. */
#include <stddef.h>
#include "poly1305.h"
#ifdef USE_AMD64
# include "poly1305_amd64.h"
#endif
#ifdef USE_AARCH64
# include "poly1305_aarch64.h"
#endif

/* Below this many blocks in one update (with no table of powers yet) the
 * scalar code is faster than computing the table and entering the SIMD
 * routine (measured; see docs/algorithms.rst, "Poly1305"). */
#ifndef POLY1305_SIMD_MIN_BLOCKS
# define POLY1305_SIMD_MIN_BLOCKS 64
#endif
/* The same for the AVX512-IFMA routine (its table costs more, its blocks
 * less; measured, see docs/algorithms.rst, "Poly1305"). */
#ifndef POLY1305_IFMA_MIN_BLOCKS
# define POLY1305_IFMA_MIN_BLOCKS 24
#endif
/* The same for the aarch64 NEON routine, and the fewest blocks one call
 * of it takes (shorter runs are faster in the scalar assembly): from the
 * llvm-mca models (docs/hardware.rst, "aarch64"). */
#ifndef POLY1305_NEON_MIN_BLOCKS
# define POLY1305_NEON_MIN_BLOCKS 40
#endif
#ifndef POLY1305_NEON_MIN_RUN
# define POLY1305_NEON_MIN_RUN 16
#endif

size_t
gcry_poly1305_ctxsize (void)
{
  return sizeof (poly1305_ctx);
}

/* What a driver runs (its row's ops): full blocks one at a time (SCALAR,
 * assembly; NULL: the portable function), the portable function itself
 * (also for the padded last block), and a SIMD tier if BLOCKS: the set-up
 * that fills its table of powers of r, its routine over whole blocks (a
 * multiple of WIDTH, at least MIN_RUN of them per call: the one-at-a-time
 * code takes shorter runs and the rest), and the fewest blocks in one
 * update for which computing the table pays. */
typedef struct {
  poly1305_scalar_routine *scalar;
  unsigned int (*portable) (uint64_t h[3], const uint64_t r[2], const uint8_t *m,
                            size_t nblocks, unsigned int hibit);
  poly1305_setup_routine *setup;
  poly1305_simd_routine *blocks;
  unsigned int width;
  unsigned int min_run;
  unsigned int table_pays;
} poly1305_tier;

/* Stack the table set-up functions (poly1305_amd64_tables.c,
 * poly1305_aarch64_tables.c) may leave key material in: their locals and
 * saved registers (gcc 12 -O2, objdump: 456 to 504 bytes on amd64, 256 on
 * aarch64), with room for other compilers. */
#define SETUP_BURN 1024

#define POLY1305_TIER(...) GCRY_OPS (poly1305_tier, __VA_ARGS__)

/* The portable function of the SIMD drivers' builds: 64-bit limbs. */
#ifdef __SIZEOF_INT128__
# define PORTABLE_BLOCKS poly1305_generic64_blocks
#else
# define PORTABLE_BLOCKS poly1305_generic32_blocks
#endif

#ifdef USE_AMD64
/* asm/poly1305-amd64-{scalar,sse2,avx2,avx512}.S (poly1305_amd64.h: their
 * contract, and the C that fills their tables) */
extern poly1305_scalar_routine _gcry_poly1305_amd64_scalar_blocks;
extern poly1305_simd_routine _gcry_poly1305_amd64_sse2_blocks,
  _gcry_poly1305_amd64_avx2_blocks, _gcry_poly1305_amd64_avx512ifma_blocks;
/* An amd64 SIMD tier: its set-up and blocks routines by name, the width,
 * fewest blocks per call and fewest for the table to pay; short inputs on
 * the scalar assembly. */
# define AMD64_TIER(name, width_, min_run_, pays)                             \
  POLY1305_TIER (.scalar = _gcry_poly1305_amd64_scalar_blocks,                \
                 .portable = PORTABLE_BLOCKS,                                 \
                 .setup = _gcry_poly1305_amd64_##name##_setup,                \
                 .blocks = _gcry_poly1305_amd64_##name##_blocks, .width = width_, \
                 .min_run = min_run_, .table_pays = pays)
#endif
#ifdef USE_AARCH64
/* asm/poly1305-aarch64-{scalar,neon}.S (poly1305_aarch64.h: their
 * contract, and the C that fills the NEON routine's table) */
extern poly1305_scalar_routine _gcry_poly1305_aarch64_scalar_blocks;
extern poly1305_simd_routine _gcry_poly1305_aarch64_neon_blocks;
#endif

/* The drivers compiled in: name suffix, priority, the GCRY_HWF_* bits
 * they need, the IFMA one's mark in a composite's name, description, and
 * what it runs.  A row's place is its id. */
static const gcry_driver poly1305_drivers[] = {
#ifdef __SIZEOF_INT128__
  { "generic64", 110, 0, "", "portable C, 64-bit limbs, 128-bit products",
    POLY1305_TIER (.portable = poly1305_generic64_blocks) },
#endif
  { "generic32", 100, 0, "", "portable C, five 26-bit limbs",
    POLY1305_TIER (.portable = poly1305_generic32_blocks) },
#ifdef USE_AMD64
  { "amd64-sse2", 300, GCRY_HWF_SSE2, "", "two blocks in parallel, 26-bit limbs",
    AMD64_TIER (sse2, 2, 4, POLY1305_SIMD_MIN_BLOCKS) },
  { "amd64-avx2", 400, GCRY_HWF_AVX2, "", "four blocks in parallel, powers r^1..r^4",
    AMD64_TIER (avx2, 4, 4, POLY1305_SIMD_MIN_BLOCKS) },
  { "amd64-avx512ifma", 500, GCRY_HWF_AVX2 | GCRY_HWF_AVX512F | GCRY_HWF_AVX512IFMA,
    GCRY_TAG ("ifma"),
    "eight blocks in parallel, radix 2^44 with IFMA, powers r^1..r^8, r^16",
    AMD64_TIER (avx512ifma, 8, 8, POLY1305_IFMA_MIN_BLOCKS) },
#endif
#ifdef USE_AARCH64
  /* integer only (baseline ARMv8-A): no feature; above generic64 */
  { "aarch64", 300, 0, "", "one block at a time, 64-bit limbs in assembly (mul/umulh)",
    POLY1305_TIER (.scalar = _gcry_poly1305_aarch64_scalar_blocks,
                   .portable = PORTABLE_BLOCKS) },
  /* level 3 (pairs with the NEON ChaCha and Salsa20), above the scalar */
  { "aarch64-neon", 350, GCRY_HWF_NEON, "",
    "two streams of 26-bit limbs in NEON lanes, eight blocks a step, powers r^2..r^8",
    POLY1305_TIER (.scalar = _gcry_poly1305_aarch64_scalar_blocks,
                   .portable = PORTABLE_BLOCKS,
                   .setup = _gcry_poly1305_aarch64_neon_setup,
                   .blocks = _gcry_poly1305_aarch64_neon_blocks, .width = 4,
                   .min_run = POLY1305_NEON_MIN_RUN,
                   .table_pays = POLY1305_NEON_MIN_BLOCKS) },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_poly1305_drivers, poly1305_drivers)

int
poly1305_impl_ok (unsigned int impl)
{
  return GCRY_DRIVER_OK (poly1305_drivers, impl);
}

/* What driver IMPL (checked at setkey) runs. */
static const poly1305_tier *
tier_of (unsigned int impl)
{
  return poly1305_drivers[impl].ops;
}

/* IMPL's SIMD tier, or NULL. */
static const poly1305_tier *
simd_tier (unsigned int impl)
{
  return tier_of (impl)->blocks ? tier_of (impl) : NULL;
}

/* One block at a time: the driver's scalar assembly for full blocks (it
 * always adds the 2^128 bit), else its portable function (the padded last
 * block included). */
static unsigned int
scalar_blocks (unsigned int impl, uint64_t h[3], const uint64_t r[2],
               const uint8_t *m, size_t nblocks, unsigned int hibit)
{
  const poly1305_tier *tier = tier_of (impl);

  if (tier->scalar && hibit)
    return tier->scalar (h, r, m, nblocks);
  return tier->portable (h, r, m, nblocks, hibit);
}

unsigned int
poly1305_setkey_noburn (poly1305_ctx *ctx, const uint8_t key[32], unsigned int impl)
{
  /* the previous key's powers must not outlive it; a context without
   * powers skips the 512-byte wipe (fresh AEAD messages) */
  if (ctx->table_ready)
    gcry_wipememory (ctx->table, sizeof ctx->table);
  gcry_wipememory (ctx->h, sizeof ctx->h);
  gcry_wipememory (ctx->buf, sizeof ctx->buf);
  ctx->buflen = 0;
  /* clamp r (RFC 8439 2.5): top four bits of every 32-bit word and the
   * bottom two bits of words 1-3 cleared */
  ctx->r[0] = gcry_load_le64 (key) & 0x0ffffffc0fffffffULL;
  ctx->r[1] = gcry_load_le64 (key + 8) & 0x0ffffffc0ffffffcULL;
  ctx->s[0] = gcry_load_le64 (key + 16);
  ctx->s[1] = gcry_load_le64 (key + 24);
  ctx->impl = impl;
  /* the SIMD powers of r are computed when a long update first needs them:
   * short messages (most AEAD packets) never pay for them */
  ctx->table_ready = 0;
  return 8 * sizeof (uint64_t) + 2 * GCRY_C_FRAME;
}

/* Compute the table unless it exists; the stack depth to burn. */
static unsigned int
ensure_table (poly1305_ctx *ctx)
{
  const poly1305_tier *tier = simd_tier (ctx->impl);

  if (ctx->table_ready)
    return 0;
  tier->setup (ctx->r, ctx->table);
  ctx->table_ready = 1;
  return SETUP_BURN + GCRY_C_FRAME;
}

void
poly1305_copy (poly1305_ctx *dst, const poly1305_ctx *src)
{
  memcpy (dst, src, src->table_ready ? sizeof *dst : offsetof (poly1305_ctx, table));
}

unsigned int
poly1305_prepare (poly1305_ctx *ctx)
{
  if (simd_tier (ctx->impl))
    return ensure_table (ctx);
  return 0;
}

/* Wipe the key and state, and the SIMD table only if it was computed. */
void
poly1305_wipe (poly1305_ctx *ctx)
{
  if (ctx->table_ready)
    gcry_wipememory (ctx->table, sizeof ctx->table);
  gcry_wipememory (ctx->h, sizeof ctx->h);
  gcry_wipememory (ctx->r, sizeof ctx->r);
  gcry_wipememory (ctx->s, sizeof ctx->s);
  gcry_wipememory (ctx->buf, sizeof ctx->buf);
  ctx->buflen = 0;
  ctx->table_ready = 0;
}

/* Whole blocks into the accumulator H under CTX's r, with the SIMD routine
 * (and CTX's powers, which must exist) for NBLOCKS of at least its width,
 * the scalar code for the rest.  Only a SIMD driver has powers. */
static unsigned int
absorb_into (const poly1305_ctx *ctx, uint64_t h[3], const uint8_t *m, size_t nblocks)
{
  const poly1305_tier *tier = simd_tier (ctx->impl);
  unsigned int burn = 0;
  size_t nb = 0;

  if (nblocks >= tier->min_run)
    {
      nb = nblocks - nblocks % tier->width;
      burn = tier->blocks (h, ctx->table, m, nb);
    }
  m += nb * POLY1305_BLOCK;
  nblocks -= nb;
  if (nblocks)
    burn = gcry_max_burn (burn, scalar_blocks (ctx->impl, h, ctx->r, m, nblocks, 1));
  return burn;
}

/* Whole blocks: SIMD for long runs (the powers computed when a run is long
 * enough to pay for them), one block at a time for the rest. */
static unsigned int
absorb (poly1305_ctx *ctx, const uint8_t *m, size_t nblocks)
{
  unsigned int burn = 0;

  const poly1305_tier *tier = simd_tier (ctx->impl);

  if (!ctx->table_ready && tier && nblocks >= tier->table_pays)
    burn = ensure_table (ctx);
  if (ctx->table_ready)
    return gcry_max_burn (burn, absorb_into (ctx, ctx->h, m, nblocks));
  return gcry_max_burn (burn, scalar_blocks (ctx->impl, ctx->h, ctx->r, m, nblocks, 1));
}

/* NBLOCKS whole blocks into an accumulator H kept outside KEY (a keyed,
 * prepared or not, context left unchanged): many short messages under one
 * key without a context copy each.  SIMD only where KEY has its powers. */
unsigned int
poly1305_blocks_into (const poly1305_ctx *key, uint64_t h[3], const uint8_t *m,
                      size_t nblocks)
{
  if (key->table_ready)
    return absorb_into (key, h, m, nblocks) + GCRY_C_FRAME;
  return scalar_blocks (key->impl, h, key->r, m, nblocks, 1) + GCRY_C_FRAME;
}

unsigned int
poly1305_update_noburn (poly1305_ctx *ctx, const uint8_t *m, size_t n)
{
  unsigned int burn = 0;
  size_t nblocks;

  if (ctx->buflen)
    {
      size_t take = POLY1305_BLOCK - ctx->buflen;
      if (take > n)
        take = n;
      memcpy (ctx->buf + ctx->buflen, m, take);
      ctx->buflen += take;
      m += take;
      n -= take;
      if (ctx->buflen < POLY1305_BLOCK)
        return 0;
      burn = scalar_blocks (ctx->impl, ctx->h, ctx->r, ctx->buf, 1, 1);
      ctx->buflen = 0;
    }
  nblocks = n / POLY1305_BLOCK;
  if (nblocks)
    burn = gcry_max_burn (burn, absorb (ctx, m, nblocks));
  m += nblocks * POLY1305_BLOCK;
  n -= nblocks * POLY1305_BLOCK;
  if (n)
    {
      memcpy (ctx->buf, m, n);
      ctx->buflen = (unsigned int)n;
    }
  return burn + GCRY_C_FRAME;
}

/* Zero-fill a partial block (the AEAD's pad16 of RFC 8439 2.8). */
unsigned int
poly1305_pad16_noburn (poly1305_ctx *ctx)
{
  static const uint8_t zeros[POLY1305_BLOCK];

  if (!ctx->buflen)
    return 0;
  return poly1305_update_noburn (ctx, zeros, POLY1305_BLOCK - ctx->buflen);
}

/* TAG = (H mod 2^130 - 5) + S mod 2^128; H is not changed.  Its copy of
 * H is not wiped: both callers count it in the depth they return for
 * their caller's one burn (a wipe call here was a measurable share of a
 * 4 KiB Adiantum sector, which takes three tags: docs/algorithms.rst,
 * "Adiantum", per-sector cost). */
static void
finish (const uint64_t hin[3], const uint64_t s[2], uint8_t tag[16])
{
  uint64_t h[3], g0, g1, g2, mask, c;
  int i;

  h[0] = hin[0];
  h[1] = hin[1];
  h[2] = hin[2];
  /* fold bits at and above 2^130 (twice: the first fold may carry) */
  for (i = 0; i < 2; i++)
    {
      c = (h[2] >> 2) * 5;
      h[2] &= 3;
      h[0] += c;
      c = h[0] < c;
      h[1] += c;
      h[2] += h[1] < c;
    }
  /* h < 2^130 now; subtract p once if h >= p, without branching */
  g0 = h[0] + 5;
  c = g0 < 5;
  g1 = h[1] + c;
  c = g1 < c;
  g2 = h[2] + c;
  mask = (uint64_t)0 - (g2 >> 2); /* all ones when h + 5 >= 2^130 */
  h[0] = (h[0] & ~mask) | (g0 & mask);
  h[1] = (h[1] & ~mask) | (g1 & mask);

  /* tag = (h + s) mod 2^128 */
  h[0] += s[0];
  c = h[0] < s[0];
  h[1] += s[1] + c;
  gcry_store_le64 (tag, h[0]);
  gcry_store_le64 (tag + 8, h[1]);
}

/* The tag of everything absorbed so far; CTX is left as it was. */
unsigned int
poly1305_tag_noburn (const poly1305_ctx *ctx, uint8_t tag[16])
{
  uint64_t h[3];
  uint8_t last[POLY1305_BLOCK];
  unsigned int burn = 0;

  h[0] = ctx->h[0];
  h[1] = ctx->h[1];
  h[2] = ctx->h[2];
  if (ctx->buflen)
    {
      /* last partial block: the message bytes, a 1 byte, zeros; no 2^128 */
      memset (last, 0, sizeof last);
      memcpy (last, ctx->buf, ctx->buflen);
      last[ctx->buflen] = 1;
      burn = scalar_blocks (ctx->impl, h, ctx->r, last, 1, 0);
      gcry_wipememory (last, sizeof last);
    }
  finish (h, ctx->s, tag);
  gcry_wipememory (h, sizeof h);
  return burn + sizeof (last) + 2 * sizeof (h) + 2 * GCRY_C_FRAME;
}

/* The tag of an outside accumulator H (poly1305_blocks_into) under KEY's s. */
unsigned int
poly1305_tag_of (const poly1305_ctx *key, const uint64_t h[3], uint8_t tag[16])
{
  finish (h, key->s, tag);
  return 3 * sizeof (uint64_t) + 2 * GCRY_C_FRAME;
}

/* -- public entry points: each burns the stack once ------------------- */

int
gcry_poly1305_setkey (void *c, const uint8_t *key, size_t keylen, unsigned int impl)
{
  if (keylen != POLY1305_KEY)
    return GCRY_ERR_INV_KEYLEN;
  if (!poly1305_impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_burn_stack (poly1305_setkey_noburn (c, key, impl));
  return GCRY_OK;
}

int
gcry_poly1305_update (void *c, const uint8_t *m, size_t n)
{
  if (n)
    gcry_burn_stack (poly1305_update_noburn (c, m, n));
  return GCRY_OK;
}

int
gcry_poly1305_read (void *c, uint8_t *tag, size_t taglen)
{
  if (taglen != POLY1305_TAG)
    return GCRY_ERR_INV_LENGTH;
  gcry_burn_stack (poly1305_tag_noburn (c, tag));
  return GCRY_OK;
}

/* 0 when TAG (TAGLEN bytes) is the tag of the data so far, else CHECKSUM;
 * a tag of the wrong length never verifies. */
int
gcry_poly1305_verify (void *c, const uint8_t *tag, size_t taglen)
{
  uint8_t mine[POLY1305_TAG];
  int bad;

  gcry_burn_stack (poly1305_tag_noburn (c, mine));
  bad = gcry_ct_memcmp (mine, tag, taglen < POLY1305_TAG ? taglen : POLY1305_TAG);
  gcry_wipememory (mine, sizeof mine);
  return (bad || taglen != POLY1305_TAG) ? GCRY_ERR_CHECKSUM : GCRY_OK;
}

/* The tag of M under KEY in one call (a one-time key is used once). */
int
gcry_poly1305_oneshot (const uint8_t *key, size_t keylen, const uint8_t *m, size_t n,
                       uint8_t *tag, unsigned int impl)
{
  poly1305_ctx ctx;
  unsigned int burn;

  ctx.table_ready = 0;
  if (keylen != POLY1305_KEY)
    return GCRY_ERR_INV_KEYLEN;
  if (!poly1305_impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;
  burn = poly1305_setkey_noburn (&ctx, key, impl);
  if (n)
    burn = gcry_max_burn (burn, poly1305_update_noburn (&ctx, m, n));
  burn = gcry_max_burn (burn, poly1305_tag_noburn (&ctx, tag));
  gcry_wipememory (&ctx, sizeof ctx);
  gcry_burn_stack (burn + sizeof (ctx) + GCRY_C_FRAME);
  return GCRY_OK;
}

static const gcry_poly1305_exports poly1305_exports = {
  sizeof (gcry_poly1305_exports), poly1305_impl_ok, poly1305_setkey_noburn,
  poly1305_update_noburn, poly1305_pad16_noburn, poly1305_tag_noburn, poly1305_blocks_into,
  poly1305_tag_of, poly1305_wipe, poly1305_copy, poly1305_prepare, gcry_poly1305_drivers,
#ifdef __SIZEOF_INT128__
  poly1305_r_squared, poly1305_muladd64,
#endif
#ifdef USE_AMD64
  GCRY_HWF_AVX512F, _gcry_poly1305_amd64_avx512_lanes_setup, _gcry_poly1305_amd64_avx512_lanes8,
#else
  0,
#endif
};
GCRY_EXPORT (poly1305, gcry_poly1305_exports, poly1305_exports)
