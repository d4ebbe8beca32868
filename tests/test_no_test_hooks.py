"""Nothing test-only ships: no installed extension of gcrylike has a
test-only entry point (burn switch, stack-residue scanner, probes,
stitched-group counters), neither as a ``lib`` attribute nor compiled in
(its name is nowhere in the shared object).  The names are those the test
copies add (tests/native/, tests/testhooks.py), which do have them."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import pkgutil

import pytest
import testhooks

import gcrylike
import gcrylike.ciphers


def installed_extensions() -> dict[str, str]:
    """Module name -> shared object of every extension module of gcrylike."""
    found = {}
    for pkg in (gcrylike, gcrylike.ciphers):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            spec = importlib.util.find_spec(info.name)
            if spec and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
                found[info.name] = spec.origin
    return found


# The per-routine depth hooks of the old mechanism, now the native check's
# job (tests/native/): gone from every module, never to come back.
RETIRED = {"gcry_asm_depth", "paint_below", *(f"gcry_{m}_asm_depth" for m in (
    "chacha", "salsa20", "poly1305", "aead", "nhpoly1305", "aes", "secretbox"))}


def hook_names() -> set[str]:
    return RETIRED | {name for entry in testhooks.manifest().values()
                      for name in entry["test_only"]}


def test_every_cipher_module_and_core_are_scanned():
    found = installed_extensions()
    assert "gcrylike._core" in found
    assert {e["installed"] for e in testhooks.manifest().values()} <= set(found)


def test_the_test_copies_have_the_names():
    """The list is real: each test copy has its test-only entries."""
    for key, entry in testhooks.manifest().items():
        lib = testhooks.copy(key).lib
        assert entry["test_only"] and all(hasattr(lib, n) for n in entry["test_only"]), key
    assert {"gcry_burn_enabled", "gcry_stack_residue_after", "gcry_aead_stitched_groups",
            "gcry_secretbox_open_probe"} <= hook_names()


@pytest.mark.parametrize("module", sorted(installed_extensions()))
def test_installed_extension_has_no_test_only_entry(module):
    names = hook_names()
    lib = importlib.import_module(module).lib
    assert not names & set(dir(lib))
    with open(installed_extensions()[module], "rb") as f:
        blob = f.read()
    assert [n for n in sorted(names) if n.encode() in blob] == []
    assert os.path.basename(installed_extensions()[module]).startswith("_")
