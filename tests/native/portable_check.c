/* portable_check.c - gcrylike/_native/portable.h's services (aligned
 * memory, a thread) in a program of their own, built for the host and, by
 * tests/test_portable.py, for Windows with mingw-w64 where it is installed. */
#include <stdio.h>
#include <string.h>
#include "portable.h"
GCRY_THREAD_FN (work, arg) { int *x = arg; *x += 1; GCRY_THREAD_END; }
int main (void) {
  int v = 41; gcry_thread t;
  void *p = gcry_aligned_alloc (64, 100);
  if (!p || ((size_t)p & 63)) return 1;
  memset (p, 0, 100); gcry_aligned_free (p);
  if (!gcry_thread_start (&t, work, &v)) return 2;
  gcry_thread_join (t);
  printf ("%d\n", v); return v != 42;
}
