"""Peer libraries that ``gcrylike bench --peers`` measures against ours.

Each :class:`Peer` is one installed library (pycryptodome, libsodium,
libgcrypt, cryptography/OpenSSL, PyNaCl) with a loader that raises
:class:`PeerUnavailable` when it is missing, and a table of :class:`Offer`
rows: the algorithms it provides, by *our* names, with the key and nonce
sizes it takes and a factory for the adapter of its kind:

* stream ciphers (``STREAM``): a :class:`Crypter` that encrypts one buffer
  into another (``crypter(src, dst)``) for a fixed key and nonce;
* MACs (``MAC``): a :class:`Tagger`, ``tagger(data) -> tag`` for a fixed key;
* AEADs (``AEAD``): a :class:`Sealer`, ``sealer(nonce, data, aad) ->
  ciphertext || tag`` for a fixed key;
* NaCl secretboxes (``SECRETBOX``): a :class:`Boxer`, ``boxer(nonce, data)
  -> tag || ciphertext`` for a fixed key (no associated data, tag first).

Adding an algorithm for a peer is adding one row to :data:`PEERS`.

Taggers, sealers and boxers are built from one ``bind`` function that returns the
exact zero-argument call the bench times plus a reader that turns its result
into the output bytes (kept on the call as ``call.read``), so the path the
tests check against our output is the path the bench measures.

``Offer.api`` says which of our APIs does the same work, so the bench
compares like with like: ``"one-shot"`` (the key set up inside every call,
like ``gcrylike.mac`` and ``ChaCha20Poly1305.encrypt``) or ``"handle"`` (a
keyed handle reused per message, like our ``MacHandle``/``AeadHandle``).

Conventions every stream adapter keeps, so the bench compares the same work:

* the keystream starts at block 0 for the given key and nonce (the nonce is
  our nonce; an adapter maps it to the peer's layout when that differs);
* ``dst`` may be ``src`` (the bench works in place);
* stateful peers (``Offer.stateful``) continue the keystream from call to
  call like our handles; one-shot APIs (libsodium's ``crypto_stream_*_xor``)
  restart it at block 0 on every call.  The work per byte is the same; only
  the first call's output is comparable for those.

Not a public API.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import importlib
import weakref
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

    def unavailable_reason(self) -> str | None:
        """None when the library loads, else a one-line reason."""
        try:
            self._load()
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


# ---------------------------------------------------------------------------
# ctypes helpers
# ---------------------------------------------------------------------------


def _address(buf: Any, writable: bool) -> tuple[int, Any]:
    """(address, keep-alive object) of a contiguous buffer, without copying
    when it is writable or ``bytes``; other read-only buffers are copied."""
    if isinstance(buf, bytes):
        return ctypes.cast(ctypes.c_char_p(buf), ctypes.c_void_p).value or 0, buf
    mv = memoryview(buf)
    if mv.readonly:
        if writable:
            raise TypeError("dst must be a writable buffer")
        keep: Any = (ctypes.c_char * mv.nbytes).from_buffer_copy(mv)
    else:
        keep = (ctypes.c_char * mv.nbytes).from_buffer(mv)
    return ctypes.addressof(keep), keep


def _find_library(names: tuple[str, ...], short: str) -> ctypes.CDLL:
    candidates = list(names)
    found = ctypes.util.find_library(short)
    if found:
        candidates.insert(0, found)
    errors = []
    for cand in candidates:
        try:
            return ctypes.CDLL(cand)
        except OSError as exc:
            errors.append(str(exc))
    raise PeerUnavailable(f"lib{short} not found ({'; '.join(errors) or 'no candidates'})")


def _fn(lib: ctypes.CDLL, name: str, restype: Any, *argtypes: Any) -> Any:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


# ---------------------------------------------------------------------------
# pycryptodome (Crypto.Cipher.Salsa20 / ChaCha20 / ChaCha20_Poly1305,
# Crypto.Hash.Poly1305): its own C binding
# ---------------------------------------------------------------------------


def _load_pycryptodome() -> tuple[Any, str]:
    for pkg in ("Crypto", "Cryptodome"):  # pycryptodome, or pycryptodomex
        try:
            root = importlib.import_module(pkg)
            importlib.import_module(f"{pkg}.Cipher.Salsa20")
            importlib.import_module(f"{pkg}.Cipher.ChaCha20")
        except ImportError:
            continue
        return root, getattr(root, "__version__", "?")
    raise PeerUnavailable("not installed (no module Crypto.Cipher.Salsa20)")


def _pycryptodome_module(root: Any, name: str) -> Any:
    try:
        return importlib.import_module(f"{root.__name__}.{name}")
    except ImportError as exc:
        raise PeerUnavailable(f"this pycryptodome has no {name} ({exc})") from exc


def _pycryptodome(module: str) -> Factory:
    def make(root: Any, key: bytes, nonce: bytes) -> Crypter:
        mod = _pycryptodome_module(root, f"Cipher.{module}")
        c = mod.new(key=key, nonce=nonce)
        # pycryptodome's ChaCha20 object refuses to change direction once used,
        # so decryption gets its own object (starting at block 0 as well).
        d = mod.new(key=key, nonce=nonce)

        def enc(src: Any, dst: Any) -> None:
            c.encrypt(src, output=dst)

        def dec(src: Any, dst: Any) -> None:
            d.decrypt(src, output=dst)

        def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
            return functools.partial(d.decrypt if decrypt else c.encrypt, src, output=dst)

        def fresh(data: bytes) -> Callable[[], bytes]:
            return functools.partial(c.encrypt, data)

        return Crypter(enc, dec, bind, fresh=fresh)

    return make


def _pycryptodome_poly1305(root: Any, key: bytes) -> Tagger:
    # Crypto.Hash.Poly1305.new() insists on deriving (r, s) from a cipher and a
    # nonce; the raw MAC class takes them directly (r is clamped inside).
    cls = getattr(_pycryptodome_module(root, "Hash.Poly1305"), "Poly1305_MAC", None)
    if cls is None:
        raise PeerUnavailable("this pycryptodome has no raw Poly1305_MAC(r, s) class, only "
                              "Poly1305.new(cipher=...), which derives its own key")
    r, s = key[:16], key[16:]

    def bind(data: bytes) -> Bound:
        def call() -> bytes:
            return cls(r, s, data).digest()

        return call, bytes

    return Tagger(bind)


def _pycryptodome_aead(root: Any, key: bytes) -> Sealer:
    new = _pycryptodome_module(root, "Cipher.ChaCha20_Poly1305").new  # 12 or 24-byte nonce

    def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
        # A fresh object per message (the API has no re-nonce), as its users do.
        def call() -> tuple[bytes, bytes]:
            c = new(key=key, nonce=nonce)
            if aad:
                c.update(aad)
            return c.encrypt_and_digest(data)

        return call, lambda ct_tag: ct_tag[0] + ct_tag[1]

    return Sealer(bind)


# ---------------------------------------------------------------------------
# libsodium via ctypes: one-shot crypto_stream_*_xor functions
# ---------------------------------------------------------------------------

_SODIUM_STREAMS = {
    # function: nonce size
    "crypto_stream_salsa20_xor": 8,
    "crypto_stream_salsa2012_xor": 8,
    "crypto_stream_chacha20_xor": 8,
    "crypto_stream_chacha20_ietf_xor": 12,
    "crypto_stream_xchacha20_xor": 24,
    "crypto_stream_xsalsa20_xor": 24,
}


def _load_sodium() -> tuple[Any, str]:
    lib = _find_library(("libsodium.so.23", "libsodium.so.26", "libsodium.so"), "sodium")
    if _fn(lib, "sodium_init", ctypes.c_int)() < 0:
        raise PeerUnavailable("sodium_init() failed")
    version = _fn(lib, "sodium_version_string", ctypes.c_char_p)()
    return lib, (version or b"?").decode()


def _sodium(*funcs: str) -> Factory:
    """One-shot ``crypto_stream_*_xor`` functions, picked by nonce size."""
    by_nonce = {_SODIUM_STREAMS[f]: f for f in funcs}

    def make(lib: Any, key: bytes, nonce: bytes) -> Crypter:
        func = by_nonce.get(len(nonce))
        if func is None:
            raise ValueError(f"libsodium: no function for a {len(nonce)}-byte nonce")
        # int f(unsigned char *c, const unsigned char *m, unsigned long long mlen,
        #       const unsigned char *n, const unsigned char *k)
        f = _fn(lib, func, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                ctypes.c_ulonglong, ctypes.c_char_p, ctypes.c_char_p)

        def call(src: Any, dst: Any) -> None:
            d, _kd = _address(dst, True)
            s, _ks = _address(src, False)
            if f(d, s, memoryview(src).nbytes, nonce, key) != 0:
                raise RuntimeError(f"{func} failed")

        def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
            d, kd = _address(dst, True)
            s, ks = _address(src, False)
            bound = functools.partial(f, d, s, memoryview(src).nbytes, nonce, key)
            bound.keep_alive = (kd, ks)  # type: ignore[attr-defined]
            return bound

        return Crypter(call, None, bind)

    return make


def _sodium_poly1305(lib: Any, key: bytes) -> Tagger:
    # int crypto_onetimeauth_poly1305(unsigned char *out, const unsigned char *in,
    #                                 unsigned long long inlen, const unsigned char *k)
    f = _fn(lib, "crypto_onetimeauth_poly1305", ctypes.c_int, ctypes.c_void_p,
            ctypes.c_char_p, ctypes.c_ulonglong, ctypes.c_char_p)

    def bind(data: bytes) -> Bound:
        out = ctypes.create_string_buffer(16)
        call = functools.partial(f, ctypes.addressof(out), data, len(data), key)

        def read(rc: int) -> bytes:
            if rc != 0:
                raise RuntimeError(f"crypto_onetimeauth_poly1305 failed ({rc})")
            return out.raw

        return call, read

    return Tagger(bind)


def _sodium_aead(func: str) -> Factory:
    """``crypto_aead_(x)chacha20poly1305_ietf_encrypt``: combined mode, the
    ciphertext and the tag written into one caller buffer."""

    def make(lib: Any, key: bytes) -> Sealer:
        # int f(unsigned char *c, unsigned long long *clen_p, const unsigned char *m,
        #       unsigned long long mlen, const unsigned char *ad, unsigned long long adlen,
        #       const unsigned char *nsec, const unsigned char *npub, const unsigned char *k)
        ull = ctypes.c_ulonglong
        f = _fn(lib, func, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                ull, ctypes.c_char_p, ull, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)

        def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
            out = ctypes.create_string_buffer(len(data) + 16)
            call = functools.partial(f, ctypes.addressof(out), None, data, len(data),
                                     aad, len(aad), None, nonce, key)

            def read(rc: int) -> bytes:
                if rc != 0:
                    raise RuntimeError(f"{func} failed ({rc})")
                return out.raw

            return call, read

        return Sealer(bind)

    return make


def _sodium_secretbox(lib: Any, key: bytes) -> Boxer:
    """``crypto_secretbox_easy``: the box (tag || ciphertext) written into
    one caller buffer."""
    # int crypto_secretbox_easy(unsigned char *c, const unsigned char *m,
    #                           unsigned long long mlen, const unsigned char *n,
    #                           const unsigned char *k)
    f = _fn(lib, "crypto_secretbox_easy", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p,
            ctypes.c_ulonglong, ctypes.c_char_p, ctypes.c_char_p)

    def bind(nonce: bytes, data: bytes) -> Bound:
        out = ctypes.create_string_buffer(len(data) + 16)
        call = functools.partial(f, ctypes.addressof(out), data, len(data), nonce, key)

        def read(rc: int) -> bytes:
            if rc != 0:
                raise RuntimeError(f"crypto_secretbox_easy failed ({rc})")
            return out.raw

        return call, read

    return Boxer(bind)


# ---------------------------------------------------------------------------
# PyNaCl (nacl.secret.SecretBox): its own cffi binding of a bundled libsodium
# ---------------------------------------------------------------------------


def _load_pynacl() -> tuple[Any, str]:
    try:
        import nacl
        import nacl.secret
    except ImportError as exc:
        raise PeerUnavailable(f"not installed ({exc})") from exc
    return nacl.secret, getattr(nacl, "__version__", "?")


def _pynacl_secretbox(secret: Any, key: bytes) -> Boxer:
    """``SecretBox(key).encrypt(data, nonce)`` as its users call it, keyed
    once; it returns nonce || box, and ``.ciphertext`` is the box alone."""
    box = secret.SecretBox(key)

    def bind(nonce: bytes, data: bytes) -> Bound:
        return functools.partial(box.encrypt, data, nonce), lambda m: bytes(m.ciphertext)

    return Boxer(bind)


# ---------------------------------------------------------------------------
# libgcrypt via ctypes: gcry_cipher_* in GCRY_CIPHER_MODE_STREAM
# ---------------------------------------------------------------------------

# gcrypt.h values (libgcrypt 1.x ABI)
_GCRYCTL_DISABLE_SECMEM = 37
_GCRYCTL_INITIALIZATION_FINISHED = 38
_GCRYCTL_INITIALIZATION_FINISHED_P = 39
_GCRY_CIPHER_MODE_STREAM = 4
_GCRY_CIPHER_MODE_POLY1305 = 10
_GCRY_CIPHER_CHACHA20 = 316
_GCRY_MAC_POLY1305 = 501
_GCRYCTL_RESET = 4


class _Gcrypt:
    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        vp, sz, err = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint
        self.open = _fn(lib, "gcry_cipher_open", err, ctypes.POINTER(vp), ctypes.c_int,
                        ctypes.c_int, ctypes.c_uint)
        self.close = _fn(lib, "gcry_cipher_close", None, vp)
        self.setkey = _fn(lib, "gcry_cipher_setkey", err, vp, ctypes.c_char_p, sz)
        self.setiv = _fn(lib, "gcry_cipher_setiv", err, vp, ctypes.c_char_p, sz)
        self.encrypt = _fn(lib, "gcry_cipher_encrypt", err, vp, vp, sz, vp, sz)
        self.decrypt = _fn(lib, "gcry_cipher_decrypt", err, vp, vp, sz, vp, sz)
        self.authenticate = _fn(lib, "gcry_cipher_authenticate", err, vp, vp, sz)
        self.gettag = _fn(lib, "gcry_cipher_gettag", err, vp, vp, sz)
        self.strerror = _fn(lib, "gcry_strerror", ctypes.c_char_p, err)
        # gcry_mac_*: the handle is opaque (gcry_mac_hd_t), like gcry_cipher_hd_t.
        self.mac_open = _fn(lib, "gcry_mac_open", err, ctypes.POINTER(vp), ctypes.c_int,
                            ctypes.c_uint, vp)
        self.mac_close = _fn(lib, "gcry_mac_close", None, vp)
        self.mac_setkey = _fn(lib, "gcry_mac_setkey", err, vp, ctypes.c_char_p, sz)
        self.mac_ctl = _fn(lib, "gcry_mac_ctl", err, vp, ctypes.c_int, vp, sz)
        self.mac_write = _fn(lib, "gcry_mac_write", err, vp, vp, sz)
        self.mac_read = _fn(lib, "gcry_mac_read", err, vp, vp, ctypes.POINTER(sz))

    def check(self, rc: int, what: str) -> None:
        if rc:
            raise RuntimeError(f"{what}: {(self.strerror(rc) or b'?').decode()} ({rc})")


def _load_gcrypt() -> tuple[Any, str]:
    lib = _find_library(("libgcrypt.so.20", "libgcrypt.so"), "gcrypt")
    check_version = _fn(lib, "gcry_check_version", ctypes.c_char_p, ctypes.c_char_p)
    version = check_version(None)  # must come first: it initialises the library
    if not version:
        raise PeerUnavailable("gcry_check_version(NULL) failed")
    control = lib.gcry_control  # variadic: only integer arguments below
    control.restype = ctypes.c_uint
    if not control(_GCRYCTL_INITIALIZATION_FINISHED_P):
        control(_GCRYCTL_DISABLE_SECMEM, 0)
        control(_GCRYCTL_INITIALIZATION_FINISHED, 0)
    return _Gcrypt(lib), version.decode()


def _gcrypt(algo: int) -> Factory:
    def make(g: _Gcrypt, key: bytes, nonce: bytes) -> Crypter:
        h = ctypes.c_void_p()
        g.check(g.open(ctypes.byref(h), algo, _GCRY_CIPHER_MODE_STREAM, 0), "gcry_cipher_open")
        # Close when the last user of h goes (the finalizer must not hold h itself).
        closer = weakref.finalize(h, g.close, h.value)
        try:
            g.check(g.setkey(h, key, len(key)), "gcry_cipher_setkey")
            g.check(g.setiv(h, nonce, len(nonce)), "gcry_cipher_setiv")
        except Exception:
            closer()
            raise

        def run(fn: Any, src: Any, dst: Any) -> None:
            d, _kd = _address(dst, True)
            s, _ks = _address(src, False)
            n = memoryview(src).nbytes
            g.check(fn(h, d, n, s, n), "gcry_cipher_crypt")

        def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
            d, kd = _address(dst, True)
            s, ks = _address(src, False)
            n = memoryview(src).nbytes
            bound = functools.partial(g.decrypt if decrypt else g.encrypt, h, d, n, s, n)
            bound.keep_alive = (kd, ks, closer)  # type: ignore[attr-defined]
            return bound

        return Crypter(functools.partial(run, g.encrypt), functools.partial(run, g.decrypt),
                       bind, closer)

    return make


def _gcrypt_poly1305(g: _Gcrypt, key: bytes) -> Tagger:
    """gcry_mac_open(GCRY_MAC_POLY1305) keyed once; each message is bench-slope's
    MAC step: gcry_mac_reset (re-initialises from the stored key), write, read."""
    h = ctypes.c_void_p()
    g.check(g.mac_open(ctypes.byref(h), _GCRY_MAC_POLY1305, 0, None), "gcry_mac_open")
    closer = weakref.finalize(h, g.mac_close, h.value)
    try:
        g.check(g.mac_setkey(h, key, len(key)), "gcry_mac_setkey")
    except Exception:
        closer()
        raise
    ctl, write, read_tag = g.mac_ctl, g.mac_write, g.mac_read

    def bind(data: bytes) -> Bound:
        d, keep = _address(data, False)
        n = len(data)
        out = ctypes.create_string_buffer(16)
        outlen = ctypes.c_size_t(16)
        po, pl = ctypes.addressof(out), ctypes.byref(outlen)

        def call() -> int:
            outlen.value = 16
            return (ctl(h, _GCRYCTL_RESET, None, 0) or write(h, d, n)
                    or read_tag(h, po, pl))

        call.keep_alive = (keep, closer)  # type: ignore[attr-defined]

        def read(rc: int) -> bytes:
            g.check(rc, "gcry_mac_reset/write/read")
            return out.raw[:outlen.value]

        return call, read

    return Tagger(bind, closer)


def _gcrypt_aead(g: _Gcrypt, key: bytes) -> Sealer:
    """GCRY_CIPHER_CHACHA20 in GCRY_CIPHER_MODE_POLY1305, keyed once; each
    message: setiv, authenticate (if any aad), encrypt, gettag."""
    h = ctypes.c_void_p()
    g.check(g.open(ctypes.byref(h), _GCRY_CIPHER_CHACHA20, _GCRY_CIPHER_MODE_POLY1305, 0),
            "gcry_cipher_open")
    closer = weakref.finalize(h, g.close, h.value)
    try:
        g.check(g.setkey(h, key, len(key)), "gcry_cipher_setkey")
    except Exception:
        closer()
        raise
    setiv, auth, enc, gettag = g.setiv, g.authenticate, g.encrypt, g.gettag

    def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
        d, keep = _address(data, False)
        a, keep_a = _address(aad, False)
        n, na, nn = len(data), len(aad), len(nonce)
        out = ctypes.create_string_buffer(n + 16)
        po = ctypes.addressof(out)

        if na:
            def call() -> int:
                return (setiv(h, nonce, nn) or auth(h, a, na) or enc(h, po, n, d, n)
                        or gettag(h, po + n, 16))
        else:
            def call() -> int:
                return setiv(h, nonce, nn) or enc(h, po, n, d, n) or gettag(h, po + n, 16)

        call.keep_alive = (keep, keep_a, closer)  # type: ignore[attr-defined]

        def read(rc: int) -> bytes:
            g.check(rc, "gcry_cipher_setiv/authenticate/encrypt/gettag")
            return out.raw

        return call, read

    return Sealer(bind, closer)


# ---------------------------------------------------------------------------
# cryptography (OpenSSL): ChaCha20 only (OpenSSL has no Salsa20)
# ---------------------------------------------------------------------------


def _load_cryptography() -> tuple[Any, str]:
    try:
        import cryptography
        from cryptography.hazmat.backends import default_backend
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
    except ImportError as exc:
        raise PeerUnavailable(f"not installed ({exc})") from exc
    try:
        ossl = default_backend().openssl_version_text()
    except Exception:  # only a label; older or newer backends may lack it
        ossl = "OpenSSL"
    return (Cipher, algorithms), f"{cryptography.__version__}, {ossl}"


def _cryptography_module(name: str) -> Any:
    try:
        return importlib.import_module(f"cryptography.hazmat.primitives.{name}")
    except ImportError as exc:
        raise PeerUnavailable(f"this cryptography has no {name} ({exc})") from exc


def _cryptography_poly1305(mods: Any, key: bytes) -> Tagger:
    generate_tag = _cryptography_module("poly1305").Poly1305.generate_tag

    def bind(data: bytes) -> Bound:
        return functools.partial(generate_tag, key, data), bytes

    return Tagger(bind)


def _cryptography_aead(mods: Any, key: bytes) -> Sealer:
    box = _cryptography_module("ciphers.aead").ChaCha20Poly1305(key)

    def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
        return functools.partial(box.encrypt, nonce, data, aad), bytes

    return Sealer(bind)


def _cryptography_chacha20(mods: Any, key: bytes, nonce: bytes) -> Crypter:
    cipher_cls, algorithms = mods
    # OpenSSL's 16-byte ChaCha20 "nonce" is state words 12..15: counter then nonce
    # (libgcrypt's 16-byte IV).  A 12-byte nonce gets a zero 4-byte counter in
    # front, an 8-byte (original) one a zero 8-byte counter.
    iv16 = bytes(16 - len(nonce)) + nonce
    cipher = cipher_cls(algorithms.ChaCha20(key, iv16), mode=None)
    ctx = cipher.encryptor()  # a stream cipher: decryption is the same XOR

    def call(src: Any, dst: Any) -> None:
        ctx.update_into(src, dst)

    def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
        return functools.partial(ctx.update_into, src, dst)

    def fresh(data: bytes) -> Callable[[], bytes]:
        return functools.partial(ctx.update, data)

    return Crypter(call, None, bind, fresh=fresh)


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

PEERS: tuple[Peer, ...] = (
    Peer("pycryptodome", "its own C binding", _load_pycryptodome, (
        # pycryptodome's Salsa20 is 20 rounds only: no SALSA20R12.
        Offer("SALSA20", STREAM, (16, 32), (8,), _pycryptodome("Salsa20"), "Salsa20"),
        Offer("CHACHA20", STREAM, (32,), (8, 12), _pycryptodome("ChaCha20"), "ChaCha20"),
        Offer("XCHACHA20", STREAM, (32,), (24,), _pycryptodome("ChaCha20"), "ChaCha20"),
        Offer("POLY1305", MAC, (32,), (), _pycryptodome_poly1305,
              "Hash.Poly1305.Poly1305_MAC(r, s, data).digest()"),
        Offer("CHACHA20-POLY1305", AEAD, (32,), (12,), _pycryptodome_aead,
              "ChaCha20_Poly1305.new().encrypt_and_digest()"),
        Offer("XCHACHA20-POLY1305", AEAD, (32,), (24,), _pycryptodome_aead,
              "ChaCha20_Poly1305.new().encrypt_and_digest()"),
    )),
    Peer("libsodium", "ctypes", _load_sodium, (
        Offer("SALSA20", STREAM, (32,), (8,), _sodium("crypto_stream_salsa20_xor"),
              "crypto_stream_salsa20_xor", stateful=False),
        Offer("SALSA20R12", STREAM, (32,), (8,), _sodium("crypto_stream_salsa2012_xor"),
              "crypto_stream_salsa2012_xor", stateful=False),
        Offer("XSALSA20", STREAM, (32,), (24,), _sodium("crypto_stream_xsalsa20_xor"),
              "crypto_stream_xsalsa20_xor", stateful=False),
        Offer("CHACHA20", STREAM, (32,), (8, 12),
              _sodium("crypto_stream_chacha20_xor", "crypto_stream_chacha20_ietf_xor"),
              "crypto_stream_chacha20(_ietf)_xor", stateful=False),
        Offer("XCHACHA20", STREAM, (32,), (24,), _sodium("crypto_stream_xchacha20_xor"),
              "crypto_stream_xchacha20_xor", stateful=False),
        Offer("POLY1305", MAC, (32,), (), _sodium_poly1305, "crypto_onetimeauth_poly1305"),
        Offer("CHACHA20-POLY1305", AEAD, (32,), (12,),
              _sodium_aead("crypto_aead_chacha20poly1305_ietf_encrypt"),
              "crypto_aead_chacha20poly1305_ietf_encrypt"),
        Offer("XCHACHA20-POLY1305", AEAD, (32,), (24,),
              _sodium_aead("crypto_aead_xchacha20poly1305_ietf_encrypt"),
              "crypto_aead_xchacha20poly1305_ietf_encrypt"),
        Offer("XSALSA20-POLY1305", SECRETBOX, (32,), (24,), _sodium_secretbox,
              "crypto_secretbox_easy"),
    )),
    Peer("PyNaCl", "its own cffi binding", _load_pynacl, (
        Offer("XSALSA20-POLY1305", SECRETBOX, (32,), (24,), _pynacl_secretbox,
              "secret.SecretBox(key).encrypt(data, nonce).ciphertext"),
    )),
    Peer("libgcrypt", "ctypes", _load_gcrypt, (
        Offer("SALSA20", STREAM, (16, 32), (8,), _gcrypt(313), "GCRY_CIPHER_SALSA20"),
        Offer("SALSA20R12", STREAM, (16, 32), (8,), _gcrypt(314), "GCRY_CIPHER_SALSA20R12"),
        Offer("CHACHA20", STREAM, (32,), (8, 12, 16), _gcrypt(316), "GCRY_CIPHER_CHACHA20"),
        Offer("POLY1305", MAC, (32,), (), _gcrypt_poly1305,
              "GCRY_MAC_POLY1305: reset, write, read", api=HANDLE),
        Offer("CHACHA20-POLY1305", AEAD, (32,), (12,), _gcrypt_aead,
              "GCRY_CIPHER_MODE_POLY1305: setiv, encrypt, gettag", api=HANDLE),
    )),
    Peer("cryptography", "its own OpenSSL binding", _load_cryptography, (
        Offer("CHACHA20", STREAM, (32,), (8, 12, 16), _cryptography_chacha20, "ChaCha20"),
        Offer("ADIANTUM(XCHACHA12,AES)", STREAM, (32,), (16,), _cryptography_chacha20,
              "plain ChaCha20, the same messages", reference="CHACHA20"),
        Offer("ADIANTUM(XCHACHA20,AES)", STREAM, (32,), (16,), _cryptography_chacha20,
              "plain ChaCha20, the same messages", reference="CHACHA20"),
        Offer("POLY1305", MAC, (32,), (), _cryptography_poly1305, "Poly1305.generate_tag"),
        Offer("CHACHA20-POLY1305", AEAD, (32,), (12,), _cryptography_aead,
              "ChaCha20Poly1305.encrypt"),
    )),
)


def peers_for(algorithm: str) -> list[tuple[Peer, Offer]]:
    """Every peer in :data:`PEERS` that offers ``algorithm`` (our name),
    installed or not."""
    out = []
    for p in PEERS:
        o = p.offer(algorithm)
        if o is not None:
            out.append((p, o))
    return out


def common_nonce_size(ours: tuple[int, ...], offer: Offer) -> int | None:
    """The first of our nonce sizes the peer also takes."""
    for n in ours:
        if n in offer.nonce_sizes:
            return n
    return None
