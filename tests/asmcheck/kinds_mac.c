/* kinds_mac.c - Poly1305 (the SIMD routines with their table set-up C, and
 * the scalar one) and NH against the portable C
 * (ciphers/poly1305/poly1305_generic.c, ciphers/nhpoly1305/nh_generic.c)
 * and the known answers of vectors.h: every Poly1305 answer of
 * selftests/vectors_poly1305.py, every NH answer of the Adiantum authors'
 * tests/vectors/adiantum/NH.json. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"

/* Only with assembly: these kinds serve assembly rows alone, and their
 * reference Poly1305 needs unsigned __int128, which 32-bit targets lack. */
#if ASMCHECK_HAVE_PROBE
#include "kinds_stream.h"
#include "nh.h"
#include "poly1305.h"
#include "poly1305_amd64.h"

typedef void (*poly_setup_fn) (const uint64_t r[2], void *table);
typedef unsigned int (*poly_simd_fn) (uint64_t h[3], const void *table, const uint8_t *m,
                                      size_t nblocks);
typedef unsigned int (*poly_scalar_fn) (uint64_t h[3], const uint64_t r[2], const uint8_t *m,
                                        size_t nblocks);

#define TABLE_BYTES 4096        /* room for any flavour's powers */
static GCRY_ALIGNED (64) uint8_t table[TABLE_BYTES];

/* ---- Poly1305 arithmetic for the comparisons ----------------------- */

__extension__ typedef unsigned __int128 u128;

void
poly1305_reduce (uint64_t out[3], const uint64_t h[3])
{
  u128 lo = (u128)h[1] << 64 | h[0];
  uint64_t hi = h[2], c;
  int i;

  /* fold the bits from 2^130 up: 2^130 = 5 (mod p) */
  c = hi >> 2;
  hi &= 3;
  lo += (u128)c * 5;
  hi += lo < (u128)c * 5;
  /* then subtract p while h >= p (at most twice) */
  for (i = 0; i < 2; i++)
    {
      u128 g = lo + 5;
      uint64_t ghi = hi + (g < lo);
      if (ghi >> 2)
        {
          lo = g;
          hi = ghi & 3;
        }
    }
  out[0] = (uint64_t)lo;
  out[1] = (uint64_t)(lo >> 64);
  out[2] = hi;
}

void
poly1305_tag (uint8_t tag[16], const uint64_t h[3], const uint8_t s[16])
{
  uint64_t f[3], s0, s1;
  u128 t;
  poly1305_reduce (f, h);
  memcpy (&s0, s, 8);
  memcpy (&s1, s + 8, 8);
  t = ((u128)f[1] << 64 | f[0]) + ((u128)s1 << 64 | s0);
  memcpy (tag, &t, 16);
}

void
poly1305_clamp (uint64_t r[2], const uint8_t key[16])
{
  memcpy (r, key, 16);
  r[0] &= 0x0ffffffc0fffffffULL;
  r[1] &= 0x0ffffffc0ffffffcULL;
}

static int
same_mod_p (const uint64_t a[3], const uint64_t b[3])
{
  uint64_t x[3], y[3];
  poly1305_reduce (x, a);
  poly1305_reduce (y, b);
  return !memcmp (x, y, sizeof x);
}

/* The accumulator and key of a case: random, or the extremes (every bit of
 * h, r and the message set) that carry through every limb. */
static void
random_key (check *t, uint64_t h[3], uint64_t r[2], int extreme)
{
  uint8_t k[16];
  if (extreme)
    {
      memset (k, 0xff, 16);
      h[0] = h[1] = ~(uint64_t)0;
      h[2] = 7;
    }
  else
    {
      rnd_bytes (t, k, 16);
      rnd_bytes (t, h, 16);
      h[2] = rnd_below (t, 8);
    }
  poly1305_clamp (r, k);
}

/* One call on N blocks: the SIMD routine (with its set-up) or the scalar
 * one, against poly1305_generic64_blocks. */
static void
poly_case (check *t, const row *r, int simd, size_t n, placement pm, int extreme)
{
  uint64_t h[3], h_ref[3], rk[2];
  size_t len = n * 16;
  uint8_t *m;

  random_key (t, h, rk, extreme);
  m = guarded_place (t, &buf_src, len, pm);
  if (extreme)
    memset (m, 0xff, len);
  memcpy (h_ref, h, sizeof h);
  poly1305_generic64_blocks (h_ref, rk, m, n, 1);
  set_case (t, "%zu blocks, message %s%s", n, placement_name (pm), extreme ? ", all ones" : "");
  if (simd)
    {
      ((poly_setup_fn)r->aux) (rk, table);
      ((poly_simd_fn)r->fn) (h, table, m, n);
    }
  else
    ((poly_scalar_fn)r->fn) (h, rk, m, n);
  verdict (t, same_mod_p (h, h_ref), "accumulator differs from the portable C (mod p)");
  verdict (t, h[2] <= 7, "accumulator not partially reduced: h[2] = %llu",
           (unsigned long long)h[2]);
  verdict (t, guarded_intact (&buf_src), "wrote near the message");
}

static void
poly_compare (check *t, const row *r, int simd)
{
  unsigned int k, i;
  for (k = 0; k <= max_multiple (r); k++)
    {
      poly_case (t, r, simd, (size_t)k * r->width, (placement)(k % PLACE_COUNT), 0);
      poly_case (t, r, simd, (size_t)k * r->width, PLACE_AT_END, 1);
    }
  for (i = 0; i < 64; i++)
    poly_case (t, r, simd, rnd_below (t, max_multiple (r) + 1) * r->width,
               (placement)rnd_below (t, PLACE_COUNT), rnd_below (t, 8) == 0);
}

/* A MAC known answer (vectors.h): the routine takes the longest prefix of
 * whole blocks its width allows, the portable C the rest and the padded
 * last block. */
static void
poly_vector (check *t, const row *r, int simd, const mac_vector *v)
{
  uint64_t h[3] = { 0, 0, 0 }, rk[2];
  size_t len = hex_len (v->message), full = len / 16, n = full / r->width * r->width;
  uint8_t key[32], last[16], tag[16], want[16], *m;

  hex_to_bytes (v->key, key, 32);
  hex_to_bytes (v->tag, want, 16);
  poly1305_clamp (rk, key);
  m = guarded_place (t, &buf_src, len, PLACE_AT_END);
  hex_to_bytes (v->message, m, len);
  set_case (t, "vector of %zu bytes, tag %.8s..", len, v->tag);
  if (simd)
    {
      ((poly_setup_fn)r->aux) (rk, table);
      ((poly_simd_fn)r->fn) (h, table, m, n);
    }
  else
    ((poly_scalar_fn)r->fn) (h, rk, m, n);
  poly1305_generic64_blocks (h, rk, m + 16 * n, full - n, 1);
  if (len % 16)
    {
      memset (last, 0, 16);
      memcpy (last, m + 16 * full, len % 16);
      last[len % 16] = 1;
      poly1305_generic64_blocks (h, rk, last, 1, 0);
    }
  poly1305_tag (tag, h, key + 16);
  verdict (t, !memcmp (tag, want, 16), "tag differs from the published vector (%zu blocks "
           "through the routine)", n);
}

static void
poly_vectors (check *t, const row *r, int simd)
{
  size_t i;
  for (i = 0; i < VECTORS_POLY1305_N; i++)
    poly_vector (t, r, simd, &VECTORS_POLY1305[i]);
}

/* ---- the scalar routines at the carries' edges ----------------------
 * A carry dropped at the top of the fold shows only when a limb is all
 * ones and the one below overflows: random inputs almost never get there.
 * The scalar routines do the portable 2^64-radix step itself
 * (poly1305_generic64_blocks), so their words must be the same, not just
 * congruent, with h[2] <= 4 on exit (poly1305_aarch64.h, the amd64
 * scalar's header). */

/* A word where the carries turn: small, just below 2^64 or 2^63, its top
 * half all ones, or random. */
static uint64_t
edge_word (check *t)
{
  static const uint64_t EDGES[] = {
    0, 1, 2, 3, 4, 5, ~(uint64_t)5, ~(uint64_t)4, ~(uint64_t)3, ~(uint64_t)1, ~(uint64_t)0,
    0x7fffffffffffffffULL, 0x8000000000000000ULL,
  };
  switch (rnd_below (t, 4))
    {
    case 0:
    case 1:
      return EDGES[rnd_below (t, ARRAY_SIZE (EDGES))];
    case 2:
      return rnd64 (t) | 0xffffffff00000000ULL;
    default:
      return rnd64 (t);
    }
}

#define EDGE_CASES 5000
#define EDGE_BLOCKS 24

/* Case I: the key, accumulator and message by I mod 5 --
 *   0 edge words everywhere, random r;
 *   1 the largest clamped r and an all-ones message;
 *   2 r1 small (one byte);
 *   3 h[2] at its largest on entry (6 or 7);
 *   4 r = 1, h[2] 6 or 7: h r = h, so only the fold is at work; every
 *     other time h1 all ones and zero blocks, so the fold's carry out of
 *     h0 runs through h1 into h2. */
static void
edge_case (check *t, const row *r, unsigned int i)
{
  uint64_t h[3], h_ref[3], rk[2];
  unsigned int kind = i % 5;
  size_t n = i <= EDGE_BLOCKS ? i : rnd_below (t, EDGE_BLOCKS + 1), b;
  int zeros = kind == 4 && (i / 5) % 2;
  uint8_t *m = guarded_place (t, &buf_src, n * 16, (placement)(i % PLACE_COUNT));

  rk[0] = rnd64 (t) & 0x0ffffffc0fffffffULL;
  rk[1] = rnd64 (t) & 0x0ffffffc0ffffffcULL;
  if (kind == 1)
    {
      rk[0] = 0x0ffffffc0fffffffULL;
      rk[1] = 0x0ffffffc0ffffffcULL;
    }
  else if (kind == 2)
    rk[1] &= 0xfc;
  else if (kind == 4)
    {
      rk[0] = 1;
      rk[1] = 0;
    }
  h[0] = edge_word (t);
  h[1] = zeros ? ~(uint64_t)0 : edge_word (t);
  h[2] = kind >= 3 ? 6 + rnd_below (t, 2) : rnd_below (t, 8);
  for (b = 0; b < 2 * n; b++)
    {
      uint64_t w = kind == 1 ? ~(uint64_t)0 : zeros ? 0 : edge_word (t);
      memcpy (m + 8 * b, &w, 8);
    }
  memcpy (h_ref, h, sizeof h);
  poly1305_generic64_blocks (h_ref, rk, m, n, 1);
  set_case (t, "edge case %u: %zu blocks, h = %016llx %016llx %llu, r = %016llx %016llx", i, n,
            (unsigned long long)h[1], (unsigned long long)h[0], (unsigned long long)h[2],
            (unsigned long long)rk[1], (unsigned long long)rk[0]);
  ((poly_scalar_fn)r->fn) (h, rk, m, n);
  verdict (t, !memcmp (h, h_ref, sizeof h), "accumulator's words differ from the portable C's");
  verdict (t, n == 0 || h[2] <= 4, "h[2] = %llu > 4 on exit", (unsigned long long)h[2]);
}

static void
scalar_compare (check *t, const row *r)
{
  unsigned int i;
  poly_compare (t, r, 0);
  for (i = 0; i < EDGE_CASES; i++)
    edge_case (t, r, i);
}

static void simd_compare (check *t, const row *r) { poly_compare (t, r, 1); }
static void simd_vectors (check *t, const row *r) { poly_vectors (t, r, 1); }
static void scalar_vectors (check *t, const row *r) { poly_vectors (t, r, 0); }

static void
simd_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.h;
  a[1] = (uintptr_t)dbuf.table;
  a[2] = (uintptr_t)dbuf.src;
  a[3] = n;
}

static void
scalar_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.h;
  a[1] = (uintptr_t)dbuf.r;
  a[2] = (uintptr_t)dbuf.src;
  a[3] = n;
}

/* the SIMD lengths reach the main loops' frames (AVX2 from 20 blocks,
 * SSE2 from 10) and stop short of them */
const kind kind_poly1305_simd = {
  "Poly1305 SIMD blocks (h, table, m, nblocks) + set-up (r, table) vs poly1305_generic64",
  simd_compare, simd_vectors, simd_depth, { 0, 1, 2, 3, 4, 5, 8, 16 }, 8,
};
const kind kind_poly1305_scalar = {
  "Poly1305 blocks (h, r, m, nblocks) vs poly1305_generic64_blocks, word for word at the edges",
  scalar_compare, scalar_vectors, scalar_depth, { 0, 1, 2, 4, 16 }, 5,
};

/* ---- NH ----------------------------------------------------------- */

#define NH_MAX_UNITS 8          /* the units routines' longest call here */

typedef unsigned int (*nh_call) (const uint32_t *key, const uint8_t *msg, size_t len,
                                 uint8_t *out);
/* a row's partner: the key as its routine takes it, arranged in place */
typedef void (*nh_key_fn) (uint32_t key[NH_KEY_WORDS]);

/* The key as the row's routine takes it (its partner arranges it, if it
 * has one), placed so that the bytes the routine may read, [0, len + 48),
 * end at the guard page: a read beyond them faults. */
static uint32_t *
place_nh_key (check *t, const row *r, const uint8_t *key, size_t used)
{
  uint32_t words[NH_KEY_WORDS];
  uint8_t *k = guarded_place (t, &buf_mac, used, PLACE_AT_END);

  memcpy (words, key, NH_KEY_BYTES);
  if (r->aux)
    ((nh_key_fn)r->aux) (words);
  memcpy (k, words, used);
  return (uint32_t *)k;
}

static void
nh_case (check *t, const row *r, int units, size_t n, placement pm, placement po,
         const uint8_t *key_in, const uint8_t *msg_in, const uint8_t *want)
{
  uint8_t key[NH_KEY_BYTES], ref[NH_MAX_UNITS * NH_HASH_BYTES], *m, *out;
  size_t msglen = units ? n * NH_UNIT : n;
  size_t nout = units ? n * NH_HASH_BYTES : NH_HASH_BYTES;
  size_t used = units ? (n ? NH_KEY_BYTES : 0) : n / 16 * 16 + 48;
  uint32_t *k;

  if (key_in)
    memcpy (key, key_in, NH_KEY_BYTES);
  else
    rnd_bytes (t, key, sizeof key);
  m = guarded_place (t, &buf_src, msglen, pm);
  if (msg_in)
    memcpy (m, msg_in, msglen);
  out = guarded_place (t, &buf_dst, nout, po);
  k = place_nh_key (t, r, key, used ? used : 4);
  if (units)
    nh_generic_units ((const uint32_t *)key, m, n, ref);
  else
    nh_generic ((const uint32_t *)key, m, n, ref);
  set_case (t, "%zu %s, message %s, output %s", n, units ? "units" : "bytes",
            placement_name (pm), placement_name (po));
  ((nh_call)r->fn) (k, m, n, out);
  verdict (t, !memcmp (out, ref, nout), "hash differs from the portable C at byte %zu",
           first_diff (out, ref, nout));
  if (want)
    verdict (t, !memcmp (out, want, nout), "hash differs from the published vector");
  verdict (t, guarded_intact (&buf_dst) && guarded_intact (&buf_src)
           && guarded_intact (&buf_mac), "wrote outside its output");
}

static void
nh_compare (check *t, const row *r)
{
  size_t len;
  /* every length up to a unit (the routines round it down to 16 bytes),
   * each multiple of 16 a second time with the message against the guard
   * page (the key always is: place_nh_key) */
  for (len = 0; len <= NH_UNIT; len++)
    {
      nh_case (t, r, 0, len, (placement)(len % PLACE_COUNT),
               (placement)(len / 3 % PLACE_COUNT), NULL, NULL, NULL);
      if (len % 16 == 0)
        nh_case (t, r, 0, len, PLACE_AT_END, (placement)(len / 16 % PLACE_COUNT), NULL, NULL,
                 NULL);
    }
}

static void
nh_units_compare (check *t, const row *r)
{
  unsigned int n, i;
  for (n = 0; n <= NH_MAX_UNITS; n++)
    for (i = 0; i < PLACE_COUNT; i++)
      nh_case (t, r, 1, n, (placement)i, (placement)((i + n) % PLACE_COUNT), NULL, NULL, NULL);
}

static uint8_t nh_key[NH_KEY_BYTES], nh_msg[NH_UNIT], nh_want[NH_HASH_BYTES];

static void
nh_vectors_run (check *t, const row *r, int units)
{
  size_t i, ran = 0;
  for (i = 0; i < VECTORS_NH_N; i++)
    {
      size_t len = hex_len (VECTORS_NH[i].message);
      if (units && len != NH_UNIT)
        continue;
      if (hex_len (VECTORS_NH[i].key) < NH_KEY_BYTES || len > NH_UNIT || len % 16
          || hex_len (VECTORS_NH[i].hash) != NH_HASH_BYTES)
        {
          verdict (t, 0, "known answer %zu is not an NH vector of one unit at most", i);
          continue;
        }
      hex_to_bytes (VECTORS_NH[i].key, nh_key, NH_KEY_BYTES);
      hex_to_bytes (VECTORS_NH[i].message, nh_msg, len);
      hex_to_bytes (VECTORS_NH[i].hash, nh_want, NH_HASH_BYTES);
      nh_case (t, r, units, units ? 1 : len, PLACE_UNALIGNED, PLACE_UNALIGNED, nh_key, nh_msg,
               nh_want);
      ran++;
    }
  set_case (t, "the known answers of vectors.h");
  if (!ran)
    verdict (t, 0, "no NH known answer%s to run", units ? " of one whole unit" : "");
}

static void nh_vectors (check *t, const row *r) { nh_vectors_run (t, r, 0); }
static void nh_units_vectors (check *t, const row *r) { nh_vectors_run (t, r, 1); }

static void
nh_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.key;
  a[1] = (uintptr_t)dbuf.src;
  a[2] = n;
  a[3] = (uintptr_t)dbuf.dst;
}

/* 16 to 112 bytes: a single group, a pair, both, and each after the
 * 64-byte loop */
const kind kind_nh = {
  "NH (key, msg, len, hash) vs nh_generic",
  nh_compare, nh_vectors, nh_depth, { 0, 1, 2, 3, 4, 5, 6, 7, 16, 64 }, 10,
};
const kind kind_nh_units = {
  "NH units (key, msg, nunits, hashes) vs nh_generic_units",
  nh_units_compare, nh_units_vectors, nh_depth, { 0, 1, 2, 3 }, 4,
};

#endif /* ASMCHECK_HAVE_PROBE */
