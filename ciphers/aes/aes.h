/* aes.h - AES-256 (FIPS-197) block cipher cores: ECB over N blocks, the
 * building block for Adiantum.
 *
 * Three implementations:
 *   - aes_generic.c: portable C, constant time.  Bitsliced: four blocks at
 *     a time in eight 64-bit words (one word per bit of a byte), the S-box
 *     as the Boyar-Peralta Boolean circuit, no secret-dependent table
 *     look-ups or branches anywhere (key schedule included).
 *   - asm/aes-amd64-aesni.S: AES-NI (SSE + AES, no VEX), eight blocks in
 *     flight per iteration, then four, then single blocks.
 *   - asm/aes-aarch64-ce.S: the ARMv8 Crypto Extensions, the same groups,
 *     on the AES-NI key layout.
 *
 * Every routine returns a burn depth: for the assembly, the exact number of
 * stack bytes it wrote below the stack pointer at entry (0 for all of
 * them, they use registers only); for the C code, an upper-bound estimate
 * (GCRY_C_FRAME plus its locals).  The caller wipes that much stack once.
 * dst and src may have any alignment and may be equal (in-place); partial
 * overlap is not supported.  nblocks may be 0.
 */
#ifndef GCRYLIKE_AES_H
#define GCRYLIKE_AES_H

#include "common.h"

#define AES256_KEY_BYTES 32
#define AES_BLOCK 16
#define AES256_ROUNDS 14

/* Portable bitsliced key: round key r, bit slice b (bit b of every byte),
 * replicated over the four block lanes of the bitsliced layout (see
 * aes_generic.c).  The same schedule serves encryption and decryption. */
typedef struct {
  GCRY_ALIGNED(64) uint64_t rk[AES256_ROUNDS + 1][8];
} aes256_generic_key;

/* AES-NI key, also the ARMv8 Crypto Extensions' (AESD with AESIMC takes
 * the same equivalent-inverse schedule): enc[] is the FIPS-197 key schedule, round key r at
 * enc + 16*r (bytes as in FIPS-197 w[4r..4r+3]); dec[] is the schedule of
 * the equivalent inverse cipher (FIPS-197 5.3.5): dec[0] = enc[14],
 * dec[r] = InvMixColumns(enc[14-r]) for r = 1..13, dec[14] = enc[0]. */
typedef struct {
  GCRY_ALIGNED(16) uint8_t enc[(AES256_ROUNDS + 1) * 16];
  GCRY_ALIGNED(16) uint8_t dec[(AES256_ROUNDS + 1) * 16];
} aes256_aesni_key;

/* Portable C, constant time. */
unsigned int aes256_generic_setkey (aes256_generic_key *k,
                                    const uint8_t key[AES256_KEY_BYTES]);
unsigned int aes256_generic_encrypt (const aes256_generic_key *k,
                                     uint8_t *dst, const uint8_t *src,
                                     size_t nblocks);
unsigned int aes256_generic_decrypt (const aes256_generic_key *k,
                                     uint8_t *dst, const uint8_t *src,
                                     size_t nblocks);

/* The AES instructions' routines (aes_glue.c's rows), as function types
 * that declare them: all take the AES-NI key layout above. */
typedef unsigned int aes256_hw_setkey_routine (aes256_aesni_key *k,
                                               const uint8_t key[AES256_KEY_BYTES]);
typedef unsigned int aes256_hw_crypt_routine (const aes256_aesni_key *k, uint8_t *dst,
                                              const uint8_t *src, size_t nblocks);

#endif /* GCRYLIKE_AES_H */
