"""The abstract machine state of the taint analysis.

A general register holds a ``Val``: whether it may carry a secret, and
whether it is a pointer into the routine's own stack (then ``ptr`` is
(frame, offset) when the offset is known, ``MAYBE_STACK`` when it is not).
Vector and mask registers are not tracked: they are always secret.

The stack is modelled as frames.  Frame 0 is the stack pointer at entry;
``and $-N, %rsp`` (realignment) starts a new frame whose base lies in a
known interval relative to frame 0.  For each frame the state keeps the
set of byte offsets known to hold public values (stored there by the
routine, or the return address and stack arguments); any other byte reads
as secret.  A store through one frame is exact in that frame and, when it
stores a secret, makes every byte it might have hit in the other frames
secret too, so realignment cannot hide a secret.

Pointer arguments are assumed not to point into the routine's own frame
or its return address and stack arguments (which no valid C caller can
arrange), so stores through them change nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from registers import ALL_GPRS

MAYBE_STACK = "maybe-stack"
ENTRY_FRAME: object = 0

Ptr = tuple[object, int] | str | None


@dataclass(frozen=True)
class Val:
    secret: bool
    ptr: Ptr = None


PUBLIC = Val(False)
SECRET = Val(True)


def join_ptr(a: Ptr, b: Ptr) -> Ptr:
    if a == b:
        return a
    return None if a is None and b is None else MAYBE_STACK


def derived(*vals: Val) -> Val:
    """A value computed from these, not a known stack offset any more."""
    return Val(any(v.secret for v in vals),
               MAYBE_STACK if any(v.ptr is not None for v in vals) else None)


@dataclass
class State:
    regs: dict[str, Val]
    flags_secret: bool
    public: dict[object, frozenset[int]] = field(default_factory=dict)
    frames: dict[object, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def entry(cls, secret_regs: tuple[str, ...], public_args: frozenset[str],
              public_stack_bytes: int) -> State:
        regs = {r: (PUBLIC if r in public_args and r not in secret_regs else SECRET)
                for r in ALL_GPRS}
        regs["rsp"] = Val(False, (ENTRY_FRAME, 0))
        return cls(regs, True, {ENTRY_FRAME: frozenset(range(public_stack_bytes))},
                   {ENTRY_FRAME: (0, 0)})

    def copy(self) -> State:
        return State(dict(self.regs), self.flags_secret, dict(self.public), dict(self.frames))

    def join(self, other: State) -> State:
        regs = {r: Val(v.secret or other.regs[r].secret, join_ptr(v.ptr, other.regs[r].ptr))
                for r, v in self.regs.items()}
        frames = dict(self.frames)
        for f, (lo, hi) in other.frames.items():
            olo, ohi = frames.get(f, (lo, hi))
            frames[f] = (min(lo, olo), max(hi, ohi))
        public = {f: s & other.public[f] for f, s in self.public.items() if f in other.public}
        return State(regs, self.flags_secret or other.flags_secret, public, frames)

    # -- the stack ---------------------------------------------------------
    def new_frame(self, frame: object, parent: object, offset: int, align: int) -> None:
        """The frame whose base is ``parent``+``offset`` rounded down to ``align``."""
        lo, hi = self.frames[parent]
        self.frames[frame] = (lo + offset - (align - 1), hi + offset)
        self.public[frame] = frozenset()

    def is_public(self, frame: object, offset: int, size: int) -> bool:
        known = self.public.get(frame, frozenset())
        return all(b in known for b in range(offset, offset + size))

    def store(self, frame: object, offset: int, size: int, secret: bool) -> None:
        span = frozenset(range(offset, offset + size))
        known = self.public.get(frame, frozenset())
        self.public[frame] = known - span if secret else known | span
        if not secret:
            return
        lo, hi = self.frames[frame]
        for other, (olo, ohi) in self.frames.items():
            if other != frame and other in self.public:
                first, last = offset + lo - ohi, offset + size + hi - olo
                self.public[other] = self.public[other] - frozenset(range(first, last))

    def store_anywhere(self) -> None:
        """A secret stored at an unknown place on the stack."""
        self.public = {f: frozenset() for f in self.public}
