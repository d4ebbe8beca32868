/* asmcheck.h - the native check of every assembly routine (amd64, aarch64)
 * and of the portable C on every target.
 *
 * One static binary (tests/asmcheck/build.py builds it) links the asm/ files and the
 * portable C of every module, then runs each row of the table in rows.c:
 * the routine against the portable C on random and edge-case inputs, on
 * published vectors (vectors.h: generated from selftests/vectors_*.py at
 * build time), and through the burn-depth probe (depth.c).  A row is
 * a routine's symbol, the CPU features it needs, its width and its kind;
 * the kind (one of the adapters below) knows the routine's signature, its
 * portable reference and which lengths to run.
 */
#ifndef GCRYLIKE_ASMCHECK_H
#define GCRYLIKE_ASMCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "hwf.h"
#include "driver.h"

/* ---- the table ---------------------------------------------------- */

struct check;
struct row;

/* What a kind adds for its routines: the random comparisons, the published
 * vectors (may be NULL), and the lengths and arguments of the depth probe. */
typedef struct {
  const char *what;             /* one line for the listing */
  void (*compare) (struct check *t, const struct row *r);
  void (*vectors) (struct check *t, const struct row *r);
  /* the depth probe's call with N units (blocks, bytes or units, per kind)
   * as ARGS[0..6]; N runs over depth_mult[0..ndepth) times the row's width,
   * which must reach every loop and frame of the routine */
  void (*depth_args) (const struct row *r, size_t n, uint64_t args[7]);
  unsigned int depth_mult[12];
  unsigned int ndepth;
} kind;

/* A driver whose routine a row is: its component's accessor (driver.h)
 * and the driver's name suffix; a NULL accessor: none. */
typedef struct {
  const gcry_driver *(*drivers) (size_t *n);
  const char *suffix;
} row_owner;

typedef struct row {
  const char *name;             /* the routine's symbol */
  row_owner owners[2];          /* the drivers it serves: it needs the
                                   GCRY_HWF_* bits of their rows (row_hwf) */
  unsigned int width;           /* units per call it takes a multiple of */
  const kind *k;
  void *fn;                     /* the routine */
  void *aux;                    /* the kind's partner (setup, setkey) or NULL */
  unsigned int flags;
  /* blocks kinds: the length (in blocks) from which the routine takes
   * another path, e.g. larger groups with a frame; the comparisons and the
   * depth proof add lengths around it.  0: none beyond the usual sweep. */
  unsigned int reach;
} row;

/* row.flags */
#define ROW_MUTANT 1u           /* a deliberate bug: only with --mutant */
#define ROW_PORTABLE 2u         /* portable C: no burn-depth contract to prove */

/* Whether this target has a depth probe (depth-<arch>.S) and assembly. */
#if defined(USE_AMD64) || defined(USE_AARCH64)
# define ASMCHECK_HAVE_PROBE 1
#else
# define ASMCHECK_HAVE_PROBE 0
#endif

extern const row asmcheck_rows[];
/* The GCRY_HWF_* bits R's routine needs: its owners' driver rows'. */
uint32_t row_hwf (const row *r);
extern const size_t asmcheck_nrows;

/* The kinds (adapters), one per routine signature. */
extern const kind kind_chacha_blocks, kind_hchacha, kind_hchacha4, kind_hchacha16;
extern const kind kind_salsa20_blocks, kind_hsalsa20;
extern const kind kind_poly1305_simd, kind_poly1305_scalar, kind_poly1305_lanes;
extern const kind kind_nh, kind_nh_units;
extern const kind kind_aes_setkey, kind_aes_encrypt, kind_aes_decrypt;
extern const kind kind_chacha20_poly1305, kind_salsa20_poly1305;
extern const kind kind_depth_only;

/* ---- the run ------------------------------------------------------ */

typedef struct check {
  uint64_t rng[4];              /* xoshiro256** state */
  unsigned long passed, failed;
  unsigned long row_passed, row_failed;
  const row *r;                 /* the row running */
  const char *phase;            /* "compare", "vectors", "depth" */
  char what[160];               /* the case running, for a crash report */
  int verbose;
  uint32_t hwf;                 /* the CPU's features (gcry_hwf_detect) */
  unsigned long max_reported, max_measured;     /* the row's depths */
} check;

uint64_t rnd64 (check *t);
uint32_t rnd32 (check *t);
size_t rnd_below (check *t, size_t n);
void rnd_bytes (check *t, void *p, size_t n);

/* Record one comparison; a failure prints the row, the case and MSG. */
void verdict (check *t, int ok, const char *fmt, ...)
  GCRY_PRINTF_FORMAT (3, 4);
/* Name the case about to run (printed if it crashes). */
void set_case (check *t, const char *fmt, ...) GCRY_PRINTF_FORMAT (2, 3);

/* ---- buffers with guards -------------------------------------------
 * Each buffer lives in its own mapping with an inaccessible page on both
 * sides, the rest of the mapping filled with a canary byte: a read past
 * either end faults, a stray write is seen by guard_intact. */

typedef enum {
  PLACE_ALIGNED,                /* start 64-byte aligned */
  PLACE_UNALIGNED,              /* start at a random odd-ish offset */
  PLACE_AT_END,                 /* end flush against the guard page */
  PLACE_COUNT
} placement;

typedef struct {
  uint8_t *map, *lo, *hi;       /* mapping; usable [lo, hi) */
  uint8_t canary;
  uint8_t *p;                   /* the placed buffer */
  size_t len;
} guarded;

#define GUARDED_BYTES (96 * 1024)       /* the longest buffer any row uses */

/* system.c: map G's pages, an inaccessible page on each side. */
void guarded_init (guarded *g);
/* Place LEN bytes (at most GUARDED_BYTES - 256) as PLACE says, canary all
 * around; the buffer's own bytes are random. */
uint8_t *guarded_place (check *t, guarded *g, size_t len, placement place);
/* 1 if no byte outside the placed buffer changed. */
int guarded_intact (const guarded *g);
const char *placement_name (placement p);

/* Scratch buffers shared by the kinds (single-threaded). */
extern guarded buf_src, buf_dst, buf_mac, buf_state;

/* The depth probe's buffers (random, long enough for every row's longest
 * probe). */
typedef struct {
  GCRY_ALIGNED (64) uint32_t state[16];
  uint64_t h[3];
  uint64_t r[2];
  GCRY_ALIGNED (64) uint8_t table[4096];        /* Poly1305 SIMD powers */
  GCRY_ALIGNED (64) uint8_t key[2048];          /* NH key, AES key schedule */
  GCRY_ALIGNED (64) uint8_t src[64 * 1024];
  GCRY_ALIGNED (64) uint8_t dst[64 * 1024];
} depth_buffers;
extern depth_buffers dbuf;

/* ---- the operating system's part (system.c) ----------------------- */

/* Before anything runs: stdout in an order a crash report cannot
 * overtake, and a handler for the faults a routine may cause (a read past
 * a guard page, an instruction the CPU lacks) that prints fault_report's
 * lines and exits 1. */
void system_init (void);
/* asmcheck.c: the crash report for FAULT (e.g. "signal 11 (...)") into
 * LINE; returns its length.  Called from the fault handler. */
size_t fault_report (char *line, size_t size, const char *fault);

/* ---- helpers the kinds share -------------------------------------- */

void hex_to_bytes (const char *hex, uint8_t *out, size_t n);
size_t hex_len (const char *hex);       /* bytes in HEX */

/* Poly1305: h fully reduced modulo 2^130 - 5 (three words), the tag of h
 * and s, and the portable blocks (hibit 1) of the 2^64 radix. */
void poly1305_reduce (uint64_t out[3], const uint64_t h[3]);
void poly1305_tag (uint8_t tag[16], const uint64_t h[3], const uint8_t s[16]);
void poly1305_clamp (uint64_t r[2], const uint8_t key[16]);

/* The lengths around R's reach (none without one): fills OUT, returns how
 * many (at most 5). */
unsigned int reach_lengths (const row *r, size_t out[5]);

/* The depth probe (depth.c): run row R with N units at each stack shift;
 * records the verdicts. */
void depth_check (check *t, const row *r);

#define ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))

#endif
