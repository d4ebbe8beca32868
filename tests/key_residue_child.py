"""The process tests/test_key_residue.py scans: it reads a key from its
standard input straight into a bytearray (no bytes object ever holds it),
keys a handle of one kind from it, uses the handle, copies it, uses the
copy, closes both, zeroes the bytearray and collects; then it says "ready"
on standard output and waits, untouched, until standard input closes.

Right after each copy it spills its registers (:func:`spill_registers`),
as a lazy-binding resolver or a signal may at any time: what a copy left in
a register is then in memory for the scan to find, on any CPU.

Run as ``python key_residue_child.py SCENARIO``; the scenario names and key
sizes are :data:`SCENARIOS`, :data:`CONTEXT_COPIES` and :data:`PLANTED`,
which the test imports.
"""

from __future__ import annotations

import copy
import faulthandler
import gc
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

import gcrylike
from gcrylike._core import ffi, lib

Handle = Any
#: key in, the handles that exist once the key is used and copied
Scenario = Callable[[bytearray], list[Handle]]

#: what the planted leak keeps alive until the process is scanned
_kept: list[Any] = []
SPILL_SIGNAL = signal.SIGUSR1


def catch_spill_signal() -> None:
    """Handle SPILL_SIGNAL in faulthandler's C handler, which runs on its own
    alternate stack: the signal frame the kernel writes there (every
    register, the vector ones included) is heap memory that nothing else
    writes over before the scan (on the main stack the next calls would)."""
    _kept.append(devnull := open(os.devnull, "w"))
    faulthandler.register(SPILL_SIGNAL, file=devnull, all_threads=False)


def spill_registers() -> None:
    os.kill(os.getpid(), SPILL_SIGNAL)


def used_and_copied(handle: Handle, use: Callable[[Handle], object]) -> list[Handle]:
    """Use ``handle``, copy it (copy.copy: Context.clone), use the copy."""
    use(handle)
    twin = copy.copy(handle)
    spill_registers()
    use(twin)
    return [handle, twin]


def stream(name: str, iv_size: int) -> Scenario:
    def run(key: bytearray) -> list[Handle]:
        h = gcrylike.cipher_open(name)
        h.setkey(key)
        h.setiv(bytes(iv_size))
        return used_and_copied(h, lambda h: h.encrypt(bytes(100)))
    return run


def mac(name: str) -> Scenario:
    def run(key: bytearray) -> list[Handle]:
        h = gcrylike.mac_open(name)
        h.setkey(key)
        return used_and_copied(h, lambda h: h.update(bytes(100)))
    return run


def aead_stream(name: str, iv_size: int) -> Scenario:
    def run(key: bytearray) -> list[Handle]:
        h = gcrylike.cipher_open(name, mode="poly1305")
        h.setkey(key)
        h.setiv(bytes(iv_size))
        h.authenticate(b"ad")
        return used_and_copied(h, lambda h: h.encrypt(bytes(100)))
    return run


def one_shot(cls: type, nonce_size: int) -> Scenario:
    def run(key: bytearray) -> list[Handle]:
        return used_and_copied(cls(key), lambda o: o.encrypt(bytes(nonce_size), bytes(100), b""))
    return run


def secretbox(key: bytearray) -> list[Handle]:
    return used_and_copied(gcrylike.SecretBox(key), lambda o: o.encrypt(bytes(100), bytes(24)))


def tweakable(key: bytearray) -> list[Handle]:
    h = gcrylike.tweakable_open("adiantum")
    h.setkey(key)
    return used_and_copied(h, lambda h: h.encrypt(bytes(300), b"tweak"))


def block(key: bytearray) -> list[Handle]:
    h = gcrylike.block_cipher_open("aes256")
    h.setkey(key)
    return used_and_copied(h, lambda h: h.encrypt_blocks(bytes(64)))


#: name: (key size, scenario), one per handle kind that supports copy
SCENARIOS: dict[str, tuple[int, Scenario]] = {
    "chacha20": (32, stream("chacha20", 12)),
    "salsa20": (32, stream("salsa20", 8)),
    "xchacha20": (32, stream("xchacha20", 24)),
    "poly1305": (32, mac("poly1305")),
    "nhpoly1305": (1088, mac("nhpoly1305")),
    "chacha20-poly1305-handle": (32, aead_stream("chacha20", 12)),
    "xchacha20-poly1305-handle": (32, aead_stream("xchacha20", 24)),
    "ChaCha20Poly1305": (32, one_shot(gcrylike.ChaCha20Poly1305, 12)),
    "XChaCha20Poly1305": (32, one_shot(gcrylike.XChaCha20Poly1305, 24)),
    "SecretBox": (32, secretbox),
    "adiantum": (32, tweakable),
    "aes256": (32, block),
}


def keyed_chacha20(key: bytearray) -> Handle:
    h = gcrylike.cipher_open("chacha20")
    h.setkey(key)
    return h


def context_clone(key: bytearray) -> list[Handle]:
    h = keyed_chacha20(key)
    twin = h._ctx.clone()
    spill_registers()
    twin.free()
    return [h]


def context_save(key: bytearray) -> list[Handle]:
    h = keyed_chacha20(key)
    h._ctx.save()
    spill_registers()
    return [h]


def context_restore(key: bytearray) -> list[Handle]:
    h = keyed_chacha20(key)
    h._ctx.restore()
    spill_registers()
    return [h]


#: the copies of gcrylike.Context itself, the registers spilled at once:
#: what they leave is not worn away by the Python code after them
CONTEXT_COPIES: dict[str, tuple[int, Scenario]] = {
    "context-clone": (32, context_clone),
    "context-save": (32, context_save),
    "context-restore": (32, context_restore),
}


def libc_copy(h: Handle) -> Any:
    """A copy of ``h``'s context (live state and saved copy, as
    Context.clone copies it) made with libc's memmove (ffi.memmove)."""
    ctx = h._ctx
    dst = ffi.new("char[]", ctx._total)
    ffi.memmove(dst, ctx.ptr, ctx._total)
    return dst


def planted_kept_copy(key: bytearray) -> list[Handle]:
    """A copy of the context that is never wiped."""
    h = keyed_chacha20(key)
    _kept.append(libc_copy(h))
    return [h]


def planted_register_residue(key: bytearray) -> list[Handle]:
    """The context copied with libc's memmove, as Context.clone did, the
    copy wiped and freed: only the registers keep the key, and the spill
    puts them where the scan looks."""
    h = keyed_chacha20(key)
    dst = libc_copy(h)
    spill_registers()
    wipe_and_free(dst)
    return [h]


def wipe_and_free(buf: Any) -> None:
    lib.gcry_wipememory(buf, len(buf))
    ffi.release(buf)


#: leaks the scan must find (the proof that it can see one)
PLANTED: dict[str, tuple[int, Scenario]] = {
    "planted-kept-copy": (32, planted_kept_copy),
    "planted-register-residue": (32, planted_register_residue),
}


def read_key(size: int) -> bytearray:
    """SIZE bytes from standard input, read by the kernel straight into a
    bytearray (sys.stdin's buffer would keep a copy)."""
    key = bytearray(size)
    view = memoryview(key)
    got = 0
    while got < size:
        n = os.readv(0, [view[got:]])
        if n == 0:
            raise EOFError(f"key: {got} of {size} bytes")
        got += n
    view.release()
    return key


def run(name: str) -> None:
    size, scenario = {**SCENARIOS, **CONTEXT_COPIES, **PLANTED}[name]
    key = read_key(size)
    handles = scenario(key)
    for h in handles:
        h.close()
    key[:] = bytes(size)
    del handles, key
    gc.collect()


def main() -> None:
    catch_spill_signal()
    run(sys.argv[1])
    os.write(1, b"ready\n")
    os.read(0, 1)  # blocks until the scanner is done and closes our stdin


if __name__ == "__main__":
    main()
