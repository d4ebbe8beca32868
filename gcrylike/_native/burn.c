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

#ifdef USE_AMD64
/* -- test-only: each assembly routine's burn depth, measured ----------
 *
 * Paint the stack below us, call a thunk that calls the routine, find the
 * routine's entry stack pointer (the slot of its return address into the
 * thunk) and the lowest byte below it that lost the paint.  Reads and
 * writes below the stack pointer are outside ISO C but well defined on the
 * platforms we build for (see scan_below); amd64 only: the return address
 * is where the call instruction put it. */

#define DEPTH_PAINT 0xA5
#define DEPTH_SPAN 8192         /* bytes painted: twice the test's sane depth */
#define DEPTH_THUNK_BYTES 256   /* a thunk's code is shorter than this */
#define DEPTH_THUNK_FRAME 64    /* a thunk's frame and stack arguments */

/* Paint SPAN bytes below our frame address and return it (TOP).  Called
 * from the same stack pointer S as the thunk, we push only the frame
 * pointer: TOP = S - 16.  The thunk's call leaves it 16-byte aligned, so
 * the routine's return address is at TOP - 8 or lower, and all the stack
 * below it was painted.  The loop lives in registers, and nothing else of
 * ours is below TOP. */
static GCRY_NOINLINE uintptr_t
paint_below (size_t span)
{
  volatile uint8_t *top = __builtin_frame_address (0);
  size_t i;

  for (i = 1; i <= span; i++)
    top[-(ptrdiff_t)i] = DEPTH_PAINT;
  return (uintptr_t)top;
}

/* Run THUNK (ARG) with the SPAN bytes below this frame painted; its return
 * value (the routine's reported depth) to *REPORTED.  Returns how many
 * bytes below the routine's entry stack pointer lost the paint (0 if
 * none), or SIZE_MAX if the entry stack pointer was not found. */
static GCRY_NOINLINE size_t
gcry_stack_dirtied_by (gcry_depth_thunk thunk, gcry_depth_args *arg, size_t span,
                       unsigned int *reported)
{
  uintptr_t top, entry = 0, p, ret;
  size_t off;

  burn_stack_vla (span + 256);  /* the pages exist: the stack grew to them */
  top = paint_below (span);
  *reported = thunk (arg);

  /* The routine's entry stack pointer holds its return address, the
   * highest word below TOP that points into the thunk's code (above it lie
   * only the thunk's stack arguments and alignment padding). */
  for (off = 8; off <= DEPTH_THUNK_FRAME && !entry; off += 8)
    {
      ret = *(const volatile uintptr_t *)(top - off);
      if (ret - (uintptr_t)thunk < DEPTH_THUNK_BYTES)
        entry = top - off;
    }
  if (!entry)
    return SIZE_MAX;

  /* the lowest byte written, scanning up from the bottom of the paint */
  for (p = top - span; p < entry; p++)
    if (*(const volatile uint8_t *)p != DEPTH_PAINT)
      return entry - p;
  return 0;
}

int
gcry_asm_depth (const gcry_depth_case *cases, size_t ncases, unsigned int which,
                unsigned int shift, const char **name, unsigned int *reported,
                size_t *measured)
{
  gcry_depth_args args;
  void *gap;

  if (which >= ncases || shift % 16 || shift > 64)
    return GCRY_ERR_INV_ARG;
  *name = cases[which].name;
  if (!reported)
    return GCRY_OK;
  /* zeros serve every routine: their stack use depends on lengths only */
  memset (&args, 0, sizeof args);
  /* SHIFT more bytes of stack first: 16 gives the routine's entry stack
   * pointer the other value mod 32, which the AVX2 frames depend on */
  gap = __builtin_alloca (shift);
  __asm__ volatile ("" : : "r"(gap) : "memory");
  *measured = gcry_stack_dirtied_by (cases[which].thunk, &args, DEPTH_SPAN, reported);
  return GCRY_OK;
}
#endif
