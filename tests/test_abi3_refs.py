"""The stable-ABI module keeps the references the 3.11 limited API asks for.

CPython 3.12's and 3.13's headers expand ``Py_RETURN_NONE`` to a bare
``return Py_None`` (None is immortal there) even under
``Py_LIMITED_API=0x030B0000``; a ``cp311-abi3`` wheel built by them and run
on 3.11 took a reference from None on every such return, and the
interpreter aborted after about 10^4 calls ("none_dealloc").  fastcall.c
returns its singletons with an explicit new reference.  The ``abi3`` tox
env runs this file on CPython 3.11 against the wheel built by 3.13, where
the count is the evidence; under the interpreter that built the wheel it
checks the same.
"""

from __future__ import annotations

import sys

import pytest

import gcrylike
from gcrylike import _fast

KEY = bytes(range(32))
CALLS = 2000


@pytest.mark.skipif(sys.version_info >= (3, 12),
                    reason="None is immortal from CPython 3.12: its count never changes")
@pytest.mark.skipif(not _fast.AVAILABLE, reason="the native call layer is not built")
def test_none_keeps_its_references():
    h = gcrylike.mac_open("poly1305")
    h.setkey(KEY)
    binding = h._binding
    before = sys.getrefcount(None)
    for _ in range(CALLS):
        binding.update(b"x")          # returns None
        with binding:                 # __exit__ returns None
            pass
        with binding.exclusive():     # __enter__ and __exit__ return None
            pass
    lost = before - sys.getrefcount(None)
    h.close()
    assert abs(lost) < CALLS, f"None lost {lost} references over {CALLS} rounds of calls"
