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
    ValueError`` meant for bad arguments."""

    code = ErrorCode.CHECKSUM


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
