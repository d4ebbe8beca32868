"""gcrylike: libgcrypt-style cipher modules for Python, with amd64 assembly.

The whole public API is re-exported here; every other module is private.

>>> import gcrylike
>>> with gcrylike.cipher_open("salsa20") as h:
...     h.setkey(bytes(32)); h.setiv(bytes(8))
...     ct = h.encrypt(b"attack at dawn")
"""

from __future__ import annotations

from collections.abc import Iterable

# first: from a source checkout, a clear error rather than a missing _core
from . import _source_tree  # noqa: F401

# isort: split
from . import _config, _hwf, _registry
from ._aead import AeadHandle, AeadInfo, ChaCha20Poly1305, XChaCha20Poly1305
from ._block import BlockCipherHandle, BlockInfo, block_cipher_open
from ._config import Config, config
from ._context import Context
from ._errors import (
    AuthenticationFailed,
    CounterExhausted,
    ErrorCode,
    GcryError,
    HandleBusy,
    HandleClosed,
    InvalidArgument,
    InvalidIVLength,
    InvalidKeyLength,
    InvalidLength,
    InvalidState,
    InvalidType,
    MissingKey,
    NameConflict,
    NotContiguous,
    NotPicklable,
    NotSupported,
    ReadOnlyBuffer,
    SelftestFailed,
    UnknownAlgorithm,
    UnknownName,
)
from ._fast import set_threads
from ._handle import CipherHandle, HandleInfo, cipher_open
from ._mac import MacHandle, MacInfo, mac, mac_open, mac_verify
from ._nacl_aead import Aead
from ._nacl_message import EncryptedMessage
from ._registry import (
    AlgorithmInfo,
    ImplementationInfo,
    PluginWarning,
    plugin_errors,
    register,
    set_plugins,
    unregister,
)
from ._secretbox import SecretBox
from ._spec import (
    PLUGIN_API_VERSION,
    PLUGIN_API_VERSIONS,
    AeadSpec,
    BlockCipherSpec,
    CipherSpec,
    Implementation,
    MacSpec,
    SecretBoxSpec,
    TweakableCipherSpec,
)
from ._tweakable import Adiantum, TweakableHandle, TweakableInfo, tweakable_open
from ._typing import BytesLike, Encoder
from .build import get_include
from .selftests.runner import SelftestReport

__version__ = "0.1.0"


def algorithms() -> list[str]:
    """Names of the registered algorithms, by id."""
    return [s.name for s in _registry.all_specs()]


def implementations(algorithm: str | int | None = None) -> list[ImplementationInfo]:
    """The drivers of ``algorithm`` (a name, alias or id, any case), best
    first; without it, every registered algorithm's, algorithms by id.  Each
    says whether it can run here (the CPU has its features and none is
    denied) and whether it is the one a new handle would use now."""
    if algorithm is None:
        return [info for spec in _registry.all_specs() for info in _registry.describe(spec)]
    return _registry.describe(_registry.lookup(algorithm))


def algorithm_info(algorithm: str | int) -> AlgorithmInfo:
    """The names and sizes of ``algorithm`` (a name, alias or id, any case),
    as ``gcrylike list`` shows them, without opening a handle."""
    return _registry.algorithm_info(_registry.lookup(algorithm))


def data_path(handle: CipherHandle | AeadHandle | MacHandle | BlockCipherHandle
              | TweakableHandle | ChaCha20Poly1305 | XChaCha20Poly1305 | SecretBox
              | Aead) -> str:
    """How ``handle``'s data calls reach native code now: ``"fastcall"`` (the
    native fast path), ``"cffi"`` (the same hooks through cffi: the fast
    path is off in this process, see :attr:`Config.data_path`, or cannot
    take this algorithm's hooks), or ``"none"`` (no key yet, or closed)."""
    return _config.handle_path(handle)


def cpu_cycles() -> int:
    """The CPU's time-stamp counter (``rdtsc``), or 0 where there is none
    (not x86-64).  It counts at a fixed rate on most CPUs, often not the
    rate the cores run at: see :func:`core_mhz`."""
    return _hwf.cycles()


def core_mhz() -> float | None:
    """The clock the calling thread's core runs at now, in MHz, estimated
    (like libgcrypt's bench-slope "auto") by timing a chain of dependent
    one-cycle additions, best of three (a few tens of milliseconds); None
    where the build has no such loop (not x86-64)."""
    return _hwf.core_mhz()


def hw_features() -> frozenset[str]:
    """CPU features implementations may use now (detected minus denied)."""
    return _hwf.active()


def set_hwf_deny(names: str | Iterable[str]) -> frozenset[str]:
    """Replace the hardware-feature deny list (``"avx2,avx512vl"``, a list, or
    ``"all"``); applies to handles opened afterwards.  Returns the old list."""
    return _hwf.set_deny(names)


def hchacha(key: BytesLike, data: BytesLike, *, rounds: int = 20,
            impl: str | None = None) -> bytes:
    """HChaCha20 (or HChaCha with ``rounds``): a 32-byte key and a 16-byte
    input to a 32-byte subkey (draft-irtf-cfrg-xchacha, section 2.2), on
    the implementation XChaCha would use here, or on driver ``impl``
    (an ``xchacha20-*`` or ``xchacha12-*`` driver name)."""
    from .ciphers.chacha import hchacha as _hchacha

    return _hchacha(key, data, rounds=rounds, impl=impl)


def hsalsa20(key: BytesLike, data: BytesLike, *, rounds: int = 20,
             impl: str | None = None) -> bytes:
    """HSalsa20 (or HSalsa20 with ``rounds``): a 32-byte key and a 16-byte
    input to a 32-byte subkey (Bernstein, "Extending the Salsa20 nonce"), on
    the implementation XSalsa20 would use here, or on driver ``impl`` (an
    ``xsalsa20-*``, ``salsa20-*`` or ``salsa20r12-*`` driver name)."""
    from .ciphers.salsa20 import hsalsa20 as _hsalsa20

    return _hsalsa20(key, data, rounds=rounds, impl=impl)


def selftest() -> list[SelftestReport]:
    """Run every algorithm's self-test on every implementation this CPU can
    run; returns one report per (algorithm, driver), and a "failed" report
    per entry-point plugin that was not registered (its ``algorithm`` is
    ``plugin NAME (VALUE)``, its ``driver`` ``-``)."""
    from .selftests.runner import run_all

    return run_all()


__all__ = [
    "AeadHandle", "AeadInfo", "AeadSpec", "BlockCipherHandle", "BlockCipherSpec", "BlockInfo",
    "Aead", "ChaCha20Poly1305", "XChaCha20Poly1305", "block_cipher_open", "Adiantum",
    "TweakableCipherSpec", "TweakableHandle", "TweakableInfo", "tweakable_open",
    "AuthenticationFailed", "CipherHandle", "CipherSpec", "Config", "Context",
    "CounterExhausted", "ErrorCode", "GcryError", "HandleClosed", "HandleInfo",
    "Implementation", "ImplementationInfo", "InvalidArgument", "InvalidIVLength",
    "InvalidKeyLength", "InvalidLength", "InvalidState", "InvalidType", "MacHandle", "MacInfo",
    "MacSpec", "MissingKey", "NameConflict", "NotContiguous", "NotPicklable", "NotSupported",
    "ReadOnlyBuffer", "PluginWarning", "SelftestFailed", "HandleBusy",
    "SelftestReport", "UnknownAlgorithm", "UnknownName", "__version__", "algorithms",
    "cipher_open", "config", "hchacha", "hw_features", "implementations", "mac", "mac_open",
    "mac_verify",
    "plugin_errors", "register", "selftest", "set_hwf_deny", "set_threads", "unregister",
    "PLUGIN_API_VERSION", "PLUGIN_API_VERSIONS", "set_plugins", "get_include",
    "SecretBox", "SecretBoxSpec", "hsalsa20", "EncryptedMessage", "BytesLike", "Encoder",
    "AlgorithmInfo", "algorithm_info", "data_path", "cpu_cycles", "core_mhz",
]
