"""The gcrylike command: list, selftest, config."""

from __future__ import annotations

import gcrylike
from gcrylike._cli import main


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for info in gcrylike.implementations("salsa20"):
        assert info.driver in out
    assert "SALSA20 [cipher, id 313]" in out and "using" in out and "prio" in out


def test_selftest(capsys):
    assert main(["selftest"]) == 0
    out = capsys.readouterr().out
    assert "all passed" in out
    for algo in gcrylike.algorithms():
        for info in gcrylike.implementations(algo):
            line = next(ln for ln in out.splitlines() if info.driver + " " in ln)
            assert ("passed" if info.available else "skipped") in line


def test_config(capsys):
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    cfg = gcrylike.config()
    assert f"use-amd64:{'yes' if cfg.use_amd64 else 'no'}" in out
    drivers = {i.driver for i in gcrylike.implementations("salsa20")}
    assert cfg.use_amd64 == ("salsa20-amd64-sse2" in drivers)
    assert cfg.chosen["SALSA20"] in drivers
    for spec in gcrylike._registry.all_specs():  # one kind:NAME:driver line each
        assert f"{spec.kind}:{spec.name}:{cfg.chosen[spec.name]}" in out.splitlines()


def test_hwf_deny_option(capsys):
    prev = gcrylike.set_hwf_deny([])
    try:
        assert main(["--hwf-deny", "all", "config"]) == 0
        assert "cipher:SALSA20:salsa20-generic" in capsys.readouterr().out
        assert main(["--hwf-deny", "nonsense", "config"]) == 2
        assert "nonsense" in capsys.readouterr().err
    finally:
        gcrylike.set_hwf_deny(prev)
