/* compiler.h - the one place where gcrylike's C says something only one
 * family of compilers understands: attributes, compiler barriers, atomics,
 * a buffer in the calling frame (the stack burn's) and the few x86
 * instructions the CPU detection and the secret copy need,
 * each spelled for GCC and Clang (the __GNUC__ family, mingw-w64 included)
 * and for MSVC.  The rest of gcrylike's C is ISO C11 without
 * variable-length arrays, and its test suite keeps it so.
 *
 * Included by common.h, so plugins get the same macros.  Placement:
 * GCRY_ALIGNED goes before a declaration (MSVC's __declspec cannot follow
 * the declarator), GCRY_NOINLINE and GCRY_UNUSED before the function.
 */
#ifndef GCRYLIKE_COMPILER_H
#define GCRYLIKE_COMPILER_H

#include <stddef.h>
#include <stdint.h>

/* MSVC, and Clang in its MSVC mode (clang-cl, which takes MSVC's
 * spellings and is how the tests compile these branches without MSVC) */
#if defined(_MSC_VER) && !defined(__GNUC__)
# define GCRY_MSVC 1
#else
# define GCRY_MSVC 0
#endif

#if GCRY_MSVC
# include <intrin.h>
# define GCRY_NOINLINE __declspec(noinline)
# define GCRY_ALIGNED(n) __declspec(align(n))
/* MSVC does not warn of an unused static function */
# define GCRY_UNUSED
# define GCRY_PRINTF_FORMAT(fmt, first)
/* The compiler may not move memory accesses across it (no CPU fence). */
# define GCRY_BARRIER() _ReadWriteBarrier ()
# include <malloc.h>
/* N bytes of the calling function's frame, released when it returns. */
# define GCRY_STACK_ALLOC(n) _alloca (n)
#else
# define GCRY_NOINLINE __attribute__((noinline))
# define GCRY_ALIGNED(n) __attribute__((aligned(n)))
# define GCRY_UNUSED __attribute__((unused))
/* mingw-w64 checks printf formats as its own printf (gnu_printf with
 * __USE_MINGW_ANSI_STDIO) or as msvcrt's, whichever stdio.h chose */
# ifdef __MINGW_PRINTF_FORMAT
#  define GCRY_PRINTF_FORMAT(fmt, first) \
     __attribute__((format(__MINGW_PRINTF_FORMAT, fmt, first)))
# else
#  define GCRY_PRINTF_FORMAT(fmt, first) __attribute__((format(printf, fmt, first)))
# endif
# define GCRY_BARRIER() __asm__ volatile ("" : : : "memory")
# define GCRY_STACK_ALLOC(n) __builtin_alloca (n)
#endif

/* ---- relaxed atomics: a flag read and written from any thread, a
 * counter added to from any thread (no ordering with other memory) ---- */

#if GCRY_MSVC
/* the __iso_volatile loads and stores are plain accesses of the whole
 * value (what MSVC's own relaxed atomics use); int is 32 bits there */
static inline int
gcry_atomic_load_int (const int *p)
{
  return (int)__iso_volatile_load32 ((const volatile __int32 *)p);
}

static inline void
gcry_atomic_store_int (int *p, int v)
{
  __iso_volatile_store32 ((volatile __int32 *)p, (__int32)v);
}

static inline uint64_t
gcry_atomic_load_u64 (const uint64_t *p)
{
  return (uint64_t)__iso_volatile_load64 ((const volatile __int64 *)p);
}

static inline void
gcry_atomic_add_u64 (uint64_t *p, uint64_t v)
{
  _InterlockedExchangeAdd64 ((volatile __int64 *)p, (__int64)v);
}
#else
static inline int
gcry_atomic_load_int (const int *p)
{
  return __atomic_load_n (p, __ATOMIC_RELAXED);
}

static inline void
gcry_atomic_store_int (int *p, int v)
{
  __atomic_store_n (p, v, __ATOMIC_RELAXED);
}

static inline uint64_t
gcry_atomic_load_u64 (const uint64_t *p)
{
  return __atomic_load_n (p, __ATOMIC_RELAXED);
}

static inline void
gcry_atomic_add_u64 (uint64_t *p, uint64_t v)
{
  __atomic_fetch_add (p, v, __ATOMIC_RELAXED);
}
#endif

/* ---- x86 instructions: CPUID, XGETBV, RDTSC (the feature detection and
 * the cycle counter), REP MOVSB (burn.c's secret copy) --------------- */

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
# define GCRY_HAVE_X86 1

/* CPUID LEAF, SUBLEAF: eax, ebx, ecx, edx into R. */
static inline void
gcry_x86_cpuid (uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
# if GCRY_MSVC
  int regs[4];
  __cpuidex (regs, (int)leaf, (int)subleaf);
  r[0] = (uint32_t)regs[0];
  r[1] = (uint32_t)regs[1];
  r[2] = (uint32_t)regs[2];
  r[3] = (uint32_t)regs[3];
# else
  __asm__ volatile ("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                    : "a"(leaf), "c"(subleaf));
# endif
}

/* XCR0, the register state the OS saves (only when CPUID says OSXSAVE). */
static inline uint64_t
gcry_x86_xcr0 (void)
{
# if GCRY_MSVC
  return _xgetbv (0);
# else
  uint32_t lo, hi;
  __asm__ volatile ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
# endif
}

static inline uint64_t
gcry_x86_rdtsc (void)
{
# if GCRY_MSVC
  return __rdtsc ();
# else
  uint32_t lo, hi;
  __asm__ volatile ("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
# endif
}

# if defined(__x86_64__) || defined(_M_X64)
#  define GCRY_HAVE_X86_64 1
/* Copy N bytes with rep movsb: the bytes move inside the core, no
 * architectural register ever holds them (rdi, rsi and rcx hold the
 * addresses and the count).  Both x86-64 ABIs, SysV and Windows, promise
 * a clear direction flag at a call. */
static inline void
gcry_x86_movsb (void *dst, const void *src, size_t n)
{
#  if GCRY_MSVC
  __movsb ((unsigned char *)dst, (const unsigned char *)src, n);
#  else
  __asm__ volatile ("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
#  endif
}
# endif

/* N iterations of 16 dependent one-cycle adds (the core clock estimate's
 * yardstick): x86-64 GCC and Clang only, as MSVC has no inline assembly
 * there and would fold or vectorise the same loop written in C. */
# if defined(__x86_64__) && !GCRY_MSVC
#  define GCRY_HAVE_ADD_CHAIN 1
static inline uint64_t
gcry_x86_add_chain (uint64_t n)
{
  uint64_t x = 0;
  __asm__ volatile ("1:\n\t"
                    "addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
                    "addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
                    "addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
                    "addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
                    "decq %1\n\t"
                    "jnz 1b\n\t"
                    : "+r"(x), "+r"(n) : : "cc");
  return x;
}
# endif
#endif

#endif /* GCRYLIKE_COMPILER_H */
