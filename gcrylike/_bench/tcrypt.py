"""``--format tcrypt``: the Linux kernel's tcrypt speed test lines
(operations done in a fixed time per block size; for MACs the kernel's hash
lines with their bytes-per-update splits)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gcrylike

from .console import Console
from .options import Settings
from .selection import iter_targets, measure_errors, our_drivers, unsupported
from .targets import IMPL, SECTOR_SIZES, TCRYPT_SIZES, Buffers, Target
from .timing import count_for

#: The kernel's tcrypt ``poly1305_speed_template``: (bytes per message, bytes
#: per update); used for every MAC.
TCRYPT_MAC_TEMPLATE = ((96, 16), (96, 32), (96, 96), (288, 16), (288, 32), (288, 288),
                       (1056, 32), (1056, 1056), (2080, 32), (2080, 2080), (4128, 4128),
                       (8224, 8224))


def run_tcrypt(specs: list[Any], impls: Sequence[str], with_peers: bool, st: Settings,
               console: Console) -> None:
    bufs = Buffers(max(*TCRYPT_SIZES, *SECTOR_SIZES, *(b for b, _ in TCRYPT_MAC_TEMPLATE)))
    clock = "this thread's CPU time" if st.clock == "cpu" else "elapsed time"
    console.note(f"gcrylike {gcrylike.__version__} bench, tcrypt format: ~{st.seconds:g} s "
                 f"per block size, seconds are {clock}")
    for i, spec in enumerate(specs):
        name = spec.name.lower()

        def note(text: str, name: str = name) -> None:
            console.note(f"{name} {text}")

        reason = unsupported(spec)
        if reason:
            note(reason)
            continue
        drivers, notes = our_drivers(spec, impls)
        for n in notes:
            note(n)
        ran: list[str] = []  # our drivers that ran; the first is the one-shot's
        for target in iter_targets(spec, drivers, with_peers, bufs, note,
                                   lambda ran=ran: ran[0] if ran else None):
            console.progress(f"gcrylike bench: {i + 1}/{len(specs)} {spec.name}: "
                             f"{target.title}")
            try:
                if spec.kind == "mac":
                    _tcrypt_mac(name, target, st, console)
                else:
                    _tcrypt_cipher(name, target, st, console)
            except measure_errors(target) as exc:
                note(f"{target.driver}: failed ({type(exc).__name__}: {exc})")
                continue
            finally:
                target.close()
            if target.role == IMPL:
                ran.append(target.driver)
    console.clear()


def _tcrypt_cipher(name: str, target: Target, st: Settings, console: Console) -> None:
    """The kernel's cipher and AEAD speed lines, one section per direction."""
    for label, word in target.tcrypt:
        console.line(f"testing speed of {name} ({target.driver}) {word}")
        for i, size in enumerate(target.tcrypt_sizes):
            ops, elapsed = count_for(target.bind(size, label), st.seconds, st.clock_fn)
            console.line(f"test {i} ({target.key_bits} bit key, {size} byte blocks): "
                         f"{ops} operations in {elapsed:.3f} seconds ({ops * size} bytes)")
        console.line("")


def _tcrypt_mac(name: str, target: Target, st: Settings, console: Console) -> None:
    """The kernel's hash speed lines over its Poly1305 template; a target
    that cannot split a message (a one-shot call) gets the whole-message
    lines only, numbered as in the template."""
    console.line(f"testing speed of {name} ({target.driver})")
    for i, (block, per_update) in enumerate(TCRYPT_MAC_TEMPLATE):
        if per_update != block and target.split is None:
            continue
        fn = target.split(block, per_update) if target.split else target.bind(block)
        ops, elapsed = count_for(fn, st.seconds, st.clock_fn)
        rate = ops / elapsed
        console.line(f"test{i:3d} ({block:5d} byte blocks,{per_update:5d} bytes per update,"
                     f"{block // per_update:4d} updates): {rate:6.0f} opers/sec, "
                     f"{rate * block:9.0f} bytes/sec")
    console.line("")
