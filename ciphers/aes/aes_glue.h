/* aes_glue.h - AES-256 context shared by the AES module and Adiantum. */
#ifndef GCRYLIKE_AES_GLUE_H
#define GCRYLIKE_AES_GLUE_H

#include "aes.h"
#include "driver.h"
#include "linkage.h"


/* Whether the build has AES instructions' routines, which all take the
 * AES-NI key layout (aes.h): AES-NI on x86-64, the Crypto Extensions on
 * aarch64. */
#if defined (USE_AMD64) || defined (USE_AARCH64)
# define AES_HAVE_HW 1
#endif

typedef struct {
  union {
    aes256_generic_key generic;
#ifdef AES_HAVE_HW
    aes256_aesni_key aesni;     /* AES-NI's or the Crypto Extensions' */
#endif
  } key;
  unsigned int impl;            /* the driver's id: its row in aes_glue.c */
} aes256_ctx;

/* The drivers compiled in (aes_glue.c). */
const gcry_driver *gcry_aes_drivers (size_t *n);
int aes_impl_ok (unsigned int impl);
unsigned int aes256_setkey_noburn (aes256_ctx *ctx, const uint8_t key[32], unsigned int impl);
unsigned int aes256_encrypt_noburn (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src,
                                    size_t nblocks);
unsigned int aes256_decrypt_noburn (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src,
                                    size_t nblocks);

/* What the aes module exports to the composites built on it
 * (gcrylike/_native/linkage.h): the functions above, by name. */
typedef struct {
  size_t size;
  int (*impl_ok) (unsigned int impl);
  unsigned int (*setkey_noburn) (aes256_ctx *ctx, const uint8_t key[32], unsigned int impl);
  unsigned int (*encrypt_noburn) (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src,
                                  size_t nblocks);
  unsigned int (*decrypt_noburn) (const aes256_ctx *ctx, uint8_t *dst, const uint8_t *src,
                                  size_t nblocks);
} gcry_aes_exports;

#endif
