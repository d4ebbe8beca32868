"""The sdist holds what the test suite (and everything else the repository
tracks) needs: built with ``setup.py sdist`` into a scratch directory, its
member list is compared with ``git ls-files``.  Runs from a git checkout
with setuptools and cffi importable (the tox envs); skipped elsewhere, e.g.
from an unpacked sdist, which has no git metadata."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: repository files no user needs (the CI's own scripts, git's ignore list)
NOT_SHIPPED_PREFIXES = (".",)


def _tracked() -> set[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return {p for p in out.splitlines() if not p.startswith(NOT_SHIPPED_PREFIXES)}


@pytest.fixture(scope="module")
def tracked() -> set[str]:
    return _tracked()


@pytest.fixture(scope="module")
def sdist_members(tracked, tmp_path_factory) -> dict[str, tarfile.TarInfo]:
    del tracked  # a git checkout is needed first (the skip)
    pytest.importorskip("setuptools", minversion="77")  # pyproject's build requirement
    pytest.importorskip("cffi")
    out = tmp_path_factory.mktemp("sdist")
    res = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert "warning" not in res.stderr.lower(), res.stderr
    (archive,) = out.glob("gcrylike-*.tar.gz")
    with tarfile.open(archive) as tar:
        members = {m.name.split("/", 1)[1]: m for m in tar.getmembers() if "/" in m.name}
        pkg_info = tar.extractfile(members["PKG-INFO"])
        assert pkg_info is not None
        members["PKG-INFO"].pax_headers = {"text": pkg_info.read().decode()}
    return members


def test_every_tracked_file_in_sdist(tracked, sdist_members):
    missing = sorted(tracked - set(sdist_members))
    assert not missing, missing


def test_sdist_has_what_tests_need(sdist_members):
    """The files pytest needs from an unpacked sdist, by name (they are
    tracked, so the comparison above covers them too; named here so that
    a change to the tracking cannot hide them)."""
    for need in ("LICENSE", "tox.ini", "pyproject.toml", "tests/conftest.py",
                 "tests/checks.py", "tests/testhooks.py", "tests/native/build_hooks.py",
                 "tests/native/testhooks.h", "tests/typing/sample_usage.py",
                 "tests/envs/sanitized.sh", "tests/vectors/README.md",
                 "docs/examples/gcrylike-chacha8/setup.py"):
        assert need in sdist_members, need
    assert any(p.startswith("tests/asmcheck/") for p in sdist_members)


def test_sdist_has_no_build_products(sdist_members):
    built = [p for p in sdist_members if p.endswith((".so", ".o", ".pyc"))]
    assert not built, built


def test_sdist_metadata(sdist_members):
    """The licence as an SPDX expression with its file, and the URLs."""
    lines = sdist_members["PKG-INFO"].pax_headers["text"].splitlines()
    assert "License-Expression: MIT" in lines
    assert "License-File: LICENSE" in lines
    urls = [line for line in lines if line.startswith("Project-URL: ")]
    assert len(urls) == 4
    assert not any(line.startswith("License: ") for line in lines)
