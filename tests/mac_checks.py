"""Checks shared by the MAC test files (Poly1305, NHPoly1305).

Each function proves one property of a MAC handle that the caller opened
on its own driver, against tags the caller computed with its own oracle
(``tag_of(msg)``: the tag of ``msg`` under the handle's key); nothing here
knows an algorithm.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from checks import bad_length_keys, check_each_refused, check_setkey_refused, refused

import gcrylike

Handle = gcrylike.MacHandle


def absorb(h: Handle, msg: bytes, cuts: Sequence[int]) -> None:
    """``msg`` into ``h`` in update calls cut at ``cuts``."""
    for lo, hi in zip([0, *cuts], [*cuts, len(msg)], strict=True):
        h.update(msg[lo:hi])


def check_two_handles_are_independent(a: Handle, b: Handle, msg: bytes, step: int,
                                      want_a: bytes, want_b: bytes) -> None:
    """Two keyed handles fed in turn, ``step`` bytes at a time, each give
    their own tag: neither disturbs the other's key or state."""
    for lo in range(0, len(msg), step):
        a.update(msg[lo:lo + step])
        b.update(msg[lo:lo + step])
    assert a.digest() == want_a
    assert b.digest() == want_b


def check_verify(h: Handle, msg: bytes, tag_of: Callable[[bytes], bytes]) -> None:
    """On a fresh keyed handle fed ``msg``: verify accepts the tag (any
    buffer type) and returns None; it refuses with AuthenticationFailed
    every one-bit change, every truncation, the tag with bytes appended and
    the tag of another message; the refusals change nothing, and verify
    follows further updates."""
    tag = tag_of(msg)
    h.update(msg)
    assert h.verify(tag) is None
    h.verify(bytearray(tag))
    h.verify(memoryview(tag))
    for i in range(16):
        for bit in range(8):
            bad = bytearray(tag)
            bad[i] ^= 1 << bit
            with refused(gcrylike.AuthenticationFailed):
                h.verify(bytes(bad))
    for n in range(16):  # truncated, down to nothing
        with refused(gcrylike.AuthenticationFailed):
            h.verify(tag[:n])
    for extra in (b"\x00", tag, bytes(48)):  # the right tag and more
        with refused(gcrylike.AuthenticationFailed):
            h.verify(tag + extra)
    with refused(gcrylike.AuthenticationFailed):
        h.verify(tag_of(msg[:-1]))
    # the refusals changed nothing: the state still holds msg
    assert h.digest() == tag
    h.verify(tag)
    h.update(b"more")
    h.verify(tag_of(msg + b"more"))
    with refused(gcrylike.AuthenticationFailed):
        h.verify(tag)


def check_refused_without_key(h: Handle) -> None:
    """On a handle with no key every update (of any buffer, even empty),
    digest, verify, final and reset are refused with MissingKey."""
    for call in (lambda: h.update(b"x"), lambda: h.update(b"abc"),
                 lambda: h.update(bytearray(b"x")), lambda: h.update(bytearray(2)),
                 lambda: h.update(b""), h.digest, lambda: h.verify(bytes(16)),
                 h.final, h.reset):
        with refused(gcrylike.MissingKey):
            call()


def check_closed_handle(h: Handle, key: bytes) -> None:
    """Once the keyed, used handle is closed every method (and ``with``) is
    refused with HandleClosed; close() is idempotent and repr says closed."""
    assert not h.closed
    h.close()
    assert h.closed
    calls = {
        "setkey": lambda: h.setkey(key), "setkey-badlen": lambda: h.setkey(b""),
        "update": lambda: h.update(b"abcd"), "update-bytearray": lambda: h.update(bytearray(4)),
        "update-str": lambda: h.update("abcd"), "digest": h.digest,
        "verify": lambda: h.verify(bytes(16)), "final": h.final, "reset": h.reset,
    }
    check_each_refused(gcrylike.HandleClosed, calls)
    with refused(gcrylike.HandleClosed):
        with h:
            pass
    h.close()  # idempotent
    assert h.closed and "closed" in repr(h)


def check_bad_key_length(h: Handle, mac: Callable[[object, object], bytes], keylen: int,
                         key: bytes, msg: bytes, want: bytes) -> None:
    """A ``keylen``-byte key (bytes, bytearray, memoryview) is refused with
    InvalidKeyLength by setkey, leaving no key (MissingKey) or, midway
    through ``msg`` under ``key``, the handle as it was (the tag is
    ``want``); the one-shot ``mac(key, data)`` refuses it too."""
    check_setkey_refused(h, bad_length_keys(keylen), gcrylike.InvalidKeyLength,
                         lambda: h.update(b"x"))
    # a refused key leaves a keyed handle as it was
    h.setkey(key)
    h.update(msg[:50])
    with refused(gcrylike.InvalidKeyLength):
        h.setkey(bytes(keylen))
    h.update(msg[50:])
    assert h.digest() == want
    with refused(gcrylike.InvalidKeyLength):
        mac(bytes(keylen), msg)


def check_wrong_type_refused(h: Handle, mac: Callable[[object, object], bytes], what: str,
                             value: object, key: bytes, msg: bytes, want: bytes) -> None:
    """``value`` as the key, the data or the tag to verify (``what``) is
    refused with InvalidType, by the handle and by the one-shot
    ``mac(key, data)``; a refused key leaves no key (MissingKey), a refused
    update or verify midway through ``msg`` changes nothing (the tag is
    ``want``)."""
    if what == "key":
        check_setkey_refused(h, [value], gcrylike.InvalidType, lambda: h.update(msg))
        with refused(gcrylike.InvalidType):
            mac(value, msg)
        return
    h.setkey(key)
    h.update(msg[:20])
    with refused(gcrylike.InvalidType):
        if what == "data":
            h.update(value)
        else:
            h.verify(value)
    if what == "data":
        with refused(gcrylike.InvalidType):
            mac(key, value)
    # the refusal changed nothing
    h.update(msg[20:])
    assert h.digest() == want
