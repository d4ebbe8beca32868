"""The native fast path (gcrylike/_native/fastcall.c): which path each
handle kind takes, that both paths agree, hooks written in Python and plugin
hooks given as cffi function pointers, sector batches over threads, and two
threads on one handle (serialised by refusal: HandleBusy, never corruption).

GCRYLIKE_EXPECT_FASTCALL (set by tox: 1 in the default envs, 0 in
``nofast``) makes the path test prove the build under test is the one meant.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
import inspect
import os
import threading

import pytest

import gcrylike
from gcrylike import _fast
from gcrylike._handle import CipherHandle
from gcrylike.ciphers.chacha import ffi as chacha_ffi
from gcrylike.ciphers.chacha import lib as chacha_lib

EXPECTED = "fastcall" if _fast.AVAILABLE else "cffi"
KEY = bytes(range(32))


def test_build_is_the_one_meant():
    want = os.environ.get("GCRYLIKE_EXPECT_FASTCALL")
    if want is None:
        pytest.skip("GCRYLIKE_EXPECT_FASTCALL not set (tox sets it)")
    assert _fast.AVAILABLE == (want == "1")
    if want == "0":  # the wheel was built without the extension
        with pytest.raises(ImportError):
            import gcrylike._fastcall  # noqa: F401


def _calls(handle):
    return handle._binding.calls if handle._binding.ready else None


def _stream():
    h = gcrylike.cipher_open("chacha20")
    h.setkey(KEY)
    h.setiv(bytes(12))
    return h


def _each_kind():
    """(name, handle, call) for every handle kind's data calls."""
    out = []
    h = _stream()
    out += [("stream new bytes", h, lambda: h.encrypt(b"x" * 64)),
            ("stream in place", h, lambda: h.encrypt(bytearray(64), out=None)),
            ("stream out=", h, lambda: h.decrypt(b"x" * 64, out=bytearray(64)))]
    buf = bytearray(64)
    out.append(("stream in place", h, lambda: h.encrypt(buf, out=buf)))
    m = gcrylike.mac_open("poly1305")
    m.setkey(KEY)
    out += [("mac update", m, lambda: m.update(b"y" * 40)), ("mac digest", m, m.digest)]
    a = gcrylike.cipher_open("chacha20", mode="poly1305")
    a.setkey(KEY)
    a.setiv(bytes(12))
    out += [("aead authenticate", a, lambda: a.authenticate(b"aad")),
            ("aead encrypt", a, lambda: a.encrypt(b"z" * 33)),
            ("aead gettag", a, a.gettag)]
    one = gcrylike.ChaCha20Poly1305(KEY)
    out += [("aead seal", one, lambda: one.encrypt(bytes(12), b"m" * 64, b"h")),
            ("aead open", one, lambda: one.decrypt(bytes(12), one.encrypt(bytes(12), b"m"),
                                                   None))]
    box = gcrylike.SecretBox(KEY)
    out += [("secretbox seal", box, lambda: box.encrypt(b"s" * 10, bytes(24))),
            ("secretbox open", box, lambda: box.decrypt(box.encrypt(b"", bytes(24))))]
    ad = gcrylike.Adiantum(KEY)
    sec = bytearray(4096)
    out += [("adiantum encrypt", ad, lambda: ad.encrypt(b"q" * 32, b"t")),
            ("adiantum in place", ad, lambda: ad.decrypt(sec, b"t", out=sec)),
            ("adiantum sectors", ad, lambda: ad.encrypt_sectors(sec, 7))]
    b = gcrylike.block_cipher_open("aes256")
    b.setkey(KEY)
    out += [("block encrypt", b, lambda: b.encrypt_blocks(b"b" * 32)),
            ("block decrypt", b, lambda: b.decrypt_blocks(b"b" * 16, out=bytearray(16)))]
    return out


@pytest.mark.parametrize("index", range(len(_each_kind())))
def test_every_kind_takes_the_expected_path(index):
    name, handle, call = _each_kind()[index]
    assert handle._path == EXPECTED, name
    before = _calls(handle)
    call()
    if _fast.AVAILABLE:
        assert _calls(handle) > before, f"{name}: the fast path did not run"
    else:
        assert not handle._binding.ready


def test_mac_oneshot_takes_the_native_hook():
    spec = gcrylike._registry.lookup("poly1305", "mac")
    assert (_fast.mac_address(spec.oneshot) is not None) == _fast.AVAILABLE
    with gcrylike.mac_open("poly1305") as m:
        m.setkey(KEY)
        m.update(b"abc")
        assert gcrylike.mac("poly1305", KEY, b"abc") == m.digest()



# -- a MAC's setkey -----------------------------------------------------------

KEY2 = bytes(range(100, 132))


def _mac_keyed(key=KEY, impl=None):
    m = gcrylike.mac_open("poly1305", impl=impl)
    m.setkey(key)
    return m


def test_mac_rekey_takes_the_native_path():
    """Issue 19 (speed): a ready MAC handle's setkey runs in C; the new key,
    the post-setkey copy reset() restores and the handle's state are those
    of the general setkey."""
    m = _mac_keyed()
    for key in (KEY2, KEY, KEY2):
        before = _calls(m)
        m.setkey(key)
        if _fast.AVAILABLE:
            assert _calls(m) == before + 1, "the re-key did not run natively"
        m.update(b"first")
        assert m.digest() == gcrylike.mac("poly1305", key, b"first")
        m.reset()
        m.update(b"second")
        assert m.digest() == gcrylike.mac("poly1305", key, b"second")
        twin = copy.copy(m)
        assert twin.digest() == m.digest()
        twin.close()
    m.final()  # not ready now: the general setkey, then native ones again
    m.setkey(KEY)
    m.setkey(KEY2)
    assert m.digest() == gcrylike.mac("poly1305", KEY2, b"")
    m.close()


def test_mac_rekey_with_a_python_setkey_hook():
    """A MAC whose data hooks are native but whose setkey is Python code
    (NHPOLY1305) re-keys on the general path, with no error from the
    native one."""
    m = gcrylike.mac_open("nhpoly1305")
    size = m.info.key_sizes[0]
    keys = [bytes([i]) * size for i in (1, 2, 1)]
    m.setkey(keys[0])
    m.update(b"n" * 16)
    tag = m.digest()
    for key in keys[1:]:
        m.setkey(key)
        m.update(b"n" * 16)
    assert m.digest() == tag and m._path == EXPECTED
    m.close()


def test_mac_rekey_refusals_keep_the_old_key():
    """A key of the wrong length or type is refused as before (the general
    path explains) and the key in place stays, on either path."""
    m = _mac_keyed()
    m.update(b"kept")
    for bad, error in ((bytes(31), gcrylike.InvalidKeyLength),
                       (bytes(33), gcrylike.InvalidKeyLength),
                       ("x" * 32, gcrylike.InvalidType)):
        with pytest.raises(error):
            m.setkey(bad)
        assert m._path == EXPECTED
        assert m.digest() == gcrylike.mac("poly1305", KEY, b"kept")
    m.setkey(memoryview(bytearray(KEY2)))
    assert m.digest() == gcrylike.mac("poly1305", KEY2, b"")
    m.close()
    with pytest.raises(gcrylike.HandleClosed):
        m.setkey(KEY)


def test_mac_rekey_runs_the_gate_after_a_selftest_change(monkeypatch):
    """A self-test result recorded or forgotten sends the next setkey of
    every handle to the general path and its first-use gate: with broken
    known answers, a handle on a forced driver is refused."""
    import gcrylike.ciphers.poly1305 as poly
    from gcrylike import _selftest

    m = _mac_keyed()
    forced = _mac_keyed(impl=m.info.driver)
    m.setkey(KEY2)  # natively, under the current results
    broken = tuple(type(v)(v.key, v.message, "00" * 16) for v in poly.POLY1305)
    monkeypatch.setattr(poly, "POLY1305", broken)
    _selftest.forget(m.info.driver)
    try:
        with pytest.raises(gcrylike.SelftestFailed):
            forced.setkey(KEY2)
    finally:
        monkeypatch.undo()
        _selftest.forget(m.info.driver)
    m.setkey(KEY)  # tested again, passing
    assert m.digest() == gcrylike.mac("poly1305", KEY, b"")
    m.close()
    forced.close()


def test_mac_rekey_refused_by_the_hook_forgets_the_key():
    """If the setkey hook refuses a key (here an implementation token it
    does not know), the handle has no key afterwards and its live state is
    wiped, on either path, as the general setkey always did."""
    m = _mac_keyed()
    m.update(b"state")
    ctx = m._ctx
    bad = dataclasses.replace(m._impl, token=31)
    m._impl = bad
    m._binding.allow_setkey(bad.token, (32,), ctx.size, ctx.saved_address)
    with pytest.raises(gcrylike.NotSupported):
        m.setkey(KEY2)
    assert m._path == "none"
    with pytest.raises(gcrylike.MissingKey):
        m.digest()
    assert bytes(ffi_buffer(ctx.ptr, ctx.size)) == bytes(ctx.size)
    assert m._binding.users == 0 and not m._binding.busy
    m.close()


def ffi_buffer(ptr, n):
    from gcrylike._core import ffi

    return ffi.buffer(ptr, n)

def test_closed_and_unkeyed_handles_have_no_path():
    h = gcrylike.cipher_open("chacha20")
    assert h._path == "none"
    h.setkey(KEY)
    assert h._path == "none" or h._path == "cffi"  # a stream needs its IV first
    h.setiv(bytes(12))
    h.close()
    assert h._path == "none"
    with pytest.raises(gcrylike.HandleClosed):
        h.encrypt(b"ab")


def test_python_hooks_keep_the_cffi_path():
    spec = gcrylike._registry.lookup("chacha20", "cipher")
    crypt = chacha_lib.gcry_chacha_crypt
    wrapped = dataclasses.replace(spec, encrypt_stream=lambda c, d, s, n: crypt(c, d, s, n),
                                  decrypt_stream=lambda c, d, s, n: crypt(c, d, s, n))
    h = CipherHandle(wrapped, spec.implementations[0], False, _selftesting=True)
    h.setkey(KEY)
    h.setiv(bytes(12))
    assert h._path == "cffi" and not h._binding.ready
    ref = _stream()
    assert h.encrypt(b"p" * 100) == ref.encrypt(b"p" * 100)


def test_plugin_function_pointers_take_the_fast_path():
    # a plugin may hand over cffi function pointers rather than lib functions
    spec = gcrylike._registry.lookup("chacha20", "cipher")
    pointer = chacha_ffi.addressof(chacha_lib, "gcry_chacha_crypt")
    plugin = dataclasses.replace(spec, encrypt_stream=pointer, decrypt_stream=pointer)
    h = CipherHandle(plugin, spec.implementations[0], False, _selftesting=True)
    h.setkey(KEY)
    h.setiv(bytes(12))
    assert h._path == EXPECTED
    assert h.encrypt(b"p" * 100) == _stream().encrypt(b"p" * 100)


def test_a_hook_of_another_signature_is_not_called_natively():
    if not _fast.AVAILABLE:
        pytest.skip("the native path only")
    crypt = dict((n, t) for n, t, _ in _fast.KINDS["stream"][1])["encrypt"]
    assert _fast.hook_address(chacha_lib.gcry_chacha_crypt, crypt) is not None
    assert _fast.hook_address(chacha_lib.gcry_chacha_setiv, crypt) is None
    assert _fast.hook_address(len, crypt) is None
    assert _fast.hook_address(lambda *a: 0, crypt) is None


@pytest.mark.parametrize("cls", [CipherHandle, gcrylike.AeadHandle])
@pytest.mark.parametrize("name", ["encrypt", "decrypt"])
def test_data_methods_are_their_class_methods(cls, name):
    """With the extension, C functions behind ordinary method descriptors
    (no bound method, no argument tuple per call; limited API), named,
    documented and signed as the class's methods; without it, Python
    functions saying the same."""
    method = cls.__dict__[name]
    assert inspect.ismethoddescriptor(method) == _fast.AVAILABLE
    assert method.__qualname__ == f"{cls.__name__}.{name}"
    assert "``data``" in method.__doc__ and "$self" not in method.__doc__
    params = inspect.signature(method).parameters
    assert list(params) == ["self", "data", "out"]
    assert params["out"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["out"].default is None


def test_other_argument_forms_take_the_general_path():
    h, ref = _stream(), _stream()
    assert h.encrypt(data=b"k" * 20) == ref.encrypt(b"k" * 20)
    assert CipherHandle.encrypt(h, b"z" * 5) == ref.encrypt(b"z" * 5)  # unbound
    buf = bytearray(7)
    assert h.encrypt(b"w" * 7, **{"out": buf}) == 7
    assert bytes(buf) == ref.encrypt(b"w" * 7)
    with pytest.raises(TypeError):
        h.encrypt()
    with pytest.raises(TypeError):
        h.encrypt(b"a", bytearray(1))  # out= is keyword-only
    with pytest.raises(TypeError):
        h.encrypt(b"a", output=bytearray(1))
    assert h.encrypt(b"q" * 9) == ref.encrypt(b"q" * 9)  # still in step


def test_a_bound_method_follows_its_own_handle():
    """h.encrypt taken once keeps calling h: its state, its copy's
    independence, and HandleClosed once h is closed."""
    h = _stream()
    enc = h.encrypt
    h.encrypt(b"a" * 10)
    twin = copy.copy(h)
    assert enc(b"b" * 70) == twin.encrypt(b"b" * 70)
    h.close()
    with pytest.raises(gcrylike.HandleClosed):
        enc(b"c")
    with pytest.raises(gcrylike.HandleClosed):
        enc(bytearray(4), out=bytearray(4))
    ref = _stream()
    ref.encrypt(b"a" * 10 + b"b" * 70)
    assert twin.encrypt(b"d" * 3) == ref.encrypt(b"d" * 3)


def test_a_dropped_handle_is_freed_at_once():
    """No reference cycle through the fast path: once the last reference
    goes, the handle is deallocated (and its context wiped and freed)
    without the cycle collector; a bound method keeps it until it goes."""
    freed = []

    class Watched(CipherHandle):
        __slots__ = ()

        def __del__(self):
            freed.append(self._ctx is not None)

    spec = gcrylike._registry.lookup("chacha20", "cipher")
    gc.disable()
    try:
        h = Watched(spec, spec.implementations[0], False, _selftesting=True)
        h.setkey(KEY)
        h.setiv(bytes(12))
        assert h._path == EXPECTED
        buf = bytearray(64)
        h.encrypt(b"x" * 64)
        h.decrypt(buf, out=buf)
        twin = copy.copy(h)
        bound = h.encrypt
        del h
        assert freed == []
        bound(b"y")
        del bound
        assert freed == [True]
        twin.encrypt(b"t")
        del twin
        assert freed == [True, True]
    finally:
        gc.enable()


@pytest.mark.parametrize("n", [0, 1, 2, 63, 64, 65, 1000, 70000])
def test_both_paths_agree_on_a_stream(n, monkeypatch):
    data = os.urandom(n)
    fast = _stream()
    slow = _stream()
    slow._binding.ready = False  # as if the extension were missing
    assert fast.encrypt(data) == slow.encrypt(data)
    a, b = bytearray(data), bytearray(data)
    assert fast.encrypt(a, out=a) == slow.encrypt(b, out=b) == n
    assert a == b
    oa, ob = bytearray(n + 3), bytearray(n + 3)
    assert fast.encrypt(memoryview(data), out=oa) == slow.encrypt(data, out=ob) == n
    assert oa == ob


def test_short_and_overlapping_out_keep_their_errors():
    h = _stream()
    with pytest.raises(gcrylike.InvalidLength):
        h.encrypt(b"x" * 10, out=bytearray(9))
    buf = bytearray(20)
    with pytest.raises(gcrylike.InvalidArgument, match="overlaps"):
        h.encrypt(memoryview(buf)[:10], out=memoryview(buf)[5:15])
    with pytest.raises(gcrylike.ReadOnlyBuffer):
        h.encrypt(b"x" * 10, out=b"y" * 10)
    with pytest.raises(gcrylike.NotContiguous):
        h.encrypt(memoryview(bytearray(20))[::2])
    # nothing was consumed by the refusals
    assert h.encrypt(b"\0" * 8) == _stream().encrypt(b"\0" * 8)


def test_counter_exhaustion_keeps_its_type():
    h = gcrylike.cipher_open("chacha20")
    h.setkey(KEY)
    h.setiv(bytes(12))
    h.setctr((1 << 32) - 1)
    h.encrypt(b"\0" * 64)
    with pytest.raises(gcrylike.CounterExhausted):
        h.encrypt(b"\0" * 2)


def test_tag_failure_releases_nothing_on_either_one_shot():
    one = gcrylike.ChaCha20Poly1305(KEY)
    sealed = bytearray(one.encrypt(bytes(12), b"secret" * 20, b"h"))
    sealed[3] ^= 1
    with pytest.raises(gcrylike.AuthenticationFailed):
        one.decrypt(bytes(12), bytes(sealed), b"h")
    box = gcrylike.SecretBox(KEY)
    b = bytearray(box.encrypt(b"secret", bytes(24)))
    b[-1] ^= 1
    with pytest.raises(gcrylike.AuthenticationFailed):
        box.decrypt(bytes(b))


# -- sector batches over threads ------------------------------------------------

@pytest.fixture
def small_thread_share():
    """Let batches of a few sectors split, so the tests exercise threads."""
    if not _fast.AVAILABLE:
        yield
        return
    old = _fast.fastcall.set_min_bytes_per_thread(512)
    yield
    _fast.fastcall.set_min_bytes_per_thread(old)


@pytest.mark.parametrize("threads", [1, 2, 3, 5, 8, 64])
@pytest.mark.parametrize("nsectors,sector_size", [(1, 4096), (7, 512), (33, 4096), (16, 16)])
def test_sector_threads_give_the_single_threaded_result(threads, nsectors, sector_size,
                                                        small_thread_share):
    ad = gcrylike.Adiantum(KEY)
    plain = os.urandom(nsectors * sector_size)
    first = (1 << 32) - 3  # tweaks crossing a 32-bit boundary
    one, many = bytearray(plain), bytearray(plain)
    ad.encrypt_sectors(one, first, sector_size, threads=1)
    ad.encrypt_sectors(many, first, sector_size, threads=threads)
    assert one == many
    for i in range(nsectors):  # and each sector is the single-message call
        tweak = (first + i).to_bytes(8, "little") + bytes(24)
        assert ad.encrypt(plain[i * sector_size:(i + 1) * sector_size], tweak) == \
            bytes(many[i * sector_size:(i + 1) * sector_size])
    ad.decrypt_sectors(many, first, sector_size, threads=threads)
    assert many == plain


def test_sector_threads_argument_is_checked():
    ad = gcrylike.Adiantum(KEY)
    buf = bytearray(4096)
    for bad, err in ((0, gcrylike.InvalidArgument), (65, gcrylike.InvalidArgument),
                     (1.0, gcrylike.InvalidType), (True, gcrylike.InvalidType)):
        with pytest.raises(err):
            ad.encrypt_sectors(buf, 0, threads=bad)
    assert buf == bytearray(4096)


def test_sector_batch_takes_int_subclasses():
    """The native sector call takes exact ints only; an int subclass goes
    round by the checked path and gives the same result."""
    class Number(int):
        pass

    ad = gcrylike.Adiantum(KEY)
    plain = os.urandom(3 * 512)
    want = bytearray(plain)
    ad.encrypt_sectors(want, 7, 512, threads=2)
    got = bytearray(plain)
    before = _calls(ad)
    ad.encrypt_sectors(got, Number(7), Number(512), threads=Number(2))
    assert got == want
    if before is not None:
        assert _calls(ad) == before + 1  # one native call, from the checked path


def test_sector_batch_reports_the_threads_it_used(small_thread_share):
    if not _fast.AVAILABLE:
        pytest.skip("the native path only")
    ad = gcrylike.Adiantum(KEY)
    buf = bytearray(4096 * 8)
    assert ad._binding.sectors(buf, 4096, 0, True, 4) == 4
    assert ad._binding.sectors(buf, 4096, 0, True, 16) == 8  # no more than sectors
    ad.decrypt_sectors(buf, 0, threads=2)
    ad.decrypt_sectors(buf, 0, threads=3)
    assert buf == bytearray(4096 * 8)


# -- two threads on one handle ---------------------------------------------------

BIG = 1 << 20  # far above the GIL threshold: the GIL is released inside


def _hammer(work, nthreads=3, rounds=6):
    """Run work() ``rounds`` times on each of ``nthreads`` threads at once;
    returns the results and the number of HandleBusy refusals."""
    results, busy, errors = [], [0], []
    lock = threading.Lock()
    start = threading.Barrier(nthreads)

    def run():
        start.wait()
        for _ in range(rounds):
            try:
                r = work()
            except gcrylike.HandleBusy:
                with lock:
                    busy[0] += 1
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
            else:
                with lock:
                    results.append(r)

    threads = [threading.Thread(target=run) for _ in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results, busy[0]


def test_threads_on_one_stream_never_corrupt_it():
    h = _stream()
    zeros = bytes(BIG)
    results, busy = _hammer(lambda: h.encrypt(zeros))
    assert len(results) + busy == 18
    # every call that ran took the next whole piece of the keystream
    ref = _stream()
    pieces = {ref.encrypt(zeros) for _ in results}
    assert set(results) == pieces and len(set(results)) == len(results)
    assert h.encrypt(b"\0" * 5) == ref.encrypt(b"\0" * 5)


def test_threads_in_place_on_one_stream():
    h = _stream()

    def work():
        b = bytearray(BIG)
        h.encrypt(b, out=b)
        return bytes(b)

    results, busy = _hammer(work)
    ref = _stream()
    assert set(results) == {ref.encrypt(bytes(BIG)) for _ in results}


def test_threads_on_one_mac():
    m = gcrylike.mac_open("poly1305")
    m.setkey(KEY)
    data = os.urandom(BIG)
    results, busy = _hammer(lambda: m.update(data))
    # same data each time: the order of the updates does not matter
    assert m.digest() == gcrylike.mac("poly1305", KEY, data * len(results))


def test_threads_share_one_shot_and_adiantum_handles():
    one = gcrylike.ChaCha20Poly1305(KEY)
    data = os.urandom(BIG)
    want = one.encrypt(bytes(12), data, None)
    results, busy = _hammer(lambda: one.encrypt(bytes(12), data, None))
    assert busy == 0 and set(results) == {want}
    ad = gcrylike.Adiantum(KEY)
    want = ad.encrypt(data, b"t")
    results, busy = _hammer(lambda: ad.encrypt(data, b"t"))
    assert busy == 0 and set(results) == {want}


def test_close_during_a_call_is_refused_or_comes_after():
    h = _stream()
    zeros = bytes(8 << 20)
    done = threading.Event()
    out = []

    def worker():
        try:
            out.append(h.encrypt(zeros))
        except gcrylike.GcryError as exc:
            out.append(exc)
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    while not done.is_set():
        try:
            h.close()
            break
        except gcrylike.HandleBusy:
            continue
    t.join()
    h.close()  # (again) once the call is over
    # either the call finished first or the handle closed first: never a crash
    assert isinstance(out[0], (bytes, gcrylike.HandleClosed))
    if isinstance(out[0], bytes):
        assert out[0] == _stream().encrypt(zeros)
    assert h.closed


def test_busy_handle_refuses_copy_setiv_and_setkey():
    h = _stream()
    with h._binding:  # one call counted as running, as a thread inside one would
        with pytest.raises(gcrylike.HandleBusy):
            h.encrypt(b"\0" * 4)  # a second data call
        for call in (lambda: copy.copy(h), lambda: h.setiv(bytes(12)),
                     lambda: h.setkey(KEY), h.close, h.reset):
            with pytest.raises(gcrylike.HandleBusy):
                call()
    assert h.encrypt(b"\0" * 4) == _stream().encrypt(b"\0" * 4)


# -- one large stream call over threads ----------------------------------------

@pytest.fixture
def small_split():
    """Split stream requests from 1 KiB, 64 bytes a thread at least, so
    small inputs exercise every piece layout."""
    if not _fast.AVAILABLE:
        yield
        return
    old = _fast.fastcall.set_split(1024, 64)
    yield
    _fast.fastcall.set_split(*old)


@pytest.fixture
def threads_setting():
    old = gcrylike.set_threads(1)
    yield
    gcrylike.set_threads(old)


def _opened(name, iv_len, key_len=32):
    h = gcrylike.cipher_open(name)
    h.setkey(KEY[:key_len])
    h.setiv(bytes(range(iv_len)))
    return h


@pytest.mark.parametrize("name,iv_len", [("chacha20", 12), ("chacha20", 8), ("xchacha12", 24),
                                         ("salsa20", 8), ("xsalsa20", 24)])
@pytest.mark.parametrize("lead", [0, 1, 63, 64, 100])
@pytest.mark.parametrize("threads", [2, 3, 7])
def test_split_stream_calls_equal_one_thread(name, iv_len, lead, threads, small_split,
                                             threads_setting):
    data = os.urandom(4096 * 3 + 17)
    one, many = _opened(name, iv_len), _opened(name, iv_len)
    one.encrypt(b"\0" * lead)  # leftover keystream before the big call
    many.encrypt(b"\0" * lead)
    gcrylike.set_threads(1)
    want = one.encrypt(data)
    after = one.encrypt(b"\0" * 70)
    gcrylike.set_threads(threads)
    assert many.encrypt(data) == want
    assert many.encrypt(b"\0" * 70) == after  # the context went on from the end
    many2 = _opened(name, iv_len)
    many2.encrypt(b"\0" * lead)
    buf = bytearray(data)
    assert many2.encrypt(buf, out=buf) == len(data) and buf == want
    out = bytearray(len(data))
    many3 = _opened(name, iv_len)
    many3.encrypt(b"\0" * lead)
    assert many3.decrypt(data, out=out) == len(data) and out == want


def test_split_stream_call_refuses_past_the_counter(small_split, threads_setting):
    gcrylike.set_threads(4)
    h = _opened("chacha20", 12)
    h.setctr((1 << 32) - 10)  # 10 blocks (640 bytes) left
    with pytest.raises(gcrylike.CounterExhausted):
        h.encrypt(bytes(641 + 2048))
    # nothing moved: the last 640 bytes are still there, split or not
    ref = _opened("chacha20", 12)
    ref.setctr((1 << 32) - 10)
    gcrylike.set_threads(1)
    want = ref.encrypt(bytes(640))
    gcrylike.set_threads(4)
    assert h.encrypt(bytes(640)) == want
    with pytest.raises(gcrylike.CounterExhausted):
        h.encrypt(b"\0\0")


@pytest.mark.parametrize("name,iv_len,bits", [("chacha20", 12, 32), ("chacha20", 8, 64),
                                              ("salsa20", 8, 64)])
def test_split_up_to_the_counters_end(name, iv_len, bits, small_split, threads_setting):
    gcrylike.set_threads(3)
    h = _opened(name, iv_len)
    h.setctr((1 << bits) - 40)
    ref = _opened(name, iv_len)
    ref.setctr((1 << bits) - 40)
    gcrylike.set_threads(1)
    want = ref.encrypt(bytes(40 * 64))
    gcrylike.set_threads(3)
    assert h.encrypt(bytes(40 * 64)) == want
    with pytest.raises(gcrylike.CounterExhausted):
        h.encrypt(b"\0\0")


def test_set_threads_is_checked(threads_setting):
    for bad, err in ((0, gcrylike.InvalidArgument), (65, gcrylike.InvalidArgument),
                     ("2", gcrylike.InvalidType), (False, gcrylike.InvalidType)):
        with pytest.raises(err):
            gcrylike.set_threads(bad)
    assert gcrylike.set_threads(None) == 1
    assert gcrylike.set_threads(2) == _fast.DEFAULT_THREADS
