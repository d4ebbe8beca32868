"""Test helpers for plugin authors (and gcrylike's own tests).

Three tools, for a plugin's own test suite (pytest or anything else):

* :func:`check_known_answers` runs the known-answer self-test of a spec's
  kind (stream, MAC, AEAD, secretbox, block, tweakable) with your vectors
  on every implementation of a registered algorithm this CPU can run.
* :func:`compare` is a differential test: every implementation against
  another driver, or against a Python reference function, over random
  keys, nonces, lengths (around every SIMD width up to 16 blocks of 64
  bytes, and large), split calls and unaligned buffers.
* :func:`stack_residue` runs a burn-stack probe that *your* test build
  provides (see its docstring for why gcrylike cannot ship one in its
  installed extensions).
* :func:`isolated_registry` gives a test a fresh registry, so that it can
  check how your entry point loads (or fails) without the rest of the
  process seeing it.

All three raise on a wrong answer: :class:`gcrylike.SelftestFailed` for a
known answer (as a ``selftest`` hook does), :class:`Mismatch` (an
``AssertionError``) for a difference, naming the seed that reproduces it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from . import _registry
from ._errors import InvalidArgument, InvalidType, NotSupported
from .selftests.runner import (
    aead_selftest,
    block_selftest,
    mac_selftest,
    secretbox_selftest,
    stream_selftest,
    tweakable_selftest,
)
from .selftests.vector_types import (
    AeadVector,
    BlockVector,
    MacVector,
    SecretBoxVector,
    StreamVector,
    TweakVector,
)

__all__ = [
    "AeadVector", "BlockVector", "MacVector", "Mismatch", "SecretBoxVector", "StreamVector",
    "TweakVector", "check_known_answers", "compare", "isolated_registry", "runnable_drivers",
    "stack_residue",
]

#: The known-answer runner of each spec kind.
_RUNNERS: dict[str, Callable[..., None]] = {
    "cipher": stream_selftest, "mac": mac_selftest, "aead": aead_selftest,
    "secretbox": secretbox_selftest, "block": block_selftest,
    "tweakable": tweakable_selftest,
}


class Mismatch(AssertionError):
    """Two implementations (or one and the reference) disagree."""


@contextlib.contextmanager
def isolated_registry(plugins: str | Iterable[str] | None = None) -> Iterator[None]:
    """A fresh registry inside the ``with`` block: the built-in algorithms
    and the entry-point plugins load again on first use (``plugins`` as for
    :func:`gcrylike.set_plugins`; default: ``GCRYLIKE_PLUGINS`` or all),
    with no self-test results; afterwards the previous registry is back.
    Use it to test that your installed plugin loads, or how it fails::

        with gcrylike.testing.isolated_registry(plugins=["salsa208"]):
            assert gcrylike.plugin_errors() == {}
            assert "SALSA208" in gcrylike.algorithms()

    Not for use while other threads use gcrylike.
    """
    with _registry.isolated(plugins):
        yield


def runnable_drivers(algorithm: str | int) -> list[str]:
    """The drivers of ``algorithm`` that can run here now, best first."""
    spec = _registry.lookup(algorithm)
    return [i.driver for i in _registry.ranked(spec) if _registry.runnable_reason(i) is None]


def _drivers(spec: Any, drivers: Iterable[str] | None) -> list[Any]:
    if drivers is None:
        impls = [i for i in _registry.ranked(spec) if _registry.runnable_reason(i) is None]
    else:
        if isinstance(drivers, str):
            raise InvalidType("drivers must be an iterable of driver names, not a str")
        by_name = {i.driver.lower(): i for i in spec.implementations}
        impls = []
        for d in drivers:
            impl = by_name.get(d.lower()) if isinstance(d, str) else None
            if impl is None:
                raise InvalidArgument(f"{spec.name} has no implementation {d!r}")
            why = _registry.runnable_reason(impl)
            if why:
                raise NotSupported(f"{impl.driver} cannot run here: {why}")
            impls.append(impl)
    if not impls:
        raise NotSupported(f"no implementation of {spec.name} can run here")
    return impls


def check_known_answers(algorithm: str | int, vectors: Sequence[Any], *,
                        drivers: Iterable[str] | None = None) -> list[str]:
    """Run the known-answer checks of ``algorithm``'s kind with ``vectors``
    (:class:`~gcrylike.selftests.StreamVector`, :class:`~gcrylike.selftests.MacVector`,
    :class:`~gcrylike.selftests.AeadVector`, :class:`~gcrylike.selftests.SecretBoxVector`,
    :class:`~gcrylike.selftests.BlockVector` or :class:`~gcrylike.selftests.TweakVector`,
    also importable from here)
    on each of ``drivers`` (default: every one that can run here), and
    return the drivers checked.  Raises :class:`gcrylike.SelftestFailed` on
    the first wrong answer, and refuses an empty vector list (a test that
    checks nothing would pass)."""
    spec = _registry.lookup(algorithm)
    vectors = list(vectors)
    if not vectors:
        raise InvalidArgument("no vectors given: a known-answer test needs at least one")
    runner = _RUNNERS[spec.kind]
    checked = []
    for impl in _drivers(spec, drivers):
        runner(spec, impl, vectors)
        checked.append(impl.driver)
    return checked


# --- differential testing ---------------------------------------------------

#: Lengths every comparison covers: empty, short, and each side of 1, 2, 4,
#: 8 and 16 blocks of 64 bytes (the SIMD widths of the built-in drivers).
EDGE_LENGTHS = tuple(sorted({0, 1, 15, 16, 17, 63, 200}
                            | {64 * b + d for b in (1, 2, 4, 8, 16) for d in (-1, 0, 1)}))


def _cuts(rng: random.Random, n: int, unit: int) -> list[int]:
    """Random piece lengths (multiples of ``unit``) summing to ``n``."""
    out, left = [], n
    while left:
        piece = min(left, unit * rng.choice((1, 1, 2, 3, 5, 8, 17, 64, 1000)) // unit * unit
                    or unit)
        if rng.random() < 0.3:
            piece = left
        out.append(piece)
        left -= piece
    return out


def _placed(data: bytes, offset: int) -> tuple[bytearray, memoryview]:
    """``data`` in a buffer ``offset`` bytes past its start (unaligned)."""
    buf = bytearray(offset) + bytearray(data)
    return buf, memoryview(buf)[offset:]


class _Kind:
    """How :func:`compare` drives one kind of spec: random inputs, a run on
    a driver (in pieces, at an offset) and the reference's answer."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec

    unit = 1

    key_sizes: tuple[int, ...] = ()
    iv_sizes: tuple[int, ...] = ()

    def inputs(self, rng: random.Random, n: int) -> dict[str, bytes]:
        spec = self.spec
        got = {"key": rng.randbytes(rng.choice(self.key_sizes or spec.key_sizes)),
               "data": rng.randbytes(n)}
        if getattr(spec, "iv_sizes", ()):
            got["nonce"] = rng.randbytes(rng.choice(self.iv_sizes or spec.iv_sizes))
        return got


class _Stream(_Kind):
    def open(self, driver: str) -> Any:
        from ._handle import cipher_open
        return cipher_open(self.spec.name, impl=driver)

    def run(self, driver, inp, cuts, offset):
        with self.open(driver) as h:
            h.setkey(inp["key"])
            if "nonce" in inp:
                h.setiv(inp["nonce"])
            buf, view = _placed(inp["data"], offset)
            pos = 0
            for c in cuts:
                h.encrypt(view[pos:pos + c], out=view[pos:pos + c])
                pos += c
            out = bytes(view)
            if "nonce" in inp:
                h.setiv(inp["nonce"])
            else:
                h.setkey(inp["key"])
            if h.decrypt(out) != inp["data"]:
                raise Mismatch(f"{driver}: decrypt does not invert encrypt")
            return out

    def reference(self, ref, inp):
        args = [inp["key"]] + ([inp["nonce"]] if "nonce" in inp else []) + [inp["data"]]
        return ref(*args)


class _Mac(_Kind):
    def run(self, driver, inp, cuts, offset):
        from ._mac import mac_open
        with mac_open(self.spec.name, impl=driver) as h:
            h.setkey(inp["key"])
            _, view = _placed(inp["data"], offset)
            pos = 0
            for c in cuts:
                h.update(view[pos:pos + c])
                pos += c
            return h.digest()

    def reference(self, ref, inp):
        return ref(inp["key"], inp["data"])


class _Aead(_Kind):
    def inputs(self, rng, n):
        got = super().inputs(rng, n)
        got["aad"] = rng.randbytes(rng.choice((0, 1, 12, 16, 17, 100)))
        return got

    def run(self, driver, inp, cuts, offset):
        from ._aead import aead_open
        with aead_open(self.spec.cipher, self.spec.mode, driver) as h:
            h.setkey(inp["key"])
            h.setiv(inp["nonce"])
            half = len(inp["aad"]) // 2
            h.authenticate(inp["aad"][:half])
            h.authenticate(inp["aad"][half:])
            _, view = _placed(inp["data"], offset)
            pos = 0
            for c in cuts:
                h.encrypt(view[pos:pos + c], out=view[pos:pos + c])
                pos += c
            out = bytes(view) + h.gettag()
            h.setiv(inp["nonce"])
            h.authenticate(inp["aad"])
            if h.decrypt(out[:len(inp["data"])]) != inp["data"]:
                raise Mismatch(f"{driver}: decrypt does not invert encrypt")
            h.checktag(out[len(inp["data"]):])
            return out

    def reference(self, ref, inp):
        return ref(inp["key"], inp["nonce"], inp["aad"], inp["data"])


class _Block(_Kind):
    @property
    def unit(self):
        return self.spec.block_size

    def run(self, driver, inp, cuts, offset):
        from ._block import block_cipher_open
        with block_cipher_open(self.spec.name, impl=driver) as h:
            h.setkey(inp["key"])
            _, view = _placed(inp["data"], offset)
            pos = 0
            for c in cuts:
                h.encrypt_blocks(view[pos:pos + c], out=view[pos:pos + c])
                pos += c
            out = bytes(view)
            if h.decrypt_blocks(out) != inp["data"]:
                raise Mismatch(f"{driver}: decrypt_blocks does not invert encrypt_blocks")
            return out

    def reference(self, ref, inp):
        return ref(inp["key"], inp["data"])


class _Tweakable(_Kind):
    def inputs(self, rng, n):
        got = super().inputs(rng, max(n, self.spec.min_length))
        got["tweak"] = rng.randbytes(rng.randint(0, self.spec.max_tweak))
        return got

    def run(self, driver, inp, cuts, offset):
        from ._tweakable import tweakable_open
        with tweakable_open(self.spec.name, impl=driver) as h:
            h.setkey(inp["key"])
            buf, view = _placed(inp["data"], offset)
            h.encrypt(view, inp["tweak"], out=view)  # one message: no pieces
            out = bytes(view)
            if h.decrypt(out, inp["tweak"]) != inp["data"]:
                raise Mismatch(f"{driver}: decrypt does not invert encrypt")
            return out

    def reference(self, ref, inp):
        return ref(inp["key"], inp["tweak"], inp["data"])


_KINDS = {"cipher": _Stream, "mac": _Mac, "aead": _Aead, "block": _Block,
          "tweakable": _Tweakable}


def compare(algorithm: str | int, reference: str | Callable[..., bytes], *,
            drivers: Iterable[str] | None = None, trials: int = 40,
            lengths: Iterable[int] | None = None, key_sizes: Iterable[int] | None = None,
            iv_sizes: Iterable[int] | None = None, seed: int = 0) -> int:
    """Differential test: each of ``drivers`` of ``algorithm`` (default:
    every one that can run here) against ``reference``, a driver name or a
    Python function of the inputs returning the expected output:

    =========  ===============================================================
    kind       ``reference(...)`` returns
    =========  ===============================================================
    stream     ``(key, nonce, data)`` (no ``nonce`` without ``iv_sizes``):
               the ciphertext
    MAC        ``(key, data)``: the tag
    AEAD       ``(key, nonce, aad, data)``: ciphertext || tag
    block      ``(key, data)``: the ciphertext (whole blocks)
    tweakable  ``(key, tweak, data)``: the ciphertext
    =========  ===============================================================

    Each case uses a random key and nonce (of random accepted sizes, or of
    ``key_sizes`` and ``iv_sizes`` when the reference knows fewer) and data
    of one of ``lengths`` (default: :data:`EDGE_LENGTHS` and ``trials``
    random lengths up to 5000, plus one of 70000; rounded down to whole
    blocks for a block cipher), fed in random pieces (not for a tweakable
    cipher, whose message is one call) from a buffer at a random offset of
    0 to 15 bytes, and decrypted back.  Returns the number of cases run;
    raises :class:`Mismatch` naming the driver, case and ``seed``.
    Secretboxes have no public opener yet, so no comparison.
    """
    spec = _registry.lookup(algorithm)
    kind = _KINDS.get(spec.kind)
    if kind is None:
        raise NotSupported(f"compare() does not drive {spec.kind} specs")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 0:
        raise InvalidArgument("trials must be an int >= 0")
    if not (callable(reference) or isinstance(reference, str)):
        raise InvalidType("reference must be a driver name or a function")
    driver_k = kind(spec)
    for field, chosen in (("key_sizes", key_sizes), ("iv_sizes", iv_sizes)):
        if chosen is None:
            continue
        allowed = getattr(spec, field, ())
        chosen = tuple(chosen)
        if not chosen or not set(chosen) <= set(allowed):
            raise InvalidArgument(f"{field} must be some of {allowed}")
        setattr(driver_k, field, chosen)
    rng = random.Random(seed)
    if lengths is None:
        sizes = [*EDGE_LENGTHS, *(rng.randint(0, 5000) for _ in range(trials)), 70000]
    else:
        sizes = list(lengths)
    impls = _drivers(spec, drivers)
    ref_impl = _drivers(spec, [reference])[0] if isinstance(reference, str) else None
    unit = driver_k.unit
    for case, n in enumerate(sizes):
        n -= n % unit
        inp = driver_k.inputs(rng, n)
        n = len(inp["data"])
        if ref_impl is not None:
            want = driver_k.run(ref_impl.driver, inp, [n] if n else [], 0)
        else:
            want = driver_k.reference(reference, inp)
        for impl in impls:
            cuts = _cuts(rng, n, unit)
            offset = rng.randrange(16)
            got = driver_k.run(impl.driver, inp, cuts, offset)
            if got != want:
                first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False))
                              if a != b),
                             min(len(got), len(want)))
                raise Mismatch(
                    f"{impl.driver} differs from {reference if ref_impl else 'the reference'}"
                    f" (seed={seed}, case {case}): {n} bytes in pieces {cuts} at offset "
                    f"{offset}, first difference at byte {first}; inputs "
                    + ", ".join(f"{k}={v.hex() if len(v) <= 64 else f'<{len(v)} bytes>'}"
                                for k, v in inp.items()))
    return len(sizes)


# --- burn-stack probe -------------------------------------------------------

def stack_residue(probe: Any, crypt: Any, ctx: Any, data: bytes,
                  needles: Iterable[int], *, depth: int = 8192) -> tuple[int, bytes, int]:
    """Run ``crypt(ctx, dst, src, n)`` on ``data`` through ``probe`` and
    return ``(rc, output, found)``: crypt's return code and output, and how
    many 32-bit words of ``needles`` (keystream words, the state before the
    feed-forward, key words) are left on the ``depth`` bytes of stack the
    call used.  ``found == 0`` is the burn discipline held.  ``crypt`` is a
    function pointer (``ffi.addressof(lib, "my_crypt")``).

    ``probe`` is a cffi function with the signature::

        size_t probe(int (*fn)(void *, uint8_t *, const uint8_t *, size_t),
                     void *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                     const uint32_t *needles, size_t nneedles, size_t depth,
                     int *rc);

    that clears the stack, calls ``fn`` and scans the stack below its own
    frame.  gcrylike's installed extensions do not export one: a function
    that reads below the stack pointer belongs only in a test build, never
    in code deployed next to keys, and a Python-level scan cannot work (the
    interpreter's own frames overwrite that stack before Python runs
    again).  Build the probe into a test-only copy of your extension
    (gcrylike does the same: ``gcry_stack_residue_after`` in
    ``tests/native/testhooks.c`` of its repository, compiled into test
    copies of each module with ``GCRY_TEST_HOOKS`` defined, never into the
    wheel), and check that the probe can see: with burning switched off in
    that copy it must find residue.  ``crypt`` must then be a pointer of the
    probe's own ffi (cast the installed function's address to it to test
    the shipped code).
    """
    from ._core import ffi

    words = sorted({w & 0xFFFFFFFF for w in needles} - {0, 0xFFFFFFFF})
    if not words:
        raise InvalidArgument("no needles: give the key or keystream words to look for")
    arr = ffi.new("uint32_t[]", words)
    dst = ffi.new("uint8_t[]", max(len(data), 1))
    rc = ffi.new("int *")
    found = probe(crypt, ctx, dst, data, len(data), arr, len(words), depth, rc)
    return rc[0], bytes(ffi.buffer(dst, len(data))), found
