/* system.c - what the native check needs of the operating system: pages
 * no one may touch (the guards on both sides of each buffer) and a last
 * word when a routine faults.  POSIX: mmap, mprotect and signal handlers;
 * Windows (the portable C's check built with mingw-w64 and run under
 * wine): VirtualAlloc, VirtualProtect and an unhandled-exception filter.
 * --guard-probe (asmcheck.c) shows on each system that a read past a
 * guard faults and is reported. */
#include <stdio.h>
#include <stdlib.h>

#ifdef _WIN32
# include <io.h>
# include <windows.h>
#else
# include <signal.h>
# include <sys/mman.h>
# include <unistd.h>
#endif

#include "asmcheck.h"

#define PAST_GUARD "access past a buffer's guard page, or a callee-saved register or stack " \
  "pointer the routine did not keep"
#define NO_FEATURE "illegal instruction: the CPU lacks a feature"

/* Print the crash report and end the process, from a fault handler: one
 * write of a stack buffer, no stdio (a signal may arrive inside it). */
static void
report_and_exit (const char *fault)
{
  char line[600];
  size_t n = fault_report (line, sizeof line, fault);
#ifdef _WIN32
  (void)!_write (1, line, (unsigned int)n);
#else
  (void)!write (1, line, n);
#endif
  _exit (1);
}

#ifdef _WIN32

static LONG WINAPI
on_exception (EXCEPTION_POINTERS *e)
{
  DWORD code = e->ExceptionRecord->ExceptionCode;
  char fault[120];
  snprintf (fault, sizeof fault, "exception 0x%08lx (%s)", (unsigned long)code,
            code == EXCEPTION_ACCESS_VIOLATION ? PAST_GUARD
            : code == EXCEPTION_ILLEGAL_INSTRUCTION ? NO_FEATURE : "fault");
  report_and_exit (fault);
  return EXCEPTION_CONTINUE_SEARCH;
}

void
system_init (void)
{
  /* the Windows C runtime has no line buffering (_IOLBF is full
   * buffering there): unbuffered, so the report follows what ran */
  setvbuf (stdout, NULL, _IONBF, 0);
  SetUnhandledExceptionFilter (on_exception);
}

void
guarded_init (guarded *g)
{
  SYSTEM_INFO si;
  size_t page, usable;
  uint8_t *m;
  DWORD old;

  GetSystemInfo (&si);
  page = si.dwPageSize;
  usable = (GUARDED_BYTES + page - 1) / page * page;
  m = VirtualAlloc (NULL, usable + 2 * page, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
  if (!m)
    {
      fprintf (stderr, "VirtualAlloc failed: %lu\n", (unsigned long)GetLastError ());
      exit (2);
    }
  if (!VirtualProtect (m, page, PAGE_NOACCESS, &old)
      || !VirtualProtect (m + page + usable, page, PAGE_NOACCESS, &old))
    {
      fprintf (stderr, "VirtualProtect failed: %lu\n", (unsigned long)GetLastError ());
      exit (2);
    }
  g->map = m;
  g->lo = m + page;
  g->hi = m + page + usable;
}

#else

static void
on_fault (int sig)
{
  char fault[120];
  snprintf (fault, sizeof fault, "signal %d (%s)", sig,
            sig == SIGSEGV ? PAST_GUARD : sig == SIGILL ? NO_FEATURE : "fault");
  report_and_exit (fault);
}

void
system_init (void)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  signal (SIGSEGV, on_fault);
  signal (SIGBUS, on_fault);
  signal (SIGILL, on_fault);
}

void
guarded_init (guarded *g)
{
  size_t page = (size_t)sysconf (_SC_PAGESIZE);
  size_t usable = (GUARDED_BYTES + page - 1) / page * page;
  uint8_t *m = mmap (NULL, usable + 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    {
      perror ("mmap");
      exit (2);
    }
  if (mprotect (m, page, PROT_NONE) || mprotect (m + page + usable, page, PROT_NONE))
    {
      perror ("mprotect");
      exit (2);
    }
  g->map = m;
  g->lo = m + page;
  g->hi = m + page + usable;
}

#endif
