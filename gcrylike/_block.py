"""Block cipher handles: the raw permutation on whole blocks, for building
modes and constructions (Adiantum uses AES-256 this way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, overload

from . import _fast, _registry
from ._errors import InvalidLength, error_for
from ._keyed import KeyedHandle
from ._typing import BytesLike

_Failure = _fast.Failure


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

    @overload
    def encrypt_blocks(self, data: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def encrypt_blocks(self, data: BytesLike, *, out: BytesLike) -> int: ...

    def encrypt_blocks(self, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        """Encrypt whole blocks (``len(data)`` a multiple of the block size)."""
        fc = self._fc
        if fc is not None:  # the native fast path (gcrylike/_native/fastcall.c)
            try:
                result = fc.encrypt(data, out)
            except _Failure as exc:
                raise error_for(exc.args[0], self._spec.name) from None
            if result is not NotImplemented:
                return result
        return self._crypt(0, data, out)

    @overload
    def decrypt_blocks(self, data: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def decrypt_blocks(self, data: BytesLike, *, out: BytesLike) -> int: ...

    def decrypt_blocks(self, data: BytesLike, *, out: BytesLike | None = None) -> bytes | int:
        """Decrypt whole blocks."""
        fc = self._fc
        if fc is not None:
            try:
                result = fc.decrypt(data, out)
            except _Failure as exc:
                raise error_for(exc.args[0], self._spec.name) from None
            if result is not NotImplemented:
                return result
        return self._crypt(1, data, out)


def block_cipher_open(name: str | int, *, impl: str | None = None) -> BlockCipherHandle:
    """Open the raw block cipher ``name`` (e.g. ``"aes256"``) on the best
    implementation this CPU can run, or on driver ``impl``."""
    spec = _registry.lookup(name, "block")
    return BlockCipherHandle(spec, _registry.choose(spec, impl), impl is None)
