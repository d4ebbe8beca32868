/* asm-common-amd64.h - shared directives for the gcrylike amd64 assembly.
 *
 * Every .S file includes this header once.  It gives:
 *   - GCRY_FUNC_BEGIN/END: a global, hidden, typed and sized ELF function
 *     symbol with CFI start/end, 64-byte aligned;
 *   - GCRY_ZERO_XMM n: zero xmm0 .. xmm(n-1) (SSE encoding), to start sums
 *     or to leave no key or keystream in the registers a routine used;
 *   - the .note.GNU-stack section (emitted below), so the shared object is not
 *     marked as needing an executable stack.
 *
 * Calling convention is System V AMD64 throughout: args in rdi, rsi, rdx,
 * rcx, r8, r9; return in eax/rax; rbx, rbp, r12-r15 are callee-saved; all
 * xmm/ymm/zmm registers are caller-saved.
 */
#ifndef GCRYLIKE_ASM_COMMON_AMD64_H
#define GCRYLIKE_ASM_COMMON_AMD64_H

#define GCRY_FUNC_BEGIN(name)		\
	.text;				\
	.balign 64;			\
	.globl name;			\
	.hidden name;			\
	.type name,@function;		\
name:					\
	.cfi_startproc

#define GCRY_FUNC_END(name)		\
	.cfi_endproc;			\
	.size name,.-name

/* Zero xmm0 .. xmm(N-1); N at most 16. */
.macro GCRY_ZERO_XMM n
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	.if \r < \n
	pxor	%xmm\r, %xmm\r
	.endif
	.endr
.endm

/* Read-only constants for one file. */
#define GCRY_RODATA .section .rodata

#if defined(__ELF__)
.section .note.GNU-stack,"",%progbits
.text
#endif

#endif /* GCRYLIKE_ASM_COMMON_AMD64_H */
