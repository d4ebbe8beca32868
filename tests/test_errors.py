"""The exception family: codes and natural Python types."""

from __future__ import annotations

import pytest

import gcrylike
from gcrylike import ErrorCode as E
from gcrylike._errors import error_for


@pytest.mark.parametrize("cls,base,code", [
    (gcrylike.InvalidKeyLength, ValueError, E.INV_KEYLEN),
    (gcrylike.InvalidIVLength, ValueError, E.INV_IV),
    (gcrylike.InvalidArgument, ValueError, E.INV_ARG),
    (gcrylike.InvalidType, TypeError, E.INV_ARG),
    (gcrylike.InvalidLength, ValueError, E.INV_LENGTH),
    (gcrylike.MissingKey, ValueError, E.MISSING_KEY),
    (gcrylike.InvalidState, ValueError, E.INV_STATE),
    (gcrylike.HandleClosed, ValueError, E.INV_HANDLE),
    (gcrylike.CounterExhausted, OverflowError, E.TOO_LARGE),
    (gcrylike.UnknownAlgorithm, LookupError, E.CIPHER_ALGO),
    (gcrylike.UnknownName, LookupError, E.INV_NAME),
    (gcrylike.NameConflict, ValueError, E.CONFLICT),
    (gcrylike.NotSupported, RuntimeError, E.NOT_SUPPORTED),
    (gcrylike.SelftestFailed, RuntimeError, E.SELFTEST_FAILED),
])
def test_class_code_and_base(cls, base, code):
    err = cls("boom")
    assert isinstance(err, gcrylike.GcryError) and isinstance(err, base)
    assert err.code == code and str(err) == f"boom [{code.name}]"


def test_authentication_failed_is_no_builtin_error():
    # cryptography's InvalidTag and PyNaCl's CryptoError are plain Exceptions:
    # `except ValueError` around input checks must never swallow a forgery
    err = gcrylike.AuthenticationFailed("forged")
    assert isinstance(err, gcrylike.GcryError) and err.code == E.CHECKSUM
    assert str(err) == "forged [CHECKSUM]"
    builtin = [c for c in type(err).__mro__ if c.__module__ == "builtins"]
    assert builtin == [Exception, BaseException, object]


def test_a_forgery_escapes_except_value_error():
    box = gcrylike.ChaCha20Poly1305(bytes(32))
    forged = bytearray(box.encrypt(bytes(12), b"data", None))
    forged[-1] ^= 1
    with pytest.raises(gcrylike.AuthenticationFailed):
        try:
            box.decrypt(bytes(12), forged, None)
        except ValueError:  # an input check's handler: must not see it
            pytest.fail("AuthenticationFailed was caught as a ValueError")


def test_codes_are_libgpg_error_numbers():
    assert (E.CHECKSUM, E.INV_KEYLEN, E.INV_ARG, E.SELFTEST_FAILED, E.NOT_SUPPORTED,
            E.MISSING_KEY) == (10, 44, 45, 50, 60, 181)


@pytest.mark.parametrize("code", [E.INV_KEYLEN, E.INV_IV, E.TOO_LARGE, E.NOT_SUPPORTED])
def test_native_codes_map_to_classes(code):
    err = error_for(int(code), "x")
    assert err.code == code and type(err).code == code


def test_unknown_native_code():
    err = error_for(4242, "x")
    assert type(err) is gcrylike.GcryError and "4242" in str(err)
