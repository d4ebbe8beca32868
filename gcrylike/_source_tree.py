"""The one import error a user meets from a source checkout, explained.

After ``pip install .``, running Python in the repository root puts the
root first on ``sys.path`` (the current directory), so ``import gcrylike``
finds the source folder, which has no compiled extensions, instead of the
installed package; the bare ``No module named 'gcrylike._core'`` says
nothing of why.  Imported first by the package's ``__init__``.
"""

from __future__ import annotations

import importlib
import os

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def is_source_tree(package_dir: str = PACKAGE_DIR) -> bool:
    """Whether the package was imported from the repository (its parent
    holds ``setup.py`` and ``pyproject.toml``; an installed package's
    parent is ``site-packages``)."""
    root = os.path.dirname(package_dir)
    return all(os.path.isfile(os.path.join(root, f)) for f in ("setup.py", "pyproject.toml"))


def explain(exc: ModuleNotFoundError) -> ImportError:
    """The error to raise instead of EXC, the core extension's absence."""
    return ImportError(
        f"gcrylike was imported from its source tree ({PACKAGE_DIR}), whose "
        "extensions are not compiled: the repository root (the current directory "
        "or PYTHONPATH) hides the installed package. Run from another directory, "
        "or run python -I (isolated mode: the current directory is not on "
        "sys.path), or build the extensions in the tree with "
        "'python3 -m pip install -e .'.",
        name=exc.name, path=PACKAGE_DIR)


def check_core_importable() -> None:
    """Import the core extension first, replacing its ModuleNotFoundError
    with :func:`explain`'s when the package is the source tree."""
    try:
        importlib.import_module("gcrylike._core")
    except ModuleNotFoundError as exc:
        if exc.name != "gcrylike._core" or not is_source_tree():
            raise
        raise explain(exc) from exc


check_core_importable()
