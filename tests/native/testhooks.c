/* testhooks.c - the stack-residue scanner of the test copies. */
#include "testhooks.h"

/* Clear BYTES of stack below the caller (as burn.c does; its helper is
 * private to burn.c). */
static GCRY_NOINLINE void
clear_below (size_t bytes)
{
  unsigned char buf[bytes];
  gcry_wipememory (buf, bytes);
  __asm__ volatile ("" : : "r"(buf) : "memory");
}

/* Scan DEPTH bytes below our own frame.  Reads below the stack pointer are
 * outside ISO C but well defined on the platforms we build for: the pages
 * were just used by FN.  AddressSanitizer would call them a stack underflow
 * (they are, on purpose), so it does not instrument this function. */
static GCRY_NOINLINE __attribute__ ((no_sanitize_address)) size_t
scan_below (const uint32_t *needles, size_t nneedles, size_t depth)
{
  volatile uint32_t marker = 0;
  const volatile uint32_t *top = &marker;
  size_t found = 0, i, j;

  /* The address passes through an empty asm: the compiler then knows no
   * object it points into, so the deliberate reads below MARKER are not an
   * array-bounds error to it (-Warray-bounds, an error under -Werror). */
  __asm__ ("" : "+r"(top));

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
  clear_below (depth + 256);
  *rc = fn (ctx, dst, src, n);
  return scan_below (needles, nneedles, depth);
}
