/* adiantum.h - Adiantum (Crowley and Biggers, ToSC 2018): XChaCha12 or
 * XChaCha20, AES-256 and NHPoly1305 in the HBSH construction. */
#ifndef GCRYLIKE_ADIANTUM_H
#define GCRYLIKE_ADIANTUM_H

#include "aes_glue.h"
#include "chacha.h"
#include "nhpoly1305.h"
#ifdef USE_AMD64
# include "poly1305_amd64.h"
#endif

#define ADIANTUM_KEY 32
#define ADIANTUM_BLOCK 16      /* the part that goes through AES */
#define ADIANTUM_TWEAK_MAX 32
/* K_E (32) || K_T (16) || K_L (16) || K_N (1072) */
#define ADIANTUM_DERIVED (32 + 16 + 16 + NH_KEY_BYTES)

typedef struct {
  chacha_ctx stream;       /* XChaCha keyed with K_S, no nonce */
  nhpoly1305_ctx hash;     /* keyed with K_L || K_N, no data */
  poly1305_ctx tweak;      /* keyed with K_T (s = 0), no data */
  aes256_ctx aes;          /* keyed with K_E */
  uint64_t tweak_r2[3];    /* r^2 of K_T: the sector tweak hashes (glue) */
  /* The sector calls hash NH outputs and tweaks eight messages at a time
   * with _gcry_poly1305_amd64_avx512_lanes8 (AVX512F: the AVX-512 tier)
   * under the powers r^1..r^8 of K_L's and K_T's r. */
  unsigned int poly_lanes;
#ifdef USE_AMD64
  uint64_t poly_powers[POLY1305_LANES_POWERS];
  uint64_t tweak_powers[POLY1305_LANES_POWERS];  /* the same of K_T's r */
#endif
} adiantum_ctx;

#endif
