"""The libsodium peer, via ctypes: the one-shot crypto_stream_*_xor
functions, crypto_onetimeauth_poly1305, the IETF AEADs and crypto_secretbox_easy."""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from typing import Any

from .base import (
    AEAD,
    MAC,
    SECRETBOX,
    STREAM,
    Bound,
    Boxer,
    Crypter,
    Factory,
    Offer,
    Peer,
    PeerUnavailable,
    Sealer,
    Tagger,
)
from .cdll import buffer_address, c_function, find_library

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
    lib = find_library(("libsodium.so.23", "libsodium.so.26", "libsodium.so"), "sodium")
    if c_function(lib, "sodium_init", ctypes.c_int)() < 0:
        raise PeerUnavailable("sodium_init() failed")
    version = c_function(lib, "sodium_version_string", ctypes.c_char_p)()
    return lib, (version or b"?").decode()


def _into(out: Any, func: str, f: Callable[..., int], *args: Any) -> Bound:
    """The call ``f(out, *args)`` writing into the caller buffer ``out``, and
    its reader: ``out``'s bytes, or RuntimeError naming ``func`` on a non-zero
    result."""
    call = functools.partial(f, ctypes.addressof(out), *args)

    def read(rc: int) -> bytes:
        if rc != 0:
            raise RuntimeError(f"{func} failed ({rc})")
        return out.raw

    return call, read


def _sodium(*funcs: str) -> Factory:
    """One-shot ``crypto_stream_*_xor`` functions, picked by nonce size."""
    by_nonce = {_SODIUM_STREAMS[f]: f for f in funcs}

    def make(lib: Any, key: bytes, nonce: bytes) -> Crypter:
        func = by_nonce.get(len(nonce))
        if func is None:
            raise ValueError(f"libsodium: no function for a {len(nonce)}-byte nonce")
        # int f(unsigned char *c, const unsigned char *m, unsigned long long mlen,
        #       const unsigned char *n, const unsigned char *k)
        f = c_function(lib, func, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                ctypes.c_ulonglong, ctypes.c_char_p, ctypes.c_char_p)

        def call(src: Any, dst: Any) -> None:
            d, _kd = buffer_address(dst, True)
            s, _ks = buffer_address(src, False)
            if f(d, s, memoryview(src).nbytes, nonce, key) != 0:
                raise RuntimeError(f"{func} failed")

        def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
            d, kd = buffer_address(dst, True)
            s, ks = buffer_address(src, False)
            bound = functools.partial(f, d, s, memoryview(src).nbytes, nonce, key)
            bound.keep_alive = (kd, ks)  # type: ignore[attr-defined]
            return bound

        return Crypter(call, None, bind)

    return make


def _sodium_poly1305(lib: Any, key: bytes) -> Tagger:
    # int crypto_onetimeauth_poly1305(unsigned char *out, const unsigned char *in,
    #                                 unsigned long long inlen, const unsigned char *k)
    f = c_function(lib, "crypto_onetimeauth_poly1305", ctypes.c_int, ctypes.c_void_p,
            ctypes.c_char_p, ctypes.c_ulonglong, ctypes.c_char_p)

    def bind(data: bytes) -> Bound:
        return _into(ctypes.create_string_buffer(16), "crypto_onetimeauth_poly1305", f,
                     data, len(data), key)

    return Tagger(bind)


def _sodium_aead(func: str) -> Factory:
    """``crypto_aead_(x)chacha20poly1305_ietf_encrypt``: combined mode, the
    ciphertext and the tag written into one caller buffer."""

    def make(lib: Any, key: bytes) -> Sealer:
        # int f(unsigned char *c, unsigned long long *clen_p, const unsigned char *m,
        #       unsigned long long mlen, const unsigned char *ad, unsigned long long adlen,
        #       const unsigned char *nsec, const unsigned char *npub, const unsigned char *k)
        ull = ctypes.c_ulonglong
        f = c_function(lib, func, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                ull, ctypes.c_char_p, ull, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)

        def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
            return _into(ctypes.create_string_buffer(len(data) + 16), func, f,
                         None, data, len(data), aad, len(aad), None, nonce, key)

        return Sealer(bind)

    return make


def _sodium_secretbox(lib: Any, key: bytes) -> Boxer:
    """``crypto_secretbox_easy``: the box (tag || ciphertext) written into
    one caller buffer."""
    # int crypto_secretbox_easy(unsigned char *c, const unsigned char *m,
    #                           unsigned long long mlen, const unsigned char *n,
    #                           const unsigned char *k)
    f = c_function(lib, "crypto_secretbox_easy", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p,
            ctypes.c_ulonglong, ctypes.c_char_p, ctypes.c_char_p)

    def bind(nonce: bytes, data: bytes) -> Bound:
        return _into(ctypes.create_string_buffer(len(data) + 16), "crypto_secretbox_easy", f,
                     data, len(data), nonce, key)

    return Boxer(bind)


PEER = Peer("libsodium", "ctypes", _load_sodium, (
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
))
