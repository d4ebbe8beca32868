/* salsa20_hooks.c - test-only entries of the Salsa20 test copy. */
#include "salsa20.h"
#include "testhooks.h"

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
/* salsa20_glue.c, only with GCRY_TEST_HOOKS: the SIMD tier table keeps the
 * stream driver's rules (0) */
int gcry_salsa20_tiers_check (void);
/* END TEST CDEF */
