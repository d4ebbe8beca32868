"""A small pure-Python stream cipher used to exercise the plugin API.

Keystream block i = BLAKE2b(key, nonce || i) (64 bytes).  ``bad`` makes an
implementation that flips one keystream bit, so its self-test must fail;
``late`` one that flips a bit of keystream byte 1000 onwards (the self-test
does not look there: a bug only a differential test finds).
"""

from __future__ import annotations

import hashlib
import struct

from gcrylike import CipherSpec, Implementation, SelftestFailed
from gcrylike._core import ffi

KEY_OFF, NONCE_OFF, POS_OFF, BAD_OFF = 0, 32, 48, 56
CTX_SIZE = 64


def _view(ctx):
    return ffi.buffer(ctx, CTX_SIZE)


LATE = 1000


def _keystream(key: bytes, nonce: bytes, start: int, n: int, bad: bool | int) -> bytes:
    first, skip = divmod(start, 64)
    out = bytearray()
    block = first
    while len(out) < skip + n:
        out += hashlib.blake2b(nonce + struct.pack("<Q", block), key=key).digest()
        block += 1
    if bad == 1:
        out[0] ^= 1
    elif bad == 2 and first * 64 + len(out) > LATE:
        out[max(LATE - first * 64, 0)] ^= 1
    return bytes(out[skip: skip + n])


def setkey(ctx, key, impl):
    v = _view(ctx)
    v[KEY_OFF:KEY_OFF + 32] = ffi.buffer(key)[:]
    v[BAD_OFF:BAD_OFF + 1] = {"bad": b"\x01", "late": b"\x02"}.get(impl.token, b"\x00")


def setiv(ctx, iv):
    v = _view(ctx)
    v[NONCE_OFF:NONCE_OFF + 8] = ffi.buffer(iv)[:]
    v[POS_OFF:POS_OFF + 8] = bytes(8)


def setctr(ctx, block):
    _view(ctx)[POS_OFF:POS_OFF + 8] = struct.pack("<Q", block * 64)


def crypt(ctx, dst, src, n):
    v = _view(ctx)
    pos = struct.unpack("<Q", v[POS_OFF:POS_OFF + 8])[0]
    key, nonce = v[KEY_OFF:KEY_OFF + 32], v[NONCE_OFF:NONCE_OFF + 8]
    ks = _keystream(key, nonce, pos, n, v[BAD_OFF][0])
    data = bytes(ffi.buffer(src, n))
    ffi.buffer(dst, n)[:] = bytes(a ^ b for a, b in zip(data, ks, strict=True))
    v[POS_OFF:POS_OFF + 8] = struct.pack("<Q", pos + n)


def selftest(spec, impl):
    from gcrylike._handle import CipherHandle

    key, nonce = bytes(range(32)), bytes(8)
    want = hashlib.blake2b(nonce + struct.pack("<Q", 0), key=key).digest()
    with CipherHandle(spec, impl, auto=False, _selftesting=True) as h:
        h.setkey(key)
        h.setiv(nonce)
        if h.encrypt(bytes(64)) != want:
            raise SelftestFailed(f"{impl.driver}: wrong keystream")


def make_spec(name="TOY", algo=90001, impls=None, aliases=("toy-stream",)):
    if impls is None:
        impls = (Implementation(f"{name.lower()}-python", 100, token="good"),)
    return CipherSpec(
        name=name, algo=algo, aliases=aliases, key_sizes=(32,), iv_sizes=(8,),
        context_size=CTX_SIZE, implementations=tuple(impls), setkey=setkey, setiv=setiv,
        setctr=setctr, encrypt_stream=crypt, decrypt_stream=crypt, selftest=selftest,
    )
