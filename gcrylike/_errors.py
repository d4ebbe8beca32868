"""The gcrylike exception family.

Every error carries a libgcrypt-style code (libgpg-error numbering where one
exists) and is also the Python exception a caller would naturally catch:
a wrong key length is a ``ValueError``, a wrong type a ``TypeError``.
The one exception is :class:`AuthenticationFailed`: a forgery is not a bad
argument, so ``except ValueError`` around input checks never swallows one
(as cryptography's ``InvalidTag`` and PyNaCl's ``CryptoError``).
"""

from __future__ import annotations

import enum
import importlib
from typing import Any


class ErrorCode(enum.IntEnum):
    """libgpg-error codes (``GPG_ERR_*``); INV_IV is ours (GPG_ERR_USER_1)."""

    CHECKSUM = 10
    CIPHER_ALGO = 12
    INV_KEYLEN = 44
    INV_ARG = 45
    SELFTEST_FAILED = 50
    NOT_SUPPORTED = 60
    TOO_LARGE = 67
    CONFLICT = 70
    INV_CIPHER_MODE = 71
    INV_HANDLE = 73
    INV_NAME = 88
    INV_LENGTH = 139
    INV_STATE = 156
    MISSING_KEY = 181
    INV_IV = 1024


class GcryError(Exception):
    """Base class of every gcrylike error; ``code`` is an :class:`ErrorCode`."""

    code: ErrorCode = ErrorCode.INV_ARG

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{super().__str__()} [{self.code.name}]"


class InvalidArgument(GcryError, ValueError):
    """A bad value: overlapping buffers, a negative block, a wrong round count."""

    code = ErrorCode.INV_ARG


class InvalidType(GcryError, TypeError):
    """An argument of the wrong type (``str`` where bytes are needed, ...)."""

    code = ErrorCode.INV_ARG


class NotContiguous(InvalidType):
    """A buffer that is not C-contiguous (a strided ``memoryview`` or array
    slice): not bytes-like in Python's sense; copy it with ``bytes(...)``."""


class ReadOnlyBuffer(InvalidType):
    """``out=`` (or an in-place buffer) that cannot be written: ``bytes``, a
    ``memoryview`` of bytes, a read-only array."""


class NotPicklable(GcryError, TypeError):
    """Handles hold keys in C memory and are never pickled; ``copy.copy``
    clones one within the process."""

    code = ErrorCode.NOT_SUPPORTED


class InvalidKeyLength(GcryError, ValueError):
    """The key length is not one the algorithm accepts."""

    code = ErrorCode.INV_KEYLEN


class InvalidIVLength(GcryError, ValueError):
    """The IV, nonce or tweak length is not one the algorithm accepts
    (an Adiantum tweak is at most 32 bytes)."""

    code = ErrorCode.INV_IV


class InvalidLength(GcryError, ValueError):
    """A length the operation cannot take: ``out=`` too short, not whole
    blocks or sectors, an Adiantum message under 16 bytes."""

    code = ErrorCode.INV_LENGTH


class MissingKey(GcryError, ValueError):
    """The handle has no key yet (libgcrypt: GPG_ERR_MISSING_KEY)."""

    code = ErrorCode.MISSING_KEY


class InvalidState(GcryError, ValueError):
    """The operation is not allowed in the handle's current state."""

    code = ErrorCode.INV_STATE


class HandleClosed(GcryError, ValueError):
    """The handle was closed (its context is wiped and freed)."""

    code = ErrorCode.INV_HANDLE


class CounterExhausted(GcryError, OverflowError):
    """The request runs past the end of the keystream; nothing was written."""

    code = ErrorCode.TOO_LARGE


class UnknownAlgorithm(GcryError, LookupError):
    """No registered algorithm has that name, alias or id, or it is of
    another kind than the opener serves (a MAC given to ``cipher_open``)."""

    code = ErrorCode.CIPHER_ALGO


class UnknownName(GcryError, LookupError):
    """An unknown driver or hardware-feature name."""

    code = ErrorCode.INV_NAME


class NameConflict(GcryError, ValueError):
    """A registration reuses a name, alias, id or driver name."""

    code = ErrorCode.CONFLICT


class NotSupported(GcryError, RuntimeError):
    """The implementation cannot run here (not built, or the CPU lacks or
    the deny list removed its features), or a cipher has no such mode
    (code INV_CIPHER_MODE)."""

    code = ErrorCode.NOT_SUPPORTED


class HandleBusy(GcryError, RuntimeError):
    """Another thread is inside a call on the same handle.  A handle serves
    one call at a time: the second call is refused rather than interleaved
    with the first in the native state (give each thread its own handle, or
    ``copy.copy()`` one).  One-shot classes (``ChaCha20Poly1305``,
    ``SecretBox``) and Adiantum's data calls only read their keyed context
    and may be shared; closing or re-keying any handle during a call is
    refused the same way."""

    code = ErrorCode.INV_STATE


class SelftestFailed(GcryError, RuntimeError):
    """A known-answer self-test failed; the implementation is never used."""

    code = ErrorCode.SELFTEST_FAILED


class AuthenticationFailed(GcryError):
    """A tag did not verify.  One-shot decryption (``ChaCha20Poly1305``,
    ``SecretBox``) then releases no plaintext; a streaming ``AeadHandle`` has
    already returned what it decrypted, as in libgcrypt.

    Deliberately not a ``ValueError`` (nor any other builtin error): like
    cryptography's ``InvalidTag`` and PyNaCl's ``CryptoError`` it is caught
    only by name (or as :class:`GcryError`), never by an ``except
    ValueError`` meant for bad arguments.  The classes that borrow those
    libraries' names (``ChaCha20Poly1305``, ``XChaCha20Poly1305``,
    ``SecretBox``, ``Aead``) raise a subclass that is also ``InvalidTag`` or
    ``CryptoError`` when that library is installed."""

    code = ErrorCode.CHECKSUM


#: The forgery exceptions of the libraries whose class names gcrylike
#: borrows (see :func:`forgery`): a key -> (module, class).  Both are plain
#: ``Exception`` subclasses (checked again when borrowed: a ``ValueError``
#: would never be borrowed).
BORROWED_FORGERIES: dict[str, tuple[str, str]] = {
    "cryptography": ("cryptography.exceptions", "InvalidTag"),
    "nacl": ("nacl.exceptions", "CryptoError"),
}
_forgery_classes: dict[str, type[AuthenticationFailed]] = {}


def forgery_class(borrowed: str | None) -> type[AuthenticationFailed]:
    """The class of a forgery raised by a class that borrows library
    ``borrowed``'s name (a key of :data:`BORROWED_FORGERIES`, or None):
    an :class:`AuthenticationFailed` that is also that library's forgery
    exception, so that its users' ``except InvalidTag`` / ``except
    CryptoError`` keeps working.  The library is imported here, on the first
    forgery, never at ``import gcrylike``; when it cannot be imported (or its
    exception would make a forgery a ``ValueError`` or no ``Exception``)
    plain :class:`AuthenticationFailed`.  Built once per library."""
    if borrowed is None:
        return AuthenticationFailed
    cls = _forgery_classes.get(borrowed)
    if cls is not None:
        return cls
    module, name = BORROWED_FORGERIES[borrowed]
    try:
        base = getattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 - not installed, or broken: our own class
        base = None
    if (not isinstance(base, type) or not issubclass(base, Exception)
            or issubclass(base, (ValueError, GcryError))):
        cls = AuthenticationFailed
    else:
        cls = type(AuthenticationFailed.__name__, (AuthenticationFailed, base), {
            "__module__": AuthenticationFailed.__module__,
            "__qualname__": AuthenticationFailed.__qualname__,
            "__doc__": f"An :class:`AuthenticationFailed` that is also {module}.{name}.",
            "__reduce__": _reduce_forgery,
            "_borrowed": borrowed,
        })
    # two threads' first forgeries may both build one: the first stored wins
    return _forgery_classes.setdefault(borrowed, cls)


def forgery(message: str, borrowed: str | None = None) -> AuthenticationFailed:
    """A forgery error (see :func:`forgery_class`) with ``message``."""
    return forgery_class(borrowed)(message)


def _reduce_forgery(self: AuthenticationFailed) -> tuple[Any, ...]:
    # pickled by how it was made (the class itself is not a module global)
    return (_unpickle_forgery, (getattr(self, "_borrowed", None), self.args), self.__dict__)


def _unpickle_forgery(borrowed: str | None, args: tuple[Any, ...]) -> AuthenticationFailed:
    # plain AuthenticationFailed where the borrowed library is missing
    return forgery_class(borrowed)(*args)


_BY_CODE: dict[int, type[GcryError]] = {
    ErrorCode.INV_KEYLEN: InvalidKeyLength,
    ErrorCode.INV_IV: InvalidIVLength,
    ErrorCode.INV_ARG: InvalidArgument,
    ErrorCode.INV_LENGTH: InvalidLength,
    ErrorCode.TOO_LARGE: CounterExhausted,
    ErrorCode.MISSING_KEY: MissingKey,
    ErrorCode.INV_STATE: InvalidState,
    ErrorCode.NOT_SUPPORTED: NotSupported,
    ErrorCode.SELFTEST_FAILED: SelftestFailed,
    ErrorCode.CHECKSUM: AuthenticationFailed,
}


def check(rc: int, what: str) -> None:
    """Raise the exception for a native return code; 0 is success."""
    if rc:
        raise error_for(rc, what)


def error_for(rc: int, what: str) -> GcryError:
    try:
        code = ErrorCode(rc)
    except ValueError:
        return GcryError(f"{what}: native error {rc}", ErrorCode.INV_ARG)
    cls = _BY_CODE.get(code, GcryError)
    return cls(f"{what}: {code.name.lower().replace('_', ' ')}", code)
