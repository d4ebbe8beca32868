"""Cipher handles: what :func:`gcrylike.cipher_open` returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from . import _registry
from ._buffers import as_cbuffer, sizes_text
from ._context import Context
from ._errors import (
    InvalidArgument,
    InvalidIVLength,
    InvalidState,
    InvalidType,
    NotSupported,
)
from ._keyed import KeyedHandle, data_method
from ._spec import CipherSpec, Implementation
from ._typing import AeadMode, AeadName, BytesLike, StreamMode, StreamName

if TYPE_CHECKING:
    from ._aead import AeadHandle


@dataclass(frozen=True)
class HandleInfo:
    """Which algorithm and driver a handle uses."""

    algorithm: str
    driver: str
    block_size: int
    key_sizes: tuple[int, ...]
    iv_sizes: tuple[int, ...]


class CipherHandle(KeyedHandle):
    """An open cipher: ``setkey``, ``setiv``, then ``encrypt``/``decrypt``.

    The state lives in C memory that :meth:`close` wipes; use the handle as a
    context manager to close it on every path.
    """

    __slots__ = ("_hasiv",)

    def __init__(self, spec: CipherSpec, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        super().__init__(spec, impl, auto, _selftesting=_selftesting)
        self._hasiv = False

    def _hooks(self) -> tuple[Any, ...]:
        s = self._spec
        return ("stream", {"encrypt": s.encrypt_stream, "decrypt": s.decrypt_stream,
                           "locate": s.locate, "seek": s.seek}, 1, 0, False, s.counter_block)

    def _data_hook(self, which: int) -> Any:
        return self._spec.decrypt_stream if which else self._spec.encrypt_stream

    def _update_ready(self) -> None:
        self._binding.ready = False
        if self._haskey and (self._hasiv or not self._spec.needs_iv):
            self._native_ready()

    def _forget_key(self) -> None:
        super()._forget_key()
        self._hasiv = False

    def _key_installed(self, ctx: Context) -> None:
        self._update_ready()

    @property
    def info(self) -> HandleInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return HandleInfo(s.name, self._impl.driver, s.block_size, s.key_sizes, s.iv_sizes)

    # -- nonce, position ------------------------------------------------------
    def setiv(self, iv: BytesLike) -> None:
        """Install a nonce and rewind to the start of its keystream."""
        self._keyed()  # state errors first; checked again while held
        if self._spec.setiv is None:
            raise NotSupported(f"{self._spec.name} takes no IV")
        with as_cbuffer(iv, "iv") as ibuf:
            with self._binding.exclusive():  # no call runs meanwhile
                ctx = self._keyed()
                if self._spec.setiv is None:
                    raise NotSupported(f"{self._spec.name} takes no IV")
                if len(ibuf) not in self._spec.iv_sizes:
                    raise InvalidIVLength(f"{self._spec.name} IV must be "
                                          f"{sizes_text(self._spec.iv_sizes)} bytes, "
                                          f"got {len(ibuf)}")
                self._hasiv = False
                self._binding.ready = False
                self._spec.setiv(ctx.ptr, ibuf)
                self._hasiv = True
                self._update_ready()

    def setctr(self, block: int) -> None:
        """Seek: the next byte processed is the first of keystream block ``block``."""
        self._ready()
        if self._spec.setctr is None:
            raise NotSupported(f"{self._spec.name} cannot seek")
        if isinstance(block, bool) or not isinstance(block, int):
            raise InvalidType(f"block must be an int, not {type(block).__name__}")
        if block < 0:
            raise InvalidArgument("block must be >= 0")
        with self._binding.exclusive():
            ctx = self._ready()
            if self._spec.setctr is None:
                raise NotSupported(f"{self._spec.name} cannot seek")
            self._spec.setctr(ctx.ptr, block)

    def reset(self) -> None:
        """Back to the state right after setkey (the IV must be set again)."""
        with self._binding.exclusive():
            ctx = self._keyed()
            ctx.restore()
            self._hasiv = False
            self._update_ready()

    # -- data ---------------------------------------------------------------
    def _ready(self) -> Context:
        ctx = self._keyed()
        if self._spec.needs_iv and not self._hasiv:
            self._live()  # closed meanwhile (close forgets the IV): that is the error
            raise InvalidState(f"{self._spec.name}: setiv() first")
        return ctx

    encrypt = data_method(0, """Encrypt ``data``.  Returns bytes, or with
        ``out=`` (a writable buffer at least as long, possibly ``data`` itself)
        writes there and returns the number of bytes written.""")
    decrypt = data_method(1, """Decrypt ``data``; same conventions as
        :meth:`encrypt`.""")


@overload
def cipher_open(algo: AeadName, mode: None = None, *,
                impl: str | None = None) -> AeadHandle: ...
@overload
def cipher_open(algo: str | int, mode: AeadMode, *, impl: str | None = None) -> AeadHandle: ...
@overload
def cipher_open(algo: StreamName, mode: StreamMode | None = None, *,
                impl: str | None = None) -> CipherHandle: ...
@overload
def cipher_open(algo: str | int, mode: StreamMode, *, impl: str | None = None) -> CipherHandle: ...
@overload
def cipher_open(algo: str | int, mode: str | None = None, *,
                impl: str | None = None) -> CipherHandle | AeadHandle: ...


def cipher_open(algo: str | int, mode: str | None = None, *,
                impl: str | None = None) -> CipherHandle | AeadHandle:
    """Open a handle on algorithm ``algo`` (name, alias or id, any case) in
    ``mode``, in the order of libgcrypt's ``gcry_cipher_open(algo, mode)``.

    A stream cipher opens as a :class:`CipherHandle` (``mode`` None or
    ``"stream"``); ``mode="poly1305"`` opens the AEAD (an
    :class:`AeadHandle`) of ChaCha20 or XChaCha20, as libgcrypt's
    ``GCRY_CIPHER_MODE_POLY1305``, and so does the AEAD's own name
    (``cipher_open("chacha20-poly1305")``).  Keyword ``impl`` forces a
    driver (``impl="salsa20-generic"``); by default the best implementation
    this CPU can run, after the hardware-feature deny list.

    (For static typing: a literal built-in name or mode gives the exact
    handle class; any other name gives ``CipherHandle | AeadHandle``.)
    """
    if mode is not None and not isinstance(mode, str):
        raise InvalidType(f"mode must be a string, not {type(mode).__name__}")
    if mode is not None and mode.lower() != "stream":
        from ._aead import aead_open

        return aead_open(algo, mode, impl)
    spec = _registry.lookup(algo)
    if spec.kind == "aead" and mode is None:
        from ._aead import AeadHandle

        return AeadHandle(spec, _registry.choose(spec, impl), impl is None)
    spec = _registry.lookup(algo, "cipher")
    return CipherHandle(spec, _registry.choose(spec, impl), auto=impl is None)
