"""MAC handles: what :func:`gcrylike.mac_open` returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _fast, _registry
from ._buffers import as_cbuffer, sizes_text
from ._context import Context
from ._core import ffi
from ._errors import (
    AuthenticationFailed,
    ErrorCode,
    InvalidKeyLength,
    InvalidState,
    error_for,
)
from ._keyed import KeyedHandle, ReadMethod, SetkeyMethod, UpdateMethod, native_method
from ._spec import Implementation, MacSpec
from ._typing import BytesLike

_Failure = _fast.Failure
_holds = _registry.holds
_mac_call = _fast.fastcall.mac if _fast.AVAILABLE else None
#: name -> (stamp, native call, hook address, digest size, token): what
#: mac(name, key, data) without impl= runs, so that such a call is one
#: look-up and one C call (kept by the registry, which empties it when specs
#: come or go)
_shots = _registry.oneshot_calls


@dataclass(frozen=True)
class MacInfo:
    """Which algorithm and driver a MAC handle uses."""

    algorithm: str
    driver: str
    digest_size: int
    key_sizes: tuple[int, ...]


class MacHandle(KeyedHandle):
    """An open MAC: ``setkey``, any number of ``update`` calls, then
    ``digest``/``verify`` (the state is left as it was) or ``final``.

    The state lives in C memory that :meth:`close` wipes.
    """

    __slots__ = ("_finished",)

    def __init__(self, spec: MacSpec, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        super().__init__(spec, impl, auto, _selftesting=_selftesting)
        self._finished = False

    def _hooks(self) -> tuple[Any, ...]:
        s = self._spec
        return ("mac", {"update": s.update, "read": s.read, "setkey": s.setkey}, 1,
                s.digest_size, False)

    @property
    def info(self) -> MacInfo:
        """Algorithm, driver in use and sizes."""
        s = self._spec
        return MacInfo(s.name, self._impl.driver, s.digest_size, s.key_sizes)

    def _ready(self) -> Context:
        ctx = self._keyed()
        if self._finished:
            raise InvalidState(f"{self._spec.name}: final() was called; setkey() or reset()")
        return ctx

    def _key_installed(self, ctx: Context) -> None:
        self._finished = False
        self._native_ready()

    setkey: SetkeyMethod = native_method(
        "setkey", "($self, key)", KeyedHandle.setkey.__doc__ or "")
    update: UpdateMethod = native_method(
        "update", "($self, data)",
        """Absorb ``data`` (any bytes-like object, any length, any split).""")
    digest: ReadMethod = native_method(
        "read", "($self)", """The tag of everything absorbed so far; updates may continue.""")

    def _general_update(self, data: BytesLike) -> None:
        rc = self._pass_in(self._spec.update, data, "data")
        if rc:
            raise error_for(rc, self._spec.name)

    def _general_read(self) -> bytes:
        rc, tag = self._take_out(self._spec.read, self._spec.digest_size)
        if rc:
            raise error_for(rc, self._spec.name)
        return tag

    def verify(self, tag: BytesLike) -> None:
        """Compare ``tag`` with the tag so far in constant time; raise
        :class:`AuthenticationFailed` if it differs (or has another length)."""
        if self._pass_in(self._spec.verify, tag, "tag"):
            raise AuthenticationFailed(f"{self._spec.name}: tag mismatch")

    def final(self) -> bytes:
        """The tag; afterwards the live state is wiped and the handle needs
        ``setkey`` or ``reset`` (a one-time key is not used twice by
        accident).  The post-setkey copy that ``reset`` restores keeps the key
        until the next ``setkey`` or :meth:`close`."""
        n = self._spec.digest_size
        out = bytearray(n)
        with ffi.from_buffer(out) as buf:
            with self._binding.exclusive():
                ctx = self._ready()
                rc = self._spec.read(ctx.ptr, buf, n)
                if rc:
                    raise error_for(rc, self._spec.name)
                self._finished = True
                self._binding.ready = False
                ctx.wipe()
        return bytes(out)

    def copy(self) -> MacHandle:
        """An independent handle in the same state, as ``hashlib`` objects
        have: key once, absorb a common prefix, then copy per message."""
        return self.__copy__()

    def reset(self) -> None:
        """Back to the state right after setkey (nothing absorbed)."""
        with self._binding.exclusive():
            ctx = self._keyed()
            ctx.restore()
            self._key_installed(ctx)


def mac_open(name: str | int, *, impl: str | None = None) -> MacHandle:
    """Open a MAC handle on ``name`` (name, alias or id, any case); ``impl``
    forces a driver, otherwise the best one this CPU can run."""
    spec = _registry.lookup(name, "mac")
    return MacHandle(spec, _registry.choose(spec, impl), auto=impl is None)


def mac(name: str | int, key: BytesLike, data: BytesLike, *,
        impl: str | None = None) -> bytes:
    """One-shot MAC: the tag of ``data`` under ``key``."""
    shot = _shots.get(name) if impl is None and type(name) is str else None
    if shot is not None and _holds(shot[0]):
        try:
            tag = shot[1](shot[2], key, data, shot[3], shot[4])
        except _Failure:
            pass  # the general path below explains
        else:
            if tag is not NotImplemented:  # (not buffers: the general path explains)
                return tag
    return _general_mac(name, key, data, impl)


def mac_verify(name: str | int, key: BytesLike, data: BytesLike, tag: BytesLike, *,
               impl: str | None = None) -> None:
    """One-shot MAC check: raise :class:`AuthenticationFailed` unless
    ``tag`` is the tag of ``data`` under ``key`` (compared in constant time
    by the MAC's C, :meth:`MacHandle.verify`; the right tag never reaches
    Python), as cryptography's ``Poly1305.verify_tag``."""
    with mac_open(name, impl=impl) as h:
        h.setkey(key)
        h.update(data)
        h.verify(tag)


def _general_mac(name: str | int, key: BytesLike, data: BytesLike,
                 impl: str | None) -> bytes:
    """mac() for every other case: the registry's answer for ``name`` (with
    its first-use self-test), the native call when the hook is native (then
    remembered in _shots), else the cffi call, which explains refusals; a
    MAC without a one-shot hook runs on a handle."""
    stamp = _registry.stamp()  # before: a self-test run now changes it, so not remembered
    spec, chosen = _registry.resolve(name, "mac", impl)
    oneshot = spec.oneshot  # a local: see SealingHandle
    address = _fast.mac_address(oneshot) if _mac_call is not None else None
    if address is not None:  # the native fast path (gcrylike/_native/fastcall.c)
        if impl is None and type(name) is str:
            _shots[name] = (stamp, _mac_call, address, spec.digest_size, chosen.token)
        try:
            tag = _mac_call(address, key, data, spec.digest_size, chosen.token)
        except _Failure as exc:
            rc = exc.args[0]
            if rc != ErrorCode.INV_KEYLEN:  # that one: the words below
                raise error_for(rc, spec.name) from None
        else:
            if tag is not NotImplemented:
                return tag
            # not buffers: the general path below explains
    if oneshot is None:
        with mac_open(name, impl=impl) as h:
            h.setkey(key)
            h.update(data)
            return h.digest()
    tag = bytearray(spec.digest_size)  # a new object, never a shared bytes
    with as_cbuffer(key, "key") as kbuf, as_cbuffer(data, "data") as dbuf, \
            ffi.from_buffer(tag) as out:
        rc = oneshot(kbuf, len(kbuf), dbuf, len(dbuf), out, chosen.token)
    if rc == ErrorCode.INV_KEYLEN:  # the words every other path uses
        with as_cbuffer(key, "key") as kbuf:
            raise InvalidKeyLength(f"{spec.name} key must be {sizes_text(spec.key_sizes)} "
                                   f"bytes, got {len(kbuf)}")
    if rc:
        raise error_for(rc, spec.name)
    return bytes(tag)
