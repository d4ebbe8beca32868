"""The machine and the software a run measured: the header of the JSON and
CSV reports and the plot's caption."""

from __future__ import annotations

import os
import platform
from typing import Any

import gcrylike

from . import peers
from .cpuclock import Clock, cpus


def cpu_model(text: str | None = None) -> str:
    """The first "model name" of /proc/cpuinfo, else what platform knows."""
    if text is None:
        try:
            with open("/proc/cpuinfo") as f:
                text = f.read()
        except OSError:
            text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and value.strip():
            return " ".join(value.split())
    return platform.processor() or platform.machine() or "unknown"


def machine(clock: Clock | None) -> dict[str, Any]:
    cfg = gcrylike.config()
    return {
        "cpu_model": cpu_model(),
        "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cores": os.cpu_count(),
        "cores_usable": len(cpus()),
        "use_amd64": cfg.use_amd64,
        "features_in_use": list(cfg.active_features),
        "features_detected": list(cfg.detected_features),
        "features_denied": list(cfg.denied_features),
        "data_path": cfg.data_path,
        "data_path_reason": cfg.data_path_reason or None,
        "threads_default": cfg.threads_default,
        "mhz": clock.mhz if clock else None,
        "mhz_source": clock.describe() if clock else None,
        "tsc_mhz": clock.tsc_mhz if clock else None,
    }


def versions(with_peers: bool) -> dict[str, Any]:
    """gcrylike's and Python's versions, and with peers each peer library's
    (None, with the reason, when it is not installed)."""
    found: dict[str, Any] = {}
    if with_peers:
        for peer in peers.PEERS:
            reason = peer.unavailable_reason()
            found[peer.name] = {"version": None if reason else peer.version,
                                "via": peer.via, "unavailable": reason}
    return {
        "gcrylike": gcrylike.__version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "peers": found,
    }
