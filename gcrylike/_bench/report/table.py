"""The bench-slope table on stdout, printed row by row as the run goes.

Columns are sized to the longest algorithm name of the run (at least 16,
bench-slope's width) and every line is built in full before it is printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gcrylike

from ..clockpool import QUORUM
from ..console import Console
from ..cpuclock import Clock
from ..fit import CALL_SIZE, NOISY_R2, CallCost, Fit
from ..options import Settings
from ..targets import IMPL, PEER, Result, Target
from ..threads import why_no_threads

MIN_LABEL = 16
HEADER = "  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz    call ns"
#: Row labels not taken from a spec's name: the longest sets a floor too.
_OTHER_LABELS = ("encrypt_sectors", "ours/peer", "new bytes", "out= buffer", "threads")


def label_width(specs: Sequence[Any]) -> int:
    """Width of the label column: the longest algorithm name or row label."""
    return max(MIN_LABEL, *(len(s.name) for s in specs), *map(len, _OTHER_LABELS))


def path_words() -> str:
    """How our data calls reach native code, for the header and notes."""
    cfg = gcrylike.config()
    if cfg.data_path == "fastcall":
        return "gcrylike._fastcall (the native fast path: one C call per data call)"
    return f"cffi ({cfg.data_path_reason})"


def size_name(n: int) -> str:
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n} B"


def describe_sizes(sizes: Sequence[int]) -> str:
    steps = {b - a for a, b in zip(sizes[:-1], sizes[1:], strict=True)}
    if len(sizes) > 3 and len(steps) == 1:
        return f"{sizes[0]}..{sizes[-1]} B step {steps.pop()} ({len(sizes)} sizes)"
    return ", ".join(str(s) for s in sizes) + " B"


#: After "call ns": that figure is one measured short call, not the intercept.
MEASURED_MARK = "*"


def row(label: str, fit: Fit, call: CallCost, mhz: float | None, auto_mhz: float | None,
        width: int) -> str:
    if fit.slope > 0:
        ns = f"{fit.slope:10.3f} ns/B"
        mib = f"{1e9 / fit.slope / 2**20:10.1f} MiB/s"
        cpb = f"{fit.slope * mhz / 1000:10.3f} c/B" if mhz else f"{'-':>10} c/B"
    else:  # timing noise swamped the per-byte cost
        ns, mib, cpb = f"{'-':>10} ns/B", f"{'-':>10} MiB/s", f"{'-':>10} c/B"
    auto = f"{auto_mhz:10.0f}" if auto_mhz else f"{'-':>10}"
    mark = "" if call.fitted else MEASURED_MARK
    line = f" {label:>{width}} |{ns}{mib}{cpb}{auto}{call.ns:11.0f}{mark}"
    if fit.r2 < NOISY_R2:
        line += f"  (noisy fit, r2={fit.r2:.3f})"
    return line


def ratio_line(points: dict[int, tuple[float, float]], ours: str, label: str,
               width: int) -> str:
    parts = [f"{size_name(n)} x{theirs / mine:.2f}"
             for n, (mine, theirs) in points.items() if n != 64]
    if 64 in points:
        mine, theirs = points[64]
        parts.append(f"64 B x{theirs / mine:.2f} ({mine:.0f} vs {theirs:.0f} ns/call)")
    return f" {label:>{width}} |  " + "   ".join(parts) + f"   [ours: {ours}]"


class TableReport:
    """A slope-run sink (see :mod:`..slope`) printing bench-slope's table."""

    def __init__(self, console: Console, width: int) -> None:
        self.console = console
        self.width = width
        #: N of the thread rows printed (0: none)
        self.thread_count = 0
        #: Whether a row's "call ns" is a measured short call (footnoted)
        self.measured_calls = False

    def begin(self, st: Settings) -> None:
        self.console.note(f"gcrylike {gcrylike.__version__} bench-slope: sizes "
                          f"{describe_sizes(st.sizes)}, {st.stat} of {st.repeats} batches of "
                          f"~{st.batch_ns / 1e6:g} ms per size, {st.clock} clock")
        self.console.note(f"ours: data calls through {path_words()}")

    def section(self, name: str) -> None:
        self.console.line(f"{name}:")

    def spec(self, spec: Any) -> None:
        self.console.line(f" {spec.name:<{self.width}} |{HEADER}")

    def note(self, spec: Any, text: str) -> None:
        self.console.note(text, indent=" ")

    def result(self, spec: Any, res: Result, mhz: float | None,
               auto_mhz: float | None) -> None:
        self.console.line(f" {res.target.title}")
        for label, fit in res.fits.items():
            call = res.calls[label]
            self.measured_calls |= not call.fitted
            self.console.line(row(label, fit, call, mhz, auto_mhz, self.width))

    def ratio(self, spec: Any, ours: Target, peer: Target,
              points: dict[int, tuple[float, float]], style: str) -> None:
        label = "ours/peer" if style == "in place" else style
        self.console.line(ratio_line(points, ours.driver, label, self.width))

    def threads(self, spec: Any, operation: str, driver: str, size: int,
                times: dict[int, tuple[float, float, float]]) -> None:
        (one, many), w = sorted(times), self.width
        self.thread_count = many
        what = ("sectors of 4 KiB, encrypt_sectors(buf, 0, 4096, threads=n)"
                if operation == "encrypt_sectors" else "one encrypt(buf, out=buf)")
        self.console.line(f" {'threads':>{w}} |  {size // 2**20} MiB per call, {what} "
                          f"[{driver}], wall clock:")
        for n in (one, many):
            ns, mine, total = times[n]
            self.console.line(f" {'':>{w}} |  {n} thread{'s' if n > 1 else ''}: "
                              f"{ns / 1e6:.2f} ms ({size / ns * 1e9 / 2**20:.0f} MiB/s); "
                              f"CPU {mine / 1e6:.2f} ms on this thread of "
                              f"{total / 1e6:.2f} ms in all")
        self.console.line(f" {'':>{w}} |  speed-up {one} -> {many} threads: "
                          f"x{times[one][0] / times[many][0]:.2f}")

    def sectors(self, spec: Any, batch: tuple[int, int], per: dict[str, float],
                chosen: list[str], best: str | None, reference: str | None) -> None:
        size, count = batch
        w, line = self.width, self.console.line
        line(f" {'encrypt_sectors':>{w}} |  {count} x {size}-byte sectors per call, "
             "ns per sector:")
        for key, ns in per.items():
            line(f" {'':>{w}} |  {key}: {ns:.0f} ns ({size / ns * 1e9 / 2**20:.1f} MiB/s)")
        if best and len(chosen) == 2 and chosen[0] != chosen[1]:
            line(f" {'':>{w}} |  {chosen[0]} / {chosen[1]}: "
                 f"x{per[chosen[1]] / per[chosen[0]]:.2f}")
        if best and reference:
            line(f" {'ours/peer':>{w}} |  4 KiB sectors x{per[reference] / per[best]:.2f}   "
                 f"[ours: {best} encrypt_sectors; peer: {reference}]")

    def spec_end(self, spec: Any) -> None:
        self.console.line(f" {'':>{self.width}} =")

    def end(self, clock: Clock, peers: bool, st: Settings,
            shown: set[tuple[str, str]]) -> None:
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
        if self.measured_calls:
            lines.append(f"call ns {MEASURED_MARK}: the fit's intercept came out below zero or "
                         f"above the time of a whole {CALL_SIZE}-byte call (noise, extrapolated "
                         f"far below the fit's sizes), so the measured time of one {CALL_SIZE}-"
                         f"byte call is shown instead: the fixed cost plus {CALL_SIZE} bytes of "
                         "work.")
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
                         "encrypt(data, nonce) -> a new nonce || tag || ciphertext message / "
                         "decrypt(message) of a valid one (made once per size); data a bytes "
                         "object.  These rows are our one-shot API: peers are compared with the "
                         "fastest of them.")
        if self.thread_count:
            lines.append(f"threads: one 16 MiB call on 1 thread and on {self.thread_count} "
                         "(gcrylike.set_threads's default: the CPUs this process may use, at "
                         "most 8), elapsed time, as threads' work is not this thread's CPU "
                         "time: the speed-up of splitting one large call (a stream's "
                         "keystream, a batch of sectors); on a machine shared with other "
                         "work it falls short of the thread count.  CPU: this thread's and "
                         "the process's CPU time per call, over 3 more calls: how the work "
                         "was shared out, whether or not the other threads found a free CPU.")
        elif ("cipher", IMPL) in shown or ("tweakable", IMPL) in shown:
            lines.append(f"threads: no thread rows, {why_no_threads()}.")
        if clock.mhz:
            src = f"clock: {clock.mhz:.0f} MHz from {clock.describe()}"
            if clock.pool is not None:
                src += (": every estimate is at most the clock (other work only slows the "
                        "timed loop down), so the highest is the nearest, trusted once "
                        f"{QUORUM} agree; after each row one more is taken (auto Mhz: the "
                        "highest so far), and a row shows c/B with the clock trusted then")
        elif clock.pool is not None:
            src = (f"clock: not trusted, {clock.describe()}: no cycles/byte (give "
                   "--cpu-mhz N)")
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
                lines.append("out= buffer: the same ratios from a bytes object into a separate "
                             "preallocated buffer (ours h.encrypt(data, out=buf), cryptography's "
                             "update_into(data, buf), pycryptodome's encrypt(data, output=buf), "
                             "libsodium and libgcrypt from one buffer into another).")
                lines.append("new bytes: the same ratios for a stream cipher's other call style, "
                             "bytes in and a new bytes object out (ours h.encrypt(data), the "
                             "peer's update(data) or encrypt(data)), for peers that have it; "
                             "the ours/peer line is in place.")
            lines.append(f"Bindings differ: ours goes through {path_words()} and our Python "
                         "API; libsodium and libgcrypt through ctypes with pre-converted "
                         "buffers (and, for "
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
            self.console.note(line)
