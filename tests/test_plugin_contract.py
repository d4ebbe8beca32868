"""The plugin contract (issue 14): a setkey hook's error code is honoured,
stream_selftest needs no setctr, Implementation takes any iterable of
feature names, plugins declare the API version they were written for; and
the control an integrator has over plugins: which ones load, the selftest
command as a deployment gate, what cipher_open says about a failed plugin,
and where a PluginWarning points."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import warnings

import pytest
import toy_cipher

import gcrylike
from gcrylike import ErrorCode as E
from gcrylike import _registry
from gcrylike._spec_fields import OPTIONAL_HOOKS
from gcrylike.selftests import StreamVector, stream_selftest

# --- hook contract ------------------------------------------------------------

def _setkey_returning(code):
    def setkey(ctx, key, impl):
        toy_cipher.setkey(ctx, key, impl)
        return code if key[0] == b"\xff" else 0
    return setkey


@pytest.mark.parametrize("code, exc", [
    (E.INV_KEYLEN, gcrylike.InvalidKeyLength),
    (E.NOT_SUPPORTED, gcrylike.NotSupported),
    (int(E.INV_STATE), gcrylike.InvalidState),
    (12345, gcrylike.GcryError),
])
def test_setkey_error_code_is_raised(clean_registry, code, exc):
    spec = dataclasses.replace(toy_cipher.make_spec(), setkey=_setkey_returning(code))
    gcrylike.register(spec)
    with gcrylike.cipher_open("toy") as h:
        h.setkey(bytes(32))  # 0: accepted
        with pytest.raises(exc) as info:
            h.setkey(b"\xff" + bytes(31))
        assert info.value.code == (code if code in E._value2member_map_ else E.INV_ARG)
        # the refused key is not usable
        with pytest.raises(gcrylike.MissingKey):
            h.setiv(bytes(8))


def test_setkey_error_code_fails_a_selftest(clean_registry):
    """A self-test driving setkey through a handle sees the code too."""
    def setkey(ctx, key, impl):
        toy_cipher.setkey(ctx, key, impl)
        return E.SELFTEST_FAILED
    with pytest.raises(gcrylike.SelftestFailed):
        gcrylike.register(dataclasses.replace(toy_cipher.make_spec(), setkey=setkey))


def _toy_vectors() -> list[StreamVector]:
    key, nonce = bytes(range(32)), bytes(8)
    blocks = {b: toy_cipher._keystream(key, nonce, 64 * b, 64, False).hex() for b in (0, 1, 9)}
    return [StreamVector(key.hex(), nonce.hex(), blocks)]


def test_stream_selftest_without_setctr(clean_registry):
    spec = dataclasses.replace(toy_cipher.make_spec(), setctr=None)
    stream_selftest(spec, spec.implementations[0], _toy_vectors())
    bad = gcrylike.Implementation("toy-bad", 1, token="bad")
    with pytest.raises(gcrylike.SelftestFailed, match="block 0"):
        stream_selftest(spec, bad, _toy_vectors())
    wrong = _toy_vectors()[0]
    wrong.blocks[9] = "00" * 64
    with pytest.raises(gcrylike.SelftestFailed, match="block 9"):
        stream_selftest(spec, spec.implementations[0], [wrong])


@pytest.mark.parametrize("features", [
    ["sse2"], ("sse2", "avx2"), {"sse2"}, frozenset({"sse2"}), (f for f in ["sse2"]), [],
    {"sse2": True},
])
def test_implementation_features_any_iterable(features):
    impl = gcrylike.Implementation("x", 1, features)
    assert isinstance(impl.features, frozenset)
    assert impl.features <= {"sse2", "avx2"}


@pytest.mark.parametrize("features", ["sse2", 3, [1, 2], None, [b"sse2"]])
def test_implementation_features_refused(features):
    with pytest.raises(gcrylike.InvalidType, match="features"):
        gcrylike.Implementation("x", 1, features)


def test_api_version_declared_and_checked(clean_registry):
    assert gcrylike.PLUGIN_API_VERSION in gcrylike.PLUGIN_API_VERSIONS
    spec = toy_cipher.make_spec()
    assert spec.api_version == gcrylike.PLUGIN_API_VERSION
    future = dataclasses.replace(spec, api_version=99)
    with pytest.raises(gcrylike.NotSupported) as info:
        gcrylike.register(future)
    text = str(info.value)
    assert "99" in text and str(gcrylike.PLUGIN_API_VERSION) in text
    for bad in ("1", 0, None, True):
        with pytest.raises(gcrylike.GcryError):
            gcrylike.register(dataclasses.replace(spec, api_version=bad))
    assert "TOY" not in gcrylike.algorithms()


# --- entry-point plugins -----------------------------------------------------

TESTS_DIR = os.path.dirname(os.path.abspath(toy_cipher.__file__))


def _write_dist(root, dist, module, body, entry):
    pkg = root / module
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(body))
    info = root / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[gcrylike.ciphers]\n{entry}\n")


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """Three installed plugins: a good one (EPTOY), one whose self-test
    fails (BADTOY) and one written for a future API (NEWTOY)."""
    header = f"import sys; sys.path.insert(0, {TESTS_DIR!r})\nimport gcrylike, toy_cipher\n"
    _write_dist(tmp_path, "contract_good", "contract_good", header + textwrap.dedent("""
        def specs():
            return [toy_cipher.make_spec("EPTOY", 90010, aliases=())]
        """), "eptoy = contract_good:specs")
    _write_dist(tmp_path, "contract_bad", "contract_bad", header + textwrap.dedent("""
        SPEC = toy_cipher.make_spec("BADTOY", 90011, aliases=("bad-toy",),
            impls=[gcrylike.Implementation("badtoy-x", 1, token="bad")])
        """), "badtoy = contract_bad:SPEC")
    _write_dist(tmp_path, "contract_new", "contract_new", header + textwrap.dedent("""
        import dataclasses
        SPEC = dataclasses.replace(toy_cipher.make_spec("NEWTOY", 90012, aliases=()),
                                   api_version=7)
        """), "newtoy = contract_new:SPEC")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _load() -> tuple[list[str], list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = gcrylike.algorithms()  # line of the caller the warning must name
    return names, [w for w in caught if issubclass(w.category, gcrylike.PluginWarning)]


def test_incompatible_plugin_refused_at_load(clean_registry, plugins):
    names, caught = _load()
    assert "EPTOY" in names and "NEWTOY" not in names
    reason = next(v for k, v in gcrylike.plugin_errors().items() if "newtoy" in k)
    assert "API 7" in reason and "supports 1" in reason


def test_plugin_warning_points_at_the_caller_without_a_repeated_tag(clean_registry, plugins):
    _, caught = _load()
    assert caught
    for w in caught:
        assert w.filename == __file__, w.filename
        text = str(w.message)
        for code in E:
            assert text.count(f"[{code.name}]") <= 1, text


def test_plugins_none_by_env(clean_registry, plugins, monkeypatch):
    monkeypatch.setenv("GCRYLIKE_PLUGINS", "none")
    names, caught = _load()
    assert not {"EPTOY", "BADTOY", "NEWTOY"} & set(names) and not caught
    assert gcrylike.plugin_errors() == {}
    assert "SALSA20" in names


def test_plugins_named_by_env(clean_registry, plugins, monkeypatch):
    monkeypatch.setenv("GCRYLIKE_PLUGINS", " eptoy , ")
    names, caught = _load()
    assert "EPTOY" in names and not caught and gcrylike.plugin_errors() == {}


def test_plugins_named_by_distribution(clean_registry, plugins, monkeypatch):
    monkeypatch.setenv("GCRYLIKE_PLUGINS", "contract-good")
    names, caught = _load()
    assert "EPTOY" in names and "BADTOY" not in names and not caught


def test_plugin_named_but_not_installed_is_an_error(clean_registry, plugins, monkeypatch):
    monkeypatch.setenv("GCRYLIKE_PLUGINS", "eptoy,nosuchplugin")
    names, caught = _load()
    assert "EPTOY" in names
    assert any("nosuchplugin" in k for k in gcrylike.plugin_errors())


def test_set_plugins_api(clean_registry, plugins, monkeypatch):
    monkeypatch.setenv("GCRYLIKE_PLUGINS", "none")  # the API wins over the variable
    gcrylike.set_plugins(["eptoy"])
    names, caught = _load()
    assert "EPTOY" in names and "BADTOY" not in names and not caught
    with pytest.raises(gcrylike.InvalidState, match="already"):
        gcrylike.set_plugins("none")


@pytest.mark.parametrize("bad", [3, [3], None, b"none"])
def test_set_plugins_refuses_bad_values(clean_registry, bad):
    with pytest.raises(gcrylike.InvalidType):
        gcrylike.set_plugins(bad)


def test_set_plugins_none_and_all(clean_registry, plugins):
    gcrylike.set_plugins("none")
    names, caught = _load()
    assert "EPTOY" not in names and not caught


def test_cipher_open_names_the_failed_plugin(clean_registry, plugins):
    _load()
    for name in ("badtoy", "BAD-TOY", 90011):
        with pytest.raises(gcrylike.UnknownAlgorithm) as info:
            gcrylike.cipher_open(name)
        text = str(info.value)
        assert "badtoy (contract_bad:SPEC)" in text and "failed" in text
        assert "selftest" in text
    with pytest.raises(gcrylike.UnknownAlgorithm) as info:
        gcrylike.cipher_open("newtoy")
    assert "API 7" in str(info.value)


def test_cipher_open_mentions_plugins_that_did_not_import(clean_registry, tmp_path,
                                                           monkeypatch):
    _write_dist(tmp_path, "contract_broken", "contract_broken", "import no_such_module_xyz\n",
                "broken = contract_broken:SPEC")
    monkeypatch.syspath_prepend(str(tmp_path))
    _load()
    with pytest.raises(gcrylike.UnknownAlgorithm) as info:
        gcrylike.cipher_open("whatever")
    assert "broken (contract_broken:SPEC)" in str(info.value)
    assert "no_such_module_xyz" in str(info.value)


def test_selftest_report_and_api_include_failed_plugins(clean_registry, plugins):
    _load()
    reports = [r for r in gcrylike.selftest() if r.status == "failed"]
    assert any("badtoy" in r.algorithm for r in reports)
    assert any("newtoy" in r.algorithm for r in reports)


def _cli(args, env_extra, cwd):
    env = {**os.environ, **env_extra}
    return subprocess.run([sys.executable, "-W", "ignore", "-m", "gcrylike", *args],
                          capture_output=True, text=True, env=env, cwd=cwd, check=False)


def test_selftest_command_fails_on_a_failed_plugin(plugins):
    path = os.pathsep.join([str(plugins), os.environ.get("PYTHONPATH", "")])
    res = _cli(["selftest"], {"PYTHONPATH": path}, plugins)
    assert res.returncode == 1, res.stdout + res.stderr
    last = res.stdout.strip().splitlines()[-1]
    assert "FAILED" in last
    assert "badtoy" in res.stdout and "newtoy" in res.stdout
    res = _cli(["selftest"], {"PYTHONPATH": path, "GCRYLIKE_PLUGINS": "eptoy"}, plugins)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "EPTOY" in res.stdout and res.stdout.strip().endswith("all passed")


# --- issue 19: plugins that exit, mistyped metadata, the plugin choice, self-registration

def _cli_with_plugins(args, root, **env):
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    return _cli(args, {"PYTHONPATH": path, **env}, root)


@pytest.fixture
def exiting_plugins(tmp_path, monkeypatch):
    """A good plugin (EPTOY) beside three broken ones: one raising
    SystemExit while imported, one whose self-test raises SystemExit, one
    whose priority is a string."""
    header = f"import sys; sys.path.insert(0, {TESTS_DIR!r})\nimport gcrylike, toy_cipher\n"
    _write_dist(tmp_path, "contract_good", "contract_good", header + textwrap.dedent("""
        SPEC = toy_cipher.make_spec("EPTOY", 90010, aliases=())
        """), "eptoy = contract_good:SPEC")
    _write_dist(tmp_path, "contract_quits", "contract_quits", "raise SystemExit(0)\n",
                "quits = contract_quits:SPEC")
    _write_dist(tmp_path, "contract_quits_test", "contract_quits_test", header + textwrap.dedent("""
        import dataclasses
        def _selftest(spec, impl):
            raise SystemExit(0)
        SPEC = dataclasses.replace(toy_cipher.make_spec("QUITTOY", 90013, aliases=()),
                                   selftest=_selftest)
        """), "quittoy = contract_quits_test:SPEC")
    _write_dist(tmp_path, "contract_strprio", "contract_strprio", header + textwrap.dedent("""
        SPEC = toy_cipher.make_spec("STRTOY", 90014, aliases=(),
            impls=[gcrylike.Implementation("strtoy-python", "100", token="good")])
        """), "strtoy = contract_strprio:SPEC")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_selftest_command_names_plugins_that_exit_or_mistype(exiting_plugins):
    res = _cli_with_plugins(["selftest"], exiting_plugins)
    assert res.returncode == 1, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    assert lines[-1] == "selftest: FAILED"
    failed = [ln for ln in lines if "failed" in ln]
    for label, why in (("quits (contract_quits:SPEC)", "SystemExit"),
                       ("quittoy (contract_quits_test:SPEC)", "SystemExit"),
                       ("strtoy (contract_strprio:SPEC)", "InvalidType")):
        assert any(label in ln and why in ln for ln in failed), (label, res.stdout)
    # every other algorithm is tested and passes, the good plugin included
    assert len(failed) == 3, failed
    for algo in ("EPTOY", "SALSA20", "POLY1305"):
        assert any(ln.startswith(algo + " ") and "passed" in ln for ln in lines), algo


def test_list_command_works_beside_plugins_that_exit_or_mistype(exiting_plugins):
    res = _cli_with_plugins(["list"], exiting_plugins)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "EPTOY [cipher" in res.stdout and "SALSA20 [cipher" in res.stdout
    # not registered, so no algorithm of theirs; each shown with its reason (issue 22)
    assert "STRTOY [" not in res.stdout and "QUITTOY [" not in res.stdout
    assert "not registered: SelftestFailed: QUITTOY" in res.stdout
    assert "(strtoy-python).priority must be an int" in res.stdout


def test_a_selftest_raising_systemexit_fails_the_implementation(clean_registry):
    def selftest(spec, impl):
        raise SystemExit(3)
    spec = dataclasses.replace(toy_cipher.make_spec(), selftest=selftest)
    with pytest.raises(gcrylike.SelftestFailed, match="SystemExit"):
        gcrylike.register(spec)
    assert "TOY" not in gcrylike.algorithms()


#: A wrongly typed value for every field of every spec class (hook fields:
#: anything not callable); the record fields of an Implementation follow.
_WRONG_TYPE = {
    "name": 7, "algo": "7", "api_version": "1", "description": 7, "aliases": ("x", 7),
    "key_sizes": ("32",), "iv_sizes": ("8",), "implementations": ("toy-python",),
    "context_size": "64", "block_size": 1.0, "counter_block": "64", "digest_size": "16",
    "tag_size": "16", "min_length": "16", "max_tweak": "32", "cipher": 7, "mode": 7,
    "reentrant": 1, "extra_hooks": ["x"],
}
_NOT_CALLABLE = "not a hook"
_SPEC_CLASSES = (gcrylike.CipherSpec, gcrylike.MacSpec, gcrylike.AeadSpec,
                 gcrylike.BlockCipherSpec, gcrylike.TweakableCipherSpec, gcrylike.SecretBoxSpec)


def _builtin_spec_of(cls):
    return next(s for s in _registry.all_specs() if type(s) is cls)


def _is_hook_field(cls, name):
    return name in cls.required_hooks or name in OPTIONAL_HOOKS


@pytest.mark.parametrize("cls", _SPEC_CLASSES, ids=lambda c: c.__name__)
def test_every_mistyped_spec_field_is_refused_at_register(clean_registry, cls):
    base = _builtin_spec_of(cls)
    for f in dataclasses.fields(cls):
        bad = _NOT_CALLABLE if _is_hook_field(cls, f.name) else _WRONG_TYPE[f.name]
        with pytest.raises(gcrylike.InvalidType) as info:
            gcrylike.register(dataclasses.replace(base, **{f.name: bad}))
        assert f.name in str(info.value), (f.name, str(info.value))


@pytest.mark.parametrize("field, bad", [
    ("driver", 7), ("priority", "100"), ("priority", 1.5), ("priority", True),
    ("description", 7),
])
def test_mistyped_implementation_fields_are_refused_at_register(clean_registry, field, bad):
    good = {"driver": "toy-python", "priority": 100, "token": "good", "description": ""}
    impl = gcrylike.Implementation(**{**good, field: bad})
    with pytest.raises(gcrylike.InvalidType, match=field):
        gcrylike.register(toy_cipher.make_spec(impls=[impl]))
    assert "TOY" not in gcrylike.algorithms()
    for name in gcrylike.algorithms():  # what `gcrylike list` reads still works
        gcrylike.implementations(name)


def test_string_iv_size_is_refused_at_register(clean_registry):
    with pytest.raises(gcrylike.InvalidType, match=r"iv_sizes\[0\] must be an int"):
        gcrylike.register(dataclasses.replace(toy_cipher.make_spec(), iv_sizes=("8",)))


def test_out_of_range_sizes_are_invalid_arguments(clean_registry):
    for field, bad in (("key_sizes", (0,)), ("key_sizes", ()), ("algo", -1),
                       ("context_size", -1), ("name", "")):
        with pytest.raises(gcrylike.InvalidArgument, match=field):
            gcrylike.register(dataclasses.replace(toy_cipher.make_spec(), **{field: bad}))


@pytest.mark.parametrize("value", ["all,none", "none, all", "eptoy,all"])
def test_all_or_none_in_a_list_is_refused_by_every_registry_use(clean_registry, monkeypatch,
                                                                value):
    monkeypatch.setenv("GCRYLIKE_PLUGINS", value)
    messages = []
    for use in (gcrylike.algorithms, lambda: gcrylike.cipher_open("salsa20"),
                gcrylike.plugin_errors, gcrylike.algorithms):
        with pytest.raises(gcrylike.InvalidArgument) as info:
            use()
        messages.append(str(info.value))
    assert len(set(messages)) == 1 and "GCRYLIKE_PLUGINS" in messages[0], messages
    monkeypatch.setenv("GCRYLIKE_PLUGINS", "none")  # fixed: the registry loads
    assert "SALSA20" in gcrylike.algorithms()


@pytest.fixture
def self_registering(tmp_path, monkeypatch):
    """A plugin module that calls register() on its own spec, which its
    entry point also names."""
    header = f"import sys; sys.path.insert(0, {TESTS_DIR!r})\nimport gcrylike, toy_cipher\n"
    _write_dist(tmp_path, "contract_selfreg", "contract_selfreg", header + textwrap.dedent("""
        SPEC = toy_cipher.make_spec("SELFTOY", 90015, aliases=())
        gcrylike.register(SPEC)
        """), "selftoy = contract_selfreg:SPEC")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    sys.modules.pop("contract_selfreg", None)


def _registered_once(name):
    assert gcrylike.algorithms().count(name) == 1
    assert gcrylike.plugin_errors() == {}
    with gcrylike.cipher_open(name) as h:
        h.setkey(bytes(32))
        h.setiv(bytes(8))
        assert len(h.encrypt(b"x" * 10)) == 10


def test_plugin_registering_itself_while_loaded_by_its_entry_point(clean_registry,
                                                                   self_registering):
    _, caught = _load()
    assert not caught, [str(w.message) for w in caught]
    _registered_once("SELFTOY")


def test_plugin_registering_itself_when_imported_first(clean_registry, self_registering):
    # its register() is the registry's first use, which loads the entry points,
    # which import the module being imported
    import importlib
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        importlib.import_module("contract_selfreg")
    assert not [w for w in caught if issubclass(w.category, gcrylike.PluginWarning)]
    _registered_once("SELFTOY")


def test_registering_the_same_spec_twice_is_harmless_another_conflicts(clean_registry):
    spec = toy_cipher.make_spec()
    assert gcrylike.register(spec) is spec
    assert gcrylike.register(spec) is spec
    assert gcrylike.algorithms().count("TOY") == 1
    with pytest.raises(gcrylike.NameConflict):
        gcrylike.register(toy_cipher.make_spec())
