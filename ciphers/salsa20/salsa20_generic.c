/* salsa20_generic.c - portable Salsa20 core (Bernstein, "Salsa20
 * specification"), any even round count. */
#include "salsa20.h"

/* The quarter-round on words a, b, c, d. */
#define QR(a, b, c, d)                 \
  do {                                 \
    x[b] ^= gcry_rol32 (x[a] + x[d], 7);  \
    x[c] ^= gcry_rol32 (x[b] + x[a], 9);  \
    x[d] ^= gcry_rol32 (x[c] + x[b], 13); \
    x[a] ^= gcry_rol32 (x[d] + x[c], 18); \
  } while (0)

GCRY_NOINLINE unsigned int
salsa20_generic_block (uint32_t out[16], const uint32_t in[16],
                       unsigned int rounds)
{
  uint32_t x[16];
  unsigned int i;

  for (i = 0; i < 16; i++)
    x[i] = in[i];

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

  for (i = 0; i < 16; i++)
    out[i] = x[i] + in[i];

  return sizeof (x) + GCRY_C_FRAME;
}
