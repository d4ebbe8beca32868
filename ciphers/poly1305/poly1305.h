/* poly1305.h - Poly1305 (RFC 8439 2.5) context and the implementations
 * behind the glue. */
#ifndef GCRYLIKE_POLY1305_H
#define GCRYLIKE_POLY1305_H

#include <string.h>
#include "common.h"
#include "driver.h"
#include "linkage.h"

#define POLY1305_BLOCK 16
#define POLY1305_TAG 16
#define POLY1305_KEY 32
#define POLY1305_TABLE_BYTES 512

enum poly1305_impl {
  POLY1305_IMPL_GENERIC64 = 0,  /* 64-bit limbs, 128-bit products */
  POLY1305_IMPL_GENERIC32 = 1,  /* five 26-bit limbs, 64-bit products */
  POLY1305_IMPL_SSE2 = 2,
  POLY1305_IMPL_AVX2 = 3,
  POLY1305_IMPL_AVX512IFMA = 4,
  POLY1305_IMPL_AARCH64 = 5,    /* 64-bit limbs in aarch64 assembly (MUL/UMULH) */
  POLY1305_IMPL_AARCH64_NEON = 6  /* 26-bit limbs in NEON lanes, powers of r */
};

/* The accumulator lives as h[0] + 2^64 h[1] + 2^128 h[2] between calls,
 * partially reduced (h[2] <= 7), whatever implementation absorbs blocks. */
typedef struct {
  uint64_t h[3];
  uint64_t r[2];                /* clamped */
  uint64_t s[2];                /* the pad added at the end */
  uint8_t buf[POLY1305_BLOCK];  /* partial block */
  unsigned int buflen;
  unsigned int impl;
  unsigned int table_ready;     /* powers computed (on first SIMD use) */
  /* last, so copies and wipes of a context without powers skip it */
  uint8_t table[POLY1305_TABLE_BYTES] GCRY_ALIGNED(64); /* SIMD powers of r */
} poly1305_ctx;

/* Portable block functions: absorb NBLOCKS 16-byte blocks, each with the
 * 2^128 bit (HIBIT = 1) or without it (HIBIT = 0: the padded last block). */
unsigned int poly1305_generic64_blocks (uint64_t h[3], const uint64_t r[2],
                                        const uint8_t *m, size_t nblocks,
                                        unsigned int hibit);
unsigned int poly1305_generic32_blocks (uint64_t h[3], const uint64_t r[2],
                                        const uint8_t *m, size_t nblocks,
                                        unsigned int hibit);

#ifdef __SIZEOF_INT128__
/* An affine function of one 64-bit block word, for hashes whose messages
 * differ only there (Adiantum's sector tweaks): K = r^2 mod p of a keyed
 * context, and H = A + X K mod p.  A and K as accumulators are kept (three
 * words, partially reduced, [2] <= 7); H leaves with h[2] <= 4.  No branch
 * depends on the values.  Both return their stack depth. */
unsigned int poly1305_r_squared (const poly1305_ctx *key, uint64_t k[3]);
unsigned int poly1305_muladd64 (uint64_t h[3], const uint64_t a[3], const uint64_t k[3],
                                uint64_t x);
#endif

/* Glue used by the AEAD: the same as the public entry points without the
 * stack burn; they return the depth for the caller's single burn. */
unsigned int poly1305_setkey_noburn (poly1305_ctx *ctx, const uint8_t key[32],
                                     unsigned int impl);
unsigned int poly1305_update_noburn (poly1305_ctx *ctx, const uint8_t *m, size_t n);
unsigned int poly1305_pad16_noburn (poly1305_ctx *ctx);
unsigned int poly1305_tag_noburn (const poly1305_ctx *ctx, uint8_t tag[16]);
int poly1305_impl_ok (unsigned int impl);
uint32_t gcry_poly1305_impls (void);
/* The drivers compiled in (poly1305_glue.c). */
const gcry_driver *gcry_poly1305_drivers (size_t *n);
/* An accumulator H[3] (zeroed to start) kept outside the keyed context KEY,
 * which stays unchanged: whole blocks in, then the tag with KEY's s. */
unsigned int poly1305_blocks_into (const poly1305_ctx *key, uint64_t h[3],
                                   const uint8_t *m, size_t nblocks);
unsigned int poly1305_tag_of (const poly1305_ctx *key, const uint64_t h[3], uint8_t tag[16]);
void poly1305_wipe (poly1305_ctx *ctx);
/* DST = SRC, the SIMD table only if SRC has one. */
void poly1305_copy (poly1305_ctx *dst, const poly1305_ctx *src);
/* Compute the SIMD table now (for a context that will be copied often);
 * returns the stack depth for the caller's burn. */
unsigned int poly1305_prepare (poly1305_ctx *ctx);

/* What the poly1305 module exports to the composites built on it
 * (gcrylike/_native/linkage.h): the functions above, by name. */
typedef struct {
  size_t size;
  int (*impl_ok) (unsigned int impl);
  unsigned int (*setkey_noburn) (poly1305_ctx *ctx, const uint8_t key[32], unsigned int impl);
  unsigned int (*update_noburn) (poly1305_ctx *ctx, const uint8_t *m, size_t n);
  unsigned int (*pad16_noburn) (poly1305_ctx *ctx);
  unsigned int (*tag_noburn) (const poly1305_ctx *ctx, uint8_t tag[16]);
  unsigned int (*blocks_into) (const poly1305_ctx *key, uint64_t h[3], const uint8_t *m,
                               size_t nblocks);
  unsigned int (*tag_of) (const poly1305_ctx *key, const uint64_t h[3], uint8_t tag[16]);
  void (*wipe) (poly1305_ctx *ctx);
  void (*copy) (poly1305_ctx *dst, const poly1305_ctx *src);
  unsigned int (*prepare) (poly1305_ctx *ctx);
#ifdef __SIZEOF_INT128__
  unsigned int (*r_squared) (const poly1305_ctx *key, uint64_t k[3]);
  unsigned int (*muladd64) (uint64_t h[3], const uint64_t a[3], const uint64_t k[3],
                            uint64_t x);
#endif
#ifdef USE_AMD64
  /* eight messages at once (poly1305_amd64.h), for Adiantum's sector batches */
  void (*lanes_setup) (const uint64_t r[2], uint64_t *powers);
  unsigned int (*lanes8) (const uint64_t *powers, const uint64_t *blocks, size_t nblocks,
                          uint64_t *out);
#endif
} gcry_poly1305_exports;

#endif
