/* nhpoly1305_hooks.c - test-only entry of the NHPoly1305 test copy. */
#include "nhpoly1305.h"
#include "testhooks.h"

/* the module's entries it calls (ciphers/nhpoly1305/_build_ffi.py) */
int gcry_nhpoly1305_update (void *c, const uint8_t *m, size_t n);
int gcry_nhpoly1305_read (void *c, uint8_t *out, size_t outlen);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_nhpoly1305_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
/* nhpoly1305_glue.c, only with GCRY_TEST_HOOKS: NH alone on one
 * implementation (tests/test_nhpoly1305.py) */
int gcry_nh_test (unsigned int impl, const uint8_t *key, const uint8_t *msg, size_t len,
                  size_t nunits, uint8_t *out);
/* END TEST CDEF */

/* The stack-residue probe's entry: absorb SRC, write the hash to DST. */
int
gcry_nhpoly1305_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  gcry_nhpoly1305_update (c, src, n);
  return gcry_nhpoly1305_read (c, dst, 16);
}
