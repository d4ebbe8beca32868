"""Only what pyproject.toml cannot say: the cffi module, built with
gcrylike's build_ext (which assembles .S files)."""

from setuptools import setup

from gcrylike.build import build_ext

setup(
    cffi_modules=["build_ffi.py:ffibuilder"],
    cmdclass={"build_ext": build_ext},
)
