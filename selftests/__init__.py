"""Known-answer vectors and the self-test runner (installed as ``gcrylike.selftests``).

Plugin authors: the ``*_selftest`` helpers check one implementation of a
spec against your vectors, plus the streaming, splitting and misuse checks
the built-in algorithms get, and raise :class:`gcrylike.SelftestFailed` on a
wrong answer.  Call one from your spec's ``selftest(spec, impl)`` hook.
"""

from .runner import (
    BlockVector,
    Report,
    SecretBoxVector,
    SelftestReport,
    StreamVector,
    aead_selftest,
    block_selftest,
    mac_selftest,
    run_all,
    secretbox_selftest,
    stream_selftest,
    tweakable_selftest,
)
from .vectors_adiantum import TweakVector
from .vectors_aead import AeadVector
from .vectors_poly1305 import MacVector

__all__ = ["AeadVector", "BlockVector", "MacVector", "Report", "SecretBoxVector", "SelftestReport",
           "StreamVector", "TweakVector", "aead_selftest", "block_selftest", "mac_selftest",
           "run_all", "secretbox_selftest", "stream_selftest", "tweakable_selftest"]
