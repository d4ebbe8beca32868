"""The documented plugin examples (docs/examples/): gcrylike-salsa208 (its
own C and .S, hooks by hand) and gcrylike-chacha8 (its own .S on gcrylike's
stream driver skeleton) build with nothing but what gcrylike installs
(gcrylike.build, the headers of gcrylike.get_include()), install, and are
found through the gcrylike.ciphers entry point, self-tested on load, and
agree with a reference.  Built from copies of the examples without build
artifacts, as from a clean clone, into a target directory (not this env)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from checks import check_bind_now

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
NAMES = ("gcrylike-salsa208", "gcrylike-chacha8")
TESTS = Path(__file__).resolve().parent


def _can_build() -> str | None:
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler here to build the example plugins"
    for module in ("setuptools", "cffi"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: the examples build without isolation"
    # bdist_wheel: part of setuptools from 70.1, the wheel package before
    if (importlib.util.find_spec("setuptools.command.bdist_wheel") is None
            and importlib.util.find_spec("wheel") is None):
        return "neither setuptools>=70.1 nor wheel is installed to build a wheel"
    return None


def _install(work: Path, names, env_extra=None) -> Path:
    """Copy the examples (no build artifacts) and pip-install them into a
    target directory, building against the gcrylike of this environment."""
    src, site = work / "src", work / "site"
    for name in names:
        shutil.copytree(EXAMPLES / name, src / name,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
           "--no-build-isolation", "--target", str(site), *(str(src / n) for n in names)]
    env = {**os.environ, **(env_extra or {})}
    res = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    return site


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    why = _can_build()
    if why:
        pytest.skip(why)
    return _install(tmp_path_factory.mktemp("plugins"), NAMES)


def _run(site: Path, script: str, env_extra=None) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(TESTS)]),
           **(env_extra or {})}
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True,
                         text=True, env=env, check=False, cwd=site)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def test_example_plugins_register_and_run(installed):
    out = _run(installed, """
        import gcrylike
        assert gcrylike.plugin_errors() == {}, gcrylike.plugin_errors()
        for algo, generic in (("salsa208", "salsa208-generic"), ("chacha8", "chacha8-generic")):
            infos = {i.driver: i for i in gcrylike.implementations(algo)}
            assert generic in infos
            assert all(i.selftest == "passed" for i in infos.values() if i.available)
            outs = set()
            for driver, info in infos.items():
                if not info.available:
                    continue
                with gcrylike.cipher_open(algo, impl=driver) as h:
                    h.setkey(bytes(range(32)))
                    h.setiv(bytes(8))
                    ct = h.encrypt(bytes(1000))
                    h.setiv(bytes(8))
                    assert h.decrypt(ct) == bytes(1000)
                    outs.add(ct)
            assert len(outs) == 1  # every driver of the plugin agrees
            print(algo, sorted(infos))
    """)
    if "sse2" in _hw_features():
        assert "salsa208-amd64-sse2" in out and "chacha8-amd64-sse2" in out


def _hw_features() -> frozenset[str]:
    import gcrylike
    return gcrylike.hw_features() if _use_amd64() else frozenset()


def _use_amd64() -> bool:
    import gcrylike
    return gcrylike.config().use_amd64


def test_example_plugins_link_without_lazy_binding(installed):
    """make_ffi links a plugin's extension with ``-z now``, as gcrylike's."""
    check_bind_now(installed.glob("**/*.so"))


def test_chacha8_own_test_suite_passes(installed):
    """The example's own tests (docs/examples/gcrylike-chacha8/tests: known
    answers on every driver, every driver against a pure-Python ChaCha8 on
    gcrylike.testing.compare), run against the installed plugin, and the
    gcrylike selftest command passes with both plugins loaded."""
    tests = installed.parent / "src" / "gcrylike-chacha8" / "tests"
    env = {**os.environ, "PYTHONPATH": str(installed)}
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(tests)], capture_output=True, text=True, check=False,
                         cwd=installed, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "4 passed" in res.stdout
    res = subprocess.run([sys.executable, "-m", "gcrylike", "selftest"], capture_output=True,
                         text=True, check=False, cwd=installed, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "CHACHA8" in res.stdout and "SALSA208" in res.stdout


def test_no_asm_is_honoured_for_plugins(tmp_path):
    """GCRYLIKE_NO_ASM=1 at the plugin's build leaves its assembly out, as
    for gcrylike's own build: only the portable driver is registered."""
    why = _can_build()
    if why:
        pytest.skip(why)
    site = _install(tmp_path, ["gcrylike-chacha8"], {"GCRYLIKE_NO_ASM": "1"})
    out = _run(site, """
        import gcrylike
        print([i.driver for i in gcrylike.implementations("chacha8")])
    """)
    assert out.strip() == "['chacha8-generic']"


def test_plugin_wheel_is_tagged_abi3_like_gcrylikes(tmp_path):
    """gcrylike.build's bdist_wheel (issue 22): a plugin built with it is
    one ``cp311-abi3`` wheel, as gcrylike's own, not ``cp3XY-cp3XY``."""
    why = _can_build()
    if why:
        pytest.skip(why)
    from gcrylike import build

    if not build.stable_abi():
        pytest.skip("no stable ABI on this interpreter: the wheel keeps its own tag")
    src = tmp_path / "src" / "gcrylike-salsa208"
    shutil.copytree(EXAMPLES / "gcrylike-salsa208", src,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                          "--no-build-isolation", "--wheel-dir", str(tmp_path / "out"),
                          str(src)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
    (wheel,) = (tmp_path / "out").glob("*.whl")
    assert wheel.stem.split("-")[-3:-1] == ["cp311", "abi3"], wheel.name
