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

    def run(self):
        super().run()
        # No fast path but the one this build makes (none without it): one
        # an earlier build left, such as a version-specific one from before
        # the fast path was built for the stable ABI, would ship in the wheel
        # (it takes all of build/lib) or, built in place, be imported first
        # (CPython tries the version-specific suffix before .abi3.so).
        build_ext = self.get_finalized_command("build_ext")
        keep = os.path.basename(build_ext.get_ext_filename("gcrylike._fastcall")) \
            if WITH_FASTCALL else None
        folders = [self.get_finalized_command("build").build_platlib]
        if build_ext.inplace:
            folders.append(os.path.dirname(os.path.abspath(__file__)))
        for folder in folders:
            for stale in glob.glob(os.path.join(folder, "gcrylike", "_fastcall*.so")):
                if os.path.basename(stale) != keep:
                    print(f"gcrylike: removing stale {stale}")
                    os.remove(stale)


#: The oldest CPython whose stable ABI the extensions need (requires-python):
#: the fast path takes its input through PyObject_GetBuffer, limited API from
#: 3.11 on (docs/building.rst, "Wheel tags and the stable ABI").
LIMITED_API_FLOOR = "cp311"
LIMITED_API_MACRO = ("Py_LIMITED_API", "0x030B0000")


def stable_abi():
    """Whether the extensions are built for the stable ABI: on a release
    CPython, as cffi does for its modules (a debug build's reference tracing
    has no stable ABI, and other interpreters have none to build for)."""
    return platform.python_implementation() == "CPython" and not hasattr(sys, "gettotalrefcount")


def fastcall_extensions():
    """gcrylike._fastcall, the native fast path of the data calls
    (gcrylike/_native/fastcall.c): CPython only, optional (a failed build
    leaves the cffi path), skipped with GCRYLIKE_NO_FASTCALL=1.  Written
    against the 3.11 limited API, so like the cffi modules it is one
    ``*.abi3.so`` for every CPython from 3.11 on."""
    if platform.python_implementation() != "CPython" or gcrylike_build.env_true(
            "GCRYLIKE_NO_FASTCALL"):
        print("gcrylike: fast path (gcrylike._fastcall) not built: cffi path only")
        return []
    limited = stable_abi()
    return [Extension("gcrylike._fastcall", ["gcrylike/_native/fastcall.c"],
                      define_macros=[LIMITED_API_MACRO] if limited else [],
                      py_limited_api=limited,
                      extra_compile_args=["-O2", "-pthread", *gcrylike_build.warning_flags()],
                      extra_link_args=["-pthread", *gcrylike_build.bind_now_flags()],
                      optional=True)]


class BdistWheelStableAbi(bdist_wheel):
    """Tag the wheel ``cp311-abi3``: every extension in it, the fast path
    included, is built for the stable ABI of CPython 3.11 and later.  (A
    debug CPython builds version-specific modules: its wheel keeps the
    ``cpXY-cpXYd`` tag.)"""

    def finalize_options(self):
        if not self.py_limited_api and stable_abi():
            self.py_limited_api = LIMITED_API_FLOOR
        super().finalize_options()


gcrylike_build.asm_arch()  # decide (and print) once, before any extension
FASTCALL = fastcall_extensions()
WITH_FASTCALL = bool(FASTCALL)  # (cffi appends its modules to the list given)

setup(
    ext_modules=FASTCALL,
    cffi_modules=CFFI_MODULES,
    # gcrylike.build's build_ext (assembles .S), the one plugins use too
    cmdclass={"build_ext": gcrylike_build.build_ext(), "build_py": BuildPyWithoutBuildScripts,
              "bdist_wheel": BdistWheelStableAbi},
)
