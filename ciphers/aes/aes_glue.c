/* aes_glue.c - AES-256 block cipher glue: dispatch to the bitsliced C or
 * the AES instructions' implementation chosen at setkey (AES-NI, the ARMv8
 * Crypto Extensions), one stack burn per call. */
#include "aes_glue.h"

#ifdef AES_HAVE_HW
/* The AES instructions' routines of a driver (its row's ops): all take
 * the AES-NI key layout (aes.h), held in the context's key.aesni. */
typedef struct {
  aes256_hw_setkey_routine *setkey;
  aes256_hw_crypt_routine *encrypt;
  aes256_hw_crypt_routine *decrypt;
} aes_hw_routines;
#endif
#ifdef USE_AMD64
/* asm/aes-amd64-aesni.S */
extern aes256_hw_setkey_routine _gcry_aes256_amd64_aesni_setkey;
extern aes256_hw_crypt_routine _gcry_aes256_amd64_aesni_encrypt,
  _gcry_aes256_amd64_aesni_decrypt;
#endif
#ifdef USE_AARCH64
/* asm/aes-aarch64-ce.S */
extern aes256_hw_setkey_routine _gcry_aes256_aarch64_ce_setkey;
extern aes256_hw_crypt_routine _gcry_aes256_aarch64_ce_encrypt,
  _gcry_aes256_aarch64_ce_decrypt;
#endif

/* The drivers compiled in: name suffix, priority, the GCRY_HWF_* bits
 * they need, the AES instructions' mark in a composite's name,
 * description, their routines (NULL: the bitsliced C).  A row's place is
 * its id. */
static const gcry_driver aes_drivers[] = {
  { "generic", 100, 0, "", "bitsliced portable C, four blocks at a time", NULL },
#ifdef USE_AMD64
  { "amd64-aesni", 400, GCRY_HWF_AESNI | GCRY_HWF_SSE2, GCRY_TAG ("aesni"),
    "AES-NI, eight blocks in flight",
    GCRY_OPS (aes_hw_routines, _gcry_aes256_amd64_aesni_setkey,
              _gcry_aes256_amd64_aesni_encrypt, _gcry_aes256_amd64_aesni_decrypt) },
#endif
#ifdef USE_AARCH64
  { "aarch64-ce", 400, GCRY_HWF_AES | GCRY_HWF_NEON, GCRY_TAG ("ce"),
    "ARMv8 Crypto Extensions (aese/aesmc), eight blocks in flight",
    GCRY_OPS (aes_hw_routines, _gcry_aes256_aarch64_ce_setkey,
              _gcry_aes256_aarch64_ce_encrypt, _gcry_aes256_aarch64_ce_decrypt) },
#endif
};

#ifdef AES_HAVE_HW
/* IMPL's AES instructions' routines (IMPL checked at setkey), or NULL for
 * the portable C. */
static const aes_hw_routines *
hw_routines (unsigned int impl)
{
  return aes_drivers[impl].ops;
}
#endif

GCRY_DRIVERS_ACCESSOR (gcry_aes_drivers, aes_drivers)

int
aes_impl_ok (unsigned int impl)
{
  return GCRY_DRIVER_OK (aes_drivers, impl);
}

unsigned int
aes256_setkey_noburn (aes256_ctx *ctx, const uint8_t key[32], unsigned int impl)
{
  gcry_wipememory (ctx, sizeof *ctx);
  ctx->impl = impl;
#ifdef AES_HAVE_HW
  if (hw_routines (impl))
    return hw_routines (impl)->setkey (&ctx->key.aesni, key);
#endif
  return aes256_generic_setkey (&ctx->key.generic, key);
}

unsigned int
aes256_encrypt_noburn (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
#ifdef AES_HAVE_HW
  if (hw_routines (ctx->impl))
    return hw_routines (ctx->impl)->encrypt (&ctx->key.aesni, dst, src, nblocks);
#endif
  return aes256_generic_encrypt (&ctx->key.generic, dst, src, nblocks);
}

unsigned int
aes256_decrypt_noburn (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks)
{
#ifdef AES_HAVE_HW
  if (hw_routines (ctx->impl))
    return hw_routines (ctx->impl)->decrypt (&ctx->key.aesni, dst, src, nblocks);
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
