/* burn.c - stack burning, secure wiping and copying (libgcrypt's
 * _gcry_burn_stack). */
#include <string.h>
#include "common.h"

#ifdef GCRY_TEST_HOOKS
/* Only in the test-only copies of gcrylike's own modules (built by its test
 * suite, in its source tree): 0 switches burning off, so the stack-residue test can show that it sees secrets. */
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

/* libc's memcpy/memmove move the bytes through vector registers and leave
 * the last of them there when they return.  Nothing clears those registers:
 * the next code that saves the vector state (the dynamic linker's lazy
 * binding resolver, a signal frame) writes them to the stack, where no burn
 * of ours reaches.  So secrets are copied without any register holding them
 * once the copy is done.  The regions must not overlap. */
void
gcry_copy_secret (void *dst, const void *src, size_t n)
{
#ifdef GCRY_HAVE_X86_64
  gcry_x86_movsb (dst, src, n);
#else
  /* Byte by byte through volatile pointers: the compiler may neither merge
   * the accesses into vector moves nor turn the loop into a memcpy call
   * (check with objdump -d); only the last byte stays in a register. */
  volatile unsigned char *d = dst;
  const volatile unsigned char *s = src;
  size_t i;
  for (i = 0; i < n; i++)
    d[i] = s[i];
#endif
}

/* The stack below the caller wiped in one contiguous buffer of BYTES
 * allocated in this frame (as a variable-length array would be, which
 * MSVC lacks).  A chain of fixed-size frames was tried instead: the
 * padding between a frame's buffer and its saved registers is never
 * written, and the arm64 suite found key words left there. */
static GCRY_NOINLINE void
burn_contiguous (size_t bytes)
{
  unsigned char *buf = GCRY_STACK_ALLOC (bytes);

  gcry_wipememory (buf, bytes);
  GCRY_BARRIER ();
}

/* Out of line and followed by a barrier so that callers cannot turn the
 * call into a tail call that skips the wipe. */
GCRY_NOINLINE void
gcry_burn_stack (unsigned int bytes)
{
  if (bytes == 0)
    return;
#ifdef GCRY_TEST_HOOKS
  if (!gcry_burn_enabled)
    return;
#endif
  burn_contiguous (((size_t)bytes + 63) & ~(size_t)63);
  GCRY_BARRIER ();
}

int
gcry_ct_memcmp (const uint8_t *a, const uint8_t *b, size_t n)
{
  volatile uint8_t diff = 0;
  size_t i;

  int bad;

  for (i = 0; i < n; i++)
    diff |= a[i] ^ b[i];
  bad = diff != 0;
  GCRY_DECLASSIFY (&bad, sizeof bad);  /* the caller acts on it */
  return bad;
}
