"""A user's program touching every public entry point, for ``mypy --strict``
against the installed package (tox's lint env): the annotations must let
plain, correct code through without casts, and give precise types.

It also runs (``python tests/typing/sample_usage.py``), so every call here
is a real one.  ``assert_type`` checks what mypy infers.
"""

from __future__ import annotations

import copy
import os
from array import array
from typing import assert_type

import gcrylike
from gcrylike import (
    AeadHandle,
    BlockCipherHandle,
    CipherHandle,
    EncryptedMessage,
    MacHandle,
    TweakableHandle,
)

KEY = bytes(range(32))


def stream_ciphers() -> None:
    with gcrylike.cipher_open("salsa20") as h:
        assert_type(h, CipherHandle)
        h.setkey(KEY)
        h.setiv(bytes(8))
        ct = h.encrypt(b"attack at dawn")
        assert_type(ct, bytes)
        buf = bytearray(ct)
        n = h.decrypt(buf, out=buf)
        assert_type(n, int)
        h.setctr(0)
        h.reset()
        info: gcrylike.HandleInfo = h.info
        assert info.block_size == 1  # a stream cipher: any length
    with gcrylike.cipher_open("chacha20", "stream", impl="chacha20-generic") as h2:
        assert_type(h2, CipherHandle)
        twin = copy.copy(h2)
        assert_type(twin, CipherHandle)
        twin.close()
    # a name only known at run time: either handle
    name: str = "xchacha20"
    either = gcrylike.cipher_open(name)
    assert isinstance(either, CipherHandle)
    either.close()


def aeads() -> None:
    with gcrylike.cipher_open("chacha20", "poly1305") as h:
        assert_type(h, AeadHandle)
        h.setkey(KEY)
        h.setiv(bytes(12))
        h.authenticate(b"header")
        ct: bytes = h.encrypt(b"data")
        tag: bytes = h.gettag()
        h.setiv(bytes(12))
        h.authenticate(b"header")
        assert h.decrypt(ct) == b"data"
        h.checktag(tag)
        aead_info: gcrylike.AeadInfo = h.info
        assert aead_info.tag_size == 16
    with gcrylike.cipher_open("xchacha20-poly1305") as by_name:
        assert_type(by_name, AeadHandle)

    key = gcrylike.ChaCha20Poly1305.generate_key()
    box = gcrylike.ChaCha20Poly1305(key)
    nonce = os.urandom(box.NONCE_SIZE)
    sealed = box.encrypt(nonce, b"data", None)
    assert_type(sealed, bytes)
    assert box.decrypt(nonce, sealed, associated_data=None) == b"data"
    out = bytearray(len(b"data") + box.TAG_SIZE)
    written: int = box.encrypt_into(nonce, b"data", b"ad", out)
    plain = bytearray(written - 16)
    box.decrypt_into(nonce, out, b"ad", plain)
    driver: str = box.driver
    assert driver
    box.close()
    with gcrylike.XChaCha20Poly1305(gcrylike.XChaCha20Poly1305.generate_key()) as xbox:
        x_nonce = os.urandom(gcrylike.XChaCha20Poly1305.NONCE_SIZE)
        try:
            xbox.decrypt(x_nonce, bytes(16), memoryview(b"ad"))
        except gcrylike.AuthenticationFailed as exc:
            code: gcrylike.ErrorCode = exc.code
            assert code is gcrylike.ErrorCode.CHECKSUM


def secretbox() -> None:
    box = gcrylike.SecretBox(gcrylike.SecretBox.generate_key())
    message = box.encrypt(b"data")
    assert_type(message, EncryptedMessage)
    nonce: bytes = message.nonce
    boxed: bytes = message.ciphertext
    assert box.decrypt(message) == box.decrypt(boxed, nonce) == b"data"
    fixed = box.encrypt(bytearray(b"data"), array("B", bytes(box.NONCE_SIZE)))
    assert len(fixed) == 24 + box.MACBYTES + 4

    class Hex:
        @staticmethod
        def encode(data: bytes) -> bytes:
            return data.hex().encode()

        @staticmethod
        def decode(data: bytes) -> bytes:
            return bytes.fromhex(data.decode())

    encoder: gcrylike.Encoder = Hex()
    hexed = gcrylike.SecretBox(Hex.encode(KEY), Hex).encrypt(b"x", encoder=Hex)
    assert gcrylike.SecretBox(KEY).decrypt(hexed, encoder=encoder) == b"x"
    box.close()


def macs() -> None:
    tag = gcrylike.mac("poly1305", KEY, b"message")
    assert_type(tag, bytes)
    assert_type(gcrylike.mac_verify("poly1305", KEY, b"message", tag), None)
    with gcrylike.mac_open("poly1305", impl=None) as h:
        assert_type(h, MacHandle)
        h.setkey(KEY)
        h.update(b"message")
        assert h.digest() == tag
        twin = h.copy()
        assert_type(twin, MacHandle)
        h.verify(tag)
        final: bytes = h.final()
        assert final == tag
        h.reset()
        mac_info: gcrylike.MacInfo = h.info
        assert mac_info.digest_size == 16
        twin.close()


def storage() -> None:
    adiantum_key = gcrylike.Adiantum.generate_key()
    assert_type(adiantum_key, bytes)
    with gcrylike.Adiantum(adiantum_key, "xchacha20"):
        pass
    with gcrylike.Adiantum(KEY, "xchacha12") as adi:
        assert_type(adi, gcrylike.Adiantum)
        sector = bytes(4096)
        ct = adi.encrypt(sector, (7).to_bytes(8, "little") + bytes(24))
        assert_type(ct, bytes)
        buf = bytearray(ct)
        n = adi.decrypt(buf, (7).to_bytes(8, "little") + bytes(24), out=buf)
        assert_type(n, int)
        adi.encrypt_sectors(buf, 7)
        adi.decrypt_sectors(buf, 7, sector_size=4096)
    with gcrylike.tweakable_open("adiantum") as t:
        assert_type(t, TweakableHandle)
        t.setkey(KEY)
        tw_info: gcrylike.TweakableInfo = t.info
        assert tw_info.max_tweak == 32
    with gcrylike.block_cipher_open("aes256") as b:
        assert_type(b, BlockCipherHandle)
        b.setkey(KEY)
        blocks = b.encrypt_blocks(bytes(32))
        assert_type(blocks, bytes)
        assert b.decrypt_blocks(blocks) == bytes(32)
        block_info: gcrylike.BlockInfo = b.info
        assert block_info.block_size == 16


def registry_and_machine() -> None:
    names: list[str] = gcrylike.algorithms()
    assert "SALSA20" in names
    impls: list[gcrylike.ImplementationInfo] = gcrylike.implementations("salsa20")
    assert impls[0].driver
    every: list[gcrylike.ImplementationInfo] = gcrylike.implementations()
    chosen = [i.driver for i in every if i.chosen and i.algorithm == "SALSA20"]
    assert len(chosen) == 1 and all(i.kind for i in every)
    algo: gcrylike.AlgorithmInfo = gcrylike.algorithm_info("salsa20")
    iv_sizes: tuple[int, ...] | None = algo.iv_sizes
    assert algo.key_sizes == (32, 16) and iv_sizes == (8,) and algo.digest_size is None
    with gcrylike.cipher_open("salsa20") as unkeyed:
        path: str = gcrylike.data_path(unkeyed)
        assert path == "none"
    box = gcrylike.SecretBox(KEY)
    assert gcrylike.data_path(box) in ("fastcall", "cffi")
    box.close()
    ticks: int = gcrylike.cpu_cycles()
    mhz: float | None = gcrylike.core_mhz()
    assert ticks >= 0 and (mhz is None or mhz > 0)
    feats: frozenset[str] = gcrylike.hw_features()
    old: frozenset[str] = gcrylike.set_hwf_deny(["avx512f"])
    gcrylike.set_hwf_deny(old)
    threads: int = gcrylike.set_threads(1)
    gcrylike.set_threads(threads)
    assert isinstance(feats, frozenset)
    cfg: gcrylike.Config = gcrylike.config()
    assert cfg.format() and cfg.threads_default >= 1
    reports: list[gcrylike.SelftestReport] = gcrylike.selftest()
    assert all(r.status in ("passed", "skipped") for r in reports)
    subkey: bytes = gcrylike.hchacha(KEY, bytes(16))
    subkey2: bytes = gcrylike.hsalsa20(KEY, bytearray(16), rounds=20)
    assert len(subkey) == len(subkey2) == 32
    errors: dict[str, str] = gcrylike.plugin_errors()
    assert isinstance(errors, dict)
    version: str = gcrylike.__version__
    assert version
    try:
        gcrylike.unregister("no-such-algorithm")
    except gcrylike.UnknownAlgorithm:
        pass
    try:
        gcrylike.cipher_open("salsa20").setkey(b"short")
    except gcrylike.InvalidKeyLength as exc:
        assert isinstance(exc, ValueError) and exc.code == gcrylike.ErrorCode.INV_KEYLEN
    ctx = gcrylike.Context(64)
    ctx.free()


def errors() -> None:
    # every exception class, caught by its own name
    family: tuple[type[gcrylike.GcryError], ...] = (
        gcrylike.CounterExhausted, gcrylike.HandleClosed, gcrylike.InvalidArgument,
        gcrylike.InvalidIVLength, gcrylike.InvalidLength, gcrylike.InvalidState,
        gcrylike.InvalidType, gcrylike.MissingKey, gcrylike.NameConflict,
        gcrylike.NotContiguous, gcrylike.NotPicklable, gcrylike.NotSupported,
        gcrylike.ReadOnlyBuffer, gcrylike.SelftestFailed, gcrylike.UnknownName,
        gcrylike.UnknownAlgorithm, gcrylike.AuthenticationFailed, gcrylike.InvalidKeyLength,
        gcrylike.HandleBusy)
    h = gcrylike.cipher_open("salsa20")
    try:
        h.setiv(bytes(8))
    except family as exc:
        assert isinstance(exc, gcrylike.MissingKey)
    h.close()
    try:
        h.setkey(KEY)
    except gcrylike.HandleClosed:
        pass
    warning: type[Warning] = gcrylike.PluginWarning
    assert issubclass(warning, Warning)


def seal(box: gcrylike.ChaCha20Poly1305, nonce: gcrylike.BytesLike,
         data: gcrylike.BytesLike) -> bytes:
    """A user's own helper, typed with the package's bytes-like type."""
    return box.encrypt(nonce, data, None)


def plugin_api() -> None:
    # the spec classes a plugin fills in, and the calls that (un)register them
    kinds: tuple[type, ...] = (gcrylike.CipherSpec, gcrylike.AeadSpec, gcrylike.MacSpec,
                               gcrylike.BlockCipherSpec, gcrylike.TweakableCipherSpec,
                               gcrylike.SecretBoxSpec)
    impl = gcrylike.Implementation("salsa20-mine", 1, ["sse2"])
    assert impl.priority == 1 and len(kinds) == 6 and "sse2" in impl.features
    assert callable(gcrylike.register)
    # the plugin API version, which plugins load, and the C headers
    version: int = gcrylike.PLUGIN_API_VERSION
    assert version in gcrylike.PLUGIN_API_VERSIONS
    try:
        gcrylike.set_plugins(["salsa208"])  # before the first use of the registry only
    except gcrylike.InvalidState:
        pass
    include: str = gcrylike.get_include()
    assert include


if __name__ == "__main__":
    stream_ciphers()
    aeads()
    secretbox()
    macs()
    storage()
    registry_and_machine()
    errors()
    assert len(seal(gcrylike.ChaCha20Poly1305(KEY), memoryview(bytes(12)), b"x")) == 17
    plugin_api()
    print("sample ok")
