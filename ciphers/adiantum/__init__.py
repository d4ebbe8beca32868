"""Adiantum(XChaCha12|XChaCha20, AES-256) with NHPoly1305.

Implementations combine a ChaCha level (portable, SSSE3, AVX2; NH and
Poly1305 at the matching SIMD level, or the AVX-512 XChaCha and NH beside
the AVX2 Poly1305) with an AES implementation (bitsliced C or AES-NI):
every registered driver is one such combination.
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import Implementation, TweakableCipherSpec
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

# (tier name, priority, features, chacha, nh, poly)
_TIERS = (
    ("generic", 100, frozenset(), "generic", "generic", "generic64"),
    ("amd64-sse2", 300, frozenset({"ssse3", "sse2"}), "ssse3", "sse2", "sse2"),
    ("amd64-avx2", 400, frozenset({"ssse3", "avx2"}), "avx2", "avx2", "avx2"),
    ("amd64-avx512", 500, frozenset({"avx2", "avx512f", "avx512vl"}), "avx512", "avx512", "avx2"),
)


def token(chacha: str, nh: str, poly: str, aes: str) -> tuple[int, int, int, int]:
    """The implementation token of one combination (tests use every one)."""
    return (_CHACHA[chacha], _NH[nh], _POLY[poly], _AES[aes])


def _implementations(prefix: str) -> tuple[Implementation, ...]:
    built = {"chacha": lib.gcry_chacha_impls(), "nh": lib.gcry_nh_impls(),
             "poly": lib.gcry_poly1305_impls(), "aes": lib.gcry_aes_impls()}
    impls = []
    for tier, prio, feats, chacha, nh, poly in _TIERS:
        if not built["poly"] >> _POLY["generic64"] & 1 and poly == "generic64":
            poly = "generic32"
        for aes, bonus, aes_feats in (("generic", 0, frozenset()),
                                      ("aesni", 50, frozenset({"aesni", "sse2"}))):
            tok = token(chacha, nh, poly, aes)
            if all(built[k] >> t & 1 for k, t in zip(("chacha", "nh", "poly", "aes"), tok,
                                                      strict=True)):
                suffix = tier + ("-aesni" if aes == "aesni" else "")
                impls.append(Implementation(
                    f"{prefix}-{suffix}", prio + bonus, feats | aes_feats, tok,
                    f"ChaCha {chacha}, NH {nh}, Poly1305 {poly}, AES {aes}"))
    return tuple(impls)


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
        implementations=_implementations(f"adiantum-xchacha{rounds}"),
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
