/* timing_hooks.c - the statistical timing test's measurement loop and its
 * planted leak (tests/dudect.py; in every test copy, like testhooks.c, so
 * any copy can time any module's entry points by address).
 *
 * Timing runs here rather than in Python: the interpreter's own jitter
 * between two clock reads is far larger than the differences looked for. */
#include "testhooks.h"

#if defined(__x86_64__) || defined(__i386__)
# include <x86intrin.h>
#else
# include <time.h>
#endif

/* BEGIN TEST CDEF (tests/native/build_hooks.py) */

/* One timed call: FN with NARGS (at most 8) integer or pointer arguments
 * ARGS, except that argument INPUT_ARG (when below NARGS) is replaced by the
 * measurement's input.  Every gcrylike entry point timed takes only
 * integers and pointers and returns int (see gcry_dudect_measure). */
struct gcry_dudect_step
{
  uintptr_t fn;
  unsigned int nargs;
  unsigned int input_arg;
  uintptr_t args[8];
};

/* For measurement I of N: run the NSTEPS steps in order on the input at
 * INPUTS + I * STRIDE, and store their time in TICKS[I] (the time-stamp
 * counter on x86, else nanoseconds) and in FAILED[I] the bit mask of the
 * steps that returned nonzero. */
void gcry_dudect_measure (const struct gcry_dudect_step *steps, size_t nsteps,
                          const uint8_t *inputs, size_t stride, size_t n,
                          uint64_t *ticks, uint32_t *failed);

/* The planted leak: a memcmp-style compare that stops at the first
 * difference (0 if the N bytes are equal).  The timing test must see it. */
int gcry_dudect_leaky_compare (const uint8_t *a, const uint8_t *b, size_t n);

/* END TEST CDEF */

/* Serialising reads: lfence keeps earlier instructions from drifting past
 * the first read, rdtscp waits for the timed calls to finish. */
static inline uint64_t
clock_start (void)
{
#if defined(__x86_64__) || defined(__i386__)
  _mm_lfence ();
  return __rdtsc ();
#else
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline uint64_t
clock_stop (void)
{
#if defined(__x86_64__) || defined(__i386__)
  unsigned int aux;
  uint64_t t = __rdtscp (&aux);
  _mm_lfence ();
  return t;
#else
  return clock_start ();
#endif
}

typedef uintptr_t U;

/* Call FN with the first NARGS of A.  The pointer is converted to a type
 * of exactly NARGS uintptr_t parameters: on the ABIs we build for an
 * integer or pointer parameter of any narrower type is read from the same
 * register or stack slot, so this is the real call, without one C wrapper
 * per entry point (the cases stay a Python table, tests/dudect_cases.py). */
static int
call_step (uintptr_t fn, unsigned int nargs, const U *a)
{
  switch (nargs)
    {
    case 1: return ((int (*) (U)) fn) (a[0]);
    case 2: return ((int (*) (U, U)) fn) (a[0], a[1]);
    case 3: return ((int (*) (U, U, U)) fn) (a[0], a[1], a[2]);
    case 4: return ((int (*) (U, U, U, U)) fn) (a[0], a[1], a[2], a[3]);
    case 5: return ((int (*) (U, U, U, U, U)) fn) (a[0], a[1], a[2], a[3], a[4]);
    case 6: return ((int (*) (U, U, U, U, U, U)) fn) (a[0], a[1], a[2], a[3], a[4], a[5]);
    case 7: return ((int (*) (U, U, U, U, U, U, U)) fn) (a[0], a[1], a[2], a[3], a[4], a[5],
                                                          a[6]);
    case 8: return ((int (*) (U, U, U, U, U, U, U, U)) fn) (a[0], a[1], a[2], a[3], a[4],
                                                             a[5], a[6], a[7]);
    default: return -1;
    }
}

#define MAX_STEPS 8

void
gcry_dudect_measure (const struct gcry_dudect_step *steps, size_t nsteps,
                     const uint8_t *inputs, size_t stride, size_t n,
                     uint64_t *ticks, uint32_t *failed)
{
  U args[MAX_STEPS][8];
  size_t i, s;

  if (nsteps > MAX_STEPS)
    nsteps = MAX_STEPS;  /* tests/dudect.py refuses longer programmes */
  for (s = 0; s < nsteps; s++)
    memcpy (args[s], steps[s].args, sizeof args[s]);

  for (i = 0; i < n; i++)
    {
      uint32_t bad = 0;
      uint64_t t0, t1;

      /* the arguments are set before the clock starts: only the calls are
       * timed */
      for (s = 0; s < nsteps; s++)
        if (steps[s].input_arg < 8)
          args[s][steps[s].input_arg] = (U)(inputs + i * stride);
      t0 = clock_start ();
      for (s = 0; s < nsteps; s++)
        bad |= (uint32_t)(call_step (steps[s].fn, steps[s].nargs, args[s]) != 0) << s;
      t1 = clock_stop ();
      ticks[i] = t1 - t0;
      failed[i] = bad;
    }
}

GCRY_NOINLINE int
gcry_dudect_leaky_compare (const uint8_t *a, const uint8_t *b, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return 1;
  return 0;
}
