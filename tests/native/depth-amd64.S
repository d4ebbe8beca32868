/* depth-amd64.S - the native check's burn-depth probe (test code only).
 *
 *   void asmcheck_depth_probe(depth_call *c);      (layout in depth.c)
 *
 * Calls c->fn with the seven arguments c->args (the seventh on the stack),
 * from a stack pointer aligned down to 64 bytes and then moved SHIFT bytes
 * lower, so the routine's entry stack pointer (the slot of its return
 * address) is known exactly and takes the value mod 64 the caller picks.
 * Before the call the DEPTH_SPAN bytes below that slot are painted with
 * c->paint; after it the lowest byte that lost the paint gives how deep the
 * routine wrote (c->measured, bytes below its entry stack pointer; 0 if
 * nothing; DEPTH_SPAN if even the bottom byte changed).  All of it runs
 * here, in registers, so no C frame lands in the measured area.
 *
 * Also checked: the callee-saved registers (rbx, rbp, r12-r15, set to
 * sentinels before the call), the stack pointer and the direction flag come
 * back as the ABI demands (c->abi_ok); and with every vector register
 * zeroed before the call, what the routine left in them is stored to
 * c->vregs (xmm0-15, ymm0-15 or zmm0-31 as c->vecmode is 0, 1 or 2).
 */
#include "asm-common-amd64.h"

#define DEPTH_SPAN 8192

/* depth_call offsets */
#define C_FN		0
#define C_ARGS		8
#define C_SHIFT		64
#define C_PAINT		72
#define C_REPORTED	80
#define C_MEASURED	88
#define C_ENTRY		96
#define C_ABI_OK	104
#define C_VECMODE	112
#define C_VREGS		128		/* 32 slots of 64 bytes */

.bss
.balign 8
saved_rsp:	.quad 0
saved_call:	.quad 0

.text
GCRY_FUNC_BEGIN(asmcheck_depth_probe)
	push	%rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rsp, saved_rsp(%rip)
	mov	%rdi, saved_call(%rip)
	mov	%rdi, %rbx

	/* the stack pointer of the call: 64-aligned, SHIFT lower, then the
	 * 16 bytes that hold the stack argument (so it stays 16-aligned) */
	and	$-64, %rsp
	sub	C_SHIFT(%rbx), %rsp
	sub	$16, %rsp
	mov	%rsp, %r12

	/* paint [call rsp - SPAN - 64, call rsp) with rsp below it, so the
	 * kernel has mapped those pages */
	sub	$(DEPTH_SPAN + 64), %rsp
	mov	%rsp, %rdi
	mov	$(DEPTH_SPAN + 64), %ecx
	movzbl	C_PAINT(%rbx), %eax
	cld
	rep stosb
	mov	%r12, %rsp

	mov	C_ARGS+48(%rbx), %rax		/* argument 7 */
	mov	%rax, (%rsp)
	lea	-8(%rsp), %rax			/* the routine's entry rsp */
	mov	%rax, C_ENTRY(%rbx)
	mov	C_FN(%rbx), %r11
	mov	C_ARGS+0(%rbx), %rdi
	mov	C_ARGS+8(%rbx), %rsi
	mov	C_ARGS+16(%rbx), %rdx
	mov	C_ARGS+24(%rbx), %rcx
	mov	C_ARGS+32(%rbx), %r8
	mov	C_ARGS+40(%rbx), %r9
	mov	C_VECMODE(%rbx), %eax
	test	%eax, %eax
	jnz	3f
	GCRY_ZERO_XMM 16
	jmp	4f
3:	vzeroall
	cmp	$2, %eax
	jne	4f
	.irp r, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpxord	%zmm\r, %zmm\r, %zmm\r
	.endr
4:
	movabs	$0x0b0b0b0b0b0b0b01, %rbx
	movabs	$0x0b0b0b0b0b0b0b02, %rbp
	movabs	$0x0b0b0b0b0b0b0b03, %r12
	movabs	$0x0b0b0b0b0b0b0b04, %r13
	movabs	$0x0b0b0b0b0b0b0b05, %r14
	movabs	$0x0b0b0b0b0b0b0b06, %r15
	call	*%r11
	mov	%eax, %r11d			/* the reported depth */

	/* what the routine left in the vector registers */
	mov	saved_call(%rip), %r8
	lea	C_VREGS(%r8), %rdi
	mov	C_VECMODE(%r8), %ecx
	cmp	$1, %ecx
	je	6f
	ja	7f
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	movdqu	%xmm\r, (\r * 64)(%rdi)
	.endr
	jmp	8f
6:	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	vmovdqu	%ymm\r, (\r * 64)(%rdi)
	.endr
	vzeroupper
	jmp	8f
7:	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vmovdqu64 %zmm\r, (\r * 64)(%rdi)
	.endr
	vzeroupper
8:
	/* ABI: the sentinels, rsp and DF (rbx gathers the differences) */
	movabs	$0x0b0b0b0b0b0b0b01, %rax
	xor	%rax, %rbx
	movabs	$0x0b0b0b0b0b0b0b02, %rax
	xor	%rax, %rbp
	or	%rbp, %rbx
	movabs	$0x0b0b0b0b0b0b0b03, %rax
	xor	%rax, %r12
	or	%r12, %rbx
	movabs	$0x0b0b0b0b0b0b0b04, %rax
	xor	%rax, %r13
	or	%r13, %rbx
	movabs	$0x0b0b0b0b0b0b0b05, %rax
	xor	%rax, %r14
	or	%r14, %rbx
	movabs	$0x0b0b0b0b0b0b0b06, %rax
	xor	%rax, %r15
	or	%r15, %rbx
	mov	saved_call(%rip), %r8
	mov	C_ENTRY(%r8), %rax
	add	$8, %rax
	xor	%rsp, %rax
	or	%rax, %rbx
	pushf					/* writes the return slot: above */
	pop	%rax
	and	$0x400, %eax
	or	%rax, %rbx
	xor	%eax, %eax
	test	%rbx, %rbx
	sete	%al
	mov	%rax, C_ABI_OK(%r8)
	mov	%r11, C_REPORTED(%r8)

	/* the lowest byte below the entry rsp that lost the paint */
	mov	C_ENTRY(%r8), %rdx
	lea	-DEPTH_SPAN(%rdx), %rdi
	mov	$DEPTH_SPAN, %ecx
	movzbl	C_PAINT(%r8), %eax
	repe scasb
	je	1f
	dec	%rdi				/* the byte that differed */
	sub	%rdi, %rdx
	mov	%rdx, C_MEASURED(%r8)
	jmp	2f
1:	movq	$0, C_MEASURED(%r8)
2:
	mov	saved_rsp(%rip), %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
	ret
GCRY_FUNC_END(asmcheck_depth_probe)
