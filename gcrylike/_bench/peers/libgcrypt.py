"""The libgcrypt peer, via ctypes: gcry_cipher_* (stream mode and
GCRY_CIPHER_MODE_POLY1305) and gcry_mac_* (GCRY_MAC_POLY1305)."""

from __future__ import annotations

import ctypes
import functools
import weakref
from collections.abc import Callable
from typing import Any

from .base import (
    AEAD,
    HANDLE,
    MAC,
    STREAM,
    Bound,
    Crypter,
    Factory,
    Offer,
    Peer,
    PeerUnavailable,
    Sealer,
    Tagger,
)
from .cdll import buffer_address, c_function, find_library

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
        self.open = c_function(lib, "gcry_cipher_open", err, ctypes.POINTER(vp), ctypes.c_int,
                        ctypes.c_int, ctypes.c_uint)
        self.close = c_function(lib, "gcry_cipher_close", None, vp)
        self.setkey = c_function(lib, "gcry_cipher_setkey", err, vp, ctypes.c_char_p, sz)
        self.setiv = c_function(lib, "gcry_cipher_setiv", err, vp, ctypes.c_char_p, sz)
        self.encrypt = c_function(lib, "gcry_cipher_encrypt", err, vp, vp, sz, vp, sz)
        self.decrypt = c_function(lib, "gcry_cipher_decrypt", err, vp, vp, sz, vp, sz)
        self.authenticate = c_function(lib, "gcry_cipher_authenticate", err, vp, vp, sz)
        self.gettag = c_function(lib, "gcry_cipher_gettag", err, vp, vp, sz)
        self.strerror = c_function(lib, "gcry_strerror", ctypes.c_char_p, err)
        # gcry_mac_*: the handle is opaque (gcry_mac_hd_t), like gcry_cipher_hd_t.
        self.mac_open = c_function(lib, "gcry_mac_open", err, ctypes.POINTER(vp), ctypes.c_int,
                            ctypes.c_uint, vp)
        self.mac_close = c_function(lib, "gcry_mac_close", None, vp)
        self.mac_setkey = c_function(lib, "gcry_mac_setkey", err, vp, ctypes.c_char_p, sz)
        self.mac_ctl = c_function(lib, "gcry_mac_ctl", err, vp, ctypes.c_int, vp, sz)
        self.mac_write = c_function(lib, "gcry_mac_write", err, vp, vp, sz)
        self.mac_read = c_function(lib, "gcry_mac_read", err, vp, vp, ctypes.POINTER(sz))

    def check(self, rc: int, what: str) -> None:
        if rc:
            raise RuntimeError(f"{what}: {(self.strerror(rc) or b'?').decode()} ({rc})")

    def set_up(self, h: ctypes.c_void_p, close: Callable[[Any], None],
               steps: tuple[tuple[Callable[..., int], bytes, str], ...]) -> weakref.finalize:
        """Run each step ``fn(h, value, len(value))`` (checked, ``what`` naming it)
        on the opened handle ``h``, and return the finalizer that closes it when
        its last user goes; a failing step closes it at once."""
        # The finalizer must not hold h itself.
        closer = weakref.finalize(h, close, h.value)
        try:
            for fn, value, what in steps:
                self.check(fn(h, value, len(value)), what)
        except Exception:
            closer()
            raise
        return closer


def _load_gcrypt() -> tuple[Any, str]:
    lib = find_library(("libgcrypt.so.20", "libgcrypt.so"), "gcrypt")
    check_version = c_function(lib, "gcry_check_version", ctypes.c_char_p, ctypes.c_char_p)
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
        closer = g.set_up(h, g.close, ((g.setkey, key, "gcry_cipher_setkey"),
                                       (g.setiv, nonce, "gcry_cipher_setiv")))

        def run(fn: Any, src: Any, dst: Any) -> None:
            d, _kd = buffer_address(dst, True)
            s, _ks = buffer_address(src, False)
            n = memoryview(src).nbytes
            g.check(fn(h, d, n, s, n), "gcry_cipher_crypt")

        def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
            d, kd = buffer_address(dst, True)
            s, ks = buffer_address(src, False)
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
    closer = g.set_up(h, g.mac_close, ((g.mac_setkey, key, "gcry_mac_setkey"),))
    ctl, write, read_tag = g.mac_ctl, g.mac_write, g.mac_read

    def bind(data: bytes) -> Bound:
        d, keep = buffer_address(data, False)
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
    closer = g.set_up(h, g.close, ((g.setkey, key, "gcry_cipher_setkey"),))
    setiv, auth, enc, gettag = g.setiv, g.authenticate, g.encrypt, g.gettag

    def bind(nonce: bytes, data: bytes, aad: bytes) -> Bound:
        d, keep = buffer_address(data, False)
        a, keep_a = buffer_address(aad, False)
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


PEER = Peer("libgcrypt", "ctypes", _load_gcrypt, (
    Offer("SALSA20", STREAM, (16, 32), (8,), _gcrypt(313), "GCRY_CIPHER_SALSA20"),
    Offer("SALSA20R12", STREAM, (16, 32), (8,), _gcrypt(314), "GCRY_CIPHER_SALSA20R12"),
    Offer("CHACHA20", STREAM, (32,), (8, 12, 16), _gcrypt(316), "GCRY_CIPHER_CHACHA20"),
    Offer("POLY1305", MAC, (32,), (), _gcrypt_poly1305,
          "GCRY_MAC_POLY1305: reset, write, read", api=HANDLE),
    Offer("CHACHA20-POLY1305", AEAD, (32,), (12,), _gcrypt_aead,
          "GCRY_CIPHER_MODE_POLY1305: setiv, encrypt, gettag", api=HANDLE),
))
