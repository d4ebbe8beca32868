"""Build the test copies of every cipher module (run by tests/testhooks.py).

A test copy is its module built again from the same sources, asm and flags
as the wheel (the arguments its ``ciphers/*/_build_ffi.py`` gives
``make_ffi``, recorded, not repeated here), with ``GCRY_TEST_HOOKS``
defined and the test-only entry points added: the burn switch and the
stack-residue scanner (testhooks.c), the timing test's measurement loop
(timing_hooks.c) and the module's own probes and
counters (``<key>_*.c``, e.g. ``aead_hooks.c``).  Installed gcrylike has none of these.

    python build_hooks.py OUTDIR --arch {amd64,aarch64,none} [--ct]

``--arch`` is the installed wheel's assembly (``gcrylike.config().asm_arch``:
USE_AMD64, USE_AARCH64 or neither; the copies must run the
same code on the same context layout); ``--ct`` adds ``GCRY_CT_CHECK``
(tests/native/ct.h: valgrind client requests for the ``ct`` env).
GCRYLIKE_EXTRA_CFLAGS applies as it does to the wheel.  Writes
OUTDIR/gcrylike_testcopy_<key>*.so and OUTDIR/manifest.json.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import glob
import json
import os
import re
import runpy
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NATIVE = os.path.relpath(HERE, ROOT)
sys.path.insert(0, os.path.join(ROOT, "build_tools"))

import gcrylike_build  # noqa: E402
from cffi._shimmed_dist_utils import build_ext  # noqa: E402

PREFIX = "gcrylike_testcopy_"
CDEF_BEGIN, CDEF_END = "BEGIN TEST CDEF", "END TEST CDEF"


def test_cdef(path: str) -> str:
    """The prototypes between the CDEF markers of a tests/native file (what
    the test copy's cffi declares; plain C, comments allowed)."""
    with open(path) as f:
        lines = f.read().splitlines()
    begin = next((i for i, line in enumerate(lines) if CDEF_BEGIN in line), None)
    if begin is None:
        return ""
    end = next(i for i, line in enumerate(lines) if CDEF_END in line)
    return "\n".join(lines[begin + 1:end]) + "\n"


def declared_names(cdef: str) -> list[str]:
    """The functions and variables a cdef declares."""
    cdef = re.sub(r"/\*.*?\*/", "", cdef, flags=re.S)
    cdef = re.sub(r"typedef[^;]*;", "", cdef)
    cdef = re.sub(r"struct\s+\w+\s*\{.*?\};", "", cdef, flags=re.S)  # fields are not names
    return re.findall(r"(\w+)\s*(?:\(|;)", cdef)


def recorded_make_ffi_calls() -> list[dict]:
    """Run every ciphers/*/_build_ffi.py with make_ffi recording its
    arguments instead of building."""
    calls, real = [], gcrylike_build.make_ffi

    def record(module, cdef, c_sources, **kwargs):
        calls.append(dict(module=module, cdef=cdef, c_sources=list(c_sources), **kwargs))

    gcrylike_build.make_ffi = record
    try:
        for script in sorted(glob.glob(os.path.join(ROOT, "ciphers", "*", "_build_ffi.py"))):
            runpy.run_path(script, run_name="_build_ffi")
    finally:
        gcrylike_build.make_ffi = real
    return calls


def _with_asm(cls):
    """build_ext that lets the compiler driver assemble ``.S`` (as setup.py)."""
    plain = cls.build_extensions

    def build_extensions(self):
        self.compiler.src_extensions = [*self.compiler.src_extensions, ".S"]
        plain(self)

    cls.build_extensions = build_extensions


def build_copy(call: dict, outdir: str, arch: str | None, ct: bool) -> tuple[str, dict]:
    """Compile one test copy; its key and manifest entry."""
    gcrylike_build.decide(arch, "the installed wheel's assembly")
    _with_asm(build_ext)
    key = call["module"].rsplit(".", 1)[1].lstrip("_")
    # the module's own files: <key>_hooks.c, <key>_driver_check.c, ...
    own = sorted(f for f in os.listdir(HERE) if f.startswith(key + "_") and f.endswith(".c"))
    extra = [os.path.join(NATIVE, f) for f in
             ["testhooks.c", "timing_hooks.c", *own] + (["ct_hooks.c"] if ct else [])]
    cdef = "".join(test_cdef(os.path.join(ROOT, f)) for f in
                   [os.path.join(NATIVE, "testhooks.h"), *extra[1:]])
    macros = [("GCRY_TEST_HOOKS", "1")] + ([("GCRY_CT_CHECK", "1")] if ct else [])
    args = dict(call, module=PREFIX + key, cdef=call["cdef"] + cdef,
                c_sources=call["c_sources"] + extra, macros=macros, absolute=True)
    ffi = gcrylike_build.make_ffi(**args)
    tmp = os.path.join(outdir, "build-" + key)
    so = ffi.compile(tmpdir=tmp)
    shutil.move(so, os.path.join(outdir, os.path.basename(so)))
    shutil.rmtree(tmp)
    return key, {"module": PREFIX + key, "installed": call["module"],
                 "test_only": declared_names(cdef)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--arch", choices=[*gcrylike_build.ARCHES, "none"], required=True)
    ap.add_argument("--ct", action="store_true")
    opts = ap.parse_args()
    os.makedirs(opts.outdir, exist_ok=True)
    calls = recorded_make_ffi_calls()
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        jobs = [pool.submit(build_copy, call, os.path.abspath(opts.outdir),
                            None if opts.arch == "none" else opts.arch, opts.ct)
                for call in calls]
        manifest = dict(job.result() for job in jobs)
    with open(os.path.join(opts.outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
