"""Only what pyproject.toml cannot say: the cffi module and ``.S`` support."""

from setuptools import setup
from setuptools.command.build_ext import build_ext


class BuildExtWithAsm(build_ext):
    """Let the C compiler driver preprocess and assemble ``.S`` sources."""

    def build_extensions(self):
        self.compiler.src_extensions = [*self.compiler.src_extensions, ".S"]
        super().build_extensions()


setup(
    cffi_modules=["build_ffi.py:ffibuilder"],
    cmdclass={"build_ext": BuildExtWithAsm},
)
