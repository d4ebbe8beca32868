"""NHPoly1305 (Adiantum's hash, the kernel's ``nhpoly1305``) as a keyed
hash with streaming update: NH in portable C, SSE2, AVX2 and AVX-512,
Poly1305 over the NH outputs at the matching SIMD level (AVX2 beside the
AVX-512 NH).

The key is 1088 bytes (16-byte Poly1305 r, then the 1072-byte NH key); the
16-byte output is the bare Poly1305 value (no s).
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._linkage import import_components
from gcrylike._spec import Driver, MacSpec, best, compose, implementations, native_drivers
from gcrylike.ciphers.poly1305 import DRIVERS as POLY1305_DRIVERS
from gcrylike.selftests.runner import mac_selftest
from gcrylike.selftests.vectors_nhpoly1305 import NHPOLY1305

from ._nhpoly1305 import ffi, lib

import_components(ffi, lib)

#: NH's rows (nhpoly1305_glue.c), which Adiantum's hash is made from too.
NH_DRIVERS = native_drivers(ffi, lib.gcry_nh_drivers)

GCRYLIKE_MAC_NHPOLY1305 = 1201


def drivers() -> tuple[Driver, ...]:
    """The rule: each NH driver with the best Poly1305 driver that needs no
    feature beyond the NH driver's (the AVX2 one beside the AVX-512 NH);
    features the union, priority the mean of the two; named after the NH
    driver."""
    return compose_drivers(NH_DRIVERS, POLY1305_DRIVERS)


def compose_drivers(nh: tuple[Driver, ...], poly: tuple[Driver, ...]) -> tuple[Driver, ...]:
    """NHPoly1305's drivers from NH's and Poly1305's rows (:func:`drivers`)."""
    pairs = [(n, best(poly, lambda p, n=n: p.features <= n.features)) for n in nh]
    return tuple(compose(n.suffix, ((1, "NH", n), (1, "Poly1305", p)))
                 for n, p in pairs if p is not None)


def _setkey(ctx, key, impl):
    nh_impl, poly_impl = impl.token
    check(lib.gcry_nhpoly1305_setkey(ctx, key, len(key), nh_impl, poly_impl), "NHPOLY1305")


def _selftest(spec, impl):
    mac_selftest(spec, impl, NHPOLY1305)


SPEC = MacSpec(
    name="NHPOLY1305",
    algo=GCRYLIKE_MAC_NHPOLY1305,
    key_sizes=(1088,),
    digest_size=16,
    context_size=lib.gcry_nhpoly1305_ctxsize(),
    implementations=implementations("nhpoly1305", drivers()),
    setkey=_setkey,
    update=lib.gcry_nhpoly1305_update,
    read=lib.gcry_nhpoly1305_read,
    verify=lib.gcry_nhpoly1305_verify,
    selftest=_selftest,
    aliases=("nhpoly1305-adiantum",),
    description="Adiantum's NHPoly1305 hash: NH over 1 KiB chunks, then Poly1305",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
