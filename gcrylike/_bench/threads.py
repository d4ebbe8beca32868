"""Thread rows: one large native call on one thread against the default
count of :func:`gcrylike.set_threads` (a 16 MiB stream ``encrypt`` in place,
``encrypt_sectors`` over 16 MiB of 4 KiB sectors), timed turn about on the
wall clock: the calling thread's CPU time would leave out the helpers' work."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gcrylike

from .cpuclock import cpus
from .options import Settings
from .targets import NONCE, key_for, keyed
from .timing import CLOCKS, time_per_call

#: Bytes per measured call, and the sector size of the sector call.
THREAD_BYTES = 16 * 2**20
THREAD_SECTOR = 4096


def why_no_threads() -> str:
    """Why a run has no thread rows ("" when it has them)."""
    cfg = gcrylike.config()
    if len(cpus()) < 2:  # the CPUs set_threads's default counts
        return "this process may use one CPU only"
    if cfg.data_path != "fastcall":
        return "data calls take cffi, which runs every call on the calling thread"
    if cfg.threads_default < 2:
        return "gcrylike.set_threads's default is 1"
    return ""


def thread_count() -> int:
    """N of the thread rows: set_threads's default when this process may
    run on more than one CPU and data calls take the fast path (the only
    one that spreads a call over threads), else 1 (no thread rows)."""
    return 1 if why_no_threads() else gcrylike.config().threads_default


def stream_calls(spec: Any, driver: str, buf: bytearray,
                 counts: tuple[int, ...]) -> tuple[dict[int, Callable[[], Any]], Any]:
    """``{threads: call}`` encrypting ``buf`` in place on a ``driver`` handle
    (the stream call takes its count from set_threads, set inside the call),
    and the handle to close."""
    key = key_for(spec.key_sizes)
    h = keyed(gcrylike.cipher_open(spec.name, impl=driver), key,
              NONCE[:spec.iv_sizes[0]] if spec.iv_sizes else None)
    view, encrypt, set_threads = memoryview(buf), h.encrypt, gcrylike.set_threads

    def call(n: int) -> Callable[[], Any]:
        def run() -> Any:
            set_threads(n)
            return encrypt(view, out=view)

        return run

    return {n: call(n) for n in counts}, h


def sector_calls(spec: Any, driver: str, buf: bytearray,
                 counts: tuple[int, ...]) -> tuple[dict[int, Callable[[], Any]], Any]:
    """``{threads: call}``: ``encrypt_sectors(buf, 0, 4096, threads=n)`` on a
    ``driver`` handle, and the handle to close."""
    h = keyed(gcrylike.tweakable_open(spec.name, impl=driver), key_for(spec.key_sizes))
    sectors = h.encrypt_sectors

    def call(n: int) -> Callable[[], Any]:
        return lambda: sectors(buf, 0, THREAD_SECTOR, threads=n)

    return {n: call(n) for n in counts}, h


#: Calls whose CPU time is split into the calling thread's and the process's.
CPU_CALLS = 3


def cpu_split(fn: Callable[[], Any], calls: int = CPU_CALLS) -> tuple[float, float]:
    """(this thread's, the whole process's) CPU ns per call of ``fn``: how
    the work was shared, whether or not the other threads found a free CPU."""
    t0, p0 = time.thread_time_ns(), time.process_time_ns()
    for _ in range(calls):
        fn()
    return (time.thread_time_ns() - t0) / calls, (time.process_time_ns() - p0) / calls


def measure_threads(spec: Any, driver: str, n: int,
                    st: Settings) -> dict[int, tuple[float, float, float]]:
    """The thread rows of ``spec`` on ``driver``: ``{threads: (wall ns per
    call, this thread's CPU ns, the process's CPU ns)}`` for 1 and ``n``
    threads; set_threads is left as it was."""
    buf = bytearray(THREAD_BYTES)
    make = sector_calls if spec.kind == "tweakable" else stream_calls
    previous = gcrylike.set_threads(None)
    fns, handle = make(spec, driver, buf, (1, n))
    try:
        wall = time_per_call(fns, st.repeats, st.batch_ns, st.stat_fn, CLOCKS["wall"])
        return {k: (wall[k], *cpu_split(fn)) for k, fn in fns.items()}
    finally:
        handle.close()
        gcrylike.set_threads(previous)
