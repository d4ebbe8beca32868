"""Build glue: cffi extensions with hand-written ``.S`` files.

Project metadata lives in pyproject.toml; this file only wires up what
setuptools cannot express declaratively: the cffi modules, ``.S`` support in
build_ext, and keeping the cffi build scripts out of the wheel.
"""

import glob
import os
import platform
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_tools"))

import gcrylike_build  # noqa: E402

#: The cipher modules: every folder of ciphers/ with a cffi build script
#: (a new built-in cipher is its folder, nothing to add here).
CIPHER_MODULES = sorted(os.path.basename(os.path.dirname(p))
                        for p in glob.glob(os.path.join("ciphers", "*", "_build_ffi.py")))

CFFI_MODULES = ["gcrylike/_native/core_build.py:ffibuilder",
                *(f"ciphers/{m}/_build_ffi.py:ffibuilder" for m in CIPHER_MODULES)]

#: gcrylike's packages: its own folders, the cipher modules (installed as
#: gcrylike.ciphers.*) and the known answers (gcrylike.selftests).
PACKAGES = [*find_packages(include=["gcrylike", "gcrylike.*"]),
            "gcrylike.ciphers", *(f"gcrylike.ciphers.{m}" for m in CIPHER_MODULES),
            "gcrylike.selftests"]


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


#: gcrylike.build's: the floor, the stable-ABI test and the abi3-tagging
#: bdist_wheel are the ones plugins get (loaded from the source tree).
stable_abi = gcrylike_build._helper.stable_abi
LIMITED_API_MACRO = ("Py_LIMITED_API", "0x030B0000")  # the floor, cp311, as a C macro


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


gcrylike_build.asm_arch()  # decide (and print) once, before any extension
FASTCALL = fastcall_extensions()
WITH_FASTCALL = bool(FASTCALL)  # (cffi appends its modules to the list given)

setup(
    packages=PACKAGES,
    ext_modules=FASTCALL,
    cffi_modules=CFFI_MODULES,
    # gcrylike.build's build_ext (assembles .S), the one plugins use too
    cmdclass={"build_ext": gcrylike_build.build_ext(), "build_py": BuildPyWithoutBuildScripts,
              "bdist_wheel": gcrylike_build._helper.bdist_wheel},
)
