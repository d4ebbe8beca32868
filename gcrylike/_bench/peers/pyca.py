"""The pyca/cryptography peer (OpenSSL, through its own binding): ChaCha20
(OpenSSL has no Salsa20), Poly1305 and ChaCha20Poly1305."""

from __future__ import annotations

import ctypes
import functools
import importlib
from collections.abc import Callable
from typing import Any

from .base import AEAD, MAC, STREAM, Bound, Crypter, Offer, Peer, PeerUnavailable, Sealer, Tagger


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


def _same_memory(a: Any, b: Any) -> bool:
    """Whether two buffers start at the same address (two views of one
    buffer are two objects); a read-only or empty one is not the writable
    output's memory unless it is the same object."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(a)) == \
            ctypes.addressof(ctypes.c_char.from_buffer(b))
    except (TypeError, ValueError):
        return a is b


def _cryptography_chacha20(mods: Any, key: bytes, nonce: bytes) -> Crypter:
    cipher_cls, algorithms = mods
    # OpenSSL's 16-byte ChaCha20 "nonce" is state words 12..15: counter then nonce
    # (libgcrypt's 16-byte IV).  A 12-byte nonce gets a zero 4-byte counter in
    # front, an 8-byte (original) one a zero 8-byte counter.
    iv16 = bytes(16 - len(nonce)) + nonce
    cipher = cipher_cls(algorithms.ChaCha20(key, iv16), mode=None)
    ctx = cipher.encryptor()  # a stream cipher: decryption is the same XOR

    # cryptography 51 refuses update_into() with overlapping buffers, so an
    # in-place request goes through a scratch buffer of its own: copied back
    # for a real call, left there for a timed one (its row then measures
    # out-of-place, the nearest it offers).
    def call(src: Any, dst: Any) -> None:
        if _same_memory(src, dst):
            scratch = bytearray(len(memoryview(src).cast("B")))
            ctx.update_into(src, scratch)
            memoryview(dst).cast("B")[:] = scratch
        else:
            ctx.update_into(src, dst)

    def bind(src: Any, dst: Any, decrypt: bool) -> Callable[[], Any]:
        if _same_memory(src, dst):
            dst = bytearray(len(memoryview(src).cast("B")))
        return functools.partial(ctx.update_into, src, dst)

    def fresh(data: bytes) -> Callable[[], bytes]:
        return functools.partial(ctx.update, data)

    return Crypter(call, None, bind, fresh=fresh)


PEER = Peer("cryptography", "its own OpenSSL binding", _load_cryptography, (
    Offer("CHACHA20", STREAM, (32,), (8, 12, 16), _cryptography_chacha20, "ChaCha20"),
    Offer("ADIANTUM(XCHACHA12,AES)", STREAM, (32,), (16,), _cryptography_chacha20,
          "plain ChaCha20, the same messages", reference="CHACHA20"),
    Offer("ADIANTUM(XCHACHA20,AES)", STREAM, (32,), (16,), _cryptography_chacha20,
          "plain ChaCha20, the same messages", reference="CHACHA20"),
    Offer("POLY1305", MAC, (32,), (), _cryptography_poly1305, "Poly1305.generate_tag"),
    Offer("CHACHA20-POLY1305", AEAD, (32,), (12,), _cryptography_aead,
          "ChaCha20Poly1305.encrypt"),
))
