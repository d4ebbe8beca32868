"""gcrylike.mac_verify: the one-shot check of a tag, in constant time."""

from __future__ import annotations

import pytest

import gcrylike

KEY = bytes(range(32))
NH_KEY = bytes(range(256)) * 4 + bytes(64)


@pytest.mark.parametrize("name, key", [("poly1305", KEY), ("nhpoly1305", NH_KEY)])
def test_the_right_tag_passes_any_other_fails(name, key):
    data = b"a message of some length" * 9
    tag = gcrylike.mac(name, key, data)
    assert gcrylike.mac_verify(name, key, data, tag) is None
    for bad in (bytes([tag[0] ^ 1]) + tag[1:], tag[:-1] + bytes([tag[-1] ^ 0x80]),
                tag[:-1], tag + b"\0", b""):
        with pytest.raises(gcrylike.AuthenticationFailed):
            gcrylike.mac_verify(name, key, data, bad)
    with pytest.raises(gcrylike.AuthenticationFailed):
        gcrylike.mac_verify(name, key, data + b"!", tag)


def test_a_forgery_is_not_an_input_error():
    """Input checks (ValueError) never swallow a forgery, as in pyca."""
    tag = gcrylike.mac("poly1305", KEY, b"x")
    with pytest.raises(gcrylike.AuthenticationFailed) as info:
        gcrylike.mac_verify("poly1305", KEY, b"y", tag)
    assert not isinstance(info.value, ValueError)
    with pytest.raises(gcrylike.InvalidKeyLength):
        gcrylike.mac_verify("poly1305", KEY[:31], b"y", tag)


@pytest.mark.parametrize("impl", [i.driver for i in gcrylike.implementations("poly1305")
                                  if i.available])
def test_every_driver(impl):
    data = bytes(1000)
    tag = gcrylike.mac("poly1305", KEY, data, impl=impl)
    gcrylike.mac_verify("poly1305", KEY, data, tag, impl=impl)
    with pytest.raises(gcrylike.AuthenticationFailed):
        gcrylike.mac_verify("poly1305", KEY, data, bytes(16), impl=impl)
