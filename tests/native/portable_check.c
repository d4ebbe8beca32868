/* portable_check.c - gcrylike/_native/portable.h's services (aligned
 * memory, a thread, the monotonic clock) in a program of their own, built
 * for the host by tests/test_portable.py and, by tests/asmcheck/cross.py,
 * for each cross target (Windows with mingw-w64, run under wine).  Prints
 * "N passed, M failed". */
#include <stdio.h>
#include <string.h>
#include "portable.h"

static unsigned long passed, failed;

static void
check (int ok, const char *what)
{
  if (ok)
    passed++;
  else
    {
      failed++;
      printf ("FAIL %s\n", what);
    }
}

GCRY_THREAD_FN (work, arg)
{
  int *x = arg;
  *x += 1;
  GCRY_THREAD_END;
}

int
main (void)
{
  int v = 41, started;
  gcry_thread t;
  uint64_t t0, t1;
  void *p = gcry_aligned_alloc (64, 100);

  check (p && ((size_t)p & 63) == 0, "gcry_aligned_alloc: 64-byte aligned");
  if (p)
    {
      memset (p, 0, 100);
      gcry_aligned_free (p);
    }
  started = gcry_thread_start (&t, work, &v);
  check (started, "gcry_thread_start");
  if (started)
    gcry_thread_join (t);
  check (v == 42, "the thread ran and was joined");
  /* a monotonic clock never goes back (how fast it goes is no test's) */
  t0 = gcry_monotonic_ns ();
  t1 = gcry_monotonic_ns ();
  check (t0 > 0 && t1 >= t0, "gcry_monotonic_ns is monotonic");
  printf ("%lu passed, %lu failed\n", passed, failed);
  return failed != 0;
}
