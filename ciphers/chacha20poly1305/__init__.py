"""ChaCha20-Poly1305 (RFC 8439) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha).

One extension compiles the ChaCha and Poly1305 glue and assembly again
beside the AEAD glue, so encryption and authentication of each chunk run in
one native call while the chunk is hot.  Implementations pair a ChaCha
driver with a Poly1305 driver of the same SIMD level.
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import AeadSpec, Implementation
from gcrylike.selftests.runner import aead_selftest
from gcrylike.selftests.vectors_aead import CHACHA20_POLY1305, XCHACHA20_POLY1305

from ._aead import ffi, lib

GCRYLIKE_AEAD_CHACHA20_POLY1305 = 1101
GCRYLIKE_AEAD_XCHACHA20_POLY1305 = 1102


def _drivers():
    # tokens: (ChaCha id, Poly1305 id), read from chacha.h and poly1305.h
    # as this module compiles them
    built_chacha, built_poly = lib.gcry_chacha_impls(), lib.gcry_poly1305_impls()
    poly_generic = (lib.POLY1305_IMPL_GENERIC64 if built_poly >> lib.POLY1305_IMPL_GENERIC64 & 1
                    else lib.POLY1305_IMPL_GENERIC32)
    table = (
        ("generic", 100, frozenset(), (lib.CHACHA_IMPL_GENERIC, poly_generic),
         "portable C ChaCha20 and Poly1305"),
        ("amd64-ssse3", 300, frozenset({"ssse3", "sse2"}),
         (lib.CHACHA_IMPL_SSSE3, lib.POLY1305_IMPL_SSE2),
         "SSSE3 ChaCha20, SSE2 two-way Poly1305"),
        ("amd64-avx2", 400, frozenset({"ssse3", "avx2"}),
         (lib.CHACHA_IMPL_AVX2, lib.POLY1305_IMPL_AVX2),
         "AVX2 eight-block ChaCha20 stitched with scalar Poly1305, AVX2 four-way Poly1305"),
        # built only where the ChaCha glue has its AVX-512 driver (the
        # filter below); AVX2 ChaCha with IFMA is no row: slower than the
        # stitched AVX2 routine (docs/algorithms.rst)
        ("amd64-avx512-ifma", 500, frozenset({"avx2", "avx512f", "avx512vl", "avx512ifma"}),
         (lib.CHACHA_IMPL_AVX512, lib.POLY1305_IMPL_AVX512IFMA),
         "AVX-512 sixteen-block ChaCha20, then AVX512-IFMA eight-way Poly1305 per 4 KiB chunk"),
    )
    return [row for row in table
            if built_chacha >> row[3][0] & 1 and built_poly >> row[3][1] & 1]


def _make_spec(name: str, algo: int, cipher: str, xchacha: bool, vectors) -> AeadSpec:
    def setkey(ctx, key, impl):
        chacha_impl, poly_impl = impl.token
        check(lib.gcry_aead_setkey(ctx, key, len(key), chacha_impl, poly_impl, int(xchacha)),
              name)

    def setiv(ctx, iv):
        return lib.gcry_aead_setiv(ctx, iv, len(iv))

    def selftest(spec, impl):
        aead_selftest(spec, impl, vectors)

    prefix = name.lower()
    return AeadSpec(
        name=name,
        algo=algo,
        cipher=cipher,
        mode="poly1305",
        key_sizes=(32,),
        iv_sizes=(24,) if xchacha else (12,),
        tag_size=16,
        context_size=lib.gcry_aead_ctxsize(),
        implementations=tuple(Implementation(f"{prefix}-{suffix}", prio, feats, token, desc)
                              for suffix, prio, feats, token, desc in _drivers()),
        setkey=setkey,
        setiv=setiv,
        authenticate=lib.gcry_aead_authenticate,
        encrypt=lib.gcry_aead_encrypt,
        decrypt=lib.gcry_aead_decrypt,
        gettag=lib.gcry_aead_gettag,
        checktag=lib.gcry_aead_checktag,
        seal=lib.gcry_aead_seal,
        open=lib.gcry_aead_open,
        selftest=selftest,
        description=f"{cipher} with Poly1305 (AEAD), {'24' if xchacha else '12'}-byte nonce",
    )


SPECS = (
    _make_spec("CHACHA20-POLY1305", GCRYLIKE_AEAD_CHACHA20_POLY1305, "CHACHA20", False,
               CHACHA20_POLY1305),
    _make_spec("XCHACHA20-POLY1305", GCRYLIKE_AEAD_XCHACHA20_POLY1305, "XCHACHA20", True,
               XCHACHA20_POLY1305),
)

__all__ = ["SPECS", "ffi", "lib"]
