"""The registry of cipher modules: look-up, implementation choice, plugins.

Built-in modules (``gcrylike.ciphers``) are registered on first use and
self-tested on their first setkey; plugins come from the ``gcrylike.ciphers``
entry-point group (or :func:`register`) and are self-tested when loaded.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import os
import sys
import threading
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from . import _hwf, _selftest
from ._errors import (
    ErrorCode,
    GcryError,
    InvalidArgument,
    InvalidState,
    InvalidType,
    NameConflict,
    NotSupported,
    SelftestFailed,
    UnknownAlgorithm,
    UnknownName,
)
from ._spec import (
    PLUGIN_API_VERSIONS,
    AeadSpec,
    BlockCipherSpec,
    CipherSpec,
    Implementation,
    MacSpec,
    SecretBoxSpec,
    TweakableCipherSpec,
)
from ._spec_fields import check_fields

SPEC_TYPES = (CipherSpec, MacSpec, AeadSpec, BlockCipherSpec, TweakableCipherSpec,
              SecretBoxSpec)
AnySpec = (CipherSpec | MacSpec | AeadSpec | BlockCipherSpec | TweakableCipherSpec
           | SecretBoxSpec)

ENTRY_POINT_GROUP = "gcrylike.ciphers"
#: Which entry-point plugins load: "all" (the default), "none", or a comma
#: list of entry-point or distribution names.
PLUGINS_ENV = "GCRYLIKE_PLUGINS"

_lock = threading.RLock()
_by_id: dict[int, CipherSpec] = {}
_by_name: dict[str, CipherSpec] = {}
_by_driver: dict[str, CipherSpec] = {}
_loaded = False
_plugin_errors: dict[str, str] = {}
#: Names and ids of specs a plugin offered but that were refused, each with
#: what cipher_open() and friends say about it.
_failed_names: dict[str | int, tuple[str, str]] = {}
#: set_plugins()'s choice: None (ask the environment), "all", or the names.
_plugin_choice: str | frozenset[str] | None = None


class PluginWarning(UserWarning):
    """A plugin from an entry point was not registered."""


@dataclass(frozen=True)
class ImplementationInfo:
    """What :func:`gcrylike.implementations` reports for one driver."""

    algorithm: str
    kind: str
    driver: str
    priority: int
    features: frozenset[str]
    available: bool
    chosen: bool
    reason: str
    selftest: str


@dataclass(frozen=True)
class AlgorithmInfo:
    """What :func:`gcrylike.algorithm_info` reports for one algorithm; a
    field its kind has not got is None."""

    name: str
    id: int
    kind: str
    aliases: tuple[str, ...]
    key_sizes: tuple[int, ...]
    iv_sizes: tuple[int, ...] | None
    block_size: int | None
    digest_size: int | None
    tag_size: int | None
    cipher: str | None
    mode: str | None
    min_length: int | None
    max_tweak: int | None


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    with _lock:
        if _loaded:
            return
        # before anything loads: a bad GCRYLIKE_PLUGINS is then refused by
        # every use of the registry, with the same error, not by the first only
        wanted = _plugins_wanted()
        _loaded = True
        from .ciphers import builtin_specs

        for spec in builtin_specs():
            _insert(spec)
        _load_plugins(wanted)


def set_plugins(names: str | Iterable[str]) -> None:
    """Choose which entry-point plugins load, before the registry's first
    use: ``"all"`` (the default), ``"none"``, or entry-point or
    distribution names (an iterable, or one comma-separated string).
    Takes precedence over the ``GCRYLIKE_PLUGINS`` environment variable;
    raises :class:`InvalidState` once plugins have been loaded."""
    global _plugin_choice
    choice = _parse_plugin_choice(names, "set_plugins()")
    with _lock:
        if _loaded:
            raise InvalidState("plugins are already loaded: call set_plugins() before the "
                               "first use of the registry")
        _plugin_choice = choice


def _parse_plugin_choice(names: object, where: str) -> str | frozenset[str]:
    if isinstance(names, str):
        names = names.split(",")
    elif not isinstance(names, Iterable) or isinstance(names, (bytes, bytearray)):
        raise InvalidType(f"{where} takes 'all', 'none' or plugin names, "
                          f"not {type(names).__name__}")
    chosen = []
    for n in names:
        if not isinstance(n, str):
            raise InvalidType(f"{where}: plugin names are str, not {type(n).__name__}")
        if n.strip():
            chosen.append(n.strip().lower())
    if chosen == ["all"]:
        return "all"
    if chosen in ([], ["none"]):
        return frozenset()
    if "all" in chosen or "none" in chosen:
        raise InvalidArgument(f"{where}: 'all' and 'none' stand alone, not in a list")
    return frozenset(chosen)


def _plugins_wanted() -> str | frozenset[str]:
    if _plugin_choice is not None:
        return _plugin_choice
    text = os.environ.get(PLUGINS_ENV)
    if text is None or not text.strip():
        return "all" if text is None else frozenset()
    return _parse_plugin_choice(text, PLUGINS_ENV)


def _ep_names(ep: importlib.metadata.EntryPoint) -> set[str]:
    """What GCRYLIKE_PLUGINS may call an entry point: its own name, or its
    distribution's name (in either spelling, '-' or '_')."""
    names = {ep.name.lower()}
    dist = getattr(ep, "dist", None)
    if dist is not None and dist.name:
        dname = dist.name.lower()
        names |= {dname, dname.replace("_", "-"), dname.replace("-", "_")}
    return names


def _load_plugins(wanted: str | frozenset[str]) -> None:
    if not wanted:
        return
    seen: set[str] = set()
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        names = _ep_names(ep)
        if wanted != "all" and not names & wanted:
            continue
        seen |= names
        label = f"{ep.name} ({ep.value})"
        spec = None
        try:
            obj = ep.load()
            specs = obj() if callable(obj) and not isinstance(obj, SPEC_TYPES) else obj
            if isinstance(specs, SPEC_TYPES):
                specs = [specs]
            for spec in specs:
                register(spec)
        except KeyboardInterrupt:
            raise
        # SystemExit too: a broken plugin must neither end the program nor
        # break the other algorithms
        except BaseException as exc:
            _plugin_failed(label, spec, exc)
    if wanted != "all":
        for name in sorted(wanted - seen):
            _plugin_failed(name, None, UnknownName(
                f"{PLUGINS_ENV} or set_plugins() names {name!r}, but no installed "
                f"distribution has a {ENTRY_POINT_GROUP} entry point of that name"))


def _plugin_failed(label: str, spec: object, exc: BaseException) -> None:
    why = f"{type(exc).__name__}: {exc}"
    _plugin_errors[label] = why
    if isinstance(spec, SPEC_TYPES):
        note = f"{spec.name} is from plugin {label}, which failed to load: {why}"
        for key in (*(n.lower() for n in _spec_names(spec)), spec.algo):
            if isinstance(key, (str, int)) and key not in _failed_names:
                _failed_names[key] = (label, note)
    warnings.warn(f"gcrylike plugin {label} not registered: {why}", PluginWarning,
                  stacklevel=_caller_stacklevel())


def _spec_names(spec: Any) -> tuple[Any, ...]:
    try:
        return tuple(n for n in spec.names if isinstance(n, str))
    except TypeError:
        return ()


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _caller_stacklevel() -> int:
    """The warnings.warn stacklevel of the first frame outside gcrylike (and
    the import machinery), so that a PluginWarning names the caller's line."""
    frame, level = sys._getframe(1), 1
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith(_PACKAGE_DIR) or name.startswith("<frozen importlib")
                or name.startswith("<frozen ")):
            break
        frame, level = frame.f_back, level + 1
    return level


@contextlib.contextmanager
def isolated(plugins: str | Iterable[str] | None = None) -> Iterator[None]:
    """A fresh registry for the duration of the block (built-ins and
    plugins load again on first use, no self-test results), and the
    previous one back afterwards; ``plugins`` as for :func:`set_plugins`
    (default: the environment's choice).  For tests: not thread-safe
    against other threads using gcrylike meanwhile."""
    global _by_id, _by_name, _by_driver, _loaded, _plugin_errors, _failed_names
    global _plugin_choice
    choice = None if plugins is None else _parse_plugin_choice(plugins, "isolated()")
    with _lock:
        saved = (_by_id, _by_name, _by_driver, _loaded, _plugin_errors, _failed_names,
                 _plugin_choice, _selftest._results)
        _by_id, _by_name, _by_driver, _plugin_errors, _failed_names = {}, {}, {}, {}, {}
        _loaded, _plugin_choice = False, choice
        _selftest._results = {}
        _forget_answers()
    try:
        yield
    finally:
        with _lock:
            (_by_id, _by_name, _by_driver, _loaded, _plugin_errors, _failed_names,
             _plugin_choice, _selftest._results) = saved
            _selftest.generation += 1
            _forget_answers()


def plugin_errors() -> dict[str, str]:
    """Entry-point plugins that failed to load, with the reason."""
    _ensure_loaded()
    return dict(_plugin_errors)


def _validate(spec: AnySpec) -> None:
    if not isinstance(spec, SPEC_TYPES):
        raise InvalidType("register() needs one of the spec classes, not "
                          f"{type(spec).__name__}")
    check_fields(spec)
    if spec.api_version not in PLUGIN_API_VERSIONS:
        raise NotSupported(f"{spec.name} was written for gcrylike plugin API "
                           f"{spec.api_version}; this gcrylike supports "
                           + ", ".join(map(str, PLUGIN_API_VERSIONS)))
    if getattr(spec, "needs_iv", False) and spec.setiv is None:
        raise InvalidType(f"{spec.name}: iv_sizes given but no setiv hook")
    for impl in spec.implementations:
        unknown = impl.features - set(_hwf.FEATURES)
        if unknown:
            raise UnknownName(f"{impl.driver}: unknown feature(s) {sorted(unknown)}")


def _check_free(spec: AnySpec) -> None:
    """Raise NameConflict unless every name, alias, id and driver is free."""
    names = [n.lower() for n in spec.names]
    drivers = [i.driver.lower() for i in spec.implementations]
    if len(set(names)) != len(names) or len(set(drivers)) != len(drivers):
        raise NameConflict(f"{spec.name}: repeated name or driver within the spec")
    if spec.algo in _by_id:
        raise NameConflict(f"algorithm id {spec.algo} is taken by {_by_id[spec.algo].name}")
    for n in names:
        if n in _by_name:
            raise NameConflict(f"name {n!r} is taken by {_by_name[n].name}")
    for d in drivers:
        if d in _by_driver:
            raise NameConflict(f"driver {d!r} is taken by {_by_driver[d].name}")
    if spec.kind == "aead":
        for other in _by_id.values():
            if (other.kind == "aead" and other.cipher.lower() == spec.cipher.lower()
                    and other.mode.lower() == spec.mode.lower()):
                raise NameConflict(f"{spec.cipher} in mode {spec.mode} is {other.name} already")


def _insert(spec: AnySpec) -> None:
    _validate(spec)
    with _lock:
        _check_free(spec)
        _forget_answers()
        _by_id[spec.algo] = spec
        for n in spec.names:
            _by_name[n.lower()] = spec
        for impl in spec.implementations:
            _by_driver[impl.driver.lower()] = spec


def register(spec: AnySpec) -> AnySpec:
    """Register a plugin spec of any kind after self-testing its runnable
    implementations.

    Implementations that fail are marked failed and never used; if every
    runnable one fails the spec is refused with :class:`SelftestFailed`.
    Reused names, aliases, ids or driver names raise :class:`NameConflict`;
    registering the very spec object that is registered already does
    nothing (a plugin module that registers itself and is also named by
    its entry point).  A field of the wrong type raises :class:`InvalidType`.
    """
    _ensure_loaded()
    _validate(spec)
    with _lock:
        if _by_id.get(spec.algo) is spec:
            return spec
        _check_free(spec)  # before any test runs, so the error is the conflict
        runnable = [i for i in spec.implementations if runnable_reason(i) is None]
        results = [_selftest.run(spec, impl, force=True) for impl in runnable]
        if results and not any(r.passed for r in results):
            raise SelftestFailed(f"{spec.name}: no implementation passed its selftest: "
                                 + "; ".join(f"{r.driver}: {r.reason}" for r in results))
        _insert(spec)
    return spec


def unregister(name: str) -> None:
    """Remove a registered spec of any kind (tests and plugin reloads)."""
    with _lock:
        spec = lookup(name)
        _forget_answers()
        for n in spec.names:
            _by_name.pop(n.lower(), None)
        for impl in spec.implementations:
            _by_driver.pop(impl.driver.lower(), None)
            _selftest.forget(impl.driver)
        _by_id.pop(spec.algo, None)


#: Remembered answers: lookup() by (name, kind); choose() by (spec, driver)
#: and resolve() by (name, kind, driver), each with the stamp() it was
#: found under.  Emptied when specs come or go.
_found: dict[tuple[str | int, str | None], AnySpec] = {}
_chosen: dict[tuple[AnySpec, str | None], tuple[tuple[Any, ...], Implementation]] = {}
_resolved: dict[tuple[Any, str, Any], tuple[tuple[Any, ...], AnySpec, Implementation]] = {}
#: name -> (stamp, ...): what a one-shot function (gcrylike.mac) runs for
#: that name with the default driver, found by resolve() under the stamp
#: first; trusted while holds(stamp).
oneshot_calls: dict[str, tuple[Any, ...]] = {}


def _forget_answers() -> None:
    _found.clear()
    _chosen.clear()
    _resolved.clear()
    oneshot_calls.clear()


def stamp() -> tuple[Any, ...]:
    """What a choice depends on besides the spec: the features in use and
    the self-test results (the dict, which tests may swap, and its
    generation)."""
    return (_hwf.active(), _selftest._results, _selftest.generation)


def holds(stamp: tuple[Any, ...]) -> bool:
    """Whether a remembered answer's stamp is still current (identity
    checks: a deny-list change makes a new feature set; the feature set is
    read as stored, as a stamp exists only once it was computed)."""
    return (stamp[2] == _selftest.generation and stamp[1] is _selftest._results
            and stamp[0] is _hwf._active)


def lookup(name: str | int, kind: str | None = None) -> AnySpec:
    """Find a spec by name or alias (any case) or by numeric id; with
    ``kind``, it must be of that kind ("cipher", "mac")."""
    if type(name) is str or type(name) is int:
        found = _found.get((name, kind))
        if found is not None:
            return found
    spec = _lookup(name, kind)
    if type(name) is str or type(name) is int:
        _found[(name, kind)] = spec
    return spec


def _lookup(name: str | int, kind: str | None) -> AnySpec:
    _ensure_loaded()
    if isinstance(name, bool) or not isinstance(name, (str, int)):
        raise InvalidType(f"algorithm must be a name or an id, not {type(name).__name__}")
    spec = _by_id.get(name) if isinstance(name, int) else _by_name.get(name.lower())
    if spec is None:
        raise UnknownAlgorithm(_unknown_text(name))
    if kind is not None and spec.kind != kind:
        opener = SUGGESTED_OPENER.get(spec.kind)
        use = f"gcrylike.{opener}".format(name=spec.name) if opener else "its own API"
        article = "an" if spec.kind[0] in "aeiou" else "a"
        raise UnknownAlgorithm(f"{spec.name} is {article} {spec.kind}, not a {kind}; use {use}")
    return spec


def _unknown_text(name: str | int) -> str:
    """Why ``name`` is unknown: a plugin that offered it failed, or some
    plugins failed before saying what they offer, or it is simply unknown."""
    found = _failed_names.get(name if isinstance(name, int) else name.lower())
    if found is not None:
        return f"unknown algorithm {name!r}: {found[1]}"
    named = {label for label, _ in _failed_names.values()}
    unnamed = [f"{label}: {why}" for label, why in _plugin_errors.items() if label not in named]
    text = f"unknown algorithm {name!r}"
    if unnamed:
        text += " (plugins that failed to load: " + "; ".join(unnamed) + ")"
    return text


#: The call that opens each kind of algorithm, as refusals suggest it
#: (``{name}``: the algorithm's canonical name).
SUGGESTED_OPENER = {
    "cipher": "cipher_open({name!r})",
    "aead": "cipher_open({name!r})",
    "mac": "mac_open({name!r})",
    "block": "block_cipher_open({name!r})",
    "tweakable": "tweakable_open({name!r})",
    "secretbox": "SecretBox(key)",
}


def lookup_mode(cipher: str | int, mode: str) -> AeadSpec:
    """The AEAD spec for ``cipher`` in ``mode`` (libgcrypt's cipher modes);
    an AEAD's own name in its own mode is that AEAD."""
    if not isinstance(mode, str):
        raise InvalidType("mode must be a string")
    named = lookup(cipher)
    if isinstance(named, AeadSpec) and named.mode.lower() == mode.lower():
        return named
    base = lookup(cipher, "cipher")
    with _lock:
        for spec in _by_id.values():
            if (spec.kind == "aead" and spec.cipher.lower() == base.name.lower()
                    and spec.mode.lower() == mode.lower()):
                return spec
    hint = ""
    if mode.lower() in _by_driver:  # the old cipher_open(name, driver) order
        hint = (f": {mode!r} is a driver; pass impl={mode!r} (the second argument is the "
                "mode, as in libgcrypt)")
    raise NotSupported(f"{base.name} has no mode {mode!r}{hint}", ErrorCode.INV_CIPHER_MODE)


def spec_for_driver(driver: str) -> AnySpec:
    """The spec that owns driver name ``driver`` (any case)."""
    _ensure_loaded()
    if not isinstance(driver, str):
        raise InvalidType("impl must be a driver name")
    spec = _by_driver.get(driver.lower())
    if spec is None:
        raise UnknownName(f"no implementation is called {driver!r}")
    return spec


def all_specs() -> list[AnySpec]:
    _ensure_loaded()
    with _lock:
        return sorted(_by_id.values(), key=lambda s: s.algo)


def ranked(spec: AnySpec) -> list[Implementation]:
    """Implementations best first (priority, then registration order)."""
    return list(_ranked(spec))


@functools.lru_cache(maxsize=256)
def _ranked(spec: AnySpec) -> tuple[Implementation, ...]:
    return tuple(sorted(spec.implementations, key=lambda i: -i.priority))


def runnable_reason(impl: Implementation) -> str | None:
    """None if ``impl`` can run now, else why not."""
    missing = impl.features - _hwf.active()
    if not missing:
        return None
    denied = missing & _hwf.denied()
    parts = []
    if denied:
        parts.append(f"{', '.join(sorted(denied))} denied")
    if missing - denied:
        parts.append(f"CPU lacks {', '.join(sorted(missing - denied))}")
    return "; ".join(parts)


def describe(spec: AnySpec) -> list[ImplementationInfo]:
    """Every driver of ``spec``, best first, as :func:`gcrylike.implementations`
    reports it (chosen: what :func:`choose` picks now; none when it raises)."""
    try:
        chosen: Implementation | None = choose(spec)
    except GcryError:
        chosen = None
    out = []
    for impl in ranked(spec):
        reason = runnable_reason(impl)
        out.append(ImplementationInfo(spec.name, spec.kind, impl.driver, impl.priority,
                                      impl.features, reason is None, impl is chosen,
                                      reason or "", _selftest.status(impl)))
    return out


def algorithm_info(spec: AnySpec) -> AlgorithmInfo:
    """The public description of ``spec``: its names and sizes, None for the
    fields its kind has not got."""
    def field(name: str) -> Any:
        return getattr(spec, name, None)

    iv_sizes = field("iv_sizes")
    return AlgorithmInfo(
        name=spec.name, id=spec.algo, kind=spec.kind, aliases=tuple(spec.aliases),
        key_sizes=tuple(spec.key_sizes),
        iv_sizes=None if iv_sizes is None else tuple(iv_sizes),
        block_size=field("block_size"), digest_size=field("digest_size"),
        tag_size=field("tag_size"), cipher=field("cipher"), mode=field("mode"),
        min_length=field("min_length"), max_tweak=field("max_tweak"))


def choose(spec: AnySpec, driver: str | None = None) -> Implementation:
    """The implementation a new handle uses: ``driver`` if given, else the
    highest-priority one this CPU can run that has not failed its selftest.
    Remembered until the features in use or the self-test results change."""
    key = (spec, driver) if driver is None or type(driver) is str else None
    hit = _chosen.get(key) if key is not None else None
    if hit is not None and holds(hit[0]):
        return hit[1]
    now = stamp()
    impl = _choose(spec, driver)
    if key is not None:
        _chosen[key] = (now, impl)
    return impl


def _choose(spec: AnySpec, driver: str | None) -> Implementation:
    if driver is not None:
        if not isinstance(driver, str):
            raise InvalidType("impl must be a driver name")
        for impl in spec.implementations:
            if impl.driver.lower() == driver.lower():
                reason = runnable_reason(impl)
                if reason:
                    raise NotSupported(f"{impl.driver} cannot run here: {reason}")
                if _selftest.failed(impl):
                    _selftest.require(spec, impl)
                return impl
        raise UnknownName(f"{spec.name} has no implementation {driver!r}; have: "
                          + ", ".join(i.driver for i in ranked(spec)))
    active = _hwf.active()
    candidates = [i for i in _ranked(spec) if i.features <= active]
    for impl in candidates:
        if not _selftest.failed(impl):
            return impl
    if candidates:
        _selftest.require(spec, candidates[0])  # raises with the reason
    raise NotSupported(f"no implementation of {spec.name} can run here")


def resolve(name: str | int, kind: str, driver: str | None = None,
            ) -> tuple[AnySpec, Implementation]:
    """:func:`lookup`, :func:`choose` and the first-use self-test gate in
    one call, for one-shot functions that set up no handle.  Remembered
    like choose(), so a repeated call costs one dict look-up."""
    # remembered only for well-typed arguments; anything else (an unhashable
    # or a writable memoryview, whose hash raises ValueError) takes the slow
    # path, which says what is wrong
    key = (name, kind, driver) if type(name) in (str, int) and (
        driver is None or type(driver) is str) else None
    hit = _resolved.get(key) if key is not None else None
    if hit is not None and holds(hit[0]):
        return hit[1], hit[2]
    before = stamp()
    spec = lookup(name, kind)
    impl = ready_implementation(spec, choose(spec, driver), driver is None)
    after = stamp()  # the generation after any self-test it ran
    if key is not None and after[:2] == before[:2]:  # no deny-list change meanwhile
        _resolved[key] = (after, spec, impl)
    return spec, impl


def ready_implementation(spec: AnySpec, impl: Implementation, auto: bool) -> Implementation:
    """First-setkey gate: self-test ``impl``; on failure fall back (auto) or raise."""
    while True:
        if _selftest.run(spec, impl).passed:
            return impl
        if not auto:
            _selftest.require(spec, impl)
        impl = choose(spec)  # skips failed ones; raises when none is left

