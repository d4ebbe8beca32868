/* kinds_poly1305_lanes.c - Poly1305 of eight messages at once
 * (_gcry_poly1305_amd64_avx512_lanes8: powers r^1..r^8 from its set-up,
 * blocks word-major, results as radix-2^26 limbs per lane) against
 * poly1305_generic64_blocks on each message from a zero accumulator.
 *
 * Every lane has its own message, so a lane computed from another's words
 * or stored in another's column is seen; every block count 0 to 8; random
 * and extreme keys and messages (all ones: every limb and column sum at
 * its largest); the limb bounds the header promises are checked too. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"
#include "poly1305.h"
#include "poly1305_amd64.h"

typedef void (*lanes_setup_fn) (const uint64_t r[2], uint64_t *powers);
typedef unsigned int (*lanes_fn) (const uint64_t *powers, const uint64_t *blocks,
                                  size_t nblocks, uint64_t *limbs);

#define NLANES 8
#define MAX_BLOCKS 8

/* One call: NBLOCKS blocks of eight messages MSG[k] (16 * NBLOCKS bytes
 * each) under R, the blocks at placement PB, the limbs at PO. */
static void
lanes_case (check *t, const row *r, const uint64_t rk[2],
            uint8_t msg[NLANES][MAX_BLOCKS * 16], size_t nblocks, placement pb, placement po)
{
  uint64_t powers[POLY1305_LANES_POWERS], *blocks, *limbs;
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
  limbs = (uint64_t *)guarded_place (t, &buf_dst, 5 * NLANES * 8, po);

  ((lanes_fn)r->fn) (powers, blocks, nblocks, limbs);

  for (k = 0; k < NLANES; k++)
    {
      uint64_t want[3] = { 0, 0, 0 }, got[3], l[5], a[3], b[3];
      for (i = 0; i < 5; i++)
        memcpy (&l[i], &limbs[NLANES * i + k], 8);
      verdict (t, l[0] < (1u << 26) && l[1] < (1u << 26) + (1u << 12) && l[2] < (1u << 26)
                  && l[3] < (1u << 26) && l[4] < (1u << 26),
               "lane %u: limbs out of their bounds", k);
      poly1305_words_of_limbs26 (got, l);
      poly1305_generic64_blocks (want, rk, msg[k], nblocks, 1);
      poly1305_reduce (a, got);
      poly1305_reduce (b, want);
      verdict (t, !memcmp (a, b, sizeof a), "lane %u: value differs from the portable C (mod p)",
               k);
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
  lanes_compare, NULL, lanes_depth, { 0, 1, 8 }, 3,
};
