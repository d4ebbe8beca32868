/* secretbox.h - NaCl crypto_secretbox (XSalsa20-Poly1305): the keyed
 * context.  The one-shot calls work on a copy of it, so one keyed context
 * may serve many threads. */
#ifndef GCRYLIKE_SECRETBOX_H
#define GCRYLIKE_SECRETBOX_H

#include "salsa20.h"
#include "poly1305.h"

#define SECRETBOX_KEY 32
#define SECRETBOX_NONCE 24
#define SECRETBOX_TAG POLY1305_TAG


typedef struct {
  salsa20_ctx xsalsa;           /* XSalsa20 (20 rounds), keyed, no nonce */
  unsigned int poly_impl;       /* Poly1305 implementation id */
  unsigned int join;            /* the join's id: its row in secretbox_glue.c */
  uint64_t stitched;            /* 512-byte groups through the stitched
                                 * routine since setkey (read by the test-only
                                 * hooks, tests/native/;
                                 * added to atomically, as one keyed
                                 * context may serve many threads) */
} secretbox_ctx;


#endif
