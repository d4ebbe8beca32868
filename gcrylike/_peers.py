"""Peer libraries that ``gcrylike bench --peers`` measures against ours.

Each :class:`Peer` is one installed library (pycryptodome, libsodium,
libgcrypt, cryptography/OpenSSL) with a loader that raises
:class:`PeerUnavailable` when it is missing, and a table of :class:`Offer`
rows: the algorithms it provides, by *our* names, with the key and nonce
sizes it takes and a factory for a :class:`Crypter` -- an object that
encrypts one buffer into another (``crypter(src, dst)``) for a fixed key and
nonce.  Adding an algorithm for a peer is adding one row to :data:`PEERS`.

Conventions every adapter keeps, so the bench compares the same work:

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

#: Offer kinds.  Only stream ciphers exist so far; a MAC (POLY1305) or an AEAD
#: (CHACHA20-POLY1305) row would get its own kind and Crypter shape.
STREAM = "stream"


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
    conversion is paid once and not per call.
    """

    def __init__(self, encrypt: Callable[[Any, Any], Any],
                 decrypt: Callable[[Any, Any], Any] | None = None,
                 bind: Callable[[Any, Any, bool], Callable[[], Any]] | None = None,
                 close: Callable[[], None] | None = None) -> None:
        self._encrypt = encrypt
        self._decrypt = decrypt or encrypt
        self._bind = bind
        self._close = close

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


# ---------------------------------------------------------------------------
# Offers and peers
# ---------------------------------------------------------------------------


#: ``make(lib, key, nonce) -> Crypter``; ``lib`` is what the peer's loader returned.
Factory = Callable[[Any, bytes, bytes], Crypter]


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

    def crypter(self, algorithm: str, key: bytes, nonce: bytes) -> Crypter:
        """A :class:`Crypter` for ``algorithm`` (our name) under ``key``/``nonce``."""
        o = self.offer(algorithm)
        if o is None:
            raise KeyError(f"{self.name} does not offer {algorithm}")
        if len(key) not in o.key_sizes:
            raise ValueError(f"{self.name} {algorithm}: key must be {o.key_sizes} bytes")
        if len(nonce) not in o.nonce_sizes:
            raise ValueError(f"{self.name} {algorithm}: nonce must be {o.nonce_sizes} bytes")
        lib, _ = self._load()
        return o.make(lib, bytes(key), bytes(nonce))

    def __repr__(self) -> str:
        return f"<Peer {self.name} via {self.via}: {', '.join(o.algorithm for o in self.offers)}>"


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
# pycryptodome (Crypto.Cipher.Salsa20 / ChaCha20): its own C binding
# ---------------------------------------------------------------------------


def _load_pycryptodome() -> tuple[Any, str]:
    for pkg in ("Crypto", "Cryptodome"):  # pycryptodome, or pycryptodomex
        try:
            root = importlib.import_module(pkg)
            cipher = importlib.import_module(f"{pkg}.Cipher")
            importlib.import_module(f"{pkg}.Cipher.Salsa20")
            importlib.import_module(f"{pkg}.Cipher.ChaCha20")
        except ImportError:
            continue
        return cipher, getattr(root, "__version__", "?")
    raise PeerUnavailable("not installed (no module Crypto.Cipher.Salsa20)")


def _pycryptodome(module: str) -> Factory:
    def make(cipher_pkg: Any, key: bytes, nonce: bytes) -> Crypter:
        mod = getattr(cipher_pkg, module)
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

        return Crypter(enc, dec, bind)

    return make


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


# ---------------------------------------------------------------------------
# libgcrypt via ctypes: gcry_cipher_* in GCRY_CIPHER_MODE_STREAM
# ---------------------------------------------------------------------------

# gcrypt.h values (libgcrypt 1.x ABI)
_GCRYCTL_DISABLE_SECMEM = 37
_GCRYCTL_INITIALIZATION_FINISHED = 38
_GCRYCTL_INITIALIZATION_FINISHED_P = 39
_GCRY_CIPHER_MODE_STREAM = 4


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
        self.strerror = _fn(lib, "gcry_strerror", ctypes.c_char_p, err)

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

    return Crypter(call, None, bind)


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

PEERS: tuple[Peer, ...] = (
    Peer("pycryptodome", "its own C binding", _load_pycryptodome, (
        # pycryptodome's Salsa20 is 20 rounds only: no SALSA20R12.
        Offer("SALSA20", STREAM, (16, 32), (8,), _pycryptodome("Salsa20"), "Salsa20"),
        Offer("CHACHA20", STREAM, (32,), (8, 12), _pycryptodome("ChaCha20"), "ChaCha20"),
        Offer("XCHACHA20", STREAM, (32,), (24,), _pycryptodome("ChaCha20"), "ChaCha20"),
    )),
    Peer("libsodium", "ctypes", _load_sodium, (
        Offer("SALSA20", STREAM, (32,), (8,), _sodium("crypto_stream_salsa20_xor"),
              "crypto_stream_salsa20_xor", stateful=False),
        Offer("SALSA20R12", STREAM, (32,), (8,), _sodium("crypto_stream_salsa2012_xor"),
              "crypto_stream_salsa2012_xor", stateful=False),
        Offer("CHACHA20", STREAM, (32,), (8, 12),
              _sodium("crypto_stream_chacha20_xor", "crypto_stream_chacha20_ietf_xor"),
              "crypto_stream_chacha20(_ietf)_xor", stateful=False),
        Offer("XCHACHA20", STREAM, (32,), (24,), _sodium("crypto_stream_xchacha20_xor"),
              "crypto_stream_xchacha20_xor", stateful=False),
    )),
    Peer("libgcrypt", "ctypes", _load_gcrypt, (
        Offer("SALSA20", STREAM, (16, 32), (8,), _gcrypt(313), "GCRY_CIPHER_SALSA20"),
        Offer("SALSA20R12", STREAM, (16, 32), (8,), _gcrypt(314), "GCRY_CIPHER_SALSA20R12"),
        Offer("CHACHA20", STREAM, (32,), (8, 12, 16), _gcrypt(316), "GCRY_CIPHER_CHACHA20"),
    )),
    Peer("cryptography", "its own OpenSSL binding", _load_cryptography, (
        Offer("CHACHA20", STREAM, (32,), (8, 12, 16), _cryptography_chacha20, "ChaCha20"),
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
