"""Salsa20 and Salsa20/12 (Bernstein): portable C and SSE2 four-block assembly.

Both share one C glue; the round count is a parameter of the core.  The
registry hands the chosen implementation's token to ``setkey``, and the glue
dispatches on it for every later call.
"""

from __future__ import annotations

from gcrylike._errors import CounterExhausted, check
from gcrylike._spec import CipherSpec, Implementation
from gcrylike.selftests.runner import stream_selftest
from gcrylike.selftests.vectors_salsa20 import VECTORS

from ._salsa20 import ffi, lib

# Implementation ids of salsa20.h
_GENERIC, _SSE2 = 0, 1

GCRY_CIPHER_SALSA20 = 313
GCRY_CIPHER_SALSA20R12 = 314


def _implementations(prefix: str) -> tuple[Implementation, ...]:
    built = lib.gcry_salsa20_impls()
    impls = [Implementation(f"{prefix}-generic", 100, frozenset(), _GENERIC,
                            "portable C, one block at a time")]
    if built >> _SSE2 & 1:
        impls.append(Implementation(f"{prefix}-amd64-sse2", 300, frozenset({"sse2"}), _SSE2,
                                    "four blocks in parallel with SSE2"))
    return tuple(impls)


def _make_spec(name: str, algo: int, rounds: int, aliases: tuple[str, ...]) -> CipherSpec:
    def setkey(ctx, key, impl):
        check(lib.gcry_salsa20_setkey(ctx, key, len(key), rounds, impl.token), name)

    def setiv(ctx, iv):
        check(lib.gcry_salsa20_setiv(ctx, iv, len(iv)), name)

    def setctr(ctx, block):
        if block >= 1 << 64:
            raise CounterExhausted(f"{name}: block {block} is past the 64-bit counter")
        check(lib.gcry_salsa20_setctr(ctx, block), name)

    def selftest(spec, impl):
        stream_selftest(spec, impl, [v for v in VECTORS if v.rounds == rounds])

    return CipherSpec(
        name=name,
        algo=algo,
        aliases=aliases,
        key_sizes=(32, 16),
        iv_sizes=(8,),
        block_size=1,
        context_size=lib.gcry_salsa20_ctxsize(),
        implementations=_implementations(name.lower()),
        setkey=setkey,
        setiv=setiv,
        setctr=setctr,
        encrypt_stream=lib.gcry_salsa20_crypt,
        decrypt_stream=lib.gcry_salsa20_crypt,
        selftest=selftest,
        description=f"Salsa20 with {rounds} rounds, 64-bit nonce and block counter",
    )


SPECS = (
    _make_spec("SALSA20", GCRY_CIPHER_SALSA20, 20, ("salsa20/20",)),
    _make_spec("SALSA20R12", GCRY_CIPHER_SALSA20R12, 12, ("salsa20/12", "salsa20-12")),
)

__all__ = ["SPECS", "ffi", "lib"]
