"""NaCl's crypto_secretbox: XSalsa20-Poly1305, the box is tag || ciphertext.

The secretbox glue calls the salsa20 and poly1305 modules' routines
through the tables they export (gcrylike/_native/linkage.h), so encryption
and authentication of each chunk run in one native call while the chunk is
hot.  Implementations pair a
Salsa20 driver with a Poly1305 driver of the same SIMD level (AVX-512
Salsa20 with the IFMA Poly1305, or with the AVX2 one where IFMA is missing).

Registered as its own kind of spec (:class:`gcrylike.SecretBoxSpec`), not
as an AEAD: the secretbox has no associated data, no streaming form and
puts the tag in front; see the spec's docstring.
"""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._linkage import import_components
from gcrylike._spec import (
    Driver,
    SecretBoxSpec,
    best,
    implementations,
    joined,
    native_drivers,
)
from gcrylike.ciphers.poly1305 import DRIVERS as POLY1305_DRIVERS
from gcrylike.ciphers.salsa20 import DRIVERS as SALSA20_DRIVERS
from gcrylike.selftests.runner import secretbox_selftest
from gcrylike.selftests.vectors_secretbox import SECRETBOX

from ._secretbox import ffi, lib

import_components(ffi, lib)

GCRYLIKE_SECRETBOX_XSALSA20_POLY1305 = 1103

NAME = "XSALSA20-POLY1305"


def _drivers() -> tuple[Driver, ...]:
    """The rule: each Salsa20 driver with the best Poly1305 driver of its
    SIMD level and, where that one needs a feature the Salsa20 driver does
    not (IFMA beside AVX-512), also with the best of the levels below, for
    CPUs without it; features the union, priority the mean of the two (the
    kernel's rfc7539 template); named after the Salsa20 driver with the
    Poly1305 driver's tag appended; joined as this module's own rows say
    (secretbox_glue.c: the AVX2 pair stitched, any other one chunk by
    chunk)."""
    salsa, poly = SALSA20_DRIVERS, POLY1305_DRIVERS
    joins = native_drivers(ffi, lib.gcry_secretbox_drivers)
    rows = []
    for s in salsa:
        same = best(poly, lambda p, s=s: p.level == s.level)
        below = (best(poly, lambda p, s=s: p.level < s.level)
                 if same is not None and not same.features <= s.features else None)
        rows += [joined(s.suffix + p.tag, ((1, "XSalsa20", s), (1, "Poly1305", p)), joins)
                 for p in (same, below) if p is not None]
    return tuple(rows)


def _setkey(ctx, key, impl):
    salsa_impl, poly_impl, join = impl.token
    check(lib.gcry_secretbox_setkey(ctx, key, len(key), salsa_impl, poly_impl, join), NAME)


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
    implementations=implementations("xsalsa20-poly1305", _drivers()),
    setkey=_setkey,
    seal=lib.gcry_secretbox_seal,
    open=lib.gcry_secretbox_open,
    selftest=_selftest,
    description="NaCl crypto_secretbox: XSalsa20 with Poly1305, 24-byte nonce, "
                "box = 16-byte tag || ciphertext",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
