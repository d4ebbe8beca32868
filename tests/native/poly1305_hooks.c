/* poly1305_hooks.c - test-only entry of the Poly1305 test copy. */
#include "poly1305.h"
#include "testhooks.h"

/* the module's entries it calls (ciphers/poly1305/_build_ffi.py) */
int gcry_poly1305_update (void *c, const uint8_t *m, size_t n);
int gcry_poly1305_read (void *c, uint8_t *tag, size_t taglen);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_poly1305_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_poly1305_affine_probe (const uint8_t key[32], const uint64_t a[3], const uint64_t k[3],
                                uint64_t x, uint64_t h[3], uint64_t r2[3]);
/* END TEST CDEF */

/* The stack-residue probe's entry (the stream-call signature): absorb SRC,
 * write the tag to DST. */
int
gcry_poly1305_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  gcry_poly1305_update (c, src, n);
  return gcry_poly1305_read (c, dst, POLY1305_TAG);
}

/* The affine helpers (poly1305.h, 128-bit builds): H = A + X K, and R2 =
 * r^2 for the r of KEY.  Returns 0, or -1 where the build has no 128-bit
 * products (and so no helpers). */
int
gcry_poly1305_affine_probe (const uint8_t key[32], const uint64_t a[3], const uint64_t k[3],
                            uint64_t x, uint64_t h[3], uint64_t r2[3])
{
#ifdef __SIZEOF_INT128__
  poly1305_ctx ctx;
  size_t n;
  const gcry_driver *rows = gcry_poly1305_drivers (&n);

  poly1305_setkey_noburn (&ctx, key, (unsigned int)gcry_driver_find (rows, n, "generic64"));
  poly1305_muladd64 (h, a, k, x);
  poly1305_r_squared (&ctx, r2);
  poly1305_wipe (&ctx);
  return 0;
#else
  (void)key; (void)a; (void)k; (void)x; (void)h; (void)r2;
  return -1;
#endif
}
