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
* the NaCl secretbox: one box per call, ``SecretBox(key).encrypt(data,
  nonce)`` and ``decrypt(message)`` ("SECRETBOX enc"/"dec"); these rows are
  our one-shot API itself, so its peers are compared with them directly.

``--format tcrypt`` prints the Linux kernel's tcrypt view instead (operations
per fixed time at fixed block sizes; for MACs the kernel's hash lines with
their bytes-per-update splits), and ``--peers`` adds other installed
libraries (:mod:`.peers`) in the same format, each compared with the API of
ours that does the same work (for MACs and AEADs: our one-shot
``gcrylike.mac`` / ``ChaCha20Poly1305.encrypt``, shown as its own
"ours one-shot" row; stream ciphers also from bytes into a separate buffer,
``out= buffer``, and to new bytes).  Where the process may use several
CPUs, stream ciphers and Adiantum get thread rows (:mod:`.threads`: one
16 MiB call on 1 thread and on N).  The header says whether our data calls
take the native fast path (``gcrylike._fastcall``) or cffi.  ``--json``,
``--csv`` and ``--plot`` write the slope run's figures as records or as a
throughput plot (:mod:`.report`).

The modules, by concern:

* :mod:`.fit`, :mod:`.timing`, :mod:`.cpuclock`, :mod:`.clockpool`: the
  slope fit (and the call cost it shows), the timing loops and clocks, the
  core clock for cycles/byte and how its estimates are pooled;
* :mod:`.targets` (what a measured thing is), :mod:`.ours` (our drivers and
  one-shot API), :mod:`.peers` (one module per peer library),
  :mod:`.theirs` (a peer offer as a target), :mod:`.selection` (which
  targets a run measures); :mod:`.threads` (the thread rows);
* :mod:`.slope` and :mod:`.tcrypt`: the two kinds of run;
* :mod:`.report`: the table, the JSON/CSV records, the plot;
  :mod:`.machine` the header they share; :mod:`.console` stdout and the
  progress line;
* :mod:`.options` and :mod:`.runner`: the command line.

The bench is a client of gcrylike like any other: it uses the public API
only (``gcrylike.__all__``: the openers, :func:`gcrylike.implementations`
and :func:`gcrylike.algorithm_info` for what to measure, what it calls a
spec being an :class:`gcrylike.AlgorithmInfo`; :func:`gcrylike.config` and
:func:`gcrylike.data_path` for the data path; :func:`gcrylike.cpu_cycles`
and :func:`gcrylike.core_mhz` for the clocks), which
``tests/test_bench.py`` checks on the installed modules.  Only ``gcrylike
bench`` imports it.

Not a public API; :func:`add_arguments` and :func:`run_bench` are what the
command line calls.
"""

from __future__ import annotations

from .options import add_arguments
from .runner import run_bench
from .selection import BenchError

__all__ = ["BenchError", "add_arguments", "run_bench"]
