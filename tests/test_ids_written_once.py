"""Implementation ids are written nowhere (a row's place), CPU feature bits once, in C.

An implementation id is its driver row's place in its component's table
(``chacha_glue.c``'s ``chacha_drivers``, ...): Python reads the rows
(``gcrylike._spec.native_drivers``), the composites and the native check
find a driver by its name, and no id is written anywhere.  The CPU features are the
list of ``gcrylike/_native/hwf.h``: a feature's place there is its bit,
and Python (``gcrylike._hwf.FEATURES``) and the native check
(``tests/asmcheck``) read the names from ``gcry_hwf_name`` (core.c).

These tests read the source tree beside them (a checkout or an unpacked
sdist) and fail when an id or a feature's bit is written again in Python:
an id-like name bound to an int literal (``_GENERIC, _AVX2 = 0, 2``), a
table of tier or feature names to ints (``{"avx2": 2}``), a driver row
whose token is a literal (``("generic", 100, frozenset(), 0, ...)``), or an
ordered list of feature names; and when an id is written in C (an enum or
a constant) or a token is not a row's place."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The Python that may hold ids or feature names: shipped and build code.
SCANNED = ("ciphers", "gcrylike", "build_tools", "setup.py")

#: Words naming a tier or a feature, as they appear in an id's name
#: (``_CHACHA_AVX512``, ``_POLY_GENERIC64``) or a table's key.
_TIER_WORD = re.compile(
    r"GENERIC\d*|SSE\d*|SSSE3|AVX\w*|IFMA|AESNI|VAES|PCLMUL|BMI2|NEON|IMPL|SCALAR", re.I)


def _feature_names() -> list[str]:
    """hwf.h's list of features, in bit order (parsed from the source)."""
    text = (ROOT / "gcrylike" / "_native" / "hwf.h").read_text()
    return re.findall(r'^\s*X \(\w+, "(\w+)"\)', text, re.M)


FEATURE_NAMES = frozenset(_feature_names())


def _is_tier_word(word: str) -> bool:
    return bool(_TIER_WORD.fullmatch(word)) or word.lower() in FEATURE_NAMES


def _id_like(name: str) -> bool:
    """A name such as _GENERIC, _CHACHA_AVX2, POLY_IFMA or NH_IMPL_SSE2."""
    return any(_is_tier_word(part) for part in name.split("_") if part)


def _int_literals(node: ast.AST) -> list[int]:
    """The int literals NODE is, or a tuple/list of (bool aside)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [v for e in node.elts for v in _int_literals(e)]
    return []


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for e in node.elts for n in _targets(e)]
    return []


def _str_constants(nodes: list[ast.AST | None]) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def findings(source: str) -> list[tuple[int, str]]:
    """(line, what) for every id or feature bit SOURCE writes in Python."""
    found = []
    for node in ast.walk(ast.parse(source)):
        # _GENERIC, _SSSE3 = 0, 1  /  _AVX2 = 2  /  _POLY_IFMA: int = 4
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n for t in targets for n in _targets(t) if _id_like(n)]
            if names and _int_literals(node.value):
                found.append((node.lineno, f"{', '.join(names)} bound to an int literal"))
        # {"generic": 0, "avx2": 2}  /  {"sse2": 1 << 0}
        elif isinstance(node, ast.Dict):
            keys = [k for k in _str_constants(node.keys) if _is_tier_word(k)]
            ints = [v for v in node.values if _int_literals(v) or isinstance(v, ast.BinOp)]
            if keys and ints:
                found.append((node.lineno, f"tier/feature names {keys} mapped to ints"))
        elif isinstance(node, (ast.Tuple, ast.List)):
            elts = node.elts
            # a driver row (suffix, priority, frozenset(...), token, description)
            if (len(elts) >= 4 and isinstance(elts[2], ast.Call)
                    and isinstance(elts[2].func, ast.Name) and elts[2].func.id == "frozenset"
                    and _int_literals(elts[3])):
                found.append((node.lineno, "a driver row whose token is an int literal"))
            # ("sse2", "ssse3", ...): features in an order, i.e. their bits
            features = [s for s in _str_constants(elts) if s in FEATURE_NAMES]
            if len(features) >= 2 and len(features) == len(elts):
                found.append((node.lineno, f"feature names in an order: {features}"))
    return found


def _python_files() -> list[Path]:
    files: list[Path] = []
    for entry in SCANNED:
        path = ROOT / entry
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]


def test_the_scan_finds_what_it_is_for():
    """Each form the ids and features were written in before is found."""
    written = {
        "_GENERIC, _SSSE3, _AVX2, _AVX512 = 0, 1, 2, 3": 1,
        "_POLY_GENERIC64, _POLY_GENERIC32, _POLY_SSE2 = 0, 1, 2": 1,
        "_AESNI = 1": 1,
        "NH_IMPL_AVX2: int = 2": 1,
        '_CHACHA = {"generic": 0, "ssse3": 1, "avx2": 2, "avx512": 3}': 1,
        '_POLY = {"generic64": 0, "ifma": 4}': 1,
        'BITS = {"sse2": 1 << 0, "avx2": 1 << 3}': 1,
        'ROWS = (("generic", 100, frozenset(), 0, "portable C"),)': 1,
        'ROWS = [("avx2", 400, frozenset({"avx2"}), (2, 3), "pairs")]': 1,
        'FEATURES = ("sse2", "ssse3", "avx", "avx2")': 1,
        'FEATURES = ["avx512f", "avx512vl"]': 1,
    }
    for source, count in written.items():
        assert len(findings(source)) == count, (source, findings(source))
    fine = [
        "_DRIVERS = ((\"generic\", 100, frozenset(), drivers[0].token, \"C\"),)",
        '_CHACHA = {"generic": drivers[0].token}',
        'NEEDS = frozenset({"avx2", "avx512f"})',
        "PRIORITY_AVX2 = drivers[2].priority",
        "GCRY_CIPHER_CHACHA20 = 316",
        "SIMD_MIN = 4",
        'ROWS = ("avx2", 400)',
    ]
    for source in fine:
        assert findings(source) == [], source


def test_no_id_or_feature_bit_written_in_python():
    files = _python_files()
    assert any(f.parent.name == "chacha" for f in files), "the source tree is not beside the tests"
    found = [f"{f.relative_to(ROOT)}:{line}: {what}"
             for f in files for line, what in findings(f.read_text())]
    assert found == [], "written again in Python (read it from C instead):\n" + "\n".join(found)


# ---------------------------------------------------------------------------
# Driver rows are declared in C: no priority or feature set in a cipher module
# ---------------------------------------------------------------------------

def driver_literals(source: str) -> list[tuple[int, str]]:
    """(line, what) for every feature-name set or driver priority SOURCE
    writes: a set, list or tuple of feature names (``frozenset({"avx2"})``),
    a row opening with a name and an int (``("amd64-avx2", 400, ...)``),
    or an int given as an Implementation's priority."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and node.elts:
            names = _str_constants(node.elts)
            if len(names) == len(node.elts) and all(n in FEATURE_NAMES for n in names):
                found.append((node.lineno, f"feature names {sorted(names)}"))
            elif (len(node.elts) >= 2 and _str_constants(node.elts[:1])
                  and isinstance(node.elts[1], ast.Constant) and type(node.elts[1].value) is int):
                found.append((node.lineno, "a driver row with a literal priority"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("Implementation", "Driver")):
            prio = [k.value for k in node.keywords if k.arg == "priority"]
            prio += node.args[1:2]
            if any(_int_literals(v) for v in prio):
                found.append((node.lineno, f"{node.func.id} with a literal priority"))
    return found


def test_the_driver_scan_finds_what_it_is_for():
    written = [
        'ROWS = (("generic", 100, frozenset(), drivers[0].token, "C"),)',
        'NEEDS = frozenset({"avx2", "avx512f"})',
        'NEEDS = {"sse2"}',
        'T = ("generic", 100, frozenset(), "generic", "generic", "generic64")',
        'I = Implementation("x-generic", 100, (), 0)',
        'I = Implementation(driver="x", priority=150)',
    ]
    for source in written:
        assert driver_literals(source), source
    fine = [
        "DRIVERS = native_drivers(ffi, lib.gcry_chacha_drivers)",
        'compose(c.suffix, ((1, "ChaCha20", c), (1, "Poly1305", p)))',
        '_make_spec("CHACHA20", GCRY_CIPHER_CHACHA20, 20, False, ("chacha",))',
        'ALIASES = ("salsa20/12", "salsa20-12")',
        '_CHACHA = {"generic": drivers[0].token}',
    ]
    for source in fine:
        assert driver_literals(source) == [], source


def test_no_driver_priority_or_features_in_a_cipher_module():
    """Every built-in driver is a C row (gcry_driver, beside its routines) or
    made from such rows by its composite's rule: no cipher module writes a
    priority or a feature set."""
    files = sorted((ROOT / "ciphers").glob("*/__init__.py"))
    assert len(files) >= 8, "the source tree is not beside the tests"
    found = [f"{f.relative_to(ROOT)}:{line}: {what}"
             for f in files for line, what in driver_literals(f.read_text())]
    assert found == [], "a driver written in Python (declare it in C):\n" + "\n".join(found)


# ---------------------------------------------------------------------------
# An id is its driver row's place: no enum of ids, no id constant
# ---------------------------------------------------------------------------

#: module -> its components' driver accessors, in the order its setkey
#: takes their ids (its own join last)
MODULES = {
    "gcrylike.ciphers.chacha": ("chacha",),
    "gcrylike.ciphers.salsa20": ("salsa20",),
    "gcrylike.ciphers.poly1305": ("poly1305",),
    "gcrylike.ciphers.aes": ("aes",),
    "gcrylike.ciphers.chacha20poly1305": ("chacha", "poly1305", "aead"),
    "gcrylike.ciphers.secretbox": ("salsa20", "poly1305", "secretbox"),
    "gcrylike.ciphers.nhpoly1305": ("nh", "poly1305"),
    "gcrylike.ciphers.adiantum": ("chacha", "nh", "poly1305", "aes"),
}

#: the module that compiles each component's rows
OWNER = {"chacha": "gcrylike.ciphers.chacha", "salsa20": "gcrylike.ciphers.salsa20",
         "poly1305": "gcrylike.ciphers.poly1305", "aes": "gcrylike.ciphers.aes",
         "nh": "gcrylike.ciphers.nhpoly1305", "aead": "gcrylike.ciphers.chacha20poly1305",
         "secretbox": "gcrylike.ciphers.secretbox"}


def test_every_module_is_listed():
    found = {p.parent.name for p in (ROOT / "ciphers").glob("*/_build_ffi.py")}
    assert {m.rsplit(".", 1)[1] for m in MODULES} == found


def test_no_id_is_written_in_c():
    """No enum of implementation or join ids and no id constant
    (``CHACHA_IMPL_AVX2``) in the C: a driver's id is its row's place."""
    enum = re.compile(r"\benum\s+\w*(impl|join)\w*\s*\{")
    constant = re.compile(r"\b[A-Z0-9]+_(IMPL|JOIN)_[A-Z0-9_]+\b")
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for entry in ("ciphers", "gcrylike/_native",
                                                                "tests/asmcheck", "tests/native")
             for p in sorted((ROOT / entry).rglob("*")) if p.suffix in (".c", ".h")
             for m in [*enum.finditer(p.read_text()), *constant.finditer(p.read_text())]]
    assert found == []


def _count(component: str) -> int:
    mod = importlib.import_module(OWNER[component])
    n = mod.ffi.new("size_t *")
    getattr(mod.lib, f"gcry_{component}_drivers")(n)
    return n[0]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_token_is_a_row_of_its_components(module):
    """Each built-in implementation's token is one row's place per
    component, in the order its setkey takes them; a component's own
    drivers are its rows in order."""
    mod = importlib.import_module(module)
    counts = [_count(c) for c in MODULES[module]]
    for spec in mod.SPECS:
        for impl in spec.implementations:
            token = impl.token if isinstance(impl.token, tuple) else (impl.token,)
            assert len(token) == len(counts), impl.driver
            assert all(type(t) is int and 0 <= t < n for t, n in zip(token, counts, strict=True)), (
                impl.driver, impl.token)
        if len(counts) == 1:
            assert sorted(i.token for i in spec.implementations) == list(range(counts[0]))


# ---------------------------------------------------------------------------
# The feature names in C: hwf.h's list alone
# ---------------------------------------------------------------------------

#: The C that may name features: the native code, the assembly, the native
#: check and the test-only C.
C_SCANNED = ("gcrylike/_native", "ciphers", "asm", "tests/asmcheck", "tests/native")


def test_feature_names_are_written_in_hwf_h_alone():
    """No C file but hwf.h spells a feature's name (the native check prints
    ``gcry_hwf_name``'s)."""
    assert len(FEATURE_NAMES) >= 12, "hwf.h's list was not read"
    # a driver's tag (driver.h's GCRY_TAG) is a name, not a feature
    quoted = re.compile(r'(?<!GCRY_TAG \()"(' + "|".join(sorted(FEATURE_NAMES)) + r')"')
    found = [f"{p.relative_to(ROOT)}: {m}" for entry in C_SCANNED
             for p in sorted((ROOT / entry).rglob("*")) if p.suffix in (".c", ".h", ".S")
             and p.name != "hwf.h" for m in quoted.findall(p.read_text())]
    assert found == []
