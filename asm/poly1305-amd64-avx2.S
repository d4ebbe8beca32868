/* poly1305-amd64-avx2.S - Poly1305 block function for amd64 with AVX2,
 * four blocks in parallel.
 *
 * Written for gcrylike from RFC 8439 (Poly1305, section 2.5) and D. J.
 * Bernstein, "The Poly1305-AES message-authentication code".
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_poly1305_amd64_avx2_blocks(uint64_t h[3],      rdi
 *                                                 const void *table,   rsi
 *                                                 const uint8_t *m,    rdx
 *                                                 size_t nblocks);     rcx
 *
 *   h       the accumulator h[0] + 2^64 h[1] + 2^128 h[2], partially
 *           reduced mod p = 2^130 - 5, h[2] <= 7 on entry; on exit a value
 *           congruent to (...((h + c_0) r + c_1) r ... + c_{n-1}) r, with
 *           h[2] <= 4, where c_i is block i of m plus 2^128.
 *   table   512 bytes, 64-byte aligned, filled by
 *           _gcry_poly1305_amd64_avx2_setup (poly1305_amd64_tables.c):
 *             0    nine 32-byte entries k of r^4 (low dword of each qword)
 *                  and r^8 (high dword), every lane equal; k = 0..4 the
 *                  26-bit limbs, k = 5..8 five times limbs 1..4
 *             288  five 32-byte entries, limb k of P_j in the low dword of
 *                  lane j and 5 times it in the high dword,
 *                  P = (r^4, r^2, r^3, r^1)
 *   m       nblocks 16-byte blocks, any alignment.
 *   nblocks a multiple of 4 (a remainder is ignored); 0 returns at once.
 *
 * Returns the burn depth: 0, no stack is used (no push, no red zone).  Only
 * caller-saved GPRs are touched (rax, rcx, rdx, rsi, r8-r11).  All ymm
 * registers are cleared (vzeroall) before return.  Branches depend on
 * nblocks only.
 *
 * Method.  Numbers mod p are five 26-bit limbs x_0 + 2^26 x_1 + ... +
 * 2^104 x_4; a product x y is
 *     d_i = sum_{j <= i} x_j y_{i-j} + sum_{j > i} x_j (5 y_{i-j+5})
 * (2^130 = 5 mod p), 25 vpmuludq (32x32 -> 64 bit; only the low dword of
 * each qword lane is read, which lets the table keep two sets of values
 * in one entry).  Every ymm holds one limb of four independent streams,
 * one per 64-bit lane.  A load of four blocks and vpunpck{l,h}qdq put
 * blocks 0, 2, 1, 3 of the group in lanes 0, 1, 2, 3; the lane powers in
 * the table follow that order.  With n = 4g blocks, stream j accumulates
 *     A_j = (...((c_j r^4 + c_{4+j}) r^4 + ...) r^4 + c_{4(g-1)+j}),
 * the entry h added into lane 0 (block 0), and the result is
 *     h' = A_0 r^4 + A_1 r^3 + A_2 r^2 + A_3 r      (here written per block
 * index; in lane order the powers are r^4, r^2, r^3, r^1).  The loop takes
 * eight blocks at a time, A = (A + c_lo) r^8 + c_hi r^4, which is two
 * four-block steps with one carry pass instead of two; the c_hi r^4 half
 * does not depend on A and runs ahead under the previous carry chain.  A
 * single four-block step with r^4 handles an odd group count, and the last
 * group is multiplied by the lane powers, summed across lanes and carried
 * in GPRs.
 *
 * Limb bounds: after a carry pass limbs are < 2^26 + 2^9; plus a message
 * limb (< 2^26, limb 4 < 2^25) < 2^27 (the entry h: limb 4 < 2^27 + 2^25).
 * Table limbs are < 2^26 and the 5x ones < 2^28.4, so one product sum
 * d_i < 5 * 2^27.4 * 2^28.4 < 2^58.2 and d_i plus the c_hi products
 * < 2^58.7 < 2^64; the carry pass below brings limbs back under 2^32
 * (vpmuludq's input width) with room to spare.  The lane sum of the last
 * step is < 2^61.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 32
.Lavx2_mask26:
	.quad 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff
.Lavx2_hibit:				/* 2^128 in limb 4 */
	.quad 0x1000000, 0x1000000, 0x1000000, 0x1000000

.text

/* Table entry k of the r^4 / r^8 area, and limb entry k of the lane-power
 * area (rsi = table). */
#define TE(k)	((k) * 32)(%rsi)
#define TP(k)	(288 + (k) * 32)(%rsi)

/* Four blocks at byte offset off of m (rdx) into limbs x0..x4, with the
 * 2^128 bit; lanes = blocks 0, 2, 1, 3.  t scratch. */
.macro LOAD4 off, x0, x1, x2, x3, x4, t
	vmovdqu	\off(%rdx), \x0			/* lo0 hi0 | lo1 hi1 */
	vmovdqu	\off+32(%rdx), \x1		/* lo2 hi2 | lo3 hi3 */
	vpunpckhqdq \x1, \x0, \x4		/* hi0 hi2 | hi1 hi3 */
	vpunpcklqdq \x1, \x0, \x0		/* lo0 lo2 | lo1 lo3 */
	vpsrlq	$26, \x0, \x1
	vpsrlq	$52, \x0, \x2
	vpsllq	$12, \x4, \t
	vpsrlq	$14, \x4, \x3
	vpsrlq	$40, \x4, \x4
	vpor	\t, \x2, \x2
	vpand	.Lavx2_mask26(%rip), \x0, \x0	/* bits 0-25 */
	vpand	.Lavx2_mask26(%rip), \x1, \x1	/* bits 26-51 */
	vpand	.Lavx2_mask26(%rip), \x2, \x2	/* bits 52-77 */
	vpand	.Lavx2_mask26(%rip), \x3, \x3	/* bits 78-103 */
	vpor	.Lavx2_hibit(%rip), \x4, \x4	/* bits 104-127, 2^128 */
.endm

/* d0..d4 = x0..x4 times the r^4 entries (memory operands, low dwords). */
.macro MUL_R4 x0, x1, x2, x3, x4, d0, d1, d2, d3, d4, t
	vpmuludq TE(0), \x0, \d0
	vpmuludq TE(1), \x0, \d1
	vpmuludq TE(2), \x0, \d2
	vpmuludq TE(3), \x0, \d3
	vpmuludq TE(4), \x0, \d4
	vpmuludq TE(8), \x1, \t;  vpaddq \t, \d0, \d0
	vpmuludq TE(0), \x1, \t;  vpaddq \t, \d1, \d1
	vpmuludq TE(1), \x1, \t;  vpaddq \t, \d2, \d2
	vpmuludq TE(2), \x1, \t;  vpaddq \t, \d3, \d3
	vpmuludq TE(3), \x1, \t;  vpaddq \t, \d4, \d4
	vpmuludq TE(7), \x2, \t;  vpaddq \t, \d0, \d0
	vpmuludq TE(8), \x2, \t;  vpaddq \t, \d1, \d1
	vpmuludq TE(0), \x2, \t;  vpaddq \t, \d2, \d2
	vpmuludq TE(1), \x2, \t;  vpaddq \t, \d3, \d3
	vpmuludq TE(2), \x2, \t;  vpaddq \t, \d4, \d4
	vpmuludq TE(6), \x3, \t;  vpaddq \t, \d0, \d0
	vpmuludq TE(7), \x3, \t;  vpaddq \t, \d1, \d1
	vpmuludq TE(8), \x3, \t;  vpaddq \t, \d2, \d2
	vpmuludq TE(0), \x3, \t;  vpaddq \t, \d3, \d3
	vpmuludq TE(1), \x3, \t;  vpaddq \t, \d4, \d4
	vpmuludq TE(5), \x4, \t;  vpaddq \t, \d0, \d0
	vpmuludq TE(6), \x4, \t;  vpaddq \t, \d1, \d1
	vpmuludq TE(7), \x4, \t;  vpaddq \t, \d2, \d2
	vpmuludq TE(8), \x4, \t;  vpaddq \t, \d3, \d3
	vpmuludq TE(0), \x4, \t;  vpaddq \t, \d4, \d4
.endm

/* d0..d4 += x0..x4 times r^8: entry k's high dwords broadcast into the
 * register a (or b, alternately), then every product that uses it. */
.macro MULACC_R8 x0, x1, x2, x3, x4, d0, d1, d2, d3, d4, a, b, t, u
	vpbroadcastd (4+0*32)(%rsi), \a		/* r_0 */
	vpbroadcastd (4+1*32)(%rsi), \b		/* r_1 */
	vpmuludq \a, \x0, \t;  vpaddq \t, \d0, \d0
	vpmuludq \a, \x1, \u;  vpaddq \u, \d1, \d1
	vpmuludq \a, \x2, \t;  vpaddq \t, \d2, \d2
	vpmuludq \a, \x3, \u;  vpaddq \u, \d3, \d3
	vpmuludq \a, \x4, \t;  vpaddq \t, \d4, \d4
	vpbroadcastd (4+2*32)(%rsi), \a		/* r_2 */
	vpmuludq \b, \x0, \u;  vpaddq \u, \d1, \d1
	vpmuludq \b, \x1, \t;  vpaddq \t, \d2, \d2
	vpmuludq \b, \x2, \u;  vpaddq \u, \d3, \d3
	vpmuludq \b, \x3, \t;  vpaddq \t, \d4, \d4
	vpbroadcastd (4+5*32)(%rsi), \b		/* 5 r_1 */
	vpmuludq \a, \x0, \u;  vpaddq \u, \d2, \d2
	vpmuludq \a, \x1, \t;  vpaddq \t, \d3, \d3
	vpmuludq \a, \x2, \u;  vpaddq \u, \d4, \d4
	vpbroadcastd (4+3*32)(%rsi), \a		/* r_3 */
	vpmuludq \b, \x4, \t;  vpaddq \t, \d0, \d0
	vpbroadcastd (4+6*32)(%rsi), \b		/* 5 r_2 */
	vpmuludq \a, \x0, \u;  vpaddq \u, \d3, \d3
	vpmuludq \a, \x1, \t;  vpaddq \t, \d4, \d4
	vpbroadcastd (4+4*32)(%rsi), \a		/* r_4 */
	vpmuludq \b, \x3, \u;  vpaddq \u, \d0, \d0
	vpmuludq \b, \x4, \t;  vpaddq \t, \d1, \d1
	vpbroadcastd (4+7*32)(%rsi), \b		/* 5 r_3 */
	vpmuludq \a, \x0, \u;  vpaddq \u, \d4, \d4
	vpbroadcastd (4+8*32)(%rsi), \a		/* 5 r_4 */
	vpmuludq \b, \x2, \t;  vpaddq \t, \d0, \d0
	vpmuludq \b, \x3, \u;  vpaddq \u, \d1, \d1
	vpmuludq \b, \x4, \t;  vpaddq \t, \d2, \d2
	vpmuludq \a, \x1, \u;  vpaddq \u, \d0, \d0
	vpmuludq \a, \x2, \t;  vpaddq \t, \d1, \d1
	vpmuludq \a, \x3, \u;  vpaddq \u, \d2, \d2
	vpmuludq \a, \x4, \t;  vpaddq \t, \d3, \d3
.endm

/* One carry pass d0..d4 -> h0..h4, two interleaved chains
 *     0->1, 3->4 | 1->2, 4->0 (times 5) | 2->3, 0->1 | 3->4
 * leaving h0, h2, h3 < 2^26, h1 < 2^26 + 2^9, h4 < 2^26 + 2^7.
 * m holds the 26-bit mask; t, u scratch. */
.macro CARRY d0, d1, d2, d3, d4, h0, h1, h2, h3, h4, m, t, u
	vpsrlq	$26, \d0, \t
	vpsrlq	$26, \d3, \u
	vpand	\m, \d0, \h0
	vpand	\m, \d3, \h3
	vpaddq	\t, \d1, \d1
	vpaddq	\u, \d4, \d4
	vpsrlq	$26, \d1, \t
	vpsrlq	$26, \d4, \u
	vpand	\m, \d1, \h1
	vpand	\m, \d4, \h4
	vpaddq	\t, \d2, \d2
	vpaddq	\u, \h0, \h0
	vpsllq	$2, \u, \u
	vpaddq	\u, \h0, \h0			/* h0 += 5 * (d4 >> 26) */
	vpsrlq	$26, \d2, \t
	vpsrlq	$26, \h0, \u
	vpand	\m, \d2, \h2
	vpand	\m, \h0, \h0
	vpaddq	\t, \h3, \h3
	vpaddq	\u, \h1, \h1
	vpsrlq	$26, \h3, \t
	vpand	\m, \h3, \h3
	vpaddq	\t, \h4, \h4
.endm

/* Final carry in GPRs and repacking into radix 2^64.  In: limbs 0-4 in
 * r8, r9, r10, r11, rcx, each < 2^61.  Out: h[0..2] at rdi with h[2] <= 4.
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
	addq	%rax, %r11
	movq	%r11, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %r11d
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
	shlq	$14, %r11
	addq	%r11, %r10			/* d2 / 2^12 + 2^14 d3 < 2^41 */
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

/**********************************************************************
 * Register map:
 *   ymm0-4   h, the accumulator limbs 0-4 (lane j = stream j)
 *   ymm5-9   d, the product sums limbs 0-4
 *   ymm10-14 message limbs; r^8 broadcasts; the mask in the carry pass
 *   ymm15    product scratch
 *   rdi h, rsi table, rdx m, rcx groups of four blocks left after the
 *   last group; rax, r8-r11 scratch.  No stack.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_avx2_blocks)
	xorl	%eax, %eax
	shrq	$2, %rcx			/* groups of four blocks */
	jz	.Lavx2_ret

	/* h (3 x 64 bits) -> five 26-bit limbs in lane 0 of ymm0-4 (VEX
	 * vmovd zeroes the other lanes) */
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movl	%r8d, %eax
	andl	$0x3ffffff, %eax
	vmovd	%eax, %xmm0
	movq	%r8, %r11
	shrq	$26, %r11
	andl	$0x3ffffff, %r11d
	vmovd	%r11d, %xmm1
	shrdq	$52, %r9, %r8			/* bits 52-115 */
	andl	$0x3ffffff, %r8d
	vmovd	%r8d, %xmm2
	movq	%r9, %r11
	shrq	$14, %r11
	andl	$0x3ffffff, %r11d
	vmovd	%r11d, %xmm3
	shrdq	$40, %r10, %r9			/* bits 104-167: < 2^27 */
	vmovd	%r9d, %xmm4

	subq	$1, %rcx			/* keep the last group apart */
	jz	.Lavx2_last
	cmpq	$2, %rcx
	jb	.Lavx2_one

.balign 32
.Lavx2_loop8:
	/* Eight blocks: A = (A + c_lo) r^8 + c_hi r^4, lanes as above.
	 * c_hi (blocks 4-7): limbs in ymm10-14, d = c_hi r^4 */
	LOAD4	64, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, %ymm15
	MUL_R4	%ymm10, %ymm11, %ymm12, %ymm13, %ymm14, \
		%ymm5, %ymm6, %ymm7, %ymm8, %ymm9, %ymm15
	/* c_lo (blocks 0-3) into h */
	LOAD4	0, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, %ymm15
	vpaddq	%ymm10, %ymm0, %ymm0
	vpaddq	%ymm11, %ymm1, %ymm1
	vpaddq	%ymm12, %ymm2, %ymm2
	vpaddq	%ymm13, %ymm3, %ymm3
	vpaddq	%ymm14, %ymm4, %ymm4
	/* d += h r^8 */
	MULACC_R8 %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, \
		%ymm5, %ymm6, %ymm7, %ymm8, %ymm9, \
		%ymm10, %ymm11, %ymm12, %ymm13
	/* h = d, carried */
	vmovdqa	.Lavx2_mask26(%rip), %ymm14
	CARRY	%ymm5, %ymm6, %ymm7, %ymm8, %ymm9, \
		%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm14, %ymm12, %ymm13

	addq	$128, %rdx
	subq	$2, %rcx
	cmpq	$2, %rcx
	jae	.Lavx2_loop8
	testq	%rcx, %rcx
	jz	.Lavx2_last

.Lavx2_one:
	/* Four blocks, all lanes by r^4: A = (A + c) r^4 */
	LOAD4	0, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, %ymm15
	vpaddq	%ymm10, %ymm0, %ymm0
	vpaddq	%ymm11, %ymm1, %ymm1
	vpaddq	%ymm12, %ymm2, %ymm2
	vpaddq	%ymm13, %ymm3, %ymm3
	vpaddq	%ymm14, %ymm4, %ymm4
	MUL_R4	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, \
		%ymm5, %ymm6, %ymm7, %ymm8, %ymm9, %ymm15
	vmovdqa	.Lavx2_mask26(%rip), %ymm14
	CARRY	%ymm5, %ymm6, %ymm7, %ymm8, %ymm9, \
		%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm14, %ymm12, %ymm13
	addq	$64, %rdx

.Lavx2_last:
	/* Last four blocks: d = (A + c) P lane by lane, P = r^4, r^2, r^3,
	 * r^1.  Limb k of P from the table (low dwords, memory operands),
	 * 5 P_k moved down from the high dwords into ymm10-13 (k = 1..4). */
	LOAD4	0, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, %ymm15
	vpaddq	%ymm10, %ymm0, %ymm0
	vpaddq	%ymm11, %ymm1, %ymm1
	vpaddq	%ymm12, %ymm2, %ymm2
	vpaddq	%ymm13, %ymm3, %ymm3
	vpaddq	%ymm14, %ymm4, %ymm4
	vpshufd	$0xf5, TP(1), %ymm10		/* 5 P_1 */
	vpshufd	$0xf5, TP(2), %ymm11		/* 5 P_2 */
	vpshufd	$0xf5, TP(3), %ymm12		/* 5 P_3 */
	vpshufd	$0xf5, TP(4), %ymm13		/* 5 P_4 */
	vpmuludq TP(0), %ymm0, %ymm5
	vpmuludq TP(1), %ymm0, %ymm6
	vpmuludq TP(2), %ymm0, %ymm7
	vpmuludq TP(3), %ymm0, %ymm8
	vpmuludq TP(4), %ymm0, %ymm9
	vpmuludq %ymm13, %ymm1, %ymm15;  vpaddq %ymm15, %ymm5, %ymm5
	vpmuludq TP(0), %ymm1, %ymm14;   vpaddq %ymm14, %ymm6, %ymm6
	vpmuludq TP(1), %ymm1, %ymm15;   vpaddq %ymm15, %ymm7, %ymm7
	vpmuludq TP(2), %ymm1, %ymm14;   vpaddq %ymm14, %ymm8, %ymm8
	vpmuludq TP(3), %ymm1, %ymm15;   vpaddq %ymm15, %ymm9, %ymm9
	vpmuludq %ymm12, %ymm2, %ymm14;  vpaddq %ymm14, %ymm5, %ymm5
	vpmuludq %ymm13, %ymm2, %ymm15;  vpaddq %ymm15, %ymm6, %ymm6
	vpmuludq TP(0), %ymm2, %ymm14;   vpaddq %ymm14, %ymm7, %ymm7
	vpmuludq TP(1), %ymm2, %ymm15;   vpaddq %ymm15, %ymm8, %ymm8
	vpmuludq TP(2), %ymm2, %ymm14;   vpaddq %ymm14, %ymm9, %ymm9
	vpmuludq %ymm11, %ymm3, %ymm15;  vpaddq %ymm15, %ymm5, %ymm5
	vpmuludq %ymm12, %ymm3, %ymm14;  vpaddq %ymm14, %ymm6, %ymm6
	vpmuludq %ymm13, %ymm3, %ymm15;  vpaddq %ymm15, %ymm7, %ymm7
	vpmuludq TP(0), %ymm3, %ymm14;   vpaddq %ymm14, %ymm8, %ymm8
	vpmuludq TP(1), %ymm3, %ymm15;   vpaddq %ymm15, %ymm9, %ymm9
	vpmuludq %ymm10, %ymm4, %ymm14;  vpaddq %ymm14, %ymm5, %ymm5
	vpmuludq %ymm11, %ymm4, %ymm15;  vpaddq %ymm15, %ymm6, %ymm6
	vpmuludq %ymm12, %ymm4, %ymm14;  vpaddq %ymm14, %ymm7, %ymm7
	vpmuludq %ymm13, %ymm4, %ymm15;  vpaddq %ymm15, %ymm8, %ymm8
	vpmuludq TP(0), %ymm4, %ymm14;   vpaddq %ymm14, %ymm9, %ymm9

	/* Sum the four lanes of d0..d4 (each sum < 2^61):
	 * xmm5 = d0 | d1, xmm7 = d2 | d3, xmm9 = d4 | d4 */
	vextracti128 $1, %ymm5, %xmm0
	vextracti128 $1, %ymm6, %xmm1
	vextracti128 $1, %ymm7, %xmm2
	vextracti128 $1, %ymm8, %xmm3
	vextracti128 $1, %ymm9, %xmm4
	vpaddq	%xmm0, %xmm5, %xmm5
	vpaddq	%xmm1, %xmm6, %xmm6
	vpaddq	%xmm2, %xmm7, %xmm7
	vpaddq	%xmm3, %xmm8, %xmm8
	vpaddq	%xmm4, %xmm9, %xmm9
	vpunpcklqdq %xmm6, %xmm5, %xmm0
	vpunpckhqdq %xmm6, %xmm5, %xmm5
	vpunpcklqdq %xmm8, %xmm7, %xmm2
	vpunpckhqdq %xmm8, %xmm7, %xmm7
	vpshufd	$0x4e, %xmm9, %xmm4
	vpaddq	%xmm0, %xmm5, %xmm5
	vpaddq	%xmm2, %xmm7, %xmm7
	vpaddq	%xmm4, %xmm9, %xmm9
	vmovq	%xmm5, %r8
	vpextrq	$1, %xmm5, %r9
	vmovq	%xmm7, %r10
	vpextrq	$1, %xmm7, %r11
	vmovq	%xmm9, %rcx
	vzeroall

	/* Carry in GPRs (r8-r11, rcx = limbs 0-4), then pack radix 2^64. */
	FINAL_CARRY_PACK

	xorl	%eax, %eax			/* no stack used */
.Lavx2_ret:
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_avx2_blocks)

#endif /* __x86_64__ */
