/* salsa20_hooks.c - test-only entries of the Salsa20 test copy. */
#include "salsa20.h"
#include "testhooks.h"

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
/* salsa20_glue.c, only with GCRY_TEST_HOOKS: the SIMD tier table keeps the
 * stream driver's rules (0) */
int gcry_salsa20_tiers_check (void);
/* salsa20_glue.c, only with GCRY_TEST_HOOKS: whether the AVX-512 bulk takes
 * groups of 17 (SET < 0: ask; 0 or 1: force it, returning the previous) */
int gcry_salsa20_avx512_gpr (int set);
/* END TEST CDEF */
