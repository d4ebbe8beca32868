"""Build glue: cffi extensions with hand-written ``.S`` files.

Project metadata lives in pyproject.toml; this file only wires up what
setuptools cannot express declaratively: the cffi modules, ``.S`` support in
build_ext, and keeping the cffi build scripts out of the wheel.
"""

import glob
import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_tools"))

import gcrylike_build  # noqa: E402

CFFI_MODULES = [
    "gcrylike/_native/core_build.py:ffibuilder",
    "ciphers/salsa20/_build_ffi.py:ffibuilder",
    "ciphers/chacha/_build_ffi.py:ffibuilder",
    "ciphers/poly1305/_build_ffi.py:ffibuilder",
    "ciphers/chacha20poly1305/_build_ffi.py:ffibuilder",
    "ciphers/nhpoly1305/_build_ffi.py:ffibuilder",
    "ciphers/aes/_build_ffi.py:ffibuilder",
    "ciphers/adiantum/_build_ffi.py:ffibuilder",
    "ciphers/secretbox/_build_ffi.py:ffibuilder",
]


class BuildPyWithoutBuildScripts(build_py):
    """cffi build scripts sit beside their glue but are not runtime modules."""

    _BUILD_SCRIPTS = ("_build_ffi", "core_build")

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if m[1] not in self._BUILD_SCRIPTS]


def fastcall_extensions():
    """gcrylike._fastcall, the native fast path of the data calls
    (gcrylike/_native/fastcall.c): CPython only, optional (a failed build
    leaves the cffi path), skipped with GCRYLIKE_NO_FASTCALL=1."""
    if platform.python_implementation() != "CPython" or gcrylike_build.env_true(
            "GCRYLIKE_NO_FASTCALL"):
        print("gcrylike: fast path (gcrylike._fastcall) not built: cffi path only")
        return []
    return [Extension("gcrylike._fastcall", ["gcrylike/_native/fastcall.c"],
                      extra_compile_args=["-O2", "-pthread", *gcrylike_build.warning_flags()],
                      extra_link_args=["-pthread"],
                      optional=True)]


#: The oldest CPython whose stable ABI the cffi modules need (requires-python).
LIMITED_API_FLOOR = "cp310"


def stable_abi_only(extensions):
    """Whether every extension of the wheel is built for the stable ABI:
    cffi builds its modules so on a release CPython (``*.abi3.so``); the
    fast path uses CPython APIs outside it (vectorcall, member descriptors,
    bound methods, static types: docs/building.rst) and is version-specific."""
    return (platform.python_implementation() == "CPython" and not extensions
            and not hasattr(sys, "gettotalrefcount"))


class BuildExtWithoutStaleFastPath(gcrylike_build.build_ext()):
    """gcrylike.build's build_ext, which also removes a fast path left in the
    build (or, in place, the source) folder by an earlier build when this one
    skips it: a stale version-specific module would otherwise go into a
    wheel tagged abi3."""

    def run(self):
        super().run()
        if FASTCALL:
            return
        folder = "gcrylike" if self.inplace else os.path.join(self.build_lib, "gcrylike")
        for stale in glob.glob(os.path.join(folder, "_fastcall.*")):
            print(f"gcrylike: removing {stale} (the fast path is not built)")
            os.remove(stale)


class BdistWheelStableAbi(bdist_wheel):
    """Tag the wheel ``cp310-abi3`` when nothing in it is version-specific
    (built without the fast path); with the fast path it stays ``cpXY-cpXY``."""

    def finalize_options(self):
        if not self.py_limited_api and stable_abi_only(FASTCALL):
            self.py_limited_api = LIMITED_API_FLOOR
        super().finalize_options()


gcrylike_build.use_amd64()  # decide (and print) once, before any extension
FASTCALL = fastcall_extensions()

setup(
    ext_modules=list(FASTCALL),  # a copy: cffi appends its modules to this list
    cffi_modules=CFFI_MODULES,
    # gcrylike.build's build_ext (assembles .S), the one plugins use too
    cmdclass={"build_ext": BuildExtWithoutStaleFastPath, "build_py": BuildPyWithoutBuildScripts,
              "bdist_wheel": BdistWheelStableAbi},
)
