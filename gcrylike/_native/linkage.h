/* linkage.h - how a composite reaches its components' routines.
 *
 * Every routine is compiled into one extension module, its component's
 * (chacha, poly1305, nhpoly1305, aes, salsa20).  The component exports a
 * struct of named function pointers, libsodium's shape, whose first member
 * is the struct's size; a composite (the AEAD, secretbox, NHPoly1305,
 * Adiantum) imports it once, when Python loads the composite's module
 * (gcrylike._linkage hands over the pointer), and calls through it.
 *
 *   component glue:  GCRY_EXPORT (chacha, gcry_chacha_exports, chacha_table)
 *   composite glue:  GCRY_IMPORT (chacha, gcry_chacha_exports)
 *                    ... chacha_api->crypt_noburn (...) ...
 *
 * gcrylike's own build helper (in its source tree) finds both macros in a
 * module's sources and declares their functions to cffi. */
#ifndef GCRYLIKE_LINKAGE_H
#define GCRYLIKE_LINKAGE_H

#include <stddef.h>
#include "common.h"

/* The exporter: gcry_export_<component>() returns the table. */
#define GCRY_EXPORT(component, type, table)                                 \
  const void *gcry_export_##component (void)                                \
  {                                                                         \
    return &(table);                                                        \
  }

/* The importer: <component>_api, set by gcry_import_<component>(), which
 * refuses a table of another size (a module from another build) and a
 * second import of another table. */
#define GCRY_IMPORT(component, type)                                        \
  static const type *component##_api;                                       \
  int gcry_import_##component (const void *table)                           \
  {                                                                         \
    const type *t = table;                                                  \
    if (!t || t->size != sizeof (type)                                      \
        || (component##_api && component##_api != t))                       \
      return GCRY_ERR_INV_ARG;                                              \
    component##_api = t;                                                    \
    return GCRY_OK;                                                         \
  }

#endif
