"""Only what pyproject.toml cannot say: the cffi module, built with
gcrylike's build_ext (which assembles .S files), and gcrylike's bdist_wheel
(which tags the wheel cp311-abi3, one wheel for every CPython from 3.11)."""

from setuptools import setup

from gcrylike.build import cmdclass

setup(
    cffi_modules=["build_ffi.py:ffibuilder"],
    cmdclass=cmdclass(),
)
