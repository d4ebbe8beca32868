/* poly1305_generic.c - portable Poly1305 block functions (RFC 8439 2.5).
 *
 * Two radices: 2^64 limbs with 128-bit products where the compiler has
 * unsigned __int128, and five 2^26 limbs with 64-bit products for every
 * other target.  Both keep the accumulator between calls as three 64-bit
 * words (see poly1305.h) so any implementation can continue a stream.
 * No branch or index depends on the key or the message. */
#include "poly1305.h"

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

/* Only the 2^64 radix reads 64-bit words (a 32-bit target would warn of an
 * unused function, which GCRYLIKE_WERROR turns into a failed build). */
static uint64_t
load_le64 (const uint8_t *p)
{
  return (uint64_t)gcry_load_le32 (p) | ((uint64_t)gcry_load_le32 (p + 4) << 32);
}

GCRY_NOINLINE unsigned int
poly1305_generic64_blocks (uint64_t h[3], const uint64_t r[2],
                           const uint8_t *m, size_t nblocks, unsigned int hibit)
{
  const uint64_t r0 = r[0], r1 = r[1];
  /* r1 is a multiple of 4 after clamping: 2^128 r1 = 2^130 (r1/4) = 5 r1/4 mod p */
  const uint64_t s1 = r1 + (r1 >> 2);
  uint64_t h0 = h[0], h1 = h[1], h2 = h[2];

  for (; nblocks; nblocks--, m += POLY1305_BLOCK)
    {
      u128 d0, d1;
      uint64_t d2, c;

      /* h += m (+ 2^128) */
      d0 = (u128)h0 + load_le64 (m);
      h0 = (uint64_t)d0;
      d1 = (u128)h1 + load_le64 (m + 8) + (uint64_t)(d0 >> 64);
      h1 = (uint64_t)d1;
      h2 += (uint64_t)(d1 >> 64) + hibit;

      /* h *= r: schoolbook on 64-bit limbs, high parts folded with 5/4 */
      d0 = (u128)h0 * r0 + (u128)h1 * s1;
      d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s1;
      d2 = h2 * r0;

      /* carry, and fold everything at or above 2^130 back times 5 */
      h0 = (uint64_t)d0;
      d1 += (uint64_t)(d0 >> 64);
      h1 = (uint64_t)d1;
      d2 += (uint64_t)(d1 >> 64);
      c = (d2 >> 2) + (d2 & ~(uint64_t)3); /* 5 * (d2 >> 2) */
      h2 = d2 & 3;
      d0 = (u128)h0 + c;
      h0 = (uint64_t)d0;
      d1 = (u128)h1 + (uint64_t)(d0 >> 64);
      h1 = (uint64_t)d1;
      h2 += (uint64_t)(d1 >> 64);
    }
  h[0] = h0;
  h[1] = h1;
  h[2] = h2;
  return 4 * sizeof (uint64_t) + GCRY_C_FRAME;
}

/* r^2 as two steps of the block function without the 2^128 bit: the
 * block 1 gives (0 + 1) r, the block 0 then r r. */
unsigned int
poly1305_r_squared (const poly1305_ctx *key, uint64_t k[3])
{
  static const uint8_t one_then_zero[2 * POLY1305_BLOCK] = { 1 };

  k[0] = k[1] = k[2] = 0;
  return poly1305_generic64_blocks (k, key->r, one_then_zero, 2, 0) + GCRY_C_FRAME;
}

/* h = a + x k: the three 64x64 products summed by columns, then the bits
 * at and above 2^130 (below 2^66 of them) folded back times 5. */
unsigned int
poly1305_muladd64 (uint64_t h[3], const uint64_t a[3], const uint64_t k[3], uint64_t x)
{
  const u128 p0 = (u128)x * k[0], p1 = (u128)x * k[1];
  u128 d0, d1, d2, f;

  d0 = (u128)a[0] + (uint64_t)p0;
  d1 = (u128)a[1] + (uint64_t)(p0 >> 64) + (uint64_t)p1 + (uint64_t)(d0 >> 64);
  d2 = (u128)a[2] + (uint64_t)(p1 >> 64) + (u128)x * k[2] + (uint64_t)(d1 >> 64);
  f = (d2 >> 2) * 5;                    /* weight 2^130 = 5 mod p: < 2^69 */
  d0 = (u128)(uint64_t)d0 + (uint64_t)f;
  d1 = (u128)(uint64_t)d1 + (uint64_t)(f >> 64) + (uint64_t)(d0 >> 64);
  h[0] = (uint64_t)d0;
  h[1] = (uint64_t)d1;
  h[2] = ((uint64_t)d2 & 3) + (uint64_t)(d1 >> 64);
  return 10 * sizeof (uint64_t) + GCRY_C_FRAME;
}
#endif

/* Five 26-bit limbs; products of a limb and a (5x) limb fit in 64 bits
 * with room for the five-term sums. */
GCRY_NOINLINE unsigned int
poly1305_generic32_blocks (uint64_t h[3], const uint64_t r[2],
                           const uint8_t *m, size_t nblocks, unsigned int hibit)
{
  const uint32_t mask = 0x3ffffff;
  uint32_t r0, r1, r2, r3, r4, s1, s2, s3, s4;
  uint32_t h0, h1, h2, h3, h4;
  uint64_t d0, d1, d2, d3, d4, t;
  uint32_t c;

  /* r and h from 2^64 words to 2^26 limbs */
  r0 = (uint32_t)r[0] & mask;
  r1 = (uint32_t)(r[0] >> 26) & mask;
  r2 = (uint32_t)((r[0] >> 52) | (r[1] << 12)) & mask;
  r3 = (uint32_t)(r[1] >> 14) & mask;
  r4 = (uint32_t)(r[1] >> 40);
  s1 = r1 * 5;
  s2 = r2 * 5;
  s3 = r3 * 5;
  s4 = r4 * 5;
  h0 = (uint32_t)h[0] & mask;
  h1 = (uint32_t)(h[0] >> 26) & mask;
  h2 = (uint32_t)((h[0] >> 52) | (h[1] << 12)) & mask;
  h3 = (uint32_t)(h[1] >> 14) & mask;
  h4 = (uint32_t)((h[1] >> 40) | (h[2] << 24));

  for (; nblocks; nblocks--, m += POLY1305_BLOCK)
    {
      /* h += m (+ 2^128) */
      h0 += gcry_load_le32 (m) & mask;
      h1 += (gcry_load_le32 (m + 3) >> 2) & mask;
      h2 += (gcry_load_le32 (m + 6) >> 4) & mask;
      h3 += (gcry_load_le32 (m + 9) >> 6) & mask;
      h4 += (gcry_load_le32 (m + 12) >> 8) | (hibit << 24);

      /* h *= r */
      d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3
           + (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
      d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4
           + (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
      d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0
           + (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
      d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1
           + (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
      d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2
           + (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

      /* partial carry: limbs back to ~26 bits, top carry times 5 */
      c = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & mask;
      d1 += c; c = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & mask;
      d2 += c; c = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & mask;
      d3 += c; c = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & mask;
      d4 += c; c = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & mask;
      h0 += c * 5; c = h0 >> 26; h0 &= mask;
      h1 += c;
    }

  /* back to 2^64 words (h1 may hold 27 bits: add, don't or) */
  t = (uint64_t)h0 + ((uint64_t)h1 << 26);
  h[0] = t + ((uint64_t)h2 << 52);
  c = h[0] < t;
  t = (uint64_t)(h2 >> 12) + ((uint64_t)h3 << 14) + ((uint64_t)h4 << 40) + c;
  h[1] = t;
  h[2] = (uint64_t)(h4 >> 24) + (t < ((uint64_t)h4 << 40) ? 1 : 0);
  return 16 * sizeof (uint64_t) + GCRY_C_FRAME;
}
