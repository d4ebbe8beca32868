"""AES-256 as a block cipher building block: bitsliced constant-time C and
AES-NI assembly.  Opened with ``gcrylike.block_cipher_open("aes256")``;
no encryption mode is offered on top of it."""

from __future__ import annotations

from gcrylike._errors import check
from gcrylike._spec import BlockCipherSpec, implementations, native_drivers
from gcrylike.selftests.runner import BlockVector, block_selftest
from gcrylike.selftests.vectors_aes import FIPS197_C3, KEY, MULTI_CIPHER, MULTI_PLAIN

from ._aes import ffi, lib

GCRY_CIPHER_AES256 = 9  # libgcrypt's id

#: AES's drivers: aes_glue.c's rows.
DRIVERS = native_drivers(ffi, lib.gcry_aes_drivers)


def _setkey(ctx, key, impl):
    check(lib.gcry_aes256_setkey(ctx, key, len(key), impl.token), "AES256")


#: FIPS-197 C.3, and 19 blocks for the eight- and four-block paths.
_VECTORS = (BlockVector(KEY.hex(), *FIPS197_C3),
            BlockVector(KEY.hex(), MULTI_PLAIN.hex(), MULTI_CIPHER))


def _selftest(spec, impl):
    block_selftest(spec, impl, _VECTORS)


SPEC = BlockCipherSpec(
    name="AES256",
    algo=GCRY_CIPHER_AES256,
    aliases=("aes-256",),
    key_sizes=(32,),
    block_size=16,
    context_size=lib.gcry_aes256_ctxsize(),
    implementations=implementations("aes256", DRIVERS),
    setkey=_setkey,
    encrypt_blocks=lib.gcry_aes256_encrypt,
    decrypt_blocks=lib.gcry_aes256_decrypt,
    selftest=_selftest,
    description="AES-256 (FIPS-197) block permutation",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
