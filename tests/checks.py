"""Assertions shared by the test files."""

from __future__ import annotations

import array
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

import gcrylike
from gcrylike import ErrorCode
from gcrylike._errors import BORROWED_FORGERIES, forgery_class

#: What each refusal must be besides its own class: the natural Python
#: exception and the libgcrypt-style code.
EXPECTED = {
    gcrylike.InvalidKeyLength: (ValueError, ErrorCode.INV_KEYLEN),
    gcrylike.InvalidIVLength: (ValueError, ErrorCode.INV_IV),
    gcrylike.InvalidArgument: (ValueError, ErrorCode.INV_ARG),
    gcrylike.InvalidType: (TypeError, ErrorCode.INV_ARG),
    gcrylike.NotContiguous: (TypeError, ErrorCode.INV_ARG),
    gcrylike.ReadOnlyBuffer: (TypeError, ErrorCode.INV_ARG),
    gcrylike.NotPicklable: (TypeError, ErrorCode.NOT_SUPPORTED),
    gcrylike.InvalidLength: (ValueError, ErrorCode.INV_LENGTH),
    gcrylike.MissingKey: (ValueError, ErrorCode.MISSING_KEY),
    gcrylike.InvalidState: (ValueError, ErrorCode.INV_STATE),
    gcrylike.HandleClosed: (ValueError, ErrorCode.INV_HANDLE),
    gcrylike.CounterExhausted: (OverflowError, ErrorCode.TOO_LARGE),
    # a forgery is no bad argument: only a GcryError (see test_errors.py)
    gcrylike.AuthenticationFailed: (gcrylike.GcryError, ErrorCode.CHECKSUM),
    gcrylike.UnknownAlgorithm: (LookupError, ErrorCode.CIPHER_ALGO),
    gcrylike.UnknownName: (LookupError, ErrorCode.INV_NAME),
    gcrylike.NotSupported: (RuntimeError, ErrorCode.NOT_SUPPORTED),
    gcrylike.SelftestFailed: (RuntimeError, ErrorCode.SELFTEST_FAILED),
}


def _exactly(cls: type[gcrylike.GcryError]) -> set[type]:
    """The types that count as exactly ``cls``: itself, and for
    AuthenticationFailed the forgery classes of the drop-ins (also
    cryptography's InvalidTag or PyNaCl's CryptoError; test_dropin_errors)."""
    if cls is not gcrylike.AuthenticationFailed:
        return {cls}
    return {cls} | {forgery_class(b) for b in BORROWED_FORGERIES}


@contextmanager
def refused(cls: type[gcrylike.GcryError], code: ErrorCode | None = None) -> Iterator[None]:
    """The block raises exactly ``cls``, which is a GcryError, the natural
    Python exception and carries the right code (``code`` overrides the
    class's usual one, e.g. NotSupported for an unknown cipher mode).

    Unlike ``pytest.raises`` this does not keep the exception (and with it
    the library's frames) alive in a cycle with the test's frame; whether the
    library survives that is ``test_gc_after_a_refused_call``'s business.
    """
    natural, usual = EXPECTED[cls]
    want = usual if code is None else code
    try:
        yield
    except gcrylike.GcryError as e:
        assert type(e) in _exactly(cls), \
            f"raised {type(e).__name__}: {e}, expected {cls.__name__}"
        assert isinstance(e, natural), f"{cls.__name__} is not a {natural.__name__}"
        if cls is gcrylike.AuthenticationFailed:
            assert not isinstance(e, ValueError), "a forgery must escape `except ValueError`"
        assert e.code == want, f"{cls.__name__} has code {e.code!r}, expected {want!r}"
        return
    pytest.fail(f"{cls.__name__} was not raised")


def check_implementations_listing(algo: str | int, known: Sequence[str],
                                  generic: str) -> dict[str, gcrylike.ImplementationInfo]:
    """``gcrylike.implementations(algo)`` lists known drivers only, in the
    order of ``known`` (best first); the portable driver ``generic`` is
    there, needs no CPU feature and can always run; a driver is available
    exactly when it has no reason not to be and this CPU has its features.
    Returns the listing by driver name, for the caller's own checks."""
    infos = gcrylike.implementations(algo)
    names = [i.driver for i in infos]
    assert names == [n for n in known if n in names], "drivers missing order or unknown"
    assert generic in names
    by_name = {i.driver: i for i in infos}
    assert by_name[generic].features == frozenset()
    assert by_name[generic].available, "the portable driver must always run"
    for i in infos:
        assert i.available == (i.reason == "")
        assert i.available == (i.features <= gcrylike.hw_features())
    return by_name


def check_each_refused(cls: type[gcrylike.GcryError],
                       calls: Mapping[str, Callable[[], object]]) -> None:
    """Each of ``calls`` raises exactly ``cls`` (as :func:`refused` checks
    it); a failure names the call."""
    for name, call in calls.items():
        try:
            with refused(cls):
                call()
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def check_strided_refused(calls: Iterable[Callable[[], object]]) -> None:
    """Each call, which passes a non-contiguous (strided) buffer, is refused
    with NotContiguous (a TypeError), whatever object exported the buffer."""
    for call in calls:
        try:
            call()
        except gcrylike.GcryError as e:
            assert type(e) is gcrylike.NotContiguous and isinstance(e, TypeError), repr(e)
        else:
            pytest.fail("a strided buffer was accepted")


def check_context_manager_closes(open_handle: Callable[[], object], key: bytes) -> None:
    """A handle from ``open_handle()`` used in ``with`` is open inside and
    closed after it (setkey is then refused with HandleClosed), also when
    the block raises."""
    with open_handle() as h:
        assert not h.closed
        h.setkey(key)
    assert h.closed
    with refused(gcrylike.HandleClosed):
        h.setkey(key)
    with pytest.raises(KeyError):
        with open_handle() as h2:
            h2.setkey(key)
            raise KeyError("boom")
    assert h2.closed


def buffer_kinds(data: bytes) -> dict[str, object]:
    """``data`` as each kind of readable buffer: bytes, bytearray, memoryview
    (writable, read-only, cast) and array('B')."""
    return {
        "bytes": bytes(data),
        "bytearray": bytearray(data),
        "memoryview": memoryview(bytearray(data)),
        "memoryview-readonly": memoryview(data),
        "array-B": array.array("B", data),
        "memoryview-cast": memoryview(bytearray(data)).cast("B"),
    }


def bad_length_keys(keylen: int) -> tuple[object, ...]:
    """A ``keylen``-byte key as bytes, bytearray and memoryview."""
    return bytes(keylen), bytearray(keylen), memoryview(bytes(keylen))


def check_setkey_refused(h, bad_keys: Iterable[object], cls: type[gcrylike.GcryError],
                         use: Callable[[], object]) -> None:
    """``h.setkey`` refuses each of ``bad_keys`` with ``cls`` and the handle
    (which had no key) is left without one: ``use()`` is refused with
    MissingKey."""
    for bad in bad_keys:
        with refused(cls):
            h.setkey(bad)
    with refused(gcrylike.MissingKey):
        use()


#: One job of :func:`check_threads_share_one_object`: nonce, message, the
#: further arguments of encrypt/decrypt (the AAD, or none) and the sealed box.
SealJob = tuple[bytes, bytes, tuple[bytes, ...], bytes]


def check_threads_share_one_object(box, jobs: Sequence[Sequence[SealJob]], name: str) -> None:
    """One thread per list in ``jobs``, released together, each seals and
    opens its jobs twice on the one object ``box`` (an AEAD or a SecretBox,
    whose ``sealed`` is then the whole nonce || box message): every result is
    right and every thread finishes within 120 s.  ``name`` (the driver)
    labels a failure."""
    start = threading.Barrier(len(jobs))
    errors: list[str] = []
    nacl_order = isinstance(box, gcrylike.SecretBox)  # PyNaCl's (message, nonce)

    def work(t: int) -> None:
        start.wait()
        for rounds in range(2):
            for i, (nonce, msg, extra, sealed) in enumerate(jobs[t]):
                if nacl_order:
                    sealed_now, opened = box.encrypt(msg, nonce), box.decrypt(sealed)
                else:
                    sealed_now = box.encrypt(nonce, msg, *extra)
                    opened = box.decrypt(nonce, sealed, *extra)
                if sealed_now != sealed:
                    errors.append(f"thread {t} encrypt {i} round {rounds}")
                if opened != msg:
                    errors.append(f"thread {t} decrypt {i} round {rounds}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(len(jobs))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert not any(th.is_alive() for th in threads), name
    assert not errors, (name, errors[:5])


def _binds_now(so: Path) -> bool:
    """Whether the dynamic section of ``so`` asks for every symbol to be
    bound at load time (FLAGS BIND_NOW or FLAGS_1 NOW: ``-z now``)."""
    out = subprocess.run(["readelf", "-d", str(so)], capture_output=True, text=True,
                         check=True).stdout
    flags = [line for line in out.splitlines() if "(FLAGS" in line]
    return any("BIND_NOW" in line or " NOW" in line for line in flags)


def check_bind_now(extensions: Iterable[Path]) -> None:
    """Every one of ``extensions`` (there is at least one) is linked with
    ``-z now`` (gcrylike.build.bind_now_flags); skipped off Linux or without
    readelf."""
    if not sys.platform.startswith("linux"):
        pytest.skip("ELF dynamic flags are checked on Linux")
    if shutil.which("readelf") is None:
        pytest.skip("readelf (binutils) is not installed")
    paths = sorted(extensions)
    assert paths
    assert [so.name for so in paths if not _binds_now(so)] == []
