"""What every peer adapter is: the adapter kinds (:class:`Crypter`,
:class:`Tagger`, :class:`Sealer`, :class:`Boxer`), :class:`Offer` and
:class:`Peer`.  See the package doc for the conventions they keep."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Offer kinds: a stream cipher (:class:`Crypter`), a MAC (:class:`Tagger`),
#: an authenticated cipher (:class:`Sealer`), a NaCl secretbox (:class:`Boxer`).
STREAM = "stream"
MAC = "mac"
AEAD = "aead"
SECRETBOX = "secretbox"

#: ``Offer.api`` values: which of our APIs does the same work per call.
ONE_SHOT = "one-shot"
HANDLE = "handle"


class PeerUnavailable(Exception):
    """The peer library is not installed or cannot be used here."""


# ---------------------------------------------------------------------------
# Crypter: one keyed, nonced instance of a peer's cipher
# ---------------------------------------------------------------------------


class Crypter:
    """Encrypt (or decrypt) ``src`` into ``dst`` with one key and nonce.

    ``crypter(src, dst)`` and :meth:`decrypt` take any bytes-like ``src``
    and a writable ``dst`` of the same length (``dst`` may be ``src``).
    :meth:`bind` pre-converts a fixed pair of buffers and returns a
    zero-argument callable: the bench's timing loop calls that, so argument
    conversion is paid once and not per call.  ``fresh``, for a library
    whose API also returns a new ``bytes`` object (``update(data)``), binds
    that call to fixed ``bytes`` input: the bench compares it with ours.
    """

    def __init__(self, encrypt: Callable[[Any, Any], Any],
                 decrypt: Callable[[Any, Any], Any] | None = None,
                 bind: Callable[[Any, Any, bool], Callable[[], Any]] | None = None,
                 close: Callable[[], None] | None = None,
                 fresh: Callable[[bytes], Callable[[], bytes]] | None = None) -> None:
        self._encrypt = encrypt
        self._decrypt = decrypt or encrypt
        self._bind = bind
        self._close = close
        self.fresh = fresh

    def __call__(self, src: Any, dst: Any) -> None:
        _check_lengths(src, dst)
        self._encrypt(src, dst)

    def decrypt(self, src: Any, dst: Any) -> None:
        _check_lengths(src, dst)
        self._decrypt(src, dst)

    def bind(self, src: Any, dst: Any, decrypt: bool = False) -> Callable[[], Any]:
        _check_lengths(src, dst)
        if self._bind is not None:
            return self._bind(src, dst, decrypt)
        return functools.partial(self._decrypt if decrypt else self._encrypt, src, dst)

    def close(self) -> None:
        if self._close is not None:
            self._close()
            self._close = None

    def __enter__(self) -> Crypter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check_lengths(src: Any, dst: Any) -> None:
    ls, ld = memoryview(src).nbytes, memoryview(dst).nbytes
    if ls != ld:
        raise ValueError(f"src has {ls} bytes but dst has {ld}")


#: What a MAC, AEAD or secretbox adapter's ``bind`` returns: the call the bench times,
#: and a reader turning that call's return value into the output bytes.
Bound = tuple[Callable[[], Any], Callable[[Any], bytes]]


class _OneMessage:
    """Shared body of :class:`Tagger`, :class:`Sealer` and :class:`Boxer`."""

    def __init__(self, bind: Callable[..., Bound],
                 close: Callable[[], None] | None = None) -> None:
        self._bind_fn = bind
        self._close = close

    def close(self) -> None:
        if self._close is not None:
            self._close()
            self._close = None

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _with_reader(bound: Bound) -> Callable[[], Any]:
    """The bound call carrying its reader as ``call.read``.  The reader holds
    the output buffers the call writes into, so whoever keeps the call keeps
    them alive (a ctypes call bound to a bare address would write into freed
    memory once the buffer went); and ``call.read(call())`` is the output."""
    call, read = bound
    try:
        call.read = read  # type: ignore[attr-defined]
    except AttributeError:  # a builtin: a partial object can carry attributes
        call = functools.partial(call)
        call.read = read  # type: ignore[attr-defined]
    return call


class Tagger(_OneMessage):
    """The MAC of one message under a fixed key.

    ``tagger(data)`` returns the tag; :meth:`bind` returns the zero-argument
    call the bench times, with ``call.read(call())`` giving the tag.
    """

    def __call__(self, data: Any) -> bytes:
        call = self.bind(data)
        return call.read(call())  # type: ignore[attr-defined]

    def bind(self, data: Any) -> Callable[[], Any]:
        return _with_reader(self._bind_fn(bytes(data)))


class Sealer(_OneMessage):
    """Authenticated encryption of one message under a fixed key.

    ``sealer(nonce, data, aad)`` returns ciphertext || tag (RFC 8439 layout);
    :meth:`bind` returns the zero-argument call the bench times, with
    ``call.read(call())`` giving ciphertext || tag.
    """

    def __call__(self, nonce: bytes, data: Any, aad: Any = b"") -> bytes:
        call = self.bind(nonce, data, aad)
        return call.read(call())  # type: ignore[attr-defined]

    def bind(self, nonce: bytes, data: Any, aad: Any = b"") -> Callable[[], Any]:
        return _with_reader(self._bind_fn(bytes(nonce), bytes(data), bytes(aad)))


class Boxer(_OneMessage):
    """NaCl's ``crypto_secretbox`` of one message under a fixed key.

    ``boxer(nonce, data)`` returns the box, tag || ciphertext (the layout of
    ``crypto_secretbox_easy`` and of our :class:`gcrylike.SecretBox`); there
    is no associated data to pass, so none can be silently dropped.
    :meth:`bind` returns the zero-argument call the bench times, with
    ``call.read(call())`` giving the box.
    """

    def __call__(self, nonce: bytes, data: Any) -> bytes:
        call = self.bind(nonce, data)
        return call.read(call())  # type: ignore[attr-defined]

    def bind(self, nonce: bytes, data: Any) -> Callable[[], Any]:
        return _with_reader(self._bind_fn(bytes(nonce), bytes(data)))


# ---------------------------------------------------------------------------
# Offers and peers
# ---------------------------------------------------------------------------


#: ``make(lib, key, nonce) -> Crypter`` for stream ciphers, ``make(lib, key) ->
#: Tagger | Sealer | Boxer`` for MACs, AEADs and secretboxes; ``lib`` is what the
#: peer's loader returned.
Factory = Callable[..., Any]


@dataclass(frozen=True)
class Offer:
    """One algorithm a peer provides, named as in our registry."""

    algorithm: str
    kind: str
    key_sizes: tuple[int, ...]
    nonce_sizes: tuple[int, ...]
    make: Factory
    #: The peer's own name for it, for the report ("crypto_stream_salsa2012_xor").
    label: str = ""
    #: Whether successive calls continue the keystream (see the module doc).
    stateful: bool = True
    #: MAC, AEAD and secretbox offers: which of our APIs does the same work per call
    #: (:data:`ONE_SHOT` or :data:`HANDLE`, see the module doc).
    api: str = ONE_SHOT
    #: Not this algorithm but a yardstick for it: the name of the algorithm
    #: the peer really runs (Adiantum is compared with plain ChaCha20).
    reference: str = ""
    #: ``check(lib)`` raises :class:`PeerUnavailable` when the installed
    #: library lacks this offer (a module of its own); None: the library
    #: loading is enough.  Kept per offer so that a missing piece is
    #: reported under the algorithms that need it only.
    check: Callable[[Any], None] | None = None


class Peer:
    """An installed (or not) library with the algorithms it offers."""

    def __init__(self, name: str, via: str, loader: Callable[[], tuple[Any, str]],
                 offers: tuple[Offer, ...]) -> None:
        self.name = name
        #: How we reach it: "ctypes", "its own C binding", ...
        self.via = via
        self.offers = offers
        self._loader = loader
        self._loaded: tuple[Any, str] | None = None
        self._error: str | None = None

    def _load(self) -> tuple[Any, str]:
        if self._loaded is None:
            if self._error is not None:
                raise PeerUnavailable(self._error)
            try:
                self._loaded = self._loader()
            except PeerUnavailable as exc:
                self._error = str(exc)
                raise
            except (ImportError, OSError, AttributeError) as exc:
                self._error = f"{type(exc).__name__}: {exc}"
                raise PeerUnavailable(self._error) from exc
        return self._loaded

    def unavailable_reason(self, algorithm: str | None = None) -> str | None:
        """None when the library loads (and offers ``algorithm``, our name,
        where given), else a one-line reason."""
        try:
            lib, _ = self._load()
            offer = self.offer(algorithm) if algorithm else None
            # the offer, and the one it runs instead where it is a reference
            runs = self.offer(offer.reference) if offer and offer.reference else None
            for o in (offer, runs):
                if o is not None and o.check is not None:
                    o.check(lib)
        except PeerUnavailable as exc:
            return str(exc)
        return None

    @property
    def version(self) -> str:
        return self._load()[1]

    def offer(self, algorithm: str) -> Offer | None:
        for o in self.offers:
            if o.algorithm.upper() == algorithm.upper():
                return o
        return None

    def _offer_of(self, algorithm: str, kind: str, key: bytes) -> Offer:
        o = self.offer(algorithm)
        if o is None:
            raise KeyError(f"{self.name} does not offer {algorithm}")
        if o.kind != kind:
            raise TypeError(f"{self.name} {algorithm} is a {o.kind} offer, not a {kind} one")
        if len(key) not in o.key_sizes:
            raise ValueError(f"{self.name} {algorithm}: key must be {o.key_sizes} bytes")
        return o

    def crypter(self, algorithm: str, key: bytes, nonce: bytes) -> Crypter:
        """A :class:`Crypter` for ``algorithm`` (our name) under ``key``/``nonce``."""
        o = self._offer_of(algorithm, STREAM, key)
        if len(nonce) not in o.nonce_sizes:
            raise ValueError(f"{self.name} {algorithm}: nonce must be {o.nonce_sizes} bytes")
        lib, _ = self._load()
        return o.make(lib, bytes(key), bytes(nonce))

    def tagger(self, algorithm: str, key: bytes) -> Tagger:
        """A :class:`Tagger` for MAC ``algorithm`` (our name) under ``key``."""
        o = self._offer_of(algorithm, MAC, key)
        lib, _ = self._load()
        return o.make(lib, bytes(key))

    def sealer(self, algorithm: str, key: bytes) -> Sealer:
        """A :class:`Sealer` for AEAD ``algorithm`` (our name) under ``key``;
        nonces (of ``Offer.nonce_sizes``) are given per message."""
        o = self._offer_of(algorithm, AEAD, key)
        lib, _ = self._load()
        return _NonceChecked(o, self.name, o.make(lib, bytes(key)))

    def boxer(self, algorithm: str, key: bytes) -> Boxer:
        """A :class:`Boxer` for secretbox ``algorithm`` (our name) under
        ``key``; nonces (of ``Offer.nonce_sizes``, checked) are given per message."""
        o = self._offer_of(algorithm, SECRETBOX, key)
        lib, _ = self._load()
        inner = o.make(lib, bytes(key))

        def bind(nonce: bytes, data: bytes) -> Bound:
            if len(nonce) not in o.nonce_sizes:
                raise ValueError(f"{self.name} {o.algorithm}: nonce must be "
                                 f"{o.nonce_sizes} bytes")
            return inner._bind_fn(nonce, data)

        return Boxer(bind, inner.close)

    def __repr__(self) -> str:
        return f"<Peer {self.name} via {self.via}: {', '.join(o.algorithm for o in self.offers)}>"


class _NonceChecked(Sealer):
    """A peer's sealer that refuses nonces of sizes its offer does not list
    (a library may silently accept them and mean something else)."""

    def __init__(self, offer: Offer, peer: str, inner: Sealer) -> None:
        def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
            if len(nonce) not in offer.nonce_sizes:
                raise ValueError(f"{peer} {offer.algorithm}: nonce must be "
                                 f"{offer.nonce_sizes} bytes")
            return inner._bind_fn(nonce, data, aad)

        super().__init__(bind, inner.close)
