/* aead_hooks.c - test-only entries of the ChaCha20-Poly1305 test copy. */
#include "aead.h"
#include "testhooks.h"

/* the module's entry it calls (ciphers/chacha20poly1305/_build_ffi.py) */
int gcry_aead_seal (void *c, const uint8_t *nonce, size_t noncelen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
                    uint8_t *out);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_aead_seal_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
uint64_t gcry_aead_stitched_groups (const void *c);
/* END TEST CDEF */

/* The stack-residue probe's entry into the one-shot seal (the stream-call
 * signature): seal SRC[0 : N-16] under a zero nonce into DST (ciphertext ||
 * tag, N bytes), so the one-shot path's stack is checked like the
 * streaming one. */
int
gcry_aead_seal_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  static const uint8_t nonce[24];
  aead_ctx *ctx = c;

  if (n < POLY1305_TAG)
    return GCRY_ERR_INV_LENGTH;
  return gcry_aead_seal (c, nonce, ctx->chacha.xchacha ? 24 : 12, NULL, 0, src,
                         n - POLY1305_TAG, dst);
}

/* Groups of 512 bytes that went through the stitched routine since setkey
 * (0 where it is not built or not used): tests/test_aead_stitched.py. */
uint64_t
gcry_aead_stitched_groups (const void *c)
{
  return ((const aead_ctx *)c)->stitched;
}
