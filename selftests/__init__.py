"""Known-answer vectors and the self-test runner (installed as ``gcrylike.selftests``).

The known answers are written once, here (``vectors_*.py``, in the records
of ``vector_types``): the self-tests, the test suite and the native check of
the assembly (tests/asmcheck/vectors.py, which turns them into C) all read them.

Plugin authors: the ``*_selftest`` helpers check one implementation of a
spec against your vectors, plus the streaming, splitting and misuse checks
the built-in algorithms get, and raise :class:`gcrylike.SelftestFailed` on a
wrong answer.  Call one from your spec's ``selftest(spec, impl)`` hook.
"""

from .runner import (
    Report,
    SelftestReport,
    aead_selftest,
    block_selftest,
    mac_selftest,
    run_all,
    secretbox_selftest,
    stream_selftest,
    tweakable_selftest,
)
from .vector_types import (
    AeadVector,
    BlockVector,
    MacVector,
    SecretBoxVector,
    StreamVector,
    TweakVector,
)

__all__ = ["AeadVector", "BlockVector", "MacVector", "Report", "SecretBoxVector", "SelftestReport",
           "StreamVector", "TweakVector", "aead_selftest", "block_selftest", "mac_selftest",
           "run_all", "secretbox_selftest", "stream_selftest", "tweakable_selftest"]
