"""Peer libraries that ``gcrylike bench --peers`` measures against ours.

One module per library (:mod:`.pycryptodome`, :mod:`.libsodium`,
:mod:`.pynacl`, :mod:`.libgcrypt`, :mod:`.pyca` for pyca/cryptography), each
defining its ``PEER``; :mod:`.base` holds the adapter kinds.

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

Adding an algorithm for a peer is adding one row to that peer's ``PEER``
offers; adding a peer is adding a module and listing it in :data:`PEERS`.

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

from . import libgcrypt, libsodium, pyca, pycryptodome, pynacl
from .base import (
    AEAD,
    HANDLE,
    MAC,
    ONE_SHOT,
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

__all__ = ["AEAD", "HANDLE", "MAC", "ONE_SHOT", "SECRETBOX", "STREAM", "Boxer", "Bound",
           "Crypter", "Factory", "Offer", "Peer", "PeerUnavailable", "Sealer", "Tagger",
           "PEERS", "peers_for", "common_nonce_size"]

#: Every peer the bench knows, in the order of its rows.
PEERS: tuple[Peer, ...] = (pycryptodome.PEER, libsodium.PEER, pynacl.PEER, libgcrypt.PEER,
                           pyca.PEER)


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
