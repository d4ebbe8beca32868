/* poly1305_aarch64_tables.c - the table of powers of r for the NEON
 * Poly1305 block function (asm/poly1305-aarch64-neon.S).
 *
 * Written from RFC 8439 section 2.5 and Bernstein's Poly1305 paper.
 *
 * Each power of the clamped r is computed modulo p (poly1305_p44.h), fully
 * reduced, and stored as its nine 32-bit values ("value k"): the limbs
 * r_0 .. r_4 of radix 2^26, then 5 r_1 .. 5 r_4 (2^130 = 5 mod p).  UMULL
 * and UMLAL read them either as one element broadcast to both lanes
 * (vN.s[i]) or, for the last step, as two lanes of their own (vN.2s).
 * Offsets in bytes (216 bytes used of POLY1305_TABLE_BYTES):
 *     0    r^2, 36 r^4, 72 r^6, 108 r^8: nine values each, packed, so the
 *          routine loads all 36 into nine registers
 *   144    nine 8-byte entries k = 0..8: value k of r^2 (lane 0) and of
 *          r^1 (lane 1), the powers the two streams end with
 *
 * The arithmetic is constant time (no data-dependent branch or index).
 * Locals hold key material; the glue burns the stack after set-up.
 */
#include "poly1305_aarch64.h"

#if defined(__aarch64__) && !defined(__AARCH64EB__)

#include "poly1305_p44.h"

void
_gcry_poly1305_aarch64_neon_setup (const uint64_t r[2], void *table)
{
  uint32_t *d = table;
  p44 pw[5];                            /* r, r^2, r^4, r^6, r^8 */
  uint64_t l[5];
  int k;

  p44_even_powers (pw, r);
  for (k = 1; k < 5; k++)               /* r^2, r^4, r^6, r^8, packed */
    {
      p44_limbs26 (l, &pw[k]);
      put9_32 (d + 9 * (k - 1), l);
    }
  /* the last step's lanes: value k of r^2 beside value k of r^1 */
  p44_limbs26 (l, &pw[0]);
  for (k = 0; k < 5; k++)
    {
      d[36 + 2 * k] = d[k];
      d[37 + 2 * k] = (uint32_t) l[k];
    }
  for (k = 1; k < 5; k++)
    {
      d[44 + 2 * k] = d[4 + k];
      d[45 + 2 * k] = (uint32_t) (5 * l[k]);
    }
  wipe (pw, sizeof pw);
  wipe (l, sizeof l);
}

#endif /* __aarch64__ && !__AARCH64EB__ */
