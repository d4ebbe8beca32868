"""Salsa20, Salsa20/12, XSalsa20 and HSalsa20 (Bernstein): portable C, SSE2
four-block, AVX2 eight-block and AVX-512 sixteen-block assembly.

One C glue serves every variant: the round count is a parameter of the core
and XSalsa20 is Salsa20 keyed by HSalsa20 ("Extending the Salsa20 nonce").
The registry hands the chosen implementation's token to ``setkey``, and the
glue dispatches on it for every later call, widest routine first.
"""

from __future__ import annotations

from gcrylike._errors import (
    CounterExhausted,
    InvalidArgument,
    InvalidIVLength,
    InvalidKeyLength,
    InvalidType,
    SelftestFailed,
    check,
)
from gcrylike._spec import CipherSpec, Implementation, implementations, native_drivers
from gcrylike.selftests.runner import stream_selftest
from gcrylike.selftests.vectors_salsa20 import VECTORS
from gcrylike.selftests.vectors_xsalsa20 import HSALSA20, XSALSA20

from ._salsa20 import ffi, lib

GCRY_CIPHER_SALSA20 = 313
GCRY_CIPHER_SALSA20R12 = 314
# An id libgcrypt does not define: ours, above its range.
GCRYLIKE_CIPHER_XSALSA20 = 1004

#: Salsa20's drivers: salsa20_glue.c's rows, beside its tiers.
DRIVERS = native_drivers(ffi, lib.gcry_salsa20_drivers)

#: The specs :func:`hsalsa20` may take a driver of (one token space).
_HSALSA_OWNERS = ("XSALSA20", "SALSA20", "SALSA20R12")


def _implementations(prefix: str) -> tuple[Implementation, ...]:
    return implementations(prefix, DRIVERS)


def _make_spec(name: str, algo: int, rounds: int, xsalsa: bool,
               aliases: tuple[str, ...]) -> CipherSpec:
    def setkey(ctx, key, impl):
        check(lib.gcry_salsa20_setkey(ctx, key, len(key), rounds, impl.token, int(xsalsa)),
              name)

    def setiv(ctx, iv):
        check(lib.gcry_salsa20_setiv(ctx, iv, len(iv)), name)

    def setctr(ctx, block):
        if block >= 1 << 64:
            raise CounterExhausted(f"{name}: block {block} is past the 64-bit counter")
        check(lib.gcry_salsa20_setctr(ctx, block), name)

    def selftest(spec, impl):
        if xsalsa:
            stream_selftest(spec, impl, XSALSA20)
            hsalsa20_selftest(impl)
        else:
            stream_selftest(spec, impl, [v for v in VECTORS if v.rounds == rounds])

    return CipherSpec(
        name=name,
        algo=algo,
        aliases=aliases,
        key_sizes=(32,) if xsalsa else (32, 16),
        iv_sizes=(24,) if xsalsa else (8,),
        block_size=1,
        context_size=lib.gcry_salsa20_ctxsize(),
        implementations=_implementations(name.lower()),
        setkey=setkey,
        setiv=setiv,
        setctr=setctr,
        encrypt_stream=lib.gcry_salsa20_crypt,
        decrypt_stream=lib.gcry_salsa20_crypt,
        locate=lib.gcry_salsa20_locate,
        seek=lib.gcry_salsa20_setctr,
        selftest=selftest,
        description=(f"XSalsa20: 24-byte nonce, HSalsa20 subkey, {rounds} rounds, "
                     "64-bit block counter" if xsalsa else
                     f"Salsa20 with {rounds} rounds, 64-bit nonce and block counter"),
    )


def hsalsa20_raw(key, data, rounds: int, token: int) -> bytes:
    """HSalsa20 with implementation ``token``; arguments already validated."""
    out = ffi.new("uint8_t[32]")
    check(lib.gcry_hsalsa20(key, len(key), data, len(data), out, rounds, token), "HSalsa20")
    return bytes(ffi.buffer(out))


def hsalsa20_selftest(impl: Implementation) -> None:
    for key, data, rounds, want in HSALSA20:
        got = hsalsa20_raw(bytes.fromhex(key), bytes.fromhex(data), rounds, impl.token)
        if got.hex() != want:
            raise SelftestFailed(f"HSalsa20/{rounds} on {impl.driver}: wrong subkey")


def hsalsa20(key: bytes, data: bytes, *, rounds: int = 20, impl: str | None = None) -> bytes:
    """HSalsa20 ("Extending the Salsa20 nonce"): 32-byte key and 16-byte
    input to a 32-byte subkey, on the implementation XSalsa20 would use."""
    from gcrylike import _registry
    from gcrylike._buffers import as_cbuffer

    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise InvalidType("rounds must be an int")
    if not 0 < rounds <= 64 or rounds % 2:
        raise InvalidArgument(f"rounds must be an even number from 2 to 64, got {rounds}")
    spec = _registry.lookup("XSALSA20")
    if impl is not None:
        # a Salsa20 driver of any variant will do: the round count is an argument
        owner = _registry.spec_for_driver(impl)
        if owner.name in _HSALSA_OWNERS:
            spec = owner
    chosen = _registry.ready_implementation(spec, _registry.choose(spec, impl), impl is None)
    with as_cbuffer(key, "key") as kbuf, as_cbuffer(data, "data") as dbuf:
        if len(kbuf) != 32:
            raise InvalidKeyLength(f"HSalsa20 key must be 32 bytes, got {len(kbuf)}")
        if len(dbuf) != 16:  # the native code would say "inv iv": blame the argument
            raise InvalidIVLength(f"HSalsa20 data must be 16 bytes, got {len(dbuf)}")
        return hsalsa20_raw(kbuf, dbuf, rounds, chosen.token)


SPECS = (
    _make_spec("SALSA20", GCRY_CIPHER_SALSA20, 20, False, ("salsa20/20",)),
    _make_spec("SALSA20R12", GCRY_CIPHER_SALSA20R12, 12, False, ("salsa20/12", "salsa20-12")),
    _make_spec("XSALSA20", GCRYLIKE_CIPHER_XSALSA20, 20, True, ("xsalsa20/20",)),
)

__all__ = ["SPECS", "ffi", "hsalsa20", "lib"]
