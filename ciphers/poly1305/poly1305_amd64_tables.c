/* poly1305_amd64_tables.c - tables of powers of r for the amd64 SIMD
 * Poly1305 block functions (asm/poly1305-amd64-sse2.S and -avx2.S).
 *
 * Written from RFC 8439 section 2.5 and Bernstein's Poly1305 paper.
 *
 * Powers of the clamped r are computed modulo p = 2^130 - 5, fully reduced
 * (so every 26-bit limb is below 2^26), and stored as limbs r_0 .. r_4 of
 * radix 2^26 together with the multiples 5 r_1 .. 5 r_4 that the products
 * need for the wrapped terms (2^130 = 5 mod p).  Each limb goes in the low
 * 32 bits of a 64-bit lane: pmuludq / vpmuludq multiply the low 32 bits of
 * each 64-bit lane and ignore the high 32, which the AVX2 table uses to
 * carry a second set of values.  "Entry k" below runs over the nine values
 *     k:  0    1    2    3    4    5      6      7      8
 *         r_0  r_1  r_2  r_3  r_4  5r_1   5r_2   5r_3   5r_4
 * of one power.  Offsets in bytes; table 64-byte aligned.
 *
 * SSE2 table (432 bytes), 16-byte entries (two 64-bit lanes):
 *     0   nine entries of r^4, both lanes equal      (the 4-block loop)
 *   144   nine entries of r^2, both lanes equal      (loop and 2-block step)
 *   288   nine entries, lane 0 from r^2, lane 1 from r^1   (last 2 blocks)
 *
 * AVX2 table (448 bytes), 32-byte entries (four 64-bit lanes):
 *     0   nine entries, every lane = r^4 entry k (low 32 bits)
 *                                  | r^8 entry k (high 32 bits)
 *   288   five entries k = 0..4 (limb k), lane j = P_j limb k (low 32 bits)
 *                                           | 5 P_j limb k (high 32 bits),
 *         P = (r^4, r^2, r^3, r^1): the lane order of the routine's message
 *         lanes (lane 0 block 0, lane 1 block 2, lane 2 block 1, lane 3
 *         block 3 of the last four blocks).
 *
 * The arithmetic is constant time (no data-dependent branch or index).
 * Locals hold key material; the glue burns the stack after set-up.
 */
#include <string.h>
#include "poly1305_amd64.h"

#if defined(__x86_64__)

#define M26 0x3ffffffULL

typedef unsigned __int128 u128;

/* A number mod p in radix 2^64: w[0] + 2^64 w[1] + 2^128 w[2]. */
typedef struct { uint64_t w[3]; } p130;

/* c = a b mod p, fully reduced.  a, b < 2^130 (w[2] <= 3); c may alias. */
static void
p130_mul (p130 *c, const p130 *a, const p130 *b)
{
  const uint64_t a0 = a->w[0], a1 = a->w[1], a2 = a->w[2];
  const uint64_t b0 = b->w[0], b1 = b->w[1], b2 = b->w[2];
  u128 p00 = (u128) a0 * b0, p01 = (u128) a0 * b1;
  u128 p10 = (u128) a1 * b0, p11 = (u128) a1 * b1;
  u128 t;
  uint64_t v0, v1, v2, v3, v4, h0, h1, h2, g0, g1, g2, mask;

  /* the product v0 .. v4 (< 2^260); a2, b2 <= 3 keep every column sum
   * below 2^68 */
  v0 = (uint64_t) p00;
  t = (p00 >> 64) + (uint64_t) p01 + (uint64_t) p10;
  v1 = (uint64_t) t;
  t = (t >> 64) + (p01 >> 64) + (p10 >> 64) + (uint64_t) p11
      + (u128) a2 * b0 + (u128) b2 * a0;
  v2 = (uint64_t) t;
  t = (t >> 64) + (p11 >> 64) + (u128) a2 * b1 + (u128) b2 * a1;
  v3 = (uint64_t) t;
  v4 = (uint64_t) (t >> 64) + a2 * b2;

  /* fold 2^130 = 5: v = (v mod 2^130) + 5 (v >> 130) < 2^134 */
  h0 = (v2 >> 2) | (v3 << 62);
  h1 = (v3 >> 2) | (v4 << 62);
  h2 = v4 >> 2;
  v2 &= 3;
  t = (u128) v0 + (u128) h0 * 5;
  v0 = (uint64_t) t;
  t = (t >> 64) + v1 + (u128) h1 * 5;
  v1 = (uint64_t) t;
  v2 = (uint64_t) (t >> 64) + v2 + h2 * 5;
  /* and once more: < 2^130 + 5 * 15 */
  h0 = v2 >> 2;
  v2 &= 3;
  t = (u128) v0 + h0 * 5;
  v0 = (uint64_t) t;
  t = (t >> 64) + v1;
  v1 = (uint64_t) t;
  v2 += (uint64_t) (t >> 64);
  /* now v < 2p: subtract p when v + 5 reaches 2^130 (constant time) */
  t = (u128) v0 + 5;
  g0 = (uint64_t) t;
  t = (t >> 64) + v1;
  g1 = (uint64_t) t;
  g2 = (uint64_t) (t >> 64) + v2;
  mask = 0 - (g2 >> 2);                 /* all ones when v >= p */
  g2 &= 3;
  c->w[0] = (g0 & mask) | (v0 & ~mask);
  c->w[1] = (g1 & mask) | (v1 & ~mask);
  c->w[2] = (g2 & mask) | (v2 & ~mask);
}

/* Limbs 0-4 of x (< 2^130) in radix 2^26. */
static inline void
p130_limbs (uint64_t l[5], const p130 *x)
{
  l[0] = x->w[0] & M26;
  l[1] = (x->w[0] >> 26) & M26;
  l[2] = ((x->w[0] >> 52) | (x->w[1] << 12)) & M26;
  l[3] = (x->w[1] >> 14) & M26;
  l[4] = ((x->w[1] >> 40) | (x->w[2] << 24)) & M26;
}

/* Table value k of limbs l: k = 0..4 limb k, k = 5..8 five times limb k-4
 * (each < 2^29). */
static inline uint64_t
entry (const uint64_t l[5], int k)
{
  return k < 5 ? l[k] : 5 * l[k - 4];
}

/* Clear key-derived locals; the empty asm with a memory clobber keeps the
 * compiler from dropping the stores as dead. */
static inline void
wipe (void *p, size_t n)
{
  memset (p, 0, n);
  __asm__ __volatile__ ("" : : "r" (p) : "memory");
}

void
_gcry_poly1305_amd64_sse2_setup (const uint64_t r[2], void *table)
{
  uint64_t *t = table;
  p130 p[3];                            /* r, r^2, r^4 */
  uint64_t l1[5], l2[5], l4[5];
  int k;

  p[0].w[0] = r[0];
  p[0].w[1] = r[1];
  p[0].w[2] = 0;                        /* clamped r < 2^124 < p */
  p130_mul (&p[1], &p[0], &p[0]);
  p130_mul (&p[2], &p[1], &p[1]);
  p130_limbs (l1, &p[0]);
  p130_limbs (l2, &p[1]);
  p130_limbs (l4, &p[2]);
  for (k = 0; k < 9; k++)
    {
      t[0 + 2 * k] = t[0 + 2 * k + 1] = entry (l4, k);
      t[18 + 2 * k] = t[18 + 2 * k + 1] = entry (l2, k);
      t[36 + 2 * k] = entry (l2, k);
      t[36 + 2 * k + 1] = entry (l1, k);
    }
  memset (t + 54, 0, POLY1305_AMD64_TABLE_BYTES - 54 * 8);
  wipe (p, sizeof p);
  wipe (l1, sizeof l1); wipe (l2, sizeof l2); wipe (l4, sizeof l4);
}

void
_gcry_poly1305_amd64_avx2_setup (const uint64_t r[2], void *table)
{
  uint64_t *t = table;
  p130 p[5];                            /* r, r^2, r^3, r^4, r^8 */
  uint64_t l[4][5], l8[5];              /* l[j]: limbs of lane j's power */
  int j, k;

  p[0].w[0] = r[0];
  p[0].w[1] = r[1];
  p[0].w[2] = 0;                        /* clamped r < 2^124 < p */
  p130_mul (&p[1], &p[0], &p[0]);
  p130_mul (&p[2], &p[1], &p[0]);
  p130_mul (&p[3], &p[1], &p[1]);
  p130_mul (&p[4], &p[3], &p[3]);
  /* lanes 0-3 take P = (r^4, r^2, r^3, r^1) */
  p130_limbs (l[0], &p[3]);
  p130_limbs (l[1], &p[1]);
  p130_limbs (l[2], &p[2]);
  p130_limbs (l[3], &p[0]);
  p130_limbs (l8, &p[4]);
  for (k = 0; k < 9; k++)
    {
      uint64_t v = entry (l[0], k) | (entry (l8, k) << 32); /* r^4 | r^8 */
      for (j = 0; j < 4; j++)
        t[4 * k + j] = v;
    }
  for (k = 0; k < 5; k++)
    for (j = 0; j < 4; j++)
      t[36 + 4 * k + j] = l[j][k] | ((5 * l[j][k]) << 32);
  memset (t + 56, 0, POLY1305_AMD64_TABLE_BYTES - 56 * 8);
  wipe (p, sizeof p);
  wipe (l, sizeof l); wipe (l8, sizeof l8);
}

#endif /* __x86_64__ */
