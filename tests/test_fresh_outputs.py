"""Outputs off the fast path are new objects (issue 19 item 3), and the
one-shot MAC of a plugin whose one-shot hook the fast path cannot take
(item 5).

CPython hands out one shared object for ``b"\\0"`` (``ZERO * 1 is ZERO``):
native code writing a 1-byte tag into it would change every ``b"\\0"`` of
the process, a tag the caller already holds included.  The plugins here
have 1-byte outputs; their data hooks are native (a small cffi module built
for the test), since only native hooks get ``bytes`` outputs to fill.
"""

from __future__ import annotations

import ctypes
import importlib.util
import shutil
import sys

import pytest

import gcrylike
from gcrylike import _mac
from gcrylike._core import ffi

#: The tag of the toy MAC: (sum of the key and message bytes) mod 256, xor
#: 0x5A; the toy tweakable cipher xors every byte with 0xA5.
TINY_C = r"""
#include <stdint.h>
#include <stddef.h>
static unsigned sum (const uint8_t *p, size_t n)
{ unsigned s = 0; while (n--) s += *p++; return s; }
int tiny_update (void *ctx, const uint8_t *m, size_t n)
{ uint8_t *acc = ctx; *acc = (uint8_t) (*acc + sum (m, n)); return 0; }
int tiny_read (void *ctx, uint8_t *out, size_t n)
{ for (size_t i = 0; i < n; i++)
    out[i] = *(uint8_t *) ctx ^ 0x5A;
  return 0; }
int tiny_oneshot (const uint8_t *key, size_t keylen, const uint8_t *m, size_t n,
                  uint8_t *tag, unsigned int impl)
{ (void) impl; tag[0] = (uint8_t) (sum (key, keylen) + sum (m, n)) ^ 0x5A; return 0; }
int tiny_crypt (void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                const uint8_t *tweak, size_t tweaklen)
{ (void) ctx; (void) tweak; (void) tweaklen;
  for (size_t i = 0; i < n; i++)
    dst[i] = src[i] ^ 0xA5;
  return 0; }
"""
TINY_CDEF = """
int tiny_update(void *ctx, const uint8_t *m, size_t n);
int tiny_read(void *ctx, uint8_t *out, size_t n);
int tiny_oneshot(const uint8_t *key, size_t keylen, const uint8_t *m, size_t n,
                 uint8_t *tag, unsigned int impl);
int tiny_crypt(void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
               const uint8_t *tweak, size_t tweaklen);
"""
KEY = bytes(range(16))
MESSAGE = b"one-byte tags"


def _tag(key: bytes, msg: bytes) -> bytes:
    return bytes([(sum(key) + sum(msg)) % 256 ^ 0x5A])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The native hooks (compiled once for this module)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler to build the native test hooks")
    import cffi

    builder = cffi.FFI()
    builder.cdef(TINY_CDEF)
    builder.set_source("_i19_tiny", TINY_C)
    path = builder.compile(tmpdir=str(tmp_path_factory.mktemp("tiny")))
    spec = importlib.util.spec_from_file_location("_i19_tiny", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.lib


@pytest.fixture
def no_plugins(clean_registry, monkeypatch):
    """A fresh registry of the built-ins alone, beside the tests' own specs."""
    monkeypatch.setenv("GCRYLIKE_PLUGINS", "none")





def _acc(ctx) -> int:
    """The toy MAC's running sum: the first byte of the context."""
    return ffi.buffer(ctx, 1)[0][0]


def _set_acc(ctx, value: int) -> None:
    ffi.buffer(ctx, 1)[:] = bytes([value % 256])


def _setkey(ctx, key, impl):
    _set_acc(ctx, sum(ffi.buffer(key, len(key))[:]))


def _py_update(ctx, src, n):
    _set_acc(ctx, _acc(ctx) + sum(ffi.buffer(src, n)[:]))
    return 0


def _py_read(ctx, out, n):
    ffi.buffer(out, n)[:] = bytes([_acc(ctx) ^ 0x5A]) * n
    return 0


def _py_oneshot(key, keylen, msg, n, out, token):
    ffi.buffer(out, 1)[:] = _tag(ffi.buffer(key, keylen)[:], ffi.buffer(msg, n)[:])
    return 0


def _verify(ctx, tag, n):
    want = bytes([_acc(ctx) ^ 0x5A])
    return 0 if ffi.buffer(tag, n)[:] == want else gcrylike.ErrorCode.CHECKSUM


def _no_selftest(spec, impl):
    """The hooks under test are the point, not a known answer."""


def _mac_spec(update, read, oneshot, name="TINYMAC"):
    return gcrylike.MacSpec(
        name=name, algo=90101, key_sizes=(16,), digest_size=1, context_size=64,
        implementations=(gcrylike.Implementation(f"{name.lower()}-x", 1, token=0),),
        setkey=_setkey, update=update, read=read, verify=_verify, selftest=_no_selftest,
        oneshot=oneshot)


# --- item 5: a one-shot hook the fast path does not take --------------------

@pytest.mark.parametrize("oneshot", [_py_oneshot, None], ids=["python-oneshot", "no-oneshot"])
def test_mac_with_a_one_shot_hook_the_fast_path_cannot_take(no_plugins, oneshot):
    gcrylike.register(_mac_spec(_py_update, _py_read, oneshot))
    for _ in range(3):  # the first call looks the hook up, the later ones remember
        assert gcrylike.mac("tinymac", KEY, MESSAGE) == _tag(KEY, MESSAGE)


# --- item 3: no output is written into a shared bytes object ----------------

#: The shared one-byte object an output must never be: the interpreter's
#: cached b"\0" (what ``b"\0" * 1`` returns).
_SHARED = (b"\0",)


def _zero_is_intact() -> bool:
    return all(z == bytes(1) for z in _SHARED)


@pytest.fixture(autouse=True)
def _repair_zero():
    """Should a test here find the bug, put the shared objects back, so that
    the rest of the session is not run with a changed b"\0"."""
    yield
    if sys.implementation.name == "cpython":
        data_offset = sys.getsizeof(b"") - 1  # where a bytes object's bytes start
        for z in _SHARED:
            if z != bytes(1):
                ctypes.memset(id(z) + data_offset, 0, 1)


def _off_the_fast_path(handle):
    handle._binding.ready = False  # as if the native extension were missing (nofast)
    return handle


def test_one_byte_mac_digest_is_a_new_object(no_plugins, tiny):
    gcrylike.register(_mac_spec(tiny.tiny_update, tiny.tiny_read, tiny.tiny_oneshot))
    with gcrylike.mac_open("tinymac") as h:
        h.setkey(KEY)
        _off_the_fast_path(h)
        h.update(b"")  # tag 0x5A ^ sum(KEY)
        first = h.digest()
        h.update(MESSAGE)
        second = h.digest()
    assert _zero_is_intact()
    assert first == _tag(KEY, b"") and second == _tag(KEY, MESSAGE)


def test_one_byte_one_shot_mac_is_a_new_object(no_plugins, tiny, monkeypatch):
    gcrylike.register(_mac_spec(tiny.tiny_update, tiny.tiny_read, tiny.tiny_oneshot))
    monkeypatch.setattr(_mac, "_mac_call", None)  # off the fast path
    held = gcrylike.mac("tinymac", KEY, MESSAGE)
    other = gcrylike.mac("tinymac", KEY, MESSAGE + b"!")
    assert _zero_is_intact()
    assert held == _tag(KEY, MESSAGE) and other == _tag(KEY, MESSAGE + b"!")


def _sectors(ctx, buf, nsectors, sector_size, first, encrypting):
    return gcrylike.ErrorCode.NOT_SUPPORTED


def test_one_byte_tweakable_message_is_a_new_object(no_plugins, tiny):
    gcrylike.register(gcrylike.TweakableCipherSpec(
        name="TINYWIDE", algo=90102, key_sizes=(16,), min_length=1, max_tweak=16,
        context_size=64, implementations=(gcrylike.Implementation("tinywide-x", 1),),
        setkey=_setkey, encrypt=tiny.tiny_crypt, decrypt=tiny.tiny_crypt,
        crypt_sectors=_sectors, selftest=_no_selftest))
    with gcrylike.tweakable_open("tinywide") as h:
        h.setkey(KEY)
        _off_the_fast_path(h)
        held = h.encrypt(b"\x01", b"tweak")
        other = h.encrypt(b"\x02", b"tweak")
    assert _zero_is_intact()
    assert held == b"\xa4" and other == b"\xa7"
