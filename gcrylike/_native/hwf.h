/* hwf.h - hardware feature bits: the one list of the CPU features gcrylike
 * detects.  A feature's place in GCRY_HWF_LIST is its bit in
 * gcry_hwf_detect() (in gcrylike's core module), and its name there is the one Python uses
 * (gcry_hwf_name, read by gcrylike/_hwf.py into FEATURES) and the native
 * check prints.  Add a feature at the end: the bits of the others stay.
 * x86-64's features come first, then aarch64's (neon: Advanced SIMD,
 * "asimd" in the kernel's list; aes and pmull: the Crypto Extensions'
 * AES and 64-bit polynomial multiply); each CPU detects only its own. */
#ifndef GCRYLIKE_HWF_H
#define GCRYLIKE_HWF_H

#define GCRY_HWF_LIST(X)           \
  X (SSE2, "sse2")                 \
  X (SSSE3, "ssse3")               \
  X (AVX, "avx")                   \
  X (AVX2, "avx2")                 \
  X (AVX512F, "avx512f")           \
  X (AVX512VL, "avx512vl")         \
  X (AVX512BW, "avx512bw")         \
  X (AESNI, "aesni")               \
  X (PCLMUL, "pclmul")             \
  X (VAES, "vaes")                 \
  X (BMI2, "bmi2")                 \
  X (AVX512IFMA, "avx512ifma")    \
  X (NEON, "neon")                 \
  X (AES, "aes")                   \
  X (PMULL, "pmull")

/* GCRY_HWF_BIT_SSE2 = 0, ...: each feature's bit number; GCRY_HWF_COUNT
 * features in all */
enum gcry_hwf_bit {
#define GCRY_HWF_X_BIT(id, name) GCRY_HWF_BIT_##id,
  GCRY_HWF_LIST (GCRY_HWF_X_BIT)
#undef GCRY_HWF_X_BIT
  GCRY_HWF_COUNT
};

/* GCRY_HWF_SSE2 = 1 << 0, ...: the masks gcry_hwf_detect() returns and a
 * routine's needs are written with */
enum gcry_hwf_mask {
#define GCRY_HWF_X_MASK(id, name) GCRY_HWF_##id = 1 << GCRY_HWF_BIT_##id,
  GCRY_HWF_LIST (GCRY_HWF_X_MASK)
#undef GCRY_HWF_X_MASK
};

#endif
