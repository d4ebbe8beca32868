"""The test copies of the cipher modules (tests/native/): each module built
again from the repository's sources, with the same asm and flags as the
installed wheel, plus its test-only entry points (burn switch, stack-residue
scanner, probes, stitched-group counters).  Installed gcrylike has none.

``copy("aead")`` builds every copy on first use (tests/native/build_hooks.py,
in a subprocess) into a cache directory named by a hash of the sources,
flags and interpreter, then imports the one asked for.  A copy runs on
contexts keyed by the installed module (same headers, same USE_AMD64: the
layout is the same, which ``copy`` checks through the ``*_ctxsize`` and
``*_drivers`` entries both have: the context sizes and the driver rows).

The cache lives under ``GCRYLIKE_TESTHOOKS_DIR`` or the system temp dir.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import types

import cffi

import gcrylike
from gcrylike._linkage import import_components

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILDER = os.path.join(HERE, "native", "build_hooks.py")
#: what a test copy is built from (any change rebuilds the copies)
SOURCE_DIRS = ("asm", "ciphers", os.path.join("gcrylike", "_native"), "build_tools",
               os.path.join("tests", "native"))
SOURCE_EXTS = (".c", ".h", ".S", ".py")


def _fingerprint(ct: bool) -> str:
    h = hashlib.sha256()
    for d in SOURCE_DIRS:
        for base, dirs, files in sorted(os.walk(os.path.join(ROOT, d))):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_EXTS):
                    path = os.path.join(base, name)
                    h.update(os.path.relpath(path, ROOT).encode() + b"\0")
                    with open(path, "rb") as f:
                        h.update(hashlib.sha256(f.read()).digest())
    for part in (sys.version, sysconfig.get_config_var("CC") or "", cffi.__version__,
                 os.environ.get("GCRYLIKE_EXTRA_CFLAGS", ""),
                 os.environ.get("GCRYLIKE_WERROR", ""),
                 f"asm={gcrylike.config().asm_arch} ct={ct}"):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


def _cache_root() -> str:
    return os.environ.get("GCRYLIKE_TESTHOOKS_DIR") or os.path.join(
        tempfile.gettempdir(), "gcrylike-testhooks")


@functools.cache
def build_dir(ct: bool = False) -> str:
    """The directory holding the built copies (built now if missing)."""
    root = _cache_root()
    os.makedirs(root, exist_ok=True)
    final = os.path.join(root, ("ct-" if ct else "") + _fingerprint(ct))
    with open(os.path.join(root, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time per cache
        if not os.path.exists(os.path.join(final, "manifest.json")):
            tmp = tempfile.mkdtemp(dir=root, prefix=".building-")
            cmd = [sys.executable, BUILDER, tmp,
                   "--arch", gcrylike.config().asm_arch or "none"] + (["--ct"] if ct else [])
            # not into the compiler: a sanitizer runtime or valgrind's preload
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
            res = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
            if res.returncode != 0:
                shutil.rmtree(tmp, ignore_errors=True)
                raise RuntimeError(f"building the test copies failed:\n{res.stdout}\n"
                                   f"{res.stderr[-4000:]}")
            with contextlib.suppress(FileNotFoundError):
                shutil.rmtree(final)
            os.replace(tmp, final)
            _prune(root, keep=final)
    os.utime(final)  # in use: not pruned
    return final


def _prune(root: str, keep: str, age: float = 86400.0) -> None:
    """Remove builds of older sources not used for AGE seconds."""
    now = time.time()
    for name in os.listdir(root):
        path = os.path.join(root, name)
        if path != keep and not name.startswith(".") and now - os.path.getmtime(path) > age:
            shutil.rmtree(path, ignore_errors=True)


def manifest(ct: bool = False) -> dict[str, dict]:
    """key -> {"module", "installed", "test_only": [names]} for every copy."""
    with open(os.path.join(build_dir(ct), "manifest.json")) as f:
        return json.load(f)


@functools.cache
def _fact(ffi, lib, name: str) -> object:
    """What a module and its test copy must agree on: a context size, or a
    table of driver rows (names and features: the ids are their places)."""
    if name.endswith("_ctxsize"):
        return getattr(lib, name)()
    count = ffi.new("size_t *")
    rows = getattr(lib, name)(count)
    return [(ffi.string(rows[i].suffix), rows[i].hwf) for i in range(count[0])]


def copy(key: str, ct: bool = False) -> types.ModuleType:
    """The test copy of module KEY ("salsa20", "aead", ...): ``.ffi``, ``.lib``."""
    path = build_dir(ct)
    entry = manifest(ct)[key]
    if path not in sys.path:
        sys.path.insert(0, path)
    mod = importlib.import_module(entry["module"])
    installed = importlib.import_module(entry["installed"]).lib
    installed_ffi = importlib.import_module(entry["installed"]).ffi
    for name in dir(installed):
        if name.endswith(("_ctxsize", "_drivers")):
            theirs, ours = _fact(installed_ffi, installed, name), _fact(mod.ffi, mod.lib, name)
            if theirs != ours:
                raise RuntimeError(f"test copy of {key} differs from the installed module: "
                                   f"{name}() is {ours}, installed {theirs}")
    # a composite's copy runs on its components' copies (same burn switch)
    import_components(mod.ffi, mod.lib, lambda part: copy(part, ct))
    return mod


def sanitized() -> bool:
    """Whether this process runs with AddressSanitizer (the sanitize env)."""
    return hasattr(ctypes.CDLL(None), "__asan_init")


def crypt_entry(mod: types.ModuleType, name: str):
    """``name`` of a test copy's lib as its ``gcry_crypt_fn`` pointer."""
    return mod.ffi.cast("gcry_crypt_fn", mod.ffi.addressof(mod.lib, name))


def installed(key: str) -> types.ModuleType:
    """The installed module the test copy KEY was built from."""
    return importlib.import_module(manifest()[key]["installed"])


def installed_entry(mod: types.ModuleType, key: str, name: str):
    """``name`` of the installed module KEY, as a ``gcry_crypt_fn`` pointer
    of the test copy MOD's ffi (so a test copy's scanner can run it)."""
    theirs = installed(key)
    address = int(theirs.ffi.cast("uintptr_t", theirs.ffi.addressof(theirs.lib, name)))
    return mod.ffi.cast("gcry_crypt_fn", address)
