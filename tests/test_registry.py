"""Registry, implementation choice, self-test gating and plugin loading."""

from __future__ import annotations

import os
import textwrap
import warnings

import pytest
import toy_cipher

import gcrylike
from gcrylike import ErrorCode as E
from gcrylike import _fast, _registry, _selftest


@pytest.fixture
def deny():
    previous = gcrylike.set_hwf_deny([])
    yield gcrylike.set_hwf_deny
    gcrylike.set_hwf_deny(previous)


def test_builtin_lookup_by_name_alias_id_any_case():
    assert "SALSA20" in gcrylike.algorithms()
    for key in ("salsa20", "SALSA20", "Salsa20/20", 313):
        with gcrylike.cipher_open(key) as h:
            assert h.info.algorithm == "SALSA20"
    with gcrylike.cipher_open("SALSA20/12") as h:
        assert h.info.algorithm == "SALSA20R12"


@pytest.mark.parametrize("bad,exc,code", [
    ("no-such-cipher", LookupError, E.CIPHER_ALGO),
    (999999, LookupError, E.CIPHER_ALGO),
    (3.5, TypeError, E.INV_ARG),
    (True, TypeError, E.INV_ARG),
])
def test_lookup_errors(bad, exc, code):
    with pytest.raises(exc) as info:
        gcrylike.cipher_open(bad)
    assert isinstance(info.value, gcrylike.GcryError) and info.value.code == code


def test_implementations_ranked_and_flagged():
    infos = gcrylike.implementations("salsa20")
    assert [i.priority for i in infos] == sorted((i.priority for i in infos), reverse=True)
    assert infos[-1].driver == "salsa20-generic" and infos[-1].available
    with gcrylike.cipher_open("salsa20") as h:
        assert h.info.driver == next(i.driver for i in infos if i.available)


def test_unknown_impl_and_unrunnable_impl(deny):
    with pytest.raises(gcrylike.UnknownName):
        gcrylike.cipher_open("salsa20", impl="salsa20-nonesuch")
    drivers = [i.driver for i in gcrylike.implementations("salsa20")]
    if "salsa20-amd64-sse2" not in drivers:
        pytest.skip("assembly not built (USE_AMD64 off)")
    deny("sse2")
    with pytest.raises(gcrylike.NotSupported) as info:
        gcrylike.cipher_open("salsa20", impl="salsa20-amd64-sse2")
    assert "sse2 denied" in str(info.value) and info.value.code == E.NOT_SUPPORTED
    deny("sse2,avx512f")  # the AVX-512 driver needs no SSE2
    with gcrylike.cipher_open("salsa20") as h:
        assert h.info.driver == "salsa20-generic"


def test_register_plugin_and_use(clean_registry):
    spec = gcrylike.register(toy_cipher.make_spec())
    assert "TOY" in gcrylike.algorithms()
    assert gcrylike.implementations("toy-stream")[0].selftest == "passed"
    with gcrylike.cipher_open("toy") as h:
        h.setkey(bytes(32))
        h.setiv(bytes(8))
        ct = h.encrypt(b"hello plugin")
        h.setiv(bytes(8))
        assert h.decrypt(ct) == b"hello plugin"
    gcrylike.unregister("TOY")
    with pytest.raises(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("toy")
    assert spec.name == "TOY"


@pytest.mark.parametrize("change", [
    {"name": "salsa20"}, {"algo": 313}, {"aliases": ("Salsa20/12",)},
])
def test_register_refuses_duplicates(clean_registry, change):
    kwargs = {"name": "TOY", "algo": 90001, "aliases": ("toy-stream",)}
    kwargs.update(change)
    with pytest.raises(gcrylike.NameConflict) as info:
        gcrylike.register(toy_cipher.make_spec(**kwargs))
    assert isinstance(info.value, ValueError) and info.value.code == E.CONFLICT


def test_register_refuses_duplicate_driver(clean_registry):
    impl = gcrylike.Implementation("salsa20-generic", 1, token="good")
    with pytest.raises(gcrylike.NameConflict):
        gcrylike.register(toy_cipher.make_spec(impls=[impl]))


def test_register_validates_spec(clean_registry):
    with pytest.raises(gcrylike.InvalidType):
        gcrylike.register("not a spec")
    with pytest.raises(gcrylike.UnknownName):
        gcrylike.register(toy_cipher.make_spec(impls=[
            gcrylike.Implementation("toy-x", 1, frozenset({"quantum"}), "good")]))


def test_failing_plugin_is_refused(clean_registry):
    bad = gcrylike.Implementation("toy-bad", 100, token="bad")
    with pytest.raises(gcrylike.SelftestFailed) as info:
        gcrylike.register(toy_cipher.make_spec(impls=[bad]))
    assert "toy-bad" in str(info.value) and info.value.code == E.SELFTEST_FAILED
    assert "TOY" not in gcrylike.algorithms()


def test_wrong_implementation_is_never_used(clean_registry):
    good = gcrylike.Implementation("toy-good", 100, token="good")
    bad = gcrylike.Implementation("toy-fast-but-wrong", 200, token="bad")
    gcrylike.register(toy_cipher.make_spec(impls=[good, bad]))
    states = {i.driver: i.selftest for i in gcrylike.implementations("toy")}
    assert states == {"toy-good": "passed", "toy-fast-but-wrong": "failed"}
    with gcrylike.cipher_open("toy") as h:
        assert h.info.driver == "toy-good"
    with pytest.raises(gcrylike.SelftestFailed):
        gcrylike.cipher_open("toy", impl="toy-fast-but-wrong")


def test_first_setkey_selftest_falls_back(clean_registry, deny):
    """An untested higher-priority implementation is tested on first setkey;
    when it fails the handle moves to the next one that passes."""
    if "avx2" not in gcrylike._hwf.detected():
        pytest.skip("needs a CPU with avx2 to gate the bad implementation")
    good = gcrylike.Implementation("toy-good", 100, token="good")
    bad = gcrylike.Implementation("toy-avx2-wrong", 200, frozenset({"avx2"}), "bad")
    deny("avx2")  # not runnable at registration, so not tested yet
    gcrylike.register(toy_cipher.make_spec(impls=[good, bad]))
    deny([])
    h = gcrylike.cipher_open("toy")
    assert h.info.driver == "toy-avx2-wrong"
    h.setkey(bytes(32))
    assert h.info.driver == "toy-good"
    h.close()
    with pytest.raises(gcrylike.SelftestFailed):
        gcrylike.cipher_open("toy", impl="toy-avx2-wrong")


def test_builtin_selftest_failure_is_sticky(monkeypatch):
    """Corrupt the known answers: every implementation fails on first setkey,
    setkey raises SELFTEST_FAILED, and the failure sticks."""
    import gcrylike.ciphers.salsa20 as salsa

    broken = [type(v)(key=v.key, nonce=v.nonce, rounds=v.rounds,
                      blocks={k: "00" * 64 for k in v.blocks}) for v in salsa.VECTORS]
    monkeypatch.setattr(salsa, "VECTORS", broken)
    monkeypatch.setattr(_selftest, "_results", {})
    h = gcrylike.cipher_open("salsa20")
    with pytest.raises(gcrylike.SelftestFailed) as info:
        h.setkey(bytes(32))
    assert info.value.code == E.SELFTEST_FAILED and isinstance(info.value, RuntimeError)
    assert all(i.selftest == "failed" for i in gcrylike.implementations("salsa20")
               if i.available)
    with pytest.raises(gcrylike.SelftestFailed):
        gcrylike.cipher_open("salsa20")
    h.close()


def test_resolve_follows_the_deny_list(deny):
    """resolve() remembers its answer (what gcrylike.mac() asks on every
    call) only while the features in use stay the same."""
    spec, impl = _registry.resolve("poly1305", "mac")
    assert (spec.name, impl) == ("POLY1305", _registry.choose(spec))
    if "avx2" not in impl.features:
        pytest.skip("the chosen Poly1305 driver does not need avx2 here")
    tag = gcrylike.mac("poly1305", bytes(range(32)), b"data")
    deny("avx2")
    _, lower = _registry.resolve("poly1305", "mac")
    assert "avx2" not in lower.features and lower.driver == _registry.choose(spec).driver
    assert gcrylike.mac("poly1305", bytes(range(32)), b"data") == tag
    with pytest.raises(gcrylike.NotSupported):
        _registry.resolve("poly1305", "mac", impl.driver)
    deny([])
    assert _registry.resolve("poly1305", "mac")[1] == impl
    assert _registry.resolve("poly1305", "mac", impl.driver)[1] == impl


def test_resolve_sees_new_selftest_results(monkeypatch):
    """A remembered answer is not trusted past a change of the self-test
    results: with corrupted known answers, the next one-shot call tests the
    driver again and refuses, whether the results were swapped or one was
    forgotten in place."""
    import gcrylike.ciphers.poly1305 as poly

    key, msg = bytes(range(32)), b"resolve"
    good = gcrylike.mac("poly1305", key, msg)  # answer remembered, self-test passed
    _, impl = _registry.resolve("poly1305", "mac")
    broken = tuple(type(v)(v.key, v.message, "00" * 16) for v in poly.POLY1305)
    monkeypatch.setattr(poly, "POLY1305", broken)
    # results unchanged: the passed self-test still stands
    assert gcrylike.mac("poly1305", key, msg, impl=impl.driver) == good
    with monkeypatch.context() as m:
        m.setattr(_selftest, "_results", {})
        with pytest.raises(gcrylike.SelftestFailed):
            gcrylike.mac("poly1305", key, msg, impl=impl.driver)
    _selftest.forget(impl.driver)
    try:
        with pytest.raises(gcrylike.SelftestFailed):
            gcrylike.mac("poly1305", key, msg, impl=impl.driver)
    finally:
        monkeypatch.undo()
        _selftest.forget(impl.driver)  # tested again, and passing, on next use
    assert gcrylike.mac("poly1305", key, msg, impl=impl.driver) == good



def test_remembered_mac_calls_follow_the_registry(deny, monkeypatch):
    """gcrylike.mac(name, ...) without impl= remembers its native call per
    name (issue 19, speed): the remembered call is the one resolve() gives
    now, after a deny-list change and after a change of the self-test
    results (swapped or forgotten in place), never a stale driver."""
    import gcrylike.ciphers.poly1305 as poly
    from gcrylike import _mac

    key, msg = bytes(range(32)), b"remembered"
    good = gcrylike.mac("poly1305", key, msg)
    _, impl = _registry.resolve("poly1305", "mac")
    if _fast.AVAILABLE:
        assert _mac._shots["poly1305"][-1] == impl.token
    if impl.features:
        deny(sorted(impl.features))
        assert gcrylike.mac("poly1305", key, msg) == good
        _, lower = _registry.resolve("poly1305", "mac")
        assert lower is not impl
        if _fast.AVAILABLE:
            assert _mac._shots["poly1305"][-1] == lower.token
        deny([])
    broken = tuple(type(v)(v.key, v.message, "00" * 16) for v in poly.POLY1305)
    monkeypatch.setattr(poly, "POLY1305", broken)
    with monkeypatch.context() as m:
        m.setattr(_selftest, "_results", {})
        with pytest.raises(gcrylike.SelftestFailed):
            gcrylike.mac("poly1305", key, msg)
    for i in gcrylike.implementations("poly1305"):
        _selftest.forget(i.driver)
    try:
        with pytest.raises(gcrylike.SelftestFailed):
            gcrylike.mac("poly1305", key, msg)
    finally:
        monkeypatch.undo()
        for i in gcrylike.implementations("poly1305"):
            _selftest.forget(i.driver)
    assert gcrylike.mac("poly1305", key, msg) == good

def test_remembered_lookups_forget_unregistered_specs(clean_registry):
    spec = gcrylike.register(toy_cipher.make_spec())
    assert _registry.lookup("toy") is spec and _registry.lookup("TOY", "cipher") is spec
    gcrylike.unregister("toy")
    with pytest.raises(gcrylike.UnknownAlgorithm):
        _registry.lookup("toy")
    again = gcrylike.register(toy_cipher.make_spec())
    assert again is not spec and _registry.lookup("toy") is again


def _write_dist(root, dist, module, body, entry):
    pkg = root / module
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(body))
    info = root / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[gcrylike.ciphers]\n{entry}\n")


def test_entry_point_plugins(clean_registry, tmp_path, monkeypatch):
    tests_dir = os.path.dirname(toy_cipher.__file__)
    _write_dist(tmp_path, "good_plugin", "good_plugin", f"""
        import sys; sys.path.insert(0, {tests_dir!r})
        import toy_cipher
        def specs():
            return [toy_cipher.make_spec("EPTOY", 90010, aliases=())]
        """, "eptoy = good_plugin:specs")
    _write_dist(tmp_path, "bad_plugin", "bad_plugin", f"""
        import sys; sys.path.insert(0, {tests_dir!r})
        import gcrylike, toy_cipher
        SPEC = toy_cipher.make_spec("BADTOY", 90011, aliases=(),
            impls=[gcrylike.Implementation("badtoy-x", 1, token="bad")])
        """, "badtoy = bad_plugin:SPEC")
    _write_dist(tmp_path, "broken_plugin", "broken_plugin", "import no_such_module_xyz\n",
                "broken = broken_plugin:SPEC")
    monkeypatch.syspath_prepend(str(tmp_path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = gcrylike.algorithms()
    assert "EPTOY" in names and "BADTOY" not in names
    errors = gcrylike.plugin_errors()
    assert any("badtoy" in k and "SelftestFailed" in v for k, v in errors.items())
    assert any("broken" in k and "no_such_module_xyz" in v for k, v in errors.items())
    assert sum(issubclass(w.category, gcrylike.PluginWarning) for w in caught) == 2
    with gcrylike.cipher_open("eptoy") as h:
        h.setkey(bytes(32))
        h.setiv(bytes(8))
        assert len(h.encrypt(b"x" * 100)) == 100
