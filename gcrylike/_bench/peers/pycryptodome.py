"""The pycryptodome peer, through its own C binding: Crypto.Cipher.Salsa20,
ChaCha20 and ChaCha20_Poly1305, Crypto.Hash.Poly1305."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from .base import (
    AEAD,
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


def _load_pycryptodome() -> tuple[Any, str]:
    # the package only: each offer checks its own module (Offer.check), so a
    # missing piece is reported under the algorithms that need it
    for pkg in ("Crypto", "Cryptodome"):  # pycryptodome, or pycryptodomex
        try:
            importlib.import_module(f"{pkg}.Cipher")
        except ImportError:
            continue
        root = importlib.import_module(pkg)
        return root, getattr(root, "__version__", "?")
    raise PeerUnavailable("not installed (no module Crypto.Cipher or Cryptodome.Cipher)")


def _pycryptodome_module(root: Any, name: str) -> Any:
    try:
        return importlib.import_module(f"{root.__name__}.{name}")
    except ImportError as exc:
        raise PeerUnavailable(f"this pycryptodome has no {name} ({exc})") from exc


def _needs(name: str) -> Callable[[Any], None]:
    """An Offer.check: the installed pycryptodome has module ``name``."""
    def check(root: Any) -> None:
        _pycryptodome_module(root, name)

    return check


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


PEER = Peer("pycryptodome", "its own C binding", _load_pycryptodome, (
    # pycryptodome's Salsa20 is 20 rounds only: no SALSA20R12.
    Offer("SALSA20", STREAM, (16, 32), (8,), _pycryptodome("Salsa20"), "Salsa20",
          check=_needs("Cipher.Salsa20")),
    Offer("CHACHA20", STREAM, (32,), (8, 12), _pycryptodome("ChaCha20"), "ChaCha20",
          check=_needs("Cipher.ChaCha20")),
    Offer("XCHACHA20", STREAM, (32,), (24,), _pycryptodome("ChaCha20"), "ChaCha20",
          check=_needs("Cipher.ChaCha20")),
    Offer("POLY1305", MAC, (32,), (), _pycryptodome_poly1305,
          "Hash.Poly1305.Poly1305_MAC(r, s, data).digest()", check=_needs("Hash.Poly1305")),
    Offer("CHACHA20-POLY1305", AEAD, (32,), (12,), _pycryptodome_aead,
          "ChaCha20_Poly1305.new().encrypt_and_digest()",
          check=_needs("Cipher.ChaCha20_Poly1305")),
    Offer("XCHACHA20-POLY1305", AEAD, (32,), (24,), _pycryptodome_aead,
          "ChaCha20_Poly1305.new().encrypt_and_digest()",
          check=_needs("Cipher.ChaCha20_Poly1305")),
))
