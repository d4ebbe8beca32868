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

typedef struct { uint64_t l[5]; } pl26;    /* radix 2^26, fully reduced */

static void
pl26_from_r (pl26 *a, const uint64_t r[2])
{
  a->l[0] = r[0] & M26;
  a->l[1] = (r[0] >> 26) & M26;
  a->l[2] = ((r[0] >> 52) | (r[1] << 12)) & M26;
  a->l[3] = (r[1] >> 14) & M26;
  a->l[4] = r[1] >> 40;                 /* clamped r < 2^124 */
}

/* c = a b mod p, fully reduced; a and b fully reduced (limbs < 2^26). */
static void
pl26_mul (pl26 *c, const pl26 *a, const pl26 *b)
{
  const uint64_t *x = a->l, *y = b->l;
  uint64_t y5[5], d[5], t, g[5], mask;
  int i;

  for (i = 1; i < 5; i++)
    y5[i] = 5 * y[i];
  /* each sum < 5 * 2^26 * 5 * 2^26 < 2^57 */
  d[0] = x[0]*y[0] + x[1]*y5[4] + x[2]*y5[3] + x[3]*y5[2] + x[4]*y5[1];
  d[1] = x[0]*y[1] + x[1]*y[0]  + x[2]*y5[4] + x[3]*y5[3] + x[4]*y5[2];
  d[2] = x[0]*y[2] + x[1]*y[1]  + x[2]*y[0]  + x[3]*y5[4] + x[4]*y5[3];
  d[3] = x[0]*y[3] + x[1]*y[2]  + x[2]*y[1]  + x[3]*y[0]  + x[4]*y5[4];
  d[4] = x[0]*y[4] + x[1]*y[3]  + x[2]*y[2]  + x[3]*y[1]  + x[4]*y[0];

  /* two carry passes: limbs < 2^26 except d[1] < 2^26 + 2^(small) */
  for (i = 0; i < 2; i++)
    {
      t = d[0] >> 26; d[0] &= M26; d[1] += t;
      t = d[1] >> 26; d[1] &= M26; d[2] += t;
      t = d[2] >> 26; d[2] &= M26; d[3] += t;
      t = d[3] >> 26; d[3] &= M26; d[4] += t;
      t = d[4] >> 26; d[4] &= M26; d[0] += 5 * t;
    }
  t = d[0] >> 26; d[0] &= M26; d[1] += t;   /* now every limb < 2^26 */

  /* value < 2^130: subtract p once if value >= p, i.e. if value + 5
   * carries out of 2^130 */
  g[0] = d[0] + 5;
  for (i = 0; i < 4; i++)
    {
      g[i + 1] = d[i + 1] + (g[i] >> 26);
      g[i] &= M26;
    }
  mask = 0 - (g[4] >> 26);              /* all ones when value >= p */
  g[4] &= M26;
  for (i = 0; i < 5; i++)
    c->l[i] = (g[i] & mask) | (d[i] & ~mask);
}

static void
pl26_entries (uint64_t e[9], const pl26 *a)
{
  int k;
  for (k = 0; k < 5; k++)
    e[k] = a->l[k];
  for (k = 1; k < 5; k++)
    e[4 + k] = 5 * a->l[k];
}

static void
wipe (void *p, size_t n)
{
  volatile unsigned char *v = p;
  while (n--)
    *v++ = 0;
}

void
_gcry_poly1305_amd64_sse2_setup (const uint64_t r[2], void *table)
{
  uint64_t *t = table;
  pl26 p1, p2, p4;
  uint64_t e1[9], e2[9], e4[9];
  int k;

  pl26_from_r (&p1, r);
  pl26_mul (&p2, &p1, &p1);
  pl26_mul (&p4, &p2, &p2);
  pl26_entries (e1, &p1);
  pl26_entries (e2, &p2);
  pl26_entries (e4, &p4);
  memset (table, 0, POLY1305_AMD64_TABLE_BYTES);
  for (k = 0; k < 9; k++)
    {
      t[0 + 2 * k] = t[0 + 2 * k + 1] = e4[k];
      t[18 + 2 * k] = t[18 + 2 * k + 1] = e2[k];
      t[36 + 2 * k] = e2[k];
      t[36 + 2 * k + 1] = e1[k];
    }
  wipe (&p1, sizeof p1); wipe (&p2, sizeof p2); wipe (&p4, sizeof p4);
  wipe (e1, sizeof e1); wipe (e2, sizeof e2); wipe (e4, sizeof e4);
}

void
_gcry_poly1305_amd64_avx2_setup (const uint64_t r[2], void *table)
{
  uint64_t *t = table;
  pl26 p[9];                            /* p[i] = r^i, i = 1..4 and 8 */
  uint64_t e4[9], e8[9];
  static const int lane_pow[4] = { 4, 2, 3, 1 };
  int j, k;

  pl26_from_r (&p[1], r);
  pl26_mul (&p[2], &p[1], &p[1]);
  pl26_mul (&p[3], &p[2], &p[1]);
  pl26_mul (&p[4], &p[2], &p[2]);
  pl26_mul (&p[8], &p[4], &p[4]);
  pl26_entries (e4, &p[4]);
  pl26_entries (e8, &p[8]);
  memset (table, 0, POLY1305_AMD64_TABLE_BYTES);
  for (k = 0; k < 9; k++)
    for (j = 0; j < 4; j++)
      t[4 * k + j] = e4[k] | (e8[k] << 32);
  for (k = 0; k < 5; k++)
    for (j = 0; j < 4; j++)
      {
        uint64_t l = p[lane_pow[j]].l[k];
        t[36 + 4 * k + j] = l | ((5 * l) << 32);
      }
  wipe (p, sizeof p); wipe (e4, sizeof e4); wipe (e8, sizeof e8);
}

#endif /* __x86_64__ */
