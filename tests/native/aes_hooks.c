/* aes_hooks.c - test-only entry of the AES test copy. */
#include "aes_glue.h"
#include "testhooks.h"

/* the module's entries it calls (ciphers/aes/_build_ffi.py) */
int gcry_aes256_setkey (void *c, const uint8_t *key, size_t keylen, unsigned int impl);
int gcry_aes256_encrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n);

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
int gcry_aes256_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n);
/* END TEST CDEF */

/* The stack-residue probe's entry (the stream-call signature): key
 * expansion from SRC[0:32] keeping the implementation, then N bytes of
 * encryption from SRC into DST. */
int
gcry_aes256_probe (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  aes256_ctx *ctx = c;
  int rc = gcry_aes256_setkey (c, src, AES256_KEY_BYTES, ctx->impl);
  return rc ? rc : gcry_aes256_encrypt (c, dst, src, n);
}
