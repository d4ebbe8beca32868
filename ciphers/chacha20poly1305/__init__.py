"""ChaCha20-Poly1305 (RFC 8439) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha).

The AEAD glue calls the chacha and poly1305 modules' routines through the
tables they export (gcrylike/_native/linkage.h), so encryption and
authentication of each chunk run in one native call while the chunk is
hot.  Implementations pair a ChaCha driver with a Poly1305 driver of the
same SIMD level.
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._linkage import import_components
from gcrylike._spec import (
    AeadSpec,
    Driver,
    best,
    implementations,
    joined,
    native_drivers,
)
from gcrylike.ciphers.chacha import DRIVERS as CHACHA_DRIVERS
from gcrylike.ciphers.poly1305 import DRIVERS as POLY1305_DRIVERS
from gcrylike.selftests.runner import aead_selftest
from gcrylike.selftests.vectors_aead import CHACHA20_POLY1305, XCHACHA20_POLY1305

from ._aead import ffi, lib

import_components(ffi, lib)

GCRYLIKE_AEAD_CHACHA20_POLY1305 = 1101
GCRYLIKE_AEAD_XCHACHA20_POLY1305 = 1102


def _drivers() -> tuple[Driver, ...]:
    """The rule, as the kernel's rfc7539 template: each ChaCha driver with
    the best Poly1305 driver of its SIMD level (AVX-512 ChaCha with the AVX2
    Poly1305 is no pair: slower than the stitched AVX2 driver,
    docs/algorithms.rst); features the union, priority the mean of the two;
    named after the ChaCha driver, then the Poly1305 driver's tag after "-";
    joined as this module's own rows say (aead_glue.c: the AVX2 pair
    stitched, any other one chunk by chunk)."""
    joins = native_drivers(ffi, lib.gcry_aead_drivers)
    pairs = [(c, best(POLY1305_DRIVERS, lambda p, c=c: p.level == c.level))
             for c in CHACHA_DRIVERS]
    return tuple(joined("-".join(filter(None, (c.suffix, p.tag))),
                        ((1, "ChaCha20", c), (1, "Poly1305", p)), joins)
                 for c, p in pairs if p is not None)


def _make_spec(name: str, algo: int, cipher: str, xchacha: bool, vectors) -> AeadSpec:
    def setkey(ctx, key, impl):
        chacha_impl, poly_impl, join = impl.token
        check(lib.gcry_aead_setkey(ctx, key, len(key), chacha_impl, poly_impl, join,
                                   int(xchacha)), name)

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
        implementations=implementations(prefix, _drivers()),
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
