/* poly1305_amd64_tables.c - tables of powers of r for the amd64 SIMD
 * Poly1305 block functions (asm/poly1305-amd64-sse2.S, -avx2.S and
 * -avx512.S).
 *
 * Written from RFC 8439 section 2.5 and Bernstein's Poly1305 paper.
 *
 * Powers of the clamped r are computed modulo p = 2^130 - 5 (in radix
 * 2^44 with 64x64 -> 128-bit products), fully reduced, and stored as the
 * limbs r_0 .. r_4 of radix 2^26 (each below 2^26) together with the
 * multiples 5 r_1 .. 5 r_4 that the products need for the wrapped terms
 * (2^130 = 5 mod p), each below 2^29.  The vector routines multiply with
 * pmuludq / vpmuludq, which read the low 32 bits of each 64-bit lane and
 * ignore the high 32.  "Entry k" below runs over the nine values
 *     k:  0    1    2    3    4    5      6      7      8
 *         r_0  r_1  r_2  r_3  r_4  5r_1   5r_2   5r_3   5r_4
 * of one power.  Offsets in bytes; table 64-byte aligned; bytes past the
 * layout (up to POLY1305_AMD64_TABLE_BYTES) are not written.
 *
 * SSE2 table (504 bytes): 16-byte entries (two 64-bit lanes, the value in
 * the low 32 bits of each), used as aligned memory operands, then two
 * compact powers that the routine expands into its stack frame:
 *     0   nine entries of r^2, both lanes equal
 *   144   nine entries of r^4, both lanes equal
 *   288   nine entries, lane 0 from r^2, lane 1 from r^1   (last 2 blocks)
 *   432   r^6, 468 r^8: nine 32-bit entries each
 *
 * AVX2 table (320 bytes):
 *     0, 40, 80, 120   r^4, r^8, r^12, r^16 as nine 32-bit entries each
 *         (padded to 40 bytes), broadcast by the routine (vpbroadcastd)
 *   160   five 32-byte entries k = 0..4 (limb k), four 64-bit lanes:
 *         lane j = P_j limb k (low 32 bits) | 5 P_j limb k (high 32 bits),
 *         P = (r^4, r^2, r^3, r^1): the lane order of the routine's message
 *         lanes (lane 0 block 0, lane 1 block 2, lane 2 block 1, lane 3
 *         block 3 of the last four blocks).
 *
 * AVX512-IFMA table (400 bytes): the radix-2^44 values of a power, as
 * p44_mul leaves them (congruent, not fully reduced): limbs r_0 (< 2^44),
 * r_1 (< 2^44 + 2^13), r_2 (< 2^42), then 20 r_1 and 20 r_2 (2^132 = 20
 * mod p), as 64-bit qwords ("value k", k = 0..4):
 *     0    five 64-byte entries k = 0..4, eight qword lanes: lane j holds
 *          value k of P_j, P = (r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1), the
 *          lane order of the routine's message lanes (lane 2i block i, lane
 *          2i + 1 block i + 4 of the last eight blocks)
 *   320    r^8's five values, 360 r^16's, broadcast by the routine
 *
 * The arithmetic is constant time (no data-dependent branch or index).
 * Locals hold key material; the glue burns the stack after set-up.  The
 * arithmetic modulo p is poly1305_p44.h's.
 */
#include "poly1305_amd64.h"

#if defined(__x86_64__)

#include "poly1305_p44.h"

/* The nine table values of limbs l: limbs 0-4, then five times limbs 1-4
 * (each < 2^29). */
static inline void
put9_64 (uint64_t *t, size_t stride, const uint64_t l[5])
{
  t[0 * stride] = l[0];
  t[1 * stride] = l[1];
  t[2 * stride] = l[2];
  t[3 * stride] = l[3];
  t[4 * stride] = l[4];
  t[5 * stride] = 5 * l[1];
  t[6 * stride] = 5 * l[2];
  t[7 * stride] = 5 * l[3];
  t[8 * stride] = 5 * l[4];
}

void
_gcry_poly1305_amd64_sse2_setup (const uint64_t r[2], void *table)
{
  uint32_t *d = table;
  uint64_t *t = table;
  p44 pw[5];                            /* r, r^2, r^4, r^6, r^8 */
  uint64_t l1[5], l2[5], lp[5];

  p44_even_powers (pw, r);
  p44_limbs26 (l1, &pw[0]);
  p44_limbs26 (l2, &pw[1]);
  p44_limbs26 (lp, &pw[2]);
  put9_64 (t + 0, 2, l2);               /* r^2 in both lanes */
  put9_64 (t + 1, 2, l2);
  put9_64 (t + 18, 2, lp);              /* r^4 in both lanes */
  put9_64 (t + 19, 2, lp);
  put9_64 (t + 36, 2, l2);              /* r^2 | r */
  put9_64 (t + 37, 2, l1);
  /* compact r^6, r^8 at bytes 432, 468 */
  p44_limbs26 (lp, &pw[3]);
  put9_32 (d + 108, lp);
  p44_limbs26 (lp, &pw[4]);
  put9_32 (d + 117, lp);
  d[126] = d[127] = 0;
  wipe (pw, sizeof pw);
  wipe (l1, sizeof l1); wipe (l2, sizeof l2); wipe (lp, sizeof lp);
}

void
_gcry_poly1305_amd64_avx2_setup (const uint64_t r[2], void *table)
{
  uint32_t *d = table;
  uint64_t *t = table;
  p44 p1, p2, p3, p4, p8, p12, p16;
  uint64_t l[4][5], lp[5];              /* l[j]: limbs of lane j's power */
  int j, k;

  p44_from_r (&p1, r);
  p44_sqr (&p2, &p1);
  p44_mul (&p3, &p2, &p1);
  p44_sqr (&p4, &p2);
  p44_sqr (&p8, &p4);
  p44_mul (&p12, &p8, &p4);
  p44_sqr (&p16, &p8);
  /* lane powers P = (r^4, r^2, r^3, r^1) at byte 160 */
  p44_limbs26 (l[0], &p4);
  p44_limbs26 (l[1], &p2);
  p44_limbs26 (l[2], &p3);
  p44_limbs26 (l[3], &p1);
  for (k = 0; k < 5; k++)
    for (j = 0; j < 4; j++)
      t[20 + 4 * k + j] = l[j][k] | ((5 * l[j][k]) << 32);
  /* compact powers r^4, r^8, r^12, r^16 at bytes 0, 40, 80, 120 */
  put9_32 (d + 0, l[0]);
  p44_limbs26 (lp, &p8);
  put9_32 (d + 10, lp);
  p44_limbs26 (lp, &p12);
  put9_32 (d + 20, lp);
  p44_limbs26 (lp, &p16);
  put9_32 (d + 30, lp);
  d[9] = d[19] = d[29] = d[39] = 0;
  wipe (&p1, sizeof p1); wipe (&p2, sizeof p2); wipe (&p3, sizeof p3);
  wipe (&p4, sizeof p4); wipe (&p8, sizeof p8); wipe (&p12, sizeof p12);
  wipe (&p16, sizeof p16);
  wipe (l, sizeof l); wipe (lp, sizeof lp);
}

/* The table of _gcry_poly1305_amd64_avx512_lanes8: r^1 .. r^8 as the nine
 * values of put9_64, power k at qword 9 (k - 1) (576 bytes, any alignment). */
void
_gcry_poly1305_amd64_avx512_lanes_setup (const uint64_t r[2], uint64_t *powers)
{
  p44 p[9];                             /* p[k] = r^k, k = 1..8 */
  uint64_t l[5];
  int k;

  p44_from_r (&p[1], r);
  for (k = 2; k <= 8; k++)
    p44_mul (&p[k], &p[k - 1], &p[1]);
  for (k = 1; k <= 8; k++)
    {
      p44_limbs26 (l, &p[k]);
      put9_64 (powers + 9 * (k - 1), 1, l);
    }
  wipe (&p[1], sizeof p - sizeof p[0]);
  wipe (l, sizeof l);
}

/* The five IFMA values of a power: limbs 0-2 as p44_mul leaves them
 * (x0 < 2^44, x1 < 2^44 + 2^13, x2 < 2^42: the routine's bounds allow
 * that, no full reduction needed) and 20 times limbs 1 and 2 (< 2^48.33),
 * for the stride-STRIDE qwords at T. */
static inline void
put5_44 (uint64_t *t, size_t stride, const p44 *x)
{
  t[0 * stride] = x->l[0];
  t[1 * stride] = x->l[1];
  t[2 * stride] = x->l[2];
  t[3 * stride] = 20 * x->l[1];
  t[4 * stride] = 20 * x->l[2];
}

void
_gcry_poly1305_amd64_avx512ifma_setup (const uint64_t r[2], void *table)
{
  uint64_t *t = table;
  p44 p[10];                            /* p[i] = r^i, i = 1..8; p[9] = r^16 */
  static const unsigned char lane_power[8] = { 8, 4, 7, 3, 6, 2, 5, 1 };
  int j;

  p44_from_r (&p[1], r);
  p44_sqr (&p[2], &p[1]);
  p44_mul (&p[3], &p[2], &p[1]);
  p44_sqr (&p[4], &p[2]);
  p44_mul (&p[5], &p[4], &p[1]);
  p44_sqr (&p[6], &p[3]);
  p44_mul (&p[7], &p[4], &p[3]);
  p44_sqr (&p[8], &p[4]);
  p44_sqr (&p[9], &p[8]);
  /* lane powers at byte 0: entry k (64 bytes) holds value k of lane j's
   * power in qword j */
  for (j = 0; j < 8; j++)
    put5_44 (t + j, 8, &p[lane_power[j]]);
  put5_44 (t + 40, 1, &p[8]);           /* byte 320 */
  put5_44 (t + 45, 1, &p[9]);           /* byte 360: r^16 */
  wipe (&p[1], sizeof p - sizeof p[0]);
}

#endif /* __x86_64__ */
