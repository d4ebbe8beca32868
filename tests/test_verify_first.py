"""Verify before release: a one-shot open checks the tag over the whole
ciphertext before it deciphers any of it, so a forged message never puts
plaintext where the caller (another thread, a shared mapping) can see it,
and the caller's buffer is left as it was (docs/security.rst).

Every available driver of ChaCha20-Poly1305, XChaCha20-Poly1305 and the
secretbox, forced by ``impl=``; the overlap rules of ``decrypt_into`` (in
place works, a buffer over the received tag alone works, any other overlap
is refused before any work).
"""

from __future__ import annotations

import mmap
import random
import threading
from collections.abc import Callable

import pytest

import gcrylike
from gcrylike._core import ffi

TAG = 16
MARK = b"TOP-SECRET-PLAINTEXT-"
#: bytes the caller's buffer holds before an open: any other value in it
#: after a refused open was written by that open
FILL = 0xA5


def available(algorithm: str) -> list[str]:
    return [i.driver for i in gcrylike.implementations(algorithm) if i.available]


AEADS = [(cls, driver) for cls in (gcrylike.ChaCha20Poly1305, gcrylike.XChaCha20Poly1305)
         for driver in available(cls._ALGORITHM)]
BOXES = available("XSALSA20-POLY1305")
EVERY_AEAD = pytest.mark.parametrize("cls, driver", AEADS,
                                     ids=[d for _, d in AEADS])
EVERY_BOX = pytest.mark.parametrize("driver", BOXES)
#: around the short-message head (7 blocks), the SIMD widths and the
#: stitched group; 1 MiB is far above the GIL threshold
LENGTHS = [0, 1, 63, 64, 447, 448, 449, 511, 512, 513, 4096 + 17, 1 << 20]


def forge(sealed: bytes, rng: random.Random) -> bytes:
    bad = bytearray(sealed)
    bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
    return bytes(bad)


def secret_message(n: int) -> bytes:
    return (MARK * (n // len(MARK) + 1))[:n]


@EVERY_AEAD
@pytest.mark.parametrize("n", LENGTHS)
def test_forged_aead_leaves_the_buffer_as_it_was(cls, driver, n):
    rng = random.Random(f"verify-first/{driver}/{n}")
    key, nonce, aad = rng.randbytes(32), rng.randbytes(cls.NONCE_SIZE), rng.randbytes(9)
    with cls(key, impl=driver) as box:
        sealed = box.encrypt(nonce, secret_message(n), aad)
        forged = forge(sealed, rng)
        buf = bytearray([FILL]) * n
        with pytest.raises(gcrylike.AuthenticationFailed):
            box.decrypt_into(nonce, forged, aad, buf)
        assert buf == bytearray([FILL]) * n
        # in place: the forged ciphertext itself is left as it was
        whole = bytearray(forged)
        with pytest.raises(gcrylike.AuthenticationFailed):
            box.decrypt_into(nonce, whole, aad, memoryview(whole)[:n])
        assert whole == forged
        assert box.decrypt_into(nonce, sealed, aad, buf) == n
        assert buf == secret_message(n)
        # a genuine message in place
        whole = bytearray(sealed)
        assert box.decrypt_into(nonce, whole, aad, memoryview(whole)[:n]) == n
        assert whole[:n] == secret_message(n)


@EVERY_BOX
@pytest.mark.parametrize("n", LENGTHS)
def test_forged_box_leaves_the_output_as_it_was(driver, n):
    """The secretbox's native open, on memory the test owns (the Python
    ``decrypt`` returns new bytes only)."""
    rng = random.Random(f"verify-first/{driver}/{n}")
    key, nonce = rng.randbytes(32), rng.randbytes(24)
    spec = gcrylike._registry.lookup("XSALSA20-POLY1305")
    with gcrylike.SecretBox(key, impl=driver) as box:
        sealed = box.encrypt(secret_message(n), nonce).ciphertext
        forged = forge(sealed, rng)
        with pytest.raises(gcrylike.AuthenticationFailed):
            box.decrypt(forged, nonce)
        out = bytearray([FILL]) * n
        with ffi.from_buffer(out) as o:
            rc = spec.open(box._ctx.ptr, nonce, len(nonce), forged, len(forged), o)
        assert rc == gcrylike.ErrorCode.CHECKSUM
        assert out == bytearray([FILL]) * n
        # in place, libsodium's way: the plaintext over the ciphertext
        whole = bytearray(forged)
        with ffi.from_buffer(whole) as w:
            rc = spec.open(box._ctx.ptr, nonce, len(nonce), w, len(whole), w + TAG)
        assert rc == gcrylike.ErrorCode.CHECKSUM
        assert whole == forged
        assert box.decrypt(sealed, nonce) == secret_message(n)


def watch_for_plaintext(mapping: mmap.mmap, done: threading.Event, seen: list[int]) -> None:
    """Until DONE: look for the secret at every 64 KiB of MAPPING (each
    window copied out as bytes: ``in`` on a memoryview compares the needle
    with its items, ints, and never matches), noting where it was seen."""
    n = len(mapping)
    view = memoryview(mapping)
    try:
        while not done.is_set():
            for at in range(0, n, 1 << 16):
                if MARK in view[at:at + 64].tobytes():
                    seen.append(at)
    finally:
        view.release()


def forged_opens_watched(n: int, open_forged: Callable[[mmap.mmap], None]) -> None:
    """``open_forged`` opens a forged message, 20 times and without the GIL,
    into a shared mapping of N bytes (with a file behind it, that is what a
    process killed mid-call leaves) while a thread reads it: the reader
    must never see the secret, and the mapping must hold its fill
    afterwards."""
    seen: list[int] = []
    done = threading.Event()
    mapping = mmap.mmap(-1, n)
    mapping.write(bytes([FILL]) * n)
    thread = threading.Thread(target=watch_for_plaintext, args=(mapping, done, seen))
    thread.start()
    try:
        for _ in range(20):
            open_forged(mapping)
    finally:
        done.set()
        thread.join()
    assert seen == [], f"a reader saw the forged plaintext at {sorted(set(seen))[:8]}"
    assert mapping[:] == bytes([FILL]) * n
    mapping.close()


#: the best driver of each (4 MiB opens: long enough for a reader to look)
FIRST_AEADS = [next(c for c in AEADS if c[0] is cls)
               for cls in (gcrylike.ChaCha20Poly1305, gcrylike.XChaCha20Poly1305)]


@pytest.mark.parametrize("cls, driver", FIRST_AEADS, ids=[d for _, d in FIRST_AEADS])
def test_a_concurrent_reader_never_sees_forged_plaintext(cls, driver):
    """A thread reads the caller's buffer (a shared mapping) while forged
    4 MiB messages are opened into it by ``decrypt_into``: the secret never
    appears there."""
    n = 4 << 20
    rng = random.Random("verify-first/reader")
    key, nonce = rng.randbytes(32), rng.randbytes(cls.NONCE_SIZE)
    with cls(key, impl=driver) as box:
        forged = forge(box.encrypt(nonce, secret_message(n)), rng)

        def open_forged(mapping: mmap.mmap) -> None:
            with pytest.raises(gcrylike.AuthenticationFailed):
                box.decrypt_into(nonce, forged, None, mapping)

        forged_opens_watched(n, open_forged)


def test_a_concurrent_reader_never_sees_forged_box_plaintext():
    """The same for the secretbox's native open (what ``SecretBox.decrypt``
    runs) into memory the caller shares."""
    n = 4 << 20
    rng = random.Random("verify-first/box-reader")
    key, nonce = rng.randbytes(32), rng.randbytes(24)
    spec = gcrylike._registry.lookup("XSALSA20-POLY1305")
    with gcrylike.SecretBox(key, impl=BOXES[0]) as box:
        forged = forge(box.encrypt(secret_message(n), nonce).ciphertext, rng)

        def open_forged(mapping: mmap.mmap) -> None:
            with ffi.from_buffer(mapping) as out:
                rc = spec.open(box._ctx.ptr, nonce, len(nonce), forged, len(forged), out)
            assert rc == gcrylike.ErrorCode.CHECKSUM

        forged_opens_watched(n, open_forged)


@EVERY_AEAD
@pytest.mark.parametrize("n", [16, 17, 100, 4096])
def test_a_buffer_over_the_tag_alone_opens(cls, driver, n):
    """``buf`` starting anywhere inside the received tag (or right after the
    ciphertext) overlaps the tag only: a genuine message opens."""
    rng = random.Random(f"verify-first/tag-overlap/{driver}/{n}")
    key, nonce, aad = rng.randbytes(32), rng.randbytes(cls.NONCE_SIZE), rng.randbytes(3)
    msg = rng.randbytes(n)
    with cls(key, impl=driver) as box:
        sealed = box.encrypt(nonce, msg, aad)
        for start in (n, n + 1, n + TAG - 1):
            space = bytearray(sealed) + bytearray(n)
            view = memoryview(space)
            assert box.decrypt_into(nonce, view[:n + TAG], aad, view[start:start + n]) == n
            assert space[start:start + n] == msg


@EVERY_AEAD
def test_other_overlaps_are_refused_before_any_work(cls, driver):
    n = 100
    rng = random.Random(f"verify-first/overlap/{driver}")
    key, nonce = rng.randbytes(32), rng.randbytes(cls.NONCE_SIZE)
    with cls(key, impl=driver) as box:
        sealed = box.encrypt(nonce, rng.randbytes(n))
        for start in (1, 50, n - 1):
            space = bytearray(sealed) + bytearray(n)
            before = bytes(space)
            view = memoryview(space)
            with pytest.raises(gcrylike.InvalidArgument, match="overlaps"):
                box.decrypt_into(nonce, view[:n + TAG], None, view[start:start + n])
            assert space == before
        # buf starting before the ciphertext and running into it
        for lead in (1, 50, n - 1):
            space = bytearray(n) + bytearray(sealed)
            before = bytes(space)
            view = memoryview(space)
            with pytest.raises(gcrylike.InvalidArgument, match="overlaps"):
                box.decrypt_into(nonce, view[n:], None, view[n - lead:2 * n - lead])
            assert space == before
