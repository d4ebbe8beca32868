/* poly1305_p44.h - arithmetic modulo p = 2^130 - 5 for the C that fills
 * the SIMD routines' tables of powers of r (poly1305_amd64_tables.c,
 * poly1305_aarch64_tables.c): products in radix 2^44 with 64x64 -> 128-bit
 * multiplies, and the conversion of a power to the 26-bit limbs the
 * vector code multiplies with.
 *
 * Written from RFC 8439 section 2.5 and Bernstein's Poly1305 paper.
 * Static inline functions for 64-bit targets (unsigned __int128); the
 * arithmetic is constant time (no data-dependent branch or index).
 */
#ifndef GCRYLIKE_POLY1305_P44_H
#define GCRYLIKE_POLY1305_P44_H

#include <stddef.h>
#include <stdint.h>

#define M26 ((1ULL << 26) - 1)
#define M42 ((1ULL << 42) - 1)
#define M44 ((1ULL << 44) - 1)

__extension__ typedef unsigned __int128 u128;

/* Clear key-derived locals (whole 64-bit words): volatile word stores, so
 * they are neither dropped as dead nor turned into a slow rep stos. */
static inline void
wipe (void *p, size_t n)
{
  volatile uint64_t *v = p;
  size_t i;
  for (i = 0; i < n / 8; i++)
    v[i] = 0;
}

/* The powers are computed in radix 2^44: x = l[0] + 2^44 l[1] + 2^88 l[2],
 * three products per limb instead of five.  2^132 = 4 * 2^130 = 20 (mod p)
 * folds the products of weight 2^132 and 2^176. */
typedef struct { uint64_t l[3]; } p44;

static inline void
p44_from_r (p44 *x, const uint64_t r[2])
{
  x->l[0] = r[0] & M44;
  x->l[1] = ((r[0] >> 44) | (r[1] << 20)) & M44;
  x->l[2] = r[1] >> 24;                 /* clamped r < 2^124: < 2^36 */
}

/* z = the column sums D0..D2 (each < 2^96) carried into limbs: the carry
 * out of limb 2 has weight 2^130 = 5 mod p, so it comes back into limb 0
 * times 5.  Leaves z0 < 2^44, z1 < 2^44 + 2^13, z2 < 2^42. */
static inline void
p44_carry (p44 *z, u128 d0, u128 d1, u128 d2)
{
  uint64_t z0, z1, z2, c;

  z0 = (uint64_t) d0 & M44;
  d1 += (uint64_t) (d0 >> 44);
  z1 = (uint64_t) d1 & M44;
  d2 += (uint64_t) (d1 >> 44);
  z2 = (uint64_t) d2 & M42;
  c = (uint64_t) (d2 >> 42);            /* weight 2^130: < 2^55 */
  z0 += 5 * c;
  z1 += z0 >> 44;
  z0 &= M44;
  z->l[0] = z0;
  z->l[1] = z1;
  z->l[2] = z2;
}

/* z = x y mod p, partially reduced: from limbs below 2^45 to z0 < 2^44,
 * z1 < 2^44 + 2^13, z2 < 2^42.  z may alias x or y. */
static inline void
p44_mul (p44 *z, const p44 *x, const p44 *y)
{
  const uint64_t x0 = x->l[0], x1 = x->l[1], x2 = x->l[2];
  const uint64_t y0 = y->l[0], y1 = y->l[1], y2 = y->l[2];
  const uint64_t s1 = 20 * y1, s2 = 20 * y2;    /* < 2^49.4 */
  u128 d0, d1, d2;

  /* each sum < 3 * 2^45 * 2^49.4 < 2^96 */
  d0 = (u128) x0 * y0 + (u128) x1 * s2 + (u128) x2 * s1;
  d1 = (u128) x0 * y1 + (u128) x1 * y0 + (u128) x2 * s2;
  d2 = (u128) x0 * y2 + (u128) x1 * y1 + (u128) x2 * y0;
  p44_carry (z, d0, d1, d2);
}

/* z = x^2 mod p, as p44_mul (x, x) with the cross products doubled:
 * six products instead of nine. */
static inline void
p44_sqr (p44 *z, const p44 *x)
{
  const uint64_t x0 = x->l[0], x1 = x->l[1], x2 = x->l[2];
  const uint64_t x0d = 2 * x0, x1d = 2 * x1, s2 = 20 * x2;  /* < 2^49.4 */
  u128 d0, d1, d2;

  d0 = (u128) x0 * x0 + (u128) x1d * s2;
  d1 = (u128) x0d * x1 + (u128) x2 * s2;
  d2 = (u128) x0d * x2 + (u128) x1 * x1;
  p44_carry (z, d0, d1, d2);
}

/* The powers the two-stream SIMD routines take (SSE2, NEON): pw[0] = r,
 * then r^2, r^4, r^6, r^8, as p44_mul leaves them. */
static inline void
p44_even_powers (p44 pw[5], const uint64_t r[2])
{
  p44_from_r (&pw[0], r);
  p44_sqr (&pw[1], &pw[0]);
  p44_sqr (&pw[2], &pw[1]);
  p44_mul (&pw[3], &pw[2], &pw[1]);
  p44_sqr (&pw[4], &pw[2]);
}

/* x mod p, fully reduced in place (x0, x1 < 2^44, x2 < 2^42); x as
 * p44_mul leaves it. */
static inline void
p44_reduce (p44 *x)
{
  uint64_t z0 = x->l[0], z1 = x->l[1], z2 = x->l[2], g0, g1, g2, mask;

  /* carry 1 -> 2 -> (times 5) 0 -> 1: value < 2^130, z0, z2 exact */
  z2 += z1 >> 44;
  z1 &= M44;
  z0 += 5 * (z2 >> 42);
  z2 &= M42;
  z1 += z0 >> 44;
  z0 &= M44;
  z2 += z1 >> 44;                       /* z1 < 2^44 + 1 */
  z1 &= M44;
  /* subtract p when value + 5 reaches 2^130 (constant time) */
  g0 = z0 + 5;
  g1 = z1 + (g0 >> 44);
  g0 &= M44;
  g2 = z2 + (g1 >> 44);
  g1 &= M44;
  mask = 0 - (g2 >> 42);                /* all ones when value >= p */
  g2 &= M42;
  z0 = (g0 & mask) | (z0 & ~mask);
  z1 = (g1 & mask) | (z1 & ~mask);
  z2 = (g2 & mask) | (z2 & ~mask);
  x->l[0] = z0;
  x->l[1] = z1;
  x->l[2] = z2;
}

/* Limbs 0-4 in radix 2^26 of x mod p, fully reduced (each < 2^26); x as
 * p44_mul leaves it. */
static inline void
p44_limbs26 (uint64_t l[5], const p44 *x)
{
  p44 y = *x;
  uint64_t z0, z1, z2;

  p44_reduce (&y);
  z0 = y.l[0];
  z1 = y.l[1];
  z2 = y.l[2];
  l[0] = z0 & M26;
  l[1] = ((z0 >> 26) | (z1 << 18)) & M26;
  l[2] = (z1 >> 8) & M26;
  l[3] = ((z1 >> 34) | (z2 << 10)) & M26;
  l[4] = z2 >> 16;
  wipe (&y, sizeof y);
}

/* The nine 32-bit table values of limbs l: limbs 0-4, then five times
 * limbs 1-4 (each < 2^29). */
static inline void
put9_32 (uint32_t *d, const uint64_t l[5])
{
  d[0] = (uint32_t) l[0];
  d[1] = (uint32_t) l[1];
  d[2] = (uint32_t) l[2];
  d[3] = (uint32_t) l[3];
  d[4] = (uint32_t) l[4];
  d[5] = (uint32_t) (5 * l[1]);
  d[6] = (uint32_t) (5 * l[2]);
  d[7] = (uint32_t) (5 * l[3]);
  d[8] = (uint32_t) (5 * l[4]);
}

#endif
