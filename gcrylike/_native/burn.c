/* burn.c - stack burning and secure wiping (libgcrypt's _gcry_burn_stack). */
#include <string.h>
#include "common.h"

#ifdef GCRY_TEST_HOOKS
/* Only in the test-only copies of each module (tests/native/): 0 switches
 * burning off, so the stack-residue test can show that it sees secrets. */
int gcry_burn_enabled = 1;
#endif

void
gcry_wipememory (void *p, size_t len)
{
  /* A volatile function pointer stops the compiler from proving the
   * memset dead and removing it. */
  static void *(*const volatile memset_v) (void *, int, size_t) = memset;
  memset_v (p, 0, len);
}

/* Out of line and followed by a barrier so that callers cannot turn the
 * call into a tail call that skips the wipe. */
static GCRY_NOINLINE void
burn_stack_vla (size_t bytes)
{
  unsigned char buf[bytes];
  gcry_wipememory (buf, bytes);
  __asm__ volatile ("" : : "r"(buf) : "memory");
}

void GCRY_NOINLINE
gcry_burn_stack (unsigned int bytes)
{
  if (bytes == 0)
    return;
#ifdef GCRY_TEST_HOOKS
  if (!gcry_burn_enabled)
    return;
#endif
  burn_stack_vla (((size_t)bytes + 63) & ~(size_t)63);
  __asm__ volatile ("" : : : "memory");
}

