/* aes_glue.c - AES-256 block cipher glue: dispatch to the bitsliced C or
 * AES-NI implementation chosen at setkey, one stack burn per call. */
#include "aes_glue.h"

/* The drivers compiled in: name suffix, priority, the GCRY_HWF_* bits
 * they need, id, the AES-NI one's mark in a composite's name, description. */
static const gcry_driver aes_drivers[] = {
  { "generic", 100, 0, AES_IMPL_GENERIC, "", "bitsliced portable C, four blocks at a time" },
#ifdef USE_AMD64
  { "amd64-aesni", 400, GCRY_HWF_AESNI | GCRY_HWF_SSE2, AES_IMPL_AESNI, GCRY_TAG ("aesni"),
    "AES-NI, eight blocks in flight" },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_aes_drivers, aes_drivers)

uint32_t
gcry_aes_impls (void)
{
  return gcry_drivers_mask (aes_drivers, sizeof aes_drivers / sizeof aes_drivers[0]);
}

int
aes_impl_ok (unsigned int impl)
{
  return impl < 32 && (gcry_aes_impls () & (1u << impl));
}

unsigned int
aes256_setkey_noburn (aes256_ctx *ctx, const uint8_t key[32], unsigned int impl)
{
  gcry_wipememory (ctx, sizeof *ctx);
  ctx->impl = impl;
#ifdef USE_AMD64
  if (impl == AES_IMPL_AESNI)
    return _gcry_aes256_amd64_aesni_setkey (&ctx->key.aesni, key);
#endif
  return aes256_generic_setkey (&ctx->key.generic, key);
}

unsigned int
aes256_encrypt_noburn (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
#ifdef USE_AMD64
  if (ctx->impl == AES_IMPL_AESNI)
    return _gcry_aes256_amd64_aesni_encrypt (&ctx->key.aesni, dst, src, nblocks);
#endif
  return aes256_generic_encrypt (&ctx->key.generic, dst, src, nblocks);
}

unsigned int
aes256_decrypt_noburn (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
#ifdef USE_AMD64
  if (ctx->impl == AES_IMPL_AESNI)
    return _gcry_aes256_amd64_aesni_decrypt (&ctx->key.aesni, dst, src, nblocks);
#endif
  return aes256_generic_decrypt (&ctx->key.generic, dst, src, nblocks);
}

/* -- block cipher entry points ---------------------------------------- */

size_t
gcry_aes256_ctxsize (void)
{
  return sizeof (aes256_ctx);
}

int
gcry_aes256_setkey (void *c, const uint8_t *key, size_t keylen, unsigned int impl)
{
  if (keylen != AES256_KEY_BYTES)
    return GCRY_ERR_INV_KEYLEN;
  if (!aes_impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_burn_stack (aes256_setkey_noburn (c, key, impl) + GCRY_C_FRAME);
  return GCRY_OK;
}

/* N bytes, a multiple of the block size; dst may equal src. */
int
gcry_aes256_encrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  if (n % AES_BLOCK)
    return GCRY_ERR_INV_LENGTH;
  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  if (n)
    gcry_burn_stack (aes256_encrypt_noburn (c, dst, src, n / AES_BLOCK) + GCRY_C_FRAME);
  return GCRY_OK;
}

int
gcry_aes256_decrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  if (n % AES_BLOCK)
    return GCRY_ERR_INV_LENGTH;
  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  if (n)
    gcry_burn_stack (aes256_decrypt_noburn (c, dst, src, n / AES_BLOCK) + GCRY_C_FRAME);
  return GCRY_OK;
}

static const gcry_aes_exports aes_exports = {
  sizeof (gcry_aes_exports), aes_impl_ok, aes256_setkey_noburn, aes256_encrypt_noburn,
  aes256_decrypt_noburn
};
GCRY_EXPORT (aes, gcry_aes_exports, aes_exports)
