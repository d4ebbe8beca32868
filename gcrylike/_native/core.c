/* core.c - the small core extension: CPU feature detection and the
 * features' names, C-owned context memory, and a cycle counter for the
 * benchmarks. */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hwf.h"
#include "portable.h"

#if defined(__aarch64__) && defined(__linux__)
# include <sys/auxv.h>
# define HAVE_AARCH64_HWCAP 1
/* The kernel's AT_HWCAP bits (its uapi asm/hwcap.h; the values are ABI and
 * spelled out here so no kernel header is needed). */
# define GCRY_HWCAP_ASIMD (1ul << 1)
# define GCRY_HWCAP_AES (1ul << 3)
# define GCRY_HWCAP_PMULL (1ul << 4)
#endif

#ifdef GCRY_HAVE_X86
/* CPUID leaf 1 and leaf 7 bits, then gate the AVX and AVX-512 families on
 * the OS having enabled their register state in XCR0 (XGETBV). */
static uint32_t
detect_x86 (void)
{
  uint32_t r[4], b, c, d, max_leaf;
  uint32_t hwf = 0;
  uint64_t xcr0 = 0;
  int os_avx = 0, os_avx512 = 0;

  gcry_x86_cpuid (0, 0, r);
  max_leaf = r[0];
  if (max_leaf < 1)
    return 0;
  gcry_x86_cpuid (1, 0, r);
  c = r[2];
  d = r[3];

  if (d & (1u << 26))
    hwf |= GCRY_HWF_SSE2;
  if (c & (1u << 9))
    hwf |= GCRY_HWF_SSSE3;
  if (c & (1u << 1))
    hwf |= GCRY_HWF_PCLMUL;
  if (c & (1u << 25))
    hwf |= GCRY_HWF_AESNI;
  if (c & (1u << 27)) /* OSXSAVE: XGETBV is usable */
    {
      xcr0 = gcry_x86_xcr0 ();
      os_avx = (xcr0 & 0x6) == 0x6;            /* SSE and AVX state */
      os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    }
  if (os_avx && (c & (1u << 28)))
    hwf |= GCRY_HWF_AVX;

  if (max_leaf >= 7)
    {
      gcry_x86_cpuid (7, 0, r);
      b = r[1];
      c = r[2];
      if (b & (1u << 8))
        hwf |= GCRY_HWF_BMI2;
      if (os_avx && (hwf & GCRY_HWF_AVX))
        {
          if (b & (1u << 5))
            hwf |= GCRY_HWF_AVX2;
          if (c & (1u << 9))
            hwf |= GCRY_HWF_VAES;
        }
      if (os_avx512 && (b & (1u << 16)))
        {
          hwf |= GCRY_HWF_AVX512F;
          if (b & (1u << 31))
            hwf |= GCRY_HWF_AVX512VL;
          if (b & (1u << 30))
            hwf |= GCRY_HWF_AVX512BW;
          if (b & (1u << 21))
            hwf |= GCRY_HWF_AVX512IFMA;
        }
    }
  return hwf;
}
#endif

#ifdef HAVE_AARCH64_HWCAP
/* What the kernel says the CPU has and it supports (AT_HWCAP); the Crypto
 * Extensions' instructions work on NEON registers, so they count only
 * with NEON. */
static uint32_t
detect_aarch64 (void)
{
  unsigned long hwcap = getauxval (AT_HWCAP);
  uint32_t hwf = 0;

  if (hwcap & GCRY_HWCAP_ASIMD)
    {
      hwf |= GCRY_HWF_NEON;
      if (hwcap & GCRY_HWCAP_AES)
        hwf |= GCRY_HWF_AES;
      if (hwcap & GCRY_HWCAP_PMULL)
        hwf |= GCRY_HWF_PMULL;
    }
  return hwf;
}
#endif

uint32_t
gcry_hwf_detect (void)
{
#ifdef GCRY_HAVE_X86
  return detect_x86 ();
#elif defined(HAVE_AARCH64_HWCAP)
  return detect_aarch64 ();
#else
  return 0;
#endif
}

/* The masks are ints: 31 features at most. */
_Static_assert (GCRY_HWF_COUNT <= 31, "too many features for gcry_hwf_detect's bits");

static const char *const hwf_names[GCRY_HWF_COUNT] = {
#define GCRY_HWF_X_NAME(id, name) name,
  GCRY_HWF_LIST (GCRY_HWF_X_NAME)
#undef GCRY_HWF_X_NAME
};

/* The name of bit BIT of gcry_hwf_detect() (hwf.h's list), NULL past the
 * last feature: gcrylike/_hwf.py builds FEATURES from these. */
const char *
gcry_hwf_name (unsigned int bit)
{
  return bit < GCRY_HWF_COUNT ? hwf_names[bit] : NULL;
}

/* Context memory: 64-byte aligned (what the widest SIMD loads want),
 * zeroed on allocation, wiped before it is freed.  A 64-byte header in
 * front holds the size, so that the release needs the pointer alone and is
 * itself the cffi destructor (gcrylike/_context.py): no Python code runs
 * between dropping a context and wiping it, so no signal handler can skip
 * the wipe. */
#define CTX_HEADER 64


void *
gcry_ctx_alloc (size_t size)
{
  size_t rounded = (size + 63) & ~(size_t)63;
  uint8_t *base;

  if (!rounded)
    rounded = 64;
  base = gcry_aligned_alloc (64, CTX_HEADER + rounded);
  if (!base)
    return NULL;
  memset (base, 0, CTX_HEADER + rounded);
  memcpy (base, &rounded, sizeof rounded);
  return base + CTX_HEADER;
}

void
gcry_ctx_release (void *p)
{
  uint8_t *base;
  size_t rounded;

  if (!p)
    return;
  base = (uint8_t *)p - CTX_HEADER;
  memcpy (&rounded, base, sizeof rounded);
  gcry_wipememory (base, CTX_HEADER + rounded);
  gcry_aligned_free (base);
}

uint64_t
gcry_cycles (void)
{
#ifdef GCRY_HAVE_X86
  return gcry_x86_rdtsc ();
#else
  return 0;
#endif
}

/* The USE_AMD64 build switch this module was compiled with. */
int
gcry_build_use_amd64 (void)
{
#ifdef USE_AMD64
  return 1;
#else
  return 0;
#endif
}

/* The architecture whose assembly this build has (gcrylike/build.py
 * asm_arch: "amd64", "aarch64"), "" for the portable C alone. */
const char *
gcry_build_asm_arch (void)
{
#if defined(USE_AMD64)
  return "amd64";
#elif defined(USE_AARCH64)
  return "aarch64";
#else
  return "";
#endif
}

/* The core clock in MHz, estimated like libgcrypt's bench-slope "auto"
 * mode: time a chain of dependent register adds (one cycle each) against
 * the monotonic clock, best of three; 0 where we have no such loop.  The
 * TSC is no use for this: on many machines it ticks at a fixed rate below
 * the core clock. */
double
gcry_estimate_mhz (void)
{
#ifdef GCRY_HAVE_ADD_CHAIN
  double best = 0;
  int round;

  for (round = 0; round < 3; round++)
    {
      /* 2,000,000 iterations of 16 one-cycle adds */
      uint64_t t0 = gcry_monotonic_ns (), ns;
      (void)gcry_x86_add_chain (2000000);
      ns = gcry_monotonic_ns () - t0;
      if (ns > 0)
        {
          double mhz = 2000000.0 * 16 / (double)ns * 1000.0;
          if (mhz > best)
            best = mhz;
        }
    }
  return best;
#else
  return 0;
#endif
}
