/* testhooks.h - the test-only entry points every test copy of a module has
 * (tests/native/build_hooks.py builds the copies; none of this is in an
 * installed gcrylike). */
#ifndef GCRYLIKE_TESTHOOKS_H
#define GCRYLIKE_TESTHOOKS_H

#include "common.h"

#ifndef GCRY_TEST_HOOKS
# error "tests/native is built only into test copies (GCRY_TEST_HOOKS)"
#endif

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */

/* burn.c: 0 switches gcry_burn_stack off in this copy. */
extern int gcry_burn_enabled;

/* A call with the stream-call signature: the public crypt entry points and
 * the probes below. */
typedef int (*gcry_crypt_fn) (void *ctx, uint8_t *dst, const uint8_t *src,
                              size_t n);

/* Clear DEPTH bytes of stack, run FN (ctx, dst, src, n) (its result to *RC),
 * then count how many 32-bit words of the DEPTH bytes below this frame hold
 * one of the NNEEDLES values: proves that burning removed the secrets the
 * call left behind (tests/test_burn_stack.py). */
size_t gcry_stack_residue_after (gcry_crypt_fn fn, void *ctx, uint8_t *dst,
                                 const uint8_t *src, size_t n,
                                 const uint32_t *needles, size_t nneedles,
                                 size_t depth, int *rc);

/* END TEST CDEF */

#endif /* GCRYLIKE_TESTHOOKS_H */
