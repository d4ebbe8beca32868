/* poly1305_hooks.c - test-only entry of the Poly1305 test copy. */
#include "poly1305.h"
#include "testhooks.h"

/* the module's entries it calls (ciphers/poly1305/_build_ffi.py) */
int gcry_poly1305_update (void *c, const uint8_t *m, size_t n);
int gcry_poly1305_read (void *c, uint8_t *tag, size_t taglen);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_poly1305_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
/* END TEST CDEF */

/* The stack-residue probe's entry (the stream-call signature): absorb SRC,
 * write the tag to DST. */
int
gcry_poly1305_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  gcry_poly1305_update (c, src, n);
  return gcry_poly1305_read (c, dst, POLY1305_TAG);
}
