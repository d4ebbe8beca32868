"""Poly1305 (RFC 8439 2.5) as a MAC: portable C (64-bit limbs with 128-bit
products, and 26-bit limbs for targets without a 128-bit type), SSE2
two-way, AVX2 four-way and AVX512-IFMA eight-way assembly.

Short updates stay in portable code (SIMD set-up costs more than it saves
below POLY1305_SIMD_MIN_BLOCKS blocks, POLY1305_IFMA_MIN_BLOCKS for IFMA);
longer ones run in SIMD, within one streaming computation.
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import MacSpec, built_implementations
from gcrylike.selftests.runner import mac_selftest
from gcrylike.selftests.vectors_poly1305 import POLY1305

from ._poly1305 import ffi, lib

GCRY_MAC_POLY1305 = 501  # libgcrypt's id

# (suffix, priority, features, token, description); the tokens are
# poly1305.h's implementation ids, read from the compiled header
_DRIVERS = (
    ("amd64-avx512ifma", 500, frozenset({"avx2", "avx512f", "avx512ifma"}),
     lib.POLY1305_IMPL_AVX512IFMA,
     "eight blocks in parallel, radix 2^44 with IFMA, powers r^1..r^8, r^16"),
    ("generic64", 110, frozenset(), lib.POLY1305_IMPL_GENERIC64,
     "portable C, 64-bit limbs, 128-bit products"),
    ("generic32", 100, frozenset(), lib.POLY1305_IMPL_GENERIC32,
     "portable C, five 26-bit limbs"),
    ("amd64-sse2", 300, frozenset({"sse2"}), lib.POLY1305_IMPL_SSE2,
     "two blocks in parallel, 26-bit limbs"),
    ("amd64-avx2", 400, frozenset({"avx2"}), lib.POLY1305_IMPL_AVX2,
     "four blocks in parallel, powers r^1..r^4"),
)


def _setkey(ctx, key, impl):
    check(lib.gcry_poly1305_setkey(ctx, key, len(key), impl.token), "POLY1305")


def _selftest(spec, impl):
    mac_selftest(spec, impl, POLY1305)


SPEC = MacSpec(
    name="POLY1305",
    algo=GCRY_MAC_POLY1305,
    key_sizes=(32,),
    digest_size=16,
    context_size=lib.gcry_poly1305_ctxsize(),
    implementations=built_implementations("poly1305", _DRIVERS, lib.gcry_poly1305_impls()),
    setkey=_setkey,
    update=lib.gcry_poly1305_update,
    read=lib.gcry_poly1305_read,
    verify=lib.gcry_poly1305_verify,
    selftest=_selftest,
    oneshot=lib.gcry_poly1305_oneshot,
    description="Poly1305 one-time authenticator, 32-byte key (r, s), 16-byte tag",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
