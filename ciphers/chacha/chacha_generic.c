/* chacha_generic.c - portable ChaCha and HChaCha cores (RFC 8439 2.1-2.3,
 * draft-irtf-cfrg-xchacha 2.2), any even round count. */
#include "chacha.h"

#define QR(a, b, c, d)                                    \
  do {                                                    \
    x[a] += x[b]; x[d] = gcry_rol32 (x[d] ^ x[a], 16);    \
    x[c] += x[d]; x[b] = gcry_rol32 (x[b] ^ x[c], 12);    \
    x[a] += x[b]; x[d] = gcry_rol32 (x[d] ^ x[a], 8);     \
    x[c] += x[d]; x[b] = gcry_rol32 (x[b] ^ x[c], 7);     \
  } while (0)

static void
permute (uint32_t x[16], unsigned int rounds)
{
  unsigned int i;

  for (i = 0; i < rounds; i += 2)
    {
      /* column round */
      QR (0, 4, 8, 12);
      QR (1, 5, 9, 13);
      QR (2, 6, 10, 14);
      QR (3, 7, 11, 15);
      /* diagonal round */
      QR (0, 5, 10, 15);
      QR (1, 6, 11, 12);
      QR (2, 7, 8, 13);
      QR (3, 4, 9, 14);
    }
}

GCRY_NOINLINE unsigned int
chacha_generic_block (uint32_t out[16], const uint32_t in[16], unsigned int rounds)
{
  uint32_t x[16];
  unsigned int i;

  for (i = 0; i < 16; i++)
    x[i] = in[i];
  permute (x, rounds);
  for (i = 0; i < 16; i++)
    out[i] = x[i] + in[i];
  return sizeof (x) + 2 * GCRY_C_FRAME;
}

/* HChaCha: the permuted state's first and last rows, no feed-forward. */
GCRY_NOINLINE unsigned int
hchacha_generic (uint32_t out[8], const uint32_t in[16], unsigned int rounds)
{
  uint32_t x[16];
  unsigned int i;

  for (i = 0; i < 16; i++)
    x[i] = in[i];
  permute (x, rounds);
  for (i = 0; i < 4; i++)
    {
      out[i] = x[i];
      out[4 + i] = x[12 + i];
    }
  gcry_wipememory (x, sizeof x);
  return sizeof (x) + 2 * GCRY_C_FRAME;
}
