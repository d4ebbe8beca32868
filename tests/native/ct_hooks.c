/* ct_hooks.c - the constant-time check's entry points (only in the ct
 * flavour of the test copies, built with GCRY_CT_CHECK; tests/ct_driver.py).
 *
 * Memcheck tracks, bit by bit, whether each value is "defined".  Marking the
 * secrets undefined turns it into a constant-time checker: a conditional
 * jump or a memory address computed from a secret is reported, while
 * arithmetic on secrets is not. */
#include <valgrind/memcheck.h>
#include "testhooks.h"

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */
/* Mark N bytes at P secret (undefined) or public (defined). */
void gcry_ct_secret (void *p, size_t n);
void gcry_ct_public (void *p, size_t n);
/* Nonzero when running under valgrind. */
unsigned int gcry_ct_on_valgrind (void);
/* Deliberately leaky: a branch on a secret byte, and a table look-up at a
 * secret index.  The ct test expects memcheck to report both. */
unsigned int gcry_ct_leaky_branch (const uint8_t *secret);
unsigned int gcry_ct_leaky_lookup (const uint8_t *secret);
/* END TEST CDEF */

void
gcry_ct_secret (void *p, size_t n)
{
  (void)VALGRIND_MAKE_MEM_UNDEFINED (p, n);
}

void
gcry_ct_public (void *p, size_t n)
{
  (void)VALGRIND_MAKE_MEM_DEFINED (p, n);
}

unsigned int
gcry_ct_on_valgrind (void)
{
  return RUNNING_ON_VALGRIND;
}

GCRY_NOINLINE unsigned int
gcry_ct_leaky_branch (const uint8_t *secret)
{
  unsigned int r = 0;
  if (secret[0] & 1)
    __asm__ volatile ("" : "+r"(r));  /* keeps the branch a branch */
  else
    r = 7;
  return r;
}

GCRY_NOINLINE unsigned int
gcry_ct_leaky_lookup (const uint8_t *secret)
{
  static const volatile uint8_t table[256] = { 1, 2, 3 };
  return table[secret[0]];
}
