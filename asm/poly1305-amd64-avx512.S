/* poly1305-amd64-avx512.S - Poly1305 block function for amd64 with
 * AVX512F and AVX512-IFMA, eight blocks in parallel.
 *
 * Written for gcrylike from RFC 8439 (Poly1305, section 2.5), D. J.
 * Bernstein, "The Poly1305-AES message-authentication code", and the Intel
 * SDM's description of VPMADD52LUQ/VPMADD52HUQ.
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_poly1305_amd64_avx512ifma_blocks(uint64_t h[3],    rdi
 *                                                       const void *table, rsi
 *                                                       const uint8_t *m,  rdx
 *                                                       size_t nblocks);   rcx
 *
 *   h       the accumulator h[0] + 2^64 h[1] + 2^128 h[2], partially
 *           reduced mod p = 2^130 - 5, h[2] <= 7 on entry; on exit a value
 *           congruent to (...((h + c_0) r + c_1) r ... + c_{n-1}) r, with
 *           h[2] <= 4, where c_i is block i of m plus 2^128.
 *   table   512 bytes, 64-byte aligned, filled by
 *           _gcry_poly1305_amd64_avx512ifma_setup (poly1305_amd64_tables.c):
 *             0    five 64-byte entries k = 0..4: value k of power P_j in
 *                  qword lane j, the values being r_0, r_1, r_2, 20 r_1,
 *                  20 r_2 (radix 2^44 limbs, r_0 < 2^44, r_1 < 2^44 +
 *                  2^13, r_2 < 2^42: congruent, not fully reduced), P = (r^8, r^4,
 *                  r^7, r^3, r^6, r^2, r^5, r^1): the lane order of LOAD8
 *             320  r^8 as its five values (qwords), 360 r^16 likewise
 *   m       nblocks 16-byte blocks, any alignment.
 *   nblocks a multiple of 8 (a remainder is ignored); 0 returns at once.
 *
 * Returns the burn depth: 0, the routine writes no stack (everything fits
 * the 32 zmm registers).  Only caller-saved GPRs are touched (rax, rcx,
 * rdx, r8-r11; those that held accumulator values are zeroed).  Every zmm register it used (all 32) is cleared before
 * return: vpxord for zmm16-31, which vzeroall does not reach, then vzeroall;
 * no opmask register is used.  Branches depend on nblocks only.
 *
 * Method.  Numbers mod p are three limbs in radix 2^44,
 * x = x_0 + 2^44 x_1 + 2^88 x_2 (x_0, x_1 < 2^44, x_2 < 2^42 reduced).
 * With 2^132 = 4 * 2^130 = 20 (mod p), a product x y is the columns
 *     d_0 = x_0 y_0 + x_1 (20 y_2) + x_2 (20 y_1)
 *     d_1 = x_0 y_1 + x_1 y_0     + x_2 (20 y_2)
 *     d_2 = x_0 y_2 + x_1 y_1     + x_2 y_0
 * nine products, each taken in two halves by IFMA: vpmadd52luq adds bits
 * 0-51 of the 104-bit product of two 52-bit inputs, vpmadd52huq bits 52-103.
 * So every column has a low sum L_i (weight 2^(44 i)) and a high sum H_i
 * (weight 2^(44 i + 52) = 2^(44 (i + 1)) 2^8): H_0 and H_1 join the next
 * column shifted left by 8, and H_2, of weight 2^140 = 2^10 2^130, joins the
 * carry out of column 2 (weight 2^130 = 5 mod p) shifted left by 10.
 *
 * Every zmm holds one limb of eight independent streams, one per qword
 * lane.  Two 64-byte loads and vpunpck{l,h}qdq put blocks 0, 4, 1, 5, 2,
 * 6, 3, 7 of a group of eight in lanes 0..7 (lane 2k block k, lane 2k+1
 * block k + 4); the lane powers of the table follow that order.  With
 * n = 8g blocks, stream j accumulates
 *     A_j = (...((c_j r^8 + c_{8+j}) r^8 + ...) r^8 + c_{8(g-1)+j}),
 * the entry h added into lane 0 (block 0), and the result is
 *     h' = sum_j A_j r^(8 - j)     (per block index j of the last group).
 * The main loop merges two steps, sixteen blocks (groups c_0, c_1):
 *     A = (A + c_0) r^16 + c_1 r^8,
 * one carry pass for both; the c_1 products do not depend on A and run
 * ahead, under the previous carry chain.  An odd group before the loop
 * takes one eight-block step A = (A + c_0) r^8; the last group is
 * multiplied by the lane powers, carried lane by lane, summed across the
 * lanes and packed in GPRs.
 *
 * Bounds.  After a carry pass a_0 < 2^44, a_1 < 2^44 + 2^13, a_2 < 2^42; a
 * message group adds limbs < 2^44, < 2^44, < 2^41 (the entry h: limb 2
 * < 2^43), so every IFMA input is < 2^45.01, below 2^52 as IFMA needs;
 * table values are < 2^48.33 (20 r_1, r_1 < 2^44 + 2^13).  Products < 2^93.34: each low half
 * < 2^52, each high half < 2^41.34.  With six products a column (the
 * sixteen-block step) L_i < 2^54.6 and H_i < 2^44; then d_1 = L_1 + 2^8 H_0
 * + d_0 / 2^44 < 2^55 and d_2 likewise; the carry of weight 2^130,
 * d_2 / 2^42 + 2^10 H_2 < 2^54.01, times 5 < 2^56.4: all within 64 bits,
 * and one more carry a_0 -> a_1 restores the bounds above.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 8
.Lifma_mask44:
	.quad 0xfffffffffff
.Lifma_mask42:
	.quad 0x3ffffffffff
.Lifma_hibit:				/* 2^128 in limb 2 */
	.quad 0x10000000000

.text

/* Table (rsi): lane-power entry k; broadcast value k of r^8 / r^16. */
#define TP(k)		((k) * 64)(%rsi)
#define P8(k)		(320 + (k) * 8)(%rsi)
#define P16(k)		(360 + (k) * 8)(%rsi)

/* Register roles (the map below). */
#define A0	%zmm0
#define A1	%zmm1
#define A2	%zmm2
#define X0	%zmm3		/* limbs of group c_0 (or the only group) */
#define X1	%zmm4
#define X2	%zmm5
#define Y0	%zmm6		/* limbs of group c_1 */
#define Y1	%zmm7
#define Y2	%zmm8
#define L0	%zmm9		/* column sums, low and high halves */
#define H0	%zmm10
#define L1	%zmm11
#define H1	%zmm12
#define L2	%zmm13
#define H2	%zmm14
#define T0	%zmm15		/* scratch */
#define T1	%zmm29
#define R8	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20	/* r^8: r0 r1 r2 20r1 20r2 */
#define R16	%zmm21, %zmm22, %zmm23, %zmm24, %zmm25	/* r^16 likewise */
#define MASK44	%zmm26
#define MASK42	%zmm27
#define HIBIT	%zmm28

/* Eight blocks at byte offset off of m (rdx) into limbs x0..x2 (radix
 * 2^44), with the 2^128 bit; lanes = blocks 0, 4, 1, 5, 2, 6, 3, 7.
 * t scratch. */
.macro LOAD8 off, x0, x1, x2, t
	vmovdqu64 \off(%rdx), \x0		/* lo0 hi0 lo1 hi1 .. lo3 hi3 */
	vmovdqu64 \off+64(%rdx), \x1		/* lo4 hi4 .. lo7 hi7 */
	vpunpckhqdq \x1, \x0, \x2		/* hi0 hi4 hi1 hi5 .. hi3 hi7 */
	vpunpcklqdq \x1, \x0, \x0		/* lo0 lo4 lo1 lo5 .. lo3 lo7 */
	vpsllq	$20, \x2, \t			/* bits 64-107 at 44 */
	vpsrlq	$44, \x0, \x1			/* bits 44-63 */
	vpsrlq	$24, \x2, \x2			/* bits 88-127 */
	vpandq	MASK44, \x0, \x0		/* bits 0-43 */
	vpternlogq $0xa8, MASK44, \t, \x1	/* x1 = (x1 | t) & mask: bits 44-87 */
	vporq	HIBIT, \x2, \x2			/* the 2^128 bit */
.endm

/* Column sums L0..H2 += x0..x2 times the power y0 r0, y1 r1, y2 r2,
 * y3 = 20 r1, y4 = 20 r2 (registers or, for the lane powers, memory
 * operands).  Row by row, so consecutive updates of one sum are six
 * instructions apart. */
.macro MUL x0, x1, x2, y0, y1, y2, y3, y4
	vpmadd52luq \y0, \x0, L0
	vpmadd52huq \y0, \x0, H0
	vpmadd52luq \y1, \x0, L1
	vpmadd52huq \y1, \x0, H1
	vpmadd52luq \y2, \x0, L2
	vpmadd52huq \y2, \x0, H2
	vpmadd52luq \y4, \x1, L0
	vpmadd52huq \y4, \x1, H0
	vpmadd52luq \y0, \x1, L1
	vpmadd52huq \y0, \x1, H1
	vpmadd52luq \y1, \x1, L2
	vpmadd52huq \y1, \x1, H2
	vpmadd52luq \y3, \x2, L0
	vpmadd52huq \y3, \x2, H0
	vpmadd52luq \y4, \x2, L1
	vpmadd52huq \y4, \x2, H1
	vpmadd52luq \y0, \x2, L2
	vpmadd52huq \y0, \x2, H2
.endm

/* L0..H2 = 0 (zero idioms) */
.macro ZERO_SUMS
	vpxord	L0, L0, L0
	vpxord	H0, H0, H0
	vpxord	L1, L1, L1
	vpxord	H1, H1, H1
	vpxord	L2, L2, L2
	vpxord	H2, H2, H2
.endm

/* x += A */
.macro ADDA x0, x1, x2
	vpaddq	A0, \x0, \x0
	vpaddq	A1, \x1, \x1
	vpaddq	A2, \x2, \x2
.endm

/* One carry pass, column sums -> A (bounds in the header):
 *   d1 = L1 + 2^8 H0 + L0 / 2^44,  d2 = L2 + 2^8 H1 + d1 / 2^44,
 *   c = d2 / 2^42 + 2^10 H2 (weight 2^130), a0 = L0 mod 2^44 + 5 c,
 * then a0 -> a1 once more.  H0..H2 are consumed. */
.macro CARRY
	vpsllq	$8, H0, H0
	vpsllq	$8, H1, H1
	vpsllq	$10, H2, H2
	vpaddq	H0, L1, L1
	vpaddq	H1, L2, L2
	vpsrlq	$44, L0, T0
	vpandq	MASK44, L0, A0
	vpaddq	T0, L1, L1
	vpsrlq	$44, L1, T0
	vpandq	MASK44, L1, A1
	vpaddq	T0, L2, L2
	vpsrlq	$42, L2, T0
	vpandq	MASK42, L2, A2
	vpaddq	H2, T0, T0			/* c */
	vpsllq	$2, T0, T1
	vpaddq	T1, T0, T0			/* 5 c */
	vpaddq	T0, A0, A0
	vpsrlq	$44, A0, T0
	vpandq	MASK44, A0, A0
	vpaddq	T0, A1, A1
.endm

/* Sum the eight qword lanes of zmm \z into its lane 0 (t scratch, ymm/xmm
 * names of the same registers in yz/xz, yt/xt) and move it to GPR g. */
.macro HSUM z, yz, xz, t, yt, xt, g
	vextracti64x4 $1, \z, \yt
	vpaddq	\yt, \yz, \yz
	vextracti128 $1, \yz, \xt
	vpaddq	\xt, \xz, \xz
	vpshufd	$0x4e, \xz, \xt
	vpaddq	\xt, \xz, \xz
	vmovq	\xz, \g
.endm

/**********************************************************************
 * Register map:
 *   zmm0-2   A, the accumulator limbs 0-2 (lane j = stream j)
 *   zmm3-5   limbs of group c_0 (the eight-block and last steps: the group)
 *   zmm6-8   limbs of group c_1 (main loop)
 *   zmm9-14  column sums L0 H0 L1 H1 L2 H2
 *   zmm15, zmm29  scratch
 *   zmm16-20 r^8, zmm21-25 r^16 (r0, r1, r2, 20 r1, 20 r2 broadcast)
 *   zmm26-28 mask 2^44 - 1, mask 2^42 - 1, 2^40 (the 2^128 bit in limb 2)
 *   rdi h, rsi table, rdx m, rcx groups (then loop count); rax, r8-r10
 *   scratch.  No stack.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_avx512ifma_blocks)
	xorl	%eax, %eax
	shrq	$3, %rcx			/* groups of eight blocks */
	jz	.Lifma_ret

	vpbroadcastq .Lifma_mask44(%rip), MASK44
	vpbroadcastq .Lifma_mask42(%rip), MASK42
	vpbroadcastq .Lifma_hibit(%rip), HIBIT
	vpbroadcastq P8(0), %zmm16
	vpbroadcastq P8(1), %zmm17
	vpbroadcastq P8(2), %zmm18
	vpbroadcastq P8(3), %zmm19
	vpbroadcastq P8(4), %zmm20

	/* h (3 x 64 bits) -> three 44-bit limbs in lane 0 of zmm0-2 (VEX
	 * vmovq zeroes the other lanes): bits 0-43, 44-87, 88- (h[2] <= 7,
	 * so limb 2 < 2^43) */
	movq	0(%rdi), %r8
	movq	8(%rdi), %r9
	movq	16(%rdi), %r10
	movabsq	$0xfffffffffff, %rax
	movq	%r8, %r11
	andq	%rax, %r11
	vmovq	%r11, %xmm0
	shrdq	$44, %r9, %r8
	andq	%rax, %r8
	vmovq	%r8, %xmm1
	shrdq	$24, %r10, %r9
	vmovq	%r9, %xmm2

	subq	$1, %rcx			/* groups before the last one */
	testq	$1, %rcx
	jz	.Lifma_no8

	/* Eight blocks: A = (A + c_0) r^8 */
	LOAD8	0, X0, X1, X2, T0
	ADDA	X0, X1, X2
	ZERO_SUMS
	MUL	X0, X1, X2, R8
	CARRY
	addq	$128, %rdx
.Lifma_no8:
	shrq	$1, %rcx			/* sixteen-block iterations */
	jz	.Lifma_last

	vpbroadcastq P16(0), %zmm21
	vpbroadcastq P16(1), %zmm22
	vpbroadcastq P16(2), %zmm23
	vpbroadcastq P16(3), %zmm24
	vpbroadcastq P16(4), %zmm25

.balign 32
.Lifma_loop16:
	/* Sixteen blocks, groups c_0, c_1 at m + 0, 128:
	 * sums = c_1 r^8 + (A + c_0) r^16, A = sums carried. */
	LOAD8	128, Y0, Y1, Y2, T0
	ZERO_SUMS
	MUL	Y0, Y1, Y2, R8
	LOAD8	0, X0, X1, X2, T1
	ADDA	X0, X1, X2
	MUL	X0, X1, X2, R16
	CARRY
	addq	$256, %rdx
	subq	$1, %rcx
	jnz	.Lifma_loop16

.Lifma_last:
	/* Last eight blocks: sums = (A + c) P lane by lane (P = r^8, r^4,
	 * r^7, r^3, r^6, r^2, r^5, r^1, memory operands), carried lane by
	 * lane, then the limbs summed across lanes (each sum < 2^47). */
	LOAD8	0, X0, X1, X2, T0
	ADDA	X0, X1, X2
	ZERO_SUMS
	MUL	X0, X1, X2, TP(0), TP(1), TP(2), TP(3), TP(4)
	CARRY
	HSUM	%zmm0, %ymm0, %xmm0, %zmm3, %ymm3, %xmm3, %r8
	HSUM	%zmm1, %ymm1, %xmm1, %zmm4, %ymm4, %xmm4, %r9
	HSUM	%zmm2, %ymm2, %xmm2, %zmm5, %ymm5, %xmm5, %r10

	/* Clear every vector register: zmm16-31 by hand, then zmm0-15. */
	.irp r, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpxord	%zmm\r, %zmm\r, %zmm\r
	.endr
	vzeroall

	/* Pack s0 + 2^44 s1 + 2^88 s2 (r8, r9, r10) into radix 2^64:
	 *   h0 = s0 + 2^44 s1                 (mod 2^64, carry out)
	 *   h1 = s1 / 2^20 + 2^24 s2          (mod 2^64, carry in and out)
	 *   h2 = s2 / 2^40                    (+ carry in: < 2^6)
	 * then fold the bits of h2 at and above 2^130 (times 5): h2 <= 4. */
	movq	%r9, %rax
	shlq	$44, %rax
	shrq	$20, %r9
	movq	%r10, %rcx
	shlq	$24, %rcx
	shrq	$40, %r10
	addq	%rax, %r8
	adcq	%rcx, %r9
	adcq	$0, %r10
	movq	%r10, %rax
	shrq	$2, %rax
	andl	$3, %r10d
	leaq	(%rax,%rax,4), %rax
	addq	%rax, %r8
	adcq	$0, %r9
	adcq	$0, %r10
	movq	%r8, 0(%rdi)
	movq	%r9, 8(%rdi)
	movq	%r10, 16(%rdi)
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d
	xorl	%ecx, %ecx

	xorl	%eax, %eax			/* burn depth: no stack used */
.Lifma_ret:
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_avx512ifma_blocks)

#endif /* __x86_64__ */
