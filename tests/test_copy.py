"""copy.copy / copy.deepcopy of every handle kind: an independent clone of
the C context (new allocation, same bytes, same driver) that continues
exactly where the original was; closing one leaves the other working, both
are wiped and freed; a closed handle is not copied; pickling is refused."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import gcrylike
from gcrylike import _context
from gcrylike._core import ffi

RNG = random.Random(0xC0B1)
STREAMS = ("SALSA20", "SALSA20R12", "XSALSA20", "CHACHA20", "CHACHA12", "XCHACHA20", "XCHACHA12")
MACS = ("POLY1305", "NHPOLY1305")
AEADS = ("CHACHA20", "XCHACHA20")
COPIERS = {"copy": copy.copy, "deepcopy": copy.deepcopy}


def drivers(name: str) -> list[str]:
    return [i.driver for i in gcrylike.implementations(name) if i.available]


def cases(names, *extra) -> list:
    return [pytest.param(n, d, *extra, id=d) for n in names for d in drivers(n)]


def rand(n: int) -> bytes:
    return RNG.randbytes(n)


def spec_of(h):
    return h._spec


# -- streams -------------------------------------------------------------------------------

def stream(name: str, driver: str, key: bytes, iv: bytes):
    h = gcrylike.cipher_open(name, impl=driver)
    h.setkey(key)
    h.setiv(iv)
    return h


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("name,driver", cases(STREAMS))
def test_stream_clone_continues_where_the_original_was(name, driver, how):
    spec = gcrylike._registry.lookup(name)
    key, iv = rand(spec.key_sizes[-1]), rand(spec.iv_sizes[-1])
    msg = rand(1500)
    want = stream(name, driver, key, iv).encrypt(msg)  # uncopied reference
    for cut in (0, 1, 63, 64, 200, 777):
        h = stream(name, driver, key, iv)
        head = h.encrypt(msg[:cut])
        twin = COPIERS[how](h)
        assert twin.info == h.info and twin._ctx.address != h._ctx.address
        # interleaved, in pieces of different sizes: the two states are separate
        a1 = h.encrypt(msg[cut:cut + 100])
        b1 = twin.encrypt(bytearray(msg[cut:cut + 333]))
        a2 = h.encrypt(msg[cut + 100:])
        b2 = twin.encrypt(msg[cut + 333:])
        assert head + a1 + a2 == want and head + b1 + b2 == want
        h.close()
        twin.close()


@pytest.mark.parametrize("name,driver", cases(("CHACHA20", "SALSA20")))
def test_stream_clone_keeps_the_saved_copy_for_reset_and_seeks(name, driver):
    key, iv, iv2 = rand(32), rand(8), rand(8)
    if name == "CHACHA20":
        iv, iv2 = rand(12), rand(12)
    ref = stream(name, driver, key, iv2)
    ref.setctr(5)
    want = ref.encrypt(bytes(100))
    h = stream(name, driver, key, iv)
    h.encrypt(bytes(10))
    twin = copy.copy(h)
    h.close()  # the clone owns its own saved post-setkey state
    twin.reset()
    twin.setiv(iv2)
    twin.setctr(5)
    assert twin.encrypt(bytes(100)) == want


def test_stream_clone_without_key_or_iv_keeps_that_state():
    h = gcrylike.cipher_open("chacha20")
    twin = copy.copy(h)
    with pytest.raises(gcrylike.MissingKey):
        twin.encrypt(b"xy")
    h.setkey(bytes(32))
    twin2 = copy.copy(h)
    with pytest.raises(gcrylike.InvalidState):
        twin2.encrypt(b"xy")
    twin2.setiv(bytes(12))
    assert twin2.encrypt(bytes(64)) == stream("CHACHA20", h.info.driver, bytes(32),
                                             bytes(12)).encrypt(bytes(64))


# -- MACs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("how", [*COPIERS, "method"])
@pytest.mark.parametrize("name,driver", cases(MACS))
def test_mac_clone_continues_where_the_original_was(name, driver, how):
    spec = gcrylike._registry.lookup(name)
    key = rand(spec.key_sizes[0])
    prefix, tails = rand(1000), [rand(n) for n in (0, 1, 15, 16, 17, 500, 4096)]
    h = gcrylike.mac_open(name, impl=driver)
    h.setkey(key)
    h.update(prefix)
    for tail in tails:  # hashlib's pattern: one key prefix, many messages
        twin = h.copy() if how == "method" else COPIERS[how](h)
        twin.update(tail)
        assert twin.digest() == gcrylike.mac(name, key, prefix + tail, impl=driver)
        twin.close()
    assert h.digest() == gcrylike.mac(name, key, prefix, impl=driver)
    h.close()


@pytest.mark.parametrize("name,driver", cases(("POLY1305",)))
def test_mac_clone_after_final_still_needs_reset(name, driver):
    h = gcrylike.mac_open(name, impl=driver)
    key = rand(32)
    h.setkey(key)
    h.update(b"abc")
    h.final()
    twin = h.copy()
    with pytest.raises(gcrylike.InvalidState):
        twin.update(b"x")
    twin.reset()
    twin.update(b"x")
    assert twin.digest() == gcrylike.mac(name, key, b"x")


# -- AEAD handles --------------------------------------------------------------------------

def aead_handle(name: str, driver: str, key: bytes, nonce: bytes, aad: bytes):
    h = gcrylike.cipher_open(name, mode="poly1305", impl=driver)
    h.setkey(key)
    h.setiv(nonce)
    h.authenticate(aad)
    return h


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("name,driver", cases(("CHACHA20-POLY1305", "XCHACHA20-POLY1305")))
def test_aead_clone_continues_where_the_original_was(name, driver, how):
    key, aad, msg = rand(32), rand(21), rand(1300)
    nonce = rand(24 if name.startswith("X") else 12)
    one_shot = (gcrylike.XChaCha20Poly1305 if name.startswith("X")
                else gcrylike.ChaCha20Poly1305)(key).encrypt(nonce, msg, aad)
    cipher = "XCHACHA20" if name.startswith("X") else "CHACHA20"
    for cut in (0, 1, 64, 515):
        h = aead_handle(cipher, driver, key, nonce, aad[:10])
        twin0 = COPIERS[how](h)  # a clone in the AAD phase
        h.authenticate(aad[10:])
        twin0.authenticate(aad[10:])
        head = h.encrypt(msg[:cut])
        twin = COPIERS[how](h)
        rest_a = h.encrypt(msg[cut:])
        rest_b = twin.encrypt(bytearray(msg[cut:]))
        h.close()  # closing one leaves the other working
        assert head + rest_a == head + rest_b == one_shot[:-16]
        assert twin.gettag() == one_shot[-16:]
        assert twin0.encrypt(msg) + twin0.gettag() == one_shot
        twin.close()


@pytest.mark.parametrize("name,driver", cases(("CHACHA20-POLY1305",)))
def test_aead_clone_decrypts_and_checks(name, driver):
    key, nonce, msg = rand(32), rand(12), rand(200)
    sealed = gcrylike.ChaCha20Poly1305(key).encrypt(nonce, msg, b"")
    h = aead_handle("CHACHA20", driver, key, nonce, b"")
    assert h.decrypt(sealed[:50]) == msg[:50]
    twin = copy.copy(h)
    assert twin.decrypt(sealed[50:-16]) == msg[50:]
    twin.checktag(sealed[-16:])
    with pytest.raises(gcrylike.AuthenticationFailed):  # the original is unaffected
        h.decrypt(sealed[50:-16])
        h.checktag(bytes(16))


# -- one-shot objects, tweakable and block ciphers ----------------------------------------------

ONE_SHOTS = [
    pytest.param(lambda: gcrylike.ChaCha20Poly1305(bytes(range(32))),
                 lambda o: o.encrypt(bytes(12), b"m" * 300, b"ad"), id="ChaCha20Poly1305"),
    pytest.param(lambda: gcrylike.XChaCha20Poly1305(bytes(range(32))),
                 lambda o: o.encrypt(bytes(24), b"m" * 300, b"ad"), id="XChaCha20Poly1305"),
    pytest.param(lambda: gcrylike.SecretBox(bytes(range(32))),
                 lambda o: o.encrypt(b"m" * 300, bytes(24)).ciphertext, id="SecretBox"),
    pytest.param(lambda: gcrylike.Adiantum(bytes(range(32))),
                 lambda o: o.encrypt(b"m" * 300, b"tweak"), id="Adiantum"),
    pytest.param(lambda: gcrylike.Adiantum(bytes(range(32)), "xchacha20"),
                 lambda o: o.encrypt(b"m" * 300, b"tweak"), id="Adiantum-xchacha20"),
]


def _tweakable():
    h = gcrylike.tweakable_open("adiantum")
    h.setkey(bytes(range(32)))
    return h


def _tweakable_sectors(h):
    buf = bytearray(b"s" * 8192)
    h.encrypt_sectors(buf, 2**40)
    return bytes(buf)


def _block():
    h = gcrylike.block_cipher_open("aes256")
    h.setkey(bytes(range(32)))
    return h


KEYED = [
    *ONE_SHOTS,
    pytest.param(_tweakable, _tweakable_sectors, id="TweakableHandle"),
    pytest.param(_block, lambda h: h.encrypt_blocks(bytes(range(64))), id="BlockCipherHandle"),
]


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("make,use", KEYED)
def test_keyed_objects_clone(make, use, how):
    original = make()
    want = use(make())
    twin = COPIERS[how](original)
    assert type(twin) is type(original) and twin._impl is original._impl
    assert use(twin) == use(original) == want
    original.close()
    assert use(twin) == want and not twin.closed
    with pytest.raises(gcrylike.HandleClosed):
        use(original)
    twin.close()


# -- every kind: closed handles, pickling, pointers, wiping -------------------------------------

def _every_kind():
    s = gcrylike.cipher_open("salsa20")
    s.setkey(bytes(32))
    s.setiv(bytes(8))
    m = gcrylike.mac_open("poly1305")
    m.setkey(bytes(range(32)))
    a = gcrylike.cipher_open("chacha20", mode="poly1305")
    a.setkey(bytes(32))
    a.setiv(bytes(12))
    unkeyed = gcrylike.cipher_open("xchacha20")
    return [s, m, a, unkeyed, _tweakable(), _block(),
            *(p.values[0]() for p in ONE_SHOTS)]


def test_a_closed_handle_is_not_copied():
    for h in _every_kind():
        h.close()
        for copier in (copy.copy, copy.deepcopy):
            with pytest.raises(gcrylike.HandleClosed):
                copier(h)
    m = gcrylike.mac_open("poly1305")
    m.close()
    with pytest.raises(gcrylike.HandleClosed):
        m.copy()


def test_pickling_is_refused():
    for h in _every_kind():
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            with pytest.raises(gcrylike.NotPicklable) as info:
                pickle.dumps(h, protocol)
            assert isinstance(info.value, TypeError) and "pickle" in str(info.value)
        h.close()
    ctx = gcrylike.Context(64)
    with pytest.raises(gcrylike.NotPicklable):
        pickle.dumps(ctx)
    ctx.free()


def _pointers(obj) -> list[int]:
    """Addresses of every cffi pointer an object's slots hold (also inside tuples)."""
    found = []
    names = [n for c in type(obj).__mro__ for n in c.__dict__.get("__slots__", ())]
    values = [getattr(obj, n) for n in names if hasattr(obj, n) and n != "_ctx"]
    while values:
        v = values.pop()
        if isinstance(v, (tuple, list)):
            values.extend(v)
        elif isinstance(v, ffi.CData) and ffi.typeof(v).kind == "pointer":
            found.append(int(ffi.cast("uintptr_t", v)))
    return found


def test_no_clone_keeps_a_pointer_into_the_original():
    for h in _every_kind():
        old = h._ctx.address
        twin = copy.copy(h)
        assert old not in _pointers(twin)
        assert all(p == twin._ctx.address for p in _pointers(twin))
        h.close()
        twin.close()


class _FreeLog:
    """Stands in for the core library in gcrylike._context and records every
    wipe-and-free (gcry_ctx_release wipes before it frees) before doing it."""

    def __init__(self, real):
        self.real, self.freed = real, []

    def __getattr__(self, name):
        return getattr(self.real, name)

    def gcry_ctx_release(self, p):
        self.freed.append(int(ffi.cast("uintptr_t", p)))
        self.real.gcry_ctx_release(p)


def test_original_and_clone_are_each_wiped_and_freed(monkeypatch):
    log = _FreeLog(_context.lib)
    monkeypatch.setattr(_context, "lib", log)
    for h in _every_kind():
        twin = copy.copy(h)
        a, b, total = h._ctx.address, twin._ctx.address, h._ctx._total
        assert a != b and twin._ctx._total == total
        # the clone's memory is its own: same bytes now, separate afterwards
        assert ffi.buffer(h._ctx.ptr, total)[:] == ffi.buffer(twin._ctx.ptr, total)[:]
        log.freed.clear()
        h.close()
        assert log.freed == [a]
        assert not twin.closed
        twin.close()
        assert log.freed == [a, b]


def test_context_copy_is_a_new_allocation():
    ctx = gcrylike.Context(100)
    ffi.memmove(ctx.ptr, bytes(range(100)), 100)
    ctx.save()
    twin = copy.copy(ctx)
    assert twin.address != ctx.address
    assert ffi.buffer(twin.ptr, 100)[:] == bytes(range(100))
    ctx.free()
    twin.wipe()
    twin.restore()
    assert ffi.buffer(twin.ptr, 100)[:] == bytes(range(100))
    twin.free()
    with pytest.raises(gcrylike.HandleClosed):
        copy.copy(ctx)
