/* salsa20_generic.c - portable Salsa20 core (Bernstein, "Salsa20
 * specification") and HSalsa20 ("Extending the Salsa20 nonce"), any even
 * round count. */
#include "salsa20.h"

/* The quarter-round on words a, b, c, d. */
#define QR(a, b, c, d)                 \
  do {                                 \
    x[b] ^= gcry_rol32 (x[a] + x[d], 7);  \
    x[c] ^= gcry_rol32 (x[b] + x[a], 9);  \
    x[d] ^= gcry_rol32 (x[c] + x[b], 13); \
    x[a] ^= gcry_rol32 (x[d] + x[c], 18); \
  } while (0)

/* ROUNDS rounds (ROUNDS / 2 double rounds) on X in place. */
static inline void
salsa20_rounds (uint32_t x[16], unsigned int rounds)
{
  unsigned int i;

  for (i = 0; i < rounds; i += 2)
    {
      /* column round */
      QR (0, 4, 8, 12);
      QR (5, 9, 13, 1);
      QR (10, 14, 2, 6);
      QR (15, 3, 7, 11);
      /* row round */
      QR (0, 1, 2, 3);
      QR (5, 6, 7, 4);
      QR (10, 11, 8, 9);
      QR (15, 12, 13, 14);
    }
}

GCRY_NOINLINE unsigned int
salsa20_generic_block (uint32_t out[16], const uint32_t in[16],
                       unsigned int rounds)
{
  uint32_t x[16];
  unsigned int i;

  for (i = 0; i < 16; i++)
    x[i] = in[i];
  salsa20_rounds (x, rounds);
  for (i = 0; i < 16; i++)
    out[i] = x[i] + in[i];

  return sizeof (x) + GCRY_C_FRAME;
}

/* HSalsa20: the rounds without the feed-forward; the diagonal words (where
 * the constants were) and the words of the 16-byte input make the output. */
GCRY_NOINLINE unsigned int
hsalsa20_generic (uint32_t out[8], const uint32_t in[16], unsigned int rounds)
{
  static const unsigned char pick[8] = { 0, 5, 10, 15, 6, 7, 8, 9 };
  uint32_t x[16];
  unsigned int i;

  for (i = 0; i < 16; i++)
    x[i] = in[i];
  salsa20_rounds (x, rounds);
  for (i = 0; i < 8; i++)
    out[i] = x[pick[i]];

  return sizeof (x) + GCRY_C_FRAME;
}
