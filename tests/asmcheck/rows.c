/* rows.c - the table of the native check: one row per assembly routine.
 *
 * Adding a routine is one row: its symbol (declared in its glue beside
 * its driver row, which routines.h gathers), the driver it serves (whose row
 * in its glue says the CPU features it needs: CHACHA ("amd64-avx2") is
 * chacha_glue.c's row of that name; a stitched routine serves a pair),
 * the width it takes a multiple
 * of (blocks, 16-byte words for NH, units), its kind (the adapter for its
 * signature, kinds_*.c) and the kind's partner (the Poly1305 set-up of a
 * SIMD blocks routine, the AES-NI setkey of encrypt/decrypt, the NH key
 * arrangement a routine takes its key in); ROW_REACH instead for a block
 * routine that switches path from some length on.  Every row
 * gets the comparisons against the portable C and the published vectors
 * of its kind, and the burn-depth proof.  tests/test_native_check.py fails
 * if a routine in asm/*.S has no row.  Each architecture's rows are under
 * its switch (USE_AMD64, USE_AARCH64: tests/asmcheck/build.py defines the
 * target compiler's), the portable C's (portable.c) on every target.
 */
#include "asmcheck.h"
#include "aead.h"
#include "aes_glue.h"
#include "chacha.h"
#include "nhpoly1305.h"
#include "poly1305_aarch64.h"
#include "poly1305_amd64.h"
#include "salsa20.h"
#include "secretbox.h"
#include "portable.h"

/* tests/asmcheck/mutant-<arch>.S: under-reports its depth on purpose; on
 * aarch64 also a ChaCha routine two rounds short */
unsigned int asmcheck_mutant_underreports (void);
unsigned int asmcheck_mutant_chacha_rounds (uint32_t *, uint8_t *, const uint8_t *, size_t,
                                            unsigned int);

/* The routines as the glue declares them beside its driver rows (its
 * "extern <routine type> name;" lines, gathered by build.py into
 * routines.h): written there once. */
#include "routines.h"

/* The driver a routine serves, by its component and name suffix: the row
 * needs the features of that driver's row (chacha_glue.c, ..., read
 * through gcry_<component>_drivers), written nowhere else. */
#define CHACHA(suffix) { gcry_chacha_drivers, suffix }
#define SALSA20(suffix) { gcry_salsa20_drivers, suffix }
#define POLY1305(suffix) { gcry_poly1305_drivers, suffix }
#define NH(suffix) { gcry_nh_drivers, suffix }
#define AES(suffix) { gcry_aes_drivers, suffix }
/* a stitched routine serves the pair */
#define BOTH(a, b) a, b
/* baseline amd64, or the portable C: no driver's features */
#define ANY { NULL, NULL }

#define ROW(fn, owner, width, kind, aux)                                      \
  { #fn, { owner }, width, &kind, (void *)fn, (void *)aux, 0, 0 }
/* a routine that takes another path from REACH blocks on (asmcheck.h) */
#define ROW_REACH(fn, owner, width, kind, reach)                              \
  { #fn, { owner }, width, &kind, (void *)fn, NULL, 0, reach }
/* the portable C (portable.c): no depth proof */
#define ROW_C(fn, width, kind)                                                \
  { #fn, { ANY }, width, &kind, (void *)fn, NULL, ROW_PORTABLE, 0 }
/* the check's own test: --mutant runs it, and it must fail */
#define ROW_MUTANT_OF(fn, owner, width, kind)                                 \
  { #fn, { owner }, width, &kind, (void *)fn, NULL, ROW_MUTANT, 0 }

const row asmcheck_rows[] = {
  /* the portable C, on every target */
  ROW_C (asmcheck_chacha_portable_blocks, 1, kind_chacha_blocks),
  ROW_C (asmcheck_hchacha_portable, 1, kind_hchacha),
  ROW_C (asmcheck_salsa20_portable_blocks, 1, kind_salsa20_blocks),
  ROW_C (asmcheck_hsalsa20_portable, 1, kind_hsalsa20),

#ifdef USE_AMD64
  /* ChaCha: asm/chacha-amd64-{ssse3,avx2,avx512}.S */
  ROW (_gcry_chacha_amd64_ssse3_blocks1, CHACHA ("amd64-ssse3"), 1, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_amd64_ssse3_blocks4, CHACHA ("amd64-ssse3"), 4, kind_chacha_blocks, NULL),
  ROW (_gcry_hchacha_amd64_ssse3, CHACHA ("amd64-ssse3"), 1, kind_hchacha, NULL),
  ROW (_gcry_chacha_amd64_avx2_blocks2, CHACHA ("amd64-avx2"), 2, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_amd64_avx2_blocks4, CHACHA ("amd64-avx2"), 4, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_amd64_avx2_blocks8, CHACHA ("amd64-avx2"), 8, kind_chacha_blocks, NULL),
  ROW (_gcry_hchacha_amd64_avx2, CHACHA ("amd64-avx2"), 1, kind_hchacha, NULL),
  ROW (_gcry_chacha_amd64_avx512_blocks1, CHACHA ("amd64-avx512"), 1, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_amd64_avx512_blocks4, CHACHA ("amd64-avx512"), 4, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_amd64_avx512_blocks8, CHACHA ("amd64-avx512"), 8, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_amd64_avx512_blocks16, CHACHA ("amd64-avx512"), 16, kind_chacha_blocks, NULL),
  ROW (_gcry_hchacha_amd64_avx512, CHACHA ("amd64-avx512"), 1, kind_hchacha, NULL),
  ROW (_gcry_hchacha4_amd64_avx512, CHACHA ("amd64-avx512"), 1, kind_hchacha4, NULL),
  ROW (_gcry_hchacha16_amd64_avx512, CHACHA ("amd64-avx512"), 1, kind_hchacha16, NULL),

  /* Salsa20: asm/salsa20-amd64-{sse2,avx2,avx512}.S; blocks16 runs two
   * groups at a time from 32 blocks, blocks16_gpr groups of 17 from 272 */
  ROW (_gcry_salsa20_amd64_sse2_blocks4, SALSA20 ("amd64-sse2"), 4, kind_salsa20_blocks, NULL),
  ROW (_gcry_hsalsa20_amd64_sse2, SALSA20 ("amd64-sse2"), 1, kind_hsalsa20, NULL),
  ROW (_gcry_salsa20_amd64_avx2_blocks8, SALSA20 ("amd64-avx2"), 8, kind_salsa20_blocks, NULL),
  ROW (_gcry_hsalsa20_amd64_avx2, SALSA20 ("amd64-avx2"), 1, kind_hsalsa20, NULL),
  ROW (_gcry_salsa20_amd64_avx512_blocks8, SALSA20 ("amd64-avx512"), 8, kind_salsa20_blocks, NULL),
  ROW_REACH (_gcry_salsa20_amd64_avx512_blocks16, SALSA20 ("amd64-avx512"), 16, kind_salsa20_blocks, 32),
  ROW_REACH (_gcry_salsa20_amd64_avx512_blocks16_gpr, SALSA20 ("amd64-avx512"), 16, kind_salsa20_blocks,
             272),
  ROW (_gcry_hsalsa20_amd64_avx512, SALSA20 ("amd64-avx512"), 1, kind_hsalsa20, NULL),

  /* Poly1305: asm/poly1305-amd64-{scalar,sse2,avx2,avx512}.S and the tables'
   * set-up C, ciphers/poly1305/poly1305_amd64_tables.c */
  ROW (_gcry_poly1305_amd64_scalar_blocks, ANY, 1, kind_poly1305_scalar, NULL),
  ROW (_gcry_poly1305_amd64_sse2_blocks, POLY1305 ("amd64-sse2"), 2, kind_poly1305_simd,
       _gcry_poly1305_amd64_sse2_setup),
  ROW (_gcry_poly1305_amd64_avx2_blocks, POLY1305 ("amd64-avx2"), 4, kind_poly1305_simd,
       _gcry_poly1305_amd64_avx2_setup),
  ROW (_gcry_poly1305_amd64_avx512ifma_blocks, POLY1305 ("amd64-avx512ifma"), 8,
       kind_poly1305_simd, _gcry_poly1305_amd64_avx512ifma_setup),
  /* eight messages a call, one per lane: asm/poly1305-amd64-avx512-lanes.S */
  ROW (_gcry_poly1305_amd64_avx512_lanes8, CHACHA ("amd64-avx512"), 1, kind_poly1305_lanes,
       _gcry_poly1305_amd64_avx512_lanes_setup),

  /* NH: asm/nh-amd64-{sse2,avx2,avx512}.S (width: 16 bytes); the AVX-512
   * routines take the key arranged by nh_key_arrange (nh.h) */
  ROW (_gcry_nh_amd64_sse2, NH ("amd64-sse2"), 16, kind_nh, NULL),
  ROW (_gcry_nh_amd64_sse2_units, NH ("amd64-sse2"), 1, kind_nh_units, NULL),
  ROW (_gcry_nh_amd64_avx2, NH ("amd64-avx2"), 16, kind_nh, NULL),
  ROW (_gcry_nh_amd64_avx2_units, NH ("amd64-avx2"), 1, kind_nh_units, NULL),
  ROW (_gcry_nh_amd64_avx512, NH ("amd64-avx512"), 16, kind_nh, nh_key_arrange),
  ROW (_gcry_nh_amd64_avx512_units, NH ("amd64-avx512"), 1, kind_nh_units, nh_key_arrange),

  /* AES-256: asm/aes-amd64-aesni.S */
  ROW (_gcry_aes256_amd64_aesni_setkey, AES ("amd64-aesni"), 1, kind_aes_setkey, NULL),
  ROW (_gcry_aes256_amd64_aesni_encrypt, AES ("amd64-aesni"), 1, kind_aes_encrypt,
       _gcry_aes256_amd64_aesni_setkey),
  ROW (_gcry_aes256_amd64_aesni_decrypt, AES ("amd64-aesni"), 1, kind_aes_decrypt,
       _gcry_aes256_amd64_aesni_setkey),

  /* stitched: asm/chacha20-poly1305-amd64-avx2.S,
   * asm/salsa20-poly1305-amd64-avx2.S */
  ROW (_gcry_chacha20_poly1305_amd64_avx2_blocks8,
       BOTH (CHACHA ("amd64-avx2"), POLY1305 ("amd64-avx2")), 8, kind_chacha20_poly1305, NULL),
  ROW (_gcry_salsa20_poly1305_amd64_avx2_blocks8,
       BOTH (SALSA20 ("amd64-avx2"), POLY1305 ("amd64-avx2")), 8, kind_salsa20_poly1305, NULL),

  ROW_MUTANT_OF (asmcheck_mutant_underreports, ANY, 1, kind_depth_only),
#endif

#ifdef USE_AARCH64
  /* ChaCha: asm/chacha-aarch64-neon.S */
  ROW (_gcry_chacha_aarch64_neon_blocks1, CHACHA ("aarch64-neon"), 1, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_aarch64_neon_blocks4, CHACHA ("aarch64-neon"), 4, kind_chacha_blocks, NULL),
  ROW (_gcry_chacha_aarch64_neon_blocks8, CHACHA ("aarch64-neon"), 8, kind_chacha_blocks, NULL),
  ROW (_gcry_hchacha_aarch64_neon, CHACHA ("aarch64-neon"), 1, kind_hchacha, NULL),

  /* Salsa20: asm/salsa20-aarch64-neon.S */
  ROW (_gcry_salsa20_aarch64_neon_blocks4, SALSA20 ("aarch64-neon"), 4, kind_salsa20_blocks, NULL),

  /* Poly1305: asm/poly1305-aarch64-scalar.S (integer only: no feature),
   * asm/poly1305-aarch64-neon.S and its tables' set-up C,
   * ciphers/poly1305/poly1305_aarch64_tables.c */
  ROW (_gcry_poly1305_aarch64_scalar_blocks, POLY1305 ("aarch64"), 1, kind_poly1305_scalar, NULL),
  ROW (_gcry_poly1305_aarch64_neon_blocks, POLY1305 ("aarch64-neon"), 4, kind_poly1305_simd,
       _gcry_poly1305_aarch64_neon_setup),

  /* NH: asm/nh-aarch64-neon.S (width: 16 bytes) */
  ROW (_gcry_nh_aarch64_neon, NH ("aarch64-neon"), 16, kind_nh, NULL),
  ROW (_gcry_nh_aarch64_neon_units, NH ("aarch64-neon"), 1, kind_nh_units, NULL),

  /* AES-256: asm/aes-aarch64-ce.S (the AES-NI key layout) */
  ROW (_gcry_aes256_aarch64_ce_setkey, AES ("aarch64-ce"), 1, kind_aes_setkey, NULL),
  ROW (_gcry_aes256_aarch64_ce_encrypt, AES ("aarch64-ce"), 1, kind_aes_encrypt,
       _gcry_aes256_aarch64_ce_setkey),
  ROW (_gcry_aes256_aarch64_ce_decrypt, AES ("aarch64-ce"), 1, kind_aes_decrypt,
       _gcry_aes256_aarch64_ce_setkey),

  ROW_MUTANT_OF (asmcheck_mutant_underreports, ANY, 1, kind_depth_only),
  ROW_MUTANT_OF (asmcheck_mutant_chacha_rounds, CHACHA ("aarch64-neon"), 4, kind_chacha_blocks),
#endif
};

const size_t asmcheck_nrows = ARRAY_SIZE (asmcheck_rows);

/* A routine with no comparison, only the depth proof (the mutant). */
static void
no_args (const row *r, size_t n, uint64_t a[7])
{
  (void)r, (void)n, (void)a;
}

const kind kind_depth_only = {
  "burn depth only", NULL, NULL, no_args, { 1 }, 1,
};
