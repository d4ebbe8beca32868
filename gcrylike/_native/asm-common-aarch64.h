/* asm-common-aarch64.h - shared directives for the gcrylike aarch64 assembly.
 *
 * Every aarch64 .S file includes this header once.  It gives:
 *   - GCRY_FUNC_BEGIN/END: a global, hidden, typed and sized ELF function
 *     symbol with CFI start/end, 64-byte aligned (as the amd64 header);
 *   - GCRY_ZERO_V from, to: zero v<from> .. v<to>, to leave no key or
 *     keystream in the registers a routine used;
 *   - GCRY_RODATA for a file's constants;
 *   - the base ISA plus the Crypto Extensions, as the files use them;
 *   - the .note.GNU-stack section, so the shared object is not marked as
 *     needing an executable stack.
 *
 * Calling convention is AAPCS64: arguments in x0-x7, result in w0/x0;
 * x19-x28, x29 (frame pointer) and sp are callee-saved, and of the vector
 * registers only the low 64 bits of v8-v15 (d8-d15): a routine that uses
 * v8-v15 saves d8-d15 and restores them (which also clears their high
 * halves), and counts the save area in its burn depth.
 */
#ifndef GCRYLIKE_ASM_COMMON_AARCH64_H
#define GCRYLIKE_ASM_COMMON_AARCH64_H

/* NEON and the Crypto Extensions (AES, PMULL) for every file, whatever
 * -march the compiler defaults to: a routine runs only where the driver
 * row's GCRY_HWF_* bits were detected. */
	.arch	armv8-a+crypto

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

/* Zero x<FROM> .. x<TO> (general-purpose registers that held key,
 * accumulator or message words). */
.macro GCRY_ZERO_X from, to
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18
	.if \r >= \from && \r <= \to
	mov	x\r, #0
	.endif
	.endr
.endm

/* Read-only constants for one file. */
#define GCRY_RODATA .section .rodata

#if defined(__ELF__)
.section .note.GNU-stack,"",%progbits
.text
#endif

#endif /* GCRYLIKE_ASM_COMMON_AARCH64_H */
