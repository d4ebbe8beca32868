"""NaCl's crypto_secretbox: XSalsa20-Poly1305, the box is tag || ciphertext.

One extension compiles the Salsa20 and Poly1305 glue and assembly again
beside the secretbox glue, so encryption and authentication of each chunk
run in one native call while the chunk is hot.  Implementations pair a
Salsa20 driver with a Poly1305 driver of the same SIMD level (AVX-512
Salsa20 with the IFMA Poly1305, or with the AVX2 one where IFMA is missing).

Registered as its own kind of spec (:class:`gcrylike.SecretBoxSpec`), not
as an AEAD: the secretbox has no associated data, no streaming form and
puts the tag in front; see the spec's docstring.
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import Implementation, SecretBoxSpec
from gcrylike.selftests.runner import secretbox_selftest
from gcrylike.selftests.vectors_secretbox import SECRETBOX

from ._secretbox import ffi, lib

GCRYLIKE_SECRETBOX_XSALSA20_POLY1305 = 1103

NAME = "XSALSA20-POLY1305"


def _drivers():
    # tokens: (Salsa20 id, Poly1305 id), read from salsa20.h and poly1305.h
    # as this module compiles them
    built_salsa, built_poly = lib.gcry_salsa20_impls(), lib.gcry_poly1305_impls()
    poly_generic = (lib.POLY1305_IMPL_GENERIC64 if built_poly >> lib.POLY1305_IMPL_GENERIC64 & 1
                    else lib.POLY1305_IMPL_GENERIC32)
    table = (
        ("generic", 100, frozenset(), (lib.SALSA20_IMPL_GENERIC, poly_generic),
         "portable C XSalsa20 and Poly1305"),
        ("amd64-sse2", 300, frozenset({"sse2"}), (lib.SALSA20_IMPL_SSE2, lib.POLY1305_IMPL_SSE2),
         "SSE2 four-block XSalsa20, SSE2 two-way Poly1305"),
        ("amd64-avx2", 400, frozenset({"sse2", "avx2"}),
         (lib.SALSA20_IMPL_AVX2, lib.POLY1305_IMPL_AVX2),
         "AVX2 eight-block XSalsa20 stitched with scalar Poly1305, AVX2 four-way Poly1305"),
        ("amd64-avx512", 500, frozenset({"avx512f", "avx512vl", "avx2"}),
         (lib.SALSA20_IMPL_AVX512, lib.POLY1305_IMPL_AVX2),
         "AVX-512 sixteen-block XSalsa20, then AVX2 four-way Poly1305 per 4 KiB chunk"),
        ("amd64-avx512ifma", 550, frozenset({"avx512f", "avx512vl", "avx512ifma", "avx2"}),
         (lib.SALSA20_IMPL_AVX512, lib.POLY1305_IMPL_AVX512IFMA),
         "AVX-512 sixteen-block XSalsa20, then IFMA eight-way Poly1305 per 4 KiB chunk"),
    )
    return [row for row in table
            if built_salsa >> row[3][0] & 1 and built_poly >> row[3][1] & 1]


def _setkey(ctx, key, impl):
    salsa_impl, poly_impl = impl.token
    check(lib.gcry_secretbox_setkey(ctx, key, len(key), salsa_impl, poly_impl), NAME)


def _selftest(spec, impl):
    secretbox_selftest(spec, impl, SECRETBOX)


SPEC = SecretBoxSpec(
    name=NAME,
    algo=GCRYLIKE_SECRETBOX_XSALSA20_POLY1305,
    aliases=("secretbox", "crypto_secretbox", "xsalsa20poly1305"),
    key_sizes=(32,),
    iv_sizes=(24,),
    tag_size=16,
    context_size=lib.gcry_secretbox_ctxsize(),
    implementations=tuple(Implementation(f"xsalsa20-poly1305-{suffix}", prio, feats, token, desc)
                          for suffix, prio, feats, token, desc in _drivers()),
    setkey=_setkey,
    seal=lib.gcry_secretbox_seal,
    open=lib.gcry_secretbox_open,
    selftest=_selftest,
    description="NaCl crypto_secretbox: XSalsa20 with Poly1305, 24-byte nonce, "
                "box = 16-byte tag || ciphertext",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
