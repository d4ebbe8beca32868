/* driver.h - a component's drivers (the kernel's cra_driver_name and
 * cra_priority): one row per implementation compiled into the module,
 * declared beside the component's routine table and read by Python
 * (gcrylike._spec.native_drivers), `gcrylike list`, the composites' rules
 * and gcrylike's native check of its assembly (in its source tree).  Each
 * component exports
 *   const gcry_driver *gcry_<component>_drivers (size_t *n);
 * giving its rows compiled in (no assembly: the portable ones alone). */
#ifndef GCRYLIKE_DRIVER_H
#define GCRYLIKE_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include "hwf.h"

/* A driver's implementation id (the registry's token) is its place in its
 * component's table: no id is written anywhere, and a new driver is one
 * row, its routines inside it. */
typedef struct {
  const char *suffix;       /* the driver's name after the algorithm's */
  int priority;             /* the highest usable wins; hundreds: SIMD level */
  uint32_t hwf;             /* the GCRY_HWF_* bits it needs */
  const char *tag;          /* its mark in a composite named after another
                               part ("ifma"), else "" */
  const char *description;
  const void *ops;          /* its routines, as the component's glue
                               defines them (a stream cipher's
                               gcry_stream_tier, ...); NULL: portable C */
} gcry_driver;

/* A row's tag: a name, which may be spelled like a CPU feature (the AES-NI
 * driver's aesni tag): the macro tells gcrylike's own check that each
 * feature name is written once (in its source tree) that this is a tag. */
#define GCRY_TAG(name) name

/* A row's routines given in the row itself (a compound literal of the
 * component's ops type, static at file scope). */
#define GCRY_OPS(type, ...) (&(const type){ __VA_ARGS__ })

/* The SIMD level of a driver (its priority's hundreds): the composites'
 * rule joins parts of one level (gcrylike._spec.joined). */
static inline int
gcry_driver_level (const gcry_driver *d)
{
  return d->priority / 100;
}

/* Whether the join JOIN (a composite's own driver: how it runs its two
 * parts) may join the drivers A and B: a portable join (level 1) any
 * pair, any other one the pair of its own level whose features include
 * its own (the rule of gcrylike._spec.joined, which chooses the join). */
static inline int
gcry_join_fits (const gcry_driver *join, const gcry_driver *a, const gcry_driver *b)
{
  int level = gcry_driver_level (join);

  return level == 1
         || (gcry_driver_level (a) == level && gcry_driver_level (b) == level
             && (join->hwf & ~(a->hwf | b->hwf)) == 0);
}

/* Whether JOIN (an id of the N joins JOINS) may join driver A of the
 * component whose rows ROWS_A gives and driver B of ROWS_B's (each id
 * checked here). */
static inline int
gcry_join_ok (const gcry_driver *joins, size_t n, unsigned int join,
              const gcry_driver *(*rows_a) (size_t *n), unsigned int a,
              const gcry_driver *(*rows_b) (size_t *n), unsigned int b)
{
  size_t na, nb;
  const gcry_driver *da = rows_a (&na), *db = rows_b (&nb);

  return join < n && a < na && b < nb && gcry_join_fits (&joins[join], &da[a], &db[b]);
}

/* The id of the row named SUFFIX among the N rows ROWS, or -1. */
static inline int
gcry_driver_find (const gcry_driver *rows, size_t n, const char *suffix)
{
  size_t i, j;

  for (i = 0; i < n; i++)
    {
      for (j = 0; rows[i].suffix[j] && rows[i].suffix[j] == suffix[j]; j++)
        ;
      if (rows[i].suffix[j] == suffix[j])
        return (int)i;
    }
  return -1;
}

/* The accessor of the table ROWS, and the component's check of an id. */
#define GCRY_DRIVERS_ACCESSOR(fn, rows)                                     \
  const gcry_driver *fn (size_t *n)                                         \
  {                                                                         \
    *n = sizeof (rows) / sizeof (rows)[0];                                  \
    return rows;                                                            \
  }
#define GCRY_DRIVER_OK(rows, impl) ((impl) < sizeof (rows) / sizeof (rows)[0])

#endif
