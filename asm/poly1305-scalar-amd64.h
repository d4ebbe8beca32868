/* poly1305-scalar-amd64.h - scalar Poly1305 (64-bit limbs in
 * general-purpose registers, mul/imul only: base x86-64, no BMI2/ADX) cut
 * into four parts per block, for the stitched routines that interleave it
 * with vector work (chacha20-poly1305-amd64-avx2.S,
 * salsa20-poly1305-amd64-avx2.S).
 *
 * Written for gcrylike from RFC 8439 section 2.5: the 2^64-radix step of
 * poly1305_generic64_blocks (ciphers/poly1305/poly1305_generic.c).
 *
 * The including file names the registers and memory operands before the
 * #include (the macros below are expanded by cpp with these names):
 *   MAC         base register of the Poly1305 input
 *   H0 H1 H2    accumulator h0 + 2^64 h1 + 2^128 h2 (see poly1305.h)
 *   T0 T1 T2    product scratch
 *   R0 R1       memory qwords: clamped r = r0 + 2^64 r1
 *   S1          memory qword: r1 + r1/4 = 5 r1 / 4
 * rax and rdx are the mul pair and are clobbered; flags are not live
 * between parts.
 */
#ifndef GCRYLIKE_POLY1305_SCALAR_AMD64_H
#define GCRYLIKE_POLY1305_SCALAR_AMD64_H

/* Part PART (0-3) of one Poly1305 block at byte offset OFF of MAC:
 *   h += m + 2^128;  h *= r (mod p, partially reduced)
 * with d0 = h0 r0 + h1 s1, d1 = h0 r1 + h1 r0 + h2 s1 + d0>>64,
 * d2 = h2 r0 + d1>>64 (2^128 r1 = 2^130 r1/4 = 5 r1/4 = s1 mod p, r1 a
 * multiple of 4), then the bits of d2 at and above 2^130 folded back times
 * 5.  Bounds: h2 <= 9 after the add, so h2 s1 < 2^64 and d2 < 2^64; after
 * the fold h2 <= 4.  Each part leaves no flag live for the next. */
.macro POLY_PART part, off
	.if \part == 0
	/* h += m + 2^128; T1:T0 = h0 r0 */
	addq	\off(MAC), H0
	adcq	\off+8(MAC), H1
	adcq	$1, H2
	movq	R0, %rax
	mulq	H0
	movq	%rax, T0
	movq	%rdx, T1
	.elseif \part == 1
	/* T2:H0 = h0 r1 (h0 is dead after); T1:T0 += h1 s1 (= d0) */
	movq	R1, %rax
	mulq	H0
	movq	%rax, H0
	movq	%rdx, T2
	movq	S1, %rax
	mulq	H1
	addq	%rax, T0
	adcq	%rdx, T1
	.elseif \part == 2
	/* T2:H0 += h1 r0 + h2 s1; H2 = h2 r0; then the carries: H0 = d1 low
	 * 64 bits, H2 = d2 */
	movq	R0, %rax
	mulq	H1
	addq	%rax, H0
	adcq	%rdx, T2
	movq	H2, %rax
	imulq	S1, %rax
	imulq	R0, H2
	addq	%rax, H0
	adcq	T2, H2
	addq	T1, H0
	adcq	$0, H2
	.else
	/* h0 = T0 + 5 (d2 >> 2), h1 = H0 + carry, h2 = (d2 & 3) + carry */
	movq	H0, H1
	movq	H2, %rax
	andq	$-4, %rax
	movq	H2, %rdx
	shrq	$2, %rdx
	andq	$3, H2
	addq	%rdx, %rax
	addq	T0, %rax
	movq	%rax, H0
	adcq	$0, H1
	adcq	$0, H2
	.endif
.endm

/* Poly1305 part number IDX of a run of blocks from MAC: block IDX / 4,
 * part IDX mod 4. */
.macro POLYQ idx
	POLY_PART ((\idx) - ((\idx) / 4) * 4), (((\idx) / 4) * 16)
.endm

#endif /* GCRYLIKE_POLY1305_SCALAR_AMD64_H */
