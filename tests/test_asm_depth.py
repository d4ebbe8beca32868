"""Each assembly routine's reported burn depth, proven routine by routine.

Every routine in ``asm/*.S`` returns its burn depth: how many bytes below
its entry stack pointer it wrote.  The C glue wipes the deepest depth once
per call, with allowances for its own frames, so test_burn_stack.py (which
checks whole calls) cannot see a routine that under-reports.  Here each
routine runs alone through a test-only hook of its module
(``gcry_<module>_asm_depth``, the thunks in ``ciphers/*/*_depth.c``): the
stack below is painted, the routine is called from a small C thunk, and the
lowest byte that lost the paint is found (``gcry_asm_depth`` in
``gcrylike/_native/burn.c``).  The measurement counts from the routine's
exact entry stack pointer (the slot of its return address into the thunk),
so there is no slack for the thunk's frame: ``measured <= reported``.

Every routine is run twice, from entry stack pointers 16 bytes apart, so the
AVX2 frames aligned down to 32 bytes are seen at both of their depths.  The
Poly1305 SIMD routines also run with the most blocks they take without a
frame, and the AVX-512 ChaCha blocks16 with one group of 16 besides two
(case names ending in ``/n``).

All 35 routines in ``asm/*.S`` return a depth, so all are covered; none
returns void.  The ones that use no stack (AES-NI, NH, HChaCha, HSalsa20,
the two- and four-block AVX2 ChaCha, the AVX-512 ChaCha but for blocks16
from 32 blocks, the AVX-512 Salsa20 but for its groups of 17 from 272
blocks) must measure 0.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import gcrylike

GCRY_ERR_INV_ARG = 45
GCRY_ERR_NOT_SUPPORTED = 60
NOT_FOUND = 2**64 - 1       # the hook could not find the entry stack pointer
SANE_DEPTH = 4096           # no routine has a reason to use more
SHIFTS = (0, 16)            # bytes of extra stack before the run

# (hook's module key, Python module, the cases of its table in order)
MODULES = [
    ("chacha", "gcrylike.ciphers.chacha", [
        "_gcry_chacha_amd64_avx512_blocks16",
        "_gcry_chacha_amd64_avx512_blocks16/16",
        "_gcry_chacha_amd64_avx512_blocks8",
        "_gcry_chacha_amd64_avx512_blocks4",
        "_gcry_chacha_amd64_avx512_blocks1",
        "_gcry_hchacha_amd64_avx512",
        "_gcry_hchacha4_amd64_avx512",
        "_gcry_chacha_amd64_avx2_blocks8",
        "_gcry_chacha_amd64_avx2_blocks4",
        "_gcry_chacha_amd64_avx2_blocks2",
        "_gcry_hchacha_amd64_avx2",
        "_gcry_chacha_amd64_ssse3_blocks4",
        "_gcry_chacha_amd64_ssse3_blocks1",
        "_gcry_hchacha_amd64_ssse3",
    ]),
    ("salsa20", "gcrylike.ciphers.salsa20", [
        "_gcry_salsa20_amd64_avx512_blocks16",
        "_gcry_salsa20_amd64_avx512_blocks16_gpr",
        "_gcry_salsa20_amd64_avx512_blocks8",
        "_gcry_hsalsa20_amd64_avx512",
        "_gcry_salsa20_amd64_avx2_blocks8",
        "_gcry_hsalsa20_amd64_avx2",
        "_gcry_salsa20_amd64_sse2_blocks4",
        "_gcry_hsalsa20_amd64_sse2",
    ]),
    ("poly1305", "gcrylike.ciphers.poly1305", [
        "_gcry_poly1305_amd64_avx512ifma_blocks",
        "_gcry_poly1305_amd64_avx512ifma_blocks/8",
        "_gcry_poly1305_amd64_avx2_blocks",
        "_gcry_poly1305_amd64_avx2_blocks/16",
        "_gcry_poly1305_amd64_sse2_blocks",
        "_gcry_poly1305_amd64_sse2_blocks/8",
        "_gcry_poly1305_amd64_scalar_blocks",
    ]),
    ("nhpoly1305", "gcrylike.ciphers.nhpoly1305", [
        "_gcry_nh_amd64_avx512",
        "_gcry_nh_amd64_avx512_units",
        "_gcry_nh_amd64_avx2",
        "_gcry_nh_amd64_avx2_units",
        "_gcry_nh_amd64_sse2",
        "_gcry_nh_amd64_sse2_units",
    ]),
    ("aes", "gcrylike.ciphers.aes", [
        "_gcry_aes256_amd64_aesni_setkey",
        "_gcry_aes256_amd64_aesni_encrypt",
        "_gcry_aes256_amd64_aesni_decrypt",
    ]),
    ("aead", "gcrylike.ciphers.chacha20poly1305", [
        "_gcry_chacha20_poly1305_amd64_avx2_blocks8",
    ]),
    ("secretbox", "gcrylike.ciphers.secretbox", [
        "_gcry_salsa20_poly1305_amd64_avx2_blocks8",
    ]),
]


def needed_features(routine: str) -> frozenset[str]:
    """The CPU features a routine needs beyond baseline x86-64 (SSE2): the
    AVX-512 ChaCha and Salsa20 also use AVX512VL, NH's AVX-512 only
    AVX512F."""
    if "chacha_amd64_avx512" in routine or "salsa20_amd64_avx512" in routine:
        return frozenset({"avx512f", "avx512vl"})
    for marker, feature in (("_avx512ifma", "avx512ifma"), ("_avx512", "avx512f"),
                            ("_avx2", "avx2"), ("_ssse3", "ssse3"), ("_aesni", "aesni")):
        if marker in routine:
            return frozenset({feature})
    return frozenset()


def hook(key: str, module: str):
    mod = importlib.import_module(module)
    return mod.ffi, getattr(mod.lib, f"gcry_{key}_asm_depth")


def case_names(key: str, module: str) -> list[str] | None:
    """The names of the hook's cases, in order; None without assembly."""
    ffi, fn = hook(key, module)
    name = ffi.new("const char **")
    names = []
    while True:
        rc = fn(len(names), 0, name, ffi.NULL, ffi.NULL)
        if rc == GCRY_ERR_NOT_SUPPORTED:
            return None
        if rc == GCRY_ERR_INV_ARG:
            return names
        assert rc == 0
        names.append(ffi.string(name[0]).decode())


def depth(key: str, module: str, which: int, shift: int) -> tuple[str, int, int]:
    """Run case WHICH: its name, reported and measured depth."""
    ffi, fn = hook(key, module)
    name = ffi.new("const char **")
    reported = ffi.new("unsigned int *")
    measured = ffi.new("size_t *")
    assert fn(which, shift, name, reported, measured) == 0
    return ffi.string(name[0]).decode(), reported[0], measured[0]


@pytest.mark.parametrize("key,module,expected", MODULES, ids=[m[0] for m in MODULES])
def test_hook_lists_the_routines(key, module, expected):
    names = case_names(key, module)
    if names is None:
        pytest.skip("built without assembly")
    assert names == expected


def test_every_routine_is_covered():
    """Every routine in asm/*.S has a case (when the sources are beside the
    tests, as under tox)."""
    asm = Path(__file__).resolve().parent.parent / "asm"
    if not asm.is_dir():
        pytest.skip("asm/ sources not beside the tests")
    defined = {m for f in asm.glob("*.S")
               for m in re.findall(r"GCRY_FUNC_BEGIN\((\w+)\)", f.read_text())}
    covered = {name.split("/")[0] for _, _, names in MODULES for name in names}
    assert defined == covered


def _cases():
    for key, module, names in MODULES:
        for which, routine in enumerate(names):
            for shift in SHIFTS:
                yield pytest.param(key, module, which, routine, shift,
                                   id=f"{routine.removeprefix('_gcry_')}+{shift}")


@pytest.mark.parametrize("key,module,which,routine,shift", list(_cases()))
def test_routine_reports_its_depth(key, module, which, routine, shift):
    if case_names(key, module) is None:
        pytest.skip("built without assembly")
    lacking = needed_features(routine) - gcrylike.hw_features()
    if lacking:
        pytest.skip(f"needs {', '.join(sorted(lacking))}, which this CPU lacks or denies")
    name, reported, measured = depth(key, module, which, shift)
    assert name == routine
    assert measured != NOT_FOUND, "the routine's entry stack pointer was not found"
    assert reported <= SANE_DEPTH
    assert measured <= reported, f"{routine} wrote {measured} bytes, reported {reported}"
    # every case is long enough to run the frame its routine reports, so a
    # reported depth with nothing measured would mean the probe is blind
    assert measured > 0 or reported == 0
