"""Peer targets: a peer library's offer (:mod:`.peers`) as a :class:`Target`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import peers
from .ours import ONE_SHOT_LABEL
from .targets import NONCE, PEER, SECTOR_POINTS, SECTOR_SIZES, Buffers, Target, key_for


def peer_target(spec: Any, peer: peers.Peer, offer: peers.Offer,
                 bufs: Buffers) -> Target:
    key = key_for(set(spec.key_sizes) & set(offer.key_sizes) or offer.key_sizes)
    version = peer.version
    title = f"{peer.name} {version} (peer, {peer.via}: {offer.label})"
    driver = f"peer {peer.name} {version.split(',')[0]} via {peer.via}"
    if offer.kind == peers.MAC:
        tagger = peer.tagger(spec.name, key)
        label = "MAC" if offer.api == peers.HANDLE else ONE_SHOT_LABEL["mac"]
        return Target(title, driver, {label: lambda n: tagger.bind(bufs.data(n))},
                      tagger.close, PEER, 8 * len(key), api=offer.api)

    if offer.reference:
        # a reference point, not the same algorithm: plain stream encryption
        nonce = NONCE[:offer.nonce_sizes[0]]
        crypter = peer.crypter(offer.reference, key, nonce)
        title = f"{peer.name} {version} (reference, {peer.via}: {offer.label})"

        def ref(n: int) -> Callable[[], Any]:
            return crypter.bind(bufs[n], bufs[n], False)

        return Target(title, driver, {"STREAM enc": ref}, crypter.close, PEER, 8 * len(key),
                      tcrypt=(("STREAM enc", "encryption"),), tcrypt_sizes=SECTOR_SIZES,
                      points=SECTOR_POINTS)
    nonce_size = peers.common_nonce_size(spec.iv_sizes, offer)
    if nonce_size is None:
        raise ValueError(f"no nonce size in common (ours {spec.iv_sizes}, "
                         f"{peer.name} {offer.nonce_sizes})")
    nonce = NONCE[:nonce_size]
    if offer.kind == peers.SECRETBOX:
        boxer = peer.boxer(spec.name, key)
        return Target(title, driver,
                      {"SECRETBOX enc": lambda n: boxer.bind(nonce, bufs.data(n))},
                      boxer.close, PEER, 8 * len(key),
                      tcrypt=(("SECRETBOX enc", "encryption"),), api=offer.api)
    if offer.kind == peers.AEAD:
        sealer = peer.sealer(spec.name, key)
        label = (f"{spec.mode.upper()} enc" if offer.api == peers.HANDLE
                 else ONE_SHOT_LABEL["aead"])
        return Target(title, driver, {label: lambda n: sealer.bind(nonce, bufs.data(n), b"")},
                      sealer.close, PEER, 8 * len(key), tcrypt=((label, "encryption"),),
                      api=offer.api)

    crypter = peer.crypter(spec.name, key, nonce)
    mode = "STREAM" if spec.block_size == 1 else "BLOCK"

    def enc(n: int) -> Callable[[], Any]:
        return crypter.bind(bufs[n], bufs[n], False)

    def dec(n: int) -> Callable[[], Any]:
        return crypter.bind(bufs[n], bufs[n], True)

    bind_fresh = crypter.fresh
    return Target(title, driver, {f"{mode} enc": enc, f"{mode} dec": dec}, crypter.close, PEER,
                  8 * len(key), tcrypt=((f"{mode} enc", "encryption"),),
                  fresh=None if bind_fresh is None else lambda n: bind_fresh(bufs.data(n)),
                  apart=lambda n: crypter.bind(bufs.data(n), bufs.scratch(n), False))
