/* nh_generic.c - portable NH (Adiantum paper section 6.3; see nh.h for the
 * formula and the contract).  Constant time: no branch or index depends on
 * the key or the message, only on the length. */
#include "nh.h"

static inline void
nh_store_le64 (uint8_t *p, uint64_t v)
{
  gcry_store_le32 (p, (uint32_t)v);
  gcry_store_le32 (p + 4, (uint32_t)(v >> 32));
}

/* The two stride-2 products of one 16-byte group for one pass: message
 * words m0..m3, K the pass's four key words. */
#define NH_PAIR(m0, m1, m2, m3, K)                                          \
  ((uint64_t)(uint32_t)((m0) + (K)[0]) * (uint32_t)((m2) + (K)[2])          \
   + (uint64_t)(uint32_t)((m1) + (K)[1]) * (uint32_t)((m3) + (K)[3]))

/* NH of NGROUPS 16-byte groups: all four passes per group, so each message
 * word is loaded once; pass p reads the key 4p words further on. */
static inline void
nh_groups (const uint32_t *key, const uint8_t *msg, size_t ngroups,
           uint8_t hash[NH_HASH_BYTES])
{
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  uint32_t m0, m1, m2, m3;

  for (; ngroups; ngroups--, msg += NH_MSG_GRAIN, key += 4)
    {
      m0 = gcry_load_le32 (msg + 0);
      m1 = gcry_load_le32 (msg + 4);
      m2 = gcry_load_le32 (msg + 8);
      m3 = gcry_load_le32 (msg + 12);
      s0 += NH_PAIR (m0, m1, m2, m3, key + 0);
      s1 += NH_PAIR (m0, m1, m2, m3, key + 4);
      s2 += NH_PAIR (m0, m1, m2, m3, key + 8);
      s3 += NH_PAIR (m0, m1, m2, m3, key + 12);
    }
  nh_store_le64 (hash + 0, s0);
  nh_store_le64 (hash + 8, s1);
  nh_store_le64 (hash + 16, s2);
  nh_store_le64 (hash + 24, s3);
}

/* Burn depth: the named locals (four sums, four message words, loop
 * state) may be spilled, and when the compiler vectorises the group loop
 * (it does with -O2 -mavx2 or -O3) as 256-bit registers: allow eight
 * 32-byte slots, plus the usual C frame allowance.  Measured with a canary
 * stack (gcc 12): 160 bytes at the project's -O2, up to 312 with -mavx2
 * or -march=native. */
#define NH_GENERIC_BURN (8 * 32 + GCRY_C_FRAME)

GCRY_NOINLINE unsigned int
nh_generic (const uint32_t key[NH_KEY_WORDS], const uint8_t *msg, size_t len,
            uint8_t hash[NH_HASH_BYTES])
{
  nh_groups (key, msg, len / NH_MSG_GRAIN, hash);
  return NH_GENERIC_BURN;
}

GCRY_NOINLINE unsigned int
nh_generic_units (const uint32_t key[NH_KEY_WORDS], const uint8_t *msg,
                  size_t nunits, uint8_t *hashes)
{
  for (; nunits; nunits--, msg += NH_UNIT, hashes += NH_HASH_BYTES)
    nh_groups (key, msg, NH_UNIT / NH_MSG_GRAIN, hashes);
  return NH_GENERIC_BURN;
}
