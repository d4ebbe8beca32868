"""The registry's built-in drivers are the C rows and the composites' rules.

Each component declares its drivers once, in C beside its routines
(``gcry_driver`` rows, gcrylike/_native/driver.h, read through
``gcry_<component>_drivers``); a composite's drivers are made from its
components' rows by a rule its module states (the kernel's templates).
These tests read the rows straight from each module's ``lib`` (with the
feature mask decoded here, from ``gcry_hwf_name``) and apply the rules
again, independently of ``gcrylike._spec``, to the registry's listing."""

from __future__ import annotations

import importlib

import pytest

import gcrylike
from gcrylike._core import ffi as core_ffi
from gcrylike._core import lib as core_lib


def _feature(bit: int) -> str:
    name = core_lib.gcry_hwf_name(bit)
    assert name != core_ffi.NULL, f"bit {bit} is no feature of hwf.h"
    return core_ffi.string(name).decode()


def rows(module: str, component: str) -> list[dict]:
    """The C driver rows of COMPONENT, read from MODULE (the one that compiles them)."""
    mod = importlib.import_module(f"gcrylike.ciphers.{module}")
    n = mod.ffi.new("size_t *")
    table = getattr(mod.lib, f"gcry_{component}_drivers")(n)
    out = []
    for i in range(n[0]):
        r = table[i]
        out.append({"suffix": mod.ffi.string(r.suffix).decode(), "priority": r.priority,
                    "features": frozenset(_feature(b) for b in range(32) if r.hwf >> b & 1),
                    "token": (i,), "tag": mod.ffi.string(r.tag).decode()})
    return out


def listed(spec_name: str) -> dict[str, tuple]:
    spec = gcrylike._registry.lookup(spec_name)
    return {i.driver: (i.priority, i.features,
                       i.token if isinstance(i.token, tuple) else (i.token,))
            for i in spec.implementations}


def expect(prefix: str, drivers: list[dict]) -> dict[str, tuple]:
    return {f"{prefix}-{d['suffix']}": (d["priority"], d["features"], d["token"])
            for d in drivers}


def pair(name: str, parts: list[tuple[int, dict]]) -> dict:
    """The composite of PARTS (weight, row): union of features, weighted
    mean of priorities (integer division), tokens in order."""
    return {"suffix": name,
            "priority": sum(w * d["priority"] for w, d in parts) // sum(w for w, _ in parts),
            "features": frozenset().union(*(d["features"] for _, d in parts)),
            "token": sum((d["token"] for _, d in parts), ())}


def level(d: dict) -> int:
    return d["priority"] // 100


def best(drivers: list[dict], where) -> dict | None:
    fits = [d for d in drivers if where(d)]
    return max(fits, key=lambda d: d["priority"]) if fits else None


@pytest.mark.parametrize("spec, module, component, prefix", [
    ("CHACHA20", "chacha", "chacha", "chacha20"),
    ("XCHACHA12", "chacha", "chacha", "xchacha12"),
    ("SALSA20", "salsa20", "salsa20", "salsa20"),
    ("XSALSA20", "salsa20", "salsa20", "xsalsa20"),
    ("POLY1305", "poly1305", "poly1305", "poly1305"),
    ("AES256", "aes", "aes", "aes256"),
])
def test_component_drivers_are_the_c_rows(spec, module, component, prefix):
    assert listed(spec) == expect(prefix, rows(module, component))


SETKEYS = {  # component -> (module, its setkey with an id: the arguments around it)
    "chacha": ("chacha", lambda lib, ctx, impl: lib.gcry_chacha_setkey(ctx, bytes(32), 32, 20,
                                                                     impl, 0)),
    "salsa20": ("salsa20", lambda lib, ctx, impl: lib.gcry_salsa20_setkey(ctx, bytes(32), 32, 20,
                                                                        impl, 0)),
    "poly1305": ("poly1305", lambda lib, ctx, impl: lib.gcry_poly1305_setkey(ctx, bytes(32), 32,
                                                                           impl)),
    "aes": ("aes", lambda lib, ctx, impl: lib.gcry_aes256_setkey(ctx, bytes(32), 32, impl)),
    "nh": ("nhpoly1305", lambda lib, ctx, impl: lib.gcry_nhpoly1305_setkey(
        ctx, bytes(1088), 1088, impl, 0)),
}


@pytest.mark.parametrize("component", sorted(SETKEYS))
def test_ids_are_the_rows(component):
    """A driver's id is its row's place: the glue takes every row's (where
    the CPU runs it) and refuses the first past the table."""
    from gcrylike._errors import ErrorCode
    from gcrylike._hwf import active

    module, setkey = SETKEYS[component]
    mod = importlib.import_module(f"gcrylike.ciphers.{module}")
    drivers = rows(module, component)
    size = getattr(mod.lib, next(n for n in dir(mod.lib) if n.endswith("_ctxsize")))()
    memory = mod.ffi.new("uint8_t[]", size + 64)
    ctx = mod.ffi.cast("void *", (int(mod.ffi.cast("uintptr_t", memory)) + 63) & ~63)
    for d in drivers:
        if d["features"] <= active():
            assert setkey(mod.lib, ctx, d["token"][0]) == 0, d
    assert setkey(mod.lib, ctx, len(drivers)) == ErrorCode.NOT_SUPPORTED


def join(name: str, parts: list[tuple[int, dict]], joins: list[dict]) -> dict:
    """PARTS paired, with the composite's join row of their common SIMD
    level (needing no feature beyond theirs), else its level-1 row."""
    out = pair(name, parts)
    levels = {level(d) for _, d in parts}
    fit = [j for j in joins if levels == {level(j)} and j["features"] <= out["features"]]
    j = fit[0] if fit else next(j for j in joins if level(j) == 1)
    return dict(out, token=out["token"] + j["token"], features=out["features"] | j["features"])


def _chacha20poly1305() -> list[dict]:
    chacha, poly = rows("chacha", "chacha"), rows("poly1305", "poly1305")
    joins = rows("chacha20poly1305", "aead")
    out = []
    for c in chacha:
        p = best(poly, lambda p, c=c: level(p) == level(c))
        if p:
            out.append(join("-".join(filter(None, (c["suffix"], p["tag"]))), [(1, c), (1, p)],
                            joins))
    return out


def _secretbox() -> list[dict]:
    salsa, poly = rows("salsa20", "salsa20"), rows("poly1305", "poly1305")
    joins = rows("secretbox", "secretbox")
    out = []
    for s in salsa:
        same = best(poly, lambda p, s=s: level(p) == level(s))
        below = (best(poly, lambda p, s=s: level(p) < level(s))
                 if same and not same["features"] <= s["features"] else None)
        out += [join(s["suffix"] + p["tag"], [(1, s), (1, p)], joins)
                for p in (same, below) if p]
    return out


def test_the_stitched_routines_join_only_their_pairs():
    """The AVX2 pairs (and no other) run the stitched routine where the
    assembly is built: their token ends with the stitched join's id."""
    for spec, module, component in (("CHACHA20-POLY1305", "chacha20poly1305", "aead"),
                                    ("XSALSA20-POLY1305", "secretbox", "secretbox")):
        stitched = {j["token"][0] for j in rows(module, component) if j["suffix"] == "stitched"}
        runs = {d for d, (_, _, token) in listed(spec).items() if token[-1] in stitched}
        want = {f"{spec.lower()}-amd64-avx2"} if stitched else set()
        assert runs == want, spec


def _nhpoly1305() -> list[tuple[dict, dict]]:
    """(NH row, NHPoly1305 driver)."""
    nh, poly = rows("nhpoly1305", "nh"), rows("poly1305", "poly1305")
    out = []
    for n in nh:
        p = best(poly, lambda p, n=n: p["features"] <= n["features"])
        if p:
            out.append((n, pair(n["suffix"], [(1, n), (1, p)])))
    return out


def _adiantum() -> list[dict]:
    chacha, aes = rows("chacha", "chacha"), rows("aes", "aes")
    out = []
    for n, h in _nhpoly1305():
        c = best(chacha, lambda c, n=n: level(c) == level(n))
        if c:
            out += [pair("-".join(filter(None, (h["suffix"], a["tag"]))),
                         [(4, c), (2, h), (1, a)]) for a in aes]
    return out


@pytest.mark.parametrize("spec, prefix, rule", [
    ("CHACHA20-POLY1305", "chacha20-poly1305", _chacha20poly1305),
    ("XCHACHA20-POLY1305", "xchacha20-poly1305", _chacha20poly1305),
    ("XSALSA20-POLY1305", "xsalsa20-poly1305", _secretbox),
    ("NHPOLY1305", "nhpoly1305", lambda: [h for _, h in _nhpoly1305()]),
    ("ADIANTUM(XCHACHA12,AES)", "adiantum-xchacha12", _adiantum),
    ("ADIANTUM(XCHACHA20,AES)", "adiantum-xchacha20", _adiantum),
])
def test_composite_drivers_are_their_rule(spec, prefix, rule):
    assert listed(spec) == expect(prefix, rule())


#: Every built-in driver name with the assembly built: users select them.
NAMES = {
    "CHACHA20-POLY1305": {"generic", "amd64-ssse3", "amd64-avx2", "amd64-avx512-ifma"},
    "XSALSA20-POLY1305": {"generic", "amd64-sse2", "amd64-avx2", "amd64-avx512",
                          "amd64-avx512ifma"},
    "NHPOLY1305": {"generic", "amd64-sse2", "amd64-avx2", "amd64-avx512"},
    "ADIANTUM(XCHACHA12,AES)": {f"{t}{a}" for t in ("generic", "amd64-sse2", "amd64-avx2",
                                                    "amd64-avx512") for a in ("", "-aesni")},
    "POLY1305": {"generic64", "generic32", "amd64-sse2", "amd64-avx2", "amd64-avx512ifma"},
    "CHACHA20": {"generic", "amd64-ssse3", "amd64-avx2", "amd64-avx512"},
    "SALSA20": {"generic", "amd64-sse2", "amd64-avx2", "amd64-avx512"},
    "AES256": {"generic", "amd64-aesni"},
}


@pytest.mark.parametrize("spec", sorted(NAMES))
def test_driver_names_are_kept(spec):
    if not gcrylike.config().use_amd64:
        pytest.skip("built without assembly")
    prefix = next(iter(listed(spec))).rsplit("-generic", 1)[0]
    prefix = {"ADIANTUM(XCHACHA12,AES)": "adiantum-xchacha12", "POLY1305": "poly1305",
              "XSALSA20-POLY1305": "xsalsa20-poly1305"}.get(spec, prefix)
    assert set(listed(spec)) == {f"{prefix}-{n}" for n in NAMES[spec]}


@pytest.mark.parametrize("module, setkey, ids", [
    ("chacha20poly1305", "gcry_aead_setkey", ("generic", "generic64")),
    ("secretbox", "gcry_secretbox_setkey", ("generic", "generic64")),
])
def test_a_join_refuses_a_pair_it_was_not_written_for(module, setkey, ids):
    """The C checks the token: a stitched join of the portable pair (or an
    unknown join) is refused at setkey, never run."""
    from gcrylike._errors import ErrorCode

    mod = importlib.import_module(f"gcrylike.ciphers.{module}")
    stream = "chacha" if module == "chacha20poly1305" else "salsa20"
    part_ids = [next(d["token"][0] for d in rows(part, part) if d["suffix"] == suffix)
                for part, suffix in zip((stream, "poly1305"), ids, strict=True)]
    joins = rows(module, module if module == "secretbox" else "aead")
    # a context as gcrylike allocates them: 64-byte aligned (UBSan checks)
    memory = mod.ffi.new("uint8_t[]", getattr(mod.lib, setkey.replace("setkey", "ctxsize"))() + 64)
    ctx = mod.ffi.cast("void *", (int(mod.ffi.cast("uintptr_t", memory)) + 63) & ~63)
    key = bytes(32)
    extra = (0,) if module == "chacha20poly1305" else ()
    for j in joins:
        rc = getattr(mod.lib, setkey)(ctx, key, 32, *part_ids, j["token"][0], *extra)
        assert rc == (0 if j["suffix"] == "separate" else ErrorCode.NOT_SUPPORTED), j
    unknown = max(j["token"][0] for j in joins) + 1
    assert getattr(mod.lib, setkey)(ctx, key, 32, *part_ids, unknown, *extra) \
        == ErrorCode.NOT_SUPPORTED
