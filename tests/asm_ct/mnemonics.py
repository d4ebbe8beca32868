"""Every mnemonic the constant-time check knows, and the class that says how
it moves secrets (tests/asm_ct/taint.py gives each class its meaning).

A mnemonic missing from this table is a finding, never ignored: a new
instruction in a future .S must be read and classified here first.  The
general-register names are the bare ones; AT&T's size suffix (``addq``,
``subl``) is stripped by ``lookup`` only for them.

Not here on purpose: instructions whose latency depends on their operands
on common CPUs and that the routines do not need (``bsf``/``bsr``,
``popcnt`` on some cores, ``bt`` with a memory operand and register offset,
x87, ``sqrt``/``div`` of floats), and anything privileged or serialising.
``div``/``idiv`` are known but every use on a secret operand is a finding.
"""

from __future__ import annotations

# x86 condition codes, for the jcc, setcc and cmovcc families
CONDITIONS = ("a ae b be c e g ge l le na nae nb nbe nc ne ng nge nl nle "
              "no np ns nz o p pe po s z").split()

GPR_CLASSES: dict[str, str] = {
    # data moves: the destination takes the source's taint
    "mov": "mov", "movabs": "mov",
    "movzbl": "movx", "movzbw": "movx", "movzbq": "movx", "movzwl": "movx", "movzwq": "movx",
    "movsbl": "movx", "movsbw": "movx", "movsbq": "movx", "movswl": "movx", "movswq": "movx",
    "movslq": "movx",
    "xchg": "xchg",
    "lea": "lea",
    "push": "push", "pop": "pop",
    # arithmetic: destination |= source, flags = the result
    "add": "alu", "sub": "alu", "and": "alu", "or": "alu", "xor": "alu",
    "adc": "alu_carry", "sbb": "alu_carry",
    "cmp": "compare", "test": "compare",
    "neg": "unary_flags", "inc": "unary_flags", "dec": "unary_flags",
    "not": "unary", "bswap": "unary",
    "shl": "shift", "sal": "shift", "shr": "shift", "sar": "shift",
    "rol": "shift", "ror": "shift", "rcl": "shift_carry", "rcr": "shift_carry",
    "shld": "shift_double", "shrd": "shift_double",
    "shlx": "shift_bmi", "shrx": "shift_bmi", "sarx": "shift_bmi",
    "rorx": "rotate_imm",
    # multiplies are constant time on the CPUs this project targets
    "mul": "mul", "imul": "imul", "mulx": "mulx",
    "div": "div", "idiv": "div",
    "cltq": "sign_extend_rax", "cwtl": "sign_extend_rax",
    "cqto": "sign_extend_rdx", "cltd": "sign_extend_rdx", "cwtd": "sign_extend_rdx",
    # control flow
    "jmp": "jmp", "call": "call", "ret": "ret",
    "loop": "loop", "loope": "loop", "loopne": "loop", "jrcxz": "loop", "jecxz": "loop",
    # string operations (the rep prefix makes rcx the count)
    "stos": "string", "movs": "string", "stosb": "string", "stosq": "string",
    "movsb": "string", "movsq": "string",
    # no data at all
    "nop": "nop", "nopl": "nop", "nopw": "nop", "endbr64": "nop",
    "lfence": "nop", "sfence": "nop", "mfence": "nop",
}
GPR_CLASSES.update({f"j{cc}": "jcc" for cc in CONDITIONS})
GPR_CLASSES.update({f"set{cc}": "setcc" for cc in CONDITIONS})
GPR_CLASSES.update({f"cmov{cc}": "cmovcc" for cc in CONDITIONS})

# Vector and mask instructions: the registers are always treated as secret,
# so what matters is only where their bits go: into a general register
# (vmovd/vmovq/vpextr*/pmovmskb/kmov* to a GPR: the GPR becomes secret),
# into memory (a secret store), or into the flags ("vector_flags").
VECTOR = """
    movd movq movdqa movdqu movaps movups movups movapd movupd movlps movhps
    movntdq movntps
    pxor por pand pandn paddb paddw paddd paddq psubb psubw psubd psubq
    pmuludq pmuldq pmulld pmullw pmulhuw pmaddwd
    pshufb pshufd pshuflw pshufhw shufps shufpd palignr pblendw pblendd
    pslld psllq psllw pslldq psrld psrlq psrlw psrldq psrad psraw
    punpckldq punpckhdq punpcklqdq punpckhqdq punpcklbw punpckhbw punpcklwd punpckhwd
    pcmpeqb pcmpeqw pcmpeqd pcmpeqq pcmpgtb pcmpgtw pcmpgtd pcmpgtq
    pinsrb pinsrw pinsrd pinsrq pextrb pextrw pextrd pextrq pmovmskb movmskps movmskpd
    pmovzxbd pmovzxwd pmovzxdq
    aesenc aesenclast aesdec aesdeclast aesimc aeskeygenassist pclmulqdq
    vmovd vmovq vmovdqa vmovdqu vmovaps vmovups vmovapd vmovupd vmovntdq
    vmovdqa32 vmovdqa64 vmovdqu8 vmovdqu16 vmovdqu32 vmovdqu64
    vpxor vpxord vpxorq vpor vpord vporq vpand vpandd vpandq vpandn vpandnd vpandnq
    vpternlogd vpternlogq
    vpaddb vpaddw vpaddd vpaddq vpsubb vpsubw vpsubd vpsubq
    vpmuludq vpmuldq vpmulld vpmullq vpmadd52luq vpmadd52huq
    vpshufb vpshufd vpshuflw vpshufhw vshufps vshufpd vpalignr valignd valignq
    vpblendd vpblendw vpblendmd vpblendmq
    vpslld vpsllq vpsllw vpslldq vpsrld vpsrlq vpsrlw vpsrldq vpsrad vpsraq vpsraw
    vprold vprolq vprord vprorq
    vpunpckldq vpunpckhdq vpunpcklqdq vpunpckhqdq vpunpcklbw vpunpckhbw
    vpunpcklwd vpunpckhwd
    vperm2i128 vpermd vpermq vpermi2d vpermi2q vpermt2d vpermt2q
    vshufi32x4 vshufi64x2 vinserti128 vinserti32x4 vinserti64x4
    vextracti128 vextracti32x4 vextracti64x2 vextracti64x4
    vbroadcasti128 vbroadcasti32x4 vbroadcasti64x4 vpbroadcastb vpbroadcastw
    vpbroadcastd vpbroadcastq
    vpcmpeqb vpcmpeqw vpcmpeqd vpcmpeqq vpcmpgtd vpcmpgtq
    vpcmpd vpcmpud vpcmpq vpcmpuq vpcmpltud vpcmpltd vpcmpequd vpcmpeqd vpcmpnequd
    vpcmpleud vpcmpnltud vpcmpnleud vpcmpltuq vpcmpnltuq
    vpinsrb vpinsrw vpinsrd vpinsrq vpextrb vpextrw vpextrd vpextrq
    vpmovmskb vmovmskps vmovmskpd vpmovzxbd vpmovzxwd vpmovzxdq vpmovqd vpmovdb
    vaesenc vaesenclast vaesdec vaesdeclast vpclmulqdq
    vpgatherdd vpgatherdq vpgatherqd vpgatherqq vpscatterdd vpscatterdq
    vpscatterqd vpscatterqq
    kmovb kmovw kmovd kmovq kandw kandd kandq korw kord korq kxorw kxord kxorq
    knotw knotd knotq kshiftlw kshiftrw kunpckbw
"""

# Per-element variable shifts and rotates: constant time on the CPUs this
# project targets (Intel since Haswell, AMD since Zen): the count selects
# nothing but the result bits.  Their own class so the docs can say so.
VECTOR_VARIABLE_SHIFT = """
    vpsllvd vpsllvq vpsrlvd vpsrlvq vpsravd vpsravq vprolvd vprolvq vprorvd vprorvq
"""

# Vector or mask tests whose result lands in the flags: the flags become
# secret, so a jcc on them is a finding.
VECTOR_FLAGS = """
    ptest vptest vtestps vtestpd kortestb kortestw kortestd kortestq
    ktestb ktestw ktestd ktestq comiss comisd ucomiss ucomisd
    vcomiss vcomisd vucomiss vucomisd
"""

VECTOR_CLEAR = "vzeroall vzeroupper emms"

CLASSES: dict[str, str] = dict(GPR_CLASSES)
CLASSES.update({m: "vector" for m in VECTOR.split()})
CLASSES.update({m: "vector_variable_shift" for m in VECTOR_VARIABLE_SHIFT.split()})
CLASSES.update({m: "vector_flags" for m in VECTOR_FLAGS.split()})
CLASSES.update({m: "nop" for m in VECTOR_CLEAR.split()})

# AT&T size suffixes, in bytes
SUFFIX_BYTES = {"b": 1, "w": 2, "l": 4, "q": 8}

# Prefixes objdump prints before a mnemonic: padding (cs, ds, data16 in the
# long nops) and the rep family, which the string class needs to know about
PREFIXES = {"cs", "ds", "es", "ss", "data16", "addr32", "notrack", "bnd", "lock"}
REP_PREFIXES = {"rep", "repz", "repe", "repnz", "repne"}


def lookup(mnemonic: str) -> tuple[str | None, str, int | None]:
    """(class, base mnemonic, size from the suffix): class None if unknown."""
    if mnemonic in CLASSES:
        return CLASSES[mnemonic], mnemonic, None
    base, suffix = mnemonic[:-1], mnemonic[-1:]
    if base in GPR_CLASSES and suffix in SUFFIX_BYTES:
        return GPR_CLASSES[base], base, SUFFIX_BYTES[suffix]
    return None, mnemonic, None
