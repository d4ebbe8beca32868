"""The plugin walk-through runs as written (issue 22).

docs/plugin-kit.rst and docs/plugins.rst mark the console blocks of their
walk-through with a ``.. walk-through`` comment: from a folder holding
gcrylike's source as ``gcrylike/``, a fresh virtual environment, gcrylike
installed from that source, the example plugins copied out of it, built,
installed, listed, self-tested, tested and benchmarked.  Every ``$`` line
of those blocks, in page order, is the script run here, so the pages are
what is tested, not a copy of them.

The run builds gcrylike and both plugins in a new virtual environment of
this interpreter (about half a minute), so it is opt-in:
``GCRYLIKE_WALKTHROUGH=1`` (tox's py and py313 envs set it, so CPython 3.11
and 3.13 run it).  It needs no network: pip reads the packages the commands
install (setuptools, cffi, pytest) from wheels repacked from this
environment, as it would from the index."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import wheelhouse

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: The pages of the walk-through, in the order their blocks run.
PAGES = ("plugin-kit.rst", "plugins.rst")
#: What the commands install from the index, besides gcrylike's source.
FROM_INDEX = ["setuptools", "cffi", "pytest"]
#: Source-tree folders that are not the source a user would have.
#: what the copy of the source leaves out: build products, and the release
#: tree ``gcrylike-<version>/`` that ``setup.py sdist`` (tests/test_sdist.py,
#: in another tox env at the same time) makes and removes in the source root
_NOT_SOURCE = (".git", ".tox", "build", "dist", "*.egg-info", "__pycache__", "*.so",
               "gcrylike-[0-9]*")


def walkthrough_blocks(page: str) -> list[list[str]]:
    """The lines of each console block marked ``.. walk-through`` in PAGE."""
    lines = (DOCS / page).read_text().splitlines()
    blocks, marked = [], False
    for i, line in enumerate(lines):
        if line.startswith(".. walk-through"):
            marked = True
        elif line.startswith(".. code-block:: console"):
            if marked:
                body = []
                for text in lines[i + 1:]:
                    if text and not text.startswith(" "):
                        break
                    body.append(text.strip())
                blocks.append([b for b in body if b])
            marked = False
    return blocks


def commands() -> list[str]:
    return [line[2:] for page in PAGES for block in walkthrough_blocks(page)
            for line in block if line.startswith("$ ")]


def test_every_install_command_is_in_the_walkthrough():
    """No console block of the pages runs pip outside the walk-through
    (where it would go untested), and the walk-through installs both
    examples as they are in docs/examples."""
    for page in PAGES:
        text = (DOCS / page).read_text()
        marked = {line for block in walkthrough_blocks(page) for line in block}
        pip_lines = {line.strip() for line in text.splitlines()
                     if line.strip().startswith("$ ") and "pip install" in line}
        assert pip_lines <= marked, f"{page}: unmarked pip commands {pip_lines - marked}"
    cmds = commands()
    for example in sorted(p.name for p in (DOCS / "examples").iterdir() if p.is_dir()):
        assert f"cp -r gcrylike/docs/examples/{example} ." in cmds
        assert f"python -m pip install --no-build-isolation ./{example}" in cmds
    assert cmds[0] == "python3 -m venv venv"


def _source_copy(folder: Path) -> None:
    """gcrylike's source as a user has it: no build artifacts."""
    shutil.copytree(ROOT, folder / "gcrylike", ignore=shutil.ignore_patterns(*_NOT_SOURCE))


def _environment(work: Path) -> dict[str, str]:
    """A shell as a user's: this interpreter as python3, none of this
    run's Python, pip or gcrylike settings; pip offline, on the wheels."""
    bin_dir, wheels = work / "bin", work / "wheels"
    bin_dir.mkdir()
    wheels.mkdir()
    (bin_dir / "python3").symlink_to(getattr(sys, "_base_executable", sys.executable))
    for name in wheelhouse.with_requirements(FROM_INDEX):
        wheelhouse.repack(name, wheels)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PIP_", "GCRYLIKE_")) and k != "VIRTUAL_ENV"}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheels),
               PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


@pytest.mark.skipif(os.environ.get("GCRYLIKE_WALKTHROUGH") != "1",
                    reason="slow (builds gcrylike in a new venv): GCRYLIKE_WALKTHROUGH=1 runs "
                           "it, as tox's py and py313 envs do")
def test_walkthrough_runs_as_written(tmp_path):
    if shutil.which("bash") is None:
        pytest.skip("the walk-through is shell commands: no bash here")
    work, folder = tmp_path, tmp_path / "walk"
    folder.mkdir()
    _source_copy(folder)
    env = _environment(work)
    script = "set -e -o pipefail -x\n" + "\n".join(commands()) + "\n"
    res = subprocess.run(["bash", "-c", script], cwd=folder, env=env, capture_output=True,
                         text=True, timeout=900, check=False)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-6000:]
    assert "selftest: all passed" in res.stdout
    assert re.search(r"^4 passed", res.stdout, re.M), res.stdout[-3000:]
    assert re.search(r"^SALSA208 .*; using salsa208-generic$", res.stdout, re.M)
