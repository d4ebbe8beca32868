"""The read-only public views of the library: ``implementations()`` (every
driver, with the one chosen), ``algorithm_info()``, ``data_path(handle)``,
``config().threads_default``, ``cpu_cycles()`` and ``core_mhz()`` (what
``gcrylike list`` and ``gcrylike bench`` are built on)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest
import toy_cipher

import gcrylike
from gcrylike import Implementation, _registry

KEY = bytes(range(32))
X86_64 = platform.machine() in ("x86_64", "AMD64")


def _open(name: str, driver: str | None = None):
    """A handle of algorithm ``name`` (any kind), keyed where the kind's
    opener needs the key; ``.info.driver`` or ``.driver`` names its driver."""
    kind = gcrylike.algorithm_info(name).kind
    if kind in ("cipher", "aead"):
        return gcrylike.cipher_open(name, impl=driver)
    if kind == "mac":
        return gcrylike.mac_open(name, impl=driver)
    if kind == "block":
        return gcrylike.block_cipher_open(name, impl=driver)
    if kind == "tweakable":
        return gcrylike.tweakable_open(name, impl=driver)
    assert kind == "secretbox" and name == "XSALSA20-POLY1305", name
    return gcrylike.SecretBox(KEY, impl=driver)


def _driver_of(handle) -> str:
    return handle.driver if isinstance(handle, gcrylike.SecretBox) else handle.info.driver


# -- implementations() -----------------------------------------------------------


def test_implementations_of_every_algorithm():
    """Without an argument: every algorithm's drivers, algorithms by id, each
    algorithm's best first; the records of one algorithm are those of
    implementations(name), whatever name, alias or id names it."""
    every = gcrylike.implementations()
    names = gcrylike.algorithms()
    assert list(dict.fromkeys(i.algorithm for i in every)) == names
    for name in names:
        mine = [i for i in every if i.algorithm == name]
        assert mine == gcrylike.implementations(name)
        algo = gcrylike.algorithm_info(name)
        assert gcrylike.implementations(algo.id) == mine
        assert gcrylike.implementations(name.lower()) == mine
        for alias in algo.aliases:
            assert gcrylike.implementations(alias) == mine
        assert {i.kind for i in mine} == {algo.kind}
        assert [i.priority for i in mine] == sorted((i.priority for i in mine), reverse=True)
        spec = _registry.lookup(name)
        assert {i.driver for i in mine} == {impl.driver for impl in spec.implementations}
        for info in mine:
            impl = next(x for x in spec.implementations if x.driver == info.driver)
            assert info.priority == impl.priority and info.features == impl.features
            assert info.available == (info.reason == "")
            assert info.available == (info.features <= gcrylike.hw_features())
        chosen = [i for i in mine if i.chosen]
        assert len(chosen) == 1 and chosen[0].available, name
        assert chosen[0] == next(i for i in mine if i.available)  # nothing failed here


def test_implementations_refuses_what_is_no_algorithm():
    with pytest.raises(gcrylike.UnknownAlgorithm):
        gcrylike.implementations("nonesuch")
    with pytest.raises(gcrylike.InvalidType):
        gcrylike.implementations(1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", gcrylike.algorithms())
def test_chosen_driver_is_what_a_new_handle_uses(name):
    """``chosen`` is the driver a handle opened without ``impl=`` gets."""
    chosen = next(i.driver for i in gcrylike.implementations(name) if i.chosen)
    h = _open(name)
    try:
        assert _driver_of(h) == chosen
        assert gcrylike.config().chosen[name] == chosen
    finally:
        h.close()


def test_chosen_follows_the_deny_list():
    """set_hwf_deny moves ``chosen`` (and ``available``) at once."""
    infos = gcrylike.implementations("chacha20")
    best = next(i for i in infos if i.chosen)
    if not best.features:
        pytest.skip("the portable driver is the best here")
    previous = gcrylike.set_hwf_deny(sorted(best.features))
    try:
        now = {i.driver: i for i in gcrylike.implementations("chacha20")}
        assert not now[best.driver].available and not now[best.driver].chosen
        chosen = next(i for i in now.values() if i.chosen)
        assert not chosen.features & best.features
        with gcrylike.cipher_open("chacha20") as h:
            assert h.info.driver == chosen.driver
    finally:
        gcrylike.set_hwf_deny(previous)


_DESCRIBE = """
import json, sys
import gcrylike
print(json.dumps([[i.driver, i.available, i.chosen, i.reason]
                  for i in gcrylike.implementations(sys.argv[1])]))
"""


def test_a_feature_denied_by_the_environment_shows_as_not_available():
    """GCRYLIKE_HWF_DENY (read when the process starts): the drivers that
    need the feature are listed, not available (the reason says it is
    denied) and not chosen; the one chosen needs no denied feature."""
    for name in gcrylike.algorithms():
        best = next(i for i in gcrylike.implementations(name) if i.chosen)
        if best.features:
            break
    else:
        pytest.skip("no driver here needs a CPU feature (the portable build)")
    feature = sorted(best.features)[0]
    env = {**os.environ, "GCRYLIKE_HWF_DENY": feature}
    out = subprocess.run([sys.executable, "-c", _DESCRIBE, name], env=env, cwd="/",
                         capture_output=True, text=True, check=True).stdout
    found = {driver: (available, chosen, reason)
             for driver, available, chosen, reason in json.loads(out)}
    here = {i.driver: i for i in gcrylike.implementations(name)}
    assert set(found) == set(here)
    for driver, (available, chosen, reason) in found.items():
        if feature in here[driver].features:
            assert not available and not chosen, driver
            assert f"{feature} denied" in reason, reason
        elif here[driver].available:
            assert available and reason == "", driver
    assert found[best.driver][:2] == (False, False)
    chosen = [d for d, (_, c, _) in found.items() if c]
    assert len(chosen) == 1 and feature not in here[chosen[0]].features


def test_implementations_of_a_plugin(clean_registry):
    """A registered plugin shows in the view like a built-in; a driver whose
    feature is denied is listed but neither available nor chosen."""
    feature = "sse2"
    impls = (Implementation("toy-sse2", 200, features={feature}, token="good"),
             Implementation("toy-python", 100, token="good"))
    spec = gcrylike.register(toy_cipher.make_spec(impls=impls))
    infos = gcrylike.implementations(spec.name)
    assert {i.algorithm for i in infos} == {"TOY"} and {i.kind for i in infos} == {"cipher"}
    assert [i.driver for i in infos] == ["toy-sse2", "toy-python"]
    assert [i for i in gcrylike.implementations() if i.algorithm == "TOY"] == infos
    previous = gcrylike.set_hwf_deny(feature)
    try:
        fast, portable = gcrylike.implementations(spec.name)
        assert not fast.available and not fast.chosen and fast.reason == f"{feature} denied"
        assert portable.available and portable.chosen
    finally:
        gcrylike.set_hwf_deny(previous)


def test_data_path_of_a_plugin_with_python_hooks(clean_registry):
    """Hooks written in Python take cffi whatever the process's path."""
    gcrylike.register(toy_cipher.make_spec())
    with gcrylike.cipher_open("toy") as h:
        assert gcrylike.data_path(h) == "none"
        h.setkey(KEY)
        h.setiv(bytes(8))
        assert gcrylike.data_path(h) == "cffi"


# -- algorithm_info() ------------------------------------------------------------


FIELDS = ("iv_sizes", "block_size", "digest_size", "tag_size", "cipher", "mode", "min_length",
          "max_tweak")


@pytest.mark.parametrize("name", gcrylike.algorithms())
def test_algorithm_info_is_the_registered_spec(name):
    spec = _registry.lookup(name)
    info = gcrylike.algorithm_info(name)
    assert (info.name, info.id, info.kind) == (spec.name, spec.algo, spec.kind)
    assert info.aliases == tuple(spec.aliases) and info.key_sizes == tuple(spec.key_sizes)
    for field in FIELDS:  # what the kind has, else None
        expected = getattr(spec, field, None)
        assert getattr(info, field) == (tuple(expected) if field == "iv_sizes"
                                        and expected is not None else expected), field
    assert gcrylike.algorithm_info(spec.algo) == info
    assert gcrylike.algorithm_info(name.lower()) == info
    hash(info)  # frozen: usable as a key


def test_algorithm_info_matches_the_handles():
    """What algorithm_info says is what an open handle's ``info`` says."""
    with gcrylike.cipher_open("chacha20") as h:
        a = gcrylike.algorithm_info("chacha20")
        assert (a.block_size, a.key_sizes, a.iv_sizes) == (
            h.info.block_size, h.info.key_sizes, h.info.iv_sizes)
        assert a.digest_size is a.tag_size is a.mode is a.min_length is None
    with gcrylike.cipher_open("chacha20", "poly1305") as h2:
        a = gcrylike.algorithm_info(h2.info.algorithm)
        assert (a.kind, a.cipher, a.mode) == ("aead", "CHACHA20", "poly1305")
        assert (a.key_sizes, a.iv_sizes, a.tag_size) == (
            h2.info.key_sizes, h2.info.iv_sizes, h2.info.tag_size)
    with gcrylike.mac_open("poly1305") as m:
        a = gcrylike.algorithm_info("poly1305")
        assert (a.digest_size, a.key_sizes) == (m.info.digest_size, m.info.key_sizes)
        assert a.iv_sizes is None and a.block_size is None
    with gcrylike.tweakable_open("adiantum") as t:
        a = gcrylike.algorithm_info("adiantum")
        assert (a.min_length, a.max_tweak) == (t.info.min_length, t.info.max_tweak)
    with pytest.raises(gcrylike.UnknownAlgorithm):
        gcrylike.algorithm_info("nonesuch")


# -- data_path(handle) -----------------------------------------------------------


@pytest.mark.parametrize("name", gcrylike.algorithms())
def test_data_path_of_a_keyed_handle_is_the_process_path(name):
    """Every built-in algorithm's keyed handle takes the process's data path
    (config().data_path); before its key and after close(): "none"."""
    expected = gcrylike.config().data_path
    h = _open(name)
    algo = gcrylike.algorithm_info(name)
    try:
        if not isinstance(h, gcrylike.SecretBox):
            assert gcrylike.data_path(h) == "none"
            h.setkey(KEY if 32 in algo.key_sizes else bytes(algo.key_sizes[0]))
            if algo.kind == "cipher" and algo.iv_sizes:
                h.setiv(bytes(algo.iv_sizes[0]))  # a stream takes data after its IV
        assert gcrylike.data_path(h) == expected
    finally:
        h.close()
    assert gcrylike.data_path(h) == "none"


def test_data_path_of_the_one_shot_classes():
    for cls in (gcrylike.ChaCha20Poly1305, gcrylike.XChaCha20Poly1305, gcrylike.SecretBox):
        box = cls(KEY)
        assert gcrylike.data_path(box) == gcrylike.config().data_path
        box.close()


@pytest.mark.parametrize("thing", [None, "chacha20", object()])
def test_data_path_takes_handles_only(thing):
    with pytest.raises(gcrylike.InvalidType):
        gcrylike.data_path(thing)  # type: ignore[arg-type]


_NO_FAST = """
import gcrylike
with gcrylike.cipher_open("chacha20") as h:
    h.setkey(bytes(32)); h.setiv(bytes(12))
    print(gcrylike.data_path(h), gcrylike.config().data_path)
"""


def test_data_path_without_the_fast_path():
    env = {**os.environ, "GCRYLIKE_NO_FASTCALL": "1"}
    out = subprocess.run([sys.executable, "-c", _NO_FAST], env=env, cwd="/",
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["cffi", "cffi"]


# -- threads, clocks -------------------------------------------------------------


def test_threads_default_is_what_set_threads_restores():
    cfg = gcrylike.config()
    previous = gcrylike.set_threads(None)  # the default
    try:
        assert gcrylike.set_threads(previous) == cfg.threads_default
    finally:
        gcrylike.set_threads(previous)
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count() or 1
    assert cfg.threads_default == min(usable, 8) >= 1


def test_cpu_cycles_counts():
    first = gcrylike.cpu_cycles()
    if not X86_64:
        assert first == 0
        return
    second = gcrylike.cpu_cycles()
    assert isinstance(first, int) and 0 < first < second


def test_core_mhz_is_plausible():
    mhz = gcrylike.core_mhz()
    if not X86_64:
        assert mhz is None
        return
    assert isinstance(mhz, float) and 200 < mhz < 10000
