/* depth.c - the burn-depth proof of every routine (the measuring itself is
 * asmcheck_depth_probe, depth-amd64.S).
 *
 * Every assembly routine returns its burn depth: the bytes below its entry
 * stack pointer that it wrote.  The C glue wipes the deepest depth once per
 * call, so a routine that under-reports leaves key material on the stack
 * and no whole-call test can see it.  Here each routine runs alone through
 * the probe, at each length of its kind's list (reaching every loop and
 * frame), from entry stack pointers at each of the four 16-byte steps mod
 * 64 (the AVX2 and AVX-512 frames are aligned down to 32 or 64 bytes), with
 * two paint bytes (a routine that happens to store the paint byte at its
 * deepest slot cannot hide behind both).  The measurement counts from the
 * routine's exact entry stack pointer, so there is no slack:
 * measured <= reported.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"

#define DEPTH_SPAN 8192         /* bytes painted (depth-amd64.S) */
#define SANE_DEPTH 4096         /* no routine has a reason to use more */

typedef struct {
  void *fn;
  uint64_t args[7];
  uint64_t shift;               /* bytes below a 64-aligned stack pointer */
  uint64_t paint;
  uint64_t reported;            /* out: the routine's return value */
  uint64_t measured;            /* out: bytes below the entry rsp written */
  uint64_t entry;               /* out: the entry rsp */
  uint64_t abi_ok;              /* out: callee-saved registers, rsp, DF */
} depth_call;

_Static_assert (offsetof (depth_call, shift) == 64, "layout shared with depth-amd64.S");
_Static_assert (offsetof (depth_call, abi_ok) == 104, "layout shared with depth-amd64.S");

void asmcheck_depth_probe (depth_call *c);

depth_buffers dbuf;

static const unsigned int SHIFTS[] = { 0, 16, 32, 48 };
static const uint8_t PAINTS[] = { 0xa5, 0x5a };

void
depth_check (check *t, const row *r)
{
  const kind *k = r->k;
  unsigned long max_reported = 0, max_measured = 0;
  unsigned int i, s, p;

  for (i = 0; i < k->ndepth; i++)
    {
      size_t n = (size_t)k->depth_mult[i] * r->width;
      for (s = 0; s < ARRAY_SIZE (SHIFTS); s++)
        {
          unsigned long reported = 0, measured = 0;
          int same = 1, abi_ok = 1, aligned = 1;

          set_case (t, "n=%zu, entry rsp = %u mod 64", n, (64 + 40 - SHIFTS[s]) % 64);
          for (p = 0; p < ARRAY_SIZE (PAINTS); p++)
            {
              depth_call c;
              memset (&c, 0, sizeof c);
              c.fn = r->fn;
              k->depth_args (r, n, c.args);
              c.shift = SHIFTS[s];
              c.paint = PAINTS[p];
              asmcheck_depth_probe (&c);
              if (p == 0)
                reported = (unsigned int)c.reported;
              same &= reported == (unsigned int)c.reported;
              abi_ok &= c.abi_ok == 1;
              aligned &= c.entry % 64 == (64 + 40 - SHIFTS[s]) % 64;
              if (c.measured > measured)
                measured = c.measured;
            }
          verdict (t, aligned, "the probe's entry rsp is not where it should be");
          verdict (t, abi_ok, "callee-saved register, rsp or DF not restored");
          verdict (t, same, "reported depth changes between identical calls");
          verdict (t, reported <= SANE_DEPTH, "reported depth %lu is not sane", reported);
          verdict (t, measured <= reported, "wrote %lu bytes below its entry rsp, "
                   "reported %lu (under-reports)", measured, reported);
          if (t->verbose)
            printf ("  %s depth n=%zu shift=%u: reported %lu, measured %lu\n", r->name, n,
                    SHIFTS[s], reported, measured);
          if (reported > max_reported)
            max_reported = reported;
          if (measured > max_measured)
            max_measured = measured;
        }
    }
  /* the lengths reach every frame: a reported depth that was never seen
   * written would mean the probe is blind */
  set_case (t, "all lengths");
  verdict (t, max_measured > 0 || max_reported == 0,
           "reported up to %lu bytes, but no write below the entry rsp was seen", max_reported);
  if (t->verbose)
    printf ("  %s depth: reported up to %lu, measured up to %lu\n", r->name, max_reported,
            max_measured);
}
