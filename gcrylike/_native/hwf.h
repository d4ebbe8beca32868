/* hwf.h - hardware feature bits; gcrylike/_hwf.py holds the same names. */
#ifndef GCRYLIKE_HWF_H
#define GCRYLIKE_HWF_H

#define GCRY_HWF_SSE2       (1u << 0)
#define GCRY_HWF_SSSE3      (1u << 1)
#define GCRY_HWF_AVX        (1u << 2)
#define GCRY_HWF_AVX2       (1u << 3)
#define GCRY_HWF_AVX512F    (1u << 4)
#define GCRY_HWF_AVX512VL   (1u << 5)
#define GCRY_HWF_AVX512BW   (1u << 6)
#define GCRY_HWF_AESNI      (1u << 7)
#define GCRY_HWF_PCLMUL     (1u << 8)
#define GCRY_HWF_VAES       (1u << 9)
#define GCRY_HWF_BMI2       (1u << 10)
#define GCRY_HWF_AVX512IFMA (1u << 11)

#endif
