"""``gcrylike bench``: throughput per implementation, the libgcrypt way.

The default view is libgcrypt's bench-slope: for each buffer size the time
of one call is the median of several timed batches, and a least-squares line
``time = call + bytes * slope`` through those medians separates the per-byte
cost (``slope``, reported as ns/B, MiB/s and c/B) from the fixed cost of a
call (``call``, the intercept), which dominates short messages.  Times are
this thread's CPU time by default (``--clock wall`` for elapsed time), so
other processes on a shared machine do not land in the numbers.

What one call is depends on the kind of algorithm, as in bench-slope:

* stream ciphers: ``encrypt``/``decrypt`` in place on a preallocated buffer
  ("STREAM enc"/"STREAM dec"); raw block ciphers: ``encrypt_blocks`` likewise
  ("ECB enc"/"ECB dec");
* MACs: one message on a keyed handle, ``reset(); update(data); digest()``
  ("MAC", bench-slope's ``gcry_mac_reset``/``write``/``read``);
* AEADs: one message on a keyed handle, ``setiv`` + ``encrypt`` + ``gettag``,
  ``setiv`` + ``decrypt`` + ``checktag``, ``setiv`` + ``authenticate`` +
  ``gettag`` ("POLY1305 enc"/"dec"/"auth", bench-slope's POLY1305 mode rows);
* the NaCl secretbox: one box per call, ``SecretBox(key).encrypt(nonce,
  data)`` and ``decrypt(nonce, box)`` ("SECRETBOX enc"/"dec"); these rows are
  our one-shot API itself, so its peers are compared with them directly.

``--format tcrypt`` prints the Linux kernel's tcrypt view instead (operations
per fixed time at fixed block sizes; for MACs the kernel's hash lines with
their bytes-per-update splits), and ``--peers`` adds other installed
libraries (:mod:`gcrylike._peers`) in the same format, each compared with the
API of ours that does the same work (for MACs and AEADs: our one-shot
``gcrylike.mac`` / ``ChaCha20Poly1305.encrypt``, shown as its own
"ours one-shot" row).

Not a public API; :func:`add_arguments` and :func:`run_bench` are what the
command line calls.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import gcrylike

from . import _peers, _registry
from ._secretbox import ALGORITHM as _SECRETBOX

#: Buffer sizes of the default slope fit: 1 KiB to 16 KiB in 1 KiB steps.
DEFAULT_SIZES = tuple(range(1024, 16 * 1024 + 1, 1024))
QUICK_SIZES = (1024, 4096, 16384)
#: Where ``--peers`` compares directly measured time per call.
POINT_SIZES = (64, 1024, 8192, 65536)
#: The block sizes of the kernel's tcrypt cipher (and AEAD) speed test.
TCRYPT_SIZES = (16, 64, 256, 1024, 8192)
#: The kernel's tcrypt ``poly1305_speed_template``: (bytes per message, bytes
#: per update); used for every MAC.
TCRYPT_MAC_TEMPLATE = ((96, 16), (96, 32), (96, 96), (288, 16), (288, 32), (288, 288),
                       (1056, 32), (1056, 1056), (2080, 32), (2080, 2080), (4128, 4128),
                       (8224, 8224))

#: A fit with r^2 below this gets a "noisy" mark on its row.
NOISY_R2 = 0.99

_KEY = bytes(range(0x01, 0x41))
_NONCE = bytes(range(0x40, 0x60))

_print = functools.partial(print, flush=True)

# ---------------------------------------------------------------------------
# The slope fit
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """``time = intercept + slope * bytes`` by least squares."""

    slope: float  #: ns per byte
    intercept: float  #: ns per call
    r2: float  #: coefficient of determination (1.0: every point on the line)


def fit_slope(xs: Sequence[float], ys: Sequence[float]) -> Fit:
    """Ordinary least-squares line through ``(xs[i], ys[i])``."""
    n = len(xs)
    if n != len(ys):
        raise ValueError("xs and ys differ in length")
    if n < 2:
        raise ValueError("a slope needs at least two points")
    mx = sum(xs) / n
    my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a slope needs at least two distinct sizes")
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    slope = sxy / sxx
    intercept = my - slope * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return Fit(slope, intercept, r2)


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


#: Clocks for ``--clock``: this thread's CPU time leaves out the time other
#: processes had the CPU (the main noise on a shared machine); wall is elapsed time.
CLOCKS: dict[str, Callable[[], int]] = {
    "cpu": getattr(time, "thread_time_ns", time.process_time_ns),
    "wall": time.perf_counter_ns,
}

NsTimer = Callable[[], int]


def _run(fn: Callable[[], Any], n: int, clock: NsTimer = time.perf_counter_ns) -> int:
    """Nanoseconds for ``n`` calls of ``fn`` (the loop's own cost included)."""
    t0 = clock()
    for _ in repeat(None, n):
        fn()
    return clock() - t0


def _calibrate(fn: Callable[[], Any], batch_ns: float,
               clock: NsTimer = time.perf_counter_ns) -> int:
    """How many calls of ``fn`` take about ``batch_ns`` (also warms it up)."""
    n = 1
    while True:
        t = _run(fn, n, clock)
        if t * 4 >= batch_ns or n >= 1 << 24:
            return max(1, round(n * batch_ns / max(t, 1)))
        n *= 4


class _NoGC:
    """Keep the cyclic garbage collector out of the timed loops."""

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was:
            gc.enable()


def time_per_call(fns: dict[Any, Callable[[], Any]], repeats: int, batch_ns: float,
                  stat: Callable[[list[float]], float] = statistics.median,
                  clock: NsTimer = time.perf_counter_ns) -> dict[Any, float]:
    """Median (or ``stat``) ns per call for each ``key -> fn`` (key: a size,
    or anything naming the case).

    Every case gets ``repeats`` batches of about ``batch_ns``; the cases
    take turns, so a drift of the clock or a noisy neighbour touches all of
    them alike.
    """
    with _NoGC():
        counts = {s: _calibrate(f, batch_ns, clock) for s, f in fns.items()}
        samples: dict[Any, list[float]] = {s: [] for s in fns}
        for _ in range(repeats):
            for s, f in fns.items():
                samples[s].append(_run(f, counts[s], clock) / counts[s])
    return {s: stat(v) for s, v in samples.items()}


def count_for(fn: Callable[[], Any], seconds: float,
              clock: NsTimer = time.perf_counter_ns) -> tuple[int, float]:
    """tcrypt style: calls of ``fn`` done in (just over) ``seconds``;
    returns (calls, elapsed seconds).  The clock is read every ~1 ms."""
    with _NoGC():
        batch = _calibrate(fn, min(1e6, seconds * 1e9 / 10), clock)
        ops = 0
        t0 = clock()
        limit = seconds * 1e9
        while True:
            for _ in repeat(None, batch):
                fn()
            ops += batch
            elapsed = clock() - t0
            if elapsed >= limit:
                return ops, elapsed / 1e9


# ---------------------------------------------------------------------------
# The CPU clock, for cycles/byte
# ---------------------------------------------------------------------------


def _cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return [0]


def sysfs_max_mhz() -> tuple[float, str] | None:
    """cpufreq's scaling_max_freq (kHz) of a CPU we may run on."""
    for cpu in dict.fromkeys([*_cpus()[:1], 0]):
        path = f"/sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_max_freq"
        try:
            with open(path) as f:
                khz = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if khz > 0:
            return khz / 1000.0, path
    return None


def cpuinfo_mhz(text: str | None = None) -> float | None:
    """Highest "cpu MHz" in /proc/cpuinfo among the CPUs we may run on."""
    if text is None:
        try:
            with open("/proc/cpuinfo") as f:
                text = f.read()
        except OSError:
            return None
    allowed = set(_cpus())
    cpu: int | None = None
    values = []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        try:
            if key == "processor":
                cpu = int(value)
            elif key == "cpu MHz" and (cpu is None or cpu in allowed):
                values.append(float(value))
        except ValueError:
            continue
    return max(values) if values else None


def measure_tsc_mhz(duration_ns: int = 20_000_000) -> float | None:
    """Rate of the time-stamp counter (rdtsc via ``gcry_cycles``) in MHz."""
    try:
        from ._core import lib
    except ImportError:
        return None
    cycles = lib.gcry_cycles
    if not cycles():
        return None  # not x86: no TSC
    t0, c0 = time.perf_counter_ns(), cycles()
    while time.perf_counter_ns() - t0 < duration_ns:
        pass
    t1, c1 = time.perf_counter_ns(), cycles()
    return (c1 - c0) * 1000.0 / max(t1 - t0, 1)


@dataclass
class Clock:
    """The core clock used for cycles/byte, and where it came from."""

    mhz: float | None
    source: str
    #: True when estimated here (shown in the "auto Mhz" column).
    auto: bool
    #: Re-read after each row (``/proc/cpuinfo`` shows the current clock).
    reread: Callable[[], float | None] | None = None
    tsc_mhz: float | None = None

    def reading(self) -> float | None:
        if self.reread is not None:
            value = self.reread()
            if value:
                self.mhz = value
        return self.mhz


def estimate_mhz() -> float | None:
    """The core clock from a timed chain of one-cycle adds (bench-slope's
    "auto"), or None where the core extension has no such loop."""
    from ._core import lib

    mhz = lib.gcry_estimate_mhz()
    return mhz if mhz > 0 else None


def detect_clock(cpu_mhz: float | None) -> Clock:
    tsc = measure_tsc_mhz()
    if cpu_mhz:
        return Clock(cpu_mhz, "--cpu-mhz", auto=False, tsc_mhz=tsc)
    mhz = estimate_mhz()
    if mhz:
        return Clock(mhz, "a timed chain of dependent one-cycle adds (re-estimated after "
                     "each row)", auto=True, reread=estimate_mhz, tsc_mhz=tsc)
    found = sysfs_max_mhz()
    if found:
        return Clock(found[0], f"{found[1]} (the highest clock cpufreq allows)", auto=True,
                     tsc_mhz=tsc)
    mhz = cpuinfo_mhz()
    if mhz:
        return Clock(mhz, '/proc/cpuinfo "cpu MHz" (read after each row)', auto=True,
                     reread=cpuinfo_mhz, tsc_mhz=tsc)
    return Clock(None, "none (no cpufreq, no /proc/cpuinfo)", auto=False, tsc_mhz=tsc)


# ---------------------------------------------------------------------------
# What gets measured: our handles and the peers, behind one interface
# ---------------------------------------------------------------------------

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
    #: Which of our APIs does the same work per call (``_peers.HANDLE`` or
    #: ``_peers.ONE_SHOT``): peers are compared with that one.
    api: str = _peers.HANDLE
    #: Message sizes of the tcrypt lines and of the ours/peer ratios.
    tcrypt_sizes: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    #: Stream ciphers: the main operation as bytes in, a new bytes object out
    #: (ours ``encrypt(data)``, a peer's ``update(data)``), for a second
    #: comparison beside the in-place one; None where the API has no such call.
    fresh: Binder | None = None

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
    fits: dict[str, Fit]

    @property
    def main(self) -> Fit:
        return self.fits[self.target.main]


class _Buffers:
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


def _key_for(sizes: Iterable[int]) -> bytes:
    sizes = tuple(sizes)
    n = 32 if 32 in sizes else max(sizes)
    return (_KEY * (n // len(_KEY) + 1))[:n]


def _keyed(handle: Any, key: bytes, nonce: bytes | None = None) -> Any:
    """``handle`` with ``key`` (and ``nonce``) installed; closed on failure."""
    try:
        handle.setkey(key)
        if nonce is not None:
            handle.setiv(nonce)
    except BaseException:
        handle.close()
        raise
    return handle


def _in_place(method: Callable[..., Any], view: Any, *args: Any) -> Callable[[], Any]:
    """``method(view, *args, out=view)`` as a zero-argument call.  A closure,
    not functools.partial: a partial with keyword arguments builds a dict on
    every call (~0.2 us here), a cost the peers' bound calls do not pay."""
    if args:
        (extra,) = args
        return lambda: method(view, extra, out=view)
    return lambda: method(view, out=view)


def _stream_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    key = _key_for(spec.key_sizes)
    h = _keyed(gcrylike.cipher_open(spec.name, impl=driver), key,
               _NONCE[:spec.iv_sizes[0]] if spec.needs_iv else None)
    mode = "STREAM" if spec.block_size == 1 else "BLOCK"

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[n]
        return _in_place(h.encrypt, v)

    def dec(n: int) -> Callable[[], Any]:
        v = bufs[n]
        return _in_place(h.decrypt, v)

    def fresh(n: int) -> Callable[[], Any]:
        return functools.partial(h.encrypt, bufs.data(n))

    return Target(f"{driver} (ours)", driver, {f"{mode} enc": enc, f"{mode} dec": dec},
                  h.close, IMPL, 8 * len(key), tcrypt=((f"{mode} enc", "encryption"),),
                  fresh=fresh)


def _block_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    """The raw block cipher over many blocks: bench-slope's ECB rows."""
    key = _key_for(spec.key_sizes)
    h = _keyed(gcrylike.block_cipher_open(spec.name, impl=driver), key)

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[n - n % spec.block_size]
        return _in_place(h.encrypt_blocks, v)

    def dec(n: int) -> Callable[[], Any]:
        v = bufs[n - n % spec.block_size]
        return _in_place(h.decrypt_blocks, v)

    return Target(f"{driver} (ours)", driver, {"ECB enc": enc, "ECB dec": dec}, h.close,
                  IMPL, 8 * len(key), tcrypt=(("ECB enc", "encryption"),))


def _mac_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    """One message per call on a keyed handle: reset, update, digest."""
    key = _key_for(spec.key_sizes)
    h = _keyed(gcrylike.mac_open(spec.name, impl=driver), key)
    reset, update, digest = h.reset, h.update, h.digest

    def split(block: int, per_update: int) -> Callable[[], Any]:
        data = bufs.data(block)
        chunks = [data[i:i + per_update] for i in range(0, block, per_update)]
        if len(chunks) == 1:
            (whole,) = chunks

            def call() -> bytes:
                reset()
                update(whole)
                return digest()
        else:
            def call() -> bytes:
                reset()
                for chunk in chunks:
                    update(chunk)
                return digest()

        return call

    return Target(f"{driver} (ours)", driver, {"MAC": lambda n: split(n, n)}, h.close, IMPL,
                  8 * len(key), split=split)


def _aead_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    """One message per call on a keyed AeadHandle (bench-slope's POLY1305 rows)."""
    key = _key_for(spec.key_sizes)
    nonce = _NONCE[:spec.iv_sizes[0]]
    h = _keyed(gcrylike.cipher_open(spec.cipher, impl=driver, mode=spec.mode), key)
    setiv, gettag, checktag = h.setiv, h.gettag, h.checktag
    encrypt, decrypt, authenticate = h.encrypt, h.decrypt, h.authenticate
    mode = spec.mode.upper()

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[n]

        def call() -> bytes:
            setiv(nonce)
            encrypt(v, out=v)
            return gettag()

        return call

    def dec(n: int) -> Callable[[], Any]:
        # Out of place, so the ciphertext and its (valid) tag stay fixed and
        # checktag really verifies; bench-slope decrypts in place and ignores
        # the checksum error instead.
        src, dst = bufs.data(n), bufs.scratch(n)
        setiv(nonce)
        decrypt(src, out=dst)
        tag = gettag()

        def call() -> None:
            setiv(nonce)
            decrypt(src, out=dst)
            checktag(tag)

        return call

    def auth(n: int) -> Callable[[], Any]:
        aad = bufs.data(n)

        def call() -> bytes:
            setiv(nonce)
            authenticate(aad)
            return gettag()

        return call

    return Target(f"{driver} (ours)", driver,
                  {f"{mode} enc": enc, f"{mode} dec": dec, f"{mode} auth": auth}, h.close,
                  IMPL, 8 * len(key),
                  tcrypt=((f"{mode} enc", "encryption"), (f"{mode} dec", "decryption")))


def _secretbox_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    """One box per call on ``SecretBox(key, impl=driver)``: our one-shot
    API itself (one keyed object, bytes in, a new bytes box out), so the
    peers are compared with these rows (``api`` one-shot)."""
    key = _key_for(spec.key_sizes)
    nonce = _NONCE[:spec.iv_sizes[0]]
    box = gcrylike.SecretBox(key, impl=driver)
    encrypt, decrypt = box.encrypt, box.decrypt

    def enc(n: int) -> Callable[[], Any]:
        data = bufs.data(n)
        return lambda: encrypt(nonce, data)

    def dec(n: int) -> Callable[[], Any]:
        sealed = encrypt(nonce, bufs.data(n))  # a valid box, made once per size
        return lambda: decrypt(nonce, sealed)

    return Target(f"{driver} (ours: SecretBox(key).encrypt(nonce, data))", driver,
                  {"SECRETBOX enc": enc, "SECRETBOX dec": dec}, box.close, IMPL, 8 * len(key),
                  tcrypt=(("SECRETBOX enc", "encryption"), ("SECRETBOX dec", "decryption")),
                  api=_peers.ONE_SHOT)


#: Storage sizes: the tcrypt lines and ratios of tweakable (sector) ciphers.
SECTOR_SIZES = (16, 64, 256, 512, 1024, 4096, 8192)
SECTOR_POINTS = (512, 4096)
_TWEAK = bytes(range(32))


def _tweakable_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    """One sector per call, in place, with a 32-byte (plain64-sized) tweak."""
    key = _key_for(spec.key_sizes)
    h = _keyed(gcrylike.tweakable_open(spec.name, impl=driver), key)
    tweak = _TWEAK[:spec.max_tweak]

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[max(n, spec.min_length)]
        return _in_place(h.encrypt, v, tweak)

    def dec(n: int) -> Callable[[], Any]:
        v = bufs[max(n, spec.min_length)]
        return _in_place(h.decrypt, v, tweak)

    return Target(f"{driver} (ours)", driver, {"SECTOR enc": enc, "SECTOR dec": dec}, h.close,
                  IMPL, 8 * len(key),
                  tcrypt=(("SECTOR enc", "encryption"), ("SECTOR dec", "decryption")),
                  tcrypt_sizes=SECTOR_SIZES, points=SECTOR_POINTS)


#: Our per-driver target for each kind of spec the bench knows.
_OUR_TARGETS: dict[str, Callable[[Any, str, _Buffers], Target]] = {
    "cipher": _stream_target,
    "block": _block_target,
    "mac": _mac_target,
    "aead": _aead_target,
    "tweakable": _tweakable_target,
    "secretbox": _secretbox_target,
}

#: Row labels of one-shot calls (ours and peers').
_ONE_SHOT_LABEL = {"mac": "one-shot MAC", "aead": "one-shot enc"}


def _one_shot_aead_class(spec: Any) -> Any:
    known = {"CHACHA20-POLY1305": gcrylike.ChaCha20Poly1305,
             "XCHACHA20-POLY1305": gcrylike.XChaCha20Poly1305}
    cls = known.get(spec.name.upper())
    if cls is None:  # a plugin AEAD: the same one-shot machinery under its name
        from ._aead import _OneShotAead

        cls = type(f"OneShot_{spec.algo}", (_OneShotAead,),
                   {"__slots__": (), "_ALGORITHM": spec.name})
    return cls


def _one_shot_target(spec: Any, driver: str, bufs: _Buffers) -> Target:
    """Our one-shot API on ``driver``: the like-for-like yardstick of the
    peers' one-shot calls (key set up inside every call)."""
    key = _key_for(spec.key_sizes)
    label = _ONE_SHOT_LABEL[spec.kind]
    if spec.kind == "mac":
        mac = gcrylike.mac

        def bind(n: int) -> Callable[[], Any]:
            data = bufs.data(n)
            return lambda: mac(spec.name, key, data, impl=driver)

        api, close = "gcrylike.mac(name, key, data)", (lambda: None)
    else:
        cls = _one_shot_aead_class(spec)
        box = cls(key, impl=driver)
        nonce = _NONCE[:spec.iv_sizes[0]]

        def bind(n: int) -> Callable[[], Any]:
            return functools.partial(box.encrypt, nonce, bufs.data(n), b"")

        api, close = f"{cls.__name__}(key).encrypt(nonce, data, aad)", box.close
    return Target(f"{driver} (ours one-shot: {api})", f"{driver} one-shot", {label: bind},
                  close, ONE_SHOT, 8 * len(key), tcrypt=((label, "encryption"),),
                  api=_peers.ONE_SHOT)


def _peer_target(spec: Any, peer: _peers.Peer, offer: _peers.Offer,
                 bufs: _Buffers) -> Target:
    key = _key_for(set(spec.key_sizes) & set(offer.key_sizes) or offer.key_sizes)
    version = peer.version
    title = f"{peer.name} {version} (peer, {peer.via}: {offer.label})"
    driver = f"peer {peer.name} {version.split(',')[0]} via {peer.via}"
    if offer.kind == _peers.MAC:
        tagger = peer.tagger(spec.name, key)
        label = "MAC" if offer.api == _peers.HANDLE else _ONE_SHOT_LABEL["mac"]
        return Target(title, driver, {label: lambda n: tagger.bind(bufs.data(n))},
                      tagger.close, PEER, 8 * len(key), api=offer.api)

    if offer.reference:
        # a reference point, not the same algorithm: plain stream encryption
        nonce = _NONCE[:offer.nonce_sizes[0]]
        crypter = peer.crypter(offer.reference, key, nonce)
        title = f"{peer.name} {version} (reference, {peer.via}: {offer.label})"

        def ref(n: int) -> Callable[[], Any]:
            return crypter.bind(bufs[n], bufs[n], False)

        return Target(title, driver, {"STREAM enc": ref}, crypter.close, PEER, 8 * len(key),
                      tcrypt=(("STREAM enc", "encryption"),), tcrypt_sizes=SECTOR_SIZES,
                      points=SECTOR_POINTS)
    nonce_size = _peers.common_nonce_size(spec.iv_sizes, offer)
    if nonce_size is None:
        raise ValueError(f"no nonce size in common (ours {spec.iv_sizes}, "
                         f"{peer.name} {offer.nonce_sizes})")
    nonce = _NONCE[:nonce_size]
    if offer.kind == _peers.SECRETBOX:
        boxer = peer.boxer(spec.name, key)
        return Target(title, driver,
                      {"SECRETBOX enc": lambda n: boxer.bind(nonce, bufs.data(n))},
                      boxer.close, PEER, 8 * len(key),
                      tcrypt=(("SECRETBOX enc", "encryption"),), api=offer.api)
    if offer.kind == _peers.AEAD:
        sealer = peer.sealer(spec.name, key)
        label = (f"{spec.mode.upper()} enc" if offer.api == _peers.HANDLE
                 else _ONE_SHOT_LABEL["aead"])
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
                  fresh=None if bind_fresh is None else lambda n: bind_fresh(bufs.data(n)))


# ---------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    sizes: tuple[int, ...]
    repeats: int
    batch_ns: float
    seconds: float
    stat: str = "median"
    clock: str = "cpu"

    @property
    def stat_fn(self) -> Callable[[list[float]], float]:
        return min if self.stat == "min" else statistics.median

    @property
    def clock_fn(self) -> NsTimer:
        return CLOCKS[self.clock]


def settings_from(args: argparse.Namespace) -> Settings:
    quick = bool(getattr(args, "quick", False))
    sizes = args.sizes or (QUICK_SIZES if quick else DEFAULT_SIZES)
    repeats = args.repeats or (3 if quick else 7)
    batch_ms = args.batch_ms or (0.2 if quick else 2.0)
    seconds = args.seconds or (0.01 if quick else 0.2)
    return Settings(tuple(sizes), repeats, batch_ms * 1e6, seconds,
                    getattr(args, "stat", None) or "median",
                    getattr(args, "clock", None) or "cpu")


def _parse_size(text: str) -> int:
    t = text.strip().lower()
    scale = 1
    if t.endswith(("k", "kib")):
        t, scale = t.rstrip("kib"), 1024
    elif t.endswith(("m", "mib")):
        t, scale = t.rstrip("mib"), 1024 * 1024
    value = int(t) * scale
    if value <= 0:
        raise ValueError
    return value


def parse_sizes(text: str) -> tuple[int, ...]:
    """``"1k,2k,4k"`` or ``"1k-16k:1k"`` (from-to:step), or a mix of both."""
    sizes: list[int] = []
    try:
        for item in text.split(","):
            if not item.strip():
                continue
            if "-" in item:
                span, _, step = item.partition(":")
                lo, _, hi = span.partition("-")
                a, b = _parse_size(lo), _parse_size(hi)
                s = _parse_size(step) if step else a
                sizes.extend(range(a, b + 1, s))
            else:
                sizes.append(_parse_size(item))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"bad size list {text!r} (want e.g. 1k,4k,16k or 1k-16k:1k)") from None
    sizes = sorted(set(sizes))
    if len(sizes) < 2:
        raise argparse.ArgumentTypeError("need at least two distinct sizes for a slope")
    return tuple(sizes)


def _positive(kind: type) -> Callable[[str], Any]:
    def conv(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0: {text!r}")
        return value

    conv.__name__ = kind.__name__
    return conv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("algorithms", nargs="*", metavar="ALGO",
                        help="algorithm names, aliases or ids (default: every registered "
                             "one: stream ciphers, block ciphers, AEADs and MACs)")
    parser.add_argument("--impl", action="append", default=[], metavar="DRIVER",
                        help="only this driver (repeatable; default: every one this CPU runs)")
    parser.add_argument("--format", choices=("slope", "tcrypt"), default="slope",
                        help="slope: libgcrypt bench-slope table (default); "
                             "tcrypt: the Linux kernel's tcrypt speed test (hash lines "
                             "with bytes-per-update splits for MACs)")
    parser.add_argument("--peers", action="store_true",
                        help="also measure installed peer libraries offering the same "
                             "algorithm (pycryptodome, libsodium, libgcrypt, cryptography, "
                             "PyNaCl), and for MACs/AEADs our one-shot API they are compared "
                             "with")
    parser.add_argument("--sizes", type=parse_sizes, metavar="LIST",
                        help="buffer sizes of the slope fit, e.g. 1k,4k,16k or 1k-16k:1k "
                             "(default 1k-16k:1k)")
    parser.add_argument("--repeats", type=_positive(int), metavar="N",
                        help="timed batches per size, summarised by --stat (default 7)")
    parser.add_argument("--batch-ms", type=_positive(float), metavar="MS",
                        help="length of one timed batch (default 2 ms)")
    parser.add_argument("--stat", choices=("median", "min"), default="median",
                        help="how the batches of one size are summarised: median "
                             "(default) or min (for a noisy machine)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="cpu: this thread's CPU time (default; time other processes "
                             "take is not counted), wall: elapsed time")
    parser.add_argument("--seconds", type=_positive(float), metavar="S",
                        help="tcrypt: time per block size (default 0.2 s)")
    parser.add_argument("--cpu-mhz", type=_positive(float), metavar="N",
                        help="core clock for cycles/byte (default: estimate from cpufreq "
                             "or /proc/cpuinfo; the TSC may tick slower than the core)")
    parser.add_argument("--quick", action="store_true",
                        help="3 sizes, 3 short batches, 0.01 s tcrypt steps: a smoke test, "
                             "not a measurement")


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

_LABEL = 16
_HEADER = "  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz    call ns"


def _row(label: str, fit: Fit, mhz: float | None, auto_mhz: float | None) -> str:
    if fit.slope > 0:
        ns = f"{fit.slope:10.3f} ns/B"
        mib = f"{1e9 / fit.slope / 2**20:10.1f} MiB/s"
        cpb = f"{fit.slope * mhz / 1000:10.3f} c/B" if mhz else f"{'-':>10} c/B"
    else:  # timing noise swamped the per-byte cost
        ns, mib, cpb = f"{'-':>10} ns/B", f"{'-':>10} MiB/s", f"{'-':>10} c/B"
    auto = f"{auto_mhz:10.0f}" if auto_mhz else f"{'-':>10}"
    line = f" {label:>{_LABEL}} |{ns}{mib}{cpb}{auto}{fit.intercept:11.0f}"
    if fit.r2 < NOISY_R2:
        line += f"  (noisy fit, r2={fit.r2:.3f})"
    return line


def compare(ours: Target, peer: Target, st: Settings,
            fresh: bool = False) -> dict[int, tuple[float, float]]:
    """Time per call (ns) of the main operation of ``ours`` and ``peer`` (with
    ``fresh``, of their bytes-to-new-bytes calls) at each of ``ours.points``,
    measured turn about in the same batches so both see the same machine."""
    fns = {}
    for n in ours.points:
        fns[("ours", n)] = ours.fresh(n) if fresh and ours.fresh else ours.bind(n)
        fns[("peer", n)] = peer.fresh(n) if fresh and peer.fresh else peer.bind(n)
    t = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
    return {n: (t[("ours", n)], t[("peer", n)]) for n in ours.points}


def _ratio_line(points: dict[int, tuple[float, float]], best: Target,
                label: str = "ours/peer") -> str:
    parts = [f"{_size_name(n)} x{theirs / ours:.2f}"
             for n, (ours, theirs) in points.items() if n != 64]
    if 64 in points:
        ours, theirs = points[64]
        parts.append(f"64 B x{theirs / ours:.2f} ({ours:.0f} vs {theirs:.0f} ns/call)")
    return f" {label:>{_LABEL}} |  " + "   ".join(parts) + f"   [ours: {best.driver}]"


def _size_name(n: int) -> str:
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n} B"


def _describe_sizes(sizes: Sequence[int]) -> str:
    steps = {b - a for a, b in zip(sizes[:-1], sizes[1:], strict=True)}
    if len(sizes) > 3 and len(steps) == 1:
        return f"{sizes[0]}..{sizes[-1]} B step {steps.pop()} ({len(sizes)} sizes)"
    return ", ".join(str(s) for s in sizes) + " B"


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------

#: The slope table's sections (bench-slope prints one table per kind) and
#: the kinds of spec each holds.
_SECTIONS = (("Cipher", ("cipher", "block", "aead", "secretbox")), ("MAC", ("mac",)),
             ("Storage", ("tweakable",)))


def _resolve(names: Sequence[str]) -> list[Any]:
    if not names:
        return list(_registry.all_specs())
    specs: list[Any] = []
    for name in names:
        spec = _registry.lookup(int(name) if name.isdigit() else name)
        if spec not in specs:
            specs.append(spec)
    return specs


def _our_drivers(spec: Any, only: Sequence[str]) -> tuple[list[str], list[str]]:
    """(runnable drivers, notes about the others)."""
    wanted = {d.lower() for d in only}
    drivers, notes = [], []
    for info in gcrylike.implementations(spec.name):
        if wanted and info.driver.lower() not in wanted:
            continue
        if info.available:
            drivers.append(info.driver)
        else:
            notes.append(f"{info.driver}: skipped ({info.reason})")
    if wanted and not drivers and not notes:
        notes.append(f"none of our drivers selected by --impl {','.join(only)}")
    return drivers, notes


def _unsupported(spec: Any) -> str | None:
    if spec.kind == "secretbox" and spec.name.upper() != _SECRETBOX:
        return (f"not measured: a plugin secretbox has no public opener (SecretBox opens "
                f"{_SECRETBOX} only)")
    if spec.kind in _OUR_TARGETS:
        return None
    return f"not measured: gcrylike bench has no rows for {spec.kind} algorithms yet"


def _targets(spec: Any, drivers: list[str], with_peers: bool, bufs: _Buffers,
             note: Callable[[str], None], best: Callable[[], str | None]) -> Iterator[Target]:
    """Open each target as it is needed (and report the ones that fail):
    our drivers, then with peers our one-shot API on driver ``best()``
    (asked only once our drivers are done) and the peers."""
    build = _OUR_TARGETS[spec.kind]
    for driver in drivers:
        try:
            yield build(spec, driver, bufs)
        except gcrylike.GcryError as exc:
            note(f"{driver}: skipped ({exc})")
    if not with_peers:
        return
    offered = _peers.peers_for(spec.name)
    if not offered:
        note(f"no peer library in gcrylike._peers offers {spec.name}")
        return
    if spec.kind in _ONE_SHOT_LABEL and any(o.api == _peers.ONE_SHOT for _, o in offered):
        driver = best()
        if driver is None:
            note("ours one-shot: skipped (none of our drivers ran)")
        else:
            try:
                yield _one_shot_target(spec, driver, bufs)
            except gcrylike.GcryError as exc:
                note(f"{driver} one-shot: skipped ({exc})")
    for peer, offer in offered:
        reason = peer.unavailable_reason()
        if reason:
            note(f"peer {peer.name}: not available ({reason})")
            continue
        try:
            yield _peer_target(spec, peer, offer, bufs)
        except Exception as exc:  # a broken peer must not stop the run
            note(f"peer {peer.name}: skipped ({type(exc).__name__}: {exc})")


def _note(text: str) -> None:
    _print(f" # {text}")


def _measure(target: Target, st: Settings) -> Result:
    fits = {}
    for label in target.ops:
        fns = {n: target.bind(n, label) for n in st.sizes}
        med = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
        fits[label] = fit_slope(list(med), list(med.values()))
    return Result(target, fits)


def _measure_errors(target: Target) -> type[BaseException] | tuple[type[BaseException], ...]:
    """What a failing target may raise and the run survive: any error of a
    peer (not our code), only our own error family from our handles."""
    return gcrylike.GcryError if target.ours else Exception


def _speed(fit: Fit) -> float:
    """Sort key for "fastest": ns/B, with a slope noise made <= 0 last."""
    return fit.slope if fit.slope > 0 else float("inf")


def _bench_slope(specs: list[Any], args: argparse.Namespace, st: Settings,
                 clock: Clock) -> None:
    bufs = _Buffers(max(*st.sizes, *POINT_SIZES, *SECTOR_SIZES))
    _print(f"# gcrylike {gcrylike.__version__} bench-slope: sizes {_describe_sizes(st.sizes)},"
           f" {st.stat} of {st.repeats} batches of ~{st.batch_ns / 1e6:g} ms per size,"
           f" {st.clock} clock")
    shown: set[tuple[str, str]] = set()  # (kind, role) of every row group printed
    listed = set()
    for section, kinds in _SECTIONS:
        group = [s for s in specs if s.kind in kinds]
        listed.update(group)
        if group:
            _print(f"{section}:")
        for spec in group:
            _slope_spec(spec, args, st, clock, bufs, shown)
    others = [s for s in specs if s not in listed]
    if others:
        _print("Other:")
        for spec in others:
            _slope_spec(spec, args, st, clock, bufs, shown)
    _footer(clock, args.peers, st, shown)


def _slope_spec(spec: Any, args: argparse.Namespace, st: Settings, clock: Clock,
                bufs: _Buffers, shown: set[tuple[str, str]]) -> None:
    _print(f" {spec.name:<{_LABEL}} |{_HEADER}")
    reason = _unsupported(spec)
    if reason:
        _note(reason)
        _print(f" {'':>{_LABEL}} =")
        return
    drivers, notes = _our_drivers(spec, args.impl)
    for n in notes:
        _note(n)
    best: Result | None = None
    #: What peers are compared with, by Target.api: our fastest handle, our one-shot.
    yardstick: dict[str, Target] = {}
    opened: list[Target] = []  # ours stay open: they are the peers' yardsticks

    def best_driver() -> str | None:
        return best.target.driver if best is not None else None

    try:
        for target in _targets(spec, drivers, args.peers, bufs, _note, best_driver):
            if target.ours:
                opened.append(target)
            try:
                res = _measure(target, st)
                auto = clock.reading() if clock.auto else None
                _print(f" {target.title}")
                for label, fit in res.fits.items():
                    _print(_row(label, fit, clock.mhz, auto))
                shown.add((spec.kind, target.role))
                if target.role == PEER:
                    ref = yardstick.get(target.api)
                    if ref is None:
                        _note(f"{target.driver}: nothing of ours to compare with")
                    else:
                        _print(_ratio_line(compare(ref, target, st), ref))
                        if ref.fresh and target.fresh:
                            _print(_ratio_line(compare(ref, target, st, fresh=True), ref,
                                               "new bytes"))
            except _measure_errors(target) as exc:
                _note(f"{target.driver}: failed ({type(exc).__name__}: {exc})")
                continue
            finally:
                if not target.ours:
                    target.close()
            if target.role == IMPL and (best is None or _speed(res.main) < _speed(best.main)):
                best = res
                # a handle, or (secretbox) our one-shot API itself
                yardstick[target.api] = target
            elif target.role == ONE_SHOT:
                yardstick[_peers.ONE_SHOT] = target
    finally:
        for target in opened:
            target.close()
    if spec.kind == "tweakable" and drivers:
        default = _registry.choose(spec).driver  # what a user gets
        _sector_batches(spec, drivers, default if default in drivers else best_driver(),
                        args.peers, st)
    _print(f" {'':>{_LABEL}} =")


#: The storage call: whole sectors per native call (encrypt_sectors).
BATCH_SECTOR, BATCH_COUNT = 4096, 16


def _sector_batches(spec: Any, drivers: list[str], best: str | None, peers: bool,
                    st: Settings) -> None:
    """Per-sector cost of ``encrypt_sectors`` on batches of 4 KiB sectors
    (one native call per batch, as storage uses it), for the default and
    the portable driver, and with peers the reference peer per 4 KiB call,
    all timed turn about."""
    buf = bytearray(BATCH_SECTOR * BATCH_COUNT)
    chosen = [d for d in (best, drivers[-1]) if d is not None]
    handles, fns = [], {}
    try:
        for driver in dict.fromkeys(chosen):
            h = _keyed(gcrylike.tweakable_open(spec.name, impl=driver), _key_for(spec.key_sizes))
            handles.append(h)
            fns[driver] = (lambda h=h: h.encrypt_sectors(buf, 0, BATCH_SECTOR))
        reference = None
        if peers:
            for peer, offer in _peers.peers_for(spec.name):
                if offer.reference and not peer.unavailable_reason():
                    crypter = peer.crypter(offer.reference, _key_for(offer.key_sizes),
                                           _NONCE[:offer.nonce_sizes[0]])
                    handles.append(crypter)
                    view = memoryview(bytearray(BATCH_SECTOR))
                    reference = f"{peer.name} {offer.reference} (one 4 KiB call)"
                    fns[reference] = crypter.bind(view, view, False)
                    break
        t = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, st.clock_fn)
    finally:
        for h in handles:
            h.close()
    per = {k: v / (BATCH_COUNT if k != reference else 1) for k, v in t.items()}
    _print(f" {'encrypt_sectors':>{_LABEL}} |  {BATCH_COUNT} x {BATCH_SECTOR}-byte sectors per "
           "call, ns per sector:")
    for key, ns in per.items():
        _print(f" {'':>{_LABEL}} |  {key}: {ns:.0f} ns ({BATCH_SECTOR / ns * 1e9 / 2**20:.1f} "
               "MiB/s)")
    if best and len(chosen) == 2 and chosen[0] != chosen[1]:
        _print(f" {'':>{_LABEL}} |  {chosen[0]} / {chosen[1]}: "
               f"x{per[chosen[1]] / per[chosen[0]]:.2f}")
    if best and reference:
        _print(f" {'ours/peer':>{_LABEL}} |  4 KiB sectors x{per[reference] / per[best]:.2f}   "
               f"[ours: {best} encrypt_sectors; peer: {reference}]")


def _footer(clock: Clock, peers: bool, st: Settings, shown: set[tuple[str, str]]) -> None:
    kinds = {kind for kind, _ in shown}
    peer_kinds = {kind for kind, role in shown if role == PEER}
    if st.clock == "cpu":
        times = ("times: this thread's CPU time, so other processes' turns on the CPU are "
                 "left out (--clock wall for elapsed time).")
    else:
        times = "times: elapsed (wall) time, other processes' turns on the CPU included."
    lines = [times,
             "call ns: the fit's intercept, the fixed cost of one call from Python "
             "(argument checks, buffer views, the timing loop) apart from the per-byte work;"
             f" (noisy fit) marks r2 < {NOISY_R2:.2f}."]
    if "mac" in kinds:
        lines.append("MAC: one message per call on a keyed handle: reset(); update(data); "
                     "digest() (bench-slope's gcry_mac_reset/write/read), data a bytes object.")
    if "aead" in kinds:
        lines.append("POLY1305 enc/dec/auth: one message per call on a keyed AeadHandle: "
                     "setiv + encrypt(buf, out=buf) + gettag / setiv + decrypt(ct, out=other) "
                     "+ checktag (a valid tag) / setiv + authenticate(buf) + gettag; call ns "
                     "includes setiv's Poly1305 key derivation (one ChaCha20 block).")
    if "secretbox" in kinds:
        lines.append("SECRETBOX enc/dec: one box per call on one keyed SecretBox: "
                     "encrypt(nonce, data) -> a new bytes tag || ciphertext / decrypt(nonce, "
                     "box) of a valid box (made once per size); data a bytes object.  These "
                     "rows are our one-shot API: peers are compared with the fastest of them.")
    if clock.mhz:
        src = f"clock: {clock.mhz:.0f} MHz from {clock.source}"
    else:
        src = f"clock: unknown, {clock.source}: no cycles/byte (give --cpu-mhz N)"
    if clock.tsc_mhz:
        src += f"; TSC (rdtsc) ticks at {clock.tsc_mhz:.0f} MHz here"
        if clock.auto and clock.mhz and abs(clock.mhz - clock.tsc_mhz) < 0.03 * clock.tsc_mhz:
            src += (", the same rate: this is likely the nominal/TSC clock, not what the "
                    "core runs at under load, so c/B may be understated; pass --cpu-mhz N "
                    "for the real core clock")
    lines.append(src + ".")
    if peers:
        lines.append("ours/peer: throughput of ours over the peer's, both timed turn about "
                     "at that size, call cost included (x>1: ours faster; at 64 B it is the "
                     "inverse ratio of time per call).  Ours is our fastest implementation "
                     "(lowest ns/B) through the API doing the same work: the handle for "
                     "stream ciphers and for peers used through a keyed handle (libgcrypt), "
                     "the 'ours one-shot' row for one-shot peers (for the secretbox, whose "
                     "rows are that one-shot API, its fastest SECRETBOX enc row).")
        if "cipher" in peer_kinds:
            lines.append("new bytes: the same ratios for a stream cipher's other call style, "
                         "bytes in and a new bytes object out (ours h.encrypt(data), the "
                         "peer's update(data) or encrypt(data)), for peers that have it; "
                         "the rows above are in place.")
        lines.append("Bindings differ: ours goes through cffi and our Python API; libsodium "
                     "and libgcrypt through ctypes with pre-converted buffers (and, for "
                     "MACs/AEADs, output written into a preallocated buffer where ours "
                     "returns a new bytes object), pycryptodome and cryptography through "
                     "their own bindings.  That shows in call ns and at 64 B, not in ns/B.")
        if "cipher" in peer_kinds:
            lines.append("libsodium's one-shot crypto_stream_*_xor restarts the keystream "
                         "each call (same work per byte); the others continue it.")
        if "secretbox" in peer_kinds:
            lines.append("secretbox peers: libsodium's crypto_secretbox_easy (the key passed "
                         "per call, the box written into a preallocated buffer) and PyNaCl's "
                         "SecretBox.encrypt (its nonce check and a new nonce || box object "
                         "per call, as its users call it).")
        if peer_kinds & {"mac", "aead"}:
            lines.append("one-shot rows set the key up inside every call: gcrylike.mac, "
                         "libsodium, cryptography's Poly1305.generate_tag and pycryptodome "
                         "(a new Poly1305_MAC / ChaCha20_Poly1305 object per message); "
                         "our ChaCha20Poly1305 and cryptography's keep one keyed object and "
                         "copy its state per call.  AEAD data has no associated data.")
    for line in lines:
        _print(f"# {line}")


def _bench_tcrypt(specs: list[Any], args: argparse.Namespace, st: Settings) -> None:
    bufs = _Buffers(max(*TCRYPT_SIZES, *SECTOR_SIZES, *(b for b, _ in TCRYPT_MAC_TEMPLATE)))
    clock = "this thread's CPU time" if st.clock == "cpu" else "elapsed time"
    _print(f"# gcrylike {gcrylike.__version__} bench, tcrypt format: ~{st.seconds:g} s per "
           f"block size, seconds are {clock}")
    for spec in specs:
        name = spec.name.lower()

        def note(text: str, name: str = name) -> None:
            _print(f"# {name} {text}")

        reason = _unsupported(spec)
        if reason:
            note(reason)
            continue
        drivers, notes = _our_drivers(spec, args.impl)
        for n in notes:
            note(n)
        ran: list[str] = []  # our drivers that ran; the first is the one-shot's
        for target in _targets(spec, drivers, args.peers, bufs, note,
                               lambda ran=ran: ran[0] if ran else None):
            try:
                if spec.kind == "mac":
                    _tcrypt_mac(name, target, st)
                else:
                    _tcrypt_cipher(name, target, st)
            except _measure_errors(target) as exc:
                note(f"{target.driver}: failed ({type(exc).__name__}: {exc})")
                continue
            finally:
                target.close()
            if target.role == IMPL:
                ran.append(target.driver)


def _tcrypt_cipher(name: str, target: Target, st: Settings) -> None:
    """The kernel's cipher and AEAD speed lines, one section per direction."""
    for label, word in target.tcrypt:
        _print(f"testing speed of {name} ({target.driver}) {word}")
        for i, size in enumerate(target.tcrypt_sizes):
            ops, elapsed = count_for(target.bind(size, label), st.seconds, st.clock_fn)
            _print(f"test {i} ({target.key_bits} bit key, {size} byte blocks): "
                   f"{ops} operations in {elapsed:.3f} seconds ({ops * size} bytes)")
        _print("")


def _tcrypt_mac(name: str, target: Target, st: Settings) -> None:
    """The kernel's hash speed lines over its Poly1305 template; a target
    that cannot split a message (a one-shot call) gets the whole-message
    lines only, numbered as in the template."""
    _print(f"testing speed of {name} ({target.driver})")
    for i, (block, per_update) in enumerate(TCRYPT_MAC_TEMPLATE):
        if per_update != block and target.split is None:
            continue
        fn = target.split(block, per_update) if target.split else target.bind(block)
        ops, elapsed = count_for(fn, st.seconds, st.clock_fn)
        rate = ops / elapsed
        _print(f"test{i:3d} ({block:5d} byte blocks,{per_update:5d} bytes per update,"
               f"{block // per_update:4d} updates): {rate:6.0f} opers/sec, "
               f"{rate * block:9.0f} bytes/sec")
    _print("")


def run_bench(args: argparse.Namespace) -> int:
    specs = _resolve(args.algorithms)
    st = settings_from(args)
    try:
        if args.format == "tcrypt":
            _bench_tcrypt(specs, args, st)
        else:
            _bench_slope(specs, args, st, detect_clock(args.cpu_mhz))
    except BrokenPipeError:  # `gcrylike bench | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0
