/* burn.c - stack burning and secure wiping (libgcrypt's _gcry_burn_stack). */
#include <string.h>
#include "common.h"

int gcry_burn_enabled = 1;

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
  if (bytes == 0 || !gcry_burn_enabled)
    return;
  burn_stack_vla (((size_t)bytes + 63) & ~(size_t)63);
  __asm__ volatile ("" : : : "memory");
}

/* Scan DEPTH bytes below our own frame.  Reads below the stack pointer are
 * outside ISO C but well defined on the platforms we build for: the pages
 * were just used by FN. */
static GCRY_NOINLINE size_t
scan_below (const uint32_t *needles, size_t nneedles, size_t depth)
{
  volatile uint32_t marker = 0;
  const volatile uint32_t *top = &marker;
  size_t found = 0, i, j;

  for (i = 1; i <= depth / 4; i++)
    {
      uint32_t w = top[-(ptrdiff_t)i];
      for (j = 0; j < nneedles; j++)
        found += (w == needles[j]);
    }
  return found;
}

size_t GCRY_NOINLINE
gcry_stack_residue_after (gcry_crypt_fn fn, void *ctx, uint8_t *dst,
                          const uint8_t *src, size_t n,
                          const uint32_t *needles, size_t nneedles,
                          size_t depth, int *rc)
{
  /* Clear the area first: the interpreter may have left copies of the
   * needles there while computing them, and those are not FN's doing. */
  burn_stack_vla (depth + 256);
  *rc = fn (ctx, dst, src, n);
  return scan_below (needles, nneedles, depth);
}
