"""NHPoly1305 (Adiantum's hash, the kernel's ``nhpoly1305``) as a keyed
hash with streaming update: NH in portable C, SSE2, AVX2 and AVX-512,
Poly1305 over the NH outputs at the matching SIMD level (AVX2 beside the
AVX-512 NH).

The key is 1088 bytes (16-byte Poly1305 r, then the 1072-byte NH key); the
16-byte output is the bare Poly1305 value (no s).
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import Implementation, MacSpec
from gcrylike.selftests.runner import mac_selftest
from gcrylike.selftests.vectors_nhpoly1305 import NHPOLY1305

from ._nhpoly1305 import ffi, lib

GCRYLIKE_MAC_NHPOLY1305 = 1201


def _drivers():
    # tokens: (NH id, Poly1305 id), read from nhpoly1305.h and poly1305.h
    # as this module compiles them
    built_nh, built_poly = lib.gcry_nh_impls(), lib.gcry_poly1305_impls()
    poly_generic = (lib.POLY1305_IMPL_GENERIC64 if built_poly >> lib.POLY1305_IMPL_GENERIC64 & 1
                    else lib.POLY1305_IMPL_GENERIC32)
    table = (
        ("generic", 100, frozenset(), (lib.NH_IMPL_GENERIC, poly_generic),
         "portable C NH and Poly1305"),
        ("amd64-sse2", 300, frozenset({"sse2"}), (lib.NH_IMPL_SSE2, lib.POLY1305_IMPL_SSE2),
         "SSE2 NH (pmuludq), SSE2 two-way Poly1305"),
        ("amd64-avx2", 400, frozenset({"avx2"}), (lib.NH_IMPL_AVX2, lib.POLY1305_IMPL_AVX2),
         "AVX2 NH (vpmuludq), AVX2 four-way Poly1305"),
        ("amd64-avx512", 500, frozenset({"avx512f", "avx2"}),
         (lib.NH_IMPL_AVX512, lib.POLY1305_IMPL_AVX2),
         "AVX-512 NH (512-bit vpmuludq, key held pre-arranged), AVX2 four-way Poly1305"),
    )
    return [row for row in table if built_nh >> row[3][0] & 1 and built_poly >> row[3][1] & 1]


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
    implementations=tuple(Implementation(f"nhpoly1305-{suffix}", prio, feats, token, desc)
                          for suffix, prio, feats, token, desc in _drivers()),
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
