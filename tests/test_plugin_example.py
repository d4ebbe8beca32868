"""The documented plugin example (docs/examples/gcrylike-salsa208: its own
cffi extension and .S file) builds, installs, and is found through the
gcrylike.ciphers entry point, self-tested on load."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "gcrylike-salsa208"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler here to build the example plugin")
    work = tmp_path_factory.mktemp("plugin")
    src, site = work / "src", work / "site"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
           "--target", str(site), str(src)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
    return site


def test_example_plugin_registers_and_runs(installed):
    script = textwrap.dedent("""
        import gcrylike
        assert "SALSA208" in gcrylike.algorithms(), gcrylike.plugin_errors()
        assert gcrylike.plugin_errors() == {}
        infos = {i.driver: i for i in gcrylike.implementations("salsa208")}
        assert "salsa208-generic" in infos
        assert all(i.selftest == "passed" for i in infos.values() if i.available)
        outs = set()
        for driver, info in infos.items():
            if not info.available:
                continue
            with gcrylike.cipher_open("salsa208", impl=driver) as h:
                h.setkey(bytes(range(32)))
                h.setiv(bytes(8))
                ct = h.encrypt(bytes(1000))
                h.setiv(bytes(8))
                assert h.decrypt(ct) == bytes(1000)
                outs.add(ct)
        assert len(outs) == 1  # every driver of the plugin agrees
        print("ok")
    """)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, check=False, cwd=installed)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr
