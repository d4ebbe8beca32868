/* fastcall.c - gcrylike._fastcall: the per-call fast path of every handle.
 *
 * cffi's generic call costs an argument tuple, a conversion per argument,
 * ffi.from_buffer views and an unconditional GIL release: ~250 ns before any
 * work.  A Binding holds what a handle's data calls need (the context
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
 *   - HandleBusy: another thread is inside a call on this context (see
 *     enter()).
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
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- Binding: one context and its hooks --------------------------------- */

enum { NFN = 4 };

typedef struct {
  PyObject_HEAD
  void *ctx;              /* NULL once detached (the handle closed) */
  void *fn[NFN];          /* the hooks, by position (see _fast.py) */
  PyObject *keep;         /* the context's cffi pointer: memory alive while bound */
  Py_ssize_t unit;        /* crypt: the length must be a multiple of it */
  Py_ssize_t tag;         /* read: the output size; seal/open: the tag size */
  Py_ssize_t users;       /* calls running now (changed with the GIL held only) */
  int shared;             /* data calls only read the context: they may overlap */
  int excl;               /* lock() holds it: a key change, a copy, a close */
  Py_ssize_t ctx_size;    /* streams with locate (fn[2]) and seek (fn[3]): the
                             context size, so a request can be split; else 0 */
  Py_ssize_t ks_block;    /* their keystream block size */
  unsigned long long calls; /* successful fast calls: which path ran (tests) */
} Binding;

static PyTypeObject *BindingType;  /* heap types, made in PyInit__fastcall */
static PyTypeObject *HandleBaseType;

static int
busy_error (void)
{
  PyErr_SetString (Busy ? Busy : PyExc_RuntimeError,
                   "handle is in use by another thread: a handle serves one call at a "
                   "time (copy.copy() it per thread)");
  return -1;
}

/* Take the context for one call.  Exclusive bindings (a stream position, a
 * MAC state) allow one call at a time; a second thread gets HandleBusy, so
 * two threads on one handle are never interleaved inside the native state.
 * The test and the increment happen with the GIL held, so they are atomic;
 * calls that keep the GIL cannot overlap at all. */
static int
enter (Binding *b)
{
  if (b->users && (!b->shared || b->excl))
    return busy_error ();
  b->users++;
  return 0;
}

static inline void
leave (Binding *b)
{
  b->users--;
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

static PyObject *
not_here (void)
{
  PyErr_Clear ();
  Py_RETURN_NOTIMPLEMENTED;
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

static PyObject *
Binding_new (PyTypeObject *type, PyObject *args, PyObject *Py_UNUSED (kw))
{
  PyObject *keep, *fns;
  unsigned long long addr;
  Py_ssize_t unit, tag, i, ctx_size = 0, ks_block = 64;
  int shared;
  Binding *b;

  if (!PyArg_ParseTuple (args, "OKO!nnp|nn", &keep, &addr, &PyTuple_Type, &fns, &unit, &tag,
                         &shared, &ctx_size, &ks_block))
    return NULL;
  if (PyTuple_Size (fns) > NFN || unit < 1 || tag < 0 || ctx_size < 0 || ks_block < 1)
    {
      PyErr_SetString (PyExc_ValueError, "bad binding");
      return NULL;
    }
  b = (Binding *)PyType_GenericAlloc (type, 0);
  if (!b)
    return NULL;
  for (i = 0; i < PyTuple_Size (fns); i++)
    {
      PyObject *f = PyTuple_GetItem (fns, i);
      b->fn[i] = f == Py_None ? NULL : PyLong_AsVoidPtr (f);
      if (PyErr_Occurred ())
        {
          Py_DECREF (b);
          return NULL;
        }
    }
  b->ctx = (void *)(uintptr_t)addr;
  Py_INCREF (keep);
  b->keep = keep;
  b->unit = unit;
  b->tag = tag;
  b->shared = shared;
  b->ctx_size = ctx_size;
  b->ks_block = ks_block;
  return (PyObject *)b;
}

static void
Binding_dealloc (Binding *b)
{
  PyTypeObject *type = Py_TYPE ((PyObject *)b);

  Py_XDECREF (b->keep);
  PyObject_Free (b);
  Py_DECREF (type);  /* instances of heap types own a reference to it */
}

/* detach(): the handle closes (under lock(), so no call runs): later
 * calls find no context and send the caller to its general path, which
 * says HandleClosed. */
static PyObject *
Binding_detach (Binding *b, PyObject *Py_UNUSED (unused))
{
  b->ctx = NULL;
  Py_CLEAR (b->keep);
  Py_RETURN_NONE;
}

/* The general (cffi) path's side of the same rule: ``with binding:`` around
 * a data call, lock()/unlock() around what changes or frees the context
 * (no call may run then, shared or not). */
static PyObject *
Binding_enter (Binding *b, PyObject *Py_UNUSED (unused))
{
  if (enter (b) < 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyObject *
Binding_exit (Binding *b, PyObject *const *Py_UNUSED (args), Py_ssize_t Py_UNUSED (nargs))
{
  leave (b);
  Py_RETURN_NONE;
}

static PyObject *
Binding_lock (Binding *b, PyObject *Py_UNUSED (unused))
{
  if (b->users)
    {
      busy_error ();
      return NULL;
    }
  b->users = 1;
  b->excl = 1;
  Py_RETURN_NONE;
}

static PyObject *
Binding_unlock (Binding *b, PyObject *Py_UNUSED (unused))
{
  b->users = 0;
  b->excl = 0;
  Py_RETURN_NONE;
}

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
  memcpy (t->fn, b->fn, sizeof t->fn);
  t->ctx = (void *)(uintptr_t)addr;
  Py_INCREF (args[0]);
  t->keep = args[0];
  t->unit = b->unit;
  t->tag = b->tag;
  t->ctx_size = b->ctx_size;
  t->ks_block = b->ks_block;
  t->shared = b->shared;
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

static void *
piece_worker (void *arg)
{
  stream_piece *p = arg;
  p->rc = p->fn (p->ctx, p->dst, p->src, p->n);
  return NULL;
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
  free (p);
}

/* Runs without the GIL: only C memory is touched. */
static int
crypt_split (Binding *b, crypt_fn fn, uint8_t *dst, const uint8_t *src, size_t n,
             size_t nthreads)
{
  stream_piece pieces[MAX_THREADS];
  void *clones[MAX_THREADS] = { 0 };
  pthread_t tid[MAX_THREADS];
  int started[MAX_THREADS];
  size_t ks = (size_t)b->ks_block, span = ((size_t)b->ctx_size + 63) / 64 * 64;
  size_t head, blocks, per, extra, i, at, from;
  uint64_t block;
  unsigned int unused;
  int rc = ((locate_fn)b->fn[2]) (b->ctx, n, &block, &unused);

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
          ctx = clones[i] = aligned_alloc (64, span);
          if (!ctx)
            break;
          memcpy (ctx, b->ctx, (size_t)b->ctx_size);
          if (((seek_fn)b->fn[3]) (ctx, block + at))
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
    started[i] = pthread_create (&tid[i], NULL, piece_worker, &pieces[i]) == 0;
  piece_worker (&pieces[0]);
  for (i = 1; i < nthreads; i++)
    {
      if (started[i])
        pthread_join (tid[i], NULL);
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
 * fn[which](ctx, dst, src, n): bytes in -> new bytes; out is data -> in
 * place; out a distinct writable buffer -> written there.  Returns the new
 * bytes or the byte count. */
static PyObject *
crypt_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int which)
{
  crypt_fn fn = (crypt_fn)b->fn[which];
  PyObject *data, *out, *result;
  Py_buffer src, dst;
  Py_ssize_t n;
  int rc;

  if (nargs < 1 || nargs > 2)
    return PyErr_Format (PyExc_TypeError, "expected (data, out)");
  data = args[0];
  out = nargs == 2 ? args[1] : Py_None;
  if (!b->ctx)
    Py_RETURN_NOTIMPLEMENTED;
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
      if (enter (b) < 0)
        {
          PyBuffer_Release (&src);
          Py_DECREF (result);
          return NULL;
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
  if (dst.len < n || n % b->unit || overlaps (dst.buf, src.buf, n) || enter (b) < 0)
    {
      int busy = PyErr_Occurred () != NULL;
      if (out != data)
        PyBuffer_Release (&src);
      PyBuffer_Release (&dst);
      return busy ? NULL : not_here ();
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

/* ---- the handles' encrypt/decrypt with no Python frame --------------------
 * HandleBase is the C base of every handle class (gcrylike/_keyed.py): its
 * one field is the handle's ``_fc`` slot (the Binding while the fast path
 * may run, else None), so C knows where it lives by construction.
 * data_method(owner, name, which, doc) makes ``owner.encrypt`` (which 0) or
 * ``decrypt`` (1): an ordinary method descriptor of a METH_FASTCALL |
 * METH_KEYWORDS function.  CPython calls those with neither a bound method
 * nor an argument tuple (3.11 even specialises the call site when the
 * handle is exactly an ``owner``), all within the limited API.  The
 * function reads ``_fc`` and calls crypt_call directly; everything else (no
 * Binding, NotImplemented, other argument forms) goes to the general Python
 * method given to set_general(), the cffi path, which explains refusals; a
 * hook's error code becomes ``handle._data_error(rc, which)``. */
typedef struct {
  PyObject_HEAD
  PyObject *fc;           /* the _fc slot; NULL until first set */
} HandleBase;

static PyObject *general[2];  /* the general encrypt and decrypt (set_general) */
static PyObject *out_name;    /* "out", interned as the compiler's keyword names are */

static int
HandleBase_traverse (HandleBase *h, visitproc visit, void *arg)
{
  Py_VISIT (Py_TYPE ((PyObject *)h));  /* heap types: instances keep theirs alive */
  Py_VISIT (h->fc);
  return 0;
}

static int
HandleBase_clear (HandleBase *h)
{
  Py_CLEAR (h->fc);
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
  Py_CLEAR (h->fc);
  PyObject_GC_Del (h);
  Py_DECREF (type);
}

/* general[which](self, *args, **kwnames): the slow path, so a tuple and a
 * dict are fine here. */
static PyObject *
call_general (int which, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
  Py_ssize_t nkw = kwnames ? PyTuple_Size (kwnames) : 0, i;
  PyObject *pos, *kw = NULL, *result = NULL;

  if (!general[which])
    return PyErr_Format (PyExc_RuntimeError, "gcrylike._fastcall: set_general() first");
  if (!(pos = PyTuple_New (nargs + 1)))
    return NULL;
  Py_INCREF (self);
  PyTuple_SetItem (pos, 0, self);
  for (i = 0; i < nargs; i++)
    {
      Py_INCREF (args[i]);
      PyTuple_SetItem (pos, i + 1, args[i]);
    }
  if (nkw)
    {
      if (!(kw = PyDict_New ()))
        goto done;
      for (i = 0; i < nkw; i++)
        if (PyDict_SetItem (kw, PyTuple_GetItem (kwnames, i), args[nargs + i]) < 0)
          goto done;
    }
  result = PyObject_Call (general[which], pos, kw);
done:
  Py_DECREF (pos);
  Py_XDECREF (kw);
  return result;
}

/* The pending Failure(rc) becomes self._data_error(rc, which). */
static PyObject *
data_error (PyObject *self, int which)
{
  PyObject *type, *value, *tb, *args, *exc = NULL;

  PyErr_Fetch (&type, &value, &tb);
  PyErr_NormalizeException (&type, &value, &tb);
  args = value ? PyObject_GetAttrString (value, "args") : NULL;
  if (args && PyTuple_Size (args) == 1)
    exc = PyObject_CallMethod (self, "_data_error", "Oi", PyTuple_GetItem (args, 0), which);
  else if (args)
    PyErr_SetString (PyExc_SystemError, "gcrylike._fastcall: Failure without a code");
  Py_XDECREF (args);
  Py_XDECREF (type);
  Py_XDECREF (value);
  Py_XDECREF (tb);
  if (exc)
    {
      PyErr_SetObject ((PyObject *)Py_TYPE (exc), exc);
      Py_DECREF (exc);
    }
  return NULL;
}

/* self is an instance of the descriptor's owner, a HandleBase subclass
 * (the method descriptor checks it before the call; data_method checks the
 * owner). */
static PyObject *
handle_crypt (PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
              int which)
{
  PyObject *fc = ((HandleBase *)self)->fc, *pair[2], *result, *kw;

  if (fc != NULL && Py_IS_TYPE (fc, BindingType) && nargs == 1
      && (kwnames == NULL
          || (PyTuple_Size (kwnames) == 1
              && ((kw = PyTuple_GetItem (kwnames, 0)) == out_name  /* interned: the usual case */
                  || PyUnicode_CompareWithASCIIString (kw, "out") == 0))))
    {
      pair[0] = args[0];
      pair[1] = kwnames ? args[1] : Py_None;
      Py_INCREF (fc);  /* the handle's reference may go meanwhile (buffer exports run code) */
      result = crypt_call ((Binding *)fc, pair, 2, which);
      Py_DECREF (fc);
      if (result == NULL && PyErr_ExceptionMatches (Failure))
        return data_error (self, which);
      if (result != Py_NotImplemented)
        return result;
      Py_DECREF (result);
    }
  return call_general (which, self, args, nargs, kwnames);
}

static PyObject *
handle_encrypt (PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
  return handle_crypt (self, args, nargs, kwnames, 0);
}

static PyObject *
handle_decrypt (PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
  return handle_crypt (self, args, nargs, kwnames, 1);
}

/* A method's definition and the text it points to, in one allocation that
 * lives as long as the process: the descriptor refers to it and keeps no
 * reference (one per handle class that has the method). */
typedef struct {
  PyMethodDef def;
  char text[];
} MethodText;

/* help(), inspect and Sphinx read the signature from the docstring's
 * first line ("name($self, ...)\n--\n\n" is CPython's convention). */
static const char data_signature[] = "($self, data, *, out=None)\n--\n\n";

/* data_method(owner, name, which, doc): owner.<name> as a method descriptor. */
static PyObject *
fc_data_method (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  const char *name, *doc;
  Py_ssize_t nlen, dlen;
  long which;
  MethodText *m;
  PyObject *descr;

  if (nargs != 4 || !PyType_Check (args[0])
      || !PyType_IsSubtype ((PyTypeObject *)args[0], HandleBaseType))
    return PyErr_Format (PyExc_TypeError, "data_method(owner, name, which, doc): owner must "
                         "subclass HandleBase");
  which = PyLong_AsLong (args[2]);
  if (which == -1 && PyErr_Occurred ())
    return NULL;
  if (which < 0 || which > 1)
    return PyErr_Format (PyExc_ValueError, "which must be 0 or 1");
  if (!(name = PyUnicode_AsUTF8AndSize (args[1], &nlen))
      || !(doc = PyUnicode_AsUTF8AndSize (args[3], &dlen)))
    return NULL;
  /* text: name NUL name signature doc NUL */
  m = PyMem_Calloc (1, sizeof *m + 2 * (size_t)nlen + sizeof data_signature + (size_t)dlen + 1);
  if (!m)
    return PyErr_NoMemory ();
  memcpy (m->text, name, (size_t)nlen);
  memcpy (m->text + nlen + 1, name, (size_t)nlen);
  memcpy (m->text + 2 * nlen + 1, data_signature, sizeof data_signature - 1);
  memcpy (m->text + 2 * nlen + sizeof data_signature, doc, (size_t)dlen);
  m->def.ml_name = m->text;
  m->def.ml_meth = (PyCFunction)(void (*) (void))(which ? handle_decrypt : handle_encrypt);
  m->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
  m->def.ml_doc = m->text + nlen + 1;
  if (!(descr = PyDescr_NewMethod ((PyTypeObject *)args[0], &m->def)))
    PyMem_Free (m);             /* nothing refers to it */
  return descr;
}

/* set_general(encrypt, decrypt): the Python methods the C ones fall back to. */
static PyObject *
fc_set_general (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  int i;

  if (nargs != 2 || !PyCallable_Check (args[0]) || !PyCallable_Check (args[1]))
    return PyErr_Format (PyExc_TypeError, "set_general(encrypt, decrypt)");
  for (i = 0; i < 2; i++)
    {
      Py_INCREF (args[i]);
      Py_XDECREF (general[i]);
      general[i] = args[i];
    }
  Py_RETURN_NONE;
}

static PyMemberDef HandleBase_members[] = {
  { "_fc", T_OBJECT_EX, offsetof (HandleBase, fc), 0,
    "the Binding while data calls may take the fast path, else None" },
  { NULL },
};

static PyType_Slot HandleBase_slots[] = {
  { Py_tp_dealloc, HandleBase_dealloc },
  { Py_tp_traverse, HandleBase_traverse },
  { Py_tp_clear, HandleBase_clear },
  { Py_tp_members, HandleBase_members },
  { Py_tp_doc, (void *)"The C base of every handle class: the _fc slot the native "
                       "encrypt/decrypt read" },
  { 0, NULL },
};

static PyType_Spec HandleBase_spec = {
  "gcrylike._fastcall.HandleBase", sizeof (HandleBase), 0,
  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, HandleBase_slots,
};

/* update(data): fn[2](ctx, src, n) (MAC update, AEAD authenticate). */
static PyObject *
Binding_update (Binding *b, PyObject *data)
{
  update_fn fn = (update_fn)b->fn[2];
  Py_buffer src;
  int rc;

  if (!b->ctx || PyObject_GetBuffer (data, &src, PyBUF_SIMPLE) < 0)
    return not_here ();
  if (enter (b) < 0)
    {
      PyBuffer_Release (&src);
      return NULL;
    }
  RUN (src.len, rc = fn (b->ctx, src.buf, (size_t)src.len));
  leave (b);
  PyBuffer_Release (&src);
  if (rc)
    return fail (rc);
  b->calls++;
  Py_RETURN_NONE;
}

/* read(): fn[3](ctx, out, unit) into new bytes (MAC digest, AEAD gettag). */
static PyObject *
Binding_read (Binding *b, PyObject *Py_UNUSED (unused))
{
  read_fn fn = (read_fn)b->fn[3];
  PyObject *result;
  int rc;

  if (!b->ctx)
    Py_RETURN_NOTIMPLEMENTED;
  if (!(result = PyBytes_FromStringAndSize (NULL, b->tag)))
    return NULL;
  if (enter (b) < 0)
    {
      Py_DECREF (result);
      return NULL;
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

/* ---- one-shot sealing: seal(nonce, data, aad) / open -----------------------
 * fn[0] seals, fn[1] opens; an AEAD shape (aad given, may be None for none)
 * or a secretbox shape (two arguments).  The result is n + unit bytes
 * (seal) or n - unit (open).  Open hooks verify the tag before they write
 * plaintext and wipe the output on failure; the bytes object is then freed
 * without being returned. */
static PyObject *
seal_call (Binding *b, PyObject *const *args, Py_ssize_t nargs, int opening)
{
  Py_buffer nonce, src, aad;
  PyObject *result = NULL;
  Py_ssize_t n, outlen;
  int rc, with_aad = nargs == 3;
  void *fn = b->fn[opening];

  if (nargs < 2 || nargs > 3)
    return PyErr_Format (PyExc_TypeError, "expected (nonce, data[, aad])");
  if (!b->ctx)
    Py_RETURN_NOTIMPLEMENTED;
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
  if (enter (b) < 0)
    {
      Py_CLEAR (result);
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
  tweak_fn fn = (tweak_fn)b->fn[which];
  PyObject *data, *out, *result = NULL;
  Py_buffer src, dst, tweak;
  Py_ssize_t n;
  int rc;

  if (nargs != 3)
    return PyErr_Format (PyExc_TypeError, "expected (data, tweak, out)");
  data = args[0], out = args[2];
  if (!b->ctx || PyObject_GetBuffer (args[1], &tweak, PyBUF_SIMPLE) < 0)
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
  if (enter (b) < 0)
    {
      Py_CLEAR (result);
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

static void *
sector_worker (void *arg)
{
  sector_run *r = arg;
  r->rc = r->fn (r->ctx, r->buf, r->nsectors, r->sector_size, r->first, r->encrypting);
  return NULL;
}

/* Run the NRUNS runs of RUNS on NRUNS threads (this one included); the
 * first error code, or 0.  A thread that cannot be started runs here. */
static int
run_sectors (sector_run *runs, size_t nruns)
{
  pthread_t tid[MAX_THREADS];
  int started[MAX_THREADS];
  size_t i;
  int rc = 0;

  for (i = 1; i < nruns; i++)
    started[i] = pthread_create (&tid[i], NULL, sector_worker, &runs[i]) == 0;
  sector_worker (&runs[0]);
  for (i = 1; i < nruns; i++)
    {
      if (started[i])
        pthread_join (tid[i], NULL);
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
  if (!b->ctx || sector_size < b->unit || threads < 1 || threads > MAX_THREADS
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
  per = nsectors / nruns, extra = nsectors % nruns;
  for (i = 0, at = 0; i < nruns; i++)
    {
      size_t count = per + (i < extra);
      runs[i] = (sector_run){ (sectors_fn)b->fn[2], b->ctx, (uint8_t *)buf.buf + at * sector_size,
                              count, (size_t)sector_size, first + at, encrypting, 0 };
      at += count;
    }
  if (enter (b) < 0)
    {
      PyBuffer_Release (&buf);
      return NULL;
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
  return PyBool_FromLong (b->users && !b->shared);
}

static PyObject *
Binding_get_attached (Binding *b, void *Py_UNUSED (closure))
{
  return PyBool_FromLong (b->ctx != NULL);
}

static PyMethodDef Binding_methods[] = {
  { "encrypt", (PyCFunction)(void (*) (void))Binding_encrypt, METH_FASTCALL,
    "encrypt(data, out=None) with hook 0" },
  { "decrypt", (PyCFunction)(void (*) (void))Binding_decrypt, METH_FASTCALL,
    "decrypt(data, out=None) with hook 1" },
  { "update", (PyCFunction)Binding_update, METH_O, "update(data) with hook 2" },
  { "read", (PyCFunction)Binding_read, METH_NOARGS, "read() with hook 3: new bytes" },
  { "seal", (PyCFunction)(void (*) (void))Binding_seal, METH_FASTCALL,
    "seal(nonce, data[, aad]) with hook 0" },
  { "open", (PyCFunction)(void (*) (void))Binding_open, METH_FASTCALL,
    "open(nonce, data[, aad]) with hook 1" },
  { "tweak_encrypt", (PyCFunction)(void (*) (void))Binding_tweak_encrypt, METH_FASTCALL,
    "tweak_encrypt(data, tweak, out) with hook 0" },
  { "tweak_decrypt", (PyCFunction)(void (*) (void))Binding_tweak_decrypt, METH_FASTCALL,
    "tweak_decrypt(data, tweak, out) with hook 1" },
  { "sectors", (PyCFunction)(void (*) (void))Binding_sectors, METH_FASTCALL,
    "sectors(buf, sector_size, first, encrypting, threads) with hook 2: threads used" },
  { "detach", (PyCFunction)Binding_detach, METH_NOARGS, "forget the context" },
  { "__enter__", (PyCFunction)Binding_enter, METH_NOARGS, "count a general-path call" },
  { "__exit__", (PyCFunction)(void (*) (void))Binding_exit, METH_FASTCALL, "end it" },
  { "lock", (PyCFunction)Binding_lock, METH_NOARGS, "no call may run (HandleBusy if one does)" },
  { "unlock", (PyCFunction)Binding_unlock, METH_NOARGS, "calls may run again" },
  { "rebound", (PyCFunction)(void (*) (void))Binding_rebound, METH_FASTCALL,
    "rebound(keep, addr): the same hooks on another context" },
  { NULL },
};

static PyGetSetDef Binding_getset[] = {
  { "users", (getter)Binding_get_users, NULL, "calls running now", NULL },
  { "calls", (getter)Binding_get_calls, NULL, "successful fast calls", NULL },
  { "busy", (getter)Binding_get_busy, NULL, "an exclusive call runs now", NULL },
  { "attached", (getter)Binding_get_attached, NULL, "whether a context is bound", NULL },
  { NULL },
};

static PyType_Slot Binding_slots[] = {
  { Py_tp_new, Binding_new },
  { Py_tp_dealloc, Binding_dealloc },
  { Py_tp_methods, Binding_methods },
  { Py_tp_getset, Binding_getset },
  { Py_tp_doc, (void *)"Binding(keep, ctx_addr, hook_addrs, unit, tag, shared): a context "
                       "and its hooks" },
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
fc_set_errors (PyObject *Py_UNUSED (mod), PyObject *busy)
{
  Py_INCREF (busy);
  Py_XDECREF (Busy);
  Busy = busy;
  Py_RETURN_NONE;
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

/* A no-op with the GIL released: the cost the threshold weighs (bench). */
static PyObject *
fc_gil_roundtrip (PyObject *Py_UNUSED (mod), PyObject *Py_UNUSED (unused))
{
  Py_BEGIN_ALLOW_THREADS
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* _hold(binding, delta): count a call as running (tests only: HandleBusy
 * without racing a thread). */
static PyObject *
fc_hold (PyObject *Py_UNUSED (mod), PyObject *const *args, Py_ssize_t nargs)
{
  Py_ssize_t delta;

  if (nargs != 2 || !PyObject_TypeCheck (args[0], BindingType))
    return PyErr_Format (PyExc_TypeError, "_hold(binding, delta)");
  delta = PyLong_AsSsize_t (args[1]);
  if (delta == -1 && PyErr_Occurred ())
    return NULL;
  ((Binding *)args[0])->users += delta;
  Py_RETURN_NONE;
}

static PyMethodDef fc_methods[] = {
  { "_hold", (PyCFunction)(void (*) (void))fc_hold, METH_FASTCALL, "test hook" },
  { "data_method", (PyCFunction)(void (*) (void))fc_data_method, METH_FASTCALL,
    "data_method(owner, name, which, doc): a handle class's encrypt (0) or decrypt (1)" },
  { "set_general", (PyCFunction)(void (*) (void))fc_set_general, METH_FASTCALL,
    "set_general(encrypt, decrypt): the Python methods of the general path" },
  { "mac", (PyCFunction)(void (*) (void))fc_mac, METH_FASTCALL,
    "mac(fn_addr, key, data, size, token): a one-shot MAC hook" },
  { "set_errors", fc_set_errors, METH_O, "set_errors(HandleBusy)" },
  { "set_gil_threshold", fc_set_gil_threshold, METH_O,
    "set the GIL-release threshold in bytes; returns the old one" },
  { "set_min_bytes_per_thread", fc_set_min_bytes_per_thread, METH_O,
    "set the smallest share of a sector batch per thread; returns the old one" },
  { "set_threads", fc_set_threads, METH_O,
    "set the threads a large stream request may use; returns the old count" },
  { "set_split", (PyCFunction)(void (*) (void))fc_set_split, METH_FASTCALL,
    "set_split(min, share): when stream requests split; returns the old pair" },
  { "gil_roundtrip", fc_gil_roundtrip, METH_NOARGS, "release and take the GIL once" },
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
  PyObject *m;

  if (!BindingType && !(BindingType = (PyTypeObject *)PyType_FromSpec (&Binding_spec)))
    return NULL;
  if (!HandleBaseType
      && !(HandleBaseType = (PyTypeObject *)PyType_FromSpec (&HandleBase_spec)))
    return NULL;
  if (!out_name && !(out_name = PyUnicode_InternFromString ("out")))
    return NULL;
  m = PyModule_Create (&fc_module);
  if (!m)
    return NULL;
  if (!Failure)
    Failure = PyErr_NewException ("gcrylike._fastcall.Failure", NULL, NULL);
  if (!Failure || PyModule_AddObjectRef (m, "Failure", Failure) < 0
      || PyModule_AddObjectRef (m, "Binding", (PyObject *)BindingType) < 0
      || PyModule_AddObjectRef (m, "HandleBase", (PyObject *)HandleBaseType) < 0
      || PyModule_AddIntConstant (m, "MAX_THREADS", MAX_THREADS) < 0)
    {
      Py_DECREF (m);
      return NULL;
    }
  return m;
}
