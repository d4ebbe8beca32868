/* asmcheck.c - the native check's driver: options, CPU features, the run
 * over the table (rows.c), guarded buffers, the verdicts and the summary.
 *
 *   asmcheck [--seed N] [--only SUBSTRING] [--mutant] [--list] [-v]
 *
 * The seed (default fixed, or GCRYLIKE_ASMCHECK_SEED) is printed so a
 * failure reproduces.  Prints one line per row (ok / FAIL / skip and why),
 * then "N passed, M failed"; exits 1 on any failure, 2 on bad usage.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "asmcheck.h"

uint32_t gcry_hwf_detect (void);        /* gcrylike/_native/core.c */
const char *gcry_hwf_name (unsigned int bit);   /* hwf.h's names, as Python's */

#define DEFAULT_SEED 0x6763727931333037ULL
#define MAX_FAILURES_SHOWN 8            /* per row */

guarded buf_src, buf_dst, buf_mac, buf_state;

/* ---- random numbers: xoshiro256**, seeded by splitmix64 ------------ */

static uint64_t
rotl64 (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static void
rnd_seed (check *t, uint64_t seed)
{
  int i;
  for (i = 0; i < 4; i++)
    {
      uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      t->rng[i] = z ^ (z >> 31);
    }
}

uint64_t
rnd64 (check *t)
{
  uint64_t *s = t->rng;
  uint64_t result = rotl64 (s[1] * 5, 7) * 9, x = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= x;
  s[3] = rotl64 (s[3], 45);
  return result;
}

uint32_t
rnd32 (check *t)
{
  return (uint32_t)(rnd64 (t) >> 32);
}

size_t
rnd_below (check *t, size_t n)
{
  return n ? (size_t)(rnd64 (t) % n) : 0;
}

void
rnd_bytes (check *t, void *p, size_t n)
{
  uint8_t *b = p;
  while (n >= 8)
    {
      uint64_t v = rnd64 (t);
      memcpy (b, &v, 8);
      b += 8;
      n -= 8;
    }
  if (n)
    {
      uint64_t v = rnd64 (t);
      memcpy (b, &v, n);
    }
}

/* ---- verdicts ------------------------------------------------------ */

static check *current;                 /* for the fault handler */

void
set_case (check *t, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (t->what, sizeof t->what, fmt, ap);
  va_end (ap);
}

void
verdict (check *t, int ok, const char *fmt, ...)
{
  va_list ap;

  if (ok)
    {
      t->passed++;
      t->row_passed++;
      return;
    }
  t->failed++;
  if (t->row_failed++ < MAX_FAILURES_SHOWN)
    {
      printf ("  FAIL %s [%s] %s: ", t->r->name, t->phase, t->what);
      va_start (ap, fmt);
      vprintf (fmt, ap);
      va_end (ap);
      printf ("\n");
    }
}

static void
on_fault (int sig)
{
  /* a read or write past a guard page, or an illegal instruction */
  char line[400];
  int n;
  if (current && current->r)
    n = snprintf (line, sizeof line, "  FAIL %s [%s] %s: signal %d (%s)\n",
                  current->r->name, current->phase, current->what, sig,
                  sig == SIGSEGV ? "an access past a buffer's guard page, or a callee-saved "
                  "register or stack pointer the routine did not keep"
                  : sig == SIGILL ? "illegal instruction: the CPU lacks a feature"
                  : "fault");
  else
    n = snprintf (line, sizeof line, "signal %d outside any row\n", sig);
  if (n > 0)
    (void)!write (1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
  n = snprintf (line, sizeof line, "%lu passed, %lu failed (crashed)\n",
                current ? current->passed : 0, current ? current->failed + 1 : 1);
  if (n > 0)
    (void)!write (1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
  _exit (1);
}

/* ---- guarded buffers ----------------------------------------------- */

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

uint8_t *
guarded_place (check *t, guarded *g, size_t len, placement place)
{
  uint8_t *p;
  size_t span = (size_t)(g->hi - g->lo);

  if (len + 256 > span)
    {
      fprintf (stderr, "asmcheck: buffer of %zu bytes too long\n", len);
      exit (2);
    }
  g->canary = (uint8_t)(rnd32 (t) | 1);
  switch (place)
    {
    case PLACE_ALIGNED:
      p = (uint8_t *)(((uintptr_t)(g->hi - len - 64 - 64 * rnd_below (t, 2))) & ~(uintptr_t)63);
      break;
    case PLACE_UNALIGNED:
      p = (uint8_t *)(((uintptr_t)(g->hi - len - 128)) & ~(uintptr_t)63) + 1 + rnd_below (t, 63);
      break;
    default:
      p = g->hi - len;
      break;
    }
  /* canary only near the buffer: the rest of the mapping is never used */
  memset (p - 64 >= g->lo ? p - 64 : g->lo, g->canary, 64);
  memset (p + len, g->canary, (size_t)(g->hi - (p + len)));
  rnd_bytes (t, p, len);
  g->p = p;
  g->len = len;
  return p;
}

int
guarded_intact (const guarded *g)
{
  const uint8_t *lo = g->p - 64 >= g->lo ? g->p - 64 : g->lo, *q;
  for (q = lo; q < g->p; q++)
    if (*q != g->canary)
      return 0;
  for (q = g->p + g->len; q < g->hi; q++)
    if (*q != g->canary)
      return 0;
  return 1;
}

const char *
placement_name (placement p)
{
  return p == PLACE_ALIGNED ? "aligned" : p == PLACE_UNALIGNED ? "unaligned" : "at-guard";
}

/* ---- shared helpers ------------------------------------------------ */

static int
hexval (char c)
{
  return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

size_t
hex_len (const char *hex)
{
  return strlen (hex) / 2;
}

void
hex_to_bytes (const char *hex, uint8_t *out, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    out[i] = (uint8_t)(hexval (hex[2 * i]) << 4 | hexval (hex[2 * i + 1]));
}

unsigned int
reach_lengths (const row *r, size_t out[5])
{
  size_t w = r->width, reach = r->reach;
  unsigned int n = 0;

  if (!reach)
    return 0;
  if (reach >= w)
    out[n++] = reach - w;
  out[n++] = reach;
  out[n++] = reach + w;
  out[n++] = reach + 3 * w;
  out[n++] = 2 * reach + w;
  return n;
}

/* ---- the run -------------------------------------------------------- */

uint32_t
row_hwf (const row *r)
{
  uint32_t hwf = 0;
  size_t o, i, n;

  for (o = 0; o < ARRAY_SIZE (r->owners); o++)
    {
      const gcry_driver *d;

      if (!r->owners[o].drivers)
        continue;
      d = r->owners[o].drivers (&n);
      for (i = 0; i < n && d[i].impl != r->owners[o].impl; i++)
        ;
      if (i == n)
        {
          printf ("FAIL %s: its driver (id %u) has no row\n", r->name, r->owners[o].impl);
          exit (1);
        }
      hwf |= d[i].hwf;
    }
  return hwf;
}

static void
print_features (uint32_t bits)
{
  unsigned int i;
  for (i = 0; i < 32; i++)
    if (bits >> i & 1)
      {
        const char *name = gcry_hwf_name (i);
        if (name)
          printf (" %s", name);
        else
          printf (" bit%u", i);
      }
}

static void
usage (void)
{
  fprintf (stderr, "usage: asmcheck [--seed N] [--only SUBSTRING] [--mutant] [--list] [-v]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  check t;
  uint64_t seed = DEFAULT_SEED;
  const char *only = NULL, *env = getenv ("GCRYLIKE_ASMCHECK_SEED");
  int mutant = 0, list = 0, i;
  uint32_t hwf = gcry_hwf_detect ();
  size_t n;

  memset (&t, 0, sizeof t);
  if (env && *env)
    seed = strtoull (env, NULL, 0);
  for (i = 1; i < argc; i++)
    {
      if (!strcmp (argv[i], "--seed") && i + 1 < argc)
        seed = strtoull (argv[++i], NULL, 0);
      else if (!strcmp (argv[i], "--only") && i + 1 < argc)
        only = argv[++i];
      else if (!strcmp (argv[i], "--mutant"))
        mutant = 1;
      else if (!strcmp (argv[i], "--list"))
        list = 1;
      else if (!strcmp (argv[i], "-v"))
        t.verbose = 1;
      else
        usage ();
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  rnd_seed (&t, seed);
  t.hwf = hwf;
  current = &t;
  signal (SIGSEGV, on_fault);
  signal (SIGBUS, on_fault);
  signal (SIGILL, on_fault);
  guarded_init (&buf_src);
  guarded_init (&buf_dst);
  guarded_init (&buf_mac);
  guarded_init (&buf_state);

  printf ("asmcheck: seed %#llx (--seed or GCRYLIKE_ASMCHECK_SEED to change)\n",
          (unsigned long long)seed);
  printf ("cpu:");
  print_features (hwf);
  printf ("\n");

  for (n = 0; n < asmcheck_nrows; n++)
    {
      const row *r = &asmcheck_rows[n];
      uint32_t needs = row_hwf (r), missing = needs & ~hwf;

      if ((r->flags & ROW_MUTANT) && !mutant)
        continue;
      if (only && !strstr (r->name, only))
        continue;
      if (list)
        {
          printf ("%-48s width %-3u needs", r->name, r->width);
          print_features (needs);
          printf ("; %s\n", r->k->what);
          continue;
        }
      if (missing)
        {
          printf ("skip %s: needs", r->name);
          print_features (needs);
          printf (" (this CPU lacks");
          print_features (missing);
          printf (")\n");
          continue;
        }
      t.r = r;
      t.row_passed = t.row_failed = 0;
      t.phase = "compare";
      if (r->k->compare)
        r->k->compare (&t, r);
      t.phase = "vectors";
      if (r->k->vectors)
        r->k->vectors (&t, r);
      t.phase = "depth";
      t.max_reported = t.max_measured = 0;
      if (!(r->flags & ROW_PORTABLE))
        depth_check (&t, r);
      printf ("%s %s: %lu passed, %lu failed; depth reported <= %lu, written <= %lu\n",
              t.row_failed ? "FAIL" : "ok  ", r->name, t.row_passed, t.row_failed,
              t.max_reported, t.max_measured);
      t.r = NULL;
    }
  if (list)
    return 0;
  printf ("%lu passed, %lu failed\n", t.passed, t.failed);
  return t.failed ? 1 : 0;
}
