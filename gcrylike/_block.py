"""Block cipher handles: the raw permutation on whole blocks, for building
modes and constructions (Adiantum uses AES-256 this way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _registry
from ._context import Context
from ._core import ffi
from ._errors import HandleClosed, InvalidKeyLength, InvalidLength, MissingKey, error_for
from ._handle import _BYTES_OUTPUT_OK, _ZERO, _sizes, as_cbuffer
from ._spec import BlockCipherSpec, Implementation


@dataclass(frozen=True)
class BlockInfo:
    """Which block cipher and driver a handle uses."""

    algorithm: str
    driver: str
    block_size: int
    key_sizes: tuple[int, ...]


class BlockCipherHandle:
    """``setkey``, then ``encrypt_blocks``/``decrypt_blocks`` on whole blocks.

    Each block is transformed independently (ECB): this is a primitive for
    constructions, not a way to encrypt data.
    """

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_selftesting")

    def __init__(self, spec: BlockCipherSpec, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        self._spec = spec
        self._impl = impl
        self._auto = auto
        self._ctx: Context | None = Context(spec.context_size)
        self._haskey = False
        self._selftesting = _selftesting

    @property
    def info(self) -> BlockInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return BlockInfo(s.name, self._impl.driver, s.block_size, s.key_sizes)

    def _keyed(self) -> Context:
        if self._ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        if not self._haskey:
            raise MissingKey(f"{self._spec.name}: setkey() first")
        return self._ctx

    def setkey(self, key: Any) -> None:
        """Install a key (runs the self-test on each implementation's first use)."""
        if self._ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        with as_cbuffer(key, "key") as kbuf:
            if len(kbuf) not in self._spec.key_sizes:
                raise InvalidKeyLength(f"{self._spec.name} key must be "
                                       f"{_sizes(self._spec.key_sizes)} bytes, got {len(kbuf)}")
            if not self._selftesting:
                self._impl = _registry.ready_implementation(self._spec, self._impl, self._auto)
            self._haskey = False
            self._spec.setkey(self._ctx.ptr, kbuf, self._impl)
        self._haskey = True

    def encrypt_blocks(self, data: Any, *, out: Any = None) -> bytes | int:
        """Encrypt whole blocks (``len(data)`` a multiple of the block size)."""
        return self._run(self._spec.encrypt_blocks, data, out)

    def decrypt_blocks(self, data: Any, *, out: Any = None) -> bytes | int:
        """Decrypt whole blocks."""
        return self._run(self._spec.decrypt_blocks, data, out)

    def _run(self, hook: Any, data: Any, out: Any) -> bytes | int:
        ctx = self._keyed()
        with as_cbuffer(data, "data") as src:
            n = len(src)
            if n % self._spec.block_size:
                raise InvalidLength(f"{self._spec.name} needs whole {self._spec.block_size}-byte"
                                    f" blocks, got {n} bytes")
            if out is None:
                result = _ZERO * n if (n > 1 and _BYTES_OUTPUT_OK) else bytearray(n)
                with ffi.from_buffer(result) as dst:
                    rc = hook(ctx.ptr, dst, src, n)
                if rc:
                    raise error_for(rc, self._spec.name)
                return result if type(result) is bytes else bytes(result)
            with as_cbuffer(out, "out", writable=True) as dst:
                if len(dst) < n:
                    raise InvalidLength(f"out has {len(dst)} bytes, need {n}")
                rc = hook(ctx.ptr, dst, src, n)
            if rc:
                raise error_for(rc, self._spec.name)
            return n

    def close(self) -> None:
        """Wipe and free the key schedule."""
        if self._ctx is not None:
            self._ctx.free()
            self._ctx = None

    def __enter__(self) -> BlockCipherHandle:
        if self._ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def block_cipher_open(name: str | int, impl: str | None = None) -> BlockCipherHandle:
    """Open the raw block cipher ``name`` (e.g. ``"aes256"``) on the best
    implementation this CPU can run, or on driver ``impl``."""
    spec = _registry.lookup(name, "block")
    return BlockCipherHandle(spec, _registry.choose(spec, impl), impl is None)
