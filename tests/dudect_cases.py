"""What the timing test (tests/test_dudect.py) times: for each kind of spec,
the operations whose time could depend on a secret, each as a programme of
native calls (tests/dudect.py) and the two input classes it is timed on.

Two kinds of class pairs: fixed versus random (an all-zero key or message
against fresh random ones: the paper's choice, which a key- or data-
dependent branch or table index tells apart), and a forgery wrong at the
tag's first byte versus one wrong at its last (which a tag compare that
stops at the first difference tells apart).

The native calls are the installed module's entry points, the ones users
run.  A spec's Python hooks (``setkey``, ``setiv``) are run once against a
recorder standing in for the module's ``lib``: the calls they would make
become the steps, so no argument order is written down twice here.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from dudect import ClassMaker, Step

#: bytes of message: sixteen 64-byte blocks, the widest SIMD group (AVX-512
#: ChaCha/Salsa20), and enough for the vectorised Poly1305 and NH paths
MESSAGE_LENGTH = 1024
#: associated data of the AEAD cases (public, fixed)
AAD_LENGTH = 13


@dataclass(frozen=True)
class Input:
    """The argument that takes each measurement's input (``length`` bytes;
    a spec hook may ask its ``len``)."""

    length: int

    def __len__(self) -> int:
        return self.length


@dataclass(frozen=True)
class Programme:
    steps: list[Step]
    classes: tuple[ClassMaker, ClassMaker]
    #: bit mask of the steps that must return nonzero (a forgery's open)
    expect_failed: int = 0


def fixed_vs_random(length: int) -> tuple[ClassMaker, ClassMaker]:
    rng = np.random.default_rng(int.from_bytes(os.urandom(16), "little"))
    return (lambda n: np.zeros((n, length), np.uint8),
            lambda n: rng.integers(0, 256, (n, length), dtype=np.uint8))


def forged_first_vs_last(good: bytes, tag_at: int, tag_size: int) -> tuple[ClassMaker,
                                                                            ClassMaker]:
    """GOOD (a valid box or tag) with its tag (TAG_SIZE bytes from TAG_AT)
    wrong at the first byte, and at the last."""
    def wrong_at(i: int) -> ClassMaker:
        row = np.frombuffer(good, np.uint8).copy()
        row[i] ^= 1
        return lambda n: np.broadcast_to(row, (n, len(row)))
    return wrong_at(tag_at), wrong_at(tag_at + tag_size - 1)


class _Recorder:
    """Stands in for a cipher package's ``lib`` while one of its Python
    hooks runs: records the native calls instead of making them."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple]] = []

    def __getattr__(self, name: str):
        def record(*args):
            self.calls.append((name, args))
            return 0
        return record


class Bench:
    """One implementation's context and buffers, and the steps on them."""

    def __init__(self, spec, impl) -> None:
        self.spec, self.impl = spec, impl
        self.package = importlib.import_module(spec.setkey.__module__)
        self.ffi = self.package.ffi
        self._keep: list = []
        raw = self.mem(spec.context_size + 64)
        self.ctx = self.ffi.cast("void *", raw + (-self.address(raw) % 64))  # 64-aligned

    def mem(self, data: bytes | int):
        """C memory holding DATA (or that many zero bytes), kept alive; of
        exactly its length (a bytes initialiser would add a terminator,
        which a hook's ``len`` would count)."""
        size = data if isinstance(data, int) else len(data)
        buf = self.ffi.new("uint8_t[]", max(size, 1))
        if not isinstance(data, int):
            self.ffi.memmove(buf, data, size)
        self._keep.append(buf)
        return buf

    def address(self, cdata) -> int:
        return int(self.ffi.cast("uintptr_t", cdata))

    def step(self, fn, *args) -> Step:
        """A call of FN, a native entry point (a cffi function of the
        package or its name); an :class:`Input` argument takes the input."""
        name = fn if isinstance(fn, str) else fn.__name__
        fn_address = self.address(self.ffi.addressof(self.package.lib, name))
        where = next((i for i, a in enumerate(args) if isinstance(a, Input)), None)
        ints = tuple(0 if isinstance(a, Input) else
                     a if isinstance(a, int) else self.address(a) for a in args)
        return Step(fn_address, ints) if where is None else Step(fn_address, ints, where)

    def hook_steps(self, hook: Callable, *args) -> list[Step]:
        """The native calls the spec's Python HOOK makes on ARGS."""
        recorder, real = _Recorder(), self.package.lib
        self.package.lib = recorder  # the hooks look ``lib`` up when called
        try:
            hook(*args)
        finally:
            self.package.lib = real
        return [self.step(name, *a) for name, a in recorder.calls]

    def keyed(self) -> None:
        """Key the context (not timed) with a random key."""
        self.spec.setkey(self.ctx, self.mem(os.urandom(self.spec.key_sizes[0])), self.impl)

    def key_input(self) -> tuple[list[Step], int]:
        """Steps keying the context with the input, and the key length."""
        n = self.spec.key_sizes[0]
        return self.hook_steps(self.spec.setkey, self.ctx, Input(n), self.impl), n


# -- stream ciphers -------------------------------------------------------

def _stream_steps(b: Bench, msg) -> list[Step]:
    iv = b.mem(os.urandom(b.spec.iv_sizes[0]))
    return [*b.hook_steps(b.spec.setiv, b.ctx, iv),
            b.step(b.spec.encrypt_stream, b.ctx, b.mem(MESSAGE_LENGTH), msg, MESSAGE_LENGTH)]


def stream_key(b: Bench) -> Programme:
    setkey, n = b.key_input()
    return Programme([*setkey, *_stream_steps(b, b.mem(os.urandom(MESSAGE_LENGTH)))],
                     fixed_vs_random(n))


def stream_message(b: Bench) -> Programme:
    b.keyed()
    return Programme(_stream_steps(b, Input(MESSAGE_LENGTH)), fixed_vs_random(MESSAGE_LENGTH))


# -- MACs (Poly1305, NHPoly1305): setkey starts a fresh computation ------

def _mac_steps(b: Bench, key, msg) -> list[Step]:
    return [*b.hook_steps(b.spec.setkey, b.ctx, key, b.impl),
            b.step(b.spec.update, b.ctx, msg, MESSAGE_LENGTH),
            b.step(b.spec.read, b.ctx, b.mem(b.spec.digest_size), b.spec.digest_size)]


def mac_key(b: Bench) -> Programme:
    n = b.spec.key_sizes[0]
    return Programme(_mac_steps(b, Input(n), b.mem(os.urandom(MESSAGE_LENGTH))),
                     fixed_vs_random(n))


def mac_message(b: Bench) -> Programme:
    key = b.mem(os.urandom(b.spec.key_sizes[0]))
    return Programme(_mac_steps(b, key, Input(MESSAGE_LENGTH)), fixed_vs_random(MESSAGE_LENGTH))


def mac_verify_forged(b: Bench) -> Programme:
    key, msg, size = (b.mem(os.urandom(b.spec.key_sizes[0])),
                      b.mem(os.urandom(MESSAGE_LENGTH)), b.spec.digest_size)
    b.spec.setkey(b.ctx, key, b.impl)
    b.spec.update(b.ctx, msg, MESSAGE_LENGTH)
    tag = b.mem(size)
    b.spec.read(b.ctx, tag, size)
    steps = [*b.hook_steps(b.spec.setkey, b.ctx, key, b.impl),
             b.step(b.spec.update, b.ctx, msg, MESSAGE_LENGTH),
             b.step(b.spec.verify, b.ctx, Input(size), size)]
    return Programme(steps, forged_first_vs_last(bytes(tag), 0, size), 1 << (len(steps) - 1))


# -- AEADs (one-shot seal and open, RFC 8439 box: ciphertext || tag) ------

def _aead_seal(b: Bench, msg) -> Step:
    nonce, aad = b.mem(os.urandom(b.spec.iv_sizes[0])), b.mem(os.urandom(AAD_LENGTH))
    return b.step(b.spec.seal, b.ctx, nonce, len(nonce), aad, AAD_LENGTH, msg, MESSAGE_LENGTH,
                  b.mem(MESSAGE_LENGTH + b.spec.tag_size))


def aead_key(b: Bench) -> Programme:
    setkey, n = b.key_input()
    return Programme([*setkey, _aead_seal(b, b.mem(os.urandom(MESSAGE_LENGTH)))],
                     fixed_vs_random(n))


def aead_message(b: Bench) -> Programme:
    b.keyed()
    return Programme([_aead_seal(b, Input(MESSAGE_LENGTH))], fixed_vs_random(MESSAGE_LENGTH))


def aead_open_forged(b: Bench) -> Programme:
    b.keyed()
    nonce, aad = b.mem(os.urandom(b.spec.iv_sizes[0])), b.mem(os.urandom(AAD_LENGTH))
    n = MESSAGE_LENGTH + b.spec.tag_size
    box = b.mem(n)
    b.spec.seal(b.ctx, nonce, len(nonce), aad, AAD_LENGTH, b.mem(os.urandom(MESSAGE_LENGTH)),
                MESSAGE_LENGTH, box)
    step = b.step(b.spec.open, b.ctx, nonce, len(nonce), aad, AAD_LENGTH, Input(n), n,
                  b.mem(MESSAGE_LENGTH))
    return Programme([step], forged_first_vs_last(bytes(box), MESSAGE_LENGTH, b.spec.tag_size),
                     1)


# -- secretbox (NaCl box: tag || ciphertext) ------------------------------

def _box_seal(b: Bench, msg) -> Step:
    nonce = b.mem(os.urandom(b.spec.iv_sizes[0]))
    return b.step(b.spec.seal, b.ctx, nonce, len(nonce), msg, MESSAGE_LENGTH,
                  b.mem(MESSAGE_LENGTH + b.spec.tag_size))


def secretbox_key(b: Bench) -> Programme:
    setkey, n = b.key_input()
    return Programme([*setkey, _box_seal(b, b.mem(os.urandom(MESSAGE_LENGTH)))],
                     fixed_vs_random(n))


def secretbox_message(b: Bench) -> Programme:
    b.keyed()
    return Programme([_box_seal(b, Input(MESSAGE_LENGTH))], fixed_vs_random(MESSAGE_LENGTH))


def secretbox_open_forged(b: Bench) -> Programme:
    b.keyed()
    nonce = b.mem(os.urandom(b.spec.iv_sizes[0]))
    n = MESSAGE_LENGTH + b.spec.tag_size
    box = b.mem(n)
    b.spec.seal(b.ctx, nonce, len(nonce), b.mem(os.urandom(MESSAGE_LENGTH)), MESSAGE_LENGTH, box)
    step = b.step(b.spec.open, b.ctx, nonce, len(nonce), Input(n), n, b.mem(MESSAGE_LENGTH))
    return Programme([step], forged_first_vs_last(bytes(box), 0, b.spec.tag_size), 1)


# -- tweakable (Adiantum) and block ciphers (AES) -------------------------

def _tweakable_encrypt(b: Bench, msg) -> Step:
    tweak = b.mem(os.urandom(b.spec.max_tweak))
    return b.step(b.spec.encrypt, b.ctx, b.mem(MESSAGE_LENGTH), msg, MESSAGE_LENGTH, tweak,
                  b.spec.max_tweak)


def tweakable_key(b: Bench) -> Programme:
    setkey, n = b.key_input()
    return Programme([*setkey, _tweakable_encrypt(b, b.mem(os.urandom(MESSAGE_LENGTH)))],
                     fixed_vs_random(n))


def tweakable_message(b: Bench) -> Programme:
    b.keyed()
    return Programme([_tweakable_encrypt(b, Input(MESSAGE_LENGTH))],
                     fixed_vs_random(MESSAGE_LENGTH))


def _block_encrypt(b: Bench, msg) -> Step:
    return b.step(b.spec.encrypt_blocks, b.ctx, b.mem(MESSAGE_LENGTH), msg, MESSAGE_LENGTH)


def block_key(b: Bench) -> Programme:
    setkey, n = b.key_input()
    return Programme([*setkey, _block_encrypt(b, b.mem(os.urandom(MESSAGE_LENGTH)))],
                     fixed_vs_random(n))


def block_message(b: Bench) -> Programme:
    b.keyed()
    return Programme([_block_encrypt(b, Input(MESSAGE_LENGTH))], fixed_vs_random(MESSAGE_LENGTH))


#: spec kind -> (case name, programme builder)
CASES: dict[str, tuple[tuple[str, Callable[[Bench], Programme]], ...]] = {
    "cipher": (("key", stream_key), ("message", stream_message)),
    "mac": (("key", mac_key), ("message", mac_message), ("verify-forged", mac_verify_forged)),
    "aead": (("key", aead_key), ("message", aead_message), ("open-forged", aead_open_forged)),
    "secretbox": (("key", secretbox_key), ("message", secretbox_message),
                  ("open-forged", secretbox_open_forged)),
    "tweakable": (("key", tweakable_key), ("message", tweakable_message)),
    "block": (("key", block_key), ("message", block_message)),
}
