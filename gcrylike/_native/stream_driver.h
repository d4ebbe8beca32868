/* stream_driver.h - the one per-call driver of the 64-byte-block stream
 * ciphers (Salsa20 and ChaCha families): leftover keystream first, then
 * whole blocks from the widest SIMD routine down, the last few blocks from
 * one wider call into a stack buffer, a partial last block kept in pad, and
 * the end of the counter.  Each cipher describes itself in one
 * gcry_stream_cipher (portable core, counter position, a table of SIMD
 * tiers by implementation id); the rules live here once.  What those
 * ciphers share is assumed: 64-byte blocks, a state of 16 32-bit words,
 * and a block counter in two consecutive words of it (low word first).
 *
 * Adding a SIMD tier to a stream cipher = one routine + one driver row:
 *   1. the routine, with the gcry_stream_blocks_routine ABI: NBLOCKS blocks (a
 *      multiple of its width, a power of two up to GCRY_STREAM_MAX_WIDTH)
 *      of STATE's keystream xored from SRC into DST, the 64-bit block
 *      counter in the state advanced, its stack burn depth returned (each
 *      of gcrylike's own routines also has a row in its native check, in
 *      its source tree, which checks it and proves that depth);
 *   2. a gcry_driver row (driver.h: name, priority, the GCRY_HWF_* bits it
 *      needs, description) in the cipher's table, its tier inside it,
 *      after the routines' declarations (as in gcrylike's own ChaCha and
 *      Salsa20 glue), e.g. a 16-wide tier:
 *        extern gcry_stream_blocks_routine avx512_blocks16, avx512_blocks8, ...;
 *        { "amd64-avx512", 500, GCRY_HWF_AVX512F, "", "sixteen blocks",
 *          GCRY_STREAM_TIER (
 *            .blocks = { { avx512_blocks16, 16 }, { avx512_blocks8, 8 },
 *                        { avx512_blocks4, 4 }, { ssse3_blocks1, 1 } },
 *            .tails = { { avx512_blocks16, 16, 9 }, { avx512_blocks8, 8, 5 } },
 *            .hcore = avx512_hchacha) },
 *      blocks: routines widest first (a width-1 routine also makes the
 *      partial last block; without one, single blocks are portable C);
 *      tails: after the widest routine's groups, the first rule whose
 *      window FROM..WIDTH holds the blocks left (whole + partial) makes them
 *      all in one WIDTH-block call of FN into a stack buffer;
 *      hcore: the tier's HChaCha/HSalsa20 routine (NULL: portable);
 *      hcore4, hcore16: its routines for four and sixteen subkeys at once
 *      (optional: then one at a time).
 * The row's place is the driver's id; Python, the composites and the
 * native check read the row, and gcrylike's own build script assembles
 * every assembly file of the cipher (in its source tree).
 * gcry_stream_check_tiers below is these rules as code: gcrylike's own
 * tests run it on every table, and test the driver at widths up to 16. */
#ifndef GCRYLIKE_STREAM_DRIVER_H
#define GCRYLIKE_STREAM_DRIVER_H

#include "stream.h"
#include "driver.h"

#define GCRY_STREAM_MAX_WIDTH 16   /* blocks of the widest routine */
#define GCRY_STREAM_ROUTINES 6     /* routines one tier may list */
#define GCRY_STREAM_TAILS 3        /* wide-tail rules one tier may list */

/* A helper here that must keep its own frame (its burn depth counts its
 * buffers once, there); unused in a file that includes this header only
 * for the types. */
#define GCRY_STREAM_NOINLINE GCRY_NOINLINE GCRY_UNUSED

/* A SIMD routine making keystream: NBLOCKS blocks of STATE's stream
 * xored from SRC into DST, the state's block counter advanced (the
 * function type declares the routines, the pointer holds one). */
typedef unsigned int gcry_stream_blocks_routine (uint32_t *state, uint8_t *dst,
                                                 const uint8_t *src, size_t nblocks,
                                                 unsigned int rounds);
typedef gcry_stream_blocks_routine *gcry_stream_blocks_fn;

/* A SIMD subkey core (HChaCha, HSalsa20): 32 bytes out. */
typedef unsigned int gcry_stream_hcore_routine (const uint32_t *state, uint8_t *out32,
                                                unsigned int rounds);
typedef gcry_stream_hcore_routine *gcry_stream_hcore_fn;

/* Several subkeys at once (Adiantum's batches of XChaCha nonces): four
 * states of 16 words in, 4 x 32 bytes out; and sixteen states sharing
 * words 0-11 (STATE), word-major: input word 12 + w of state j at
 * nonces[16 w + j], output word k at out[16 k + j]. */
typedef unsigned int gcry_stream_hcore4_routine (const uint32_t *states, uint8_t *out128,
                                                 unsigned int rounds);
typedef unsigned int gcry_stream_hcore16_routine (const uint32_t *state, const uint32_t *nonces,
                                                  uint32_t *out, unsigned int rounds);
typedef gcry_stream_hcore4_routine *gcry_stream_hcore4_fn;
typedef gcry_stream_hcore16_routine *gcry_stream_hcore16_fn;

/* The portable core: one keystream block of STATE as words (the caller
 * advances the counter). */
typedef unsigned int (*gcry_stream_core_fn) (uint32_t out[16], const uint32_t in[16],
                                             unsigned int rounds);

typedef struct {
  gcry_stream_blocks_fn fn;
  unsigned int width;           /* blocks per step; 0 ends the list */
} gcry_stream_routine;

typedef struct {
  gcry_stream_blocks_fn fn;     /* called for WIDTH blocks */
  unsigned int width;           /* 0 ends the list */
  unsigned int from;            /* fewest blocks left (whole + partial) */
} gcry_stream_tail_rule;

/* One SIMD tier (see the comment at the top): a driver row's ops. */
typedef struct {
  gcry_stream_routine blocks[GCRY_STREAM_ROUTINES];
  gcry_stream_tail_rule tails[GCRY_STREAM_TAILS];
  gcry_stream_hcore_fn hcore;
  gcry_stream_hcore4_fn hcore4;         /* both or neither: NULL, one at a time */
  gcry_stream_hcore16_fn hcore16;
} gcry_stream_tier;

#define GCRY_STREAM_TIER(...) GCRY_OPS (gcry_stream_tier, __VA_ARGS__)

/* One cipher: its constants, and where its tiers are.  A plugin
 * (the plugin kit's documentation) gives TIERS by implementation id (row 0 the
 * portable one, empty; an empty row past 0 an id not built), as it
 * declares its drivers in Python; gcrylike's own ciphers give no TIERS:
 * their tiers are in their driver rows (gcry_stream_driver_tier). */
typedef struct {
  const gcry_stream_tier *tiers;
  unsigned int ntiers;
  gcry_stream_core_fn block;    /* portable keystream block */
  gcry_hcore_fn hcore;          /* portable subkey core */
  unsigned int ctr_word;        /* low word of the 64-bit block counter */
} gcry_stream_cipher;

/* Source for keystream made into a buffer. */
static const uint8_t gcry_stream_zeros[GCRY_STREAM_MAX_WIDTH * GCRY_STREAM_BLOCK];

/* The empty tier: every block portable. */
static const gcry_stream_tier gcry_stream_portable_tier;

/* TIER if it has anything, else NULL. */
static inline const gcry_stream_tier *
gcry_stream_tier_or_null (const gcry_stream_tier *tier)
{
  return tier && (tier->blocks[0].width || tier->tails[0].width || tier->hcore) ? tier : NULL;
}

/* The tier of driver IMPL of the N rows DRIVERS (the caller checked
 * IMPL): its ops, or the empty tier for a portable row. */
static inline const gcry_stream_tier *
gcry_stream_driver_tier (const gcry_driver *drivers, unsigned int impl)
{
  const gcry_stream_tier *tier = drivers[impl].ops;

  return tier ? tier : &gcry_stream_portable_tier;
}

/* A plugin's tier of id IMPL, the empty one for an id not built. */
static inline const gcry_stream_tier *
gcry_stream_tier_of (const gcry_stream_cipher *c, unsigned int impl)
{
  return impl < c->ntiers ? &c->tiers[impl] : &gcry_stream_portable_tier;
}

/* A plugin's table: bit i set, id i is built (row 0 always). */
static inline uint32_t
gcry_stream_impls (const gcry_stream_cipher *c)
{
  uint32_t impls = 1;
  unsigned int i;

  for (i = 1; i < c->ntiers && i < 32; i++)
    if (gcry_stream_tier_or_null (&c->tiers[i]))
      impls |= 1u << i;
  return impls;
}

/* How many blocks to make when NEED (at least 1) are wanted in one call
 * into a buffer of MOST blocks: on a SIMD tier the narrowest width of its
 * routines that holds them (a call of a wider routine costs about what the
 * fewer blocks alone would), else NEED. */
static inline size_t
gcry_stream_call_blocks (const gcry_stream_tier *tier, size_t need, size_t most)
{
  size_t width = 0;
  unsigned int i;

  for (i = 0; i < GCRY_STREAM_ROUTINES && tier->blocks[i].width; i++)
    if (tier->blocks[i].width >= need)
      width = tier->blocks[i].width;
  return width && width <= most ? width : need;
}

/* The subkey of STATE on TIER's routine, or the portable core when it has
 * none; returns the burn depth. */
static inline unsigned int
gcry_stream_hcore_on (const gcry_stream_cipher *c, const gcry_stream_tier *tier,
                      const uint32_t state[16], uint8_t out[32], unsigned int rounds)
{
  if (tier->hcore)
    return tier->hcore (state, out, rounds);
  return gcry_stream_hcore_portable (c->hcore, state, out, rounds);
}

/* The same on a plugin's tier of id IMPL. */
static inline unsigned int
gcry_stream_hcore (const gcry_stream_cipher *c, unsigned int impl,
                   const uint32_t state[16], uint8_t out[32], unsigned int rounds)
{
  return gcry_stream_hcore_on (c, gcry_stream_tier_of (c, impl), state, out, rounds);
}

/* After keystream blocks were made: the routines count in 64 bits, so a
 * BITS = 32 counter must not carry into the next word (put back to HI, its
 * value from before), and reaching zero again means the stream is used up. */
static inline void
gcry_stream_counter_done (gcry_stream_pos *pos, uint32_t *ctr, unsigned int bits,
                          uint32_t hi)
{
  if (bits == 32)
    ctr[1] = hi;
  if (ctr[0] == 0 && (bits == 32 || ctr[1] == 0))
    pos->exhausted = 1;
}

/* NBLOCKS blocks in portable C, one at a time. */
static GCRY_STREAM_NOINLINE unsigned int
gcry_stream_portable_blocks (gcry_stream_core_fn block, uint32_t *state, uint32_t *ctr,
                             unsigned int rounds, uint8_t *dst, const uint8_t *src,
                             size_t nblocks)
{
  uint32_t words[16];
  uint8_t ks[GCRY_STREAM_BLOCK];
  unsigned int burn = 0, i;

  for (; nblocks; nblocks--)
    {
      burn = gcry_max_burn (burn, block (words, state, rounds));
      for (i = 0; i < 16; i++)
        gcry_store_le32 (ks + 4 * i, words[i]);
      if (++ctr[0] == 0)
        ++ctr[1];
      gcry_xor_bytes (dst, src, ks, GCRY_STREAM_BLOCK);
      dst += GCRY_STREAM_BLOCK;
      src += GCRY_STREAM_BLOCK;
    }
  gcry_wipememory (ks, sizeof ks);  /* words: burnt with the caller's depth */
  return burn + sizeof (words) + sizeof (ks) + GCRY_C_FRAME;
}

/* The last NBLOCKS whole blocks of a request and a partial one of TAIL
 * bytes (together at most WIDTH blocks) from one call of FN for WIDTH
 * blocks into the stack buffer KS: one call's latency instead of several
 * narrower calls that each wait out a whole block's.  CTR points at the
 * state's 64-bit block counter (two words, low first), which is then set
 * just past the blocks used; the keystream left over is wiped unused (a
 * 32-bit counter's next word is put back by gcry_stream_counter_done, as
 * after any routine).  Returns FN's burn depth. */
static inline unsigned int
gcry_stream_wide_tail_into (uint8_t *ks, gcry_stream_blocks_fn fn, uint32_t *state,
                            uint32_t *ctr, unsigned int rounds, size_t width,
                            gcry_stream_pos *pos, uint8_t *dst, const uint8_t *src,
                            size_t nblocks, size_t tail)
{
  uint64_t next = ((uint64_t)ctr[1] << 32 | ctr[0]) + nblocks + (tail != 0);
  unsigned int burn;

  burn = fn (state, ks, gcry_stream_zeros, width, rounds);
  ctr[0] = (uint32_t)next;
  ctr[1] = (uint32_t)(next >> 32);
  gcry_xor_bytes (dst, src, ks, nblocks * GCRY_STREAM_BLOCK);
  if (tail)
    {
      memcpy (pos->pad, ks + nblocks * GCRY_STREAM_BLOCK, GCRY_STREAM_BLOCK);
      gcry_stream_keep_tail (pos, dst + nblocks * GCRY_STREAM_BLOCK,
                             src + nblocks * GCRY_STREAM_BLOCK, tail);
    }
  gcry_wipememory (ks, width * GCRY_STREAM_BLOCK);
  return burn;
}

/* gcry_stream_wide_tail_into with a buffer of 8 and of 16 blocks, each in
 * its own frame (not inlined: the buffer must not sit uncounted in the
 * caller's frame), so that an 8-wide tail burns no more than it dirtied. */
static GCRY_STREAM_NOINLINE unsigned int
gcry_stream_wide_tail8 (gcry_stream_blocks_fn fn, uint32_t *state, uint32_t *ctr,
                        unsigned int rounds, size_t width, gcry_stream_pos *pos,
                        uint8_t *dst, const uint8_t *src, size_t nblocks, size_t tail)
{
  GCRY_ALIGNED(64) uint8_t ks[8 * GCRY_STREAM_BLOCK];

  return gcry_stream_wide_tail_into (ks, fn, state, ctr, rounds, width, pos, dst, src,
                                     nblocks, tail)
         + sizeof (ks) + GCRY_C_FRAME;
}

static GCRY_STREAM_NOINLINE unsigned int
gcry_stream_wide_tail16 (gcry_stream_blocks_fn fn, uint32_t *state, uint32_t *ctr,
                         unsigned int rounds, size_t width, gcry_stream_pos *pos,
                         uint8_t *dst, const uint8_t *src, size_t nblocks, size_t tail)
{
  GCRY_ALIGNED(64) uint8_t ks[GCRY_STREAM_MAX_WIDTH * GCRY_STREAM_BLOCK];

  return gcry_stream_wide_tail_into (ks, fn, state, ctr, rounds, width, pos, dst, src,
                                     nblocks, tail)
         + sizeof (ks) + GCRY_C_FRAME;
}

/* N bytes of cipher C's stream on TIER, xored from SRC into DST: the
 * caller has checked the counter (gcry_stream_past_end) and burns the
 * returned depth.  STATE's words CTR_WORD, CTR_WORD + 1 are the block
 * counter, CTR_BITS (64 or 32) of it counting. */
static inline unsigned int
gcry_stream_crypt_on (const gcry_stream_cipher *c, const gcry_stream_tier *tier,
                      uint32_t *state, unsigned int rounds, unsigned int ctr_bits,
                      gcry_stream_pos *pos, uint8_t *dst, const uint8_t *src, size_t n)
{
  const gcry_stream_routine *r = tier->blocks;
  const gcry_stream_tail_rule *t;
  gcry_stream_blocks_fn one = NULL;
  uint32_t *ctr = state + c->ctr_word;
  const uint32_t hi = ctr[1];
  unsigned int burn = 0;
  size_t nblocks, tail, left, bulk;

  /* 1. bytes left over from the previous call's partial block */
  if (pos->unused)
    {
      size_t take = gcry_stream_take_pad (pos, dst, src, n);
      dst += take;
      src += take;
      n -= take;
    }
  if (n == 0)
    return GCRY_C_FRAME;
  nblocks = n / GCRY_STREAM_BLOCK;
  tail = n % GCRY_STREAM_BLOCK;

  /* 2. each routine, widest first, takes the groups of its width that
   * fit; after the widest, the first tail rule whose window holds the
   * blocks left makes them all (whole and partial) in one wide call */
  for (; r < tier->blocks + GCRY_STREAM_ROUTINES && r->width; r++)
    {
      if (nblocks >= r->width)
        {
          bulk = nblocks & ~(size_t)(r->width - 1);  /* widths: powers of two */
          burn = gcry_max_burn (burn, r->fn (state, dst, src, bulk, rounds));
          dst += bulk * GCRY_STREAM_BLOCK;
          src += bulk * GCRY_STREAM_BLOCK;
          nblocks -= bulk;
        }
      if (r->width == 1)
        one = r->fn;
      if (r != tier->blocks)
        continue;
      left = nblocks + (tail != 0);
      for (t = tier->tails; t < tier->tails + GCRY_STREAM_TAILS && t->width; t++)
        if (left >= t->from && left <= t->width)
          {
            burn = gcry_max_burn (burn, (t->width <= 8 ? gcry_stream_wide_tail8
                                         : gcry_stream_wide_tail16) (
              t->fn, state, ctr, rounds, t->width, pos, dst, src, nblocks, tail));
            nblocks = tail = 0;
            break;
          }
    }

  /* 3. whole blocks no routine took, in portable C */
  if (nblocks)
    {
      burn = gcry_max_burn (burn, gcry_stream_portable_blocks (c->block, state, ctr,
                                                               rounds, dst, src, nblocks));
      dst += nblocks * GCRY_STREAM_BLOCK;
      src += nblocks * GCRY_STREAM_BLOCK;
    }

  /* 4. partial last block: keep the rest of its keystream in pad */
  if (tail)
    {
      if (one)
        burn = gcry_max_burn (burn, one (state, pos->pad, gcry_stream_zeros, 1, rounds));
      else
        burn = gcry_max_burn (burn, gcry_stream_portable_blocks (
          c->block, state, ctr, rounds, pos->pad, gcry_stream_zeros, 1));
      gcry_stream_keep_tail (pos, dst, src, tail);
    }

  gcry_stream_counter_done (pos, ctr, ctr_bits, hi);
  return burn + GCRY_C_FRAME;
}

/* The same on a plugin's tier of id IMPL. */
static inline unsigned int
gcry_stream_crypt (const gcry_stream_cipher *c, unsigned int impl, uint32_t *state,
                   unsigned int rounds, unsigned int ctr_bits, gcry_stream_pos *pos,
                   uint8_t *dst, const uint8_t *src, size_t n)
{
  return gcry_stream_crypt_on (c, gcry_stream_tier_of (c, impl), state, rounds, ctr_bits, pos,
                               dst, src, n);
}

/* Test-only: 0 when every one of the N tiers AT (I, SRC) gives (NULL: a
 * portable one) keeps the rules above, else 256 * id + the first rule
 * broken there: 1 routine widths not powers of two strictly decreasing
 * from at most GCRY_STREAM_MAX_WIDTH, 2 a routine without a function, 3 a
 * tail rule's window FROM..WIDTH empty or wider than GCRY_STREAM_MAX_WIDTH,
 * 4 a tail rule's function not listed with that width in any tier (so
 * called for a width it does not make), 5 tail rules in a tier without
 * routines, 6 a tier at id 0 of a plugin's table (its portable row). */
static inline int
gcry_stream_check_list (const gcry_stream_tier *(*at) (const void *src, unsigned int i),
                        const void *src, unsigned int n)
{
  unsigned int i, j, k, m;

  for (i = 0; i < n; i++)
    {
      const gcry_stream_tier *tier = at (src, i);
      unsigned int prev = GCRY_STREAM_MAX_WIDTH + 1;

      if (!tier)
        continue;
      if (!tier->blocks[0].width && tier->tails[0].width)
        return 256 * i + 5;
      for (j = 0; j < GCRY_STREAM_ROUTINES && tier->blocks[j].width; j++)
        {
          if (tier->blocks[j].width >= prev
              || (tier->blocks[j].width & (tier->blocks[j].width - 1)))
            return 256 * i + 1;
          if (!tier->blocks[j].fn)
            return 256 * i + 2;
          prev = tier->blocks[j].width;
        }
      for (j = 0; j < GCRY_STREAM_TAILS && tier->tails[j].width; j++)
        {
          const gcry_stream_tail_rule *t = &tier->tails[j];
          int listed = 0;

          if (t->from == 0 || t->from > t->width || t->width > GCRY_STREAM_MAX_WIDTH)
            return 256 * i + 3;
          for (k = 0; k < n; k++)
            {
              const gcry_stream_tier *other = at (src, k);

              for (m = 0; other && m < GCRY_STREAM_ROUTINES; m++)
                listed |= other->blocks[m].fn == t->fn && other->blocks[m].width == t->width;
            }
          if (!listed)
            return 256 * i + 4;
        }
    }
  return 0;
}

static inline const gcry_stream_tier *
gcry_stream_table_at (const void *c, unsigned int i)
{
  return gcry_stream_tier_or_null (&((const gcry_stream_cipher *)c)->tiers[i]);
}

static inline const gcry_stream_tier *
gcry_stream_rows_at (const void *drivers, unsigned int i)
{
  return gcry_stream_tier_or_null (((const gcry_driver *)drivers)[i].ops);
}

/* The rules on a plugin's table C, and on the N driver rows DRIVERS. */
static inline int
gcry_stream_check_tiers (const gcry_stream_cipher *c)
{
  if (c->ntiers == 0 || gcry_stream_table_at (c, 0))
    return 6;
  return gcry_stream_check_list (gcry_stream_table_at, c, c->ntiers);
}

static inline int
gcry_stream_check_drivers (const gcry_driver *drivers, unsigned int n)
{
  return gcry_stream_check_list (gcry_stream_rows_at, drivers, n);
}

#endif
