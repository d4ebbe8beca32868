/* kinds_hchacha4.c - four HChaCha in one call (_gcry_hchacha4_amd64_avx512:
 * four 16-word states one after the other, their four 32-byte outputs in
 * order) against hchacha_generic on each state.
 *
 * The four states of a call always differ, and every lane is compared on
 * its own, so outputs that land in the wrong lane, or a lane computed from
 * another's words, are seen; the published vectors run in each lane in
 * turn, beside random states in the other three. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"
#include "kinds_stream.h"

static const unsigned int ROUNDS[] = { 20, 12, 8 };

/* One call on the states ST0[0..3]; WANT[lane] (or NULL) a published
 * output that lane must give. */
static void
hash4_case (check *t, const row *r, uint32_t st0[4][16], unsigned int rounds,
            placement po, const uint8_t *const want[4])
{
  hash4_fn fn = (hash4_fn)r->fn;
  uint32_t words[8], *st;
  uint8_t ref[4][32], *out;
  unsigned int lane, i;

  for (lane = 0; lane < 4; lane++)
    {
      hchacha_generic (words, st0[lane], rounds);
      for (i = 0; i < 8; i++)
        gcry_store_le32 (ref[lane] + 4 * i, words[i]);
    }
  /* the routine makes only unaligned-tolerant accesses to the states */
  st = (uint32_t *)guarded_place (t, &buf_state, 4 * 64, (placement)rnd_below (t, PLACE_COUNT));
  memcpy (st, st0, 4 * 64);
  out = guarded_place (t, &buf_dst, 4 * 32, po);

  fn (st, out, rounds);

  for (lane = 0; lane < 4; lane++)
    {
      verdict (t, !memcmp (out + 32 * lane, ref[lane], 32),
               "lane %u: output differs from the portable C at byte %zu", lane,
               first_diff (out + 32 * lane, ref[lane], 32));
      if (want && want[lane])
        verdict (t, !memcmp (out + 32 * lane, want[lane], 32),
                 "lane %u: output differs from the published vector", lane);
    }
  verdict (t, !memcmp (st, st0, 4 * 64), "the states changed");
  verdict (t, guarded_intact (&buf_dst) && guarded_intact (&buf_state),
           "wrote outside its output");
}

/* Random states, all four different (random keys, inputs and constants,
 * some of them any words at all), every rounds count and output placement;
 * then the glue's padding: the last lanes a copy of the first. */
static void
hchacha4_compare (check *t, const row *r)
{
  uint32_t st[4][16];
  unsigned int i, lane;

  for (i = 0; i < 48; i++)
    {
      unsigned int rounds = ROUNDS[i % 3];
      placement po = (placement)(i / 3 % PLACE_COUNT);
      for (lane = 0; lane < 4; lane++)
        {
          core_random_state (t, &CORE_CHACHA, st[lane], 1, (i + lane) % 4);
          if ((i + lane) % 8 == 7)
            rnd_bytes (t, st[lane], sizeof st[lane]);
        }
      set_case (t, "random states %u, %u rounds, out %s", i, rounds, placement_name (po));
      hash4_case (t, r, st, rounds, po, NULL);
    }
  for (i = 1; i < 4; i++)
    {
      for (lane = 0; lane < 4; lane++)
        if (lane <= i)
          core_random_state (t, &CORE_CHACHA, st[lane], 1, 0);
        else
          memcpy (st[lane], st[0], 64);
      set_case (t, "%u different states, the rest copies of lane 0", i + 1);
      hash4_case (t, r, st, ROUNDS[i % 3], PLACE_UNALIGNED, NULL);
    }
}

/* Each published HChaCha vector in each lane, random states (same rounds)
 * in the others; the output unaligned or flush against its guard page. */
static void
hchacha4_vectors (check *t, const row *r)
{
  uint32_t st[4][16];
  uint8_t want[32];
  size_t v;
  unsigned int at, lane;

  for (v = 0; v < VECTORS_HCHACHA_N; v++)
    for (at = 0; at < 4; at++)
      {
        const uint8_t *wants[4] = { NULL, NULL, NULL, NULL };
        for (lane = 0; lane < 4; lane++)
          core_random_state (t, &CORE_CHACHA, st[lane], 1, 0);
        hash_vector_state (&CORE_CHACHA, &VECTORS_HCHACHA[v], st[at], want);
        wants[at] = want;
        set_case (t, "vector key %.16s.. input %.16s.. in lane %u", VECTORS_HCHACHA[v].key,
                  VECTORS_HCHACHA[v].input, at);
        hash4_case (t, r, st, VECTORS_HCHACHA[v].rounds,
                    at % 2 ? PLACE_AT_END : PLACE_UNALIGNED, wants);
      }
}

/* the depth probe's call: four random states from the probe's source */
static void
hash4_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r, (void)n;
  a[0] = (uintptr_t)dbuf.src;
  a[1] = (uintptr_t)dbuf.dst;
  a[2] = 20;
}

const kind kind_hchacha4 = {
  "HChaCha x4 (states[4][16], out[4][32], rounds) vs hchacha_generic per lane",
  hchacha4_compare, hchacha4_vectors, hash4_depth, { 1 }, 1,
};
