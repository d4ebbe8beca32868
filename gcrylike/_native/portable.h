/* portable.h - the operating-system services the native layer uses
 * (64-byte aligned memory, threads), for POSIX systems and for the
 * Windows C runtime, which has neither aligned_alloc nor pthreads. */
#ifndef GCRYLIKE_PORTABLE_H
#define GCRYLIKE_PORTABLE_H

#include <stddef.h>
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

#else
# include <pthread.h>

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
#endif

#endif
