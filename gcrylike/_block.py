"""Block cipher handles: the raw permutation on whole blocks, for building
modes and constructions (Adiantum uses AES-256 this way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, overload

from . import _registry
from ._buffers import as_cbuffer, run_into
from ._errors import InvalidLength, check
from ._keyed import KeyedHandle
from ._typing import BytesLike


@dataclass(frozen=True)
class BlockInfo:
    """Which block cipher and driver a handle uses."""

    algorithm: str
    driver: str
    block_size: int
    key_sizes: tuple[int, ...]


class BlockCipherHandle(KeyedHandle):
    """``setkey``, then ``encrypt_blocks``/``decrypt_blocks`` on whole blocks.

    Each block is transformed independently (ECB): this is a primitive for
    constructions, not a way to encrypt data.
    """

    __slots__ = ()

    @property
    def info(self) -> BlockInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return BlockInfo(s.name, self._impl.driver, s.block_size, s.key_sizes)

    @overload
    def encrypt_blocks(self, data: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def encrypt_blocks(self, data: BytesLike, *, out: BytesLike) -> int: ...

    def encrypt_blocks(self, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        """Encrypt whole blocks (``len(data)`` a multiple of the block size)."""
        return self._run(self._spec.encrypt_blocks, data, out)

    @overload
    def decrypt_blocks(self, data: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def decrypt_blocks(self, data: BytesLike, *, out: BytesLike) -> int: ...

    def decrypt_blocks(self, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        """Decrypt whole blocks."""
        return self._run(self._spec.decrypt_blocks, data, out)

    def _run(self, hook: Any, data: Any, out: Any) -> bytes | int:
        ctx = self._keyed()
        with as_cbuffer(data, "data") as src:
            n = len(src)
            if n % self._spec.block_size:
                raise InvalidLength(f"{self._spec.name} needs whole {self._spec.block_size}-byte"
                                    f" blocks, got {n} bytes")
            return run_into(out, n, lambda dst: hook(ctx.ptr, dst, src, n),
                            lambda rc: check(rc, self._spec.name), src)


def block_cipher_open(name: str | int, *, impl: str | None = None) -> BlockCipherHandle:
    """Open the raw block cipher ``name`` (e.g. ``"aes256"``) on the best
    implementation this CPU can run, or on driver ``impl``."""
    spec = _registry.lookup(name, "block")
    return BlockCipherHandle(spec, _registry.choose(spec, impl), impl is None)
