"""Adiantum(XChaCha12|XChaCha20, AES-256) with NHPoly1305.

Implementations are made by the kernel template's rule from the drivers
of the parts this module compiles (:func:`_drivers`): an NHPoly1305 driver,
the XChaCha driver of its NH level and an AES driver (bitsliced C or
AES-NI).
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import (
    Driver,
    TweakableCipherSpec,
    best,
    compose,
    implementations,
    native_drivers,
)
from gcrylike.ciphers.nhpoly1305 import compose_drivers
from gcrylike.selftests.runner import tweakable_selftest
from gcrylike.selftests.vectors_adiantum import ADIANTUM_XCHACHA12, ADIANTUM_XCHACHA20

from ._adiantum import ffi, lib

# Each component's implementation ids by the names tiers and token() use,
# read from the components' headers as this module compiles them.
_CHACHA = {"generic": lib.CHACHA_IMPL_GENERIC, "ssse3": lib.CHACHA_IMPL_SSSE3,
           "avx2": lib.CHACHA_IMPL_AVX2, "avx512": lib.CHACHA_IMPL_AVX512}
_NH = {"generic": lib.NH_IMPL_GENERIC, "sse2": lib.NH_IMPL_SSE2, "avx2": lib.NH_IMPL_AVX2,
       "avx512": lib.NH_IMPL_AVX512}
_POLY = {"generic64": lib.POLY1305_IMPL_GENERIC64, "generic32": lib.POLY1305_IMPL_GENERIC32,
         "sse2": lib.POLY1305_IMPL_SSE2, "avx2": lib.POLY1305_IMPL_AVX2,
         "ifma": lib.POLY1305_IMPL_AVX512IFMA}
_AES = {"generic": lib.AES_IMPL_GENERIC, "aesni": lib.AES_IMPL_AESNI}

GCRYLIKE_ADIANTUM_XCHACHA12 = 1301
GCRYLIKE_ADIANTUM_XCHACHA20 = 1302


def token(chacha: str, nh: str, poly: str, aes: str) -> tuple[int, int, int, int]:
    """The implementation token of one combination (tests use every one)."""
    return (_CHACHA[chacha], _NH[nh], _POLY[poly], _AES[aes])


def _drivers() -> tuple[Driver, ...]:
    """The rule, as the kernel's adiantum template: each NHPoly1305 driver
    (NHPoly1305's own rule over this module's NH and Poly1305 rows) with the
    XChaCha driver of its NH driver's SIMD level and with each AES driver;
    features the union, priority ``(4 * stream + 2 * hash + block) / 7``;
    named after the hash driver, then the AES driver's tag after "-"."""
    chacha = native_drivers(ffi, lib.gcry_chacha_drivers)
    nh = {d.token: d for d in native_drivers(ffi, lib.gcry_nh_drivers)}
    hashes = compose_drivers(tuple(nh.values()), native_drivers(ffi, lib.gcry_poly1305_drivers))
    aes = native_drivers(ffi, lib.gcry_aes_drivers)
    rows = []
    for h in hashes:
        level = nh[h.token[0]].level
        c = best(chacha, lambda c, level=level: c.level == level)
        if c is not None:
            rows += [compose("-".join(filter(None, (h.suffix, a.tag))),
                             ((4, "XChaCha", c), (2, "NHPoly1305", h), (1, "AES", a)))
                     for a in aes]
    return tuple(rows)


def _make_spec(rounds: int, algo: int, vectors) -> TweakableCipherSpec:
    name = f"ADIANTUM(XCHACHA{rounds},AES)"

    def setkey(ctx, key, impl):
        check(lib.gcry_adiantum_setkey(ctx, key, len(key), rounds, *impl.token), name)

    def selftest(spec, impl):
        tweakable_selftest(spec, impl, vectors)

    return TweakableCipherSpec(
        name=name,
        algo=algo,
        aliases=(f"adiantum-xchacha{rounds}",) + (("adiantum",) if rounds == 12 else ()),
        key_sizes=(32,),
        min_length=16,
        max_tweak=32,
        context_size=lib.gcry_adiantum_ctxsize(),
        implementations=implementations(f"adiantum-xchacha{rounds}", _drivers()),
        setkey=setkey,
        encrypt=lib.gcry_adiantum_encrypt,
        decrypt=lib.gcry_adiantum_decrypt,
        crypt_sectors=lib.gcry_adiantum_crypt_sectors,
        reentrant=True,  # the glue takes the context as const after setkey
        selftest=selftest,
        description=f"Adiantum with XChaCha{rounds}, AES-256 and NHPoly1305",
    )


SPECS = (
    _make_spec(12, GCRYLIKE_ADIANTUM_XCHACHA12, ADIANTUM_XCHACHA12),
    _make_spec(20, GCRYLIKE_ADIANTUM_XCHACHA20, ADIANTUM_XCHACHA20),
)

__all__ = ["SPECS", "ffi", "lib", "token"]
