/* nh.h - NH as Adiantum defines it (Crowley and Biggers, ToSC 2018(4),
 * section 6.3): NH^T[256, 32, 4], little-endian, 32-bit words, stride 2,
 * 4 passes (Toeplitz key offset 4 words per pass), 1024-byte message unit,
 * 1072-byte key, 32-byte output.  The implementations behind NHPoly1305.
 *
 * For a message of LEN bytes (a multiple of 16, 16 <= LEN <= 1024) read as
 * little-endian 32-bit words m[0 .. LEN/4-1], and key words k[0 .. 267]:
 *
 *   sum_p = SUM over 16-byte groups g (i = 4g) of
 *             (u32)(m[i]   + k[i+4p])   * (u32)(m[i+2] + k[i+2+4p])
 *           + (u32)(m[i+1] + k[i+1+4p]) * (u32)(m[i+3] + k[i+3+4p])
 *   (additions mod 2^32, 32x32->64 products, sums mod 2^64), p = 0..3;
 *   hash = le64(sum_0) || le64(sum_1) || le64(sum_2) || le64(sum_3).
 *
 * Common contract of every routine below:
 *   - key: the 1072 NH key bytes as 268 little-endian 32-bit words (on
 *     amd64 simply the key bytes, 4-byte aligned); the AVX-512 routines
 *     take it arranged by nh_key_arrange (below);
 *   - msg: any alignment; only bytes [0, len) are read, and only key
 *     bytes [0, len + 48) are read;
 *   - len: rounded down to a multiple of 16; len 0 gives an all-zero hash;
 *     len > 1024 is a caller error (it would read past the key);
 *   - hash / hashes: 32 bytes per hash, any alignment; nothing else is
 *     written (no stack either in the assembly routines);
 *   - return value: the stack burn depth, i.e. bytes below the caller's
 *     stack pointer the routine may have dirtied, for gcry_burn_stack.
 *     The assembly returns 0 (it touches no stack) and clears every vector
 *     register that held key, message or sums (AVX-512: zmm0-15 only are
 *     used, all cleared).  The _units variants hash
 *     NUNITS consecutive full 1024-byte units of msg into NUNITS
 *     consecutive 32-byte hashes (nunits 0: nothing is written). */
#ifndef GCRYLIKE_NH_H
#define GCRYLIKE_NH_H

#include "common.h"

#define NH_KEY_BYTES 1072
#define NH_KEY_WORDS (NH_KEY_BYTES / 4)
#define NH_UNIT 1024
#define NH_HASH_BYTES 32
#define NH_MSG_GRAIN 16                 /* len is a multiple of this */

typedef unsigned int nh_routine (const uint32_t key[NH_KEY_WORDS], const uint8_t *msg,
                                 size_t len, uint8_t hash[NH_HASH_BYTES]);
typedef unsigned int nh_units_routine (const uint32_t key[NH_KEY_WORDS], const uint8_t *msg,
                                       size_t nunits, uint8_t *hashes);
typedef nh_routine *nh_fn;
typedef nh_units_routine *nh_units_fn;

/* What an NH driver runs (its row's ops in nhpoly1305_glue.c): one message
 * of up to a unit, whole units, and whether they take the key arranged by
 * nh_key_arrange. */
typedef struct {
  nh_fn one;
  nh_units_fn units;
  int arranged;
} nh_ops;

/* nh_generic.c: portable C. */
unsigned int nh_generic (const uint32_t key[NH_KEY_WORDS], const uint8_t *msg,
                         size_t len, uint8_t hash[NH_HASH_BYTES]);
unsigned int nh_generic_units (const uint32_t key[NH_KEY_WORDS],
                               const uint8_t *msg, size_t nunits,
                               uint8_t *hashes);

/* The key as the AVX-512 routines take it: words 1 and 2 of every 16-byte
 * group swapped, the order their vpmuludq pairs words in.  Done once at
 * setkey, so that each 64-byte key window is a plain memory operand (the
 * windows overlap: shuffling them in the loop would cost a quarter more
 * work).  Applying it twice restores the key. */
static inline void
nh_key_arrange (uint32_t key[NH_KEY_WORDS])
{
  unsigned int i;
  uint32_t w;

  for (i = 0; i < NH_KEY_WORDS; i += 4)
    {
      w = key[i + 1];
      key[i + 1] = key[i + 2];
      key[i + 2] = w;
    }
}

#endif
