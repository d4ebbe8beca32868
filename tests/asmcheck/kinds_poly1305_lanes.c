/* kinds_poly1305_lanes.c - Poly1305 of eight messages at once
 * (_gcry_poly1305_amd64_avx512_lanes8: powers r^1..r^8 from its set-up,
 * blocks word-major, results fully reduced mod p, then mod 2^128) against
 * poly1305_generic64_blocks on each message from a zero accumulator,
 * reduced by the portable poly1305_reduce.
 *
 * Every lane has its own message, so a lane computed from another's words
 * or stored in another's column is seen; every block count 0 to 8; random
 * and extreme keys and messages (all ones: every limb and column sum at
 * its largest); and sums chosen around p, 2^130, 2p and 3p (r = 1, so the
 * value is the sum of the blocks plus n 2^128), for the final reduction. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"

/* Only with assembly: these kinds serve assembly rows alone, and their
 * reference Poly1305 needs unsigned __int128, which 32-bit targets lack. */
#if ASMCHECK_HAVE_PROBE
#include "poly1305.h"
#include "poly1305_amd64.h"

typedef void (*lanes_setup_fn) (const uint64_t r[2], uint64_t *powers);
typedef unsigned int (*lanes_fn) (const uint64_t *powers, const uint64_t *blocks,
                                  size_t nblocks, uint64_t *out);

#define NLANES 8
#define MAX_BLOCKS 8

/* One call: NBLOCKS blocks of eight messages MSG[k] (16 * NBLOCKS bytes
 * each) under R, the blocks at placement PB, the output at PO. */
static void
lanes_case (check *t, const row *r, const uint64_t rk[2],
            uint8_t msg[NLANES][MAX_BLOCKS * 16], size_t nblocks, placement pb, placement po)
{
  uint64_t powers[POLY1305_LANES_POWERS], *blocks, *out;
  unsigned int k, j, i;

  ((lanes_setup_fn)r->aux) (rk, powers);
  blocks = (uint64_t *)guarded_place (t, &buf_src, nblocks * 128, pb);
  for (j = 0; j < nblocks; j++)
    for (k = 0; k < NLANES; k++)
      {
        uint64_t lo, hi;
        memcpy (&lo, msg[k] + 16 * j, 8);
        memcpy (&hi, msg[k] + 16 * j + 8, 8);
        memcpy (&blocks[16 * j + k], &lo, 8);
        memcpy (&blocks[16 * j + 8 + k], &hi, 8);
      }
  out = (uint64_t *)guarded_place (t, &buf_dst, 2 * NLANES * 8, po);

  ((lanes_fn)r->fn) (powers, blocks, nblocks, out);

  for (k = 0; k < NLANES; k++)
    {
      uint64_t want[3] = { 0, 0, 0 }, red[3], got[2];
      memcpy (&got[0], &out[k], 8);
      memcpy (&got[1], &out[NLANES + k], 8);
      poly1305_generic64_blocks (want, rk, msg[k], nblocks, 1);
      poly1305_reduce (red, want);
      verdict (t, got[0] == red[0] && got[1] == red[1],
               "lane %u: value differs from the portable C (mod p, mod 2^128)", k);
    }
  verdict (t, guarded_intact (&buf_src) && guarded_intact (&buf_dst),
           "wrote outside its output");
}

/* Every block count with random keys and messages, then the extremes. */
static void
lanes_compare (check *t, const row *r)
{
  static uint8_t msg[NLANES][MAX_BLOCKS * 16];
  uint8_t key[16];
  uint64_t rk[2];
  unsigned int i, n, extreme;

  for (i = 0; i < 3 * (MAX_BLOCKS + 1) * 2; i++)
    {
      n = i % (MAX_BLOCKS + 1);
      extreme = i / (MAX_BLOCKS + 1) % 3 == 2;
      if (extreme)
        {
          memset (key, 0xff, sizeof key);
          memset (msg, 0xff, sizeof msg);
        }
      else
        {
          rnd_bytes (t, key, sizeof key);
          rnd_bytes (t, msg, sizeof msg);
        }
      poly1305_clamp (rk, key);
      set_case (t, "%u blocks a message%s, case %u", n, extreme ? ", all ones" : "", i);
      lanes_case (t, r, rk, msg, n, (placement)(i % PLACE_COUNT),
                  (placement)(i / 3 % PLACE_COUNT));
    }
}

/* Messages of N blocks under r = 1 whose sums (plus n 2^128) are chosen
 * values next to the multiples of p and to 2^130: lane k gets the value
 * TARGETS[k] (k < ntargets) split greedily into blocks below 2^128. */
static void
near_p_case (check *t, const row *r, size_t n, const unsigned __int128 *hi_lo, size_t ntargets)
{
  static uint8_t msg[NLANES][MAX_BLOCKS * 16];
  const uint64_t one[2] = { 1, 0 };
  size_t k, j;

  memset (msg, 0, sizeof msg);
  for (k = 0; k < NLANES && k < ntargets; k++)
    {
      /* remaining sum = target - n 2^128 as (high: multiples of 2^128, low) */
      unsigned __int128 low = hi_lo[2 * k + 1];
      uint64_t high = (uint64_t)hi_lo[2 * k] - n;
      for (j = 0; j < n; j++)
        {
          unsigned __int128 take = high ? ~(unsigned __int128)0 : low;
          uint64_t lo64 = (uint64_t)take, hi64 = (uint64_t)(take >> 64);
          memcpy (msg[k] + 16 * j, &lo64, 8);
          memcpy (msg[k] + 16 * j + 8, &hi64, 8);
          if (high)
            {
              /* took 2^128 - 1: one 2^128 less, one more in the low part */
              high--;
              low++;
              if (low == 0)
                high++;
            }
          else
            low = 0;
        }
    }
  lanes_case (t, r, one, msg, n, PLACE_UNALIGNED, PLACE_AT_END);
}

/* Sums at p - 1, p, p + 1, 2^130 - 1, 2^130, 2p - 1, 2p, 2p + 1 (three
 * blocks reach [3, 6) 2^128, seven [7, 14) 2^128, so p with three and 2p,
 * 3p with seven). */
static void
lanes_near_p (check *t, const row *r)
{
  const unsigned __int128 m128 = ~(unsigned __int128)0;
  /* (multiples of 2^128, low 128 bits) of each target */
  const unsigned __int128 three[] = {
    3, m128 - 5, 3, m128 - 4, 3, m128 - 3, 3, m128, 4, 0, 4, 1, 5, 7, 3, m128 - 100,
  };
  const unsigned __int128 seven[] = {
    7, m128 - 10, 7, m128 - 9, 7, m128 - 8, 7, m128 - 15, 11, m128 - 15, 11, m128 - 14,
    11, m128 - 13, 13, 12345,
  };

  set_case (t, "sums next to p and 2^130, three blocks");
  near_p_case (t, r, 3, three, sizeof three / sizeof three[0] / 2);
  set_case (t, "sums next to 2p and 3p, seven blocks");
  near_p_case (t, r, 7, seven, sizeof seven / sizeof seven[0] / 2);
}

/* the depth probe's call: random powers, blocks and N blocks a message */
static void
lanes_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.table;
  a[1] = (uintptr_t)dbuf.src;
  a[2] = n;
  a[3] = (uintptr_t)dbuf.dst;
}

const kind kind_poly1305_lanes = {
  "Poly1305 x8 lanes (powers, blocks, nblocks, limbs) + set-up vs poly1305_generic64_blocks",
  lanes_compare, lanes_near_p, lanes_depth, { 0, 1, 8 }, 3,
};

#endif /* ASMCHECK_HAVE_PROBE */
