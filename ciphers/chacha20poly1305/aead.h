/* aead.h - ChaCha20-Poly1305 (RFC 8439 2.8) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha 2.3) context. */
#ifndef GCRYLIKE_AEAD_H
#define GCRYLIKE_AEAD_H

#include "chacha.h"
#include "poly1305.h"

enum aead_phase {
  AEAD_NEED_IV = 0,   /* keyed, no nonce yet */
  AEAD_AAD = 1,       /* nonce set: associated data may be added */
  AEAD_DATA = 2,      /* encrypting or decrypting */
  AEAD_DONE = 3       /* tag computed; setiv starts a new message */
};

typedef struct {
  chacha_ctx chacha;
  poly1305_ctx mac;
  uint8_t tag[POLY1305_TAG];
  uint64_t aadlen;
  uint64_t ctlen;
  unsigned int phase;
  unsigned int poly_impl;
  unsigned int join;        /* the join's id: its row in aead_glue.c */
  unsigned int encrypting;  /* direction of the data phase: 1 enc, 0 dec */
  uint64_t stitched;        /* groups through the stitched routine since
                             * setkey (read by the test-only hooks,
                             * tests/native/) */
} aead_ctx;


#endif
