/* common.h - helpers shared by every gcrylike extension module.
 *
 * burn.c is compiled into each extension (gcrylike.build.make_ffi
 * includes it in the cffi module's source: one shared object per cipher,
 * and per plugin), so these symbols are private to each module.  Installed
 * with gcrylike for plugins: gcrylike.get_include() is this directory.
 */
#ifndef GCRYLIKE_COMMON_H
#define GCRYLIKE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compiler.h"

/* Stack a C function may dirty besides its named locals, for burn-depth
 * estimates: return address, six callee-saved registers and alignment, plus
 * the 128-byte red zone below the stack pointer that a SysV leaf function
 * may use without moving it. */
#define GCRY_C_FRAME (8 * sizeof (void *) + 128)

/* libgpg-error codes used by the C glue; gcrylike/_errors.py maps them to
 * exception classes.  GCRY_ERR_INV_IV has no libgpg-error counterpart and
 * takes the first user code. */
enum gcry_err_code {
  GCRY_OK = 0,
  GCRY_ERR_CHECKSUM = 10,
  GCRY_ERR_INV_KEYLEN = 44,
  GCRY_ERR_INV_ARG = 45,
  GCRY_ERR_SELFTEST_FAILED = 50,
  GCRY_ERR_NOT_SUPPORTED = 60,
  GCRY_ERR_TOO_LARGE = 67,
  GCRY_ERR_INV_LENGTH = 139,
  GCRY_ERR_INV_STATE = 156,
  GCRY_ERR_MISSING_KEY = 181,
  GCRY_ERR_INV_IV = 1024
};

/* Salsa20 and ChaCha constants: "expand 32-byte k" for 32-byte keys and
 * "expand 16-byte k" for 16-byte keys, as little-endian words. */
static const uint32_t gcry_sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
static const uint32_t gcry_tau[4] = { 0x61707865, 0x3120646e, 0x79622d36, 0x6b206574 };

/* Wipe LEN bytes at P in a way the compiler cannot elide. */
void gcry_wipememory (void *p, size_t len);

/* Copy N bytes of secret state from SRC to DST (not overlapping) leaving
 * no copy of them in registers or on the stack (burn.c says how). */
void gcry_copy_secret (void *dst, const void *src, size_t n);

/* Constant-time comparison of N bytes: 0 when equal. */
int gcry_ct_memcmp (const uint8_t *a, const uint8_t *b, size_t n);

/* Wipe at least BYTES of stack below the caller's frame, rounded up to 64.
 * Does nothing when BYTES is 0 (or, in a test-only build of gcrylike's own
 * modules, when its test suite switched burning off). */
void gcry_burn_stack (unsigned int bytes);

/* Mark N bytes at P public from here on: a result that depends on secrets
 * but is meant to be known (whether a tag matched).  Only a build with
 * GCRY_CT_CHECK defined (gcrylike's constant-time test build) makes it a
 * valgrind client request, so memcheck stops tracing the secret through it; elsewhere it
 * is nothing. */
#ifdef GCRY_CT_CHECK
# include <valgrind/memcheck.h>
# define GCRY_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED ((p), (n)))
#else
# define GCRY_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

/* True when [dst, dst+n) and [src, src+n) overlap without being the same
 * buffer: an in-order stream pass would then read bytes it already wrote. */
static inline int
gcry_bad_overlap (const void *dst, const void *src, size_t n)
{
  uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
  if (d == s || n == 0)
    return 0;
  return d < s + n && s < d + n;
}

static inline uint32_t
gcry_load_le32 (const uint8_t *p)
{
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16)
         | ((uint32_t)p[3] << 24);
}

static inline void
gcry_store_le32 (uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* 64-bit little-endian values, moved whole on a little-endian host: built
 * from byte stores, a value read back at once by a wider load (a tag or a
 * hash the next step adds) waits for the store buffer to drain. */
static inline uint64_t
gcry_load_le64 (const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy (&v, p, sizeof v);
  return v;
#else
  return (uint64_t)gcry_load_le32 (p) | (uint64_t)gcry_load_le32 (p + 4) << 32;
#endif
}

static inline void
gcry_store_le64 (uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy (p, &v, sizeof v);
#else
  gcry_store_le32 (p, (uint32_t)v);
  gcry_store_le32 (p + 4, (uint32_t)(v >> 32));
#endif
}

static inline uint32_t
gcry_rol32 (uint32_t v, unsigned int c)
{
  return (v << c) | (v >> (32 - c));
}

static inline unsigned int
gcry_max_burn (unsigned int a, unsigned int b)
{
  return a > b ? a : b;
}

/* XOR N bytes: dst = src ^ ks, eight bytes at a time, then the tail.  The
 * buffers may be unaligned and dst may be src (each word is read before it
 * is written); memcpy is the portable unaligned load/store.  (A plain byte
 * loop is not vectorised at -O2: it would need a run-time alias check.) */
static inline void
gcry_xor_bytes (uint8_t *dst, const uint8_t *src, const uint8_t *ks, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint64_t a, b;
      memcpy (&a, src + i, 8);
      memcpy (&b, ks + i, 8);
      a ^= b;
      memcpy (dst + i, &a, 8);
    }
  for (; i < n; i++)
    dst[i] = src[i] ^ ks[i];
}


#endif /* GCRYLIKE_COMMON_H */
