/* secretbox_hooks.c - test-only entries of the secretbox test copy. */
#include "secretbox.h"
#include "testhooks.h"

/* the module's entries it calls (ciphers/secretbox/_build_ffi.py) */
int gcry_secretbox_seal (void *c, const uint8_t *nonce, size_t noncelen,
                         const uint8_t *src, size_t n, uint8_t *out);
int gcry_secretbox_open (void *c, const uint8_t *nonce, size_t noncelen,
                         const uint8_t *src, size_t n, uint8_t *out);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_secretbox_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
int gcry_secretbox_open_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
uint64_t gcry_secretbox_stitched_groups (const void *c);
/* END TEST CDEF */

/* The stack-residue probe's entry (the stream-call signature): seal
 * SRC[0 : N-16] under a zero nonce into DST (tag || ciphertext, N bytes). */
int
gcry_secretbox_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  static const uint8_t nonce[24];
  if (n < 16)
    return GCRY_ERR_INV_LENGTH;
  return gcry_secretbox_seal (c, nonce, sizeof nonce, src, n - 16, dst);
}

/* The same for open: seal SRC[0 : N-16] under a zero nonce into DST as
 * gcry_secretbox_probe does, then open that box in place (DST = tag ||
 * plaintext afterwards), so the open path's stack is what the probe sees
 * last. */
int
gcry_secretbox_open_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  static const uint8_t nonce[24];
  int rc = gcry_secretbox_probe (c, dst, src, n);
  if (rc)
    return rc;
  return gcry_secretbox_open (c, nonce, sizeof nonce, dst, n, dst + SECRETBOX_TAG);
}

/* Groups of 512 bytes that went through the stitched routine since setkey
 * (0 where it is not built or not used): tests/test_secretbox_stitched.py. */
uint64_t
gcry_secretbox_stitched_groups (const void *c)
{
  return gcry_atomic_load_u64 (&((const secretbox_ctx *)c)->stitched);
}
