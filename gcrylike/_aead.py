"""Authenticated encryption: streaming AEAD handles (libgcrypt's way) and
one-shot classes (the way Python users know from ``cryptography``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from . import _registry
from ._buffers import (
    as_cbuffer,
    sizes_text,
)
from ._core import ffi
from ._errors import (
    AuthenticationFailed,
    ErrorCode,
    GcryError,
    InvalidIVLength,
    InvalidState,
    error_for,
)
from ._keyed import (
    KeyedHandle,
    ReadMethod,
    SealMethod,
    UpdateMethod,
    data_method,
    native_method,
)
from ._sealing import SealingHandle, raise_for
from ._typing import BytesLike


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

    __slots__ = ()

    def _hooks(self) -> tuple[Any, ...]:
        s = self._spec
        return ("aead", {"encrypt": s.encrypt, "decrypt": s.decrypt,
                         "authenticate": s.authenticate, "gettag": s.gettag},
                1, s.tag_size, False)

    def _data_hook(self, which: int) -> Any:
        return self._spec.decrypt if which else self._spec.encrypt

    @property
    def info(self) -> AeadInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return AeadInfo(s.name, self._impl.driver, s.key_sizes, s.iv_sizes, s.tag_size)

    def setiv(self, iv: BytesLike) -> None:
        """Start a message with nonce ``iv`` (derives its Poly1305 key)."""
        self._keyed()  # state errors first; checked again while held
        with as_cbuffer(iv, "iv") as ibuf:
            with self._binding.exclusive():  # no call runs meanwhile
                ctx = self._keyed()
                if len(ibuf) not in self._spec.iv_sizes:
                    raise InvalidIVLength(f"{self._spec.name} nonce must be "
                                          f"{sizes_text(self._spec.iv_sizes)} bytes, "
                                          f"got {len(ibuf)}")
                rc = self._spec.setiv(ctx.ptr, ibuf)
        if rc:
            raise_for(rc, self._spec.name)

    authenticate: UpdateMethod = native_method("update", "($self, aad)",
        """Add associated data (only before the first encrypt/decrypt).""")

    def _general_update(self, aad: BytesLike) -> None:
        rc = self._pass_in(self._spec.authenticate, aad, "aad")
        if rc:
            self._failed("authenticate", rc)

    encrypt = data_method(0, """Encrypt and authenticate
        ``data``; ``out=`` as for cipher handles.""")
    decrypt = data_method(1, """Authenticate and decrypt
        ``data``.  The plaintext is released before the tag is checked (as
        libgcrypt's does): it is not authentic until :meth:`AeadHandle.checktag`
        returns; the one-shot classes release nothing unverified.""")

    def _native_error(self, op: str, rc: int) -> Any:
        return self._error(_CALLS[op], rc)

    def _failed(self, call: str, rc: int) -> NoReturn:
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
        try:
            with self._binding.exclusive():
                scratch = self._live().clone()
        except GcryError:  # closed or busy meanwhile: no phase to tell
            return None
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

    gettag: ReadMethod = native_method("read", "($self)",
                           """The tag (ends the message; calling again returns the same tag).""")

    def _general_read(self) -> bytes:
        rc, tag = self._take_out(self._spec.gettag, self._spec.tag_size)
        if rc:
            self._failed("gettag", rc)
        return tag

    def checktag(self, tag: BytesLike) -> None:
        """Raise :class:`AuthenticationFailed` unless ``tag`` is right
        (constant-time comparison; a truncated tag never verifies)."""
        rc = self._pass_in(self._spec.checktag, tag, "tag")
        if rc:
            self._failed("checktag", rc)

    def reset(self) -> None:
        """Back to the state right after setkey (a nonce is needed again)."""
        with self._binding.exclusive():
            self._keyed().restore()


#: The public call behind each Binding operation, for the errors' words.
_CALLS = {"encrypt": "encrypt", "decrypt": "decrypt", "update": "authenticate",
          "read": "gettag"}


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

    __slots__ = ()
    _KIND = "aead"
    _HOOK_KIND = "seal"
    _FORGERY = "cryptography"  # cryptography's class names: forgeries are InvalidTag too

    encrypt: SealMethod = native_method("seal", "($self, nonce, data, associated_data=None)",
                            """Ciphertext || 16-byte tag of ``data`` and ``associated_data``.""")
    decrypt: SealMethod = native_method("open", "($self, nonce, data, associated_data=None)",
                            """Verify, then decrypt ``data`` (ciphertext || tag).  A wrong
        tag raises :class:`AuthenticationFailed` and releases no plaintext.""")

    def _general_seal(self, nonce: BytesLike, data: BytesLike,
                      associated_data: BytesLike | None = None) -> bytes:
        return self._seal_into(nonce, data, associated_data, None)  # type: ignore[no-any-return]

    def _general_open(self, nonce: BytesLike, data: BytesLike,
                      associated_data: BytesLike | None = None) -> bytes:
        return self._open_into(nonce, data, associated_data, None)  # type: ignore[no-any-return]

    def encrypt_into(self, nonce: BytesLike, data: BytesLike,
                     associated_data: BytesLike | None, buf: BytesLike) -> int:
        """As :meth:`encrypt`, into the writable buffer ``buf`` of exactly
        ``len(data) + 16`` bytes (cryptography's ``encrypt_into``); returns
        the bytes written."""
        return self._seal_into(nonce, data, associated_data, buf)

    def decrypt_into(self, nonce: BytesLike, data: BytesLike,
                     associated_data: BytesLike | None, buf: BytesLike) -> int:
        """As :meth:`decrypt`, into the writable buffer ``buf`` of exactly
        ``len(data) - 16`` bytes (cryptography's ``decrypt_into``); returns
        the bytes written.  The tag is verified before any plaintext is
        written: a wrong tag raises :class:`AuthenticationFailed` and leaves
        ``buf`` as it was.  ``buf`` may be the ciphertext's own memory (in
        place) or overlap the received tag alone; any other overlap is
        refused."""
        return self._open_into(nonce, data, associated_data, buf)

    def _seal_into(self, nonce: Any, data: Any, associated_data: Any, buf: Any) -> Any:
        return self._oneshot(0, nonce, data, b"" if associated_data is None
                             else associated_data, buf)

    def _open_into(self, nonce: Any, data: Any, associated_data: Any, buf: Any) -> Any:
        return self._oneshot(1, nonce, data, b"" if associated_data is None
                             else associated_data, buf)


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


