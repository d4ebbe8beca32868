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
 *             0, 40, 80, 120  r^4, r^8, r^12, r^16 ("compact powers"):
 *                  nine dwords each, the 26-bit limbs 0-4 then five times
 *                  limbs 1-4
 *             160  five 32-byte entries: limb k of P_j in the low dword of
 *                  lane j, 5 times it in the high dword, P = (r^4, r^2,
 *                  r^3, r^1)
 *   m       nblocks 16-byte blocks, any alignment.
 *   nblocks a multiple of 4 (a remainder is ignored); 0 returns at once.
 *
 * Returns the burn depth, the bytes below the stack pointer at entry that
 * were written: with 20 or more blocks the main loop keeps r^4, r^8, r^12
 * and r^16 broadcast to full vectors in a 1152-byte frame aligned down to
 * 32 bytes, depth 1152 + (entry rsp mod 32) (1160 or 1176 under the ABI's
 * alignment; computed at run time); with 4 to 16 blocks no stack is used
 * and the depth is 0.  The frame is not wiped here.  Only caller-saved GPRs
 * are touched (rax, rcx, rdx, rsi, r8-r11).  All ymm registers are cleared
 * (vzeroall) before return.  Branches depend on nblocks only.
 *
 * Method.  Numbers mod p are five 26-bit limbs x_0 + 2^26 x_1 + ... +
 * 2^104 x_4; a product x y is
 *     d_i = sum_{j <= i} x_j y_{i-j} + sum_{j > i} x_j (5 y_{i-j+5})
 * (2^130 = 5 mod p), 25 vpmuludq (32x32 -> 64 bits; only the low dword of
 * each qword lane is read).  Every ymm holds one limb of four independent
 * streams, one per 64-bit lane.  A load of four blocks and vpunpck{l,h}qdq
 * put blocks 0, 2, 1, 3 of the group in lanes 0, 1, 2, 3; the lane powers
 * in the table follow that order.  With n = 4g blocks, stream j
 * accumulates
 *     A_j = (...((c_j r^4 + c_{4+j}) r^4 + ...) r^4 + c_{4(g-1)+j}),
 * the entry h added into lane 0 (block 0), and the result is
 *     h' = A_0 r^4 + A_1 r^3 + A_2 r^2 + A_3 r
 * (written per block index; in lane order the powers are r^4, r^2, r^3,
 * r^1).  Any number of the g-1 steps A = (A + c) r^4 before the last group
 * can be merged: the main loop takes sixteen blocks (groups c_0..c_3),
 *     A = (A + c_0) r^16 + c_1 r^12 + c_2 r^8 + c_3 r^4,
 * four steps for one carry pass.  Only the first term depends on A: the
 * c_1..c_3 products run ahead, under the previous carry chain.  Every
 * product takes its table value as a memory operand from the frame, so
 * that h, the sums and a group's limbs fit the sixteen ymm registers (the
 * other way round, table values broadcast into registers and the limbs
 * stored to the frame and reloaded at once, measured slower: the 32-byte
 * reloads wait on the stores; docs/algorithms.rst, "Poly1305").  The
 * 16-block step does 100 vpmuludq, ~150 other vector ops, against ~300 for
 * four 4-block steps.  The one to three groups the loop leaves over are
 * taken first, by an eight-block step (A = (A + c_0) r^8 + c_1 r^4) and/or
 * a four-block step, with table values broadcast into registers (no
 * frame); the last group is multiplied by the lane powers, summed across
 * lanes and carried in GPRs.
 *
 * Limb bounds: after a carry pass limbs are < 2^26 + 2^10; plus a message
 * limb (< 2^26, limb 4 < 2^25) < 2^27 + 2^10 (the entry h: limb 4 < 2^27 +
 * 2^25).  Table limbs are < 2^26 and the 5x ones < 2^28.33, so the product
 * sums of A are < 21 * 2^26 * 2^27.33 < 2^57.72 and those of a message
 * group < 21 * 2^52 < 2^56.4: the loop's d_i < 2^57.72 + 3 * 2^56.4 < 2^59,
 * below 2^64, and the carry pass brings the limbs back below 2^27
 * (vpmuludq reads 32 bits).  The lane sums of the last step are < 2^60.
 */

#include "asm-common-amd64.h"
#include "poly1305-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 32
.Lavx2_mask26:
	.quad 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff
.Lavx2_hibit:				/* 2^128 in limb 4 */
	.quad 0x1000000, 0x1000000, 0x1000000, 0x1000000

.text

/* Table (rsi): dword k of the compact power at byte offset p; limb entry k
 * of the lane powers.  Frame (rsp): value k of expanded power q = 0..3
 * (r^4, r^8, r^12, r^16) broadcast to a 32-byte vector. */
#define P4	0
#define P8	40
#define P12	80
#define P16	120
#define PW(p, k)	((p) + 4 * (k))(%rsi)
#define TP(k)		(160 + (k) * 32)(%rsi)
#define EX(q, k)	((q) * 288 + (k) * 32)(%rsp)
#define FRAME		1152

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

/* d0..d4 (init 1: =, init 0: +=) x0..x4 times expanded power q, the table
 * values as memory operands from the frame; x0..x4 registers, kept.
 * t scratch. */
.macro MULM q, init, x0, x1, x2, x3, x4, d0, d1, d2, d3, d4, t
	.if \init
	vpmuludq EX(\q, 0), \x0, \d0
	vpmuludq EX(\q, 1), \x0, \d1
	vpmuludq EX(\q, 2), \x0, \d2
	vpmuludq EX(\q, 3), \x0, \d3
	vpmuludq EX(\q, 4), \x0, \d4
	.else
	vpmuludq EX(\q, 0), \x0, \t;  vpaddq \t, \d0, \d0
	vpmuludq EX(\q, 1), \x0, \t;  vpaddq \t, \d1, \d1
	vpmuludq EX(\q, 2), \x0, \t;  vpaddq \t, \d2, \d2
	vpmuludq EX(\q, 3), \x0, \t;  vpaddq \t, \d3, \d3
	vpmuludq EX(\q, 4), \x0, \t;  vpaddq \t, \d4, \d4
	.endif
	vpmuludq EX(\q, 8), \x1, \t;  vpaddq \t, \d0, \d0
	vpmuludq EX(\q, 0), \x1, \t;  vpaddq \t, \d1, \d1
	vpmuludq EX(\q, 1), \x1, \t;  vpaddq \t, \d2, \d2
	vpmuludq EX(\q, 2), \x1, \t;  vpaddq \t, \d3, \d3
	vpmuludq EX(\q, 3), \x1, \t;  vpaddq \t, \d4, \d4
	vpmuludq EX(\q, 7), \x2, \t;  vpaddq \t, \d0, \d0
	vpmuludq EX(\q, 8), \x2, \t;  vpaddq \t, \d1, \d1
	vpmuludq EX(\q, 0), \x2, \t;  vpaddq \t, \d2, \d2
	vpmuludq EX(\q, 1), \x2, \t;  vpaddq \t, \d3, \d3
	vpmuludq EX(\q, 2), \x2, \t;  vpaddq \t, \d4, \d4
	vpmuludq EX(\q, 6), \x3, \t;  vpaddq \t, \d0, \d0
	vpmuludq EX(\q, 7), \x3, \t;  vpaddq \t, \d1, \d1
	vpmuludq EX(\q, 8), \x3, \t;  vpaddq \t, \d2, \d2
	vpmuludq EX(\q, 0), \x3, \t;  vpaddq \t, \d3, \d3
	vpmuludq EX(\q, 1), \x3, \t;  vpaddq \t, \d4, \d4
	vpmuludq EX(\q, 5), \x4, \t;  vpaddq \t, \d0, \d0
	vpmuludq EX(\q, 6), \x4, \t;  vpaddq \t, \d1, \d1
	vpmuludq EX(\q, 7), \x4, \t;  vpaddq \t, \d2, \d2
	vpmuludq EX(\q, 8), \x4, \t;  vpaddq \t, \d3, \d3
	vpmuludq EX(\q, 0), \x4, \t;  vpaddq \t, \d4, \d4
.endm

/* Compact power at table offset p -> expanded power q in the frame;
 * t scratch. */
.macro EXPAND p, q, t
	vpbroadcastd PW(\p, 0), \t;  vmovdqa \t, EX(\q, 0)
	vpbroadcastd PW(\p, 1), \t;  vmovdqa \t, EX(\q, 1)
	vpbroadcastd PW(\p, 2), \t;  vmovdqa \t, EX(\q, 2)
	vpbroadcastd PW(\p, 3), \t;  vmovdqa \t, EX(\q, 3)
	vpbroadcastd PW(\p, 4), \t;  vmovdqa \t, EX(\q, 4)
	vpbroadcastd PW(\p, 5), \t;  vmovdqa \t, EX(\q, 5)
	vpbroadcastd PW(\p, 6), \t;  vmovdqa \t, EX(\q, 6)
	vpbroadcastd PW(\p, 7), \t;  vmovdqa \t, EX(\q, 7)
	vpbroadcastd PW(\p, 8), \t;  vmovdqa \t, EX(\q, 8)
.endm

/* d0..d4 (init 1: =, init 0: +=) x0..x4 times the compact power at table
 * offset p, for the short steps (no frame).  x0..x4 are registers (kept);
 * each table value is broadcast into a or b (alternately) and used by every
 * product that needs it:
 *   r_0: x0 d0, x1 d1, x2 d2, x3 d3, x4 d4     5r_1: x4 d0
 *   r_1: x0 d1, x1 d2, x2 d3, x3 d4            5r_2: x3 d0, x4 d1
 *   r_2: x0 d2, x1 d3, x2 d4                   5r_3: x2 d0, x3 d1, x4 d2
 *   r_3: x0 d3, x1 d4                          5r_4: x1 d0, x2 d1, x3 d2, x4 d3
 *   r_4: x0 d4
 * t, u product scratch. */
.macro MULBC p, init, x0, x1, x2, x3, x4, d0, d1, d2, d3, d4, a, b, t, u
	vpbroadcastd PW(\p, 0), \a
	vpbroadcastd PW(\p, 1), \b
	.if \init
	vpmuludq \x0, \a, \d0
	vpmuludq \x1, \a, \d1
	vpmuludq \x2, \a, \d2
	vpmuludq \x3, \a, \d3
	vpmuludq \x4, \a, \d4
	.else
	vpmuludq \x0, \a, \t;  vpaddq \t, \d0, \d0
	vpmuludq \x1, \a, \u;  vpaddq \u, \d1, \d1
	vpmuludq \x2, \a, \t;  vpaddq \t, \d2, \d2
	vpmuludq \x3, \a, \u;  vpaddq \u, \d3, \d3
	vpmuludq \x4, \a, \t;  vpaddq \t, \d4, \d4
	.endif
	vpbroadcastd PW(\p, 2), \a
	vpmuludq \x0, \b, \u;  vpaddq \u, \d1, \d1
	vpmuludq \x1, \b, \t;  vpaddq \t, \d2, \d2
	vpmuludq \x2, \b, \u;  vpaddq \u, \d3, \d3
	vpmuludq \x3, \b, \t;  vpaddq \t, \d4, \d4
	vpbroadcastd PW(\p, 5), \b
	vpmuludq \x0, \a, \u;  vpaddq \u, \d2, \d2
	vpmuludq \x1, \a, \t;  vpaddq \t, \d3, \d3
	vpmuludq \x2, \a, \u;  vpaddq \u, \d4, \d4
	vpbroadcastd PW(\p, 3), \a
	vpmuludq \x4, \b, \t;  vpaddq \t, \d0, \d0
	vpbroadcastd PW(\p, 6), \b
	vpmuludq \x0, \a, \u;  vpaddq \u, \d3, \d3
	vpmuludq \x1, \a, \t;  vpaddq \t, \d4, \d4
	vpbroadcastd PW(\p, 4), \a
	vpmuludq \x3, \b, \u;  vpaddq \u, \d0, \d0
	vpmuludq \x4, \b, \t;  vpaddq \t, \d1, \d1
	vpbroadcastd PW(\p, 7), \b
	vpmuludq \x0, \a, \u;  vpaddq \u, \d4, \d4
	vpbroadcastd PW(\p, 8), \a
	vpmuludq \x2, \b, \t;  vpaddq \t, \d0, \d0
	vpmuludq \x3, \b, \u;  vpaddq \u, \d1, \d1
	vpmuludq \x4, \b, \t;  vpaddq \t, \d2, \d2
	vpmuludq \x1, \a, \u;  vpaddq \u, \d0, \d0
	vpmuludq \x2, \a, \t;  vpaddq \t, \d1, \d1
	vpmuludq \x3, \a, \u;  vpaddq \u, \d2, \d2
	vpmuludq \x4, \a, \t;  vpaddq \t, \d3, \d3
.endm

/* h (ymm0-4) += x */
.macro ADD5 x0, x1, x2, x3, x4
	vpaddq	\x0, %ymm0, %ymm0
	vpaddq	\x1, %ymm1, %ymm1
	vpaddq	\x2, %ymm2, %ymm2
	vpaddq	\x3, %ymm3, %ymm3
	vpaddq	\x4, %ymm4, %ymm4
.endm

/* One carry pass d0..d4 -> h0..h4, two interleaved chains
 *     0->1, 3->4 | 1->2, 4->0 (times 5) | 2->3, 0->1 | 3->4
 * leaving h0, h2, h3 < 2^26 and h1, h4 < 2^26 + 2^10 when every d_i < 2^59.
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

/* The fixed register roles (see the map below). */
#define HREGS	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4
#define DREGS	%ymm5, %ymm6, %ymm7, %ymm8, %ymm9
#define XREGS	%ymm10, %ymm11, %ymm12, %ymm13, %ymm14
#define BCREGS	%ymm10, %ymm11, %ymm12, %ymm13

/**********************************************************************
 * Register map:
 *   ymm0-4   h, the accumulator limbs 0-4 (lane j = stream j); in the
 *            eight-block step also the second group's limbs
 *   ymm5-9   d, the product sums limbs 0-4
 *   ymm10-14 message limbs; in the short steps the broadcast table values
 *            and product scratch (MULBC a, b, t, u); the mask in the carry
 *   ymm15    scratch
 *   rdi h, rsi table (limb 3 in the final pack), rdx m, rcx groups of
 *   four blocks (then loop count; limb 4 in the final pack), r11 the entry
 *   rsp for the whole call (CFA = r11 + 8); rax, r8-r10 scratch.  Frame
 *   (main loop only): EX(0..3, 0..8) at rsp, 32-byte aligned.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_avx2_blocks)
	xorl	%eax, %eax
	shrq	$2, %rcx			/* groups of four blocks */
	jz	.Lavx2_ret

	movq	%rsp, %r11
	.cfi_def_cfa_register %r11

	/* h (3 x 64 bits) -> five 26-bit limbs in lane 0 of ymm0-4 (VEX
	 * vmovd zeroes the other lanes) */
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movl	%r8d, %eax
	andl	$0x3ffffff, %eax
	vmovd	%eax, %xmm0
	movq	%r8, %rax
	shrq	$26, %rax
	andl	$0x3ffffff, %eax
	vmovd	%eax, %xmm1
	shrdq	$52, %r9, %r8			/* bits 52-115 */
	andl	$0x3ffffff, %r8d
	vmovd	%r8d, %xmm2
	movq	%r9, %rax
	shrq	$14, %rax
	andl	$0x3ffffff, %eax
	vmovd	%eax, %xmm3
	shrdq	$40, %r10, %r9			/* bits 104-167: < 2^27 */
	vmovd	%r9d, %xmm4

	subq	$1, %rcx			/* groups before the last one */
	testq	$2, %rcx
	jz	.Lavx2_no8

	/* Eight blocks: A = (A + c_0) r^8 + c_1 r^4, no frame: d from
	 * A + c_0 first, then c_1's limbs take the place of h. */
	LOAD4	0, XREGS, %ymm15
	ADD5	XREGS
	MULBC	P8, 1, HREGS, DREGS, BCREGS
	LOAD4	64, HREGS, %ymm15
	MULBC	P4, 0, HREGS, DREGS, BCREGS
	vmovdqa	.Lavx2_mask26(%rip), %ymm14
	CARRY	DREGS, HREGS, %ymm14, %ymm12, %ymm13
	addq	$128, %rdx
.Lavx2_no8:
	testq	$1, %rcx
	jz	.Lavx2_no4

	/* Four blocks: A = (A + c_0) r^4 */
	LOAD4	0, XREGS, %ymm15
	ADD5	XREGS
	MULBC	P4, 1, HREGS, DREGS, BCREGS
	vmovdqa	.Lavx2_mask26(%rip), %ymm14
	CARRY	DREGS, HREGS, %ymm14, %ymm12, %ymm13
	addq	$64, %rdx
.Lavx2_no4:
	shrq	$2, %rcx			/* sixteen-block iterations */
	jz	.Lavx2_last

	/* Frame: r^4, r^8, r^12, r^16 as broadcast vectors */
	subq	$FRAME, %rsp
	andq	$-32, %rsp
	EXPAND	P4, 0, %ymm15
	EXPAND	P8, 1, %ymm15
	EXPAND	P12, 2, %ymm15
	EXPAND	P16, 3, %ymm15

.balign 32
.Lavx2_loop16:
	/* Sixteen blocks, groups c_0..c_3 at m + 0, 64, 128, 192:
	 * d = c_1 r^12 + c_2 r^8 + c_3 r^4, d += (A + c_0) r^16, A = d
	 * carried. */
	LOAD4	64, XREGS, %ymm15
	MULM	2, 1, XREGS, DREGS, %ymm15
	LOAD4	128, XREGS, %ymm15
	MULM	1, 0, XREGS, DREGS, %ymm15
	LOAD4	192, XREGS, %ymm15
	MULM	0, 0, XREGS, DREGS, %ymm15
	LOAD4	0, XREGS, %ymm15
	ADD5	XREGS
	MULM	3, 0, HREGS, DREGS, %ymm15
	vmovdqa	.Lavx2_mask26(%rip), %ymm14
	CARRY	DREGS, HREGS, %ymm14, %ymm12, %ymm13

	addq	$256, %rdx
	subq	$1, %rcx
	jnz	.Lavx2_loop16

.Lavx2_last:
	/* Last four blocks: d = (A + c) P lane by lane, P = r^4, r^2, r^3,
	 * r^1.  Limb k of P from the table (low dwords, memory operands),
	 * 5 P_k moved down from the high dwords into ymm10-13 (k = 1..4). */
	LOAD4	0, XREGS, %ymm15
	ADD5	XREGS
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

	/* Sum the four lanes of d0..d4 (each sum < 2^60):
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
	vpextrq	$1, %xmm7, %rsi
	vmovq	%xmm9, %rcx
	vzeroall

	/* Carry in GPRs (r8-r10, rsi, rcx = limbs 0-4), pack radix 2^64. */
	FINAL_CARRY_PACK

	/* burn depth = entry rsp - lowest frame byte (0 without a frame) */
	movq	%r11, %rax
	subq	%rsp, %rax
	movq	%r11, %rsp
	.cfi_def_cfa_register %rsp
.Lavx2_ret:
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_avx2_blocks)

#endif /* __x86_64__ */
