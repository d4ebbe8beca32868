"""Taint analysis of one routine over its control-flow graph, to a fixpoint.

Blocks are keyed by (call context, address): a ``call`` to code in the same
object analyses the callee with the caller's state and returns to the
instruction after the call (the context is the stack of return addresses),
and a jump into another routine of the same object (a tail call) follows it
there.  Merging is the union of taint (state.State.join).  Once the states
are stable every block is replayed once more to collect the findings, so
each finding is reported against the final, most tainted, state.

What is a finding is listed in docs/security.rst; in short, anything whose
timing or memory footprint could depend on a secret: a branch on secret
flags or rcx, an indirect branch, an address with a secret base or index,
a shift count from a secret register, div/idiv of a secret, a rep string
operation with a secret count, and any instruction not in mnemonics.py.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import mnemonics
from disasm import Imm, Indirect, Insn, Mem, ObjectCode, Operand, Reg, Target
from registers import ARGUMENTS, GPR, is_vector, vector_bytes
from state import MAYBE_STACK, PUBLIC, SECRET, State, Val, derived

CONTROL = {"jcc", "loop", "jmp", "call", "ret"}
MAX_CALL_DEPTH = 8
MAX_VISITS = 200_000


@dataclass(frozen=True, order=True)
class Finding:
    addr: int
    text: str
    reason: str


def signed64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def classify(insn: Insn) -> tuple[str | None, int | None]:
    """(class, operand size from the suffix); movd/movq between general
    registers and memory are plain moves."""
    cls, _, size = mnemonics.lookup(insn.mnemonic)
    if insn.mnemonic in ("movd", "movq") and not any(
            isinstance(o, Reg) and is_vector(o.name) for o in insn.operands):
        return "mov", mnemonics.SUFFIX_BYTES[insn.mnemonic[-1]]
    if insn.prefixes and set(insn.prefixes) & mnemonics.REP_PREFIXES and cls != "string":
        return None, size  # rep on anything else: not something we know
    return cls, size


def gpr_size(insn: Insn, suffix: int | None) -> int:
    if suffix:
        return suffix
    widths = [GPR[o.name][1] for o in insn.operands if isinstance(o, Reg) and o.name in GPR]
    return widths[-1] if widths else 8


class Routine:
    """The analysis of one entry point of an object."""

    def __init__(self, code: ObjectCode, name: str, secret_regs: tuple[str, ...] = (),
                 stack_args: int = 0):
        self.code, self.name = code, name
        self.entry = code.functions[name][0]
        self.order = sorted(code.insns)
        self.next_addr = {a: b for a, b in zip(self.order, self.order[1:], strict=False)}
        self.leaders = self._leaders()
        self.start = State.entry(secret_regs, frozenset(ARGUMENTS), 8 + 8 * stack_args)
        self.reporting = False
        self.findings: set[Finding] = set()
        self.insn: Insn | None = None

    # -- the graph ---------------------------------------------------------
    def _leaders(self) -> set[int]:
        leaders = {a for a, _ in self.code.functions.values()}
        for insn in self.code.insns.values():
            cls, _ = classify(insn)
            if cls in CONTROL:
                leaders.update(o.addr for o in insn.operands if isinstance(o, Target))
                if insn.addr in self.next_addr:
                    leaders.add(self.next_addr[insn.addr])
        return leaders

    def block(self, addr: int) -> list[Insn]:
        insns = []
        while True:
            insn = self.code.insns[addr]
            insns.append(insn)
            nxt = self.next_addr.get(addr)
            if classify(insn)[0] in CONTROL or nxt is None or nxt in self.leaders:
                return insns
            addr = nxt

    # -- findings ----------------------------------------------------------
    def report(self, reason: str) -> None:
        if self.reporting:
            self.findings.add(Finding(self.insn.addr, self.insn.text, reason))

    # -- operands ----------------------------------------------------------
    def reg(self, st: State, name: str) -> Val:
        if name in GPR:
            return st.regs[GPR[name][0]]
        return PUBLIC if name == "rip" else SECRET  # vector, mask: always secret

    def set_reg(self, st: State, name: str, val: Val) -> None:
        full, width = GPR[name]
        if width == 8:
            st.regs[full] = val
        elif width == 4:  # zero-extends: the old value is gone
            st.regs[full] = derived(val)
        else:  # 8/16-bit writes keep the rest of the old value
            st.regs[full] = derived(st.regs[full], val)

    def check_address(self, st: State, mem: Mem) -> None:
        for role, name in (("base", mem.base), ("index", mem.index)):
            if name is None:
                continue
            if is_vector(name):
                self.report(f"memory {role} is a vector register (gather/scatter)")
            elif self.reg(st, name).secret:
                self.report(f"secret-dependent address ({role} %{name})")

    def locate(self, st: State, mem: Mem) -> tuple[object, int] | str | None:
        """Where a memory operand points: (frame, offset), MAYBE_STACK, or
        None for memory that is not the routine's stack."""
        base = self.reg(st, mem.base) if mem.base else PUBLIC
        index = self.reg(st, mem.index) if mem.index else PUBLIC
        if isinstance(base.ptr, tuple) and mem.index is None:
            return base.ptr[0], base.ptr[1] + mem.disp
        if base.ptr is not None or index.ptr is not None:
            return MAYBE_STACK
        return None

    def load(self, st: State, mem: Mem, size: int) -> Val:
        self.check_address(st, mem)
        where = self.locate(st, mem)
        if isinstance(where, tuple) and st.is_public(where[0], where[1], size):
            return PUBLIC
        return SECRET

    def store(self, st: State, mem: Mem, size: int, secret: bool) -> None:
        self.check_address(st, mem)
        where = self.locate(st, mem)
        if isinstance(where, tuple):
            st.store(where[0], where[1], size, secret)
        elif where == MAYBE_STACK and secret:
            st.store_anywhere()

    def read(self, st: State, op: Operand, size: int) -> Val:
        if isinstance(op, Reg):
            return self.reg(st, op.name)
        if isinstance(op, Mem):
            return self.load(st, op, size)
        return PUBLIC  # an immediate

    def write(self, st: State, op: Operand, val: Val, size: int) -> None:
        if isinstance(op, Reg):
            self.set_reg(st, op.name, val)
        else:
            self.store(st, op, size, val.secret)

    def move_rsp(self, st: State, delta: int) -> None:
        rsp = st.regs["rsp"]
        if isinstance(rsp.ptr, tuple):
            st.regs["rsp"] = Val(rsp.secret, (rsp.ptr[0], rsp.ptr[1] + delta))

    # -- one instruction ---------------------------------------------------
    def step(self, st: State, insn: Insn) -> None:
        self.insn = insn
        cls, suffix = classify(insn)
        ops = insn.operands
        if cls is None:
            self.unknown(st, insn)
            return
        getattr(self, "do_" + cls)(st, insn, ops, gpr_size(insn, suffix))

    def unknown(self, st: State, insn: Insn) -> None:
        self.report(f"unclassified mnemonic {insn.mnemonic!r} (add it to mnemonics.py)")
        for op in insn.operands:
            if isinstance(op, Mem):
                self.check_address(st, op)
            elif isinstance(op, Reg) and op.name in GPR:
                self.set_reg(st, op.name, SECRET)
        st.flags_secret = True

    def do_nop(self, st, insn, ops, size):
        pass  # nopw 0x0(%rax,%rax,1) touches no memory

    def do_mov(self, st, insn, ops, size):
        self.write(st, ops[1], self.read(st, ops[0], size), size)

    def do_movx(self, st, insn, ops, size):
        src_size = mnemonics.SUFFIX_BYTES[insn.mnemonic[4]]
        self.write(st, ops[1], derived(self.read(st, ops[0], src_size)), size)

    def do_xchg(self, st, insn, ops, size):
        a, b = self.read(st, ops[0], size), self.read(st, ops[1], size)
        self.write(st, ops[0], b, size)
        self.write(st, ops[1], a, size)

    def do_lea(self, st, insn, ops, size):
        mem, dst = ops
        base = self.reg(st, mem.base) if mem.base else PUBLIC
        index = self.reg(st, mem.index) if mem.index else PUBLIC
        val = derived(base, index)
        if isinstance(base.ptr, tuple) and mem.index is None:
            val = Val(base.secret, (base.ptr[0], base.ptr[1] + mem.disp))
        self.set_reg(st, dst.name, val)

    def do_push(self, st, insn, ops, size):
        val = self.read(st, ops[0], 8)
        self.move_rsp(st, -8)
        self.store(st, Mem(0, "rsp", None, 1, None), 8, val.secret)

    def do_pop(self, st, insn, ops, size):
        val = self.load(st, Mem(0, "rsp", None, 1, None), 8)
        self.move_rsp(st, 8)
        self.write(st, ops[0], val, size)

    def do_alu(self, st, insn, ops, size):
        src, dst = ops
        base = mnemonics.lookup(insn.mnemonic)[1]
        if base in ("xor", "sub") and src == dst:  # the zeroing idiom
            self.write(st, dst, PUBLIC, size)
            st.flags_secret = False
            return
        a, b = self.read(st, dst, size), self.read(st, src, size)
        val = derived(a, b)
        if isinstance(src, Imm) and isinstance(a.ptr, tuple) and size == 8:
            frame, offset = a.ptr
            imm = signed64(src.value)
            if base in ("add", "sub"):  # moving a stack pointer
                val = Val(a.secret, (frame, offset + (imm if base == "add" else -imm)))
            elif base == "and" and imm < 0 and (-imm) & (-imm - 1) == 0:  # realignment
                st.new_frame(insn.addr, frame, offset, -imm)
                val = Val(a.secret, (insn.addr, 0))
        self.write(st, dst, val, size)
        st.flags_secret = val.secret

    def do_alu_carry(self, st, insn, ops, size):
        src, dst = ops
        carry = Val(st.flags_secret)
        val = carry if src == dst else derived(self.read(st, dst, size),
                                               self.read(st, src, size), carry)
        self.write(st, dst, val, size)
        st.flags_secret = val.secret

    def do_compare(self, st, insn, ops, size):
        st.flags_secret = derived(*(self.read(st, o, size) for o in ops)).secret

    def do_unary(self, st, insn, ops, size):
        self.write(st, ops[0], derived(self.read(st, ops[0], size)), size)

    def do_unary_flags(self, st, insn, ops, size):
        val = derived(self.read(st, ops[0], size))
        self.write(st, ops[0], val, size)
        keeps_carry = mnemonics.lookup(insn.mnemonic)[1] in ("inc", "dec")
        st.flags_secret = val.secret or (keeps_carry and st.flags_secret)

    def shift_count(self, st: State, op: Operand) -> Val:
        """A shift count: an immediate, or a register whose secret is a finding."""
        count = self.read(st, op, 1)
        if count.secret:
            self.report(f"shift or rotate count from a secret %{op.name}")
        return count

    def do_shift(self, st, insn, ops, size, carry_in=False):
        dst = ops[-1]
        count = self.shift_count(st, ops[0]) if len(ops) == 2 else PUBLIC
        parts = [self.read(st, dst, size), count]
        if carry_in:
            parts.append(Val(st.flags_secret))
        val = derived(*parts)
        self.write(st, dst, val, size)
        # a count of zero (possible only with %cl) leaves the flags alone
        by_cl = len(ops) == 2 and isinstance(ops[0], Reg)
        st.flags_secret = val.secret or (by_cl and st.flags_secret)

    def do_shift_carry(self, st, insn, ops, size):
        self.do_shift(st, insn, ops, size, carry_in=True)

    def do_shift_double(self, st, insn, ops, size):
        count, src, dst = ops
        val = derived(self.shift_count(st, count), self.read(st, src, size),
                      self.read(st, dst, size))
        self.write(st, dst, val, size)
        st.flags_secret = val.secret or (isinstance(count, Reg) and st.flags_secret)

    def do_shift_bmi(self, st, insn, ops, size):
        count, src, dst = ops
        self.write(st, dst, derived(self.shift_count(st, count), self.read(st, src, size)),
                   size)

    def do_rotate_imm(self, st, insn, ops, size):
        _, src, dst = ops
        self.write(st, dst, derived(self.read(st, src, size)), size)

    def do_mul(self, st, insn, ops, size):
        val = derived(st.regs["rax"], self.read(st, ops[0], size))
        st.regs["rax"] = val
        if size > 1:
            st.regs["rdx"] = val
        st.flags_secret = val.secret

    def do_imul(self, st, insn, ops, size):
        if len(ops) == 1:
            self.do_mul(st, insn, ops, size)
            return
        dst = ops[-1]
        srcs = [ops[1]] if len(ops) == 3 else [ops[0], dst]
        val = derived(*(self.read(st, o, size) for o in srcs))
        self.write(st, dst, val, size)
        st.flags_secret = val.secret

    def do_mulx(self, st, insn, ops, size):
        src, lo, hi = ops
        val = derived(self.read(st, src, size), st.regs["rdx"])
        self.write(st, lo, val, size)
        self.write(st, hi, val, size)

    def do_div(self, st, insn, ops, size):
        val = derived(st.regs["rax"], st.regs["rdx"], self.read(st, ops[0], size))
        if val.secret:
            self.report("div/idiv of a secret (its latency depends on the operands)")
        st.regs["rax"] = st.regs["rdx"] = val
        st.flags_secret = val.secret

    def do_sign_extend_rax(self, st, insn, ops, size):
        st.regs["rax"] = derived(st.regs["rax"])

    def do_sign_extend_rdx(self, st, insn, ops, size):
        st.regs["rdx"] = derived(st.regs["rax"])

    def do_setcc(self, st, insn, ops, size):
        self.write(st, ops[0], Val(st.flags_secret), 1)

    def do_cmovcc(self, st, insn, ops, size):
        src, dst = ops
        self.write(st, dst, derived(self.read(st, src, size), self.read(st, dst, size),
                                    Val(st.flags_secret)), size)

    def do_jcc(self, st, insn, ops, size):
        if st.flags_secret:
            self.report("conditional branch on secret flags")

    def do_loop(self, st, insn, ops, size):
        if st.regs["rcx"].secret:
            self.report("branch on a secret %rcx")
        if insn.mnemonic in ("loope", "loopne") and st.flags_secret:
            self.report("conditional branch on secret flags")

    def indirect(self, st: State, op: Indirect, what: str) -> None:
        target = self.read(st, op.op, 8)
        self.report(f"indirect {what} through a secret" if target.secret else
                    f"indirect {what}: its target is not analysed")

    def do_jmp(self, st, insn, ops, size):
        if isinstance(ops[0], Indirect):
            self.indirect(st, ops[0], "jump")

    def do_call(self, st, insn, ops, size):
        if isinstance(ops[0], Indirect):
            self.indirect(st, ops[0], "call")
            return
        self.move_rsp(st, -8)  # the return address: public
        self.store(st, Mem(0, "rsp", None, 1, None), 8, False)

    def do_ret(self, st, insn, ops, size):
        self.move_rsp(st, 8 + (ops[0].value if ops else 0))

    def do_string(self, st, insn, ops, size):
        if set(insn.prefixes) & mnemonics.REP_PREFIXES and st.regs["rcx"].secret:
            self.report("rep string operation with a secret count %rcx")
        for name in ("rdi", "rsi"):
            self.check_address(st, Mem(0, name, None, 1, None))
        base = mnemonics.lookup(insn.mnemonic)[1]
        data = st.regs["rax"] if base.startswith("stos") else SECRET
        if data.secret and st.regs["rdi"].ptr is not None:
            st.store_anywhere()
        for name in ("rdi", "rsi"):
            st.regs[name] = derived(st.regs[name])

    def do_vector(self, st, insn, ops, size):
        for op in ops:
            if isinstance(op, Mem):
                self.check_address(st, op)
        if not ops:
            return
        dst = ops[-1]
        if isinstance(dst, Reg) and dst.name in GPR:
            self.set_reg(st, dst.name, SECRET)  # vector bits in a GPR
        elif isinstance(dst, Mem):
            widths = [vector_bytes(o.name) for o in ops if isinstance(o, Reg)
                      and is_vector(o.name)]
            self.store(st, dst, max(widths, default=64), True)

    do_vector_variable_shift = do_vector

    def do_vector_flags(self, st, insn, ops, size):
        for op in ops:
            if isinstance(op, Mem):
                self.check_address(st, op)
        st.flags_secret = True

    # -- successors and the fixpoint ---------------------------------------
    def successors(self, st: State, insn: Insn, ctx: tuple[int, ...]):
        cls, _ = classify(insn)
        nxt = self.next_addr.get(insn.addr)
        targets = [o.addr for o in insn.operands if isinstance(o, Target)]
        self.insn = insn
        if insn.relocation is not None and cls in ("jmp", "call", "jcc", "loop"):
            self.report(f"branch to {insn.relocation}, outside this object: not analysed")
            return []
        if cls == "ret":
            return [(ctx[:-1], ctx[-1])] if ctx else []
        if cls == "call":
            if not targets:
                return []
            if len(ctx) >= MAX_CALL_DEPTH:
                self.report("calls nested too deep to follow")
                return []
            return self.checked(ctx + (nxt,), targets[0])
        out = []
        if cls in ("jcc", "loop", "jmp"):
            for t in targets:
                out += self.checked(ctx, t)
            if cls == "jmp":
                return out
        return out + self.checked(ctx, nxt)

    def checked(self, ctx, addr):
        if addr is None or addr not in self.code.insns:
            self.report("control reaches an address that is not an instruction")
            return []
        return [(ctx, addr)]

    def run_block(self, st: State, ctx, addr):
        st = st.copy()
        insns = self.block(addr)
        for insn in insns:
            self.step(st, insn)
        return st, self.successors(st, insns[-1], ctx)

    def analyse(self) -> list[Finding]:
        states: dict[tuple, State] = {((), self.entry): self.start}
        work = deque(states)
        visits = 0
        while work:
            key = work.popleft()
            visits += 1
            if visits > MAX_VISITS:
                raise RuntimeError(f"{self.name}: no fixpoint after {MAX_VISITS} blocks")
            out, succs = self.run_block(states[key], *key)
            for succ in succs:
                old = states.get(succ)
                new = out if old is None else old.join(out)
                if new != old:
                    states[succ] = new
                    if succ not in work:
                        work.append(succ)
        self.reporting = True
        for key, st in states.items():
            self.run_block(st, *key)
        return sorted(self.findings)
