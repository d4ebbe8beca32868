"""Static typing: the package is marked typed (PEP 561), the literal names
``cipher_open``'s overloads know are the registry's, and the user-style
sample that tox's lint env checks with ``mypy --strict`` also runs."""

from __future__ import annotations

import importlib.resources
import inspect
import runpy
import typing
from pathlib import Path

import gcrylike
from gcrylike import _registry, _typing

SAMPLE = Path(__file__).resolve().parent / "typing" / "sample_usage.py"


def test_package_is_marked_typed():
    assert (importlib.resources.files("gcrylike") / "py.typed").is_file()


def test_overload_literals_are_the_builtin_names():
    def names(kind: str) -> set[str]:
        return {n for s in _registry.all_specs() if s.kind == kind and s.algo < 10000
                for n in (*s.names, s.name.lower())}

    assert set(typing.get_args(_typing.StreamName)) == names("cipher")
    assert set(typing.get_args(_typing.AeadName)) == names("aead")
    modes = {s.mode for s in _registry.all_specs() if s.kind == "aead"}
    assert set(typing.get_args(_typing.AeadMode)) == {m.lower() for m in modes} | {
        m.upper() for m in modes}


def test_opener_signatures():
    params = inspect.signature(gcrylike.cipher_open).parameters
    assert [(p.name, p.kind) for p in params.values()] == [
        ("algo", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("mode", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("impl", inspect.Parameter.KEYWORD_ONLY)]
    for opener in (gcrylike.mac_open, gcrylike.block_cipher_open, gcrylike.tweakable_open):
        assert inspect.signature(opener).parameters["impl"].kind == inspect.Parameter.KEYWORD_ONLY


def test_public_signatures_have_no_bare_any():
    # every annotation of a public callable names its types (cffi's pointers
    # only appear in the plugin hooks, which are not checked here)
    checked = 0
    for name in gcrylike.__all__:
        obj = getattr(gcrylike, name)
        members = [obj] if inspect.isfunction(obj) else [
            m for n, m in vars(obj).items() if inspect.isfunction(m) and not n.startswith("_")
        ] if inspect.isclass(obj) and obj.__module__.startswith("gcrylike._") else []
        for fn in members:
            for pname, param in inspect.signature(fn).parameters.items():
                if pname in ("self", "cls"):
                    continue
                assert param.annotation is not inspect.Parameter.empty, (name, fn, pname)
                assert param.annotation != "Any", (name, fn.__qualname__, pname)
            checked += 1
    assert checked > 40


def test_the_typing_sample_uses_every_public_name():
    text = SAMPLE.read_text()
    missing = [n for n in gcrylike.__all__ if f"gcrylike.{n}" not in text
               and not (n.startswith("__") or f" {n}," in text or f" {n}(" in text)]
    assert not missing


def test_the_typing_sample_runs():
    runpy.run_path(str(SAMPLE), run_name="__main__")
