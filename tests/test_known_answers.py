"""Every known answer is written once (issue 19, item 5).

The project's vectors live in ``selftests/vectors_*.py`` (installed as
``gcrylike.selftests``): the self-tests read them there, the test suite
imports them, and the native check of the assembly gets them as C generated
at build time (tests/asmcheck/vectors.py).  Third-party files under
tests/vectors/ (the Adiantum authors', eSTREAM's, Wycheproof) stay as
published; where the self-tests need an excerpt of one (they run from the
installed wheel, without tests/), the excerpt must equal the file.

The checks here fail if a vector is written a second time:

* no hex string of 16 bytes or more, and no published text, appears in two
  places of the sources (selftests/, tests/ but its vectors/, ciphers/,
  gcrylike/); the C of the native check holds no hex string at all;
* the generated C is the data, array for array, and vectors.h declares what
  the generator defines;
* the source tree's selftests/ is the installed ``gcrylike.selftests`` (the
  native check reads the one, the self-tests and tests the other);
* each excerpt of a third-party file equals that file's entry.

The documentation is not scanned: its samples (docs/plugins.rst,
docs/examples/) show how a plugin writes vectors of its own.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

import gcrylike.selftests
from gcrylike.selftests import (
    vectors_adiantum,
    vectors_aead,
    vectors_aes,
    vectors_chacha,
    vectors_nhpoly1305,
    vectors_poly1305,
    vectors_salsa20,
    vectors_xsalsa20,
)
from gcrylike.selftests.vector_types import through_subkeys

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors"
UPSTREAM = ROOT / "tests" / "upstream"
ASMCHECK = ROOT / "tests" / "asmcheck"

#: a hex string this long (16 bytes) or longer is a vector, not a constant
HEX_WINDOW = 32
#: ... unless it has fewer distinct digits (runs of zeros, "0100..00" keys)
MIN_DISTINCT = 6
#: the bytes of a published text compared
TEXT_WINDOW = 40

_HEX_RUN = re.compile(rf"[0-9a-fA-F]{{{HEX_WINDOW},}}")
_C_LITERAL = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")


def _sources() -> list[Path]:
    """The files scanned: every Python and C source of the package, the
    self-tests and the test suite, but the third-party vector files and
    the other projects' test files vendored unchanged (tests/upstream)."""
    if not (ROOT / "selftests").is_dir():
        pytest.skip("the sources (selftests/) are not beside the tests")
    found = []
    for top in ("selftests", "tests", "ciphers", "gcrylike"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".c", ".h") and VECTORS not in path.parents \
                    and UPSTREAM not in path.parents and "__pycache__" not in path.parts:
                found.append(path)
    return found


def _python_literals(path: Path) -> list[str]:
    """Every string and bytes literal (adjacent ones joined, as Python
    joins them); bytes as Latin-1."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            v = node.value
            out.append(v.decode("latin-1") if isinstance(v, bytes) else v)
    return out


def _unescape_c(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), body)


def _c_literals(path: Path) -> list[str]:
    """Every string literal, adjacent ones (only white space between them)
    joined, as the compiler joins them; comments count as code."""
    text = path.read_text()
    out: list[str] = []
    end = None
    for m in _C_LITERAL.finditer(text):
        if m[0][0] == "'":
            end = None
            continue
        body = _unescape_c(m[0][1:-1])
        if end is not None and not text[end:m.start()].strip():
            out[-1] += body
        else:
            out.append(body)
        end = m.end()
    return out


def _literals(path: Path) -> list[str]:
    return _python_literals(path) if path.suffix == ".py" else _c_literals(path)


@pytest.fixture(scope="module")
def literals() -> dict[Path, list[str]]:
    return {path: _literals(path) for path in _sources()}


def _hex_windows(text: str):
    for run in _HEX_RUN.finditer(text):
        s = run[0].lower()
        for i in range(len(s) - HEX_WINDOW + 1):
            w = s[i:i + HEX_WINDOW]
            if len(set(w)) >= MIN_DISTINCT:
                yield w


def _where(path: Path, i: int) -> str:
    return f"{path.relative_to(ROOT)} (literal {i})"


def test_the_scan_sees_the_vectors(literals):
    """The scan finds the data (else the next test proves nothing)."""
    data = literals[ROOT / "selftests" / "vectors_chacha.py"]
    block = vectors_chacha.RFC8439_BLOCKS["2.3.2"].blocks[1]
    assert block in data
    ietf = literals[ROOT / "selftests" / "rfc8439.py"]
    assert vectors_poly1305.RFC8439["A.3 #2"].message.decode() in ietf
    assert sum(len(t) for texts in literals.values() for t in texts) > 100_000


def test_no_hex_vector_written_twice(literals):
    """Each hex string of 16 bytes or more is written in one literal only
    (a literal may repeat itself, as the 19 AES blocks do)."""
    places: dict[str, set[tuple[Path, int]]] = defaultdict(set)
    for path, texts in literals.items():
        for i, text in enumerate(texts):
            for w in _hex_windows(text):
                places[w].add((path, i))
    twice = {w: sorted(_where(*p) for p in ps) for w, ps in places.items() if len(ps) > 1}
    # one report per group of places, not per window
    groups: dict[tuple[str, ...], str] = {}
    for w, ps in twice.items():
        groups.setdefault(tuple(ps), w)
    assert not groups, "written more than once:\n" + "\n".join(
        f"  {w}..: {', '.join(ps)}" for ps, w in groups.items())


def _published_texts() -> dict[bytes, str]:
    """The published texts the data authenticates or encrypts (printable,
    at least TEXT_WINDOW bytes), with where the data has them."""
    found: dict[bytes, str] = {}

    def walk(value, where):
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name), f"{where}.{f.name}")
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}[{k!r}]")
        elif isinstance(value, (tuple, list)):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]")
        elif isinstance(value, bytes) and len(value) >= TEXT_WINDOW and \
                all(32 <= b < 127 or b in b"\n" for b in value):
            found.setdefault(value, where)

    for mod in (vectors_chacha, vectors_poly1305, vectors_aead):
        for name in dir(mod):
            if name.isupper() and not name.startswith("_"):
                walk(getattr(mod, name), f"{mod.__name__}.{name}")
    return found


def test_no_published_text_written_twice(literals):
    texts = _published_texts()
    assert len(texts) >= 4, texts     # sunscreen, IETF, Jabberwocky, the dhole
    for text, where in texts.items():
        s = text.decode()
        probes = {s[:TEXT_WINDOW], s[len(s) // 2:len(s) // 2 + TEXT_WINDOW], s[-TEXT_WINDOW:]}
        holders = sorted(_where(path, i) for path, texts_ in literals.items()
                         for i, lit in enumerate(texts_) if any(p in lit for p in probes))
        assert len(holders) == 1, f"{where}: {s[:30]!r}.. written in {holders}"


def test_native_check_has_no_vector_of_its_own():
    """The C of the native check holds no hex string of a vector's length:
    its known answers all come from vectors.py."""
    if not ASMCHECK.is_dir():
        pytest.skip("tests/asmcheck is not beside the tests")
    found = [f"{p.name}: {run[0][:24]}.."
             for p in sorted([*ASMCHECK.glob("*.c"), *ASMCHECK.glob("*.h")])
             for lit in _c_literals(p) for run in _HEX_RUN.finditer(lit)]
    assert not found, found


# ---- the native check's generated C ------------------------------------

def _vectors_module():
    path = ASMCHECK / "vectors.py"
    if not path.is_file():
        pytest.skip("tests/asmcheck is not beside the tests")
    spec = importlib.util.spec_from_file_location("asmcheck_vectors_under_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _parse_generated(c_text: str) -> dict[str, list[tuple]]:
    """The arrays of a generated vectors.c, read back: name -> rows of fields
    (strings joined, numbers as ints); each array's _N checked."""
    arrays = {}
    for m in re.finditer(r"const \w+ (VECTORS_\w+)\[\] = \{\n(.*?)\n\};\n"
                         r"const size_t \1_N = (\d+);", c_text, re.S):
        rows = []
        for body in re.findall(r"\{ (.*?) \},?\n", m[2] + "\n", re.S):
            fields = [f.strip() for f in re.split(r",\s*\n\s*", body)]
            rows.append(tuple("".join(re.findall(r'"([^"]*)"', f)) if f.startswith('"')
                              else int(f.removesuffix("ULL"), 0) for f in fields))
        assert len(rows) == int(m[3]), m[1]
        arrays[m[1]] = rows
    return arrays


def _stream_rows(vectors) -> list[tuple]:
    return [(v.rounds, v.key, v.nonce, ctr, block)
            for v in vectors for ctr, block in sorted(v.blocks.items())]


def _expected_arrays() -> dict[str, list[tuple]]:
    """What the native check must carry, from the installed data."""
    nh = json.loads((VECTORS / "adiantum" / "NH.json").read_text())
    return {
        "VECTORS_CHACHA": _stream_rows((*vectors_chacha.CHACHA20, *vectors_chacha.CHACHA12)),
        "VECTORS_SALSA20": _stream_rows((*vectors_salsa20.VECTORS,
                                     *vectors_xsalsa20.XSALSA20_AS_SALSA20)),
        "VECTORS_HCHACHA": list(vectors_chacha.HCHACHA),
        "VECTORS_HSALSA20": list(vectors_xsalsa20.HSALSA20),
        "VECTORS_POLY1305": [(v.key, v.message.hex(), v.tag) for v in vectors_poly1305.POLY1305],
        "VECTORS_AES256": [(vectors_aes.KEY.hex(), *vectors_aes.FIPS197_C3),
                       (vectors_aes.KEY.hex(), vectors_aes.MULTI_PLAIN.hex(),
                        vectors_aes.MULTI_CIPHER)],
        "VECTORS_NH": [(e["input"]["key_hex"], e["input"]["message_hex"], e["hash_hex"])
                   for e in nh],
    }


def test_native_check_vectors_are_the_data():
    """vectors.py's C, read back, is the data array for array (the data the
    installed self-tests read), and vectors.h declares exactly those arrays."""
    arrays = _parse_generated(_vectors_module().generate(ROOT))
    assert arrays == _expected_arrays()
    header = (ASMCHECK / "vectors.h").read_text()
    declared = set(re.findall(r"\b(VECTORS_\w+)\[\]", header))
    assert declared == set(arrays)
    assert set(re.findall(r"\b(VECTORS_\w+_N)\b", header)) == {f"{a}_N" for a in arrays}


def test_native_check_build_uses_the_generated_vectors(tmp_path):
    """build.py writes vectors.c before it compiles, and compiles it."""
    if not (ASMCHECK / "build.py").is_file():
        pytest.skip("tests/asmcheck is not beside the tests")
    spec = importlib.util.spec_from_file_location("asmcheck_build_under_test",
                                                  ASMCHECK / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    generated = build.generate(tmp_path)
    assert generated == tmp_path / "vectors.c" and generated.read_text().count("VECTORS_") > 7
    cmd = build.command(tmp_path / "asmcheck", generated)
    assert str(generated) in cmd
    assert not any(Path(a).name.startswith("vectors_") for a in cmd), cmd


def test_installed_vectors_are_the_source_trees():
    """The native check reads selftests/ from the source tree, the
    self-tests and the suite the installed package: the same files."""
    installed = Path(gcrylike.selftests.__file__).resolve().parent
    source = ROOT / "selftests"
    if not source.is_dir():
        pytest.skip("the sources (selftests/) are not beside the tests")
    names = sorted(p.name for p in source.glob("*.py"))
    assert names == sorted(p.name for p in installed.glob("*.py"))
    for name in names:
        assert (installed / name).read_bytes() == (source / name).read_bytes(), name


# ---- excerpts of third-party files -------------------------------------

def _adiantum(name: str) -> list[dict]:
    return json.loads((VECTORS / "adiantum" / name).read_text())


def _keystream_entries(*names: str) -> dict[tuple[str, str, int], dict[int, str]]:
    """(key, nonce, rounds) -> {block: hex} of the Adiantum authors' files."""
    out = {}
    for name in names:
        for e in _adiantum(name):
            out[e["input"]["key_hex"], e["input"]["nonce_hex"], e["cipher"]["rounds"]] = {
                t["input"]["offset"]: t["result_hex"] for t in e["tests"]}
    return out


def _assert_blocks_from(vectors, table, what: str) -> int:
    """Every vector whose key and nonce the table has equals it, block for
    block; returns how many it had."""
    n = 0
    for v in vectors:
        published = table.get((v.key, v.nonce, v.rounds))
        if published is None:
            continue
        n += 1
        for block, hexdata in v.blocks.items():
            assert published.get(block) == hexdata, (what, v.key[:16], block)
    return n


def test_salsa20_excerpts_equal_their_files():
    table = _keystream_entries("Salsa20_20_16.json", "Salsa20_20_32.json",
                               "Salsa20_12_16.json", "Salsa20_12_32.json")
    estream = json.loads((VECTORS / "estream" / "Salsa20_20_set1.json").read_text())
    for e in estream:
        table[e["key_hex"].lower(), e["iv_hex"].lower(), 20] = {
            int(off) // 64: h.lower() for off, h in e["stream_hex"].items() if int(off) % 64 == 0}
    assert _assert_blocks_from(vectors_salsa20.VECTORS, table, "Salsa20") == \
        len(vectors_salsa20.VECTORS) == 6


def test_xchacha_excerpts_equal_their_files():
    table = _keystream_entries("XChaCha20_32.json", "XChaCha12_32.json")
    vectors = (*vectors_chacha.XCHACHA20, *vectors_chacha.XCHACHA12)
    assert _assert_blocks_from(vectors, table, "XChaCha") == len(vectors) == 2
    # the 8-byte-nonce ChaCha vectors are those, through the subkeys
    assert vectors_chacha.CHACHA12 == through_subkeys(vectors_chacha.XCHACHA12,
                                                      vectors_chacha.HCHACHA)
    assert vectors_chacha.CHACHA20[-1:] == through_subkeys(vectors_chacha.XCHACHA20,
                                                           vectors_chacha.HCHACHA)


def test_adiantum_excerpts_equal_their_files():
    for rounds, vectors in ((12, vectors_adiantum.ADIANTUM_XCHACHA12),
                            (20, vectors_adiantum.ADIANTUM_XCHACHA20)):
        name = f"Adiantum_XChaCha{rounds}_32_AES256.json"
        table = {(e["input"]["key_hex"], e["input"]["tweak_hex"], e["plaintext_hex"]):
                 e["ciphertext_hex"] for e in _adiantum(name)}
        assert len(vectors) == 4
        for v in vectors:
            assert table[v.key, v.tweak, v.plaintext] == v.ciphertext, (name, len(v.plaintext))


def test_nhpoly1305_excerpts_equal_their_file():
    table = {(e["input"]["key_hex"], e["input"]["message_hex"]): e["hash_hex"]
             for e in _adiantum("NHPoly1305.json")}
    assert len(vectors_nhpoly1305.NHPOLY1305) == 6
    for v in vectors_nhpoly1305.NHPOLY1305:
        assert table[v.key, v.message.hex()] == v.tag, len(v.message)


def test_aead_vectors_equal_wycheproof():
    """RFC 8439 2.8.2 and the XChaCha draft's A.3.1 are Wycheproof's first
    cases too (A.5 is not there)."""
    for name, vectors, published in (
            ("chacha20_poly1305_test.json", vectors_aead.CHACHA20_POLY1305,
             [vectors_aead.RFC8439["2.8.2"]]),
            ("xchacha20_poly1305_test.json", vectors_aead.XCHACHA20_POLY1305,
             [vectors_aead.XCHACHA_DRAFT])):
        doc = json.loads((VECTORS / "wycheproof" / name).read_text())
        table = {(t["key"], t["iv"], t["aad"], t["msg"]): (t["ct"], t["tag"])
                 for g in doc["testGroups"] for t in g["tests"] if t["result"] == "valid"}
        found = []
        for v in vectors:
            got = table.get((v.key.hex(), v.nonce.hex(), v.aad.hex(), v.plaintext.hex()))
            if got is not None:
                assert got == (v.ciphertext, v.tag), name
                found.append(v)
        assert found == published, name
