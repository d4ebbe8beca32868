/* poly1305-amd64-scalar.S - Poly1305 one block at a time in general-purpose
 * registers (64-bit limbs, mul/imul only: base x86-64), the scalar part of
 * the SSE2 and AVX2 drivers: inputs below the SIMD threshold, and the
 * blocks the SIMD width leaves over.
 *
 * Written for gcrylike from RFC 8439 section 2.5, with the block step of
 * poly1305-scalar-amd64.h (shared with the stitched routines).  About 14
 * cycles a block on an AMD EPYC against about 25 for the portable C,
 * whose 128-bit products the compiler does not schedule as tightly.
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_poly1305_amd64_scalar_blocks(uint64_t h[3],
 *           const uint64_t r[2], const uint8_t *m, size_t nblocks);
 *
 * Absorbs NBLOCKS full 16-byte blocks of M (any alignment), each with the
 * 2^128 bit: h = (h + m + 2^128) r mod p.  The accumulator is h[0] + 2^64
 * h[1] + 2^128 h[2] with h[2] <= 7 on entry and h[2] <= 4 on exit (see
 * poly1305.h); r is clamped.  NBLOCKS 0 returns 0 at once.
 *
 * Burn: returns the bytes written below the stack pointer at entry: five
 * pushed registers and the shared 96-byte frame aligned down to 32 (r and
 * s1 live there); the C glue wipes them.  The caller-saved registers that
 * held products are zeroed.  No branch or address depends on secret data.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "poly1305-scalar-amd64.h"

GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_scalar_blocks)
	xorl	%eax, %eax
	testq	%rcx, %rcx
	jz	.Lps_done

	/* frame: rbp, four callee-saved registers, FRAME bytes aligned to 32 */
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%r12
	.cfi_offset %r12, -24
	pushq	%r13
	.cfi_offset %r13, -32
	pushq	%r14
	.cfi_offset %r14, -40
	pushq	%r15
	.cfi_offset %r15, -48
	subq	$FRAME, %rsp
	andq	$-32, %rsp

	/* arguments to their roles (MAC is rcx, the count's register) */
	movq	%rcx, GROUPS			/* blocks left */
	movq	%rdx, MAC
	movq	%rdi, HPTR
	/* r to the frame (memory operands of mul/imul), s1 = r1 + r1/4 */
	movq	0(%rsi), %rax
	movq	%rax, R0
	movq	8(%rsi), %rax
	movq	%rax, R1
	movq	%rax, %rdx
	shrq	$2, %rdx
	addq	%rdx, %rax
	movq	%rax, S1
	movq	0(%rdi), H0
	movq	8(%rdi), H1
	movq	16(%rdi), H2

.balign 32
.Lps_block:
	/* one block: add it with the 2^128 bit, multiply by r, fold */
	POLY_PART 0, 0
	POLY_PART 1, 0
	POLY_PART 2, 0
	POLY_PART 3, 0
	addq	$16, MAC
	subq	$1, GROUPS
	jnz	.Lps_block

	/* accumulator back; clear the registers that held products */
	movq	HPTR, %rax
	movq	H0, 0(%rax)
	movq	H1, 8(%rax)
	movq	H2, 16(%rax)
	xorl	%edx, %edx
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	/* burn depth: entry rsp (rbp + 8) down to the frame's lowest byte */
	leaq	8(%rbp), %rax
	subq	%rsp, %rax
	leaq	-32(%rbp), %rsp
	popq	%r15
	.cfi_restore %r15
	popq	%r14
	.cfi_restore %r14
	popq	%r13
	.cfi_restore %r13
	popq	%r12
	.cfi_restore %r12
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa %rsp, 8
.Lps_done:
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_scalar_blocks)

#endif /* __x86_64__ */
