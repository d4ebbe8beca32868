"""tox's inline plugin (tox loads it from beside tox.ini): lets the py312
and py313 envs find the interpreters pyenv installed.  pyenv's shims answer
``python3.12`` only while that version is selected, so a machine with 3.12
and 3.13 under pyenv but 3.11 selected would report them missing (the shim
is on PATH but fails).  The newest installed ``bin`` folder of each is
appended to PATH (appended: ``python3`` stays the one selected, and an
interpreter found earlier on PATH wins).  Without pyenv, PATH is left
alone."""

from __future__ import annotations

import glob
import os

#: the interpreters tox.ini's env_list names beyond the default python3
WANTED = ("3.12", "3.13")


def _pyenv_bins(version: str) -> list[str]:
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = glob.glob(os.path.join(root, "versions", f"{version}.*", "bin"))
    return sorted(found, key=_release)


def _release(bin_dir: str) -> tuple[int, ...]:
    """3.12.10 after 3.12.9 (a string sort would put it first); a name
    that is not all digits (3.13.0t) sorts as its digits."""
    name = os.path.basename(os.path.dirname(bin_dir))
    return tuple(int("".join(c for c in part if c.isdigit()) or 0) for part in name.split("."))


def _extend_path() -> None:
    path = os.environ.get("PATH", "").split(os.pathsep)
    for version in WANTED:
        path += [d for d in _pyenv_bins(version)[-1:] if d not in path]
    os.environ["PATH"] = os.pathsep.join(path)


_extend_path()
