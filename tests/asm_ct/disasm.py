"""Assemble a .S file and read back its object code as instructions.

Working from the object (``objdump -d``, AT&T syntax) rather than the source
means every macro is expanded and what is checked is what runs.  The
function symbols (ELF type FUNC, with their sizes) cut the code into
routines; other symbols are kept as labels (the planted routines mark
their leaky instructions with them).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def include_dirs(root: Path = ROOT) -> list[Path]:
    """The include path of tests/asmcheck/build.py, minus its own directory."""
    return [root / "asm", root / "gcrylike/_native", *sorted(root.glob("ciphers/*/"))]


def compiler() -> list[str]:
    """$CC, else cc: only its assembler (through the C preprocessor) is used."""
    return shlex.split(os.environ.get("CC") or "cc")


def assemble(source: Path, obj: Path) -> None:
    cmd = [*compiler(), "-c", "-DUSE_AMD64", *(f"-I{d}" for d in include_dirs()), str(source),
           "-o", str(obj)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


@dataclass(frozen=True)
class Mem:
    disp: int
    base: str | None  # register name without %, or None
    index: str | None
    scale: int
    segment: str | None


@dataclass(frozen=True)
class Reg:
    name: str


@dataclass(frozen=True)
class Imm:
    value: int


@dataclass(frozen=True)
class Target:
    """A direct branch target (an address in the same section)."""
    addr: int


@dataclass(frozen=True)
class Indirect:
    """``*operand``: an indirect jump or call."""
    op: Reg | Mem


Operand = Mem | Reg | Imm | Target | Indirect


@dataclass
class Insn:
    addr: int
    prefixes: tuple[str, ...]
    mnemonic: str
    operands: tuple[Operand, ...]
    text: str
    relocation: str | None = None  # the symbol of a relocation on this insn


@dataclass
class ObjectCode:
    path: Path
    insns: dict[int, Insn] = field(default_factory=dict)  # .text only, by address
    functions: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (addr, size)
    labels: dict[str, int] = field(default_factory=dict)  # every .text symbol

    def routine_insns(self, name: str) -> list[Insn]:
        start, size = self.functions[name]
        return [i for a, i in sorted(self.insns.items()) if start <= a < start + size]


_SYMBOL = re.compile(r"^([0-9a-f]+) (.{7}) (\S+)\s+([0-9a-f]+)\s+(?:\.hidden\s+)?(\S+)$")


def symbols(obj: Path) -> tuple[dict[str, tuple[int, int]], dict[str, int]]:
    out = subprocess.run(["objdump", "-t", str(obj)], check=True, capture_output=True,
                         text=True).stdout
    functions, labels = {}, {}
    for line in out.splitlines():
        m = _SYMBOL.match(line)
        if not m or m.group(3) != ".text":
            continue
        addr, flags, size, name = int(m.group(1), 16), m.group(2), int(m.group(4), 16), \
            m.group(5)
        if "d" in flags:  # the section symbol
            continue
        labels[name] = addr
        if "F" in flags:
            functions[name] = (addr, size)
    return functions, labels


def split_operands(text: str) -> list[str]:
    """Commas split operands except inside (...) and {...}."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return [p.strip() for p in parts]


_MEM = re.compile(r"^(?:%(\w+):)?(-?(?:0x[0-9a-f]+|\d+))?\((%\w+)?(?:,(%\w+)(?:,(\d))?)?\)$")


def parse_operand(text: str, branch: bool) -> Operand | None:
    """None for a pure decoration such as ``{sae}``."""
    if text.startswith("{"):
        return None
    text = re.sub(r"\{[^}]*\}", "", text)  # {%k1}, {z}, {1to16}: masks are vector state
    if text.startswith("*"):
        inner = parse_operand(text[1:], False)
        assert isinstance(inner, Reg | Mem), text
        return Indirect(inner)
    if text.startswith("$"):
        return Imm(int(text[1:], 0))
    if text.startswith("%") and ":" not in text:
        return Reg(text[1:])
    if branch:
        m = re.match(r"^([0-9a-f]+)(?: <.*>)?$", text)
        if m:
            return Target(int(m.group(1), 16))
    m = _MEM.match(text)
    if m:
        seg, disp, base, index, scale = m.groups()
        return Mem(int(disp, 0) if disp else 0, base and base[1:], index and index[1:],
                   int(scale) if scale else 1, seg)
    m = re.match(r"^(?:%(\w+):)?(0x[0-9a-f]+|\d+)$", text)  # an absolute address
    if m:
        return Mem(int(m.group(2), 0), None, None, 1, m.group(1))
    raise ValueError(f"cannot parse operand {text!r}")


_INSN = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
_RELOC = re.compile(r"^\s*[0-9a-f]+: (R_X86_64_\w+)\s+(\S+)$")
BRANCHES_WITH_TARGET = re.compile(r"^(j\w+|call\w?|loop\w*)$")


def parse_insn(addr: int, text: str, prefix_names: set[str]) -> Insn:
    text = text.split("#", 1)[0].strip()
    words = text.split(None, 1)
    prefixes = []
    while words and words[0] in prefix_names:
        prefixes.append(words[0])
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:  # a lone prefix byte: objdump shows it as the mnemonic
        return Insn(addr, (), prefixes[-1], (), text)
    mnemonic = words[0]
    branch = bool(BRANCHES_WITH_TARGET.match(mnemonic))
    ops = [parse_operand(p, branch) for p in split_operands(words[1])] if len(words) > 1 \
        else []
    return Insn(addr, tuple(prefixes), mnemonic, tuple(o for o in ops if o is not None), text)


def disassemble(obj: Path, prefix_names: set[str]) -> ObjectCode:
    code = ObjectCode(obj)
    code.functions, code.labels = symbols(obj)
    out = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", "-j", ".text", str(obj)],
                         check=True, capture_output=True, text=True).stdout
    last = None
    for line in out.splitlines():
        m = _RELOC.match(line)
        if m and last is not None:
            last.relocation = m.group(2)
            continue
        m = _INSN.match(line)
        if m:
            last = parse_insn(int(m.group(1), 16), m.group(2), prefix_names)
            code.insns[last.addr] = last
    return code
