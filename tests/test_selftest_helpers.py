"""The public self-test helpers of gcrylike.selftests, used the way a plugin
uses them: a copy of a built-in spec under new names, whose ``selftest``
hook calls the helper, is registered when the vectors are right and refused
when a vector or a hook is wrong."""

from __future__ import annotations

import dataclasses

import pytest

import gcrylike
from gcrylike import _registry
from gcrylike.selftests import (
    AeadVector,
    MacVector,
    SecretBoxVector,
    StreamVector,
    aead_selftest,
    mac_selftest,
    secretbox_selftest,
    stream_selftest,
)
from gcrylike.selftests.vectors_aead import CHACHA20_POLY1305
from gcrylike.selftests.vectors_poly1305 import POLY1305
from gcrylike.selftests.vectors_salsa20 import VECTORS as SALSA20
from gcrylike.selftests.vectors_secretbox import SECRETBOX

_ALGO = 91000


def _flip_hex(text: str) -> str:
    """The hex string with the low bit of its first byte flipped."""
    return f"{int(text[:2], 16) ^ 1:02x}" + text[2:]


def _copy(builtin: str, kind: str, helper, vectors, **changes):
    """A plugin-style copy of a built-in spec: new name, id and driver names,
    and a selftest hook that calls ``helper`` with ``vectors``."""
    spec = _registry.lookup(builtin, kind)
    impls = tuple(dataclasses.replace(i, driver=f"copy-{i.driver}") for i in spec.implementations)
    return dataclasses.replace(
    spec, name=f"COPY-{spec.name}", algo=_ALGO, aliases=(), implementations=impls,
        selftest=lambda s, impl: helper(s, impl, vectors), **changes)


@pytest.fixture
def registered():
    """Register specs for one test and remove them afterwards."""
    names = []

    def register(spec):
        names.append(spec.name)
        return gcrylike.register(spec)

    yield register
    for name in names:
        try:
            gcrylike.unregister(name)
        except gcrylike.GcryError:
            pass  # refused at registration: nothing to remove


def _refused(registered, spec, what: str) -> None:
    with pytest.raises(gcrylike.SelftestFailed, match=what):
        registered(spec)
    with pytest.raises(gcrylike.GcryError):
        _registry.lookup(spec.name)


# --- stream ciphers ---------------------------------------------------------

def _salsa20_vectors() -> list[StreamVector]:
    return [v for v in SALSA20 if v.rounds == 20]


def test_stream_selftest_accepts_the_published_vectors(registered):
    spec = registered(_copy("salsa20", "cipher", stream_selftest, _salsa20_vectors()))
    key, nonce, msg = bytes(range(32)), bytes(8), bytes(range(200))
    with gcrylike.cipher_open(spec.name) as ours, gcrylike.cipher_open("salsa20") as ref:
        for h in (ours, ref):
            h.setkey(key)
            h.setiv(nonce)
        assert ours.encrypt(msg) == ref.encrypt(msg)


def test_stream_selftest_refuses_a_wrong_vector(registered):
    first, *rest = _salsa20_vectors()
    block, text = min(first.blocks.items())
    wrong = dataclasses.replace(first, blocks={**first.blocks, block: _flip_hex(text)})
    _refused(registered, _copy("salsa20", "cipher", stream_selftest, [wrong, *rest]),
             f"keystream block {block}")


def test_stream_selftest_refuses_a_decrypt_that_does_not_invert(registered):
    def copy_only(ctx, dst, src, n):
        gcrylike._core.ffi.memmove(dst, src, n)
        return 0

    spec = _copy("salsa20", "cipher", stream_selftest, _salsa20_vectors(),
                 decrypt_stream=copy_only)
    _refused(registered, spec, "decrypt does not invert encrypt")


# --- MACs ---------------------------------------------------------------------

def test_mac_selftest_accepts_the_published_vectors(registered):
    spec = registered(_copy("poly1305", "mac", mac_selftest, POLY1305))
    key, msg = bytes(range(32)), bytes(range(100))
    assert gcrylike.mac(spec.name, key, msg) == gcrylike.mac("poly1305", key, msg)


def test_mac_selftest_refuses_a_wrong_tag(registered):
    first, *rest = POLY1305
    wrong = MacVector(first.key, first.message, _flip_hex(first.tag))
    _refused(registered, _copy("poly1305", "mac", mac_selftest, [wrong, *rest]), "tag of a")


# --- AEADs --------------------------------------------------------------------

def _aead_copy(vectors):
    return _copy("chacha20-poly1305", "aead", aead_selftest, vectors, mode="poly1305-copy")


def test_aead_selftest_accepts_the_published_vectors(registered):
    registered(_aead_copy(CHACHA20_POLY1305))
    key, nonce, msg = bytes(range(32)), bytes(12), bytes(range(100))
    with gcrylike.cipher_open("chacha20", mode="poly1305-copy") as ours, \
            gcrylike.cipher_open("chacha20", mode="poly1305") as ref:
        for h in (ours, ref):
            h.setkey(key)
            h.setiv(nonce)
        assert ours.encrypt(msg) == ref.encrypt(msg)
        assert ours.gettag() == ref.gettag()


@pytest.mark.parametrize("field", ["tag", "ciphertext"])
def test_aead_selftest_refuses_a_wrong_vector(registered, field):
    first, *rest = CHACHA20_POLY1305
    assert isinstance(first, AeadVector) and first.ciphertext
    wrong = dataclasses.replace(first, **{field: _flip_hex(getattr(first, field))})
    _refused(registered, _aead_copy([wrong, *rest]), "tag of a" if field == "tag" else "ciphertext")


# --- secretboxes ----------------------------------------------------------------

def test_secretbox_selftest_accepts_the_published_vectors(registered):
    spec = registered(_copy("xsalsa20-poly1305", "secretbox", secretbox_selftest, SECRETBOX))
    assert _registry.lookup(spec.name, "secretbox") is spec


def test_secretbox_selftest_refuses_a_wrong_box(registered):
    first = next(v for v in SECRETBOX if v.box)
    assert isinstance(first, SecretBoxVector)
    wrong = dataclasses.replace(first, box=_flip_hex(first.box))
    _refused(registered, _copy("xsalsa20-poly1305", "secretbox", secretbox_selftest, [wrong]),
             "box of a")
