/* nhpoly1305.h - NHPoly1305 as Adiantum defines it (paper section 6.4):
 * NH of each 1024-byte chunk of the zero-padded message, the 32-byte NH
 * outputs hashed by Poly1305 under K_L, result without the s pad. */
#ifndef GCRYLIKE_NHPOLY1305_H
#define GCRYLIKE_NHPOLY1305_H

#include "nh.h"
#include "poly1305.h"

#define NHPOLY1305_KEY_BYTES (16 + NH_KEY_BYTES)  /* Poly1305 r, then the NH key */


typedef struct {
  poly1305_ctx poly;                   /* keyed with r and s = 0 */
  GCRY_ALIGNED(32) uint32_t nhkey[NH_KEY_WORDS];
  uint8_t buf[NH_UNIT];                /* the current partial chunk */
  unsigned int buflen;
  unsigned int nh_impl;                /* NH's driver: its row in nhpoly1305_glue.c */
} nhpoly1305_ctx;

/* NH outputs gathered before one Poly1305 call: 16 chunks = 32 Poly1305
 * blocks, enough for its SIMD path. */
#define NH_BATCH 16

/* One message hashed under a keyed context that holds no data, in pieces
 * (Adiantum hashes each 1 KiB of its stream output while it is in L1): the
 * Poly1305 accumulator and the NH outputs not yet absorbed. */
typedef struct {
  uint64_t h[3];
  unsigned int nhashes;                /* gathered, not yet absorbed */
  uint8_t hashes[NH_BATCH * NH_HASH_BYTES];
} nhpoly1305_acc;

/* NH's drivers compiled in (nhpoly1305_glue.c). */
const gcry_driver *gcry_nh_drivers (size_t *n);
unsigned int nhpoly1305_setkey_noburn (nhpoly1305_ctx *ctx, const uint8_t *key,
                                       unsigned int nh_impl, unsigned int poly_impl);
unsigned int nhpoly1305_update_noburn (nhpoly1305_ctx *ctx, const uint8_t *m, size_t n);
/* The 16-byte hash of everything so far; CTX is left as it was. */
unsigned int nhpoly1305_final_noburn (const nhpoly1305_ctx *ctx, uint8_t out[16]);
/* The hash of MSG alone under a keyed CTX that holds no data yet. */
unsigned int nhpoly1305_oneshot_noburn (const nhpoly1305_ctx *ctx, const uint8_t *msg,
                                        size_t len, uint8_t out[16]);

/* The message in pieces: init, then pieces of whole 1024-byte chunks
 * (only the last piece may end in a partial chunk), then final, which
 * writes the hash.  The accumulator is not wiped: it lives in the caller's
 * frame, which the caller counts in its burn depth (one burn per entry
 * point instead of two wipe calls a message, a measurable share of an
 * Adiantum sector: docs/algorithms.rst, "Adiantum", per-sector cost). */
void nhpoly1305_acc_init (nhpoly1305_acc *acc);
unsigned int nhpoly1305_acc_chunks (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc,
                                    const uint8_t *msg, size_t len);
unsigned int nhpoly1305_acc_final (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc,
                                   uint8_t out[16]);

/* What the nhpoly1305 module exports to the composites built on it
 * (gcrylike/_native/linkage.h): the functions above, by name. */
typedef struct {
  size_t size;
  const gcry_driver *(*nh_drivers) (size_t *n);
  unsigned int (*setkey_noburn) (nhpoly1305_ctx *ctx, const uint8_t *key,
                                 unsigned int nh_impl, unsigned int poly_impl);
  void (*acc_init) (nhpoly1305_acc *acc);
  unsigned int (*acc_chunks) (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc,
                              const uint8_t *msg, size_t len);
  unsigned int (*acc_final) (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc, uint8_t out[16]);
} gcry_nhpoly1305_exports;

#endif
