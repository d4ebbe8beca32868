"""Adiantum(XChaCha12|XChaCha20, AES-256) with NHPoly1305.

Implementations are made by the kernel template's rule from the drivers
of its parts' modules (:func:`_drivers`): an NHPoly1305 driver, the XChaCha
driver of its NH level and an AES driver (bitsliced C or AES-NI).  The glue
calls those modules' routines through the tables they export
(gcrylike/_native/linkage.h).
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._linkage import import_components
from gcrylike._spec import Driver, TweakableCipherSpec, best, compose, implementations
from gcrylike.ciphers.aes import DRIVERS as AES_DRIVERS
from gcrylike.ciphers.chacha import DRIVERS as CHACHA_DRIVERS
from gcrylike.ciphers.nhpoly1305 import NH_DRIVERS, compose_drivers
from gcrylike.ciphers.poly1305 import DRIVERS as POLY1305_DRIVERS
from gcrylike.selftests.runner import tweakable_selftest
from gcrylike.selftests.vectors_adiantum import ADIANTUM_XCHACHA12, ADIANTUM_XCHACHA20

from ._adiantum import ffi, lib

import_components(ffi, lib)

GCRYLIKE_ADIANTUM_XCHACHA12 = 1301
GCRYLIKE_ADIANTUM_XCHACHA20 = 1302


def _drivers() -> tuple[Driver, ...]:
    """The rule, as the kernel's adiantum template: each NHPoly1305 driver
    (NHPoly1305's own rule over this module's NH and Poly1305 rows) with the
    XChaCha driver of its NH driver's SIMD level and with each AES driver;
    features the union, priority ``(4 * stream + 2 * hash + block) / 7``;
    named after the hash driver, then the AES driver's tag after "-"."""
    chacha, aes = CHACHA_DRIVERS, AES_DRIVERS
    nh = {d.token: d for d in NH_DRIVERS}
    hashes = compose_drivers(NH_DRIVERS, POLY1305_DRIVERS)
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

__all__ = ["SPECS", "ffi", "lib"]
