"""The constant-time check's program, run under valgrind memcheck by
tests/test_ct.py (the ``ct`` tox env); not a test module itself.

Every algorithm of the registry, on every implementation that can run
(under valgrind: no AVX-512), through the ct flavour of the test copies
(tests/testhooks.py, GCRY_CT_CHECK): the key and the message are marked
secret (memcheck's "undefined") before each call and the outputs public
after it, so memcheck reports any branch or memory address that depends on
a secret: key setup (HChaCha/HSalsa20 subkeys included), keystream,
Poly1305 blocks and final reduction, NH, AES (bitsliced and AES-NI),
Adiantum, tag comparison (whose result alone is declassified, in
gcry_ct_memcmp).  Nonces, tweaks, lengths and counters are public.

    python ct_driver.py            # every case; prints one line per driver
    python ct_driver.py --leaky    # only the deliberately leaky routines

The copies are called with the registry's hooks: each cipher package's
``lib`` is pointed at its ct copy for the ``setkey`` closures, and the raw
entry points are looked up in the copy by name.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import testhooks  # noqa: E402

import gcrylike  # noqa: E402
from gcrylike import _fast, _registry  # noqa: E402

#: message lengths: below, at and past each SIMD width (1, 2, 4, 8 blocks
#: of 64 bytes), the 512-byte stitched groups, and a long one
STREAM_LENGTHS = (1, 63, 64, 65, 129, 4 * 64 + 5, 8 * 64 + 7, 16 * 64 + 9, 4096 + 13)
MAC_LENGTHS = (0, 1, 15, 16, 17, 64 * 4 + 3, 1024 + 5, 4096 + 1)
AES_BLOCKS = (1, 2, 4, 8, 9, 33)
ADIANTUM_LENGTHS = (16, 17, 512, 4096)


class Copies:
    """The ct copies, and each cipher package's ``lib`` pointed at its copy."""

    def __init__(self) -> None:
        self.libs = {}
        for key, entry in testhooks.manifest(ct=True).items():
            mod = testhooks.copy(key, ct=True)
            package = importlib.import_module(entry["installed"].rsplit(".", 1)[0])
            package.lib = mod.lib  # the spec closures look ``lib`` up when called
            self.libs[package.__name__] = self.libs[entry["installed"]] = mod
        self.any = next(iter(self.libs.values()))
        self.ffi = self.any.ffi

    def raw(self, spec, fn):
        """The ct copy's entry point named as FN (an installed lib function)."""
        return getattr(self.libs[spec.setkey.__module__].lib, fn.__name__)

    def setkey(self, spec, ctx, key, impl) -> None:
        """SPEC's setkey hook on the ct copy: a native one (a C function,
        called with the key's length and the token) or a Python one."""
        if _fast.is_native(spec.setkey):
            ok(self.raw(spec, spec.setkey)(ctx, key, len(key), impl.token), spec.name)
        else:
            spec.setkey(ctx, key, impl)

    def buf(self, data: bytes):
        """A C copy of DATA, public (exactly len(data) bytes: no terminator)."""
        buf = self.ffi.new("uint8_t[]", max(len(data), 1))
        self.ffi.memmove(buf, data, len(data))
        return buf

    def secret(self, data: bytes):
        """A C copy of DATA, marked secret."""
        buf = self.buf(data)
        self.any.lib.gcry_ct_secret(buf, len(data))
        return buf

    def public(self, buf, n: int) -> bytes:
        self.any.lib.gcry_ct_public(buf, n)
        return bytes(self.ffi.buffer(buf, n))

    def context(self, size: int):
        raw = self.ffi.new("uint8_t[]", size + 64)
        address = int(self.ffi.cast("uintptr_t", raw))
        ctx = self.ffi.cast("void *", raw + (-address % 64))
        return ctx, raw  # keep raw alive


def ok(rc: int, what: str) -> None:
    if rc != 0:
        raise SystemExit(f"ct_driver: {what} returned {rc}")


def run_cipher(c: Copies, spec, impl) -> None:
    enc = c.raw(spec, spec.encrypt_stream)
    for keylen in spec.key_sizes:
        for ivlen in spec.iv_sizes:
            ctx, _keep = c.context(spec.context_size)
            c.setkey(spec, ctx, c.secret(os.urandom(keylen)), impl)
            spec.setiv(ctx, c.buf(os.urandom(ivlen)))
            for n in STREAM_LENGTHS:  # one stream, calls of these lengths
                dst = c.ffi.new("uint8_t[]", n)
                ok(enc(ctx, dst, c.secret(os.urandom(n)), n), spec.name)
                c.public(dst, n)


def run_mac(c: Copies, spec, impl) -> None:
    update, read = c.raw(spec, spec.update), c.raw(spec, spec.read)
    verify = c.raw(spec, spec.verify)
    key = os.urandom(spec.key_sizes[0])
    for n in MAC_LENGTHS:
        msg = os.urandom(n)
        tags = []
        for step in ("read", "verify-good", "verify-bad"):
            ctx, _keep = c.context(spec.context_size)
            c.setkey(spec, ctx, c.secret(key), impl)
            ok(update(ctx, c.secret(msg), n), spec.name)
            tag = c.ffi.new("uint8_t[]", spec.digest_size)
            if step == "read":
                ok(read(ctx, tag, spec.digest_size), spec.name)
                tags.append(c.public(tag, spec.digest_size))
                continue
            good = tags[0] if step == "verify-good" else bytes([tags[0][0] ^ 1]) + tags[0][1:]
            rc = verify(ctx, c.buf(good), spec.digest_size)
            if (rc == 0) != (step == "verify-good"):
                raise SystemExit(f"ct_driver: {spec.name} {step} gave {rc}")
        if spec.oneshot is not None:
            tag = c.ffi.new("uint8_t[]", spec.digest_size)
            ok(c.raw(spec, spec.oneshot)(c.secret(key), len(key), c.secret(msg), n, tag,
                                          impl.token), spec.name)
            if c.public(tag, spec.digest_size) != tags[0]:
                raise SystemExit(f"ct_driver: {spec.name} one-shot tag differs")


def run_aead(c: Copies, spec, impl) -> None:
    r = {name: c.raw(spec, getattr(spec, name)) for name in
         ("authenticate", "encrypt", "decrypt", "gettag", "checktag", "seal", "open")}
    key, nonce, tagn = os.urandom(32), os.urandom(spec.iv_sizes[0]), spec.tag_size
    for n in (0, 1, 64, 513, 1537, 4096 + 7):
        aad, msg = os.urandom(n % 37), os.urandom(n)
        ctx, _keep = c.context(spec.context_size)
        c.setkey(spec, ctx, c.secret(key), impl)
        # streaming: encrypt and tag, then decrypt and check (good, bad)
        ok(spec.setiv(ctx, c.buf(nonce)), spec.name)
        ok(r["authenticate"](ctx, c.secret(aad), len(aad)), spec.name)
        ct = c.ffi.new("uint8_t[]", max(n, 1))
        ok(r["encrypt"](ctx, ct, c.secret(msg), n), spec.name)
        ctext = c.public(ct, n)
        tag = c.ffi.new("uint8_t[]", tagn)
        ok(r["gettag"](ctx, tag, tagn), spec.name)
        tag_bytes = c.public(tag, tagn)
        for want, good in ((tag_bytes, True), (bytes([tag_bytes[0] ^ 1]) + tag_bytes[1:], False)):
            ok(spec.setiv(ctx, c.buf(nonce)), spec.name)
            ok(r["authenticate"](ctx, c.secret(aad), len(aad)), spec.name)
            pt = c.ffi.new("uint8_t[]", max(n, 1))
            ok(r["decrypt"](ctx, pt, c.buf(ctext), n), spec.name)
            c.public(pt, n)
            rc = r["checktag"](ctx, c.buf(want), tagn)
            if (rc == 0) != good:
                raise SystemExit(f"ct_driver: {spec.name} checktag gave {rc}")
        # one-shot: seal, then open the box and a forged one
        box = c.ffi.new("uint8_t[]", n + tagn)
        ok(r["seal"](ctx, c.buf(nonce), len(nonce), c.secret(aad), len(aad),
                     c.secret(msg), n, box), spec.name)
        sealed = c.public(box, n + tagn)
        for data, good in ((sealed, True), (sealed[:-1] + bytes([sealed[-1] ^ 1]), False)):
            out = c.ffi.new("uint8_t[]", max(n, 1))
            rc = r["open"](ctx, c.buf(nonce), len(nonce), c.secret(aad),
                           len(aad), c.buf(data), n + tagn, out)
            c.public(out, n)
            if (rc == 0) != good:
                raise SystemExit(f"ct_driver: {spec.name} open gave {rc}")


def run_secretbox(c: Copies, spec, impl) -> None:
    seal, open_ = c.raw(spec, spec.seal), c.raw(spec, spec.open)
    key, nonce, tagn = os.urandom(32), os.urandom(24), spec.tag_size
    for n in (0, 1, 31, 32, 33, 64 * 9 + 1, 32 + 4 * 512 + 7):
        ctx, _keep = c.context(spec.context_size)
        c.setkey(spec, ctx, c.secret(key), impl)
        box = c.ffi.new("uint8_t[]", n + tagn)
        ok(seal(ctx, c.buf(nonce), 24, c.secret(os.urandom(n)), n, box),
           spec.name)
        sealed = c.public(box, n + tagn)
        for data, good in ((sealed, True), (bytes([sealed[0] ^ 1]) + sealed[1:], False)):
            out = c.ffi.new("uint8_t[]", max(n, 1))
            rc = open_(ctx, c.buf(nonce), 24, c.buf(data),
                       n + tagn, out)
            c.public(out, n)
            if (rc == 0) != good:
                raise SystemExit(f"ct_driver: {spec.name} open gave {rc}")


def run_block(c: Copies, spec, impl) -> None:
    enc, dec = c.raw(spec, spec.encrypt_blocks), c.raw(spec, spec.decrypt_blocks)
    ctx, _keep = c.context(spec.context_size)
    c.setkey(spec, ctx, c.secret(os.urandom(spec.key_sizes[0])), impl)
    for blocks in AES_BLOCKS:
        n = blocks * spec.block_size
        for fn in (enc, dec):
            dst = c.ffi.new("uint8_t[]", n)
            ok(fn(ctx, dst, c.secret(os.urandom(n)), n), spec.name)
            c.public(dst, n)


def run_tweakable(c: Copies, spec, impl) -> None:
    enc, dec = c.raw(spec, spec.encrypt), c.raw(spec, spec.decrypt)
    sectors = c.raw(spec, spec.crypt_sectors)
    ctx, _keep = c.context(spec.context_size)
    c.setkey(spec, ctx, c.secret(os.urandom(spec.key_sizes[0])), impl)
    for n in ADIANTUM_LENGTHS:
        tweak = c.buf(os.urandom(32))
        for fn in (enc, dec):
            dst = c.ffi.new("uint8_t[]", n)
            ok(fn(ctx, dst, c.secret(os.urandom(n)), n, tweak, 32), spec.name)
            c.public(dst, n)
    # 17 sectors: a group of sixteen (HChaCha16 on the AVX-512 tier, two
    # calls of the eight-message Poly1305 a stage) and a single one
    for encrypting in (1, 0):
        buf = c.secret(os.urandom(17 * 512))
        ok(sectors(ctx, buf, 17, 512, 2**40 + 3, encrypting), spec.name)
        c.public(buf, 17 * 512)


def run_leaky(c: Copies) -> None:
    """The leaky routines on a secret byte, then on the first byte of a
    ChaCha20 encryption under a secret key on the widest driver (the secret
    reaches the output through the real code: its reports are the check's
    proof that the taint is followed)."""
    lib = c.any.lib
    print("leaky: branch", lib.gcry_ct_leaky_branch(c.secret(b"\x01")))
    print("leaky: lookup", lib.gcry_ct_leaky_lookup(c.secret(b"\x02")))
    spec = _registry.lookup("CHACHA20")
    impl = next(i for i in reversed(spec.implementations)
                if i.driver in {x.driver for x in gcrylike.implementations(spec.name)
                                if x.available})
    ctx, _keep = c.context(spec.context_size)
    c.setkey(spec, ctx, c.secret(os.urandom(32)), impl)
    spec.setiv(ctx, c.buf(bytes(12)))
    out = c.ffi.new("uint8_t[]", 512)
    ok(c.raw(spec, spec.encrypt_stream)(ctx, out, c.buf(bytes(512)), 512), spec.name)
    print("leaky: keystream of", impl.driver, lib.gcry_ct_leaky_branch(out + 511))


RUNNERS = {"cipher": run_cipher, "mac": run_mac, "aead": run_aead,
           "secretbox": run_secretbox, "block": run_block, "tweakable": run_tweakable}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--leaky", action="store_true", help="run only the leaky routines")
    opts = ap.parse_args()
    c = Copies()
    if not c.any.lib.gcry_ct_on_valgrind():
        raise SystemExit("ct_driver: run me under valgrind (tests/test_ct.py does)")
    if opts.leaky:
        run_leaky(c)
        return
    cases = 0
    for spec in _registry.all_specs():
        available = {i.driver for i in gcrylike.implementations(spec.name) if i.available}
        for impl in spec.implementations:
            if impl.driver in available:
                RUNNERS[spec.kind](c, spec, impl)
                cases += 1
                print(f"ct: {spec.name} {impl.driver}", flush=True)
    print(f"ct: {cases} drivers")


if __name__ == "__main__":
    main()
