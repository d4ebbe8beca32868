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
    (gcrylike.AuthenticationFailed, ValueError, E.CHECKSUM),
])
def test_class_code_and_base(cls, base, code):
    err = cls("boom")
    assert isinstance(err, gcrylike.GcryError) and isinstance(err, base)
    assert err.code == code and str(err) == f"boom [{code.name}]"


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
