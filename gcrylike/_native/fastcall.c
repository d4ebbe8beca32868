/* fastcall.c - gcrylike._fastcall: the call layer of every handle.
 *
 * Each handle has one Binding: its gate (the one call discipline, see
 * "Binding" below) and, when the spec's hooks are native, the direct call
 * of those hooks, cheaper than cffi's generic call (which builds an
 * argument tuple, converts each argument, makes ffi.from_buffer views and
 * always releases the GIL; docs/usage.rst, "Cost per call", has the
 * figures).  A Binding holds what a handle's data calls need (the context
 * address and the native hooks' addresses, taken once from cffi) and calls
 * the hooks directly: the input through PyObject_GetBuffer, a new result
 * through PyBytes_FromStringAndSize(NULL, n), the GIL released only above
 * gil_threshold bytes.
 *
 * Protocol with the Python handles (gcrylike/_fast.py):
 *   - NotImplemented: the fast path does not apply (not a contiguous buffer,
 *     read-only or short out=, overlapping buffers, too short input, handle
 *     closed); the caller takes its general path, which explains refusals
 *     with the same errors as before.
 *   - Failure(rc): the hook returned error code rc; the caller maps it to a
 *     GcryError subclass (error path only, so no Python call per success).
 *   - HandleBusy: another call is inside this context (see enter());
 *     HandleClosed: the handle was closed (both raised here, with the
 *     handle's name).
 *
 * Nothing here knows an algorithm: the hook shapes are the spec's hook types
 * (gcrylike/_spec.py), checked against the cffi types in _fast.py. */
#define PY_SSIZE_T_CLEAN
/* Written against the limited API of CPython 3.11 (setup.py defines
 * Py_LIMITED_API=0x030B0000, so the module is one *.abi3.so for every
 * CPython from 3.11 on): heap types from specs, function forms of the
 * tuple and bytes accessors, and the handles' encrypt/decrypt as ordinary
 * method descriptors (see data_method below). */
#include <Python.h>
#include <structmember.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "portable.h"

/* The singletons returned with the reference the 3.11 limited API needs:
 * 3.12's and 3.13's headers expand Py_RETURN_NONE to a bare ``return
 * Py_None`` (None is immortal there) even for Py_LIMITED_API=0x030B0000, so a
 * module built by them would take a reference from 3.11's None per call. */
#define RETURN_NONE return Py_NewRef (Py_None)
#define RETURN_NOTIMPLEMENTED return Py_NewRef (Py_NotImplemented)

typedef int (*crypt_fn) (void *ctx, uint8_t *dst, const uint8_t *src, size_t n);
typedef int (*update_fn) (void *ctx, const uint8_t *src, size_t n);
typedef int (*read_fn) (void *ctx, uint8_t *out, size_t n);
typedef int (*aead_fn) (void *ctx, const uint8_t *nonce, size_t nlen, const uint8_t *aad,
                        size_t alen, const uint8_t *src, size_t n, uint8_t *out);
typedef int (*box_fn) (void *ctx, const uint8_t *nonce, size_t nlen, const uint8_t *src,
                       size_t n, uint8_t *out);
typedef int (*tweak_fn) (void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                         const uint8_t *tweak, size_t tlen);
typedef int (*sectors_fn) (void *ctx, uint8_t *buf, size_t nsectors, size_t sector_size,
                           uint64_t first, int encrypting);
typedef int (*mac_fn) (const uint8_t *key, size_t klen, const uint8_t *msg, size_t n,
                       uint8_t *out, unsigned int token);
typedef int (*locate_fn) (void *ctx, size_t n, uint64_t *block, unsigned int *unused);
typedef int (*seek_fn) (void *ctx, uint64_t block);
typedef int (*setkey_fn) (void *ctx, const uint8_t *key, size_t n, unsigned int token);
typedef void (*copy_fn) (void *dst, const void *src, size_t n);

/* ---- hook kinds: a struct of named hooks per kind of handle ---------------
 * A Binding holds one of these, chosen by its kind when it is made; every
 * method checks the kind before it touches a hook, so calling an operation
 * the kind has not got is a TypeError, never a call through the wrong
 * pointer.  KIND_DEFS is the one description of the kinds: Python reads it
 * (KINDS) to look the hooks up by name and check their C types. */
enum kind { KIND_GATE, KIND_STREAM, KIND_BLOCK, KIND_MAC, KIND_AEAD, KIND_SEAL, KIND_BOX,
            KIND_TWEAK, NKINDS };

typedef struct { crypt_fn encrypt, decrypt; locate_fn locate; seek_fn seek; } stream_hooks;
typedef struct { update_fn update; read_fn read; setkey_fn setkey; } mac_hooks;
typedef struct { crypt_fn encrypt, decrypt; update_fn authenticate; read_fn gettag; } aead_hooks;
typedef struct { aead_fn seal, open; } seal_hooks;
typedef struct { box_fn seal, open; } box_hooks;
typedef struct { tweak_fn encrypt, decrypt; sectors_fn sectors; } tweak_hooks;

typedef union {
  stream_hooks stream;  /* KIND_STREAM and KIND_BLOCK (no locate, seek) */
  mac_hooks mac;
  aead_hooks aead;
  seal_hooks seal;
  box_hooks box;
  tweak_hooks tweak;
} hooks;

#define CRYPT_T "int(*)(void *, uint8_t *, uint8_t *, size_t)"
#define UPDATE_T "int(*)(void *, uint8_t *, size_t)"
#define AEAD_T "int(*)(void *, uint8_t *, size_t, uint8_t *, size_t, uint8_t *, size_t, uint8_t *)"
#define BOX_T "int(*)(void *, uint8_t *, size_t, uint8_t *, size_t, uint8_t *)"
#define TWEAK_T "int(*)(void *, uint8_t *, uint8_t *, size_t, uint8_t *, size_t)"
#define SECTORS_T "int(*)(void *, uint8_t *, size_t, size_t, uint64_t, int)"
#define MAC_T "int(*)(uint8_t *, size_t, uint8_t *, size_t, uint8_t *, unsigned int)"
#define LOCATE_T "int(*)(void *, size_t, uint64_t *, unsigned int *)"
#define SEEK_T "int(*)(void *, uint64_t)"
#define SETKEY_T "int(*)(void *, uint8_t *, size_t, unsigned int)"

enum { MAX_HOOKS = 4 };
/* A spec with more key sizes than this re-keys on the general path only. */
enum { MAX_KEY_SIZES = 8 };

/* A hook: its name (the spec field's), its C type as cffi spells it
 * (without const), and whether the kind works without it natively. */
typedef struct { const char *name, *ctype; int optional; } hook_def;
typedef struct { const char *name; hook_def hook[MAX_HOOKS]; } kind_def;

static const kind_def KIND_DEFS[NKINDS] = {
  [KIND_GATE] = { "gate", { { 0 } } },
  [KIND_STREAM] = { "stream", { { "encrypt", CRYPT_T, 0 }, { "decrypt", CRYPT_T, 0 },
                                { "locate", LOCATE_T, 1 }, { "seek", SEEK_T, 1 } } },
  [KIND_BLOCK] = { "block", { { "encrypt", CRYPT_T, 0 }, { "decrypt", CRYPT_T, 0 } } },
  [KIND_MAC] = { "mac", { { "update", UPDATE_T, 0 }, { "read", UPDATE_T, 0 },
                          { "setkey", SETKEY_T, 1 } } },
  [KIND_AEAD] = { "aead", { { "encrypt", CRYPT_T, 0 }, { "decrypt", CRYPT_T, 0 },
                            { "authenticate", UPDATE_T, 0 }, { "gettag", UPDATE_T, 0 } } },
  [KIND_SEAL] = { "seal", { { "seal", AEAD_T, 0 }, { "open", AEAD_T, 0 } } },
  [KIND_BOX] = { "box", { { "seal", BOX_T, 0 }, { "open", BOX_T, 0 } } },
  [KIND_TWEAK] = { "tweak", { { "encrypt", TWEAK_T, 0 }, { "decrypt", TWEAK_T, 0 },
                              { "sectors", SECTORS_T, 1 } } },
};

/* The hooks of KIND from ADDR (in KIND_DEFS order, NULL where absent). */
static hooks
hooks_from (enum kind kind, void *const addr[MAX_HOOKS])
{
  hooks h;

  memset (&h, 0, sizeof h);
  switch (kind)
    {
    case KIND_STREAM:
    case KIND_BLOCK:
      h.stream = (stream_hooks){ (crypt_fn)addr[0], (crypt_fn)addr[1], (locate_fn)addr[2],
                                 (seek_fn)addr[3] };
      break;
    case KIND_MAC:
      h.mac = (mac_hooks){ (update_fn)addr[0], (read_fn)addr[1], (setkey_fn)addr[2] };
      break;
    case KIND_AEAD:
      h.aead = (aead_hooks){ (crypt_fn)addr[0], (crypt_fn)addr[1], (update_fn)addr[2],
                             (read_fn)addr[3] };
      break;
    case KIND_SEAL:
      h.seal = (seal_hooks){ (aead_fn)addr[0], (aead_fn)addr[1] };
      break;
    case KIND_BOX:
      h.box = (box_hooks){ (box_fn)addr[0], (box_fn)addr[1] };
      break;
    case KIND_TWEAK:
      h.tweak = (tweak_hooks){ (tweak_fn)addr[0], (tweak_fn)addr[1], (sectors_fn)addr[2] };
      break;
    default:
      break;
    }
  return h;
}

/* Calls on at least this many bytes run without the GIL (set_gil_threshold;
 * the default is measured, see docs/usage.rst "Cost per call"). */
static Py_ssize_t gil_threshold = 8192;
/* Sector batches give each thread at least this many bytes. */
static Py_ssize_t min_bytes_per_thread = 128 * 1024;
#define MAX_THREADS 64
/* Threads a large stream request may use (set_threads), from how many bytes
 * a request is split, and the least each thread gets. */
static Py_ssize_t stream_threads = 1;
static Py_ssize_t split_min = 1 << 20;
static Py_ssize_t split_share = 256 * 1024;

static PyObject *Failure;      /* _fastcall.Failure(rc), created here */
static PyObject *Busy;         /* gcrylike.HandleBusy, set by set_errors() */
/* The core's copy of secrets (gcry_copy_secret, set_copy_secret): the
 * native setkey saves the post-setkey copy through it, as Context.save()
 * does, not through memcpy (see burn.c). */
static copy_fn copy_secret;
/* Bumped whenever a self-test result is recorded or forgotten
 * (selftests_changed): a native setkey is allowed only under the epoch of
 * the general setkey that allowed it, which ran the first-use gate. */
static unsigned long selftest_epoch;

/* Run STMT, without the GIL when the call is large enough to pay for it. */
#define RUN(n, stmt)                        \
  do {                                      \
    if ((n) >= gil_threshold)               \
      {                                     \
        Py_BEGIN_ALLOW_THREADS stmt;        \
        Py_END_ALLOW_THREADS                \
      }                                     \
    else                                    \
      {                                     \
        stmt;                               \
      }                                     \
  } while (0)

/* ---- Binding: one context, its hooks, and the one call discipline ---------
 * Every handle has one Binding (gcrylike/_fast.py bind()), whatever its
 * hooks: it is the handle's gate.  Each data call, native or through cffi,
 *   1. takes the caller's buffers (which can run Python code: __buffer__,
 *      a close() from there included),
 *   2. enters the context: enter() refuses a closed handle (HandleClosed)
 *      and a busy one (HandleBusy), and counts the call,
 *   3. runs the hook, without the GIL above gil_threshold bytes,
 *   4. leaves, then maps the hook's code to one error family.
 * setkey, setiv, reset, copy and close hold the context exclusively
 * (Exclusive below): no call runs meanwhile and none can start; nothing
 * waits, so re-entering from inside a call (a hook or a __buffer__ that
 * closes its own handle) is HandleBusy, never a deadlock.  The counts are
 * changed with the GIL held only, so they need no lock.  A fork() child
 * starts with every context idle: a call running in another thread of the
 * parent does not exist there (fork_generation). */
typedef struct {
  PyObject_HEAD
  void *ctx;              /* NULL once detached (the handle closed) */
  enum kind kind;         /* which member of h holds the hooks */
  hooks h;
  PyObject *keep;         /* the context's cffi pointer: memory alive while bound;
                             what ``with binding as ptr`` gives the cffi path */
  PyObject *name;         /* the algorithm's name, for the errors */
  Py_ssize_t unit;        /* crypt: the length must be a multiple of it */
  Py_ssize_t tag;         /* read: the output size; seal/open: the tag size */
  Py_ssize_t users;       /* calls running now */
  int shared;             /* data calls only read the context: they may overlap */
  int ready;              /* the handle is ready for native calls (set by it) */
  int excl;               /* held exclusively: a key change, a copy, a close */
  unsigned long generation; /* fork_generation when users was last valid */
  Py_ssize_t ctx_size;    /* streams with locate and seek: the context size, so
                             a request can be split; else 0 */
  Py_ssize_t ks_block;    /* their keystream block size */
  unsigned long long calls; /* successful native calls: which path ran (tests) */
  /* the native setkey, as allow_setkey() last recorded it: */
  int rekey;              /* allowed (under rekey_epoch) */
  unsigned long rekey_epoch;
  unsigned int token;     /* the implementation's token, for the hook */
  Py_ssize_t nkey_sizes;  /* the key lengths the spec takes */
  Py_ssize_t key_sizes[MAX_KEY_SIZES];
  void *saved;            /* where the post-setkey copy goes (NULL: no copy) */
  Py_ssize_t state_size;  /* the context's size: what is copied there */
} Binding;

static PyTypeObject *BindingType;  /* heap types, made in PyInit__fastcall */
static PyTypeObject *ExclusiveType;
static PyTypeObject *HandleBaseType;
static PyObject *Closed;       /* gcrylike.HandleClosed, set by set_errors() */
static unsigned long fork_generation;  /* after_fork() bumps it in the child */

static int
state_error (Binding *b, PyObject *type, const char *what)
{
  PyErr_Format (type ? type : PyExc_RuntimeError, "%S handle %s", b->name, what);
  return -1;
}

static int
busy_error (Binding *b)
{
  return state_error (b, Busy, "is in use by another call: a handle serves one call at a "
                      "time, and is not changed or closed during one (copy.copy() it per "
                      "thread)");
}

/* Counts left by calls that ran in the parent of a fork() child are void. */
static inline void
after_fork_check (Binding *b)
{
  if (b->generation != fork_generation)
    {
      b->users = 0;
      b->excl = 0;
      b->generation = fork_generation;
    }
}

/* Take the context for one call: after the caller's buffers are taken, so
 * nothing they run can free it under the hook.  Exclusive bindings (a
 * stream position, a MAC state) allow one call at a time; shared ones
 * (one-shot classes, Adiantum: the hooks only read the context) any number,
 * but none while the context is held exclusively. */
static int
enter (Binding *b)
{
  after_fork_check (b);
  if (!b->ctx)
    return state_error (b, Closed, "is closed");
  if (b->users && (!b->shared || b->excl))
    return busy_error (b);
  b->users++;
  return 0;
}

static inline void
leave (Binding *b)
{
  b->users--;
}

/* enter() for the native path, which also needs the handle ready for it (a
 * key, and a nonce where one is needed: ``ready``, set by the handle), also
 * after the buffers were taken: 0 entered; -1 with an exception set; 1 not
 * ready, nothing entered (the caller returns NotImplemented and the
 * general path says why). */
static int
enter_native (Binding *b)
{
  if (enter (b) < 0)
    return -1;
  if (!b->ready)
    {
      leave (b);
      return 1;
    }
  return 0;
}

/* Hold the context alone (Exclusive.__enter__): no call runs, none starts. */
static int
enter_exclusive (Binding *b)
{
  after_fork_check (b);
  if (b->users)
    return busy_error (b);
  b->users = 1;
  b->excl = 1;
  return 0;
}

static inline void
leave_exclusive (Binding *b)
{
  b->users = 0;
  b->excl = 0;
}

/* The hook a method needs, or a TypeError: the kind has not got it. */
static void *
need (Binding *b, void *fn, const char *op)
{
  if (!fn)
    PyErr_Format (PyExc_TypeError, "%S: a %s binding has no native %s", b->name,
                  KIND_DEFS[b->kind].name, op);
  return fn;
}

static PyObject *
fail (int rc)
{
  PyObject *code = PyLong_FromLong (rc);
  if (code)
    {
      PyErr_SetObject (Failure, code);
      Py_DECREF (code);
    }
  return NULL;
}

/* A refusal (NotImplemented: the general path explains it), clearing the
 * error that said why.  A KeyboardInterrupt or SystemExit (no Exception: a
 * signal handled while a buffer export ran Python code) is never swallowed:
 * it propagates, as on the cffi path. */
static PyObject *
not_here (void)
{
  if (PyErr_Occurred () && !PyErr_ExceptionMatches (PyExc_Exception))
    return NULL;
  PyErr_Clear ();
  RETURN_NOTIMPLEMENTED;
}

/* The storage of a bytes object this module just made (so never NULL). */
static inline uint8_t *
bytes_buf (PyObject *bytes)
{
  return (uint8_t *)PyBytes_AsString (bytes);
}

static int
overlaps (const char *d, const char *s, Py_ssize_t n)
{
  uintptr_t a = (uintptr_t)d, b = (uintptr_t)s;
  if (a == b || n == 0)
    return 0;
  return a < b + (uintptr_t)n && b < a + (uintptr_t)n;
}

/* The buffers of a call given a caller's ``out``: a writable export of out
 * and a read-only one of data, or, when out is data (in place), the one
 * writable export as both (src->obj NULL: src is not released).  -1 with
 * nothing held when either object will not export. */
static int
get_out_buffers (PyObject *data, PyObject *out, Py_buffer *src, Py_buffer *dst)
{
  if (PyObject_GetBuffer (out, dst, PyBUF_WRITABLE) < 0)
    return -1;
  if (out == data)
    *src = *dst, src->obj = NULL;
  else if (PyObject_GetBuffer (data, src, PyBUF_SIMPLE) < 0)
    {
      PyBuffer_Release (dst);
      return -1;
    }
  return 0;
}

/* Binding(name, kind, keep, ctx_addr, hook_addrs, unit, tag, shared[,
 * ctx_size, ks_block]): hook_addrs in KIND_DEFS[kind] order, None where a
 * hook is absent; a required hook may not be absent. */
static PyObject *
Binding_new (PyTypeObject *type, PyObject *args, PyObject *Py_UNUSED (kw))
{
  PyObject *name, *keep, *fns;
  unsigned long long addr;
  Py_ssize_t unit, tag, i, ctx_size = 0, ks_block = 64;
  int shared, kind;
  void *addrs[MAX_HOOKS] = { 0 };
  Binding *b;

  if (!PyArg_ParseTuple (args, "UiOKO!nnp|nn", &name, &kind, &keep, &addr, &PyTuple_Type,
                         &fns, &unit, &tag, &shared, &ctx_size, &ks_block))
    return NULL;
  if (kind < 0 || kind >= NKINDS || PyTuple_Size (fns) > MAX_HOOKS || unit < 1 || tag < 0
      || ctx_size < 0 || ks_block < 1)
    return PyErr_Format (PyExc_ValueError, "bad binding");
  for (i = 0; i < MAX_HOOKS; i++)
    {
      const hook_def *d = &KIND_DEFS[kind].hook[i];
      PyObject *f = i < PyTuple_Size (fns) ? PyTuple_GetItem (fns, i) : Py_None;

      if (f != Py_None && !d->name)
        return PyErr_Format (PyExc_ValueError, "a %s binding has %d hooks",
                             KIND_DEFS[kind].name, (int)i);
      if (f == Py_None)
        {
          if (d->name && !d->optional)
            return PyErr_Format (PyExc_ValueError, "a %s binding needs its %s hook",
                                 KIND_DEFS[kind].name, d->name);
          continue;
        }
      addrs[i] = PyLong_AsVoidPtr (f);
      if (PyErr_Occurred ())
        return NULL;
    }
  if (ctx_size && !(kind == KIND_STREAM && addrs[2] && addrs[3]))
    return PyErr_Format (PyExc_ValueError, "only a stream with locate and seek splits");
  b = (Binding *)PyType_GenericAlloc (type, 0);
  if (!b)
    return NULL;
  b->kind = (enum kind)kind;
  b->h = hooks_from (b->kind, addrs);
  b->ctx = (void *)(uintptr_t)addr;
  b->keep = Py_NewRef (keep);
  b->name = Py_NewRef (name);
  b->unit = unit;
  b->tag = tag;
  b->shared = shared;
  b->generation = fork_generation;
  b->ctx_size = ctx_size;
  b->ks_block = ks_block;
  return (PyObject *)b;
}

static void
Binding_dealloc (Binding *b)
{
  PyTypeObject *type = Py_TYPE ((PyObject *)b);

  Py_XDECREF (b->keep);
  Py_XDECREF (b->name);
  PyObject_Free (b);
  Py_DECREF (type);  /* instances of heap types own a reference to it */
}

/* detach(): the handle closes (held exclusively, so no call runs): later
 * calls get HandleClosed. */
static PyObject *
Binding_detach (Binding *b, PyObject *Py_UNUSED (unused))
{
  b->ctx = NULL;
  Py_CLEAR (b->keep);
  RETURN_NONE;
}

/* The cffi path's side of the same rule: ``with binding as ptr:`` around a
 * data call, after its buffers are taken; ptr is the context's cffi
 * pointer. */
static PyObject *
Binding_enter (Binding *b, PyObject *Py_UNUSED (unused))
{
  if (enter (b) < 0)
    return NULL;
  return Py_NewRef (b->keep);
}

static PyObject *
Binding_exit (Binding *b, PyObject *const *Py_UNUSED (args), Py_ssize_t Py_UNUSED (nargs))
{
  leave (b);
  RETURN_NONE;
}

/* ---- Exclusive: ``with binding.exclusive():`` ------------------------------
 * An object of its own, so that the lock is taken by a with statement's
 * __enter__ (nothing runs between it and the protected block; a signal
 * handler raising after a plain lock() call and before its try: left a
 * handle busy for ever). */
typedef struct {
  PyObject_HEAD
  Binding *b;
} Exclusive;

static PyObject *
Binding_exclusive (Binding *b, PyObject *Py_UNUSED (unused))
{
  Exclusive *e = (Exclusive *)PyType_GenericAlloc (ExclusiveType, 0);
  if (!e)
    return NULL;
  e->b = (Binding *)Py_NewRef ((PyObject *)b);
  return (PyObject *)e;
}

static void
Exclusive_dealloc (Exclusive *e)
{
  PyTypeObject *type = Py_TYPE ((PyObject *)e);

  Py_XDECREF ((PyObject *)e->b);
  PyObject_Free (e);
  Py_DECREF (type);
}

static PyObject *
Exclusive_enter (Exclusive *e, PyObject *Py_UNUSED (unused))
{
  if (enter_exclusive (e->b) < 0)
    return NULL;
  RETURN_NONE;
}

static PyObject *
Exclusive_exit (Exclusive *e, PyObject *const *Py_UNUSED (args),
                Py_ssize_t Py_UNUSED (nargs))
{
  leave_exclusive (e->b);
  RETURN_NONE;
}

static PyMethodDef Exclusive_methods[] = {
  { "__enter__", (PyCFunction)Exclusive_enter, METH_NOARGS,
    "hold the context alone (HandleBusy while a call runs)" },
  { "__exit__", (PyCFunction)(void (*) (void))Exclusive_exit, METH_FASTCALL,
    "calls may run again" },
  { NULL },
};

static PyType_Slot Exclusive_slots[] = {
  { Py_tp_dealloc, Exclusive_dealloc },
  { Py_tp_methods, Exclusive_methods },
  { Py_tp_doc, (void *)"with binding.exclusive(): a key change, copy or close" },
  { 0, NULL },
};

static PyType_Spec Exclusive_spec = {
  "gcrylike._fastcall.Exclusive", sizeof (Exclusive), 0, Py_TPFLAGS_DEFAULT, Exclusive_slots,
};

/* rebound(keep, addr): the same hooks on another context (a clone). */
static PyObject *
Binding_rebound (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  Binding *t;
  unsigned long long addr;

  if (nargs != 2)
    return PyErr_Format (PyExc_TypeError, "rebound(keep, addr)");
  addr = PyLong_AsUnsignedLongLong (args[1]);
  if (PyErr_Occurred ())
    return NULL;
  t = (Binding *)PyType_GenericAlloc (BindingType, 0);
  if (!t)
    return NULL;
  t->kind = b->kind;
  t->h = b->h;
  t->ctx = (void *)(uintptr_t)addr;
  t->keep = Py_NewRef (args[0]);
  t->name = Py_NewRef (b->name);
  t->unit = b->unit;
  t->tag = b->tag;
  t->ctx_size = b->ctx_size;
  t->ks_block = b->ks_block;
  t->shared = b->shared;
  t->ready = b->ready;
  t->generation = fork_generation;
  return (PyObject *)t;
}

/* ---- one large stream request over threads ----------------------------------
 * The keystream position of every byte is known: piece 0 (the leftover of
 * the current block plus whole blocks) runs on the context itself, piece k
 * on a copy of the context seeked to the block where it starts; the last
 * piece's copy, which ends where the whole request ends, becomes the
 * context.  locate() first checks that the whole request fits before the
 * counter's end, so no piece can fail and none starts past it. */
typedef struct {
  crypt_fn fn;
  void *ctx;
  uint8_t *dst;
  const uint8_t *src;
  size_t n;
  int rc;
} stream_piece;

GCRY_THREAD_FN (piece_worker, arg)
{
  stream_piece *p = arg;
  p->rc = p->fn (p->ctx, p->dst, p->src, p->n);
  GCRY_THREAD_END;
}

static void
wipe_free (void *p, size_t n)
{
  volatile uint8_t *v = p;
  size_t i;

  if (!p)
    return;
  for (i = 0; i < n; i++)
    v[i] = 0;
  gcry_aligned_free (p);
}

/* Runs without the GIL: only C memory is touched. */
static int
crypt_split (Binding *b, crypt_fn fn, uint8_t *dst, const uint8_t *src, size_t n,
             size_t nthreads)
{
  stream_piece pieces[MAX_THREADS];
  void *clones[MAX_THREADS] = { 0 };
  gcry_thread tid[MAX_THREADS];
  int started[MAX_THREADS];
  size_t ks = (size_t)b->ks_block, span = ((size_t)b->ctx_size + 63) / 64 * 64;
  size_t head, blocks, per, extra, i, at, from;
  uint64_t block;
  unsigned int unused;
  int rc = b->h.stream.locate (b->ctx, n, &block, &unused);

  if (rc)
    return rc;
  head = unused < n ? unused : n;
  blocks = (n - head) / ks;
  if (nthreads > blocks)
    nthreads = blocks;
  if (nthreads < 2)
    return fn (b->ctx, dst, src, n);
  per = blocks / nthreads, extra = blocks % nthreads;
  /* every copy is taken before piece 0 moves the context on */
  for (i = 0, at = 0, from = 0; i < nthreads; i++)
    {
      size_t count = per + (i < extra);
      size_t len = count * ks + (i == 0 ? head : 0) + (i == nthreads - 1 ? (n - head) % ks : 0);
      void *ctx = b->ctx;

      if (i > 0)
        {
          ctx = clones[i] = gcry_aligned_alloc (64, span);
          if (!ctx)
            break;
          memcpy (ctx, b->ctx, (size_t)b->ctx_size);
          if (b->h.stream.seek (ctx, block + at))
            break;
        }
      pieces[i] = (stream_piece){ fn, ctx, dst + from, src + from, len, 0 };
      at += count;
      from += len;
    }
  if (i < nthreads)  /* no memory, or the seek refused: one thread */
    {
      for (i = 1; i < nthreads; i++)
        wipe_free (clones[i], span);
      return fn (b->ctx, dst, src, n);
    }
  for (i = 1; i < nthreads; i++)
    started[i] = gcry_thread_start (&tid[i], piece_worker, &pieces[i]);
  piece_worker (&pieces[0]);
  for (i = 1; i < nthreads; i++)
    {
      if (started[i])
        gcry_thread_join (tid[i]);
      else
        piece_worker (&pieces[i]);
    }
  for (i = 0; i < nthreads; i++)
    if (pieces[i].rc && !rc)
      rc = pieces[i].rc;
  if (!rc)  /* the context continues where the last piece ended */
    memcpy (b->ctx, clones[nthreads - 1], (size_t)b->ctx_size);
  for (i = 1; i < nthreads; i++)
    wipe_free (clones[i], span);
  return rc;
}

/* The crypt hook on N bytes: split over threads when the binding can and
 * the request is large, else one call. */
static inline int
crypt_run (Binding *b, crypt_fn fn, uint8_t *dst, const uint8_t *src, Py_ssize_t n)
{
  size_t threads;

  if (!b->ctx_size || n < split_min || stream_threads < 2)
    return fn (b->ctx, dst, src, (size_t)n);
  threads = (size_t)(n / split_share);
  if (threads > (size_t)stream_threads)
    threads = (size_t)stream_threads;
  return crypt_split (b, fn, dst, src, (size_t)n, threads);
}

/* ---- stream shape: encrypt(data, out=None) / decrypt ---------------------
 * The encrypt (which 0) or decrypt hook of a stream, block or AEAD binding:
 * bytes in -> new bytes; out is data -> in place; out a distinct writable
 * buffer -> written there.  Returns the new bytes or the byte count. */
static PyObject *
crypt_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int which)
{
  int aead = b->kind == KIND_AEAD, ok = aead || b->kind == KIND_STREAM || b->kind == KIND_BLOCK;
  crypt_fn fn;
  PyObject *data, *out, *result;
  Py_buffer src, dst;
  Py_ssize_t n;
  int rc, e;

  if (nargs < 1 || nargs > 2)
    return PyErr_Format (PyExc_TypeError, "expected (data, out)");
  if (!ok)
    return need (b, NULL, which ? "decrypt" : "encrypt");
  fn = aead ? (which ? b->h.aead.decrypt : b->h.aead.encrypt)
            : (which ? b->h.stream.decrypt : b->h.stream.encrypt);
  data = args[0];
  out = nargs == 2 ? args[1] : Py_None;
  if (out == Py_None)
    {
      if (PyObject_GetBuffer (data, &src, PyBUF_SIMPLE) < 0)
        return not_here ();
      n = src.len;
      if (n % b->unit || !(result = PyBytes_FromStringAndSize (NULL, n)))
        {
          PyBuffer_Release (&src);
          return n % b->unit ? not_here () : NULL;
        }
      if ((e = enter_native (b)) != 0)
        {
          PyBuffer_Release (&src);
          Py_DECREF (result);
          return e > 0 ? not_here () : NULL;
        }
      RUN (n, rc = crypt_run (b, fn, bytes_buf (result), src.buf, n));
      leave (b);
      PyBuffer_Release (&src);
      if (rc)
        {
          Py_DECREF (result);
          return fail (rc);
        }
      b->calls++;
      return result;
    }
  if (get_out_buffers (data, out, &src, &dst) < 0)
    return not_here ();
  n = src.len;
  if (dst.len < n || n % b->unit || overlaps (dst.buf, src.buf, n)
      || (e = enter_native (b)) != 0)
    {
      int refused = PyErr_Occurred () != NULL;
      if (out != data)
        PyBuffer_Release (&src);
      PyBuffer_Release (&dst);
      return refused ? NULL : not_here ();
    }
  RUN (n, rc = crypt_run (b, fn, dst.buf, src.buf, n));
  leave (b);
  if (out != data)
    PyBuffer_Release (&src);
  PyBuffer_Release (&dst);
  if (rc)
    return fail (rc);
  b->calls++;
  return PyLong_FromSsize_t (n);
}

static PyObject *
Binding_encrypt (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  return crypt_call (b, args, nargs, 0);
}

static PyObject *
Binding_decrypt (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  return crypt_call (b, args, nargs, 1);
}

/* ---- the handles' data methods with no Python frame -----------------------
 * HandleBase is the C base of every handle class (gcrylike/_keyed.py): its
 * one field is the handle's ``_binding`` slot, so C knows where it lives by
 * construction.
 * native_method(owner, name, op, signature, doc) makes ``owner.<name>``: an
 * ordinary method descriptor of a METH_FASTCALL | METH_KEYWORDS function for
 * operation OP of the Binding.  CPython calls those with neither a bound
 * method nor an argument tuple (3.11 even specialises the call site when the
 * handle is exactly an ``owner``), all within the limited API.  The function
 * reads ``_binding`` and, when the handle made it ``ready``, runs the
 * operation directly when the arguments have the
 * operation's plain form; everything else (no Binding, NotImplemented,
 * other argument forms) goes to the handle's general Python method for the
 * operation, ``_general_<op>`` (the cffi path, which explains refusals).  A
 * hook's error code becomes ``handle._native_error(op, rc)``: the exception
 * to raise, or NotImplemented to let the general method explain. */
typedef struct {
  PyObject_HEAD
  PyObject *binding;      /* the _binding slot; NULL until first set */
} HandleBase;

enum op { OP_ENCRYPT, OP_DECRYPT, OP_UPDATE, OP_READ, OP_SEAL, OP_OPEN, OP_TWEAK_ENCRYPT,
          OP_TWEAK_DECRYPT, OP_SETKEY, NOPS };

static const char *const OP_NAMES[NOPS] = {
  "encrypt", "decrypt", "update", "read", "seal", "open", "tweak_encrypt", "tweak_decrypt",
  "setkey",
};

/* The keyword each operation's plain form may take, NULL for none. */
static const char *const OP_KEYWORD[NOPS] = {
  "out", "out", NULL, NULL, "associated_data", "associated_data", "out", "out", NULL,
};

/* Positional arguments of the plain form: at least, at most. */
static const int OP_ARGS[NOPS][2] = {
  { 1, 1 }, { 1, 1 }, { 1, 1 }, { 0, 0 }, { 2, 3 }, { 2, 3 }, { 2, 2 }, { 2, 2 }, { 1, 1 },
};

static PyObject *general_names[NOPS];  /* "_general_<op>", interned */
static PyObject *setkey_failed_name;   /* "_setkey_failed", interned */
static PyObject *keyword_names[NOPS];  /* OP_KEYWORD, interned as the compiler's are */

static PyObject *Binding_update (Binding *b, PyObject *data);
static PyObject *Binding_read (Binding *b, PyObject *unused);
static PyObject *seal_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int opening);
static PyObject *tweak_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int which);
static PyObject *setkey_call (Binding *b, PyObject *self, PyObject *key);

static int
HandleBase_traverse (HandleBase *h, visitproc visit, void *arg)
{
  Py_VISIT (Py_TYPE ((PyObject *)h));  /* heap types: instances keep theirs alive */
  Py_VISIT (h->binding);
  return 0;
}

static int
HandleBase_clear (HandleBase *h)
{
  Py_CLEAR (h->binding);
  return 0;
}

/* Also the last step of every handle subclass's dealloc (subtype_dealloc
 * calls it; the base being a heap type, the type's reference is ours to
 * drop). */
static void
HandleBase_dealloc (HandleBase *h)
{
  PyTypeObject *type = Py_TYPE ((PyObject *)h);

  PyObject_GC_UnTrack (h);
  Py_CLEAR (h->binding);
  PyObject_GC_Del (h);
  Py_DECREF (type);
}

/* self._general_<op>(*args, **kwnames): the slow path, so a tuple and a
 * dict are fine here. */
static PyObject *
call_general (enum op op, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
  Py_ssize_t nkw = kwnames ? PyTuple_Size (kwnames) : 0, i;
  PyObject *method, *pos, *kw = NULL, *result = NULL;

  if (!(method = PyObject_GetAttr (self, general_names[op])))
    return NULL;
  if (!(pos = PyTuple_New (nargs)))
    {
      Py_DECREF (method);
      return NULL;
    }
  for (i = 0; i < nargs; i++)
    PyTuple_SetItem (pos, i, Py_NewRef (args[i]));
  if (nkw)
    {
      if (!(kw = PyDict_New ()))
        goto done;
      for (i = 0; i < nkw; i++)
        if (PyDict_SetItem (kw, PyTuple_GetItem (kwnames, i), args[nargs + i]) < 0)
          goto done;
    }
  result = PyObject_Call (method, pos, kw);
done:
  Py_DECREF (method);
  Py_DECREF (pos);
  Py_XDECREF (kw);
  return result;
}

/* The pending Failure(rc) becomes self._native_error(op, rc): an exception
 * raised here (NULL), or NotImplemented returned (the general path then
 * explains). */
static PyObject *
native_error (PyObject *self, enum op op)
{
  PyObject *type, *value, *tb, *args, *exc = NULL;

  PyErr_Fetch (&type, &value, &tb);
  PyErr_NormalizeException (&type, &value, &tb);
  args = value ? PyObject_GetAttrString (value, "args") : NULL;
  if (args && PyTuple_Size (args) == 1)
    exc = PyObject_CallMethod (self, "_native_error", "sO", OP_NAMES[op],
                               PyTuple_GetItem (args, 0));
  else if (args)
    PyErr_SetString (PyExc_SystemError, "gcrylike._fastcall: Failure without a code");
  Py_XDECREF (args);
  Py_XDECREF (type);
  Py_XDECREF (value);
  Py_XDECREF (tb);
  if (!exc || exc == Py_NotImplemented)
    return exc;
  PyErr_SetObject ((PyObject *)Py_TYPE (exc), exc);
  Py_DECREF (exc);
  return NULL;
}

/* Whether ARGS is OP's plain form: its positional count, and at most its
 * one keyword. */
static int
plain_form (enum op op, Py_ssize_t nargs, PyObject *kwnames)
{
  PyObject *kw;

  if (nargs < OP_ARGS[op][0] || nargs > OP_ARGS[op][1])
    return 0;
  if (!kwnames)
    return 1;
  if (!OP_KEYWORD[op] || PyTuple_Size (kwnames) != 1
      || nargs + 1 > OP_ARGS[op][1] + (op == OP_SEAL || op == OP_OPEN ? 0 : 1))
    return 0;
  kw = PyTuple_GetItem (kwnames, 0);
  return kw == keyword_names[op]  /* interned: the usual case */
         || PyUnicode_CompareWithASCIIString (kw, OP_KEYWORD[op]) == 0;
}

/* OP on binding B of handle SELF with the plain-form ARGS (keyword value
 * after them). */
static PyObject *
run_op (Binding *b, PyObject *self, enum op op, PyObject *const *args, Py_ssize_t nargs,
        PyObject *kwnames)
{
  PyObject *a[3];
  Py_ssize_t given = nargs + (kwnames ? 1 : 0);

  switch (op)
    {
    case OP_ENCRYPT:
    case OP_DECRYPT:
      a[0] = args[0], a[1] = given == 2 ? args[1] : Py_None;
      return crypt_call (b, a, 2, op == OP_DECRYPT);
    case OP_UPDATE:
      return Binding_update (b, args[0]);
    case OP_READ:
      return Binding_read (b, NULL);
    case OP_SEAL:
    case OP_OPEN:
      if (b->kind == KIND_BOX && given == 3)
        RETURN_NOTIMPLEMENTED;  /* a box has no associated data: the general path says so */
      a[0] = args[0], a[1] = args[1], a[2] = given == 3 ? args[2] : Py_None;
      return seal_call (b, a, b->kind == KIND_SEAL ? 3 : 2, op == OP_OPEN);
    case OP_TWEAK_ENCRYPT:
    case OP_TWEAK_DECRYPT:
      a[0] = args[0], a[1] = args[1], a[2] = given == 3 ? args[2] : Py_None;
      return tweak_call (b, a, 3, op == OP_TWEAK_DECRYPT);
    case OP_SETKEY:
      return setkey_call (b, self, args[0]);
    default:
      return PyErr_Format (PyExc_SystemError, "bad operation");
    }
}

/* self is an instance of the descriptor's owner, a HandleBase subclass
 * (the method descriptor checks it before the call; native_method checks
 * the owner). */
static PyObject *
handle_call (PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             enum op op)
{
  PyObject *fc = ((HandleBase *)self)->binding, *result;

  if (fc != NULL && Py_IS_TYPE (fc, BindingType) && ((Binding *)fc)->ready
      && plain_form (op, nargs, kwnames))
    {
      Py_INCREF (fc);  /* the handle's reference may go meanwhile (buffer exports run code) */
      result = run_op ((Binding *)fc, self, op, args, nargs, kwnames);
      Py_DECREF (fc);
      if (result == NULL && PyErr_ExceptionMatches (Failure))
        result = native_error (self, op);
      if (result != Py_NotImplemented)
        return result;
      Py_DECREF (result);
    }
  return call_general (op, self, args, nargs, kwnames);
}

#define HANDLE_OP(fn, op)                                                               \
  static PyObject *fn (PyObject *self, PyObject *const *args, Py_ssize_t nargs,         \
                       PyObject *kwnames)                                               \
  {                                                                                     \
    return handle_call (self, args, nargs, kwnames, op);                                \
  }
HANDLE_OP (handle_encrypt, OP_ENCRYPT)
HANDLE_OP (handle_decrypt, OP_DECRYPT)
HANDLE_OP (handle_update, OP_UPDATE)
HANDLE_OP (handle_read, OP_READ)
HANDLE_OP (handle_seal, OP_SEAL)
HANDLE_OP (handle_open, OP_OPEN)
HANDLE_OP (handle_tweak_encrypt, OP_TWEAK_ENCRYPT)
HANDLE_OP (handle_tweak_decrypt, OP_TWEAK_DECRYPT)
HANDLE_OP (handle_setkey, OP_SETKEY)

static PyObject *(*const HANDLE_OPS[NOPS]) (PyObject *, PyObject *const *, Py_ssize_t,
                                            PyObject *) = {
  handle_encrypt, handle_decrypt, handle_update, handle_read,
  handle_seal, handle_open, handle_tweak_encrypt, handle_tweak_decrypt, handle_setkey,
};

/* A method's definition and the text it points to, in one allocation that
 * lives as long as the process: the descriptor refers to it and keeps no
 * reference (one per handle class that has the method). */
typedef struct {
  PyMethodDef def;
  char text[];
} MethodText;

/* native_method(owner, name, op, signature, doc): owner.<name> as a method
 * descriptor running operation OP (one of OPS); SIGNATURE ("($self, data,
 * *, out=None)") is what help(), inspect and Sphinx read (CPython's
 * convention: the docstring's first line, then "--" and a blank line). */
static PyObject *
fc_native_method (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  const char *name, *op_name, *sig, *doc;
  Py_ssize_t nlen, slen, dlen;
  int op;
  MethodText *m;
  PyObject *descr;
  size_t at;

  if (nargs != 5 || !PyType_Check (args[0])
      || !PyType_IsSubtype ((PyTypeObject *)args[0], HandleBaseType))
    return PyErr_Format (PyExc_TypeError, "native_method(owner, name, op, signature, doc): "
                         "owner must subclass HandleBase");
  if (!(name = PyUnicode_AsUTF8AndSize (args[1], &nlen))
      || !(op_name = PyUnicode_AsUTF8AndSize (args[2], NULL))
      || !(sig = PyUnicode_AsUTF8AndSize (args[3], &slen))
      || !(doc = PyUnicode_AsUTF8AndSize (args[4], &dlen)))
    return NULL;
  for (op = 0; op < NOPS && strcmp (op_name, OP_NAMES[op]); op++)
    ;
  if (op == NOPS)
    return PyErr_Format (PyExc_ValueError, "no operation %s", op_name);
  /* text: name NUL name signature "\n--\n\n" doc NUL */
  m = PyMem_Calloc (1, sizeof *m + 2 * (size_t)nlen + (size_t)slen + 6 + (size_t)dlen + 1);
  if (!m)
    return PyErr_NoMemory ();
  memcpy (m->text, name, (size_t)nlen);
  at = (size_t)nlen + 1;
  memcpy (m->text + at, name, (size_t)nlen), at += (size_t)nlen;
  memcpy (m->text + at, sig, (size_t)slen), at += (size_t)slen;
  memcpy (m->text + at, "\n--\n\n", 5), at += 5;
  memcpy (m->text + at, doc, (size_t)dlen);
  m->def.ml_name = m->text;
  m->def.ml_meth = (PyCFunction)(void (*) (void))HANDLE_OPS[op];
  m->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
  m->def.ml_doc = m->text + nlen + 1;
  if (!(descr = PyDescr_NewMethod ((PyTypeObject *)args[0], &m->def)))
    PyMem_Free (m);             /* nothing refers to it */
  return descr;
}

/* The interned names native methods use. */
static int
intern_op_names (void)
{
  int op;

  if (!setkey_failed_name
      && !(setkey_failed_name = PyUnicode_InternFromString ("_setkey_failed")))
    return -1;
  for (op = 0; op < NOPS; op++)
    {
      if (!general_names[op]
          && !(general_names[op] = PyUnicode_FromFormat ("_general_%s", OP_NAMES[op])))
        return -1;
      PyUnicode_InternInPlace (&general_names[op]);
      if (OP_KEYWORD[op] && !keyword_names[op]
          && !(keyword_names[op] = PyUnicode_InternFromString (OP_KEYWORD[op])))
        return -1;
    }
  return 0;
}

static PyMemberDef HandleBase_members[] = {
  { "_binding", T_OBJECT_EX, offsetof (HandleBase, binding), 0,
    "the handle's Binding: its gate and native path (gcrylike/_fast.py)" },
  { NULL },
};

static PyType_Slot HandleBase_slots[] = {
  { Py_tp_dealloc, HandleBase_dealloc },
  { Py_tp_traverse, HandleBase_traverse },
  { Py_tp_clear, HandleBase_clear },
  { Py_tp_members, HandleBase_members },
  { Py_tp_doc, (void *)"The C base of every handle class: the _binding slot the native "
                       "encrypt/decrypt read" },
  { 0, NULL },
};

static PyType_Spec HandleBase_spec = {
  "gcrylike._fastcall.HandleBase", sizeof (HandleBase), 0,
  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, HandleBase_slots,
};

/* update(data): a MAC's update or an AEAD's authenticate. */
static PyObject *
Binding_update (Binding *b, PyObject *data)
{
  update_fn fn = b->kind == KIND_MAC ? b->h.mac.update
                 : b->kind == KIND_AEAD ? b->h.aead.authenticate : NULL;
  Py_buffer src;
  int rc, e;

  if (!need (b, (void *)fn, "update"))
    return NULL;
  if (PyObject_GetBuffer (data, &src, PyBUF_SIMPLE) < 0)
    return not_here ();
  if ((e = enter_native (b)) != 0)
    {
      PyBuffer_Release (&src);
      return e > 0 ? not_here () : NULL;
    }
  RUN (src.len, rc = fn (b->ctx, src.buf, (size_t)src.len));
  leave (b);
  PyBuffer_Release (&src);
  if (rc)
    return fail (rc);
  b->calls++;
  RETURN_NONE;
}

/* read(): a MAC's digest or an AEAD's tag, ``tag`` bytes into new bytes. */
static PyObject *
Binding_read (Binding *b, PyObject *Py_UNUSED (unused))
{
  read_fn fn = b->kind == KIND_MAC ? b->h.mac.read
               : b->kind == KIND_AEAD ? b->h.aead.gettag : NULL;
  PyObject *result;
  int rc, e;

  if (!need (b, (void *)fn, "read"))
    return NULL;
  if (!(result = PyBytes_FromStringAndSize (NULL, b->tag)))
    return NULL;
  if ((e = enter_native (b)) != 0)
    {
      Py_DECREF (result);
      return e > 0 ? not_here () : NULL;
    }
  rc = fn (b->ctx, bytes_buf (result), (size_t)b->tag);
  leave (b);
  if (rc)
    {
      Py_DECREF (result);
      return fail (rc);
    }
  b->calls++;
  return result;
}

/* ---- setkey(key): a MAC's re-key without leaving C ---------------------------
 * The general setkey (gcrylike/_keyed.py) checks the key length, runs the
 * first-use self-test gate, holds the context, calls the spec's setkey
 * hook and saves the post-setkey copy; when the hook is native it then
 * calls allow_setkey(token, key_sizes, size, saved), and later setkeys of
 * the handle take this path while it stays ready (keyed, not finished:
 * a re-key leaves it so) and no self-test result has changed since: the
 * key buffer first, its length checked, the context held exclusively, the
 * hook, the copy saved.  Anything else goes to the general path, which
 * explains.  If the hook refuses the key, the handle's _setkey_failed()
 * runs with the context still held (it forgets the key and wipes the live
 * state, as the general path does), then the general path says why. */
static PyObject *
setkey_call (Binding *b, PyObject *self, PyObject *key)
{
  setkey_fn fn = b->kind == KIND_MAC ? b->h.mac.setkey : NULL;
  Py_buffer k;
  Py_ssize_t i;
  PyObject *forgot;
  int rc;

  if (b->kind != KIND_MAC)
    {
      need (b, NULL, "setkey");
      return NULL;
    }
  if (!fn)  /* optional: a setkey hook written in Python runs on the general path */
    RETURN_NOTIMPLEMENTED;
  if (PyObject_GetBuffer (key, &k, PyBUF_SIMPLE) < 0)
    return not_here ();
  for (i = 0; i < b->nkey_sizes && b->key_sizes[i] != k.len; i++)
    ;
  if (i == b->nkey_sizes || !copy_secret)
    {
      PyBuffer_Release (&k);
      return not_here ();
    }
  if (enter_exclusive (b) < 0)
    {
      PyBuffer_Release (&k);
      return NULL;
    }
  /* checked while held: the buffer export could have closed the handle,
   * finished it or changed its key */
  if (!b->ctx || !b->ready || !b->rekey || b->rekey_epoch != selftest_epoch)
    {
      leave_exclusive (b);
      PyBuffer_Release (&k);
      return not_here ();
    }
  rc = fn (b->ctx, k.buf, (size_t)k.len, b->token);
  PyBuffer_Release (&k);
  if (rc)
    {
      b->ready = 0;
      forgot = PyObject_CallMethodObjArgs (self, setkey_failed_name, NULL);
      leave_exclusive (b);
      if (!forgot)
        return NULL;
      Py_DECREF (forgot);
      RETURN_NOTIMPLEMENTED;
    }
  if (b->saved)
    copy_secret (b->saved, b->ctx, (size_t)b->state_size);
  leave_exclusive (b);
  b->calls++;
  RETURN_NONE;
}

/* allow_setkey(token, key_sizes, size, saved): after a general setkey with
 * a native hook (held exclusively): the token, the spec's key sizes and
 * the context's size and copy address (0: none) the native setkey uses,
 * under the current self-test epoch.  More key sizes than MAX_KEY_SIZES
 * leave it on the general path. */
static PyObject *
Binding_allow_setkey (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  unsigned long token;
  unsigned long long saved;
  Py_ssize_t size, n, i;

  if (nargs != 4 || !PyTuple_Check (args[1]))
    return PyErr_Format (PyExc_TypeError, "allow_setkey(token, key_sizes, size, saved)");
  token = PyLong_AsUnsignedLong (args[0]);
  size = PyLong_AsSsize_t (args[2]);
  saved = PyLong_AsUnsignedLongLong (args[3]);
  if (PyErr_Occurred ())
    return NULL;
  if (token > UINT_MAX || size < 0)
    return PyErr_Format (PyExc_OverflowError, "allow_setkey: token or size out of range");
  n = PyTuple_Size (args[1]);
  b->rekey = 0;
  if (n > MAX_KEY_SIZES)
    RETURN_NONE;
  for (i = 0; i < n; i++)
    {
      b->key_sizes[i] = PyLong_AsSsize_t (PyTuple_GetItem (args[1], i));
      if (b->key_sizes[i] < 0)
        return PyErr_Occurred () ? NULL : PyErr_Format (PyExc_ValueError, "bad key size");
    }
  b->nkey_sizes = n;
  b->token = (unsigned int)token;
  b->state_size = size;
  b->saved = (void *)(uintptr_t)saved;
  b->rekey_epoch = selftest_epoch;
  b->rekey = 1;
  RETURN_NONE;
}

/* ---- one-shot sealing: seal(nonce, data, aad) / open -----------------------
 * A seal binding (AEAD: three arguments, aad None for none) or a box binding
 * (secretbox: two).  The result is n + unit bytes
 * (seal) or n - unit (open).  Open hooks verify the tag before they write
 * plaintext and wipe the output on failure; the bytes object is then freed
 * without being returned. */
static PyObject *
seal_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int opening)
{
  Py_buffer nonce, src, aad;
  PyObject *result = NULL;
  Py_ssize_t n, outlen;
  int rc, with_aad = b->kind == KIND_SEAL;
  void *fn = with_aad ? (void *)(opening ? b->h.seal.open : b->h.seal.seal)
             : b->kind == KIND_BOX ? (void *)(opening ? b->h.box.open : b->h.box.seal) : NULL;

  if (!need (b, fn, opening ? "open" : "seal"))
    return NULL;
  if (nargs != 2 + with_aad)
    return PyErr_Format (PyExc_TypeError, with_aad ? "expected (nonce, data, aad)"
                                                   : "expected (nonce, data)");
  if (PyObject_GetBuffer (args[0], &nonce, PyBUF_SIMPLE) < 0)
    return not_here ();
  if (PyObject_GetBuffer (args[1], &src, PyBUF_SIMPLE) < 0)
    {
      PyBuffer_Release (&nonce);
      return not_here ();
    }
  aad.buf = NULL, aad.len = 0, aad.obj = NULL;
  if (with_aad && args[2] != Py_None && PyObject_GetBuffer (args[2], &aad, PyBUF_SIMPLE) < 0)
    goto general;
  n = src.len;
  if (opening && n < b->tag)
    goto general;  /* shorter than the tag: the general path says so */
  outlen = opening ? n - b->tag : n + b->tag;
  if (!(result = PyBytes_FromStringAndSize (NULL, outlen)))
    goto done;
  /* the hooks copy the keyed context (shared binding): calls may overlap */
  if ((rc = enter_native (b)) != 0)
    {
      Py_CLEAR (result);
      if (rc > 0)
        goto general;
      goto done;
    }
  if (with_aad)
    RUN (n, rc = ((aead_fn)fn) (b->ctx, nonce.buf, (size_t)nonce.len,
                                aad.buf ? aad.buf : (void *)"", (size_t)aad.len, src.buf,
                                (size_t)n, bytes_buf (result)));
  else
    RUN (n, rc = ((box_fn)fn) (b->ctx, nonce.buf, (size_t)nonce.len, src.buf, (size_t)n,
                               bytes_buf (result)));
  leave (b);
  if (rc)
    {
      Py_CLEAR (result);
      fail (rc);
    }
  else
    b->calls++;
  goto done;

general:
  result = not_here ();
done:
  if (aad.obj)
    PyBuffer_Release (&aad);
  PyBuffer_Release (&src);
  PyBuffer_Release (&nonce);
  return result;
}

static PyObject *
Binding_seal (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  return seal_call (b, args, nargs, 0);
}

static PyObject *
Binding_open (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  return seal_call (b, args, nargs, 1);
}

/* ---- tweakable: tweak_crypt(which, data, tweak, out) ---------------------- */
static PyObject *
tweak_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int which)
{
  tweak_fn fn = b->kind != KIND_TWEAK ? NULL : which ? b->h.tweak.decrypt : b->h.tweak.encrypt;
  PyObject *data, *out, *result = NULL;
  Py_buffer src, dst, tweak;
  Py_ssize_t n;
  int rc;

  if (!need (b, (void *)fn, which ? "decrypt" : "encrypt"))
    return NULL;
  if (nargs != 3)
    return PyErr_Format (PyExc_TypeError, "expected (data, tweak, out)");
  data = args[0], out = args[2];
  if (PyObject_GetBuffer (args[1], &tweak, PyBUF_SIMPLE) < 0)
    return not_here ();
  if (out == Py_None)
    {
      if (PyObject_GetBuffer (data, &src, PyBUF_SIMPLE) < 0)
        goto no_src;
      if (!(result = PyBytes_FromStringAndSize (NULL, src.len)))
        goto release_src;
      dst.buf = bytes_buf (result), dst.len = src.len, dst.obj = NULL;
    }
  else
    {
      if (get_out_buffers (data, out, &src, &dst) < 0)
        goto no_src;
      if (dst.len < src.len || overlaps (dst.buf, src.buf, src.len))
        {
          result = not_here ();
          goto release_all;
        }
    }
  n = src.len;
  if ((rc = enter_native (b)) != 0)
    {
      Py_CLEAR (result);
      if (rc > 0)
        result = not_here ();
      goto release_all;
    }
  RUN (n, rc = fn (b->ctx, dst.buf, src.buf, (size_t)n, tweak.buf, (size_t)tweak.len));
  leave (b);
  if (rc)
    {
      Py_CLEAR (result);
      fail (rc);
    }
  else
    {
      b->calls++;
      if (out != Py_None)
        result = PyLong_FromSsize_t (n);
    }
release_all:
  if (dst.obj)
    PyBuffer_Release (&dst);
release_src:
  if (src.obj)
    PyBuffer_Release (&src);
  PyBuffer_Release (&tweak);
  return result;
no_src:
  PyBuffer_Release (&tweak);
  return not_here ();
}

static PyObject *
Binding_tweak_encrypt (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  return tweak_call (b, args, nargs, 0);
}

static PyObject *
Binding_tweak_decrypt (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  return tweak_call (b, args, nargs, 1);
}

/* ---- sector batches over threads ------------------------------------------
 * sectors(buf, sector_size, first, encrypting, threads): fn[2] on the whole
 * batch, split into contiguous runs of sectors, one per thread, when the
 * binding is shared (the hook only reads the context, so runs are
 * independent: each sector's result depends on its own bytes and number
 * only) and the batch is large enough.  The calling thread runs the first
 * run itself.  It checks what the Python method would (exact ints, threads
 * 1..64, sector_size at least the binding's unit, the minimum message, and
 * sector numbers within 64 bits) and gives up on anything else, so that
 * encrypt_sectors tries it first and explains refusals on its own path. */
typedef struct {
  sectors_fn fn;
  void *ctx;
  uint8_t *buf;
  size_t nsectors, sector_size;
  uint64_t first;
  int encrypting, rc;
} sector_run;

GCRY_THREAD_FN (sector_worker, arg)
{
  sector_run *r = arg;
  r->rc = r->fn (r->ctx, r->buf, r->nsectors, r->sector_size, r->first, r->encrypting);
  GCRY_THREAD_END;
}

/* Run the NRUNS runs of RUNS on NRUNS threads (this one included); the
 * first error code, or 0.  A thread that cannot be started runs here. */
static int
run_sectors (sector_run *runs, size_t nruns)
{
  gcry_thread tid[MAX_THREADS];
  int started[MAX_THREADS];
  size_t i;
  int rc = 0;

  for (i = 1; i < nruns; i++)
    started[i] = gcry_thread_start (&tid[i], sector_worker, &runs[i]);
  sector_worker (&runs[0]);
  for (i = 1; i < nruns; i++)
    {
      if (started[i])
        gcry_thread_join (tid[i]);
      else
        sector_worker (&runs[i]);
    }
  for (i = 0; i < nruns; i++)
    if (runs[i].rc && !rc)
      rc = runs[i].rc;
  return rc;
}

static PyObject *
Binding_sectors (Binding *b, PyObject *const *args, Py_ssize_t nargs)
{
  sector_run runs[MAX_THREADS];
  Py_buffer buf;
  Py_ssize_t sector_size, threads;
  unsigned long long first;
  size_t nsectors, nruns, per, extra, i, at;
  int encrypting, rc;
  sectors_fn fn = b->kind == KIND_TWEAK ? b->h.tweak.sectors : NULL;

  if (!need (b, (void *)fn, "sectors"))
    return NULL;
  if (nargs != 5)
    return PyErr_Format (PyExc_TypeError,
                         "expected (buf, sector_size, first, encrypting, threads)");
  if (!PyLong_CheckExact (args[1]) || !PyLong_CheckExact (args[2])
      || !PyLong_CheckExact (args[4]))
    return not_here ();
  sector_size = PyLong_AsSsize_t (args[1]);
  first = PyLong_AsUnsignedLongLong (args[2]);      /* negative or >= 2^64: overflow */
  threads = PyLong_AsSsize_t (args[4]);
  if (PyErr_Occurred ())
    return not_here ();
  encrypting = PyObject_IsTrue (args[3]);
  if (encrypting < 0)
    return NULL;
  if (sector_size < b->unit || threads < 1 || threads > MAX_THREADS
      || PyObject_GetBuffer (args[0], &buf, PyBUF_WRITABLE) < 0)
    return not_here ();
  nsectors = (size_t)(buf.len / sector_size);
  if (buf.len % sector_size || (nsectors && nsectors - 1 > UINT64_MAX - first))
    {
      PyBuffer_Release (&buf);
      return not_here ();
    }
  nruns = b->shared && threads > 1 ? (size_t)threads : 1;
  if (nruns > MAX_THREADS)
    nruns = MAX_THREADS;
  /* enough bytes per thread to pay for starting it */
  if (nruns > 1 && (size_t)buf.len / nruns < (size_t)min_bytes_per_thread)
    nruns = (size_t)buf.len / (size_t)min_bytes_per_thread;
  if (nruns > nsectors)
    nruns = nsectors;
  if (nruns < 1)
    nruns = 1;
  if ((rc = enter_native (b)) != 0)  /* the context is read below: after the buffer */
    {
      PyBuffer_Release (&buf);
      return rc > 0 ? not_here () : NULL;
    }
  per = nsectors / nruns, extra = nsectors % nruns;
  for (i = 0, at = 0; i < nruns; i++)
    {
      size_t count = per + (i < extra);
      runs[i] = (sector_run){ fn, b->ctx, (uint8_t *)buf.buf + at * sector_size, count,
                              (size_t)sector_size, first + at, encrypting, 0 };
      at += count;
    }
  RUN (buf.len, rc = run_sectors (runs, nruns));
  leave (b);
  PyBuffer_Release (&buf);
  if (rc)
    return fail (rc);
  b->calls++;
  return PyLong_FromSize_t (nruns);
}

static PyObject *
Binding_get_users (Binding *b, void *Py_UNUSED (closure))
{
  after_fork_check (b);
  return PyLong_FromSsize_t (b->users);
}

static PyObject *
Binding_get_calls (Binding *b, void *Py_UNUSED (closure))
{
  return PyLong_FromUnsignedLongLong (b->calls);
}

static PyObject *
Binding_get_busy (Binding *b, void *Py_UNUSED (closure))
{
  after_fork_check (b);
  return PyBool_FromLong (b->users && (!b->shared || b->excl));
}

static PyObject *
Binding_get_ready (Binding *b, void *Py_UNUSED (closure))
{
  return PyBool_FromLong (b->ready);
}

/* ready = True only where the kind has native hooks (a gate has none). */
static int
Binding_set_ready (Binding *b, PyObject *value, void *Py_UNUSED (closure))
{
  int ready = value ? PyObject_IsTrue (value) : 0;

  if (ready < 0)
    return -1;
  b->ready = ready && b->kind != KIND_GATE;
  return 0;
}

static PyObject *
Binding_get_kind (Binding *b, void *Py_UNUSED (closure))
{
  return PyUnicode_FromString (KIND_DEFS[b->kind].name);
}

static PyObject *
Binding_get_attached (Binding *b, void *Py_UNUSED (closure))
{
  return PyBool_FromLong (b->ctx != NULL);
}

static PyMethodDef Binding_methods[] = {
  { "encrypt", (PyCFunction)(void (*) (void))Binding_encrypt, METH_FASTCALL,
    "encrypt(data, out=None): stream, block and aead bindings" },
  { "decrypt", (PyCFunction)(void (*) (void))Binding_decrypt, METH_FASTCALL,
    "decrypt(data, out=None): stream, block and aead bindings" },
  { "update", (PyCFunction)Binding_update, METH_O,
    "update(data): a MAC's update, an AEAD's authenticate" },
  { "read", (PyCFunction)Binding_read, METH_NOARGS,
    "read(): a MAC's digest, an AEAD's tag, as new bytes" },
  { "seal", (PyCFunction)(void (*) (void))Binding_seal, METH_FASTCALL,
    "seal(nonce, data, aad) (seal binding) or seal(nonce, data) (box binding)" },
  { "open", (PyCFunction)(void (*) (void))Binding_open, METH_FASTCALL,
    "open(nonce, data, aad) (seal binding) or open(nonce, data) (box binding)" },
  { "tweak_encrypt", (PyCFunction)(void (*) (void))Binding_tweak_encrypt, METH_FASTCALL,
    "tweak_encrypt(data, tweak, out): tweak bindings" },
  { "tweak_decrypt", (PyCFunction)(void (*) (void))Binding_tweak_decrypt, METH_FASTCALL,
    "tweak_decrypt(data, tweak, out): tweak bindings" },
  { "sectors", (PyCFunction)(void (*) (void))Binding_sectors, METH_FASTCALL,
    "sectors(buf, sector_size, first, encrypting, threads): threads used" },
  { "detach", (PyCFunction)Binding_detach, METH_NOARGS, "forget the context (close)" },
  { "__enter__", (PyCFunction)Binding_enter, METH_NOARGS,
    "enter the context for one cffi-path call: its cffi pointer" },
  { "__exit__", (PyCFunction)(void (*) (void))Binding_exit, METH_FASTCALL, "leave it" },
  { "exclusive", (PyCFunction)Binding_exclusive, METH_NOARGS,
    "with binding.exclusive(): no call runs or starts (HandleBusy if one runs)" },
  { "rebound", (PyCFunction)(void (*) (void))Binding_rebound, METH_FASTCALL,
    "rebound(keep, addr): the same hooks on another context" },
  { "allow_setkey", (PyCFunction)(void (*) (void))Binding_allow_setkey, METH_FASTCALL,
    "allow_setkey(token, key_sizes, size, saved): later setkeys may run natively" },
  { NULL },
};

static PyGetSetDef Binding_getset[] = {
  { "users", (getter)Binding_get_users, NULL, "calls running now", NULL },
  { "calls", (getter)Binding_get_calls, NULL, "successful fast calls", NULL },
  { "busy", (getter)Binding_get_busy, NULL, "an exclusive call runs now", NULL },
  { "attached", (getter)Binding_get_attached, NULL, "whether a context is bound", NULL },
  { "kind", (getter)Binding_get_kind, NULL, "which hooks it holds (KINDS)", NULL },
  { "ready", (getter)Binding_get_ready, (setter)Binding_set_ready,
    "data calls take the native path (the handle sets it: key, nonce in place)", NULL },
  { NULL },
};

static PyType_Slot Binding_slots[] = {
  { Py_tp_new, Binding_new },
  { Py_tp_dealloc, Binding_dealloc },
  { Py_tp_methods, Binding_methods },
  { Py_tp_getset, Binding_getset },
  { Py_tp_doc, (void *)"Binding(name, kind, keep, ctx_addr, hook_addrs, unit, tag, shared"
                       "[, ctx_size, ks_block]): a context, its hooks and its gate" },
  { 0, NULL },
};

static PyType_Spec Binding_spec = {
  "gcrylike._fastcall.Binding", sizeof (Binding), 0, Py_TPFLAGS_DEFAULT, Binding_slots,
};

/* ---- module functions ------------------------------------------------------ */

/* mac(fn_addr, key, data, digest_size, token): a one-shot MAC hook. */
static PyObject *
fc_mac (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  mac_fn fn;
  Py_buffer key, msg;
  PyObject *result;
  Py_ssize_t size;
  unsigned long token;
  int rc;

  if (nargs != 5)
    return PyErr_Format (PyExc_TypeError, "expected (fn, key, data, size, token)");
  fn = (mac_fn)PyLong_AsVoidPtr (args[0]);
  size = PyLong_AsSsize_t (args[3]);
  token = PyLong_AsUnsignedLong (args[4]);
  if (PyErr_Occurred ())
    return NULL;
  if (PyObject_GetBuffer (args[1], &key, PyBUF_SIMPLE) < 0)
    return not_here ();
  if (PyObject_GetBuffer (args[2], &msg, PyBUF_SIMPLE) < 0)
    {
      PyBuffer_Release (&key);
      return not_here ();
    }
  result = PyBytes_FromStringAndSize (NULL, size);
  if (result)
    {
      RUN (msg.len, rc = fn (key.buf, (size_t)key.len, msg.buf, (size_t)msg.len,
                             bytes_buf (result), (unsigned int)token));
      if (rc)
        {
          Py_CLEAR (result);
          fail (rc);
        }
    }
  PyBuffer_Release (&msg);
  PyBuffer_Release (&key);
  return result;
}

static PyObject *
fc_set_errors (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  if (nargs != 2)
    return PyErr_Format (PyExc_TypeError, "set_errors(HandleBusy, HandleClosed)");
  Py_XDECREF (Busy);
  Py_XDECREF (Closed);
  Busy = Py_NewRef (args[0]);
  Closed = Py_NewRef (args[1]);
  RETURN_NONE;
}

/* set_copy_secret(addr): the core's gcry_copy_secret, for context copies. */
static PyObject *
fc_set_copy_secret (PyObject *Py_UNUSED (mod), PyObject *arg)
{
  void *fn = PyLong_AsVoidPtr (arg);

  if (PyErr_Occurred ())
    return NULL;
  copy_secret = (copy_fn)fn;
  RETURN_NONE;
}

/* selftests_changed(): a self-test result was recorded or forgotten: the
 * next setkey of every handle takes the general path (its gate). */
static PyObject *
fc_selftests_changed (PyObject *Py_UNUSED (mod), PyObject *Py_UNUSED (unused))
{
  selftest_epoch++;
  RETURN_NONE;
}

/* after_fork(): in a fork() child (os.register_at_fork): every count taken
 * before is void, as the calls it counted do not run here. */
static PyObject *
fc_after_fork (PyObject *Py_UNUSED (mod), PyObject *Py_UNUSED (unused))
{
  fork_generation++;
  RETURN_NONE;
}

/* KINDS: {kind name: (kind id, ((hook name, C type, optional), ...))}. */
static PyObject *
kinds_table (void)
{
  PyObject *table = PyDict_New ();
  int k, i;

  for (k = 0; table && k < NKINDS; k++)
    {
      PyObject *hooks_list = PyList_New (0), *entry = NULL;

      for (i = 0; hooks_list && i < MAX_HOOKS && KIND_DEFS[k].hook[i].name; i++)
        {
          const hook_def *d = &KIND_DEFS[k].hook[i];
          PyObject *t = Py_BuildValue ("(ssO)", d->name, d->ctype,
                                       d->optional ? Py_True : Py_False);
          if (!t || PyList_Append (hooks_list, t) < 0)
            Py_CLEAR (hooks_list);
          Py_XDECREF (t);
        }
      if (hooks_list)
        entry = Py_BuildValue ("(iN)", k, PyList_AsTuple (hooks_list));
      Py_XDECREF (hooks_list);
      if (!entry || PyDict_SetItemString (table, KIND_DEFS[k].name, entry) < 0)
        Py_CLEAR (table);
      Py_XDECREF (entry);
    }
  return table;
}

static PyObject *
fc_set_gil_threshold (PyObject *Py_UNUSED (mod), PyObject *arg)
{
  Py_ssize_t n = PyLong_AsSsize_t (arg), old = gil_threshold;
  if (n == -1 && PyErr_Occurred ())
    return NULL;
  gil_threshold = n < 0 ? 0 : n;
  return PyLong_FromSsize_t (old);
}

/* set_threads(n): threads a large stream request may use; returns the old. */
static PyObject *
fc_set_threads (PyObject *Py_UNUSED (mod), PyObject *arg)
{
  Py_ssize_t n = PyLong_AsSsize_t (arg), old = stream_threads;
  if (n == -1 && PyErr_Occurred ())
    return NULL;
  stream_threads = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
  return PyLong_FromSsize_t (old);
}

/* set_split(min, share): split stream requests of at least MIN bytes, each
 * thread taking at least SHARE; returns the old pair (tests lower them). */
static PyObject *
fc_set_split (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  Py_ssize_t m, s;
  PyObject *old;

  if (nargs != 2)
    return PyErr_Format (PyExc_TypeError, "set_split(min, share)");
  m = PyLong_AsSsize_t (args[0]);
  s = PyLong_AsSsize_t (args[1]);
  if (PyErr_Occurred ())
    return NULL;
  old = Py_BuildValue ("nn", split_min, split_share);
  split_min = m < 1 ? 1 : m;
  split_share = s < 1 ? 1 : s;
  return old;
}

static PyObject *
fc_set_min_bytes_per_thread (PyObject *Py_UNUSED (mod), PyObject *arg)
{
  Py_ssize_t n = PyLong_AsSsize_t (arg), old = min_bytes_per_thread;
  if (n == -1 && PyErr_Occurred ())
    return NULL;
  min_bytes_per_thread = n < 1 ? 1 : n;
  return PyLong_FromSsize_t (old);
}

static PyMethodDef fc_methods[] = {
  { "native_method", (PyCFunction)(void (*) (void))fc_native_method, METH_FASTCALL,
    "native_method(owner, name, op, signature, doc): a handle class's method for op" },
  { "mac", (PyCFunction)(void (*) (void))fc_mac, METH_FASTCALL,
    "mac(fn_addr, key, data, size, token): a one-shot MAC hook" },
  { "set_errors", (PyCFunction)(void (*) (void))fc_set_errors, METH_FASTCALL,
    "set_errors(HandleBusy, HandleClosed)" },
  { "after_fork", fc_after_fork, METH_NOARGS, "in a fork() child: every context is idle" },
  { "set_copy_secret", fc_set_copy_secret, METH_O,
    "set_copy_secret(addr): the core's gcry_copy_secret, for context copies" },
  { "selftests_changed", fc_selftests_changed, METH_NOARGS,
    "a self-test result changed: native setkeys wait for the general one" },
  { "set_gil_threshold", fc_set_gil_threshold, METH_O,
    "set the GIL-release threshold in bytes; returns the old one" },
  { "set_min_bytes_per_thread", fc_set_min_bytes_per_thread, METH_O,
    "set the smallest share of a sector batch per thread; returns the old one" },
  { "set_threads", fc_set_threads, METH_O,
    "set the threads a large stream request may use; returns the old count" },
  { "set_split", (PyCFunction)(void (*) (void))fc_set_split, METH_FASTCALL,
    "set_split(min, share): when stream requests split; returns the old pair" },
  { NULL },
};

static struct PyModuleDef fc_module = {
  PyModuleDef_HEAD_INIT, "gcrylike._fastcall",
  "Direct calls of native cipher hooks (see gcrylike/_fast.py).", -1, fc_methods,
  NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__fastcall (void)
{
  PyObject *m, *kinds = NULL;

  if (!BindingType && !(BindingType = (PyTypeObject *)PyType_FromSpec (&Binding_spec)))
    return NULL;
  if (!ExclusiveType && !(ExclusiveType = (PyTypeObject *)PyType_FromSpec (&Exclusive_spec)))
    return NULL;
  if (!HandleBaseType
      && !(HandleBaseType = (PyTypeObject *)PyType_FromSpec (&HandleBase_spec)))
    return NULL;
  if (intern_op_names () < 0)
    return NULL;
  m = PyModule_Create (&fc_module);
  if (!m)
    return NULL;
  if (!Failure)
    Failure = PyErr_NewException ("gcrylike._fastcall.Failure", NULL, NULL);
  if (!Failure || PyModule_AddObjectRef (m, "Failure", Failure) < 0
      || PyModule_AddObjectRef (m, "Binding", (PyObject *)BindingType) < 0
      || PyModule_AddObjectRef (m, "HandleBase", (PyObject *)HandleBaseType) < 0
      || PyModule_AddIntConstant (m, "MAX_THREADS", MAX_THREADS) < 0
      || !(kinds = kinds_table ()) || PyModule_AddObjectRef (m, "KINDS", kinds) < 0
      || PyModule_AddStringConstant (m, "MAC_SHAPE", MAC_T) < 0)
    {
      Py_XDECREF (kinds);
      Py_DECREF (m);
      return NULL;
    }
  Py_DECREF (kinds);
  return m;
}
