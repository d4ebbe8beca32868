/* poly1305-amd64.h - what the SSE2 and AVX2 Poly1305 routines share: the
 * last step from five 26-bit limbs in general-purpose registers back to
 * the radix-2^64 accumulator of poly1305.h.  Included once per .S file,
 * after asm-common-amd64.h.
 */
#ifndef GCRYLIKE_POLY1305_AMD64_H
#define GCRYLIKE_POLY1305_AMD64_H

/* Final carry in GPRs and repacking into radix 2^64.  In: limbs 0-4 in
 * r8, r9, r10, rsi, rcx, each < 2^61.  Out: h[0..2] at rdi with h[2] <= 4.
 * Scratch rax, rdx.  One full carry pass 0->1->2->3->4->0 (times 5) ->1
 * leaves limbs 0, 2, 3, 4 < 2^26 and limb 1 < 2^26 + 2^12; then
 *   h[0] = d0 + 2^26 d1 + 2^52 d2        (mod 2^64, carry out)
 *   h[1] = d2 / 2^12 + 2^14 d3 + 2^40 d4 (mod 2^64, carry in and out)
 *   h[2] = d4 / 2^24                     (+ carry in)  */
.macro FINAL_CARRY_PACK
	movq	%r8, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %r8d
	addq	%rax, %r9
	movq	%r9, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %r9d
	addq	%rax, %r10
	movq	%r10, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %r10d
	addq	%rax, %rsi
	movq	%rsi, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %esi
	addq	%rax, %rcx
	movq	%rcx, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %ecx
	leaq	(%rax,%rax,4), %rax
	addq	%rax, %r8
	movq	%r8, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %r8d
	addq	%rax, %r9

	shlq	$26, %r9
	addq	%r9, %r8			/* d0 + 2^26 d1 < 2^54 */
	movq	%r10, %rax
	shlq	$52, %rax			/* low 12 bits of d2 */
	shrq	$12, %r10
	shlq	$14, %rsi
	addq	%rsi, %r10			/* d2 / 2^12 + 2^14 d3 < 2^41 */
	movq	%rcx, %rdx
	shlq	$40, %rdx			/* low 24 bits of d4 */
	shrq	$24, %rcx
	addq	%rax, %r8
	adcq	%rdx, %r10
	adcq	$0, %rcx
	movq	%r8, 0(%rdi)
	movq	%r10, 8(%rdi)
	movq	%rcx, 16(%rdi)
.endm

#endif /* GCRYLIKE_POLY1305_AMD64_H */
