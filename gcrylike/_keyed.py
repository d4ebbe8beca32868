"""The life cycle every handle shares: a spec, the implementation chosen
for it, a C context; ``setkey`` with the first-use self-test; ``close``
wipes.  Each kind of handle adds its own operations."""

from __future__ import annotations

from typing import Any

from . import _registry
from ._buffers import as_cbuffer, sizes_text
from ._context import Context
from ._errors import HandleClosed, InvalidKeyLength, MissingKey
from ._spec import Implementation


class KeyedHandle:
    """Base of every handle class (not used directly)."""

    __slots__ = ("_spec", "_impl", "_auto", "_ctx", "_haskey", "_selftesting")

    def __init__(self, spec: Any, impl: Implementation, auto: bool,
                 *, _selftesting: bool = False) -> None:
        self._spec = spec
        self._impl = impl
        self._auto = auto
        self._ctx: Context | None = Context(spec.context_size)
        self._haskey = False
        # the self-test runner's own handles skip the first-use gate
        self._selftesting = _selftesting

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has wiped the context."""
        return self._ctx is None

    def _live(self) -> Context:
        if self._ctx is None:
            raise HandleClosed(f"{self._spec.name} handle is closed")
        return self._ctx

    def _keyed(self) -> Context:
        ctx = self._live()
        if not self._haskey:
            raise MissingKey(f"{self._spec.name}: setkey() first")
        return ctx

    def setkey(self, key: Any) -> None:
        """Install a key.  The first setkey of each implementation in the
        process runs its known-answer self-test; if it fails, a handle that
        chose its driver automatically moves to the next best one."""
        ctx = self._live()
        with as_cbuffer(key, "key") as kbuf:
            if len(kbuf) not in self._spec.key_sizes:
                raise InvalidKeyLength(f"{self._spec.name} key must be "
                                       f"{sizes_text(self._spec.key_sizes)} bytes, "
                                       f"got {len(kbuf)}")
            if not self._selftesting:
                self._impl = _registry.ready_implementation(self._spec, self._impl, self._auto)
            self._forget_key()
            self._spec.setkey(ctx.ptr, kbuf, self._impl)
        ctx.save()  # the pristine copy reset() restores
        self._haskey = True
        self._key_installed(ctx)

    def _forget_key(self) -> None:
        """The key is about to change or go: drop state that depends on it."""
        self._haskey = False

    def _key_installed(self, ctx: Context) -> None:
        """A key is in place: subclasses enable their fast paths here."""

    def close(self) -> None:
        """Wipe and free the context; later calls raise HandleClosed."""
        if self._ctx is not None:
            self._forget_key()
            self._ctx.free()
            self._ctx = None

    def __enter__(self) -> Any:
        self._live()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._ctx is None else ("keyed" if self._haskey else "no key")
        return f"<{type(self).__name__} {self._spec.name} via {self._impl.driver}, {state}>"
