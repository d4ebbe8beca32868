"""Block cipher handles: the raw permutation on whole blocks, for building
modes and constructions (Adiantum uses AES-256 this way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _registry
from ._errors import InvalidLength
from ._keyed import KeyedHandle, data_method


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

    def _hooks(self) -> tuple[Any, ...]:
        s = self._spec
        return ("block", {"encrypt": s.encrypt_blocks, "decrypt": s.decrypt_blocks},
                s.block_size, 0, False)

    def _data_hook(self, which: int) -> Any:
        return self._spec.decrypt_blocks if which else self._spec.encrypt_blocks

    def _check_length(self, n: int) -> None:
        if n % self._spec.block_size:
            raise InvalidLength(f"{self._spec.name} needs whole "
                                f"{self._spec.block_size}-byte blocks, got {n} bytes")

    encrypt_blocks = data_method(0, """Encrypt whole
        blocks (``len(data)`` a multiple of the block size).  Returns bytes,
        or with ``out=`` writes there and returns the number of bytes
        written.""")
    decrypt_blocks = data_method(1, """Decrypt whole
        blocks; same conventions as :meth:`encrypt_blocks`.""")


def block_cipher_open(name: str | int, *, impl: str | None = None) -> BlockCipherHandle:
    """Open the raw block cipher ``name`` (e.g. ``"aes256"``) on the best
    implementation this CPU can run, or on driver ``impl``."""
    spec = _registry.lookup(name, "block")
    return BlockCipherHandle(spec, _registry.choose(spec, impl), impl is None)
