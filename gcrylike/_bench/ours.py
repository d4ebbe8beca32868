"""Our targets: one per driver and kind of algorithm (bench-slope's rows),
and our one-shot API, the yardstick of one-shot peers.

``spec`` here is the algorithm's :class:`gcrylike.AlgorithmInfo` (its name,
kind and sizes); every target is built on the public API alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gcrylike

from . import peers
from .targets import (
    IMPL,
    NONCE,
    ONE_SHOT,
    SECTOR_POINTS,
    SECTOR_SIZES,
    Buffers,
    Target,
    in_place,
    key_for,
    keyed,
)


def stream_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    key = key_for(spec.key_sizes)
    h = keyed(gcrylike.cipher_open(spec.name, impl=driver), key,
               NONCE[:spec.iv_sizes[0]] if spec.iv_sizes else None)
    mode = "STREAM" if spec.block_size == 1 else "BLOCK"

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[n]
        return in_place(h.encrypt, v)

    def dec(n: int) -> Callable[[], Any]:
        v = bufs[n]
        return in_place(h.decrypt, v)

    def fresh(n: int) -> Callable[[], Any]:
        return functools.partial(h.encrypt, bufs.data(n))

    def apart(n: int) -> Callable[[], Any]:
        data, out, encrypt = bufs.data(n), bufs.scratch(n), h.encrypt
        return lambda: encrypt(data, out=out)

    return Target(f"{driver} (ours)", driver, {f"{mode} enc": enc, f"{mode} dec": dec},
                  h.close, IMPL, 8 * len(key), tcrypt=((f"{mode} enc", "encryption"),),
                  fresh=fresh, apart=apart, path=gcrylike.data_path(h))


def block_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    """The raw block cipher over many blocks: bench-slope's ECB rows."""
    key = key_for(spec.key_sizes)
    h = keyed(gcrylike.block_cipher_open(spec.name, impl=driver), key)

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[n - n % spec.block_size]
        return in_place(h.encrypt_blocks, v)

    def dec(n: int) -> Callable[[], Any]:
        v = bufs[n - n % spec.block_size]
        return in_place(h.decrypt_blocks, v)

    return Target(f"{driver} (ours)", driver, {"ECB enc": enc, "ECB dec": dec}, h.close,
                  IMPL, 8 * len(key), tcrypt=(("ECB enc", "encryption"),),
                  path=gcrylike.data_path(h))


def mac_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    """One message per call on a keyed handle: reset, update, digest."""
    key = key_for(spec.key_sizes)
    h = keyed(gcrylike.mac_open(spec.name, impl=driver), key)
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
                  8 * len(key), split=split, path=gcrylike.data_path(h))


def aead_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    """One message per call on a keyed AeadHandle (bench-slope's POLY1305 rows)."""
    key = key_for(spec.key_sizes)
    nonce = NONCE[:spec.iv_sizes[0]]
    h = keyed(gcrylike.cipher_open(spec.name, impl=driver), key)  # the AEAD by its own name
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
                  tcrypt=((f"{mode} enc", "encryption"), (f"{mode} dec", "decryption")),
                  path=gcrylike.data_path(h))


def secretbox_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    """One box per call on ``SecretBox(key, impl=driver)``: our one-shot
    API itself, called as PyNaCl's is (one keyed object, bytes in, a new
    nonce || box message out; the whole message back in), so the peers are
    compared with these rows (``api`` one-shot)."""
    key = key_for(spec.key_sizes)
    nonce = NONCE[:spec.iv_sizes[0]]
    box = gcrylike.SecretBox(key, impl=driver)
    encrypt, decrypt = box.encrypt, box.decrypt

    def enc(n: int) -> Callable[[], Any]:
        data = bufs.data(n)
        return lambda: encrypt(data, nonce)

    def dec(n: int) -> Callable[[], Any]:
        sealed = encrypt(bufs.data(n), nonce)  # a valid message, made once per size
        return lambda: decrypt(sealed)

    return Target(f"{driver} (ours: SecretBox(key).encrypt(data, nonce))", driver,
                  {"SECRETBOX enc": enc, "SECRETBOX dec": dec}, box.close, IMPL, 8 * len(key),
                  tcrypt=(("SECRETBOX enc", "encryption"), ("SECRETBOX dec", "decryption")),
                  api=peers.ONE_SHOT)


#: The tweak of the sector rows: 32 bytes, the size of a plain64 IV.
TWEAK = bytes(range(32))


def keyed_tweakable(spec: Any, driver: str) -> Any:
    """A tweakable handle of ``driver`` with the bench's key."""
    return keyed(gcrylike.tweakable_open(spec.name, impl=driver), key_for(spec.key_sizes))


def tweakable_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    """One sector per call, in place, with a 32-byte (plain64-sized) tweak."""
    key = key_for(spec.key_sizes)
    h = keyed(gcrylike.tweakable_open(spec.name, impl=driver), key)
    tweak = TWEAK[:spec.max_tweak]

    def enc(n: int) -> Callable[[], Any]:
        v = bufs[max(n, spec.min_length)]
        return in_place(h.encrypt, v, tweak)

    def dec(n: int) -> Callable[[], Any]:
        v = bufs[max(n, spec.min_length)]
        return in_place(h.decrypt, v, tweak)

    return Target(f"{driver} (ours)", driver, {"SECTOR enc": enc, "SECTOR dec": dec}, h.close,
                  IMPL, 8 * len(key),
                  tcrypt=(("SECTOR enc", "encryption"), ("SECTOR dec", "decryption")),
                  tcrypt_sizes=SECTOR_SIZES, points=SECTOR_POINTS,
                  path=gcrylike.data_path(h))


#: Our per-driver target for each kind of spec the bench knows.
OUR_TARGETS: dict[str, Callable[[Any, str, Buffers], Target]] = {
    "cipher": stream_target,
    "block": block_target,
    "mac": mac_target,
    "aead": aead_target,
    "tweakable": tweakable_target,
    "secretbox": secretbox_target,
}

#: Row labels of one-shot calls (ours and peers').
ONE_SHOT_LABEL = {"mac": "one-shot MAC", "aead": "one-shot enc"}


#: Our public one-shot classes, by the registered algorithm each serves
#: (the docs name it; tests/test_bench.py checks their drivers): a plugin's
#: AEAD or secretbox has none.
ONE_SHOT_CLASSES: dict[str, Any] = {
    "CHACHA20-POLY1305": gcrylike.ChaCha20Poly1305,
    "XCHACHA20-POLY1305": gcrylike.XChaCha20Poly1305,
    "XSALSA20-POLY1305": gcrylike.SecretBox,
}


def one_shot_class(spec: Any) -> Any:
    """The public one-shot class of ``spec``, or None (a plugin's)."""
    return ONE_SHOT_CLASSES.get(spec.name.upper())


def one_shot_target(spec: Any, driver: str, bufs: Buffers) -> Target:
    """Our one-shot API on ``driver``: the like-for-like yardstick of the
    peers' one-shot calls (key set up inside every call)."""
    key = key_for(spec.key_sizes)
    label = ONE_SHOT_LABEL[spec.kind]
    if spec.kind == "mac":
        mac = gcrylike.mac

        def bind(n: int) -> Callable[[], Any]:
            data = bufs.data(n)
            return lambda: mac(spec.name, key, data, impl=driver)

        api, close = "gcrylike.mac(name, key, data)", (lambda: None)
    else:
        cls = ONE_SHOT_CLASSES[spec.name.upper()]  # selection checks one_shot_class()
        box = cls(key, impl=driver)
        nonce = NONCE[:spec.iv_sizes[0]]

        def bind(n: int) -> Callable[[], Any]:
            return functools.partial(box.encrypt, nonce, bufs.data(n), b"")

        api, close = f"{cls.__name__}(key).encrypt(nonce, data, aad)", box.close
    return Target(f"{driver} (ours one-shot: {api})", f"{driver} one-shot", {label: bind},
                  close, ONE_SHOT, 8 * len(key), tcrypt=((label, "encryption"),),
                  api=peers.ONE_SHOT)
