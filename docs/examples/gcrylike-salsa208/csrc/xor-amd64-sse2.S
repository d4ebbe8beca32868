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
 *
 * asm-common-amd64.h (gcrylike.get_include()) gives GCRY_FUNC_BEGIN/END (a
 * hidden, typed, sized symbol: not exported from the .so) and the
 * .note.GNU-stack section, without which the linker would mark the whole
 * extension as needing an executable stack, which recent glibc refuses to
 * load.  The build assembles this file only where USE_AMD64 holds.
 */
#include "asm-common-amd64.h"

GCRY_FUNC_BEGIN(_s208_xor_sse2)
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
	GCRY_ZERO_XMM 2		/* keystream and data out of xmm0, xmm1 */
.Ldone:
	xorl	%eax, %eax		/* burn depth: nothing on the stack */
	ret
GCRY_FUNC_END(_s208_xor_sse2)
