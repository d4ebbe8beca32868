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

typedef struct {
  const char *suffix;       /* the driver's name after the algorithm's */
  int priority;             /* the highest usable wins; hundreds: SIMD level */
  uint32_t hwf;             /* the GCRY_HWF_* bits it needs */
  unsigned int impl;        /* the component's implementation id: the token */
  const char *tag;          /* its mark in a composite named after another
                               part ("ifma"), else "" */
  const char *description;
} gcry_driver;

/* A row's tag: a name, which may be spelled like a CPU feature (the AES-NI
 * driver's aesni tag): the macro tells gcrylike's own check that each
 * feature name is written once (in its source tree) that this is a tag. */
#define GCRY_TAG(name) name

/* The ids of the N rows ROWS as a mask (bit IMPL set): the ids built. */
static inline uint32_t
gcry_drivers_mask (const gcry_driver *rows, size_t n)
{
  uint32_t mask = 0;
  size_t i;

  for (i = 0; i < n; i++)
    mask |= 1u << rows[i].impl;
  return mask;
}

/* The accessor of the table ROWS. */
#define GCRY_DRIVERS_ACCESSOR(fn, rows)                                     \
  const gcry_driver *fn (size_t *n)                                         \
  {                                                                         \
    *n = sizeof (rows) / sizeof (rows)[0];                                  \
    return rows;                                                            \
  }

#endif
