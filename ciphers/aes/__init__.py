"""AES-256 as a block cipher building block: bitsliced constant-time C and
AES-NI assembly.  Opened with ``gcrylike.block_cipher_open("aes256")``;
no encryption mode is offered on top of it."""

from __future__ import annotations

from gcrylike._errors import SelftestFailed, check
from gcrylike._spec import BlockCipherSpec, built_implementations
from gcrylike.selftests.vectors_aes import FIPS197_C3, KEY, MULTI_CIPHER, MULTI_PLAIN

from ._aes import ffi, lib

_GENERIC, _AESNI = 0, 1
GCRY_CIPHER_AES256 = 9  # libgcrypt's id

_DRIVERS = (
    ("generic", 100, frozenset(), _GENERIC, "bitsliced portable C, four blocks at a time"),
    ("amd64-aesni", 400, frozenset({"aesni", "sse2"}), _AESNI,
     "AES-NI, eight blocks in flight"),
)


def _setkey(ctx, key, impl):
    check(lib.gcry_aes256_setkey(ctx, key, len(key), impl.token), "AES256")


def _selftest(spec, impl):
    from gcrylike._block import BlockCipherHandle

    with BlockCipherHandle(spec, impl, False, _selftesting=True) as h:
        h.setkey(KEY)
        pt, ct = (bytes.fromhex(x) for x in FIPS197_C3)
        if h.encrypt_blocks(pt) != ct or h.decrypt_blocks(ct) != pt:
            raise SelftestFailed(f"AES256 on {impl.driver}: FIPS-197 C.3")
        if h.encrypt_blocks(MULTI_PLAIN).hex() != MULTI_CIPHER:
            raise SelftestFailed(f"AES256 on {impl.driver}: 19-block known answer")
        if h.decrypt_blocks(bytes.fromhex(MULTI_CIPHER)) != MULTI_PLAIN:
            raise SelftestFailed(f"AES256 on {impl.driver}: 19-block decryption")
        buf = bytearray(MULTI_PLAIN)
        h.encrypt_blocks(buf, out=buf)
        if buf.hex() != MULTI_CIPHER:
            raise SelftestFailed(f"AES256 on {impl.driver}: in place")


SPEC = BlockCipherSpec(
    name="AES256",
    algo=GCRY_CIPHER_AES256,
    aliases=("aes-256",),
    key_sizes=(32,),
    block_size=16,
    context_size=lib.gcry_aes256_ctxsize(),
    implementations=built_implementations("aes256", _DRIVERS, lib.gcry_aes_impls()),
    setkey=_setkey,
    encrypt_blocks=lib.gcry_aes256_encrypt,
    decrypt_blocks=lib.gcry_aes256_decrypt,
    selftest=_selftest,
    description="AES-256 (FIPS-197) block permutation",
)

SPECS = (SPEC,)

__all__ = ["SPECS", "ffi", "lib"]
