/* adiantum_hooks.c - test-only entry of the Adiantum test copy. */
#include "adiantum.h"
#include "testhooks.h"

/* the module's entries they call (ciphers/adiantum/_build_ffi.py) */
int gcry_adiantum_encrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n,
                           const uint8_t *tweak, size_t tweaklen);
int gcry_adiantum_crypt_sectors (void *c, uint8_t *buf, size_t nsectors, size_t sector_size,
                                 uint64_t first, int encrypting);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_adiantum_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_adiantum_sectors_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
/* END TEST CDEF */

/* The stack-residue probe's entry (the stream-call signature): encrypt SRC
 * into DST under a fixed 32-byte tweak. */
int
gcry_adiantum_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  static const uint8_t tweak[ADIANTUM_TWEAK_MAX];
  return gcry_adiantum_encrypt (c, dst, src, n, tweak, sizeof tweak);
}

/* The stack-residue probe of the sector calls: SRC copied to DST, then
 * encrypted there as 512-byte sectors from sector 0 (N a multiple of 512:
 * several groups of sectors). */
int
gcry_adiantum_sectors_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  memmove (dst, src, n);
  return gcry_adiantum_crypt_sectors (c, dst, n / 512, 512, 0, 1);
}
