"""Authenticated encryption: streaming AEAD handles (libgcrypt's way) and
one-shot classes (the way Python users know from ``cryptography``)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from . import _fast, _registry
from ._buffers import (
    BYTES_OUTPUT_OK,
    CHAR_ARRAY,
    FRESH_ZERO_MIN,
    ZERO,
    as_cbuffer,
    check_overlap,
    new_output,
    run_into,
    sizes_text,
)
from ._core import ffi
from ._errors import (
    AuthenticationFailed,
    ErrorCode,
    InvalidIVLength,
    InvalidLength,
    InvalidState,
    error_for,
)
from ._keyed import KeyedHandle, data_method
from ._sealing import SealingHandle, fast_open_failed, raise_for
from ._typing import BytesLike

_Failure = _fast.Failure


@dataclass(frozen=True)
class AeadInfo:
    """Which AEAD algorithm and driver a handle uses."""

    algorithm: str
    driver: str
    key_sizes: tuple[int, ...]
    iv_sizes: tuple[int, ...]
    tag_size: int


class AeadHandle(KeyedHandle):
    """A streaming AEAD: ``setkey``, ``setiv``, ``authenticate`` (any number
    of calls, before data), ``encrypt``/``decrypt`` (any split), then
    ``gettag``/``checktag`` — exactly RFC 8439 section 2.8.

    Streaming decryption returns plaintext before the tag is checked, as in
    libgcrypt; use :class:`ChaCha20Poly1305` to release nothing unverified.
    """

    __slots__ = ("_fast_ptr", "_hooks")

    def __init__(self, spec: Any, impl: Any, auto: bool, *, _selftesting: bool = False) -> None:
        super().__init__(spec, impl, auto, _selftesting=_selftesting)
        self._fast_ptr: Any = None
        self._hooks = (spec.encrypt, spec.decrypt)

    @property
    def info(self) -> AeadInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return AeadInfo(s.name, self._impl.driver, s.key_sizes, s.iv_sizes, s.tag_size)

    def _forget_key(self) -> None:
        super()._forget_key()
        self._fast_ptr = None

    def _fast_hooks(self) -> tuple[tuple, int, int, bool]:
        s = self._spec
        return ((s.encrypt, _fast.CRYPT), (s.decrypt, _fast.CRYPT),
                (s.authenticate, _fast.UPDATE), (s.gettag, _fast.READ)), 1, s.tag_size, False

    def _key_installed(self, ctx: Any) -> None:
        self._fc = self._bound(ctx)
        # cffi hooks take bytes as they are; the native code checks the state
        s = self._spec
        if BYTES_OUTPUT_OK and s.tag_size > 1 and all(
                inspect.isbuiltin(h) for h in (s.encrypt, s.decrypt, s.authenticate, s.gettag)):
            self._fast_ptr = ctx.ptr

    def setiv(self, iv: BytesLike) -> None:
        """Start a message with nonce ``iv`` (derives its Poly1305 key)."""
        with self._guard:  # no call runs meanwhile
            ptr = self._fast_ptr
            if ptr is not None and type(iv) is bytes and len(iv) in self._spec.iv_sizes:
                # setiv hooks get a buffer view (their contract), even here
                setiv = self._spec.setiv  # a local: see SealingHandle
                rc = setiv(ptr, ffi.from_buffer(CHAR_ARRAY, iv, False))
                if rc:
                    raise_for(rc, self._spec.name)
                return
            ctx = self._keyed()
            with as_cbuffer(iv, "iv") as ibuf:
                if len(ibuf) not in self._spec.iv_sizes:
                    raise InvalidIVLength(f"{self._spec.name} nonce must be "
                                          f"{sizes_text(self._spec.iv_sizes)} bytes, "
                                          f"got {len(ibuf)}")
                rc = self._spec.setiv(ctx.ptr, ibuf)
            if rc:
                raise_for(rc, self._spec.name)

    def authenticate(self, aad: BytesLike) -> None:
        """Add associated data (only before the first encrypt/decrypt)."""
        fc = self._fc
        if fc is not None:  # the native fast path (gcrylike/_native/fastcall.c)
            try:
                if fc.update(aad) is None:
                    return
            except _Failure as exc:
                self._failed("authenticate", exc.args[0])
        with self._guard:  # the cffi path: one call at a time
            ptr = self._fast_ptr
            if ptr is not None and type(aad) is bytes:
                authenticate = self._spec.authenticate
                rc = authenticate(ptr, aad, len(aad))
                if rc:
                    self._failed("authenticate", rc)
                return
            ctx = self._keyed()
            with as_cbuffer(aad, "aad") as abuf:
                rc = self._spec.authenticate(ctx.ptr, abuf, len(abuf))
            if rc:
                self._failed("authenticate", rc)

    encrypt = data_method(0, "AeadHandle", "encrypt", """Encrypt and authenticate
        ``data``; ``out=`` as for cipher handles.""")
    decrypt = data_method(1, "AeadHandle", "decrypt", """Authenticate and decrypt
        ``data``.  The plaintext is released before the tag is checked (as
        libgcrypt's does): it is not authentic until :meth:`AeadHandle.checktag`
        returns; the one-shot classes release nothing unverified.""")

    def _crypt(self, hook: Any, data: Any, out: Any) -> bytes | int:
        ctx = self._keyed()
        with as_cbuffer(data, "data") as src:
            n = len(src)
            which = 0 if hook is self._hooks[0] else 1
            return run_into(out, n, lambda dst: hook(ctx.ptr, dst, src, n),
                            lambda rc: self._failed(_DATA_CALLS[which], rc), src)

    def _data_error(self, rc: int, which: int) -> Exception:
        return self._error(_DATA_CALLS[which], rc)

    def _failed(self, call: str, rc: int) -> None:
        raise self._error(call, rc)

    def _error(self, call: str, rc: int) -> Exception:
        """The exception for native code ``rc`` from ``call``; an
        out-of-order call says which call had to come first."""
        if rc == ErrorCode.INV_STATE:
            return InvalidState(f"{self._spec.name}: {_order_message(call, self._phase())}")
        if rc == ErrorCode.CHECKSUM:
            return AuthenticationFailed(f"{self._spec.name}: authentication tag mismatch")
        return error_for(rc, self._spec.name)

    def _phase(self) -> str | None:
        """Where the current message is ("need_iv", "aad", "encrypting",
        "decrypting", "done"), found by probing a scratch copy of the
        context with empty calls (error path only: no per-call cost)."""
        scratch = self._live().clone()
        s = self._spec
        try:
            one = ffi.from_buffer(bytearray(max(s.tag_size, 1)))
            p = scratch.ptr
            if s.authenticate(p, one, 0) == 0:
                return "aad"
            if s.encrypt(p, one, one, 0) == 0:
                return "encrypting"
            if s.decrypt(p, one, one, 0) == 0:
                return "decrypting"
            return "done" if s.gettag(p, one, s.tag_size) == 0 else "need_iv"
        except Exception:  # noqa: BLE001 - a plugin hook that refuses probes
            return None
        finally:
            scratch.free()

    def gettag(self) -> bytes:
        """The tag (ends the message; calling again returns the same tag)."""
        fc = self._fc
        if fc is not None:
            try:
                tag = fc.read()
            except _Failure as exc:
                self._failed("gettag", exc.args[0])
            if tag is not NotImplemented:
                return tag
        with self._guard:
            ptr = self._fast_ptr
            if ptr is not None:
                n = self._spec.tag_size
                tag = ZERO * n
                gettag = self._spec.gettag
                rc = gettag(ptr, tag, n)
                if rc:
                    self._failed("gettag", rc)
                return tag
            ctx = self._keyed()
            out = bytearray(self._spec.tag_size)
            with ffi.from_buffer(out) as buf:
                rc = self._spec.gettag(ctx.ptr, buf, len(out))
            if rc:
                self._failed("gettag", rc)
            return bytes(out)

    def checktag(self, tag: BytesLike) -> None:
        """Raise :class:`AuthenticationFailed` unless ``tag`` is right
        (constant-time comparison; a truncated tag never verifies)."""
        ctx = self._keyed()
        with self._guard:
            with as_cbuffer(tag, "tag") as tbuf:
                rc = self._spec.checktag(ctx.ptr, tbuf, len(tbuf))
            if rc:
                self._failed("checktag", rc)

    def reset(self) -> None:
        """Back to the state right after setkey (a nonce is needed again)."""
        with self._guard:
            self._keyed().restore()


_DATA_CALLS = ("encrypt", "decrypt")


def _order_message(call: str, phase: str | None) -> str:
    """What should have come before ``call`` in a message now at ``phase``."""
    if phase == "need_iv":
        return f"setiv() must come before {call}()"
    if phase == "done":
        return (f"{call}() must come before gettag()/checktag(), which ended the message; "
                "setiv() starts the next one")
    if phase in ("encrypting", "decrypting"):
        doing = phase[:-3] + "()"
        if call == "authenticate":
            return f"authenticate() must come before the first {doing} of a message"
        return (f"{call}() after {doing} in the same message: a message is encrypted or "
                "decrypted, not both; setiv() starts a new one")
    return f"{call}() is not allowed here (setkey, setiv, authenticate, data, then the tag)"


class _OneShotAead(SealingHandle):
    """Shared body of the one-shot AEAD classes."""

    __slots__ = ("_tag",)
    _KIND = "aead"
    _SHAPE = _fast.AEAD

    def __init__(self, key: BytesLike, *, impl: str | None = None) -> None:
        super().__init__(key, impl=impl)
        self._tag: int = self._spec.tag_size

    def encrypt(self, nonce: BytesLike, data: BytesLike,
                associated_data: BytesLike | None = None) -> bytes:
        """Ciphertext || 16-byte tag of ``data`` and ``associated_data``."""
        fc = self._fc
        if fc is not None:  # the native fast path (gcrylike/_native/fastcall.c)
            try:
                result = fc.seal(nonce, data, associated_data)
            except _Failure:
                result = NotImplemented  # a refusal: the general path explains it
            if result is not NotImplemented:
                return result
        with self._guard:  # the cffi path (waits: calls are independent)
            ptr = self._fast
            aad = b"" if associated_data is None else associated_data
            if ptr is not None and type(nonce) is bytes and type(data) is bytes \
                    and type(aad) is bytes and len(data) + self._tag >= FRESH_ZERO_MIN:
                n = len(data)
                out = ZERO * (n + self._tag)
                seal = self._seal  # a local: see SealingHandle
                rc = seal(ptr, nonce, len(nonce), aad, len(aad), data, n, out)
                if rc:
                    self._failed(rc, nonce)
                return out
            ctx = self._keyed()
            with as_cbuffer(nonce, "nonce") as nbuf, as_cbuffer(data, "data") as src, \
                    as_cbuffer(aad, "associated_data") as abuf:
                n = len(src)
                out = new_output(n + self._tag)
                with ffi.from_buffer(out) as dst:
                    rc = self._spec.seal(ctx.ptr, nbuf, len(nbuf), abuf, len(abuf), src, n, dst)
                if rc:
                    self._failed(rc, nbuf)
            return out if type(out) is bytes else bytes(out)

    def decrypt(self, nonce: BytesLike, data: BytesLike,
                associated_data: BytesLike | None = None) -> bytes:
        """Verify, then decrypt ``data`` (ciphertext || tag).  A wrong tag
        raises :class:`AuthenticationFailed` and releases no plaintext."""
        fc = self._fc
        if fc is not None:
            try:
                result = fc.open(nonce, data, associated_data)
            except _Failure as exc:
                result = fast_open_failed(exc.args[0], self._spec.name)
            if result is not NotImplemented:
                return result
        with self._guard:
            ptr = self._fast
            aad = b"" if associated_data is None else associated_data
            tag_size = self._tag
            if ptr is not None and type(nonce) is bytes and type(data) is bytes \
                    and type(aad) is bytes and len(data) >= tag_size + 2:
                n = len(data)
                out = ZERO * (n - tag_size)
                open_ = self._open
                rc = open_(ptr, nonce, len(nonce), aad, len(aad), data, n, out)
                if rc:
                    self._failed(rc, nonce)  # the C side did not write ``out``
                return out
            ctx = self._keyed()
            with as_cbuffer(nonce, "nonce") as nbuf, as_cbuffer(data, "data") as src, \
                    as_cbuffer(aad, "associated_data") as abuf:
                n = len(src)
                if len(nbuf) not in self._spec.iv_sizes:
                    self._failed(ErrorCode.INV_IV, nbuf)
                if n < tag_size:
                    raise AuthenticationFailed(f"{self._spec.name}: input shorter than the tag")
                out = new_output(n - tag_size)
                with ffi.from_buffer(out) as dst:
                    rc = self._spec.open(ctx.ptr, nbuf, len(nbuf), abuf, len(abuf), src, n, dst)
                if rc:
                    self._failed(rc, nbuf)
            return out if type(out) is bytes else bytes(out)


    def encrypt_into(self, nonce: BytesLike, data: BytesLike,
                     associated_data: BytesLike | None, buf: BytesLike) -> int:
        """As :meth:`encrypt`, into the writable buffer ``buf`` of exactly
        ``len(data) + 16`` bytes (cryptography's ``encrypt_into``); returns
        the bytes written."""
        return self._into(self._spec.seal, nonce, data, associated_data, buf, self._tag)

    def decrypt_into(self, nonce: BytesLike, data: BytesLike,
                     associated_data: BytesLike | None, buf: BytesLike) -> int:
        """As :meth:`decrypt`, into the writable buffer ``buf`` of exactly
        ``len(data) - 16`` bytes (cryptography's ``decrypt_into``); returns
        the bytes written.  The tag is verified before any plaintext is
        written: a wrong tag raises :class:`AuthenticationFailed` and leaves
        ``buf`` as it was.  ``buf`` may be the ciphertext's own memory (in
        place) or overlap the received tag alone; any other overlap is
        refused."""
        return self._into(self._spec.open, nonce, data, associated_data, buf, -self._tag)

    def _into(self, hook: Any, nonce: Any, data: Any, associated_data: Any, buf: Any,
              grow: int) -> int:
        """The ``*_into`` calls: ``hook`` (seal or open) from ``data`` into
        ``buf``, which must be ``grow`` bytes longer than ``data``."""
        ctx = self._keyed()
        aad = b"" if associated_data is None else associated_data
        with as_cbuffer(nonce, "nonce") as nbuf, as_cbuffer(data, "data") as src, \
                as_cbuffer(aad, "associated_data") as abuf, \
                as_cbuffer(buf, "buf", writable=True) as dst:
            n = len(src)
            if len(nbuf) not in self._spec.iv_sizes:
                self._failed(ErrorCode.INV_IV, nbuf)
            if n + grow < 0:
                raise AuthenticationFailed(f"{self._spec.name}: input shorter than the tag")
            if len(dst) != n + grow:
                raise InvalidLength(f"buf must be {n + grow} bytes, got {len(dst)}")
            check_overlap(dst, src, min(n, n + grow))
            rc = hook(ctx.ptr, nbuf, len(nbuf), abuf, len(abuf), src, n, dst)
            if rc:
                self._failed(rc, nbuf)
        return n + grow


class ChaCha20Poly1305(_OneShotAead):
    """ChaCha20-Poly1305 (RFC 8439): 32-byte key, 12-byte nonce, 16-byte tag.

    >>> key, nonce = ChaCha20Poly1305.generate_key(), os.urandom(12)
    >>> box = ChaCha20Poly1305(key)
    >>> ct = box.encrypt(nonce, b"data", b"header")
    >>> box.decrypt(nonce, ct, b"header")
    b'data'
    """

    __slots__ = ()
    _ALGORITHM = "CHACHA20-POLY1305"

    KEY_SIZE = 32
    NONCE_SIZE = 12
    TAG_SIZE = 16


class XChaCha20Poly1305(_OneShotAead):
    """XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): 32-byte key, 24-byte
    nonce (random nonces are safe), 16-byte tag."""

    __slots__ = ()
    _ALGORITHM = "XCHACHA20-POLY1305"

    KEY_SIZE = 32
    NONCE_SIZE = 24
    TAG_SIZE = 16


def aead_open(cipher: str | int, mode: str, impl: str | None = None) -> AeadHandle:
    spec = _registry.lookup_mode(cipher, mode)
    return AeadHandle(spec, _registry.choose(spec, impl), impl is None)


