/* portable.c - the portable C as rows of the check, on every target: the
 * stream ciphers' block and subkey functions wrapped in the assembly's
 * signatures, so the kinds run the published vectors on them (on a target
 * without assembly, e.g. big-endian s390x or 32-bit armhf, these rows are
 * the whole check).  C has no burn-depth contract: the rows carry
 * ROW_PORTABLE and skip the depth proof. */
#include "asmcheck.h"
#include "kinds_stream.h"
#include "portable.h"

unsigned int
asmcheck_chacha_portable_blocks (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                 size_t nblocks, unsigned int rounds)
{
  core_ref_blocks (&CORE_CHACHA, state, dst, src, nblocks, rounds);
  return 0;
}

unsigned int
asmcheck_salsa20_portable_blocks (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                  size_t nblocks, unsigned int rounds)
{
  core_ref_blocks (&CORE_SALSA20, state, dst, src, nblocks, rounds);
  return 0;
}

static unsigned int
hash_bytes (const core *c, const uint32_t *state, uint8_t *out32, unsigned int rounds)
{
  uint32_t words[8];
  unsigned int i;

  c->hash (words, state, rounds);
  for (i = 0; i < 8; i++)
    gcry_store_le32 (out32 + 4 * i, words[i]);
  return 0;
}

unsigned int
asmcheck_hchacha_portable (const uint32_t *state, uint8_t *out32, unsigned int rounds)
{
  return hash_bytes (&CORE_CHACHA, state, out32, rounds);
}

unsigned int
asmcheck_hsalsa20_portable (const uint32_t *state, uint8_t *out32, unsigned int rounds)
{
  return hash_bytes (&CORE_SALSA20, state, out32, rounds);
}
