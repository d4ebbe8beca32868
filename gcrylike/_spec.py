"""Cipher specs and implementations: the records the registry holds.

Modelled on libgcrypt's ``gcry_cipher_spec_t`` (id, name, aliases, sizes,
hooks) and on the Linux kernel's drivers (several implementations of one
algorithm, each with a driver name, a priority and the CPU features it needs).
These two classes are the stable plugin API.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ._errors import InvalidType

#: The plugin API this gcrylike implements: what a spec's ``api_version``
#: says it was written for.  A change that breaks plugins bumps it.
PLUGIN_API_VERSION = 1
#: Every plugin API version this gcrylike accepts.
PLUGIN_API_VERSIONS: tuple[int, ...] = (1,)

# Every hook's first argument ``ctx`` is the context's cffi ``void *``
# (``Context.ptr``): pass it straight to your own cffi functions (cffi shares
# pointer types between FFI instances), or view it with ``ffi.buffer(ctx, n)``.

#: ``setkey(ctx, key, impl)``: install a key for implementation ``impl``; ``key``
#: (and ``iv`` below) is a cffi ``char[]`` view of the caller's buffer (no copy),
#: accepted by ``uint8_t *`` parameters.
#: Raise a :class:`gcrylike.GcryError` on failure.  Or a native function
#: ``int setkey(void *ctx, const uint8_t *key, size_t keylen, unsigned int
#: token)`` (a cffi function), called with ``impl.token`` and returning 0 or an
#: :class:`ErrorCode`: then a MAC handle re-keys in C (see gcrylike/_keyed.py).
SetkeyHook = Callable[[Any, Any, "Implementation"], None]
#: ``setiv(ctx, iv)``: install a nonce and rewind the keystream.
SetivHook = Callable[[Any, Any], None]
#: ``setctr(ctx, block)``: seek the keystream to block number ``block``.
SetctrHook = Callable[[Any, int], None]
#: ``encrypt_stream(ctx, dst, src, n) -> int``: process ``n`` bytes from ``src``
#: into ``dst`` (``dst`` may be ``src``) and return 0 or an :class:`ErrorCode`
#: value (or raise).  This is the hot path, so it may be a cffi function of your
#: extension module itself, called with no Python wrapper; then ``src`` may
#: also be a ``bytes`` object.  Python hooks always get cffi buffers.
StreamHook = Callable[[Any, Any, Any, int], Any]
#: ``selftest(spec, impl)``: raise :class:`gcrylike.SelftestFailed` on a wrong answer.
SelftestHook = Callable[["CipherSpec", "Implementation"], None]


@dataclass(frozen=True, eq=False)
class Implementation:
    """One implementation of an algorithm (a kernel "driver").

    ``driver`` is unique across the registry (``salsa20-amd64-sse2``);
    the highest ``priority`` whose ``features`` are all available wins;
    ``token`` is handed back to the spec's ``setkey`` hook so native code
    knows which routines to dispatch to.
    """

    driver: str
    priority: int
    features: Iterable[str] = frozenset()
    token: Any = None
    description: str = ""

    def __post_init__(self) -> None:
        # any iterable of names is kept as a frozenset; a lone str would
        # silently become its letters, so it is refused like a non-iterable
        feats = self.features
        if type(feats) is not frozenset:
            if isinstance(feats, (str, bytes)) or not isinstance(feats, Iterable):
                raise InvalidType(f"{self.driver}: features must be an iterable of names "
                                  f"(e.g. {{'sse2'}}), not {type(feats).__name__}")
            feats = frozenset(feats)
            object.__setattr__(self, "features", feats)
        if not all(isinstance(f, str) for f in feats):
            raise InvalidType(f"{self.driver}: features must be names (str)")


class Driver(NamedTuple):
    """One driver row: a component's, read from the C table beside its
    routines by :func:`native_drivers`, or a composite's, made from its
    parts' rows by :func:`compose`.  ``suffix`` follows the algorithm's name
    in the driver's (``amd64-avx2``); ``tag`` marks the driver in a
    composite named after another part (``ifma``), else ``""``."""

    suffix: str
    priority: int
    features: frozenset[str]
    token: Any
    tag: str = ""
    description: str = ""

    @property
    def level(self) -> int:
        """The SIMD level: the hundreds of the priority (1 portable, 3 SSE,
        4 AVX2, 5 AVX-512), what the composites' rules pair drivers by."""
        return self.priority // 100


def native_drivers(ffi: Any, accessor: Callable[[Any], Any]) -> tuple[Driver, ...]:
    """The rows of a component's C driver table (``gcry_driver``,
    gcrylike/_native/driver.h) that its module compiled in, through its
    accessor ``lib.gcry_<component>_drivers``; a row's place is its token
    (the component's implementation id), the features are the names of the
    mask's GCRY_HWF_* bits (:data:`gcrylike._hwf.FEATURES`)."""
    from ._hwf import FEATURES

    count = ffi.new("size_t *")
    rows = accessor(count)
    drivers = []
    for i in range(count[0]):
        row = rows[i]
        suffix = ffi.string(row.suffix).decode("ascii")
        if row.hwf >> len(FEATURES):
            raise ValueError(f"driver {suffix}: feature bits {row.hwf:#x} beyond hwf.h's list")
        drivers.append(Driver(
            suffix, row.priority,
            frozenset(name for bit, name in enumerate(FEATURES) if row.hwf >> bit & 1),
            i, ffi.string(row.tag).decode("ascii"),
            ffi.string(row.description).decode("utf-8")))
    return tuple(drivers)


def implementations(prefix: str, drivers: Iterable[Driver]) -> tuple[Implementation, ...]:
    """The implementations ``prefix-suffix`` of ``drivers``."""
    return tuple(Implementation(f"{prefix}-{d.suffix}", d.priority, d.features, d.token,
                                d.description) for d in drivers)


def best(drivers: Iterable[Driver], where: Callable[[Driver], bool]) -> Driver | None:
    """The highest-priority driver satisfying ``where``, or None."""
    fits = [d for d in drivers if where(d)]
    return max(fits, key=lambda d: d.priority) if fits else None


def compose(suffix: str, parts: Iterable[tuple[int, str, Driver]]) -> Driver:
    """A composite's driver from its parts, as the kernel's templates make
    an instance from the drivers they got: ``parts`` are (weight, the
    part's name, its driver); the features are the union of the parts',
    the priority the weighted mean of theirs (integer division, as
    adiantum's ``(4 * stream + 2 * hash + block) / 7``), the token the
    parts' tokens in order (a composite part's flattened)."""
    parts = tuple(parts)
    token: list[Any] = []
    for _, _, d in parts:
        token += d.token if isinstance(d.token, tuple) else [d.token]
    return Driver(
        suffix,
        sum(w * d.priority for w, _, d in parts) // sum(w for w, _, _ in parts),
        frozenset().union(*(d.features for _, _, d in parts)),
        tuple(token), "",
        ", ".join(f"{name} {d.suffix}" + (f" ({d.description})" if isinstance(d.token, tuple)
                                          else "") for _, name, d in parts))


def joined(suffix: str, parts: Iterable[tuple[int, str, Driver]],
           joins: Iterable[Driver]) -> Driver:
    """A composite driver of PARTS (:func:`compose`) with the join the
    composite declares for them (its own C rows beside its stitched
    routines): the join of the parts' SIMD level when they all have one
    level and the join needs no feature beyond theirs, else the portable
    join (level 1: the parts called one after the other).  The join's id
    ends the token, its features join the parts' and its description ends
    the driver's."""
    parts, joins = tuple(parts), tuple(joins)
    pair = compose(suffix, parts)
    levels = {d.level for _, _, d in parts}
    fits = [j for j in joins if levels == {j.level} and j.features <= pair.features]
    join = fits[0] if fits else next(j for j in joins if j.level == 1)
    return pair._replace(token=(*pair.token, join.token),
                         features=pair.features | join.features,
                         description=f"{pair.description}; {join.description}")


class _Named:
    """What every spec kind shares beyond its fields."""

    __slots__ = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The name followed by the aliases."""
        return (self.name, *self.aliases)


@dataclass(frozen=True, eq=False)
class CipherSpec(_Named):
    """A cipher module.  ``block_size`` is 1 for stream ciphers.

    Stream ciphers provide ``encrypt_stream``/``decrypt_stream`` (and usually
    ``setiv``); ``context_size`` bytes of zeroed, 64-byte aligned C memory are
    given to every hook as ``ctx`` (a cffi ``void *``).  Other kinds have
    their own spec classes (:class:`MacSpec`, :class:`AeadSpec`, ...);
    ``extra_hooks`` carries algorithm-specific extras a plugin wants to keep
    with its spec (gcrylike itself does not read it).
    """

    #: Which open function serves this spec (``cipher_open``).
    kind = "cipher"
    #: Hooks the registry requires to be callable.
    required_hooks = ("setkey", "encrypt_stream", "decrypt_stream", "selftest")

    name: str
    algo: int
    key_sizes: tuple[int, ...]
    context_size: int
    implementations: tuple[Implementation, ...]
    setkey: SetkeyHook
    encrypt_stream: StreamHook
    decrypt_stream: StreamHook
    selftest: SelftestHook
    aliases: tuple[str, ...] = ()
    iv_sizes: tuple[int, ...] = ()
    block_size: int = 1
    setiv: SetivHook | None = None
    setctr: SetctrHook | None = None
    #: The keystream block size that ``setctr`` counts in (64 for Salsa20).
    counter_block: int = 64
    description: str = ""
    extra_hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: Optional, for splitting one large request over threads (both native,
    #: as ``gcry_chacha_locate``/``gcry_chacha_setctr``):
    #: ``locate(ctx, n, uint64_t *block, unsigned *unused) -> int`` says
    #: whether ``n`` more bytes exist (0, else the error ``encrypt_stream``
    #: would return), the next keystream block and the bytes left of the
    #: current one; ``seek(ctx, block) -> int`` is ``setctr`` in C.  Both
    #: need a context that is plain bytes (copied with memcpy).
    locate: Callable[..., Any] | None = None
    seek: Callable[..., Any] | None = None
    #: The plugin API the spec was written for (:data:`PLUGIN_API_VERSION`).
    api_version: int = PLUGIN_API_VERSION


    @property
    def needs_iv(self) -> bool:
        """Whether data may flow only after ``setiv`` (``iv_sizes`` is not empty)."""
        return bool(self.iv_sizes)


#: ``update(ctx, src, n) -> int``: absorb ``n`` bytes (like ``encrypt_stream``,
#: may be a cffi function taking ``bytes`` directly).
UpdateHook = Callable[[Any, Any, int], Any]
#: ``read(ctx, out, n) -> int``: write the ``n``-byte tag of the data so far
#: into ``out``, leaving the state unchanged.
ReadHook = Callable[[Any, Any, int], Any]
#: ``verify(ctx, tag, n) -> int``: 0 if ``tag`` is right, else ``ErrorCode.CHECKSUM``;
#: must compare in constant time.
VerifyHook = Callable[[Any, Any, int], Any]


@dataclass(frozen=True, eq=False)
class MacSpec(_Named):
    """A message authentication code module (libgcrypt's ``gcry_mac_spec_t``).

    Shares the registry, implementations, priorities and self-tests with
    cipher specs; ``mac_open`` serves it.
    """

    kind = "mac"
    required_hooks = ("setkey", "update", "read", "verify", "selftest")

    name: str
    algo: int
    key_sizes: tuple[int, ...]
    digest_size: int
    context_size: int
    implementations: tuple[Implementation, ...]
    setkey: SetkeyHook
    update: UpdateHook
    read: ReadHook
    verify: VerifyHook
    selftest: SelftestHook
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: The plugin API the spec was written for (:data:`PLUGIN_API_VERSION`).
    api_version: int = PLUGIN_API_VERSION
    #: Optional ``oneshot(key, keylen, msg, n, out, token) -> int``: the
    #: whole MAC in one native call, used by :func:`gcrylike.mac`.
    oneshot: Callable[..., Any] | None = None



@dataclass(frozen=True, eq=False)
class AeadSpec(_Named):
    """An authenticated cipher (libgcrypt: a cipher in an AEAD mode).

    Opened with ``cipher_open(cipher, mode)`` as a streaming handle, or
    through the one-shot classes.  Streaming hooks follow the stream-hook
    conventions (``(ctx, dst, src, n) -> int``); ``authenticate(ctx, src, n)``,
    ``gettag(ctx, out, n)``, ``checktag(ctx, tag, n)`` return an error code;
    ``seal(ctx, nonce, nlen, aad, alen, src, n, out)`` writes ciphertext ||
    tag and ``open(...)`` verifies before it releases plaintext.
    """

    kind = "aead"
    required_hooks = ("setkey", "setiv", "authenticate", "encrypt", "decrypt", "gettag",
                      "checktag", "seal", "open", "selftest")

    name: str
    algo: int
    cipher: str
    mode: str
    key_sizes: tuple[int, ...]
    iv_sizes: tuple[int, ...]
    tag_size: int
    context_size: int
    implementations: tuple[Implementation, ...]
    setkey: SetkeyHook
    setiv: SetivHook
    authenticate: UpdateHook
    encrypt: StreamHook
    decrypt: StreamHook
    gettag: ReadHook
    checktag: VerifyHook
    seal: Callable[..., Any]
    open: Callable[..., Any]
    selftest: SelftestHook
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: The plugin API the spec was written for (:data:`PLUGIN_API_VERSION`).
    api_version: int = PLUGIN_API_VERSION



@dataclass(frozen=True, eq=False)
class SecretBoxSpec(_Named):
    """Secret-key authenticated encryption in NaCl's ``crypto_secretbox``
    form: one-shot only, no associated data, the box is tag || ciphertext.

    Not an :class:`AeadSpec`: that is a cipher in an AEAD mode, with
    streaming hooks (associated data first, the tag after the data) and
    the RFC 8439 layout ciphertext || tag; the secretbox defines neither.
    ``seal(ctx, nonce, nlen, src, n, out) -> int`` writes the ``tag_size +
    n`` byte box into ``out``; ``open(ctx, nonce, nlen, box, n, out) -> int``
    writes ``n - tag_size`` bytes of plaintext only if the tag verifies,
    checked before any is written (else it returns ``ErrorCode.CHECKSUM``
    and leaves ``out`` as it was).  Both work
    on a copy of the keyed context, so one key may serve many threads.
    """

    kind = "secretbox"
    required_hooks = ("setkey", "seal", "open", "selftest")

    name: str
    algo: int
    key_sizes: tuple[int, ...]
    iv_sizes: tuple[int, ...]
    tag_size: int
    context_size: int
    implementations: tuple[Implementation, ...]
    setkey: SetkeyHook
    seal: Callable[..., Any]
    open: Callable[..., Any]
    selftest: SelftestHook
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: The plugin API the spec was written for (:data:`PLUGIN_API_VERSION`).
    api_version: int = PLUGIN_API_VERSION



#: ``encrypt_blocks(ctx, dst, src, n) -> int``: ``n`` bytes, a multiple of the block size.
BlocksHook = Callable[[Any, Any, Any, int], Any]


@dataclass(frozen=True, eq=False)
class BlockCipherSpec(_Named):
    """A block cipher as a building block (the raw permutation on whole
    blocks, libgcrypt's ``encrypt``/``decrypt`` hooks over many blocks).
    It is deliberately not an encryption mode for end users."""

    kind = "block"
    required_hooks = ("setkey", "encrypt_blocks", "decrypt_blocks", "selftest")

    name: str
    algo: int
    key_sizes: tuple[int, ...]
    block_size: int
    context_size: int
    implementations: tuple[Implementation, ...]
    setkey: SetkeyHook
    encrypt_blocks: BlocksHook
    decrypt_blocks: BlocksHook
    selftest: SelftestHook
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: The plugin API the spec was written for (:data:`PLUGIN_API_VERSION`).
    api_version: int = PLUGIN_API_VERSION



@dataclass(frozen=True, eq=False)
class TweakableCipherSpec(_Named):
    """A length-preserving tweakable cipher for storage (Adiantum).

    ``encrypt(ctx, dst, src, n, tweak, tweaklen) -> int`` (and ``decrypt``)
    transform one message of at least ``min_length`` bytes under a tweak of
    at most ``max_tweak`` bytes; ``crypt_sectors(ctx, buf, nsectors,
    sector_size, first, encrypting) -> int`` does a batch in place with
    dm-crypt's plain64 tweaks.
    """

    kind = "tweakable"
    required_hooks = ("setkey", "encrypt", "decrypt", "crypt_sectors", "selftest")

    name: str
    algo: int
    key_sizes: tuple[int, ...]
    min_length: int
    max_tweak: int
    context_size: int
    implementations: tuple[Implementation, ...]
    setkey: SetkeyHook
    encrypt: Callable[..., Any]
    decrypt: Callable[..., Any]
    crypt_sectors: Callable[..., Any]
    selftest: SelftestHook
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: True when ``encrypt``, ``decrypt`` and ``crypt_sectors`` only read the
    #: keyed context: calls on one handle may then run at once (threads
    #: sharing a handle, a sector batch split over threads).  False: one
    #: call at a time, a batch on one thread.
    reentrant: bool = False
    #: The plugin API the spec was written for (:data:`PLUGIN_API_VERSION`).
    api_version: int = PLUGIN_API_VERSION

