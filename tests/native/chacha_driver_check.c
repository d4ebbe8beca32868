/* chacha_driver_check.c - test-only (tests/test_stream_tiers.py): the
 * shared stream driver (gcrylike/_native/stream_driver.h) with widths up to
 * 16 before any 16-wide routine exists.  The AVX2 eight-block routine takes
 * any multiple of eight blocks, so listed with width 16 it stands in for a
 * 16-wide one: the driver's groups of 16, its 16-block stack buffer and the
 * tail windows run for real, and their keystream must equal the portable
 * row's at every length and split. */
#include "chacha.h"
#include "testhooks.h"

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
/* chacha_glue.c, only with GCRY_TEST_HOOKS: the SIMD tier table keeps the
 * stream driver's rules (0) */
int gcry_chacha_tiers_check (void);
/* the stream driver at widths up to 16 against the portable row */
int gcry_chacha_driver_check (void);
/* END TEST CDEF */

#ifdef USE_AMD64
extern gcry_stream_blocks_routine _gcry_chacha_amd64_avx2_blocks2, _gcry_chacha_amd64_avx2_blocks4,
  _gcry_chacha_amd64_avx2_blocks8, _gcry_chacha_amd64_ssse3_blocks1;

/* Row 1 as an AVX-512 ChaCha tier would be (ChaCha-like, width-1 routine
 * for single blocks and the partial one); row 2 Salsa20-like (no width-1
 * routine: single blocks portable) with one tail window 2..16. */
static const gcry_driver check_drivers[] = {
  { "generic", 100, 0, "", "", NULL },
  { "wide", 500, 0, "", "",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_chacha_amd64_avx2_blocks8, 16 },
                  { _gcry_chacha_amd64_avx2_blocks8, 8 },
                  { _gcry_chacha_amd64_avx2_blocks4, 4 },
                  { _gcry_chacha_amd64_avx2_blocks2, 2 },
                  { _gcry_chacha_amd64_ssse3_blocks1, 1 } },
      .tails = { { _gcry_chacha_amd64_avx2_blocks8, 16, 9 },
                 { _gcry_chacha_amd64_avx2_blocks8, 8, 5 } }) },
  { "wide-tail", 500, 0, "", "",
    GCRY_STREAM_TIER (
      .blocks = { { _gcry_chacha_amd64_avx2_blocks8, 16 } },
      .tails = { { _gcry_chacha_amd64_avx2_blocks8, 16, 2 } }) },
};

#define NROWS (sizeof check_drivers / sizeof check_drivers[0])

static const gcry_stream_cipher check_cipher = {
  NULL, 0, chacha_generic_block, hchacha_generic, 12
};

#define CHECK_MAX (40 * GCRY_STREAM_BLOCK + 63)

/* N bytes of row ROW's stream in two calls (the first FIRST bytes), the
 * counter starting 5 blocks below a carry into word 13. */
static void
run (unsigned int row, uint8_t *out, size_t n, size_t first)
{
  GCRY_ALIGNED(64) uint32_t state[16];
  gcry_stream_pos pos;
  unsigned int i;

  for (i = 0; i < 16; i++)
    state[i] = 0x9e3779b9u * (i + 1);
  state[12] = 0xfffffffbu;
  state[13] = 7;
  gcry_stream_rewind (&pos);
  memset (out, 0, n);
  gcry_stream_crypt_on (&check_cipher, gcry_stream_driver_tier (check_drivers, row), state, 20,
                        64, &pos, out, out, first);
  gcry_stream_crypt_on (&check_cipher, gcry_stream_driver_tier (check_drivers, row), state, 20,
                        64, &pos, out + first, out + first, n - first);
}
#endif

/* 0 when rows 1 and 2 match the portable row at every length up to 40
 * blocks and a partial one (split at a length-dependent point), else
 * 1 + the first bad length + CHECK_MAX * (row - 1); GCRY_ERR_NOT_SUPPORTED
 * (negated) without assembly. */
int
gcry_chacha_driver_check (void)
{
#ifdef USE_AMD64
  static uint8_t want[CHECK_MAX], got[CHECK_MAX];
  unsigned int row;
  size_t n;

  if (gcry_stream_check_drivers (check_drivers, NROWS))
    return -1;
  for (n = 0; n < CHECK_MAX; n++)
    {
      size_t first = n ? (n * 37) % (n + 1) : 0;

      run (0, want, n, first);
      for (row = 1; row < NROWS; row++)
        {
          run (row, got, n, first);
          if (memcmp (want, got, n))
            return (int)(1 + n + CHECK_MAX * (row - 1));
        }
    }
  return 0;
#else
  return -GCRY_ERR_NOT_SUPPORTED;
#endif
}
