"""The PyNaCl peer: nacl.secret.SecretBox, its own cffi binding of a bundled
libsodium."""

from __future__ import annotations

import functools
from typing import Any

from .base import SECRETBOX, Bound, Boxer, Offer, Peer, PeerUnavailable


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


PEER = Peer("PyNaCl", "its own cffi binding", _load_pynacl, (
    Offer("XSALSA20-POLY1305", SECRETBOX, (32,), (24,), _pynacl_secretbox,
          "secret.SecretBox(key).encrypt(data, nonce).ciphertext"),
))
