"""Hardware features: CPUID detection (in the core extension) and the deny list.

The deny list starts from the ``GCRYLIKE_HWF_DENY`` environment variable
(names separated by ``,`` or ``:``; ``all`` denies every feature) and can be
replaced with :func:`gcrylike.set_hwf_deny`.  It applies to handles opened
afterwards, like libgcrypt's ``GCRYCTL_DISABLE_HWF`` and ``/etc/gcrypt/hwf.deny``.
Under valgrind, which cannot execute AVX-512, the AVX-512 family is denied.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable

from ._errors import InvalidType, UnknownName


def _core_features() -> tuple[str, ...]:
    """The feature names the core extension reports, bit 0 first (the list
    of gcrylike/_native/hwf.h, through ``gcry_hwf_name``)."""
    from ._core import ffi, lib

    names: list[str] = []
    while (name := lib.gcry_hwf_name(len(names))) != ffi.NULL:
        names.append(ffi.string(name).decode("ascii"))
    return tuple(names)


# Bit i of gcry_hwf_detect() is FEATURES[i]: hwf.h's list, written only there.
FEATURES: tuple[str, ...] = _core_features()
AVX512_FAMILY = frozenset(f for f in FEATURES if f.startswith("avx512"))

_lock = threading.Lock()
_detected: frozenset[str] | None = None
_denied: frozenset[str] | None = None
_active: frozenset[str] | None = None  # detected - denied, kept current by set_deny


def parse_names(spec: str | Iterable[str]) -> frozenset[str]:
    """Validate feature names; ``all`` stands for every feature."""
    if isinstance(spec, str):
        spec = spec.replace(":", ",").split(",")
    elif not isinstance(spec, Iterable) or isinstance(spec, (bytes, bytearray, memoryview)):
        raise InvalidType("the deny list must be a string of names or an iterable of "
                          f"strings, not {type(spec).__name__}")
    spec = list(spec)
    for s in spec:
        if not isinstance(s, str):
            raise InvalidType(f"hardware feature names must be strings, not {type(s).__name__}")
    names = {s.strip().lower() for s in spec if s and s.strip()}
    if "all" in names:
        return frozenset(FEATURES)
    unknown = sorted(names - set(FEATURES))
    if unknown:
        raise UnknownName(f"unknown hardware feature(s): {', '.join(unknown)}; "
                          f"known: {', '.join(FEATURES)}")
    return frozenset(names)


def under_valgrind() -> bool:
    return "vgpreload" in os.environ.get("LD_PRELOAD", "")


def detected() -> frozenset[str]:
    """Features this CPU and OS support (before the deny list)."""
    global _detected
    if _detected is None:
        from ._core import lib
        bits = lib.gcry_hwf_detect()
        _detected = frozenset(n for i, n in enumerate(FEATURES) if bits >> i & 1)
    return _detected


def denied() -> frozenset[str]:
    global _denied
    with _lock:
        if _denied is None:
            base = parse_names(os.environ.get("GCRYLIKE_HWF_DENY", ""))
            _denied = base | (AVX512_FAMILY if under_valgrind() else frozenset())
        return _denied


def set_deny(names: str | Iterable[str]) -> frozenset[str]:
    """Replace the deny list; return the previous one (to restore it)."""
    global _denied, _active
    new = parse_names(names)
    previous = denied()
    if under_valgrind():
        new |= AVX512_FAMILY
    with _lock:
        _denied = new
        _active = detected() - new
    return previous


def active() -> frozenset[str]:
    """Features that implementations may use now (read on every open, so
    computed once per deny-list change)."""
    global _active
    current = _active
    if current is None:
        current = _active = detected() - denied()
    return current


def cycles() -> int:
    """The time-stamp counter (rdtsc), or 0 where there is none."""
    from ._core import lib

    return int(lib.gcry_cycles())


def core_mhz() -> float | None:
    """The core clock estimated by the core extension's chain of one-cycle
    adds, or None where it has no such loop."""
    from ._core import lib

    mhz = float(lib.gcry_estimate_mhz())
    return mhz if mhz > 0 else None
