/* aarch64-macros-b.h - shared directives for the gcrylike aarch64 assembly
 * of issue 21 part B (AES-CE, NH, Poly1305).  To be replaced by the
 * infrastructure branch's gcrylike/_native/asm-common-aarch64.h on merge:
 * the macros are the same (names and arguments), so the .S files only
 * change their #include.
 *
 *   - GCRY_FUNC_BEGIN/END: a global, hidden, typed and sized ELF function
 *     symbol with CFI start/end, 64-byte aligned (as on amd64);
 *   - GCRY_ZERO_V from, to: zero v<from> .. v<to>, so that no key,
 *     message or state is left in them;
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

/* Zero v<FROM> .. v<TO> (a write to d<r> clears all 128 bits of v<r>). */
.macro GCRY_ZERO_V from, to
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if \r >= \from && \r <= \to
	movi	d\r, #0
	.endif
	.endr
.endm

#if defined(__ELF__)
.section .note.GNU-stack,"",%progbits
.text
#endif

#endif /* GCRYLIKE_AARCH64_MACROS_B_H */
