/* portable.h - the operating-system services the native layer uses
 * (64-byte aligned memory, threads, a monotonic clock), for POSIX systems
 * and for the Windows C runtime, which has neither aligned_alloc, pthreads
 * nor clock_gettime.  The compilers' differences are compiler.h's. */
#ifndef GCRYLIKE_PORTABLE_H
#define GCRYLIKE_PORTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef _WIN32
# include <malloc.h>
# include <process.h>
# include <windows.h>

static inline void *
gcry_aligned_alloc (size_t align, size_t n)
{
  return _aligned_malloc (n, align);
}

static inline void
gcry_aligned_free (void *p)
{
  _aligned_free (p);
}

/* A thread's function: GCRY_THREAD_FN (name, arg) { ...; GCRY_THREAD_END; } */
# define GCRY_THREAD_FN(name, arg) static unsigned __stdcall name (void *arg)
# define GCRY_THREAD_END return 0
typedef HANDLE gcry_thread;

/* Start FN (ARG) in a new thread: 1 when it started. */
static inline int
gcry_thread_start (gcry_thread *t, unsigned (__stdcall *fn) (void *), void *arg)
{
  *t = (HANDLE)_beginthreadex (NULL, 0, fn, arg, 0, NULL);
  return *t != 0;
}

static inline void
gcry_thread_join (gcry_thread t)
{
  WaitForSingleObject (t, INFINITE);
  CloseHandle (t);
}

/* Nanoseconds from a fixed point in the past. */
static inline uint64_t
gcry_monotonic_ns (void)
{
  LARGE_INTEGER count, freq;
  QueryPerformanceCounter (&count);
  QueryPerformanceFrequency (&freq);
  /* whole seconds and the rest apart: count * 1e9 overflows in hours */
  return (uint64_t)(count.QuadPart / freq.QuadPart) * 1000000000u
         + (uint64_t)(count.QuadPart % freq.QuadPart) * 1000000000u / (uint64_t)freq.QuadPart;
}

#else
# include <pthread.h>
# include <time.h>

static inline void *
gcry_aligned_alloc (size_t align, size_t n)
{
  /* aligned_alloc wants a size that is a multiple of the alignment */
  return aligned_alloc (align, (n + align - 1) / align * align);
}

static inline void
gcry_aligned_free (void *p)
{
  free (p);
}

# define GCRY_THREAD_FN(name, arg) static void *name (void *arg)
# define GCRY_THREAD_END return NULL
typedef pthread_t gcry_thread;

static inline int
gcry_thread_start (gcry_thread *t, void *(*fn) (void *), void *arg)
{
  return pthread_create (t, NULL, fn, arg) == 0;
}

static inline void
gcry_thread_join (gcry_thread t)
{
  pthread_join (t, NULL);
}

static inline uint64_t
gcry_monotonic_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#endif
