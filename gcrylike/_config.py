"""``gcrylike.config()``: the build switches, CPU features and choices here
(libgcrypt's ``GCRYCTL_PRINT_CONFIG``)."""

from __future__ import annotations

import platform
from dataclasses import dataclass, field

from . import _hwf, _registry
from ._errors import InvalidType


@dataclass(frozen=True)
class Config:
    """What :func:`gcrylike.config` reports; ``format()`` gives the text
    ``gcrylike config`` prints."""

    version: str
    use_amd64: bool
    platform: str
    detected_features: tuple[str, ...]
    denied_features: tuple[str, ...]
    active_features: tuple[str, ...]
    #: algorithm name -> driver a new handle would use (or why none)
    chosen: dict[str, str]
    plugin_errors: dict[str, str]
    #: algorithm name -> its kind ("cipher", "mac", "aead", ...)
    kinds: dict[str, str] = field(default_factory=dict)
    #: How data calls reach native code: "fastcall" (the gcrylike._fastcall
    #: extension, one C call per data call) or "cffi"
    data_path: str = "cffi"
    #: Why data calls take cffi ("" on the fast path)
    data_path_reason: str = ""
    #: The default of :func:`gcrylike.set_threads`: the CPUs this process
    #: may use, at most 8
    threads_default: int = 1
    #: The architecture whose assembly is built in ("amd64", "aarch64"),
    #: None for the portable C alone
    asm_arch: str | None = None

    def format(self) -> str:
        def order(names):
            return ",".join(f for f in _hwf.FEATURES if f in names) or "-"

        lines = [
            f"version:{self.version}",
            f"use-amd64:{'yes' if self.use_amd64 else 'no'}",
            f"asm:{self.asm_arch or 'none'}",
            f"platform:{self.platform}",
            f"hwflist:{order(self.active_features)}",
            f"hwf-detected:{order(self.detected_features)}",
            f"hwf-denied:{order(self.denied_features)}",
            f"data-path:{self.data_path}"
            + (f" ({self.data_path_reason})" if self.data_path_reason else ""),
        ]
        lines += [f"{self.kinds.get(name, 'cipher')}:{name}:{driver}"
                  for name, driver in self.chosen.items()]
        lines += [f"plugin-error:{k}:{v}" for k, v in self.plugin_errors.items()]
        return "\n".join(lines)


def use_amd64() -> bool:
    """Whether this build includes the amd64 assembly (the USE_AMD64 switch)."""
    from ._core import lib

    return bool(lib.gcry_build_use_amd64())


def asm_arch() -> str | None:
    """The architecture whose assembly this build has (gcrylike/build.py's
    decision: "amd64", "aarch64"), None for the portable C alone."""
    from ._core import ffi, lib

    return ffi.string(lib.gcry_build_asm_arch()).decode("ascii") or None


def data_path() -> tuple[str, str]:
    """("fastcall", "") when data calls take the native fast path
    (gcrylike._fastcall), else ("cffi", why not)."""
    import sys

    from . import _fast

    if _fast.AVAILABLE:
        return "fastcall", ""
    if _fast._DISABLED:
        return "cffi", "GCRYLIKE_NO_FASTCALL is set"
    if sys.implementation.name != "cpython":
        return "cffi", f"no fast path on {sys.implementation.name}"
    return "cffi", "gcrylike._fastcall is not built"


def handle_path(handle: object) -> str:
    """How ``handle``'s data calls reach native code now: "fastcall",
    "cffi", or "none" (no key yet, or closed)."""
    from ._keyed import KeyedHandle  # every handle class and one-shot class

    if not isinstance(handle, KeyedHandle):
        raise InvalidType(f"data_path() takes a gcrylike handle or one-shot object, "
                          f"not {type(handle).__name__}")
    path: str = handle._path
    return path


def config() -> Config:
    """Build switches, CPU features (detected, denied, active) and the driver
    each algorithm would use now."""
    from . import __version__, _fast

    chosen, kinds = {}, {}
    for spec in _registry.all_specs():
        kinds[spec.name] = spec.kind
        try:
            chosen[spec.name] = _registry.choose(spec).driver
        except Exception as exc:  # report, don't fail: this is a diagnostic
            chosen[spec.name] = f"none ({exc})"
    path, why = data_path()
    return Config(
        version=__version__,
        use_amd64=use_amd64(),
        platform=f"{platform.system()}-{platform.machine()}",
        detected_features=tuple(sorted(_hwf.detected())),
        denied_features=tuple(sorted(_hwf.denied())),
        active_features=tuple(sorted(_hwf.active())),
        chosen=chosen,
        plugin_errors=_registry.plugin_errors(),
        kinds=kinds,
        data_path=path,
        data_path_reason=why,
        threads_default=_fast.DEFAULT_THREADS,
        asm_arch=asm_arch(),
    )
