"""The installed distribution: licence and URLs in the metadata, the licence
file in it, the wheel's ABI tag against what it holds, and the error a user
gets when the source tree hides the installed package."""

from __future__ import annotations

import glob
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from checks import check_bind_now

import gcrylike

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(gcrylike.__file__).resolve().parent


def test_metadata_licence_and_urls():
    meta = importlib.metadata.metadata("gcrylike")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in meta.get_all("License-File")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues"}
    assert all(u.startswith("https://github.com/gcrylike/gcrylike") for u in urls.values())


def test_licence_file_installed():
    dist = importlib.metadata.distribution("gcrylike")
    text = dist.read_text("licenses/LICENSE")
    assert text is not None and text.startswith("MIT License")
    assert "gcrylike contributors" in text


def test_wheel_tag_matches_its_extensions():
    """One cp311-abi3 wheel: every extension, the fast path included, is
    built for the stable ABI of CPython 3.11 and later (a debug CPython has
    no stable ABI: its build is version-specific), and the metadata asks for
    no older Python than the tag serves."""
    dist = importlib.metadata.distribution("gcrylike")
    wheel = dist.read_text("WHEEL")
    assert wheel is not None
    tags = [line.split(": ", 1)[1] for line in wheel.splitlines() if line.startswith("Tag: ")]
    assert len(tags) == 1
    python, abi, _platform = tags[0].split("-")
    extensions = [Path(p).name for p in glob.glob(str(PACKAGE / "**" / "*.so"), recursive=True)]
    assert any(n.startswith("_core.") for n in extensions), extensions
    assert dist.metadata["Requires-Python"] == ">=3.11"
    if hasattr(sys, "gettotalrefcount"):
        pytest.skip("a debug CPython builds version-specific extensions")
    assert [n for n in extensions if not n.endswith(".abi3.so")] == []
    assert (python, abi) == ("cp311", "abi3")
    if importlib.util.find_spec("gcrylike._fastcall") is not None:
        assert "_fastcall.abi3.so" in extensions


def test_extensions_are_linked_without_lazy_binding():
    """Every extension is linked with ``-z now`` (gcrylike.build
    bind_now_flags): no lazy-binding resolver, which saves the vector
    registers to the stack, runs after a call that handled a key."""
    check_bind_now(PACKAGE.glob("**/*.so"))


def _fake_checkout(tmp_path: Path, *, with_setup: bool) -> Path:
    """The Python of the installed package in a folder laid out as the
    repository (setup.py and pyproject.toml beside it), no extension."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "gcrylike",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    if with_setup:
        (root / "setup.py").write_text("")
        (root / "pyproject.toml").write_text("")
    return root


def _import_from(cwd: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    # python -c puts the current directory first on sys.path, as in a shell
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, *flags, "-c", "import gcrylike"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def _import_from_copy(root: Path) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so neither an installed gcrylike nor an editable
    # install's import hook (which outranks sys.path) can answer
    return _import_from(root, "-S")


def _check_explained(res: subprocess.CompletedProcess[str], root: Path) -> None:
    assert res.returncode != 0
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: gcrylike was imported from its source tree"), last
    assert str(root / "gcrylike") in last
    for advice in ("another directory", "python -I", "pip install -e ."):
        assert advice in last


def test_source_tree_import_explained(tmp_path):
    root = _fake_checkout(tmp_path, with_setup=True)
    _check_explained(_import_from_copy(root), root)


def test_elsewhere_missing_core_left_alone(tmp_path):
    """Not a checkout (no setup.py beside it): the plain error stays."""
    root = _fake_checkout(tmp_path, with_setup=False)
    res = _import_from_copy(root)
    assert "ModuleNotFoundError: No module named 'gcrylike._core'" in res.stderr
    assert "source tree" not in res.stderr


def test_repository_root_import_explained():
    """The real case: python run in the repository root after pip install ."""
    if glob.glob(str(ROOT / "gcrylike" / "_core*.so")):
        pytest.skip("the source tree has built extensions (an editable install)")
    _check_explained(_import_from(ROOT), ROOT)


def test_test_extra_has_what_tests_skip_without():
    """``pip install .[test]`` gives a suite that skips nothing for lack of
    a package: matplotlib included (the bench's --plot tests need it)."""
    import re
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    names = {re.match(r"[A-Za-z0-9_.-]+", req).group(0).lower() for req in extras["test"]}
    assert {"pytest", "pycryptodome", "cryptography", "pynacl", "hypothesis", "numpy",
            "matplotlib"} <= names
