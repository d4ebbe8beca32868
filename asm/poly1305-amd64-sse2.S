/* poly1305-amd64-sse2.S - Poly1305 block function for amd64 with SSE2,
 * two blocks in parallel.
 *
 * Written for gcrylike from RFC 8439 (Poly1305, section 2.5) and D. J.
 * Bernstein, "The Poly1305-AES message-authentication code".
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_poly1305_amd64_sse2_blocks(uint64_t h[3],      rdi
 *                                                 const void *table,   rsi
 *                                                 const uint8_t *m,    rdx
 *                                                 size_t nblocks);     rcx
 *
 *   h       the accumulator h[0] + 2^64 h[1] + 2^128 h[2], partially
 *           reduced mod p = 2^130 - 5, h[2] <= 7 on entry; on exit a value
 *           congruent to (...((h + c_0) r + c_1) r ... + c_{n-1}) r, with
 *           h[2] <= 4, where c_i is block i of m plus 2^128.
 *   table   512 bytes, 64-byte aligned, filled by
 *           _gcry_poly1305_amd64_sse2_setup (poly1305_amd64_tables.c).
 *           "Entry k", k = 0..8: the 26-bit limbs 0-4 of a power, then five
 *           times limbs 1-4.  16-byte entries hold the value in the low
 *           dword of each qword lane (aligned memory operands):
 *             0    r^2 in both lanes
 *             144  r^4 in both lanes
 *             288  r^2 in lane 0, r^1 in lane 1
 *             432  r^6, 468 r^8: nine dwords each ("compact")
 *   m       nblocks 16-byte blocks, any alignment.
 *   nblocks a multiple of 2 (a remainder is ignored); 0 returns at once.
 *
 * Returns the burn depth, the bytes below the stack pointer at entry that
 * were written: with 10 or more blocks the main loop keeps r^6 and r^8 as
 * 16-byte entries in a 288-byte frame aligned down to 16 bytes, depth
 * 288 + (entry rsp mod 16) (296 under the ABI's alignment; computed at run
 * time); with 2 to 8 blocks no stack is used and the depth is 0.  The frame
 * is not wiped here.  Only caller-saved GPRs are touched (rax, rcx, rdx,
 * rsi, r8-r11).  SSE2 only (no SSSE3/AVX).  All sixteen xmm registers are
 * cleared (pxor) before return.  Branches depend on nblocks only.
 *
 * Method.  Numbers mod p are five 26-bit limbs x_0 + 2^26 x_1 + ... +
 * 2^104 x_4; a product x y is
 *     d_i = sum_{j <= i} x_j y_{i-j} + sum_{j > i} x_j (5 y_{i-j+5})
 * (2^130 = 5 mod p): 25 pmuludq (32x32 -> 64 bits, low dword of each
 * qword lane), the table values as memory operands.  Every xmm holds one
 * limb of two independent streams, block 2i in lane 0 and block 2i+1 in
 * lane 1; the entry h is added into lane 0.  With n = 2g blocks, lane j
 * accumulates A_j = (...(c_j r^2 + c_{2+j}) r^2 + ...) + c_{2(g-1)+j} and
 * the result is h' = A_0 r^2 + A_1 r.  Steps A = (A + c) r^2 merge: the
 * main loop takes eight blocks (pairs c_0..c_3),
 *     A = (A + c_0) r^8 + c_1 r^6 + c_2 r^4 + c_3 r^2,
 * one carry pass for four steps, the c_1..c_3 products independent of A
 * (they run ahead under the previous carry chain).  The one to three pairs
 * the loop leaves over are taken first: a four-block step (A + c_0) r^4 +
 * c_1 r^2 and/or a two-block step (A + c_0) r^2.  The last pair is
 * multiplied by (r^2, r^1), summed across the lanes and carried in GPRs.
 *
 * Limb bounds as in the AVX2 file: after a carry pass limbs < 2^26 + 2^10,
 * plus a message limb < 2^27 + 2^10 (entry h limb 4 < 2^27 + 2^25); product
 * sums < 2^57.72 for A and < 2^56.4 per message pair, so the loop's d_i <
 * 2^59 < 2^64; the carry pass brings the limbs back below 2^27.
 */

#include "asm-common-amd64.h"
#include "poly1305-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 16
.Lsse2_mask26:
	.quad 0x3ffffff, 0x3ffffff
.Lsse2_hibit:				/* 2^128 in limb 4 */
	.quad 0x1000000, 0x1000000

.text

/* Powers as (base register, byte offset) of their nine 16-byte entries:
 * r^2, r^4, the last-pair powers in the table (rsi); r^6, r^8 expanded
 * into the frame (rsp).  Compact r^6, r^8 in the table. */
#define R2	%rsi, 0
#define R4	%rsi, 144
#define RL	%rsi, 288
#define R6	%rsp, 0
#define R8	%rsp, 144
#define C6	432
#define C8	468
#define FRAME	288

/* Two blocks at byte offset off of m (rdx) into limbs x0..x4, with the
 * 2^128 bit; lane 0 = first block.  t scratch. */
.macro LOAD2 off, x0, x1, x2, x3, x4, t
	movdqu	\off(%rdx), \x0			/* lo0 hi0 */
	movdqu	\off+16(%rdx), \t		/* lo1 hi1 */
	movdqa	\x0, \x4
	punpcklqdq \t, \x0			/* lo0 lo1 */
	punpckhqdq \t, \x4			/* hi0 hi1 */
	movdqa	\x0, \x1
	movdqa	\x0, \x2
	movdqa	\x4, \t
	movdqa	\x4, \x3
	psrlq	$26, \x1
	psrlq	$52, \x2
	psllq	$12, \t
	psrlq	$14, \x3
	psrlq	$40, \x4
	por	\t, \x2
	pand	.Lsse2_mask26(%rip), \x0	/* bits 0-25 */
	pand	.Lsse2_mask26(%rip), \x1	/* bits 26-51 */
	pand	.Lsse2_mask26(%rip), \x2	/* bits 52-77 */
	pand	.Lsse2_mask26(%rip), \x3	/* bits 78-103 */
	por	.Lsse2_hibit(%rip), \x4		/* bits 104-127, 2^128 */
.endm

/* One product x times entry k of the power at (base, off), into d.
 * mode 0: d = product (x kept); 1: d += product (x kept, t scratch);
 * 2: d += product, computed in place in x (last use of x). */
.macro PROD mode, base, off, k, x, d, t
	.if \mode == 0
	movdqa	\x, \d
	pmuludq	(\off + 16 * \k)(\base), \d
	.elseif \mode == 1
	movdqa	\x, \t
	pmuludq	(\off + 16 * \k)(\base), \t
	paddq	\t, \d
	.else
	pmuludq	(\off + 16 * \k)(\base), \x
	paddq	\x, \d
	.endif
.endm

/* d0..d4 (=, acc 0 / +=, acc 1) x0..x4 times the power at (base, off).
 * x0..x4 are destroyed; t scratch. */
.macro MULX base, off, acc, x0, x1, x2, x3, x4, d0, d1, d2, d3, d4, t
	.if \acc
	PROD	1, \base, \off, 0, \x0, \d0, \t
	PROD	1, \base, \off, 1, \x0, \d1, \t
	PROD	1, \base, \off, 2, \x0, \d2, \t
	PROD	1, \base, \off, 3, \x0, \d3, \t
	PROD	2, \base, \off, 4, \x0, \d4, \t
	.else
	PROD	0, \base, \off, 0, \x0, \d0, \t
	PROD	0, \base, \off, 1, \x0, \d1, \t
	PROD	0, \base, \off, 2, \x0, \d2, \t
	PROD	0, \base, \off, 3, \x0, \d3, \t
	PROD	0, \base, \off, 4, \x0, \d4, \t
	.endif
	PROD	1, \base, \off, 8, \x1, \d0, \t
	PROD	1, \base, \off, 0, \x1, \d1, \t
	PROD	1, \base, \off, 1, \x1, \d2, \t
	PROD	1, \base, \off, 2, \x1, \d3, \t
	PROD	2, \base, \off, 3, \x1, \d4, \t
	PROD	1, \base, \off, 7, \x2, \d0, \t
	PROD	1, \base, \off, 8, \x2, \d1, \t
	PROD	1, \base, \off, 0, \x2, \d2, \t
	PROD	1, \base, \off, 1, \x2, \d3, \t
	PROD	2, \base, \off, 2, \x2, \d4, \t
	PROD	1, \base, \off, 6, \x3, \d0, \t
	PROD	1, \base, \off, 7, \x3, \d1, \t
	PROD	1, \base, \off, 8, \x3, \d2, \t
	PROD	1, \base, \off, 0, \x3, \d3, \t
	PROD	2, \base, \off, 1, \x3, \d4, \t
	PROD	1, \base, \off, 5, \x4, \d0, \t
	PROD	1, \base, \off, 6, \x4, \d1, \t
	PROD	1, \base, \off, 7, \x4, \d2, \t
	PROD	1, \base, \off, 8, \x4, \d3, \t
	PROD	2, \base, \off, 0, \x4, \d4, \t
.endm

/* Compact power at table offset c -> nine 16-byte entries at frame offset
 * off (value in the low dword of both qwords); t scratch. */
.macro EXPAND1 c, off, k, t
	movd	(\c + 4 * \k)(%rsi), \t
	pshufd	$0x44, \t, \t
	movdqa	\t, (\off + 16 * \k)(%rsp)
.endm
.macro EXPAND c, off, t
	EXPAND1	\c, \off, 0, \t
	EXPAND1	\c, \off, 1, \t
	EXPAND1	\c, \off, 2, \t
	EXPAND1	\c, \off, 3, \t
	EXPAND1	\c, \off, 4, \t
	EXPAND1	\c, \off, 5, \t
	EXPAND1	\c, \off, 6, \t
	EXPAND1	\c, \off, 7, \t
	EXPAND1	\c, \off, 8, \t
.endm

/* One carry pass d0..d4 -> h0..h4 (d destroyed), two interleaved chains
 *     0->1, 3->4 | 1->2, 4->0 (times 5) | 2->3, 0->1 | 3->4
 * leaving h0, h2, h3 < 2^26 and h1, h4 < 2^26 + 2^10 when every d_i < 2^59.
 * m holds the 26-bit mask; t scratch. */
.macro CARRY2 d0, d1, d2, d3, d4, h0, h1, h2, h3, h4, m, t
	movdqa	\d0, \h0
	movdqa	\d3, \h3
	psrlq	$26, \d0
	psrlq	$26, \d3
	pand	\m, \h0
	pand	\m, \h3
	paddq	\d0, \d1
	paddq	\d3, \d4
	movdqa	\d1, \h1
	movdqa	\d4, \h4
	psrlq	$26, \d1
	psrlq	$26, \d4
	pand	\m, \h1
	pand	\m, \h4
	paddq	\d1, \d2
	paddq	\d4, \h0
	psllq	$2, \d4
	paddq	\d4, \h0			/* h0 += 5 * (d4 >> 26) */
	movdqa	\d2, \h2
	movdqa	\h0, \t
	psrlq	$26, \d2
	psrlq	$26, \t
	pand	\m, \h2
	pand	\m, \h0
	paddq	\d2, \h3
	paddq	\t, \h1
	movdqa	\h3, \t
	psrlq	$26, \t
	pand	\m, \h3
	paddq	\t, \h4
.endm

/* h += x (five limbs) */
.macro ADD5 x0, x1, x2, x3, x4, h0, h1, h2, h3, h4
	paddq	\x0, \h0
	paddq	\x1, \h1
	paddq	\x2, \h2
	paddq	\x3, \h3
	paddq	\x4, \h4
.endm

/* The fixed register roles (see the map below). */
#define HREGS	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4
#define DREGS	%xmm5, %xmm6, %xmm7, %xmm8, %xmm9
#define XREGS	%xmm10, %xmm11, %xmm12, %xmm13, %xmm14

/**********************************************************************
 * Register map:
 *   xmm0-4   h, the accumulator limbs 0-4 (lane j = stream j)
 *   xmm5-9   d, the product sums limbs 0-4
 *   xmm10-14 message limbs; the mask in the carry pass
 *   xmm15    scratch
 *   rdi h, rsi table (limb 3 in the final pack), rdx m, rcx pairs of
 *   blocks (then loop count; limb 4 in the final pack), r11 the entry rsp
 *   for the whole call (CFA = r11 + 8); rax, r8-r10 scratch.  Frame (main
 *   loop only): r^6, r^8 entries at rsp, 16-byte aligned.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_sse2_blocks)
	xorl	%eax, %eax
	shrq	$1, %rcx			/* pairs of blocks */
	jz	.Lsse2_ret

	movq	%rsp, %r11
	.cfi_def_cfa_register %r11

	/* h (3 x 64 bits) -> five 26-bit limbs in lane 0 of xmm0-4 (movd
	 * zeroes lane 1) */
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movl	%r8d, %eax
	andl	$0x3ffffff, %eax
	movd	%eax, %xmm0
	movq	%r8, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %eax
	movd	%eax, %xmm1
	shrdq	$52, %r9, %r8			/* bits 52-115 */
	andl	$0x3ffffff, %r8d
	movd	%r8d, %xmm2
	movq	%r9, %rax
	shrq	$14, %rax
	andl	$0x3ffffff, %eax
	movd	%eax, %xmm3
	shrdq	$40, %r10, %r9			/* bits 104-167: < 2^27 */
	movd	%r9d, %xmm4

	subq	$1, %rcx			/* pairs before the last one */
	testq	$2, %rcx
	jz	.Lsse2_no4

	/* Four blocks: A = (A + c_0) r^4 + c_1 r^2 */
	LOAD2	32, XREGS, %xmm15
	MULX	R2, 0, XREGS, DREGS, %xmm15
	LOAD2	0, XREGS, %xmm15
	ADD5	XREGS, HREGS
	MULX	R4, 1, HREGS, DREGS, %xmm15
	movdqa	.Lsse2_mask26(%rip), %xmm14
	CARRY2	DREGS, HREGS, %xmm14, %xmm15
	addq	$64, %rdx
.Lsse2_no4:
	testq	$1, %rcx
	jz	.Lsse2_no2

	/* Two blocks: A = (A + c_0) r^2 */
	LOAD2	0, XREGS, %xmm15
	ADD5	XREGS, HREGS
	MULX	R2, 0, HREGS, DREGS, %xmm15
	movdqa	.Lsse2_mask26(%rip), %xmm14
	CARRY2	DREGS, HREGS, %xmm14, %xmm15
	addq	$32, %rdx
.Lsse2_no2:
	shrq	$2, %rcx			/* eight-block iterations */
	jz	.Lsse2_last

	/* Frame: r^6, r^8 as 16-byte entries */
	subq	$FRAME, %rsp
	andq	$-16, %rsp
	EXPAND	C6, 0, %xmm15
	EXPAND	C8, 144, %xmm15

.balign 32
.Lsse2_loop8:
	/* Eight blocks, pairs c_0..c_3 at m + 0, 32, 64, 96:
	 * d = c_1 r^6 + c_2 r^4 + c_3 r^2, d += (A + c_0) r^8, A = d
	 * carried. */
	LOAD2	32, XREGS, %xmm15
	MULX	R6, 0, XREGS, DREGS, %xmm15
	LOAD2	64, XREGS, %xmm15
	MULX	R4, 1, XREGS, DREGS, %xmm15
	LOAD2	96, XREGS, %xmm15
	MULX	R2, 1, XREGS, DREGS, %xmm15
	LOAD2	0, XREGS, %xmm15
	ADD5	XREGS, HREGS
	MULX	R8, 1, HREGS, DREGS, %xmm15
	movdqa	.Lsse2_mask26(%rip), %xmm14
	CARRY2	DREGS, HREGS, %xmm14, %xmm15

	addq	$128, %rdx
	subq	$1, %rcx
	jnz	.Lsse2_loop8

.Lsse2_last:
	/* Last two blocks: d = (A + c) (r^2, r^1) lane by lane */
	LOAD2	0, XREGS, %xmm15
	ADD5	XREGS, HREGS
	MULX	RL, 0, HREGS, DREGS, %xmm15

	/* Sum the two lanes of d0..d4 (each sum < 2^59) into GPRs */
	pshufd	$0x4e, %xmm5, %xmm0
	pshufd	$0x4e, %xmm6, %xmm1
	pshufd	$0x4e, %xmm7, %xmm2
	pshufd	$0x4e, %xmm8, %xmm3
	pshufd	$0x4e, %xmm9, %xmm4
	paddq	%xmm0, %xmm5
	paddq	%xmm1, %xmm6
	paddq	%xmm2, %xmm7
	paddq	%xmm3, %xmm8
	paddq	%xmm4, %xmm9
	movq	%xmm5, %r8
	movq	%xmm6, %r9
	movq	%xmm7, %r10
	movq	%xmm8, %rsi
	movq	%xmm9, %rcx

	/* Carry in GPRs (r8-r10, rsi, rcx = limbs 0-4), pack radix 2^64. */
	FINAL_CARRY_PACK

	/* clear every xmm that held h, powers of r or message data */
	GCRY_ZERO_XMM 16

	/* burn depth = entry rsp - lowest frame byte (0 without a frame) */
	movq	%r11, %rax
	subq	%rsp, %rax
	movq	%r11, %rsp
	.cfi_def_cfa_register %rsp
.Lsse2_ret:
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_sse2_blocks)

#endif /* __x86_64__ */
