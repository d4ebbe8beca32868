/* depth.c - the burn-depth proof of every routine (the measuring itself is
 * asmcheck_depth_probe, depth-amd64.S or depth-aarch64.S).
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
 *
 * The same probe checks the ABI (callee-saved registers, rsp and DF come
 * back; on aarch64 x19-x29, sp and d8-d15) and that the routine leaves no
 * data in any vector register: it zeroes them all before the call (zmm16-31
 * too, on AVX-512 hardware; v0-v31 on aarch64, except the callee-saved low
 * halves of v8-v15, which hold sentinels) and every register must be zero
 * after it (the inputs are random, so a register still holding state, key,
 * keystream or message is non-zero).  On aarch64 the second paint's call
 * also poisons them (byte VFILL + n in vn, as a caller's leftovers would
 * be), and each 8-byte lane must come back zero or as it was.
 *
 * And the two calls of each case, on the same inputs, must leave the same
 * bytes in the buffers: the result may not depend on the stack or the
 * registers the caller left (a sum not cleared before use, a read of
 * stack the routine never wrote).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmcheck.h"

#define DEPTH_SPAN 8192         /* bytes painted (depth-<arch>.S) */
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
  uint64_t vecmode;             /* 0 xmm0-15, 1 ymm0-15, 2 zmm0-31, 3 v0-v31 */
  uint64_t vfill;               /* aarch64: byte vfill + n in vn before the
                                   call, 0: zero (depth-amd64.S: always 0) */
  uint8_t vregs[32][64];        /* out: the vector registers after the call */
} depth_call;

_Static_assert (offsetof (depth_call, shift) == 64, "layout shared with depth-<arch>.S");
_Static_assert (offsetof (depth_call, abi_ok) == 104, "layout shared with depth-<arch>.S");
_Static_assert (offsetof (depth_call, vfill) == 120, "layout shared with depth-<arch>.S");
_Static_assert (offsetof (depth_call, vregs) == 128, "layout shared with depth-<arch>.S");

/* Each vecmode's registers: name prefix, count, bytes. */
static const struct {
  const char *prefix;
  unsigned int nregs, width;
} VECMODES[] = { { "xmm", 16, 16 }, { "ymm", 16, 32 }, { "zmm", 32, 64 }, { "v", 32, 16 } };

#ifdef __aarch64__
/* the probe moves sp SHIFT bytes below a 64-byte boundary: no return
 * address is pushed, so that is the routine's entry sp */
# define ENTRY_MOD(shift) ((64 - (shift)) % 64)
# define VECMODE(hwf) 3
# define VFILL 0x40
#else
/* 16 bytes for the stack argument, then the call's return address */
# define ENTRY_MOD(shift) ((64 + 40 - (shift)) % 64)
# define VECMODE(hwf) ((hwf & GCRY_HWF_AVX512F) ? 2 : (hwf & GCRY_HWF_AVX) ? 1 : 0)
# define VFILL 0
#endif

#if ASMCHECK_HAVE_PROBE
void asmcheck_depth_probe (depth_call *c);
#else
/* no assembly on this target, so no row needs the probe */
static void
asmcheck_depth_probe (depth_call *c)
{
  (void)c;
  abort ();
}
#endif

depth_buffers dbuf;
/* the inputs of a case, and its first call's result */
static depth_buffers dbuf_in, dbuf_out;

/* The vector registers the routine left holding something else than zero
 * or the probe's fill (an 8-byte lane at a time), as "ymm3 ymm7" in NAMES;
 * returns how many. */
static unsigned int
dirty_registers (const depth_call *c, char *names, size_t size)
{
  unsigned int nregs = VECMODES[c->vecmode].nregs, width = VECMODES[c->vecmode].width;
  unsigned int i, j, n = 0;
  size_t used = 0;

  names[0] = 0;
  for (i = 0; i < nregs; i++)
    {
      int dirty = 0;
      for (j = 0; j < width; j += 8)
        {
          int zero = 1, fill = c->vfill != 0;
          unsigned int b;
          for (b = j; b < j + 8; b++)
            {
              zero &= c->vregs[i][b] == 0;
              fill &= c->vregs[i][b] == (uint8_t)(c->vfill + i);
            }
          dirty |= !zero && !fill;
        }
      if (dirty)
        {
          n++;
          if (used + 8 < size)
            used += (size_t)snprintf (names + used, size - used, " %s%u",
                                       VECMODES[c->vecmode].prefix, i);
        }
    }
  return n;
}

static const unsigned int SHIFTS[] = { 0, 16, 32, 48 };
static const uint8_t PAINTS[] = { 0xa5, 0x5a };

void
depth_check (check *t, const row *r)
{
  const kind *k = r->k;
  unsigned long max_reported = 0, max_measured = 0;
  unsigned int i, s, p;

  /* random inputs (stack use depends on lengths only, but zeros could
   * hide a register left holding data), within the routines' contracts */
  rnd_bytes (t, &dbuf, sizeof dbuf);
  dbuf.h[2] &= 3;
  dbuf.r[0] &= 0x0ffffffc0fffffffULL;
  dbuf.r[1] &= 0x0ffffffc0ffffffcULL;

  size_t longer[5];
  unsigned int nlonger = reach_lengths (r, longer);

  for (i = 0; i < k->ndepth + nlonger; i++)
    {
      size_t n = i < k->ndepth ? (size_t)k->depth_mult[i] * r->width : longer[i - k->ndepth];
      for (s = 0; s < ARRAY_SIZE (SHIFTS); s++)
        {
          unsigned long reported = 0, measured = 0;
          int same = 1, abi_ok = 1, aligned = 1, same_out = 1;
          unsigned int dirty = 0;
          char dirty_names[200] = "";

          set_case (t, "n=%zu, entry sp = %u mod 64", n, ENTRY_MOD (SHIFTS[s]));
          memcpy (&dbuf_in, &dbuf, sizeof dbuf);
          for (p = 0; p < ARRAY_SIZE (PAINTS); p++)
            {
              depth_call c;
              memset (&c, 0, sizeof c);
              c.fn = r->fn;
              k->depth_args (r, n, c.args);
              c.shift = SHIFTS[s];
              c.paint = PAINTS[p];
              c.vecmode = VECMODE (t->hwf);
              c.vfill = p ? VFILL : 0;
              if (p)
                memcpy (&dbuf, &dbuf_in, sizeof dbuf);
              asmcheck_depth_probe (&c);
              if (!dirty)
                dirty = dirty_registers (&c, dirty_names, sizeof dirty_names);
              if (p == 0)
                {
                  reported = (unsigned int)c.reported;
                  memcpy (&dbuf_out, &dbuf, sizeof dbuf);
                }
              else
                same_out &= !memcmp (&dbuf, &dbuf_out, sizeof dbuf);
              same &= reported == (unsigned int)c.reported;
              abi_ok &= c.abi_ok == 1;
              aligned &= c.entry % 64 == ENTRY_MOD (SHIFTS[s]);
              if (c.measured > measured)
                measured = c.measured;
            }
          verdict (t, aligned, "the probe's entry rsp is not where it should be");
          verdict (t, abi_ok, "callee-saved register, stack pointer or flag not restored");
          verdict (t, dirty == 0, "left data in vector registers:%s", dirty_names);
          verdict (t, same, "reported depth changes between identical calls");
          verdict (t, same_out, "the result depends on what the stack or the registers "
                   "held before the call");
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
  t->max_reported = max_reported;
  t->max_measured = max_measured;
}
