/* xor-amd64-sse2.S - dst = src XOR keystream, 16 bytes at a time, SSE2.
 *
 * unsigned int _s208_xor_sse2(uint8_t *dst,          rdi
 *                             const uint8_t *src,    rsi
 *                             const uint8_t *ks,     rdx
 *                             size_t n16)            rcx  (16-byte chunks)
 *
 * Any alignment; dst may equal src.  Returns the number of stack bytes it
 * wrote, for the glue to burn: 0, it uses no stack.  The xmm registers that
 * held keystream are cleared before returning.  Branches depend on n16
 * only, never on data.
 */
#if defined(__x86_64__) && defined(__ELF__)

	.text
	.balign	16
	.globl	_s208_xor_sse2
	.hidden	_s208_xor_sse2		/* not exported from the .so */
	.type	_s208_xor_sse2,@function
_s208_xor_sse2:
	.cfi_startproc
	testq	%rcx, %rcx
	jz	.Ldone
.Lloop:
	movdqu	(%rsi), %xmm0
	movdqu	(%rdx), %xmm1
	pxor	%xmm1, %xmm0
	movdqu	%xmm0, (%rdi)
	addq	$16, %rsi
	addq	$16, %rdx
	addq	$16, %rdi
	decq	%rcx
	jnz	.Lloop
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
.Ldone:
	xorl	%eax, %eax		/* burn depth: nothing on the stack */
	ret
	.cfi_endproc
	.size	_s208_xor_sse2,.-_s208_xor_sse2

#endif

/* No executable stack: without this note the linker marks the whole
 * extension as needing one, and recent glibc refuses to load it. */
#if defined(__ELF__)
	.section .note.GNU-stack,"",%progbits
#endif
