"""Salsa20/8 for gcrylike: an example plugin with its own cffi extension."""

from __future__ import annotations

import gcrylike
from gcrylike import CipherSpec, Implementation

from ._salsa208 import ffi, lib

# Any positive id no other registered spec uses.
ALGO_ID = 40001

# Known answer: Salsa20/8, key 01 00 .. 00 (32 bytes), zero nonce; keystream
# blocks 0 and 1024 (google/adiantum test_vectors/ours/Salsa20/Salsa20_8_32.json,
# "Set bit 0 of key").
_KAT_KEY = bytes.fromhex("01" + "00" * 31)
_KAT_NONCE = bytes(8)
_KAT_BLOCKS = {
    0: bytes.fromhex(
        "16d9429c9c3be35fc5daddc7ed769dc2cdcd7e5ea3128de22fd0ebbeb15c06a3"
        "9fdb5d52ad9eb30318576ba521249c6e3f5c84e39479be6de1d45342c5a85024"),
    1024: bytes.fromhex(
        "b799ea3e6cdb9ccee256a72315c25bdbe765f734e2f46cd4d6d133411135fce7"
        "2d5a770f35da85ba7ddb9123d9235be345bed6df25ed3662d7fed03d1be3ab8e"),
}


def _check(rc: int, what: str) -> None:
    """Turn a C return code into the matching gcrylike exception."""
    if rc == gcrylike.ErrorCode.INV_KEYLEN:
        raise gcrylike.InvalidKeyLength(f"SALSA208 {what}: key must be 16 or 32 bytes")
    if rc == gcrylike.ErrorCode.NOT_SUPPORTED:
        raise gcrylike.NotSupported(f"SALSA208 {what}: implementation not built")
    if rc:
        raise gcrylike.GcryError(f"SALSA208 {what}: error {rc}")


# Hooks.  ctx is the context's cffi ``void *``; key and iv are cffi buffers.
def _setkey(ctx, key, impl):
    _check(lib.s208_setkey(ctx, key, len(key), impl.token), "setkey")


def _setiv(ctx, iv):
    lib.s208_setiv(ctx, iv)


def _setctr(ctx, block):
    if block >= 1 << 64:
        raise gcrylike.CounterExhausted(f"SALSA208: block {block} is past the counter")
    lib.s208_setctr(ctx, block)


# The stream hooks are the cffi function itself: s208_crypt(ctx, dst, src, n)
# returns 0 or an ErrorCode value, which gcrylike turns into the exception.
_crypt = lib.s208_crypt


def _selftest(spec, impl):
    """Known answers, then leftover keystream: pieces equal one call."""

    def run(ptr, data):
        out = ffi.new("uint8_t[]", len(data))
        _check(_crypt(ptr, out, data, len(data)), "crypt")
        return ffi.buffer(out)[:]

    def fail(what):
        raise gcrylike.SelftestFailed(f"SALSA208 on {impl.driver}: {what}")

    ctx = gcrylike.Context(spec.context_size)  # zeroed C memory, wiped by free()
    try:
        _setkey(ctx.ptr, ffi.from_buffer(_KAT_KEY), impl)
        for block, want in _KAT_BLOCKS.items():
            _setiv(ctx.ptr, _KAT_NONCE)
            _setctr(ctx.ptr, block)
            if run(ctx.ptr, bytes(64)) != want:
                fail(f"keystream block {block}")
        msg = bytes(range(200))
        _setiv(ctx.ptr, _KAT_NONCE)
        whole = run(ctx.ptr, msg)
        _setiv(ctx.ptr, _KAT_NONCE)
        if run(ctx.ptr, msg[:1]) + run(ctx.ptr, msg[1:199]) + run(ctx.ptr, msg[199:]) != whole:
            fail("split calls differ from one call")
    finally:
        ctx.free()


def _implementations() -> tuple[Implementation, ...]:
    impls = [Implementation("salsa208-generic", 100, token=0, description="portable C")]
    if lib.s208_have_asm():
        impls.append(Implementation("salsa208-amd64-sse2", 300, frozenset({"sse2"}), token=1,
                                    description="portable C core, SSE2 keystream XOR"))
    return tuple(impls)


SPEC = CipherSpec(
    name="SALSA208",
    algo=ALGO_ID,
    aliases=("salsa20/8",),
    key_sizes=(32, 16),
    iv_sizes=(8,),
    context_size=lib.s208_ctxsize(),
    implementations=_implementations(),
    setkey=_setkey,
    setiv=_setiv,
    setctr=_setctr,
    encrypt_stream=_crypt,
    decrypt_stream=_crypt,
    selftest=_selftest,
    description="Salsa20 with 8 rounds (gcrylike plugin example)",
)
