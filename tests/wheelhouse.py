"""Wheels of distributions installed in this environment, so that a fresh
virtual environment can ``pip install`` them with no network: pip then
takes them from a folder (``--no-index --find-links``) as from an index.

An installed distribution is its wheel unpacked: its RECORD lists every
file, and its WHEEL file keeps the tag.  Repacked, the files are the same
and the RECORD is written anew; console scripts and bytecode are left out
(pip makes them again)."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import re
import zipfile
from pathlib import Path

from packaging.requirements import Requirement

#: Files of an installed dist-info that the installer wrote, not the wheel.
_INSTALLER_FILES = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def with_requirements(names: list[str]) -> list[str]:
    """NAMES and everything they require here, each once."""
    seen: dict[str, None] = {}
    todo = list(names)
    while todo:
        name = _canonical(todo.pop())
        if name in seen:
            continue
        seen[name] = None
        for line in importlib.metadata.requires(name) or ():
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(seen)


def repack(name: str, into: Path) -> Path:
    """The installed distribution NAME as a wheel in the folder INTO."""
    dist = importlib.metadata.distribution(name)
    # no bytecode: pip compiles anew (and virtualenv's seeded setuptools
    # lists .pyc files it never wrote)
    files = [f for f in dist.files or ()
             if f.parts[0] != ".." and f.suffix != ".pyc" and "__pycache__" not in f.parts]
    (info,) = {f.parts[0] for f in files if f.parts[0].endswith(".dist-info")}
    tag = next(line.split(":", 1)[1].strip() for line in dist.read_text("WHEEL").splitlines()
               if line.startswith("Tag:"))
    wheel = into / f"{info.removesuffix('.dist-info')}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            if f.parts[0] == info and f.name in _INSTALLER_FILES:
                continue
            data = f.locate().read_bytes()
            z.writestr(f.as_posix(), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{f.as_posix()},sha256={digest.decode()},{len(data)}")
        record.append(f"{info}/RECORD,,")
        z.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
