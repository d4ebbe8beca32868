"""The openers: libgcrypt's argument order (``cipher_open(algo, mode)``,
``impl`` by keyword only), AEADs by name, and a refusal that names the call
that does open the algorithm, for every name ``gcrylike list`` shows."""

from __future__ import annotations

import re

import pytest
from checks import refused

import gcrylike
from gcrylike import _cli

OPENERS = {
    "cipher_open": gcrylike.cipher_open,
    "mac_open": gcrylike.mac_open,
    "block_cipher_open": gcrylike.block_cipher_open,
    "tweakable_open": gcrylike.tweakable_open,
}
#: The handle each kind opens as.
HANDLE = {"cipher": gcrylike.CipherHandle, "aead": gcrylike.AeadHandle,
          "mac": gcrylike.MacHandle, "block": gcrylike.BlockCipherHandle,
          "tweakable": gcrylike.TweakableHandle, "secretbox": gcrylike.SecretBox}


def listed() -> list[tuple[str, str]]:
    """(name, kind) of every algorithm in ``gcrylike list``'s output."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert _cli.main(["list"]) == 0
    found = re.findall(r"^(\S+) \[(\w+), id \d+\]", out.getvalue(), re.M)
    assert len(found) == len(gcrylike.algorithms())
    return found


def test_mode_is_the_second_argument():
    for cipher in ("chacha20", "xchacha20"):
        for how in ((cipher, "poly1305"), (cipher, "POLY1305"), (f"{cipher}-poly1305",),
                    (f"{cipher.upper()}-POLY1305", "poly1305")):
            with gcrylike.cipher_open(*how) as h:
                assert type(h) is gcrylike.AeadHandle, how
                assert h.info.algorithm == f"{cipher.upper()}-POLY1305"
        with gcrylike.cipher_open(cipher, mode="poly1305") as h:  # by keyword still
            assert type(h) is gcrylike.AeadHandle
        for mode in (None, "stream", "STREAM"):
            with gcrylike.cipher_open(cipher, mode) as h:
                assert type(h) is gcrylike.CipherHandle


def test_aead_by_name_is_the_same_aead():
    key, nonce = bytes(range(32)), bytes(12)
    want = gcrylike.ChaCha20Poly1305(key).encrypt(nonce, b"data", b"ad")
    for h in (gcrylike.cipher_open("chacha20-poly1305"),
              gcrylike.cipher_open("chacha20", "poly1305")):
        with h:
            h.setkey(key)
            h.setiv(nonce)
            h.authenticate(b"ad")
            assert h.encrypt(b"data") + h.gettag() == want


def test_impl_is_keyword_only():
    with gcrylike.cipher_open("salsa20", impl="salsa20-generic") as h:
        assert h.info.driver == "salsa20-generic"
    # the old cipher_open(name, driver) order: the driver is no mode, and
    # the refusal says what to write instead
    with refused(gcrylike.NotSupported, gcrylike.ErrorCode.INV_CIPHER_MODE):
        gcrylike.cipher_open("salsa20", "salsa20-generic")
    with pytest.raises(gcrylike.NotSupported, match=r"impl='salsa20-generic'"):
        gcrylike.cipher_open("salsa20", "salsa20-generic")
    for opener, name, driver in (("mac_open", "poly1305", "poly1305-generic64"),
                                 ("block_cipher_open", "aes256", "aes256-generic"),
                                 ("tweakable_open", "adiantum", "adiantum-xchacha12-generic")):
        with pytest.raises(TypeError):
            OPENERS[opener](name, driver)
        with OPENERS[opener](name, impl=driver) as h:
            assert h.info.driver == driver
    with pytest.raises(TypeError):
        gcrylike.cipher_open("salsa20", None, "salsa20-generic")


def test_a_stream_mode_for_an_aead_name_is_refused():
    with refused(gcrylike.UnknownAlgorithm):
        gcrylike.cipher_open("chacha20-poly1305", "stream")
    with refused(gcrylike.NotSupported, gcrylike.ErrorCode.INV_CIPHER_MODE):
        gcrylike.cipher_open("salsa20", "poly1305")


@pytest.mark.parametrize("name,kind", listed())
def test_every_listed_name_opens_with_the_suggested_call(name, kind):
    suggestions = set()
    for opener in OPENERS.values():
        try:
            handle = opener(name)
        except gcrylike.UnknownAlgorithm as exc:
            found = re.search(r"; use (gcrylike\..*) \[CIPHER_ALGO\]$", str(exc))
            assert found, str(exc)
            suggestions.add(found.group(1))
        else:
            with handle:
                assert type(handle) is HANDLE[kind], (opener, name)
    assert len(suggestions) == 1, suggestions  # every wrong opener says the same
    call = suggestions.pop()
    key = bytes(gcrylike._registry.lookup(name).key_sizes[0])
    with eval(call, {"gcrylike": gcrylike, "key": key}) as handle:  # noqa: S307 - our text
        assert type(handle) is HANDLE[kind], call
