/* poly1305-scalar-amd64.h - what the stitched routines share
 * (chacha20-poly1305-amd64-avx2.S, salsa20-poly1305-amd64-avx2.S), and
 * with poly1305-amd64-scalar.S the block step and the frame: scalar
 * Poly1305 (64-bit limbs in general-purpose registers, mul/imul only: base
 * x86-64, no BMI2/ADX) cut into four parts per block, to interleave with
 * their vector work; their general-purpose register roles; their frame;
 * and the entry and exit that set it up and take it down.
 *
 * Written for gcrylike from RFC 8439 section 2.5: the 2^64-radix step of
 * poly1305_generic64_blocks (ciphers/poly1305/poly1305_generic.c).
 *
 * The stitched routines take (state, dst, src, nblocks, h, r, mac_src) in
 * the System V registers rdi, rsi, rdx, rcx, r8, r9 and on the stack
 * (STITCH_ENTER); the scalar one (h, r, m, nblocks) sets its frame up with
 * the same SCALAR_FRAME and SCALAR_LOAD, and all three leave through
 * SCALAR_LEAVE.  rax and rdx are the mul pair and are clobbered; flags are
 * not live between parts.
 */
#ifndef GCRYLIKE_POLY1305_SCALAR_AMD64_H
#define GCRYLIKE_POLY1305_SCALAR_AMD64_H

/* General-purpose registers (rax, rdx: the mul pair; rbp: frame pointer) */
#define STATE	%rdi		/* the cipher's state */
#define DST	%rsi
#define SRC	%rbx
#define MAC	%rcx		/* Poly1305 input */
#define GROUPS	%r11		/* groups of 8 blocks left */
#define DROUNDS	%r10d		/* double rounds left */
#define H0	%r12		/* accumulator h0 + 2^64 h1 + 2^128 h2 */
#define H1	%r13
#define H2	%r14
#define T0	%r15		/* product scratch */
#define T1	%r8
#define T2	%r9

/* Frame (rsp, 32-byte aligned): two 32-byte slots for spilled vector
 * state, then r, s1 and the h[] argument. */
#define SLOT0	0(%rsp)
#define SLOT1	32(%rsp)
#define R0	64(%rsp)	/* r = r0 + 2^64 r1 */
#define R1	72(%rsp)
#define S1	80(%rsp)	/* r1 + r1/4 = 5 r1 / 4 */
#define HPTR	88(%rsp)	/* the h[] argument */
#define FRAME	96

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

/* The frame: save rbp and the five callee-saved registers (rbp the frame
 * pointer from here on), then FRAME bytes aligned down to 32. */
.macro SCALAR_FRAME
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_offset %r12, -32
	pushq	%r13
	.cfi_offset %r13, -40
	pushq	%r14
	.cfi_offset %r14, -48
	pushq	%r15
	.cfi_offset %r15, -56
	subq	$FRAME, %rsp
	andq	$-32, %rsp
.endm

/* r from RPTR to the frame (memory operands of mul/imul) with s1 = r1 +
 * r1/4, and h from HP into H0-H2; HP is kept in the frame for the exit. */
.macro SCALAR_LOAD rptr, hp
	movq	\hp, HPTR
	movq	0(\rptr), %rax
	movq	%rax, R0
	movq	8(\rptr), %rax
	movq	%rax, R1
	movq	%rax, %rdx
	shrq	$2, %rdx
	addq	%rdx, %rax
	movq	%rax, S1
	movq	0(\hp), H0
	movq	8(\hp), H1
	movq	16(\hp), H2
.endm

/* Stitched entry: return 0 at once (to DONE) when NBLOCKS (rcx) holds no
 * group of 8; else the frame, the arguments to their roles, r, s1 and h. */
.macro STITCH_ENTER done
	xorl	%eax, %eax
	shrq	$3, %rcx			/* groups of 8 blocks */
	jz	\done

	SCALAR_FRAME
	movq	%rcx, GROUPS
	movq	%rdx, SRC
	movq	16(%rbp), MAC			/* 7th argument */
	SCALAR_LOAD %r9, %r8
.endm

/* Exit: h back to memory, the vectors (with VECTORS) and the product
 * registers cleared, the burn depth (entry rsp down to the frame's lowest
 * byte) in rax, the frame and the saved registers restored.  The caller's
 * ret follows. */
.macro SCALAR_LEAVE vectors=1
	movq	HPTR, %rax
	movq	H0, 0(%rax)
	movq	H1, 8(%rax)
	movq	H2, 16(%rax)
	.if \vectors
	vzeroall
	.endif
	xorl	%edx, %edx
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	leaq	8(%rbp), %rax
	subq	%rsp, %rax
	leaq	-40(%rbp), %rsp
	popq	%r15
	.cfi_restore %r15
	popq	%r14
	.cfi_restore %r14
	popq	%r13
	.cfi_restore %r13
	popq	%r12
	.cfi_restore %r12
	popq	%rbx
	.cfi_restore %rbx
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa %rsp, 8
.endm

#endif /* GCRYLIKE_POLY1305_SCALAR_AMD64_H */
