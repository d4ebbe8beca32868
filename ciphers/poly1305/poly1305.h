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

/* The routines a driver runs (poly1305_glue.c's rows), as function types
 * that declare them: full blocks one at a time in assembly (the 2^128 bit
 * always added), a SIMD tier's set-up of its table of powers of r, and its
 * routine over whole blocks with that table.  Each returns its burn depth
 * (the set-up: its driver row says). */
typedef unsigned int poly1305_scalar_routine (uint64_t h[3], const uint64_t r[2],
                                              const uint8_t *m, size_t nblocks);
typedef void poly1305_setup_routine (const uint64_t r[2], void *table);
typedef unsigned int poly1305_simd_routine (uint64_t h[3], const void *table,
                                            const uint8_t *m, size_t nblocks);

/* A composite's stitched join (the ops of its row, ChaCha20-Poly1305's or
 * secretbox's): the stream cipher over NBLOCKS (a multiple of 8) blocks of
 * SRC into DST, and Poly1305 over NBLOCKS * 64 bytes of MAC_SRC into H
 * (each 16 bytes with the 2^128 bit), in one pass; the block counter in
 * INPUT advanced as a 64-bit counter.  Returns the burn depth. */
typedef unsigned int poly1305_stitched_routine (uint32_t input[16], uint8_t *dst,
                                                const uint8_t *src, size_t nblocks,
                                                uint64_t h[3], const uint64_t r[2],
                                                const uint8_t *mac_src);
typedef struct {
  poly1305_stitched_routine *stitched;
} poly1305_join_ops;

/* The accumulator lives as h[0] + 2^64 h[1] + 2^128 h[2] between calls,
 * partially reduced (h[2] <= 7), whatever implementation absorbs blocks. */
typedef struct {
  uint64_t h[3];
  uint64_t r[2];                /* clamped */
  uint64_t s[2];                /* the pad added at the end */
  uint8_t buf[POLY1305_BLOCK];  /* partial block */
  unsigned int buflen;
  unsigned int impl;            /* the driver's id: its row in poly1305_glue.c */
  unsigned int table_ready;     /* powers computed (on first SIMD use) */
  /* last, so copies and wipes of a context without powers skip it */
  GCRY_ALIGNED(64) uint8_t table[POLY1305_TABLE_BYTES]; /* SIMD powers of r */
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
  const gcry_driver *(*drivers) (size_t *n);
#ifdef __SIZEOF_INT128__
  unsigned int (*r_squared) (const poly1305_ctx *key, uint64_t k[3]);
  unsigned int (*muladd64) (uint64_t h[3], const uint64_t a[3], const uint64_t k[3],
                            uint64_t x);
#endif
  uint32_t lanes_hwf;           /* the GCRY_HWF_* bits the lanes need; 0: none */
#ifdef USE_AMD64
  /* eight messages at once (poly1305_amd64.h), for Adiantum's sector batches */
  void (*lanes_setup) (const uint64_t r[2], uint64_t *powers);
  unsigned int (*lanes8) (const uint64_t *powers, const uint64_t *blocks, size_t nblocks,
                          uint64_t *out);
#endif
} gcry_poly1305_exports;

#endif
