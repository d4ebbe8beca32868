"""Poly1305 (RFC 8439 2.5) as a MAC: portable C (64-bit limbs with 128-bit
products, and 26-bit limbs for targets without a 128-bit type), SSE2
two-way, AVX2 four-way and AVX512-IFMA eight-way assembly.

Short updates stay in portable code (SIMD set-up costs more than it saves
below POLY1305_SIMD_MIN_BLOCKS blocks, POLY1305_IFMA_MIN_BLOCKS for IFMA);
longer ones run in SIMD, within one streaming computation.
"""

from __future__ import annotations

from gcrylike._spec import MacSpec, implementations, native_drivers
from gcrylike.selftests.runner import mac_selftest
from gcrylike.selftests.vectors_poly1305 import POLY1305

from ._poly1305 import ffi, lib

GCRY_MAC_POLY1305 = 501  # libgcrypt's id

#: Poly1305's drivers: poly1305_glue.c's rows.
DRIVERS = native_drivers(ffi, lib.gcry_poly1305_drivers)


def _selftest(spec, impl):
    mac_selftest(spec, impl, POLY1305)


SPEC = MacSpec(
    name="POLY1305",
    algo=GCRY_MAC_POLY1305,
    key_sizes=(32,),
    digest_size=16,
    context_size=lib.gcry_poly1305_ctxsize(),
    implementations=implementations("poly1305", DRIVERS),
    setkey=lib.gcry_poly1305_setkey,
    update=lib.gcry_poly1305_update,
    read=lib.gcry_poly1305_read,
    verify=lib.gcry_poly1305_verify,
    selftest=_selftest,
    oneshot=lib.gcry_poly1305_oneshot,
    description="Poly1305 one-time authenticator, 32-byte key (r, s), 16-byte tag",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
