/* kinds_hchacha16.c - sixteen HChaCha in one call (_gcry_hchacha16_amd64_avx512:
 * words 0-11 shared from one state, words 12-15 of state j from the
 * word-major nonce rows, output word k of state j at out[16 k + j])
 * against hchacha_generic on each assembled state.
 *
 * Every lane's nonce differs and is compared on its own, so a lane computed
 * from another's words or stored in another's column is seen; words 12-15
 * of the shared state hold garbage the routine must not read; the published
 * vectors run in each lane in turn beside random nonces. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"
#include "kinds_stream.h"

typedef unsigned int (*hash16_fn) (const uint32_t *state, const uint32_t *nonces,
                                   uint32_t *out, unsigned int rounds);

static const unsigned int ROUNDS[] = { 20, 12, 8 };

/* One call on the shared words of ST0 and the nonce rows NZ0; WANT[lane]
 * (or NULL) a published output that lane must give. */
static void
hash16_case (check *t, const row *r, const uint32_t st0[16], const uint32_t nz0[4][16],
             unsigned int rounds, placement po, const uint8_t *const want[16])
{
  hash16_fn fn = (hash16_fn)r->fn;
  uint32_t full[16], words[8], ref[16][8], *st, *nz, *out;
  unsigned int lane, k;

  for (lane = 0; lane < 16; lane++)
    {
      memcpy (full, st0, 48);
      for (k = 0; k < 4; k++)
        full[12 + k] = nz0[k][lane];
      hchacha_generic (words, full, rounds);
      memcpy (ref[lane], words, sizeof words);
    }
  /* only unaligned-tolerant accesses are made to the inputs */
  st = (uint32_t *)guarded_place (t, &buf_state, 64, (placement)rnd_below (t, PLACE_COUNT));
  memcpy (st, st0, 64);
  nz = (uint32_t *)guarded_place (t, &buf_src, 256, (placement)rnd_below (t, PLACE_COUNT));
  memcpy (nz, nz0, 256);
  out = (uint32_t *)guarded_place (t, &buf_dst, 512, po);

  fn (st, nz, out, rounds);

  for (lane = 0; lane < 16; lane++)
    {
      uint8_t got[32], exp[32];
      for (k = 0; k < 8; k++)
        {
          gcry_store_le32 (got + 4 * k, out[16 * k + lane]);
          gcry_store_le32 (exp + 4 * k, ref[lane][k]);
        }
      verdict (t, !memcmp (got, exp, 32),
               "lane %u: output differs from the portable C at byte %zu", lane,
               first_diff (got, exp, 32));
      if (want && want[lane])
        verdict (t, !memcmp (got, want[lane], 32),
                 "lane %u: output differs from the published vector", lane);
    }
  verdict (t, !memcmp (st, st0, 64) && !memcmp (nz, nz0, 256), "the inputs changed");
  verdict (t, guarded_intact (&buf_dst) && guarded_intact (&buf_state)
           && guarded_intact (&buf_src), "wrote outside its output");
}

/* Random shared words (random keys and constants, sometimes any words at
 * all) and sixteen random nonces, every rounds count and output placement;
 * then the glue's padding: the last lanes copies of the first. */
static void
hchacha16_compare (check *t, const row *r)
{
  uint32_t st[16], lst[16], nz[4][16];
  unsigned int i, lane, k;

  for (i = 0; i < 48; i++)
    {
      unsigned int rounds = ROUNDS[i % 3];
      placement po = (placement)(i / 3 % PLACE_COUNT);
      core_random_state (t, &CORE_CHACHA, st, 1, i % 4);
      if (i % 8 == 7)
        rnd_bytes (t, st, sizeof st);
      for (lane = 0; lane < 16; lane++)
        {
          core_random_state (t, &CORE_CHACHA, lst, 1, (i + lane) % 4);
          for (k = 0; k < 4; k++)
            nz[k][lane] = lst[12 + k];
        }
      set_case (t, "random states %u, %u rounds, out %s", i, rounds, placement_name (po));
      hash16_case (t, r, st, (const uint32_t (*)[16])nz, rounds, po, NULL);
    }
  for (i = 1; i < 16; i += 3)
    {
      core_random_state (t, &CORE_CHACHA, st, 1, 0);
      for (lane = 0; lane < 16; lane++)
        for (k = 0; k < 4; k++)
          nz[k][lane] = lane <= i ? rnd32 (t) : nz[k][0];
      set_case (t, "%u different nonces, the rest copies of lane 0", i + 1);
      hash16_case (t, r, st, (const uint32_t (*)[16])nz, ROUNDS[i % 3], PLACE_UNALIGNED, NULL);
    }
}

/* Each published HChaCha vector in each lane (its key as the shared
 * words), random nonces in the others; the output unaligned or flush
 * against its guard page. */
static void
hchacha16_vectors (check *t, const row *r)
{
  uint32_t st[16], nz[4][16];
  uint8_t want[32];
  size_t v;
  unsigned int at, lane, k;

  for (v = 0; v < VECTORS_HCHACHA_N; v++)
    for (at = 0; at < 16; at++)
      {
        const uint8_t *wants[16] = { NULL };
        hash_vector_state (&CORE_CHACHA, &VECTORS_HCHACHA[v], st, want);
        for (lane = 0; lane < 16; lane++)
          for (k = 0; k < 4; k++)
            nz[k][lane] = lane == at ? st[12 + k] : rnd32 (t);
        rnd_bytes (t, st + 12, 16);     /* not read */
        wants[at] = want;
        set_case (t, "vector key %.16s.. input %.16s.. in lane %u", VECTORS_HCHACHA[v].key,
                  VECTORS_HCHACHA[v].input, at);
        hash16_case (t, r, st, (const uint32_t (*)[16])nz, VECTORS_HCHACHA[v].rounds,
                     at % 2 ? PLACE_AT_END : PLACE_UNALIGNED, wants);
      }
}

/* the depth probe's call: state and nonces from the probe's random source */
static void
hash16_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r, (void)n;
  a[0] = (uintptr_t)dbuf.src;
  a[1] = (uintptr_t)(dbuf.src + 64);
  a[2] = (uintptr_t)dbuf.dst;
  a[3] = 20;
}

const kind kind_hchacha16 = {
  "HChaCha x16 (state[16], nonces[4][16], out[8][16], rounds) vs hchacha_generic per lane",
  hchacha16_compare, hchacha16_vectors, hash16_depth, { 1 }, 1,
};
