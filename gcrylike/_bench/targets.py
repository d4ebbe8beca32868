"""What gets measured: a :class:`Target` (one of our drivers, our one-shot
API, or a peer library) behind one interface, its :class:`Result`, and the
buffers every target works on."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import peers
from .fit import CallCost, Fit

#: Where ``--peers`` compares directly measured time per call.
POINT_SIZES = (64, 1024, 8192, 65536)
#: The block sizes of the kernel's tcrypt cipher (and AEAD) speed test.
TCRYPT_SIZES = (16, 64, 256, 1024, 8192)
#: Storage sizes: the tcrypt lines and ratios of tweakable (sector) ciphers.
SECTOR_SIZES = (16, 64, 256, 512, 1024, 4096, 8192)
SECTOR_POINTS = (512, 4096)

KEY = bytes(range(0x01, 0x41))
NONCE = bytes(range(0x40, 0x60))


#: ``bind(nbytes) -> call``: a zero-argument callable doing one measured
#: operation on ``nbytes`` bytes of data.
Binder = Callable[[int], Callable[[], Any]]

#: Target roles: one of our drivers, our one-shot API (the yardstick of
#: one-shot peers), a peer library.
IMPL, ONE_SHOT, PEER = "impl", "one-shot", "peer"


@dataclass
class Target:
    """One row group: an implementation of ours, our one-shot API or a peer."""

    title: str  #: group line of the slope table
    driver: str  #: name inside "testing speed of ALGO (DRIVER)"
    #: row label -> binder, in print order.  The first is the main operation:
    #: the best implementation is picked by it and peers are compared on it.
    ops: dict[str, Binder]
    close: Callable[[], None]
    role: str
    key_bits: int
    #: tcrypt sections: (row label, the kernel's word: "encryption", "decryption")
    tcrypt: tuple[tuple[str, str], ...] = ()
    #: MACs: ``split(block, per_update)`` -> one digest of ``block`` bytes fed
    #: in ``per_update``-byte updates (tcrypt's hash lines); None: whole only
    split: Callable[[int, int], Callable[[], Any]] | None = None
    #: Which of our APIs does the same work per call (``peers.HANDLE`` or
    #: ``peers.ONE_SHOT``): peers are compared with that one.
    api: str = peers.HANDLE
    #: Message sizes of the tcrypt lines and of the ours/peer ratios.
    tcrypt_sizes: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    #: Stream ciphers: the main operation as bytes in, a new bytes object out
    #: (ours ``encrypt(data)``, a peer's ``update(data)``), for a second
    #: comparison beside the in-place one; None where the API has no such call.
    fresh: Binder | None = None
    #: Stream ciphers: the main operation from a ``bytes`` object into a
    #: separate preallocated buffer (ours ``encrypt(data, out=buf)``, a peer's
    #: ``update_into(data, buf)``), a third comparison; None where not offered.
    apart: Binder | None = None
    #: Ours: how the handle's data calls reach native code ("fastcall",
    #: "cffi": ``gcrylike.data_path(handle)``); "" for peers.
    path: str = ""

    def __post_init__(self) -> None:
        self.tcrypt_sizes = self.tcrypt_sizes or TCRYPT_SIZES
        self.points = self.points or POINT_SIZES

    @property
    def ours(self) -> bool:
        return self.role != PEER

    @property
    def main(self) -> str:
        return next(iter(self.ops))

    def bind(self, n: int, label: str | None = None) -> Callable[[], Any]:
        return self.ops[label or self.main](n)


@dataclass
class Result:
    target: Target
    #: row label -> the slope fit
    fits: dict[str, Fit]
    #: row label -> {size: ns per call}, the points the fit went through
    points: dict[str, dict[int, float]] = field(default_factory=dict)
    #: row label -> the fixed cost per call shown as "call ns"
    calls: dict[str, CallCost] = field(default_factory=dict)

    @property
    def main(self) -> Fit:
        return self.fits[self.target.main]


class Buffers:
    """The data every target works on: one preallocated buffer (worked on
    in place), ``bytes`` copies of its prefixes (for calls that take bytes:
    MAC updates, one-shot AEADs) and a scratch buffer for out-of-place output."""

    def __init__(self, size: int) -> None:
        self.buf = bytearray(os.urandom(min(size, 4096)) * (size // 4096 + 1))[:size]
        self.view = memoryview(self.buf)
        self._scratch = memoryview(bytearray(size))
        self._bytes: dict[int, bytes] = {}

    def __getitem__(self, n: int) -> memoryview:
        return self.view[:n]

    def data(self, n: int) -> bytes:
        b = self._bytes.get(n)
        if b is None:
            b = self._bytes[n] = bytes(self.view[:n])
        return b

    def scratch(self, n: int) -> memoryview:
        return self._scratch[:n]


def key_for(sizes: Iterable[int]) -> bytes:
    sizes = tuple(sizes)
    n = 32 if 32 in sizes else max(sizes)
    return (KEY * (n // len(KEY) + 1))[:n]


def keyed(handle: Any, key: bytes, nonce: bytes | None = None) -> Any:
    """``handle`` with ``key`` (and ``nonce``) installed; closed on failure."""
    try:
        handle.setkey(key)
        if nonce is not None:
            handle.setiv(nonce)
    except BaseException:
        handle.close()
        raise
    return handle


def in_place(method: Callable[..., Any], view: Any, *args: Any) -> Callable[[], Any]:
    """``method(view, *args, out=view)`` as a zero-argument call.  A closure,
    not functools.partial: a partial with keyword arguments builds a dict on
    every call (docs/usage.rst, "Cost per call"), a cost the peers' bound
    calls do not pay."""
    if args:
        (extra,) = args
        return lambda: method(view, extra, out=view)
    return lambda: method(view, out=view)
