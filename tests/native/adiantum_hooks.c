/* adiantum_hooks.c - test-only entry of the Adiantum test copy. */
#include "adiantum.h"
#include "testhooks.h"

/* the module's entry it calls (ciphers/adiantum/_build_ffi.py) */
int gcry_adiantum_encrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n,
                           const uint8_t *tweak, size_t tweaklen);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_adiantum_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
/* END TEST CDEF */

/* The stack-residue probe's entry (the stream-call signature): encrypt SRC
 * into DST under a fixed 32-byte tweak. */
int
gcry_adiantum_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  static const uint8_t tweak[ADIANTUM_TWEAK_MAX];
  return gcry_adiantum_encrypt (c, dst, src, n, tweak, sizeof tweak);
}
