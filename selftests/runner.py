"""Known-answer self-tests for every kind of spec (stream ciphers, MACs,
AEADs, secretboxes, block and tweakable ciphers), and the run-everything
runner.

A spec's ``selftest`` hook calls :func:`stream_selftest` with its vectors;
:func:`run_all` drives every algorithm on every implementation this CPU can
run (``gcrylike selftest``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gcrylike._errors import SelftestFailed

from .vector_types import (
    AeadVector,
    BlockVector,
    MacVector,
    SecretBoxVector,
    StreamVector,
    TweakVector,
)

#: The most keystream stream_selftest runs through to reach a vector's block
#: for a cipher without ``setctr`` (16 MiB).
_MAX_SKIP = 1 << 24


def _fail(spec, impl, what: str) -> None:
    raise SelftestFailed(f"{spec.name} on {impl.driver}: {what}")


def stream_selftest(spec, impl, vectors: Sequence[StreamVector]) -> None:
    """Check a stream cipher implementation against ``vectors``, then the
    checks libgcrypt's cipher self-tests add.

    Each block is checked once on its own and once from inside a 32-block
    request that starts 7 blocks earlier, so the widest SIMD path (16
    blocks) produces a known answer too.  Then: a long message split into
    pieces equals the one-shot result, decryption inverts encryption, and
    nothing is written past the output.

    ``setctr`` is optional: without it the keystream is run up to a
    vector's block (at most 16 MiB in); without ``setiv`` a new ``setkey``
    rewinds.
    """
    from gcrylike._handle import CipherHandle

    def handle():
        return CipherHandle(spec, impl, auto=False, _selftesting=True)

    seekable = spec.setctr is not None

    def keystream_from(h, vec, block: int, n: int) -> bytes:
        """``n`` bytes of keystream from block ``block`` on: by setctr, or
        for a cipher without one by running the keystream up to there."""
        if spec.setiv is not None:
            h.setiv(bytes.fromhex(vec.nonce))
        else:  # no nonce: a new setkey rewinds
            h.setkey(bytes.fromhex(vec.key))
        skip = 0
        if block and seekable:
            h.setctr(block)
        elif block:
            skip = block * vec.block_size
            if skip > _MAX_SKIP:
                _fail(spec, impl, f"vector block {block} is too far to reach without setctr")
        return h.encrypt(bytes(skip + n))[skip:]

    for vec in vectors:
        bs = vec.block_size
        with handle() as h:
            h.setkey(bytes.fromhex(vec.key))
            for block, hexdata in sorted(vec.blocks.items()):
                want = bytes.fromhex(hexdata)
                if keystream_from(h, vec, block, len(want)) != want:
                    _fail(spec, impl, f"keystream block {block} of key {vec.key[:8]}..")
                if block >= 7:
                    run = keystream_from(h, vec, block - 7, 32 * bs)
                    if run[7 * bs: 7 * bs + len(want)] != want:
                        _fail(spec, impl, f"block {block} inside a 32-block request")

    vec = vectors[0]
    key, nonce = bytes.fromhex(vec.key), bytes.fromhex(vec.nonce)
    msg = bytes((i * 7 + 3) & 0xFF for i in range(2100))

    def rewind(h):
        if spec.setiv is not None:
            h.setiv(nonce)
        else:
            h.setkey(key)

    with handle() as h:
        h.setkey(key)
        rewind(h)
        whole = h.encrypt(msg)
        for cuts in ((1, 322, 1), (63, 65, 1000), (2099,)):
            rewind(h)
            parts, pos = [], 0
            for c in cuts:
                parts.append(h.encrypt(msg[pos:pos + c]))
                pos += c
            parts.append(h.encrypt(msg[pos:]))
            if b"".join(parts) != whole:
                _fail(spec, impl, f"split {cuts} differs from one call")
        rewind(h)
        if h.decrypt(whole) != msg:
            _fail(spec, impl, "decrypt does not invert encrypt")
        guard = bytearray(b"\xa5" * 300)
        rewind(h)
        h.encrypt(msg[:257], out=memoryview(guard)[:257])
        if guard[257:] != b"\xa5" * 43:
            _fail(spec, impl, "wrote past the end of the output")


def mac_selftest(spec, impl, vectors: Sequence[MacVector]) -> None:
    """Check a MAC implementation: each vector in one update and split at
    several points (so buffering meets every SIMD path), digest leaves the
    state alone, verify accepts the tag and rejects a flipped or short one."""
    from gcrylike._errors import AuthenticationFailed
    from gcrylike._mac import MacHandle

    for vec in vectors:
        key, msg, want = bytes.fromhex(vec.key), vec.message, bytes.fromhex(vec.tag)
        with MacHandle(spec, impl, auto=False, _selftesting=True) as h:
            h.setkey(key)
            h.update(msg)
            if h.digest() != want or h.digest() != want:
                _fail(spec, impl, f"tag of a {len(msg)}-byte message")
            for cut in (1, 15, 17, len(msg) // 2, len(msg) - 1):
                if not 0 < cut < len(msg):
                    continue
                h.reset()
                h.update(msg[:cut])
                h.update(msg[cut:])
                if h.digest() != want:
                    _fail(spec, impl, f"split at {cut} of {len(msg)}")
            h.verify(want)
            for bad in (bytes([want[0] ^ 1]) + want[1:], want[:-1]):
                try:
                    h.verify(bad)
                except AuthenticationFailed:
                    continue
                _fail(spec, impl, "verify accepted a wrong tag")


def aead_selftest(spec, impl, vectors: Sequence[AeadVector]) -> None:
    """Check an AEAD implementation: streaming encryption in pieces gives the
    known ciphertext and tag, streaming decryption inverts it and checks the
    tag, and the one-shot seal/open hooks agree and reject a forged tag
    without releasing plaintext."""
    from gcrylike._aead import AeadHandle
    from gcrylike._core import ffi
    from gcrylike._errors import AuthenticationFailed

    for vec in vectors:
        want_tag = bytes.fromhex(vec.tag)
        msg, aad, n = vec.plaintext, vec.aad, len(vec.plaintext)
        with AeadHandle(spec, impl, False, _selftesting=True) as h:
            h.setkey(vec.key)
            h.setiv(vec.nonce)
            h.authenticate(aad[:5])
            h.authenticate(aad[5:])
            cut1, cut2 = min(1, n), min(n, 63 + n // 3)
            ct = h.encrypt(msg[:cut1]) + h.encrypt(msg[cut1:cut2]) + h.encrypt(msg[cut2:])
            if h.gettag() != want_tag:
                _fail(spec, impl, f"tag of a {n}-byte message")
            if vec.ciphertext and ct.hex() != vec.ciphertext:
                _fail(spec, impl, "ciphertext")
            h.setiv(vec.nonce)
            h.authenticate(aad)
            if h.decrypt(ct) != msg:
                _fail(spec, impl, "streaming decryption")
            h.checktag(want_tag)

            sealed = bytearray(n + 16)
            with ffi.from_buffer(sealed) as out:
                rc = spec.seal(h._ctx.ptr, vec.nonce, len(vec.nonce), aad, len(aad), msg, n, out)
            if rc or bytes(sealed) != ct + want_tag:
                _fail(spec, impl, "one-shot seal")
            for forged in (bytes(sealed), bytes(sealed[:-1]) + bytes([sealed[-1] ^ 0x80])):
                plain = bytearray(b"\xa5" * n)
                with ffi.from_buffer(plain) as out:
                    rc = spec.open(h._ctx.ptr, vec.nonce, len(vec.nonce), aad, len(aad),
                                   forged, len(forged), out)
                if forged == bytes(sealed):
                    if rc or bytes(plain) != msg:
                        _fail(spec, impl, "one-shot open")
                elif rc == 0 or plain != b"\xa5" * n:
                    _fail(spec, impl, "one-shot open wrote the output of a forgery")
            try:
                h.setiv(vec.nonce)
                h.decrypt(ct)
                h.checktag(want_tag[:-1] + bytes([want_tag[-1] ^ 1]))
            except AuthenticationFailed:
                pass
            else:
                _fail(spec, impl, "checktag accepted a wrong tag")


def secretbox_selftest(spec, impl, vectors: Sequence[SecretBoxVector]) -> None:
    """Check a secretbox implementation through its one-shot hooks: seal
    gives the known box and writes nothing past it, open returns the
    message, and open refuses a flipped tag bit, a flipped ciphertext bit
    and a truncated box with the output wiped (no plaintext released)."""
    import hashlib

    from gcrylike._context import Context
    from gcrylike._core import ffi
    from gcrylike._errors import ErrorCode

    def seal(ctx, nonce: bytes, msg: bytes) -> tuple[int, bytes]:
        out = bytearray(b"\xa5" * (len(msg) + 16 + 7))
        with ffi.from_buffer(out) as buf:
            rc = spec.seal(ctx.ptr, nonce, len(nonce), msg, len(msg), buf)
        if out[len(msg) + 16:] != b"\xa5" * 7:
            _fail(spec, impl, "seal wrote past the end of the box")
        return rc, bytes(out[:len(msg) + 16])

    def open_(ctx, nonce: bytes, box: bytes) -> tuple[int, bytes]:
        out = bytearray(b"\xa5" * max(len(box) - 16, 0))
        with ffi.from_buffer(out) as buf:
            rc = spec.open(ctx.ptr, nonce, len(nonce), box, len(box), buf)
        return rc, bytes(out)

    for vec in vectors:
        key, nonce, msg = bytes.fromhex(vec.key), bytes.fromhex(vec.nonce), vec.message
        ctx = Context(spec.context_size)
        try:
            if spec.setkey(ctx.ptr, key, impl):
                _fail(spec, impl, "setkey returned an error code")
            rc, box = seal(ctx, nonce, msg)
            if rc or (box.hex() != vec.box if vec.box else
                      hashlib.sha256(box).hexdigest() != vec.box_sha256):
                _fail(spec, impl, f"box of a {len(msg)}-byte message")
            rc, plain = open_(ctx, nonce, box)
            if rc or plain != msg:
                _fail(spec, impl, f"open of a {len(msg)}-byte box")
            forgeries = [bytes([box[0] ^ 1]) + box[1:], box[:15]]
            if msg:
                forgeries.append(box[:-1] + bytes([box[-1] ^ 0x80]))
            for forged in forgeries:
                rc, plain = open_(ctx, nonce, forged)
                if rc != ErrorCode.CHECKSUM or plain != b"\xa5" * max(len(forged) - 16, 0):
                    _fail(spec, impl, "open wrote the output of a forgery")
        finally:
            ctx.free()


def block_selftest(spec, impl, vectors: Sequence[BlockVector]) -> None:
    """Check a block cipher implementation: each vector encrypts and
    decrypts in one call, block by block and in place, and nothing is
    written past the output."""
    from gcrylike._block import BlockCipherHandle

    bs = spec.block_size
    for vec in vectors:
        pt, ct = bytes.fromhex(vec.plaintext), bytes.fromhex(vec.ciphertext)
        what = f"{len(pt) // bs}-block vector"
        with BlockCipherHandle(spec, impl, False, _selftesting=True) as h:
            h.setkey(bytes.fromhex(vec.key))
            if h.encrypt_blocks(pt) != ct:
                _fail(spec, impl, f"{what}: encryption")
            if h.decrypt_blocks(ct) != pt:
                _fail(spec, impl, f"{what}: decryption")
            one = b"".join(h.encrypt_blocks(pt[i:i + bs]) for i in range(0, len(pt), bs))
            if one != ct:
                _fail(spec, impl, f"{what}: one block at a time")
            buf = bytearray(pt) + b"\xa5" * bs
            h.encrypt_blocks(memoryview(buf)[:len(pt)], out=memoryview(buf)[:len(pt)])
            if bytes(buf[:len(pt)]) != ct:
                _fail(spec, impl, f"{what}: in place")
            if buf[len(pt):] != b"\xa5" * bs:
                _fail(spec, impl, f"{what}: wrote past the end of the output")


def tweakable_selftest(spec, impl, vectors: Sequence[TweakVector]) -> None:
    """Check a tweakable cipher implementation: each vector encrypts and
    decrypts, in place too, a one-bit change of the tweak changes the whole
    output, and ``crypt_sectors`` decryption inverts its encryption."""
    from gcrylike._tweakable import TweakableHandle

    for vec in vectors:
        key, tweak = bytes.fromhex(vec.key), bytes.fromhex(vec.tweak)
        pt, ct = bytes.fromhex(vec.plaintext), bytes.fromhex(vec.ciphertext)
        what = f"{len(pt)}-byte vector"
        with TweakableHandle(spec, impl, False, _selftesting=True) as h:
            h.setkey(key)
            if h.encrypt(pt, tweak) != ct:
                _fail(spec, impl, f"{what}: encryption")
            if h.decrypt(ct, tweak) != pt:
                _fail(spec, impl, f"{what}: decryption")
            buf = bytearray(pt)
            h.encrypt(buf, tweak, out=buf)
            if buf != ct:
                _fail(spec, impl, f"{what}: in place")
            if tweak and h.encrypt(pt, bytes([tweak[0] ^ 1]) + tweak[1:]) == ct:
                _fail(spec, impl, f"{what}: the tweak is ignored")
    if vectors:
        size = max(spec.min_length, 512)
        data = bytes((i * 13 + 5) & 0xFF for i in range(3 * size))
        with TweakableHandle(spec, impl, False, _selftesting=True) as h:
            h.setkey(bytes.fromhex(vectors[0].key))
            buf = bytearray(data)
            h.encrypt_sectors(buf, 7, size)
            if buf == data:
                _fail(spec, impl, "crypt_sectors left the data as it was")
            h.decrypt_sectors(buf, 7, size)
            if buf != data:
                _fail(spec, impl, "crypt_sectors decryption does not invert encryption")


@dataclass(frozen=True)
class SelftestReport:
    """The self-test outcome of one implementation (``gcrylike.SelftestReport``):
    ``status`` is "passed", "failed" or "skipped" (cannot run here), with
    ``reason`` saying why when not passed."""

    algorithm: str
    driver: str
    status: str  # "passed", "failed" or "skipped"
    reason: str = ""


#: The name this record had before it was exported as gcrylike.SelftestReport.
Report = SelftestReport


def run_all() -> list[SelftestReport]:
    """Self-test every algorithm on every implementation this CPU can run,
    and report every entry-point plugin that failed to load as failed."""
    from gcrylike import _registry, _selftest

    reports = []
    for spec in _registry.all_specs():
        for impl in _registry.ranked(spec):
            why = _registry.runnable_reason(impl)
            if why:
                reports.append(SelftestReport(spec.name, impl.driver, "skipped", why))
                continue
            res = _selftest.run(spec, impl, force=True)
            reports.append(SelftestReport(spec.name, impl.driver,
                                  "passed" if res.passed else "failed", res.reason))
    # a plugin refused at load is a failure too: the command is a deployment gate
    for label, why in _registry.plugin_errors().items():
        reports.append(SelftestReport(f"plugin {label}", "-", "failed", why))
    return reports
