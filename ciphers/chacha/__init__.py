"""ChaCha20, ChaCha12, XChaCha20, XChaCha12 and HChaCha: portable C and
SSSE3 / AVX2 / AVX-512 assembly.

One C glue serves every variant: the round count is a parameter of the core
and XChaCha is ChaCha keyed by HChaCha.  ChaCha20 takes libgcrypt's three IV
forms: 8 bytes (Bernstein: 64-bit counter), 12 bytes (RFC 8439: 32-bit
counter from 0) and 16 bytes (RFC 8439 counter word then the 12-byte nonce).
"""

from __future__ import annotations

from gcrylike._errors import (
    CounterExhausted,
    InvalidArgument,
    InvalidIVLength,
    InvalidKeyLength,
    InvalidType,
    check,
)
from gcrylike._spec import CipherSpec, Implementation, implementations, native_drivers
from gcrylike.selftests.runner import stream_selftest
from gcrylike.selftests.vectors_chacha import CHACHA12, CHACHA20, HCHACHA, XCHACHA12, XCHACHA20

from ._chacha import ffi, lib

GCRY_CIPHER_CHACHA20 = 316  # libgcrypt's id
# Ids libgcrypt does not define: ours, above its range.
GCRYLIKE_CIPHER_CHACHA12 = 1001
GCRYLIKE_CIPHER_XCHACHA20 = 1002
GCRYLIKE_CIPHER_XCHACHA12 = 1003

#: ChaCha's drivers: chacha_glue.c's rows, beside its tiers.
DRIVERS = native_drivers(ffi, lib.gcry_chacha_drivers)


def _implementations(prefix: str) -> tuple[Implementation, ...]:
    return implementations(prefix, DRIVERS)


def _selftest_vectors(rounds: int, xchacha: bool):
    if xchacha:
        return XCHACHA20 if rounds == 20 else XCHACHA12
    return CHACHA20 if rounds == 20 else CHACHA12


def _make_spec(name: str, algo: int, rounds: int, xchacha: bool,
               aliases: tuple[str, ...]) -> CipherSpec:
    def setkey(ctx, key, impl):
        check(lib.gcry_chacha_setkey(ctx, key, len(key), rounds, impl.token, int(xchacha)), name)

    def setiv(ctx, iv):
        check(lib.gcry_chacha_setiv(ctx, iv, len(iv)), name)

    def setctr(ctx, block):
        if block >= 1 << 64:
            raise CounterExhausted(f"{name}: block {block} is past the 64-bit counter")
        check(lib.gcry_chacha_setctr(ctx, block), f"{name}: block {block}")

    def selftest(spec, impl):
        stream_selftest(spec, impl, _selftest_vectors(rounds, xchacha))
        if xchacha:
            hchacha_selftest(impl, rounds)

    return CipherSpec(
        name=name,
        algo=algo,
        aliases=aliases,
        key_sizes=(32,) if xchacha else (32, 16),
        iv_sizes=(24,) if xchacha else (12, 8, 16),
        block_size=1,
        context_size=lib.gcry_chacha_ctxsize(),
        implementations=_implementations(name.lower()),
        setkey=setkey,
        setiv=setiv,
        setctr=setctr,
        encrypt_stream=lib.gcry_chacha_crypt,
        decrypt_stream=lib.gcry_chacha_crypt,
        locate=lib.gcry_chacha_locate,
        seek=lib.gcry_chacha_setctr,
        selftest=selftest,
        description=(f"XChaCha with {rounds} rounds: 24-byte nonce, HChaCha subkey"
                     if xchacha else f"ChaCha with {rounds} rounds"),
    )


def hchacha_raw(key, data, rounds: int, token: int) -> bytes:
    """HChaCha with implementation ``token``; arguments already validated."""
    out = ffi.new("uint8_t[32]")
    check(lib.gcry_hchacha(key, len(key), data, len(data), out, rounds, token), "HChaCha")
    return bytes(ffi.buffer(out))


def hchacha_selftest(impl: Implementation, rounds: int) -> None:
    from gcrylike._errors import SelftestFailed

    for key, data, r, want in HCHACHA:
        if r == rounds and hchacha_raw(bytes.fromhex(key), bytes.fromhex(data), r,
                                       impl.token).hex() != want:
            raise SelftestFailed(f"HChaCha{r} on {impl.driver}: wrong subkey")


def hchacha(key: bytes, data: bytes, *, rounds: int = 20, impl: str | None = None) -> bytes:
    """HChaCha (draft-irtf-cfrg-xchacha 2.2): 32-byte key and 16-byte input
    to a 32-byte subkey, on the implementation XChaCha would use."""
    from gcrylike import _registry
    from gcrylike._buffers import as_cbuffer

    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise InvalidType("rounds must be an int")
    if not 0 < rounds <= 64 or rounds % 2:
        raise InvalidArgument(f"rounds must be an even number from 2 to 64, got {rounds}")
    spec = _registry.lookup("XCHACHA12" if rounds == 12 else "XCHACHA20")
    if impl is not None:
        # any XChaCha driver will do: the round count is an argument
        owner = _registry.spec_for_driver(impl)
        if owner.name in ("XCHACHA12", "XCHACHA20"):
            spec = owner
    chosen = _registry.ready_implementation(spec, _registry.choose(spec, impl), impl is None)
    with as_cbuffer(key, "key") as kbuf, as_cbuffer(data, "data") as dbuf:
        if len(kbuf) != 32:
            raise InvalidKeyLength(f"HChaCha key must be 32 bytes, got {len(kbuf)}")
        if len(dbuf) != 16:  # the native code would say "inv iv": blame the argument
            raise InvalidIVLength(f"HChaCha data must be 16 bytes, got {len(dbuf)}")
        return hchacha_raw(kbuf, dbuf, rounds, chosen.token)


SPECS = (
    _make_spec("CHACHA20", GCRY_CIPHER_CHACHA20, 20, False, ("chacha20-ietf", "chacha")),
    _make_spec("CHACHA12", GCRYLIKE_CIPHER_CHACHA12, 12, False, ()),
    _make_spec("XCHACHA20", GCRYLIKE_CIPHER_XCHACHA20, 20, True, ()),
    _make_spec("XCHACHA12", GCRYLIKE_CIPHER_XCHACHA12, 12, True, ()),
)

__all__ = ["SPECS", "ffi", "hchacha", "lib"]
