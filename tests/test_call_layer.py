"""The call layer's defects of issue 19 (items 1, 2, 4, 6, 7, 8 and 11 of
its list), each provoked on purpose rather than by luck:

* Python code that runs inside a call at a chosen point: an object whose
  buffer export (``__buffer__``, PEP 688, CPython 3.12 on) closes the
  handle, a plugin hook written in Python that calls its own handle, and a
  trace function (``sys.settrace`` with opcode events) that, at the k-th
  opcode executed in gcrylike's own frames, closes the handle or makes
  SIGINT pending (CPython then raises KeyboardInterrupt where it would for
  a real signal arriving at that opcode), for every k until the call
  completes;
* a fork() while a thread waits inside a plugin hook;
* every Binding method called on every kind of Binding.

The rule under test (gcrylike/_native/fastcall.c, "Binding"; gcrylike/_fast.py
for the Python twin without the extension): a data call takes the caller's
buffers, then enters the handle's gate (HandleClosed once closed,
HandleBusy while another call runs on an exclusive handle or the handle is
held), runs the hook, leaves; setkey, setiv, reset, copy and close hold the
gate alone and never wait.  The bounded two-thread races at the end check
the same rule under real concurrency.
"""

from __future__ import annotations

import _thread
import copy
import dataclasses
import functools
import gc
import hashlib
import itertools
import os
import select
import signal
import struct
import sys
import threading
import time
import warnings

import pytest
import toy_cipher

import gcrylike
from gcrylike import _fast
from gcrylike._core import ffi

KEY = bytes(range(32))
KEY2 = bytes(range(100, 132))
MSG = bytes(range(96))  # whole AES blocks, at least Adiantum's 16 bytes
TWEAK = b"sector 7"
NATIVE = _fast.AVAILABLE

#: gcrylike's own source files, whose frames the trace functions act in; the
#: gate's bookkeeping (gcrylike/_fast.py, named as its code objects name it)
#: is left out: in the default build it is C, where nothing can interrupt it.
PACKAGE_DIR = os.path.dirname(os.path.abspath(gcrylike.__file__)) + os.sep
GATE_CODE_FILE = _fast.set_threads.__code__.co_filename

needs_pep688 = pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="a Python class can export a buffer (__buffer__, PEP 688) only from CPython 3.12 "
           "on; the py312 and py313 tox envs run this test")
needs_native = pytest.mark.skipif(
    not NATIVE, reason="the native Binding (gcrylike._fastcall) is not in this build "
                       "(GCRYLIKE_NO_FASTCALL or not CPython): nothing to call")


# -- plugins whose hooks are Python code ---------------------------------------
# Their handles take the cffi path in every build (a plain gate in C with the
# extension, gcrylike._fast.Gate without it), and their hooks can run Python
# code inside a call: whatever is queued in _PENDING runs once, at the start
# of the next hook call.

_PENDING: list = []


def _run_pending() -> None:
    while _PENDING:
        _PENDING.pop(0)()


def _toy_crypt(ctx, dst, src, n):
    _run_pending()
    return toy_cipher.crypt(ctx, dst, src, n)


def _no_selftest(spec, impl):
    """The gate is under test here, not a known answer."""


def _stream_spec():
    spec = toy_cipher.make_spec(name="CALLTOY", algo=90311, aliases=(),
                                impls=(gcrylike.Implementation("calltoy-python", 1),))
    return dataclasses.replace(spec, encrypt_stream=_toy_crypt, decrypt_stream=_toy_crypt,
                               selftest=_no_selftest)


_MAC_CTX = 64  # key (32 bytes) || running state (32 bytes)


def _mac_setkey(ctx, key, impl):
    view = ffi.buffer(ctx, _MAC_CTX)
    view[0:32] = ffi.buffer(key)[:]
    view[32:64] = bytes(32)


def _mac_update(ctx, src, n):
    _run_pending()
    view = ffi.buffer(ctx, _MAC_CTX)
    view[32:64] = hashlib.blake2b(view[32:64] + ffi.buffer(src, n)[:], key=view[0:32],
                                  digest_size=32).digest()
    return 0


def _mac_read(ctx, out, n):
    ffi.buffer(out, n)[:] = ffi.buffer(ctx, _MAC_CTX)[32:32 + n]
    return 0


def _mac_verify(ctx, tag, n):
    good = n == 16 and ffi.buffer(tag, n)[:] == ffi.buffer(ctx, _MAC_CTX)[32:48]
    return 0 if good else gcrylike.ErrorCode.CHECKSUM


def _mac_spec():
    return gcrylike.MacSpec(
        name="CALLMAC", algo=90312, key_sizes=(32,), digest_size=16, context_size=_MAC_CTX,
        implementations=(gcrylike.Implementation("callmac-python", 1),), setkey=_mac_setkey,
        update=_mac_update, read=_mac_read, verify=_mac_verify, selftest=_no_selftest)


def _wide_setkey(ctx, key, impl):
    ffi.buffer(ctx, 32)[:] = ffi.buffer(key)[:]


def _wide_xor(key, tweak, data):
    stream = b"".join(hashlib.blake2b(tweak + struct.pack("<Q", i), key=key).digest()
                      for i in range(len(data) // 64 + 1))
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))


def _wide_crypt(ctx, dst, src, n, tweak, tlen):
    _run_pending()
    key = ffi.buffer(ctx, 32)[:]
    ffi.buffer(dst, n)[:] = _wide_xor(key, ffi.buffer(tweak, tlen)[:], ffi.buffer(src, n)[:])
    return 0


def _wide_sectors(ctx, buf, nsectors, sector_size, first, encrypting):
    _run_pending()
    key = ffi.buffer(ctx, 32)[:]
    view = ffi.buffer(buf, nsectors * sector_size)
    for i in range(nsectors):
        at = slice(i * sector_size, (i + 1) * sector_size)
        view[at] = _wide_xor(key, struct.pack("<Q", first + i) + bytes(24), view[at])
    return 0


def _wide_spec():
    # reentrant: calls may overlap, as on Adiantum and the one-shot classes
    return gcrylike.TweakableCipherSpec(
        name="CALLWIDE", algo=90313, key_sizes=(32,), min_length=16, max_tweak=32,
        context_size=64, implementations=(gcrylike.Implementation("callwide-python", 1),),
        setkey=_wide_setkey, encrypt=_wide_crypt, decrypt=_wide_crypt,
        crypt_sectors=_wide_sectors, selftest=_no_selftest, reentrant=True)


@pytest.fixture
def plugins(clean_registry):
    """The three Python-hook plugins above, registered for one test."""
    for spec in (_stream_spec(), _mac_spec(), _wide_spec()):
        gcrylike.register(spec)
    _PENDING.clear()
    yield
    _PENDING.clear()


# -- handles, each fresh, keyed and ready for data -------------------------------

def _chacha():
    h = gcrylike.cipher_open("chacha20")
    h.setkey(KEY)
    h.setiv(bytes(12))
    return h


def _poly():
    h = gcrylike.mac_open("poly1305")
    h.setkey(KEY)
    return h


def _aead():
    h = gcrylike.cipher_open("chacha20", mode="poly1305")
    h.setkey(KEY)
    h.setiv(bytes(12))
    return h


def _aes():
    h = gcrylike.block_cipher_open("aes256")
    h.setkey(KEY)
    return h


def _toy():
    h = gcrylike.cipher_open("calltoy")
    h.setkey(KEY)
    h.setiv(bytes(8))
    return h


def _toymac():
    h = gcrylike.mac_open("callmac")
    h.setkey(KEY)
    return h


def _wide():
    h = gcrylike.tweakable_open("callwide")
    h.setkey(KEY)
    return h


def _chachapoly():
    return gcrylike.ChaCha20Poly1305(KEY)


def _xchachapoly():
    return gcrylike.XChaCha20Poly1305(KEY)


def _box():
    return gcrylike.SecretBox(KEY)


def _adiantum():
    return gcrylike.Adiantum(KEY)


def _nonce(h):
    return bytes(h.NONCE_SIZE)


def _into(method, size):
    """A one-shot ``*_into`` call as a value: the count and what was written."""
    def call(h, data):
        buf = bytearray(size(len(data)))
        return method(h)(_nonce(h), data, b"hdr", buf), bytes(buf)
    return call


def _out(method):
    def call(h):
        buf = bytearray(len(MSG))
        return method(h)(MSG, out=buf), bytes(buf)
    return call


def _in_place(method):
    def call(h):
        buf = bytearray(MSG)
        return method(h)(buf, out=buf), bytes(buf)
    return call


def _sectors(method):
    def call(h):
        buf = bytearray(MSG * 16)  # three 512-byte sectors
        method(h)(buf, 3, 512)
        return bytes(buf)
    return call


# Inputs some calls need, made once and outside any traced call (cached: the
# values do not change from one test to the next).

@functools.cache
def _sealed(make):
    h = make()
    return h.encrypt(_nonce(h), MSG, b"hdr")


@functools.cache
def _boxed():
    return _box().encrypt(MSG, bytes(24))


@functools.cache
def _empty_tag(make):
    h = make()
    return h.gettag() if isinstance(h, gcrylike.AeadHandle) else h.digest()


def _mac_tag(make):
    h = make()
    h.update(MSG)
    return h.digest()


#: Every data call of every handle kind: (id, opener, call returning a
#: comparable value).  The plugin ones take the cffi path in every build.
DATA_CALLS = [
    ("stream encrypt", _chacha, lambda h: h.encrypt(MSG)),
    ("stream encrypt out=", _chacha, _out(lambda h: h.encrypt)),
    ("stream encrypt in place", _chacha, _in_place(lambda h: h.encrypt)),
    ("stream decrypt", _chacha, lambda h: h.decrypt(MSG)),
    ("mac update+digest", _poly, lambda h: (h.update(MSG), h.digest())),
    ("mac verify", _poly, lambda h: h.verify(_empty_tag(_poly))),
    ("aead authenticate+gettag", _aead, lambda h: (h.authenticate(MSG), h.gettag())),
    ("aead encrypt", _aead, lambda h: h.encrypt(MSG)),
    ("aead decrypt", _aead, lambda h: h.decrypt(MSG)),
    ("aead encrypt out=", _aead, _out(lambda h: h.encrypt)),
    ("aead checktag", _aead, lambda h: h.checktag(_empty_tag(_aead))),
    *[(f"{name} {what}", make, call)
      for name, make in (("chacha20poly1305", _chachapoly), ("xchacha20poly1305", _xchachapoly))
      for what, call in (
          ("encrypt", lambda h: h.encrypt(_nonce(h), MSG, b"hdr")),
          ("decrypt", lambda h, make=make: h.decrypt(_nonce(h), _sealed(make), b"hdr")),
          ("encrypt_into", lambda h: _into(lambda h: h.encrypt_into, lambda n: n + 16)(h, MSG)),
          ("decrypt_into", lambda h, make=make: _into(
              lambda h: h.decrypt_into, lambda n: n - 16)(h, _sealed(make))))],
    ("secretbox encrypt", _box, lambda h: h.encrypt(MSG, bytes(24))),
    ("secretbox decrypt", _box, lambda h: h.decrypt(_boxed())),
    ("adiantum encrypt", _adiantum, lambda h: h.encrypt(MSG, TWEAK)),
    ("adiantum decrypt", _adiantum, lambda h: h.decrypt(MSG, TWEAK)),
    ("adiantum encrypt out=", _adiantum, _out(lambda h: lambda d, out: h.encrypt(d, TWEAK,
                                                                                 out=out))),
    ("adiantum encrypt_sectors", _adiantum, _sectors(lambda h: h.encrypt_sectors)),
    ("adiantum decrypt_sectors", _adiantum, _sectors(lambda h: h.decrypt_sectors)),
    ("block encrypt_blocks", _aes, lambda h: h.encrypt_blocks(MSG)),
    ("block decrypt_blocks out=", _aes, _out(lambda h: h.decrypt_blocks)),
    ("plugin stream encrypt", _toy, lambda h: h.encrypt(MSG)),
    ("plugin stream decrypt in place", _toy, _in_place(lambda h: h.decrypt)),
    ("plugin mac update+digest", _toymac, lambda h: (h.update(MSG), h.digest())),
    ("plugin mac verify", _toymac, lambda h: h.verify(_empty_tag(_toymac))),
    ("plugin tweakable encrypt", _wide, lambda h: h.encrypt(MSG, TWEAK)),
    ("plugin tweakable encrypt_sectors", _wide, _sectors(lambda h: h.encrypt_sectors)),
]
DATA_IDS = [c[0] for c in DATA_CALLS]


# -- Python code at a chosen point of a call -------------------------------------

def _ours(code) -> bool:
    name = code.co_filename
    return name.startswith(PACKAGE_DIR) and name != GATE_CODE_FILE


class _Trip:
    """``_TRIP[signum]`` makes ``signum`` pending, as if it had just arrived:
    ``__getitem__`` is ``_thread.interrupt_main`` itself, so no Python frame
    runs (whose own checks would handle the signal at once)."""

    __getitem__ = _thread.interrupt_main


_TRIP = _Trip()


def _enable_opcode_events() -> None:
    """CPython 3.12 sends opcode events only once some frame has asked for
    them before sys.settrace(); 3.11 and 3.13 need nothing."""
    frame = sys._getframe()
    frame.f_trace_opcodes = True
    frame.f_trace_opcodes = False


def _run_traced(call, k, action=None):
    """Run ``call()`` under a trace function that counts the opcodes
    executed in gcrylike's frames (not the gate's own, see GATE_CODE_FILE)
    and at the k-th one runs ``action()`` there, or (``action`` None) makes
    SIGINT pending and stops tracing, so that CPython handles the signal
    where it would handle a real one arriving at that opcode (at its next
    check for pending signals).  Returns (whether the k-th opcode came, the
    call's value or exception)."""
    seen = [0, False]
    settrace, trip, sigint = sys.settrace, _TRIP, signal.SIGINT

    def local(frame, event, arg):
        if event == "opcode" and not seen[1]:
            seen[0] += 1
            if seen[0] == k:
                seen[1] = True
                if action is not None:
                    action()
                    return None
                settrace(None)  # no trace function (no check) runs from here on
                trip[sigint]
                return None
        return local

    def tracer(frame, event, arg):
        if event == "call" and not seen[1] and _ours(frame.f_code):
            frame.f_trace = local  # 3.13 turns opcode events on only for a traced frame
            frame.f_trace_opcodes = True
            return local
        return None

    _enable_opcode_events()
    try:
        try:
            sys.settrace(tracer)
            outcome = call()
        finally:
            sys.settrace(None)
        len(())  # a check for pending signals: one not handled yet is, now
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt is the point
        outcome = exc
    return seen[1], outcome


def _in_thread(work, timeout=10.0):
    """``work()`` on a daemon thread: a deadlock fails the test instead of
    hanging the session (the thread is left behind)."""
    out: list = []

    def run():
        try:
            out.append(("value", work()))
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            out.append(("error", exc))

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"deadlock: the call did not return within {timeout} s"
    kind, value = out[0]
    if kind == "error":
        raise value
    return value


def _idle(h) -> bool:
    """The handle's gate counts no call and is not held."""
    return h._binding.users == 0 and not h._binding.busy


#: every k from 1 until the call completes; a bound that no call here reaches
MAX_OPCODES = 20000


class _Closer:
    """A bytes-like object (PEP 688) whose buffer export first closes
    ``handle``: Python code run while a call takes its buffers."""

    def __init__(self, handle, n: int) -> None:
        self.handle = handle
        self.data = bytearray(b"\xee" * n)
        self.exports = 0

    def __buffer__(self, flags: int) -> memoryview:
        self.handle.close()
        self.exports += 1
        return memoryview(self.data)

    def untouched(self) -> bool:
        return self.data == b"\xee" * len(self.data)


# == item 1: one-shot AEAD *_into calls without the gate ==========================

ONE_SHOTS = [pytest.param(_chachapoly, id="chacha20poly1305"),
             pytest.param(_xchachapoly, id="xchacha20poly1305")]


@needs_pep688
@pytest.mark.parametrize("make", ONE_SHOTS)
@pytest.mark.parametrize("opening", [False, True], ids=["encrypt_into", "decrypt_into"])
def test_oneshot_into_closed_by_its_output_buffer(make, opening):
    """Issue 19, item 1: ``encrypt_into``/``decrypt_into`` of the one-shot
    AEADs called their hooks outside the gate, so a close() during the call
    freed the context under the hook.  Provoked deterministically: ``buf``
    is an object whose ``__buffer__`` closes the box before it hands over
    its memory.  The call must raise HandleClosed and write nothing."""
    box = make()
    nonce = _nonce(box)
    sealed = box.encrypt(nonce, MSG, b"hdr")
    data = sealed if opening else MSG
    buf = _Closer(box, len(MSG) if opening else len(sealed))
    method = box.decrypt_into if opening else box.encrypt_into
    with pytest.raises(gcrylike.HandleClosed):
        method(nonce, data, b"hdr", buf)
    assert buf.exports >= 1 and box.closed
    assert buf.untouched(), "the hook wrote into buf after the box was closed"
    assert _idle(box)


RACE_SECONDS = 0.25  # per case: four cases, at most a second in all
CLOSE_TRIES = 20


@pytest.mark.parametrize("make", ONE_SHOTS)
@pytest.mark.parametrize("opening", [False, True], ids=["encrypt_into", "decrypt_into"])
def test_oneshot_into_races_close(make, opening):
    """Issue 19, item 1, under real concurrency (every Python): a thread
    loops ``encrypt_into``/``decrypt_into`` on 1 MiB (the hook runs without
    the GIL) while the main thread calls close() as soon as the loop has
    started, a few times on HandleBusy; a new box each round, for a bounded
    time.  Before, close() succeeded during the call: the output was wrong
    (mostly plaintext) or the process crashed.  Every outcome must be a
    correct result, HandleClosed for the data call or HandleBusy for
    close(), and close() succeeds once the loop has stopped."""
    ref = make()
    nonce = _nonce(ref)
    plain = os.urandom(1 << 20)
    sealed = ref.encrypt(nonce, plain, None)
    data, want = (sealed, plain) if opening else (plain, sealed)
    counts = {"ok": 0, "closed": 0, "busy": 0}
    errors: list = []
    deadline = time.monotonic() + RACE_SECONDS
    rounds = 0
    while time.monotonic() < deadline or not rounds:
        rounds += 1
        box = make()
        method = box.decrypt_into if opening else box.encrypt_into
        started, stop = threading.Event(), threading.Event()

        def loop(method=method, started=started, stop=stop):
            buf = bytearray(len(want))
            while not stop.is_set():
                started.set()
                try:
                    method(nonce, data, None, buf)
                except gcrylike.HandleClosed:
                    counts["closed"] += 1
                    return
                except BaseException as exc:  # noqa: BLE001 - reported below
                    errors.append(exc)
                    return
                if buf != want:
                    errors.append("wrong output")
                    return
                counts["ok"] += 1

        worker = threading.Thread(target=loop)
        worker.start()
        try:
            started.wait(10)
            for _ in range(CLOSE_TRIES):
                try:
                    box.close()
                    break
                except gcrylike.HandleBusy:
                    counts["busy"] += 1
        finally:
            stop.set()
            worker.join(10)
        assert not worker.is_alive()
        assert not errors, errors
        box.close()  # the loop is over: idle
        assert box.closed
    assert counts["ok"] and counts["busy"], (
        f"close() never overlapped a call in {rounds} rounds: {counts}")


# == item 2: a buffer export that closes the handle ================================

def _after(call, then):
    def both(h, c):
        try:
            call(h, c)
        finally:
            then(h)
    return both


def _mac_digest_closed(h):
    with pytest.raises(gcrylike.HandleClosed):
        h.digest()


BUFFER_CALLS = [
    ("stream encrypt", _chacha, lambda h, c: h.encrypt(c(64))),
    ("stream encrypt out=", _chacha, lambda h, c: h.encrypt(MSG, out=c(96))),
    ("stream encrypt data, out=", _chacha, lambda h, c: h.encrypt(c(64), out=bytearray(64))),
    ("stream encrypt in place", _chacha, lambda h, c: (lambda b: h.encrypt(b, out=b))(c(64))),
    ("stream decrypt", _chacha, lambda h, c: h.decrypt(c(64))),
    ("stream decrypt out=", _chacha, lambda h, c: h.decrypt(MSG, out=c(96))),
    ("mac update, digest after", _poly,
     _after(lambda h, c: h.update(c(100)), _mac_digest_closed)),
    ("mac verify", _poly, lambda h, c: h.verify(c(16))),
    ("mac setkey", _poly, lambda h, c: h.setkey(c(32))),
    ("mac setkey, digest after", _poly,
     _after(lambda h, c: h.setkey(c(32)), _mac_digest_closed)),
    ("aead authenticate", _aead, lambda h, c: h.authenticate(c(10))),
    ("aead encrypt", _aead, lambda h, c: h.encrypt(c(64))),
    ("aead decrypt", _aead, lambda h, c: h.decrypt(c(64))),
    ("aead encrypt out=", _aead, lambda h, c: h.encrypt(MSG, out=c(96))),
    ("aead checktag", _aead, lambda h, c: h.checktag(c(16))),
    *[(f"{name} {what}", make, call)
      for name, make in (("chacha20poly1305", _chachapoly), ("xchacha20poly1305", _xchachapoly))
      for what, call in (
          ("encrypt data", lambda h, c: h.encrypt(_nonce(h), c(64), b"hdr")),
          ("encrypt nonce", lambda h, c: h.encrypt(c(len(_nonce(h))), MSG, b"hdr")),
          ("encrypt aad", lambda h, c: h.encrypt(_nonce(h), MSG, c(5))),
          ("decrypt data", lambda h, c: h.decrypt(_nonce(h), c(80), b"hdr")),
          ("encrypt_into data", lambda h, c: h.encrypt_into(_nonce(h), c(64), None,
                                                             bytearray(80))),
          ("decrypt_into data", lambda h, c: h.decrypt_into(_nonce(h), c(80), None,
                                                             bytearray(64))))],
    ("secretbox encrypt", _box, lambda h, c: h.encrypt(c(64), bytes(24))),
    ("secretbox decrypt box", _box, lambda h, c: h.decrypt(c(80), bytes(24))),
    ("secretbox decrypt message", _box, lambda h, c: h.decrypt(c(24 + 80))),
    ("adiantum encrypt", _adiantum, lambda h, c: h.encrypt(c(64), TWEAK)),
    ("adiantum decrypt", _adiantum, lambda h, c: h.decrypt(c(64), TWEAK)),
    ("adiantum encrypt tweak", _adiantum, lambda h, c: h.encrypt(MSG, c(8))),
    ("adiantum encrypt out=", _adiantum, lambda h, c: h.encrypt(MSG, TWEAK, out=c(96))),
    ("adiantum encrypt_sectors", _adiantum, lambda h, c: h.encrypt_sectors(c(1024), 0, 512)),
    ("adiantum decrypt_sectors", _adiantum, lambda h, c: h.decrypt_sectors(c(1024), 0, 512)),
    ("block encrypt_blocks", _aes, lambda h, c: h.encrypt_blocks(c(32))),
    ("block decrypt_blocks", _aes, lambda h, c: h.decrypt_blocks(c(32))),
    ("block encrypt_blocks out=", _aes, lambda h, c: h.encrypt_blocks(MSG, out=c(96))),
    ("plugin stream encrypt", _toy, lambda h, c: h.encrypt(c(64))),
    ("plugin mac update", _toymac, _after(lambda h, c: h.update(c(10)), _mac_digest_closed)),
    ("plugin tweakable encrypt", _wide, lambda h, c: h.encrypt(c(64), TWEAK)),
    ("plugin tweakable encrypt_sectors", _wide,
     lambda h, c: h.encrypt_sectors(c(1024), 0, 512)),
]


@needs_pep688
@pytest.mark.parametrize("make,call", [c[1:] for c in BUFFER_CALLS],
                         ids=[c[0] for c in BUFFER_CALLS])
def test_buffer_export_closes_the_handle(plugins, make, call):
    """Issue 19, item 2: the context was checked before the caller's
    buffers were taken, and taking a buffer can run Python code: an object
    whose ``__buffer__`` closes the handle crashed CPython 3.12 and 3.13
    (SIGSEGV on ``ctx = NULL``) in every data call kind.  Here each data
    call of each kind, with the closing object in each buffer argument, must
    raise HandleClosed (not crash, not TypeError) and write nothing."""
    h = make()
    made: list[_Closer] = []

    def closer(n):
        made.append(_Closer(h, n))
        return made[-1]

    with pytest.raises(gcrylike.HandleClosed):
        _in_thread(lambda: call(h, closer))  # close() waiting on the call: a failure
    assert h.closed and made and made[0].exports >= 1
    assert all(c.untouched() for c in made), "a hook wrote after the handle was closed"
    assert _idle(h)
    h.close()  # again: nothing to do


class _Interrupting:
    """A bytes-like object (PEP 688) whose first buffer export raises
    KeyboardInterrupt, as a signal handled while it runs would."""

    def __init__(self, n: int) -> None:
        self.data = bytearray(b"\xee" * n)
        self.exports = 0

    def __buffer__(self, flags: int) -> memoryview:
        self.exports += 1
        if self.exports == 1:
            raise KeyboardInterrupt
        return memoryview(self.data)


#: the buffer calls whose handle stays open (no check that expects it closed)
INTERRUPTED_CALLS = [c for c in BUFFER_CALLS if c[2].__name__ != "both"]


@needs_pep688
@pytest.mark.parametrize("make,call", [c[1:] for c in INTERRUPTED_CALLS],
                         ids=[c[0] for c in INTERRUPTED_CALLS])
def test_buffer_export_interrupted_is_not_swallowed(plugins, make, call):
    """Issue 19, items 2 and 6: a buffer export that runs Python code can
    be where a signal is handled.  The native path turned every failed
    export into "not here" (NotImplemented) and cleared the error, so a
    KeyboardInterrupt raised there vanished and the general path asked the
    object again.  It must propagate, with the export tried once, nothing
    written and the handle's gate idle."""
    h = make()
    made: list[_Interrupting] = []

    def interrupting(n):
        made.append(_Interrupting(n))
        return made[-1]

    with pytest.raises(KeyboardInterrupt):
        call(h, interrupting)
    assert all(c.exports == 1 for c in made), "the export was asked again"
    assert all(c.data == b"\xee" * len(c.data) for c in made)
    assert _idle(h)
    h.close()


# == item 4: re-entry from inside a call ============================================

def _attempts(h, calls):
    """Run each of ``calls`` (name -> call on ``h``) from inside a hook of
    ``h``; returns name -> the exception type raised, or "returned"."""
    seen: dict = {}

    def reenter():
        for name, call in calls.items():
            try:
                call()
            except BaseException as exc:  # noqa: BLE001 - recorded, checked by the test
                seen[name] = type(exc)
            else:
                seen[name] = "returned"

    _PENDING.append(reenter)
    return seen


def test_reentry_from_a_stream_hook_is_busy(plugins):
    """Issue 19, item 4: off the fast path, close()/setkey() re-entered from
    inside a call on the same thread deadlocked (a non-reentrant lock).  A
    stream plugin's Python encrypt hook calls close(), setkey(), setiv(),
    copy.copy() and encrypt() on its own handle: each must raise HandleBusy
    at once, the outer call complete, and the handle work afterwards."""
    h = _toy()
    seen = _attempts(h, {
        "close": h.close, "setkey": lambda: h.setkey(KEY2),
        "setiv": lambda: h.setiv(b"12345678"), "copy": lambda: copy.copy(h),
        "encrypt": lambda: h.encrypt(b"inner")})
    got = _in_thread(lambda: h.encrypt(MSG))
    assert seen == dict.fromkeys(("close", "setkey", "setiv", "copy", "encrypt"),
                                 gcrylike.HandleBusy)
    ref = _toy()
    assert got == ref.encrypt(MSG)  # the key, nonce and position were left alone
    assert h.encrypt(b"after") == ref.encrypt(b"after")
    assert _idle(h)
    h.close()
    assert h.closed


def test_reentry_from_a_mac_hook_is_busy(plugins):
    """Issue 19, item 4, for a MAC plugin: its Python update hook calls
    close(), setkey(), copy.copy(), update(), digest() and reset() on its
    own handle: each HandleBusy, the outer update completes, the tag is the
    one of the data, close() succeeds afterwards."""
    h = _toymac()
    seen = _attempts(h, {
        "close": h.close, "setkey": lambda: h.setkey(KEY2), "copy": lambda: copy.copy(h),
        "update": lambda: h.update(b"inner"), "digest": h.digest, "reset": h.reset})
    _in_thread(lambda: h.update(MSG))
    assert seen == dict.fromkeys(("close", "setkey", "copy", "update", "digest", "reset"),
                                 gcrylike.HandleBusy)
    assert h.digest() == _mac_tag(_toymac)
    assert _idle(h)
    h.close()
    assert h.closed


def test_reentry_on_a_shared_handle_is_busy_not_a_wait(plugins):
    """Issue 19, item 4, on a shared handle (a reentrant tweakable plugin,
    as Adiantum and the one-shot classes): before, the cffi path's guard
    made close()/setkey() from inside a call wait for the call, that is for
    ever.  From the Python encrypt hook: close(), setkey() and copy.copy()
    must raise HandleBusy; a second data call may overlap (the handle is
    shared) and returns the right result."""
    h = _wide()
    seen = _attempts(h, {
        "close": h.close, "setkey": lambda: h.setkey(KEY2), "copy": lambda: copy.copy(h),
        "encrypt": lambda: h.encrypt(MSG, b"inner")})
    got = _in_thread(lambda: h.encrypt(MSG, TWEAK))
    assert seen == {"close": gcrylike.HandleBusy, "setkey": gcrylike.HandleBusy,
                    "copy": gcrylike.HandleBusy, "encrypt": "returned"}
    assert got == _wide().encrypt(MSG, TWEAK)
    assert _idle(h)
    h.close()
    assert h.closed


# == item 6: a signal at any point of a key change, copy, close or call =============

def _sig_setkey(h):
    h.setkey(KEY2)


def _sig_setiv(h):
    h.setiv(b"87654321")  # both ciphers take an 8-byte nonce


def _sig_copy(h):
    copy.copy(h)


def _sig_close(h):
    h.close()


def _sig_encrypt(h):
    h.encrypt(MSG)


SIGNAL_OPS = [pytest.param(op, id=op.__name__[5:])
              for op in (_sig_setkey, _sig_setiv, _sig_copy, _sig_close, _sig_encrypt)]
SIGNAL_HANDLES = [pytest.param(_chacha, id="chacha20"), pytest.param(_toy, id="plugin")]


def _raise_keyboard_interrupt(signum, frame):
    """SIGINT's handler: KeyboardInterrupt, except in the gate's own frames
    (the Python twin's; C in the default build, where no signal is handled
    inside): there the signal is made pending again, to be handled at the
    first check once they are left."""
    if frame is not None and frame.f_code.co_filename == GATE_CODE_FILE:
        _TRIP[signum]  # the last thing this handler does: no check after it
        return
    raise KeyboardInterrupt


def _signal_everywhere(make, op, check):
    """For every k until ``op(handle)`` completes: a fresh handle, SIGINT
    made pending at the k-th opcode of gcrylike's frames (see _run_traced),
    then ``check(handle, k, outcome, lost)``, ``lost`` being the exceptions
    the interpreter reported as unraisable meanwhile (lost in a destructor
    or callback: "Exception ignored ...").  Returns how many attempts were
    interrupted."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers run in the main thread only")
    make().close()  # the first setkey's self-test is not the subject
    lost: list = []
    interrupted = 0
    gc.collect()  # no collection of older garbage (its destructors) mid-call
    gc.disable()
    previous = signal.signal(signal.SIGINT, _raise_keyboard_interrupt)
    old_hook, sys.unraisablehook = sys.unraisablehook, lost.append
    try:
        for k in itertools.count(1):
            assert k < MAX_OPCODES
            h = make()
            fired, outcome = _run_traced(lambda h=h: op(h), k)
            if not fired:
                assert not isinstance(outcome, BaseException), outcome
                if k == 1:
                    pytest.skip("the call ran no Python code of gcrylike (the native path: "
                                "its gate is C); the build without the extension runs it")
                return interrupted
            interrupted += isinstance(outcome, KeyboardInterrupt)
            check(h, k, outcome, lost)
    finally:
        sys.unraisablehook = old_hook
        signal.signal(signal.SIGINT, previous)
        gc.enable()
    raise AssertionError("unreachable")


@pytest.mark.parametrize("make", SIGNAL_HANDLES)
@pytest.mark.parametrize("op", SIGNAL_OPS)
def test_signal_leaves_the_gate_idle(plugins, make, op):
    """Issue 19, item 6: a signal arriving between taking the handle's lock
    and the ``try:`` that released it left the handle busy for ever (its key
    could never be wiped).  SIGINT is made pending at the k-th opcode
    executed in gcrylike's frames during setkey, setiv, copy.copy, close and
    encrypt (chacha20: the cffi path in the build without the extension;
    the plugin: the cffi path in every build), for every k until the call
    completes, and CPython raises KeyboardInterrupt where it would for a
    real signal arriving there.  After each attempt the gate is idle and
    close() works."""

    def check(h, k, outcome, lost):
        try:
            h.close()
        except gcrylike.HandleBusy:
            pytest.fail(f"SIGINT at opcode {k} ({outcome!r}): the gate stayed held, "
                        "close() is refused for ever")
        assert h.closed and _idle(h)

    assert _signal_everywhere(make, op, check)  # the signal did interrupt calls


@pytest.mark.parametrize("make", SIGNAL_HANDLES)
@pytest.mark.parametrize("op", SIGNAL_OPS)
def test_signal_never_skips_a_wipe(plugins, make, op):
    """Issue 19, item 6 (the key must be wiped): as above, and no
    KeyboardInterrupt may be lost inside a destructor: a context whose
    wipe-and-free callback (an ffi.gc destructor) is interrupted is never
    wiped nor freed, and the user's Ctrl-C is swallowed ("Exception ignored
    from callback for ffi.gc")."""

    def check(h, k, outcome, lost):
        h.close()
        assert not lost, (f"SIGINT at opcode {k} was lost in a callback: "
                          f"{[(u.exc_type, u.object) for u in lost]}")

    _signal_everywhere(make, op, check)


# == item 7: errors once close() has won ============================================

@pytest.mark.parametrize("make,call", [c[1:] for c in DATA_CALLS], ids=DATA_IDS)
def test_close_at_every_point_of_a_call(plugins, make, call):
    """Issue 19, item 7: after close() raced or re-entered a call, errors came
    out as TypeError ("initializer for ctype 'void *' must be a cdata
    pointer") or another state error instead of HandleClosed.  Every data
    call of every kind, on the fast path and on the cffi path (the plugins;
    every kind in the build without the extension), one-shot classes and
    ``*_into`` included: on a handle closed before the call it raises
    HandleClosed; then a trace function calls close() at the k-th opcode
    executed in gcrylike's frames during the call, for every k until the
    call completes (a close between the state check and the hook was the
    gap).  Each outcome must be the call's right result or HandleClosed;
    close() itself succeeds or, while the call holds the gate, raises
    HandleBusy (and then the call succeeds).  The native path's C methods
    run no Python code between buffers and gate (see the __buffer__ test)."""
    closed = make()
    closed.close()
    with pytest.raises(gcrylike.HandleClosed):
        call(closed)
    want = call(make())
    idle = []

    def every_point():  # on a thread of its own: a close() that waits fails
        for k in itertools.count(1):
            assert k < MAX_OPCODES
            h = make()
            closing: list = []

            def close_now(h=h, closing=closing):
                try:
                    h.close()
                    closing.append("closed")
                except gcrylike.HandleBusy:
                    closing.append("busy")

            fired, outcome = _run_traced(lambda h=h: call(h), k, close_now)
            if not fired:
                assert outcome == want
                return
            if closing == ["busy"]:
                assert outcome == want, (k, outcome)
                h.close()
            else:
                assert closing == ["closed"], (k, closing)
                assert isinstance(outcome, gcrylike.HandleClosed) or outcome == want, \
                    (k, outcome)
            assert h.closed
            idle.append(h)

    _in_thread(every_point, timeout=60)
    assert all(_idle(h) for h in idle)


# == item 8: fork() while another thread is inside a call ===========================

@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is missing on this platform")
def test_fork_child_finds_the_handle_idle(plugins):
    """Issue 19, item 8: after fork() while another thread was inside a call,
    the child's handle was busy for ever (the call does not exist in the
    child, its count did).  A thread waits inside a plugin's Python hook
    (on an Event) while the main thread forks; in the child the handle's
    gate is idle, encrypt works (from where the parent's call had not yet
    moved the stream) and close() succeeds; the child reports through a
    pipe."""
    h = _toy()
    want = _toy().encrypt(b"child")
    inside, release = threading.Event(), threading.Event()

    def hold():
        inside.set()
        release.wait(10)

    _PENDING.append(hold)
    results: list = []
    worker = threading.Thread(target=lambda: results.append(h.encrypt(MSG)))
    worker.start()
    pid, answer = None, "no answer: the parent failed first"
    try:
        assert inside.wait(10)
        r, w = os.pipe()
        with warnings.catch_warnings():  # 3.12+: "multi-threaded, use of fork() ..."
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            try:
                os.close(r)
                report = [h.encrypt(b"child") == want]
                h.close()
                report += [h.closed, _idle(h)]
                message = repr(report)
            except BaseException as exc:  # noqa: BLE001 - reported to the parent
                message = f"error: {exc!r}"
            finally:
                try:
                    os.write(w, message.encode())
                finally:
                    os._exit(0)
        os.close(w)
        ready, _, _ = select.select([r], [], [], 20)
        answer = os.read(r, 4096).decode() if ready else "no answer within 20 s"
        os.close(r)
    finally:
        release.set()
        worker.join(10)
        if pid:
            if answer.startswith("no answer"):
                os.kill(pid, 9)
            os.waitpid(pid, 0)
    assert answer == "[True, True, True]"
    assert results == [_toy().encrypt(MSG)]  # the parent's call went on unharmed
    h.close()


# == item 11: typed hooks ==========================================================

#: Binding method -> the kinds that have it, and arguments of the right shape.
METHODS = {
    "encrypt": ({"stream", "block", "aead"}, (MSG, None)),
    "decrypt": ({"stream", "block", "aead"}, (MSG, None)),
    "update": ({"mac", "aead"}, (b"",)),
    "read": ({"mac", "aead"}, ()),
    "seal": ({"seal", "box"}, (bytes(12), MSG, None)),
    "open": ({"seal", "box"}, (bytes(12), MSG, None)),
    "tweak_encrypt": ({"tweak"}, (MSG, TWEAK, None)),
    "tweak_decrypt": ({"tweak"}, (MSG, TWEAK, None)),
    "sectors": ({"tweak"}, (bytearray(1024), 512, 0, True, 1)),
}
#: a handle of each kind; the plugin stream's hooks are Python, a plain gate
KIND_HANDLES = {"stream": _chacha, "block": _aes, "mac": _poly, "aead": _aead,
                "seal": _chachapoly, "box": _box, "tweak": _adiantum, "gate": _toy}


@needs_native
def test_binding_methods_check_the_kind(plugins):
    """Issue 19, item 11: Binding slots were positional, so a method whose
    slot meant something else for that kind called through the wrong
    pointer (``h._fc.update(b"")`` on a stream handle segfaulted).  Every
    method a kind lacks, on a Binding of every kind, must raise TypeError
    before it touches a hook."""
    kinds = {}
    for kind, make in KIND_HANDLES.items():
        h = make()
        binding = h._binding
        for method, (having, args) in METHODS.items():
            if kind in having:
                continue
            with pytest.raises(TypeError, match="no native"):
                getattr(binding, method)(*args)
        kinds[kind] = binding.kind
        assert _idle(h)
        h.close()
    assert kinds == {k: k for k in KIND_HANDLES}
    assert set(KIND_HANDLES) == set(_fast.KINDS)  # every kind was tried


@needs_native
def test_binding_refuses_missing_hooks():
    """Issue 19, item 11: a Binding is checked when it is made: a required
    hook left out (None) or a hook a kind does not have is a ValueError, so
    no call can later go through an empty or foreign slot."""
    binding_type = _fast.fastcall.Binding
    for kind, make in KIND_HANDLES.items():
        if kind == "gate":
            continue
        h = make()
        hook_kind, hooks, *_ = h._hooks()
        assert hook_kind == kind
        addresses = _fast._native_hooks(kind, hooks)
        kind_id, defs = _fast.KINDS[kind]
        ctx = h._ctx

        def bind(addrs, kind_id=kind_id, ctx=ctx):
            return binding_type("T", kind_id, ctx.ptr, ctx.address, tuple(addrs), 1, 16, False)

        assert bind(addresses).kind == kind  # the complete set is fine
        for i, (name, _ctype, optional) in enumerate(defs):
            if optional:
                continue
            missing = list(addresses)
            missing[i] = None
            with pytest.raises(ValueError, match=name):
                bind(missing)
        with pytest.raises(ValueError):
            bind([*addresses, addresses[0]])  # one more than the kind has
        with pytest.raises(ValueError):
            binding_type("T", _fast.KINDS["gate"][0], ctx.ptr, ctx.address,
                         (addresses[0],), 1, 0, False)
        h.close()
    with pytest.raises(ValueError):
        binding_type("T", len(_fast.KINDS), None, 0, (), 1, 0, False)


# == shared handles: overlapping calls, close() only when idle =======================

@pytest.mark.parametrize("name", ["chacha20poly1305", "adiantum"])
def test_shared_handle_overlaps_calls_and_refuses_close(name):
    """The one-shot classes and Adiantum are shared: two threads' calls on
    1 MiB may run at once (the hooks only read the keyed context) and both
    succeed.  A third thread's close() during them raises HandleBusy, or
    succeeds only with no call inside (the gate counts none right after it),
    after which the two threads get HandleClosed; no result is ever wrong."""
    data = os.urandom(1 << 20)
    if name == "adiantum":
        h = _adiantum()

        def call():
            return h.encrypt(data, TWEAK)
    else:
        h = _chachapoly()

        def call():
            return h.encrypt(bytes(12), data, None)
    want = call()
    stop = threading.Event()
    errors: list = []
    done = [0, 0]

    def worker(slot):
        while not stop.is_set():
            try:
                got = call()
            except gcrylike.HandleClosed:
                return
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
                return
            if got != want:
                errors.append("wrong output")
                return
            done[slot] += 1

    closing = {"busy": 0, "users after close": None}

    def closer():
        for _ in range(2000):
            try:
                h.close()
            except gcrylike.HandleBusy:
                closing["busy"] += 1
            else:
                closing["users after close"] = h._binding.users
                return

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in workers:
        t.start()
    overlapped = False
    try:
        deadline = time.monotonic() + 2
        while not overlapped and time.monotonic() < deadline and not errors:
            overlapped = h._binding.users >= 2
        third = threading.Thread(target=closer)
        third.start()
        third.join(10)
    finally:
        stop.set()
        for t in workers:
            t.join(10)
    assert not errors, errors
    assert overlapped, "the two threads' calls never overlapped"
    assert done[0] and done[1]
    if closing["users after close"] is not None:
        assert closing["users after close"] == 0, "close() succeeded during a call"
    assert closing["busy"] or closing["users after close"] == 0
    h.close()  # idle now: succeeds (or already closed)
    assert h.closed
