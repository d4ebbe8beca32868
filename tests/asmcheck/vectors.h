/* vectors.h - the known answers of the native check.
 *
 * None is written in C: tests/asmcheck/vectors.py generates their definitions
 * (vectors.c, in the build's scratch directory) at build time from the
 * project's single copy, selftests/vectors_*.py, and from the Adiantum
 * authors' NH file (tests/vectors/adiantum/NH.json); build.py compiles it
 * with the rest.  Every field is hex; each array's length is its _N. */
#ifndef GCRYLIKE_ASMCHECK_VECTORS_H
#define GCRYLIKE_ASMCHECK_VECTORS_H

#include <stddef.h>
#include <stdint.h>

/* A keystream block: block CTR of KEY (16 or 32 bytes) and NONCE (8 bytes,
 * or 12 for ChaCha's RFC 8439 layout with its 32-bit counter). */
typedef struct {
  unsigned int rounds;
  const char *key, *nonce;
  uint64_t ctr;
  const char *block;
} stream_vector;

/* HChaCha / HSalsa20 of KEY and the 16-byte INPUT: OUT. */
typedef struct {
  const char *key, *input;
  unsigned int rounds;
  const char *out;
} hash_vector;

/* A MAC: the tag of MESSAGE (any length, maybe empty) under the 32-byte KEY. */
typedef struct {
  const char *key, *message, *tag;
} mac_vector;

/* A block cipher: CIPHERTEXT is PLAINTEXT (whole blocks) under KEY. */
typedef struct {
  const char *key, *plaintext, *ciphertext;
} block_vector;

/* NH: the 32-byte HASH of MESSAGE (a multiple of 16 bytes, at most one
 * unit) under the NH key. */
typedef struct {
  const char *key, *message, *hash;
} nh_vector;

/* ChaCha20 and ChaCha12: vectors_chacha.CHACHA20 and CHACHA12, each block */
extern const stream_vector VECTORS_CHACHA[];
extern const size_t VECTORS_CHACHA_N;
/* Salsa20/20 and /12: vectors_salsa20.VECTORS and vectors_xsalsa20.
 * XSALSA20_AS_SALSA20, each block */
extern const stream_vector VECTORS_SALSA20[];
extern const size_t VECTORS_SALSA20_N;
/* vectors_chacha.HCHACHA, vectors_xsalsa20.HSALSA20 */
extern const hash_vector VECTORS_HCHACHA[], VECTORS_HSALSA20[];
extern const size_t VECTORS_HCHACHA_N, VECTORS_HSALSA20_N;
/* vectors_poly1305.POLY1305 */
extern const mac_vector VECTORS_POLY1305[];
extern const size_t VECTORS_POLY1305_N;
/* vectors_aes: FIPS-197 C.3 and the 19 blocks */
extern const block_vector VECTORS_AES256[];
extern const size_t VECTORS_AES256_N;
/* tests/vectors/adiantum/NH.json, every entry */
extern const nh_vector VECTORS_NH[];
extern const size_t VECTORS_NH_N;

#endif
