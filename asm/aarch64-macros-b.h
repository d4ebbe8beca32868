/* aarch64-macros-b.h - shared directives for the gcrylike aarch64 assembly
 * of issue 21 part B (AES-CE, NH, Poly1305).  To be merged with the
 * infrastructure branch's asm-common-aarch64.h, which this file mirrors
 * so that the .S files only change their #include.
 *
 *   - GCRY_FUNC_BEGIN/END: a global, hidden, typed and sized ELF function
 *     symbol with CFI start/end, 64-byte aligned (as on amd64);
 *   - GCRY_ZERO_V r0, r1, ...: zero the listed whole vector registers
 *     (by number), so that no key, message or state is left in them;
 *   - the .note.GNU-stack section, so the object does not ask for an
 *     executable stack.
 *
 * Calling convention AAPCS64: arguments x0-x7, result w0/x0; x19-x28, x29,
 * x30 and the low 64 bits of v8-v15 are callee-saved; x18 is the platform
 * register (never used here); everything else is caller-saved.
 */
#ifndef GCRYLIKE_AARCH64_MACROS_B_H
#define GCRYLIKE_AARCH64_MACROS_B_H

#define GCRY_FUNC_BEGIN(name)		\
	.text;				\
	.balign 64;			\
	.globl name;			\
	.hidden name;			\
	.type name,%function;		\
name:					\
	.cfi_startproc

#define GCRY_FUNC_END(name)		\
	.cfi_endproc;			\
	.size name,.-name

.macro GCRY_ZERO_V1 r
	movi	v\r\().16b, #0
.endm
/* (The one-register macro is needed because a "\()" written inside an
 * .irp of a macro is consumed by the macro's own expansion.) */
.macro GCRY_ZERO_V regs:vararg
	.irp r, \regs
	GCRY_ZERO_V1 \r
	.endr
.endm

#if defined(__ELF__)
.section .note.GNU-stack,"",%progbits
.text
#endif

#endif /* GCRYLIKE_AARCH64_MACROS_B_H */
