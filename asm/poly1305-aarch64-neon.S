/* poly1305-aarch64-neon.S - Poly1305 block function for aarch64 with
 * Advanced SIMD (NEON): two streams of 26-bit limbs, eight blocks a step.
 *
 * Written for gcrylike from RFC 8439 (Poly1305, section 2.5), D. J.
 * Bernstein, "The Poly1305-AES message-authentication code", and the Arm
 * Architecture Reference Manual (UMULL/UMLAL by element, UADDW2, USRA,
 * SLI/SRI, UQXTN, LD4).
 *
 * ABI (AAPCS64, hidden global):
 *
 *   unsigned int _gcry_poly1305_aarch64_neon_blocks(uint64_t h[3],     x0
 *                                                   const void *table,  x1
 *                                                   const uint8_t *m,   x2
 *                                                   size_t nblocks);    x3
 *
 *   h       the accumulator h[0] + 2^64 h[1] + 2^128 h[2], partially
 *           reduced mod p = 2^130 - 5, h[2] <= 7 on entry; on exit a value
 *           congruent to (...((h + c_0) r + c_1) r ... + c_{n-1}) r, with
 *           h[2] <= 4, where c_i is block i of m plus 2^128.
 *   table   filled by _gcry_poly1305_aarch64_neon_setup
 *           (ciphers/poly1305/poly1305_aarch64_tables.c: the layout),
 *           16-byte aligned.
 *   m       nblocks 16-byte blocks, any alignment.
 *   nblocks a multiple of 4 (a remainder is ignored); below 4 returns at
 *           once.
 *
 * Returns the burn depth, the bytes below the stack pointer at entry that
 * were written: 64 (d8-d15, callee-saved, kept there while v8-v15 hold
 * powers of r), 0 below 4 blocks.  The save area is not wiped here (it
 * holds the caller's d8-d15, not key material).  Only caller-saved GPRs
 * are used (x0-x13); v0-v7 and v16-v31 are zeroed and d8-d15 restored
 * (which clears v8-v15's high halves) before return.  Little-endian only
 * (LD4 of 32-bit words).  Branches depend on nblocks only.
 *
 * Method.  Numbers mod p are five 26-bit limbs x_0 + 2^26 x_1 + ... +
 * 2^104 x_4; a product x y is
 *     d_i = sum_{j <= i} x_j y_{i-j} + sum_{j > i} x_j (5 y_{i-j+5})
 * (2^130 = 5 mod p): 25 UMULL/UMLAL (32x32 -> 64 bits, two lanes each),
 * the power's values as elements of v8-v16 (the same power for both
 * lanes).  Lane 0 holds the even blocks' stream, lane 1 the odd blocks';
 * with pairs P_j = (c_{2j}, c_{2j+1}) the lanes hold A with
 *     h' = A_0 r^2 + A_1 r,
 * the newest pair not yet multiplied.  A step of eight blocks is
 *     A = A r^8 + P_0 r^6 + P_1 r^4 + P_2 r^2 + P_3,
 * one carry pass for four pairs; the first step adds h into P_0's lane 0
 * and has no A r^8 term; a step of four blocks (the odd one out)
 *     A = A r^4 + P_0 r^2 + P_1.
 * LD4 gives word j of four blocks in the lanes of v_j: P_0 in lanes 0-1
 * (UMULL/UMLAL), P_1 in lanes 2-3 (UMLAL2), and P_3 is added from lanes
 * 2-3 (UADDW2).  At the end A is multiplied by (r^2, r^1) lane by lane, the
 * lanes are summed (ADDP), carried and put back in radix 2^64.
 *
 * Bounds: after a carry pass limbs < 2^26 + 2^11; message limbs < 2^26,
 * lane 0 of the first pair < 2^27.6 with h added; the power values <
 * 5 * 2^26.  A step sums at most 20 products < 2^56 and P_3: < 2^60.4,
 * no lane overflows; the carries out of a column < 2^35, the pass's two
 * chains leave every limb < 2^26 + 2^11, so the narrowing (UQXTN, which
 * never saturates here) to 32 bits keeps them whole.  The last product per lane < 2^56.7, the lane sum <
 * 2^57.7; after its carry limb 4 < 2^26 + 2^6, so h[2] <= 4.
 */

#include "asm-common-aarch64.h"

#if defined(__aarch64__) && !defined(__AARCH64EB__)

/* Registers:
 *   x0 h[], x1 table, x2 message, x3 nblocks, x4 eight-block steps left
 *   v0, v2, v3, v7, v4  the limbs 0-4 of four blocks (block j in 32-bit
 *            lane j); v1 scratch of their split
 *   v5       zero (SLI from it keeps the low bits of a lane)
 *   v8-v16   the values of r^2, r^4, r^6, r^8, packed (nine each)
 *   v17-v21  A, the limbs of the two streams (.2s); h in lane 0 on entry;
 *            v21 scratch of the carry (A is dead then)
 *   v22-v26  T, a step's column sums, carried into A by the next step
 *   v0-v4, v27-v30  the last multiply's lanes (r^2, r^1), at the end
 */
#define ZERO	v5
#define TMP	v21			/* A's limb 4, dead while a carry runs */
#define XS	v0, v2, v3, v7, v4
#define AS	v17, v18, v19, v20, v21
#define TS	v22, v23, v24, v25, v26

/* Value k = 0..8 of a power (limbs 0-4, then 5 times limbs 1-4) as the
 * element of v8-v16 the table's packing puts it in. */
#define R2 v8.s[0], v8.s[1], v8.s[2], v8.s[3], v9.s[0], v9.s[1], v9.s[2], v9.s[3], v10.s[0]
#define R4 v10.s[1], v10.s[2], v10.s[3], v11.s[0], v11.s[1], v11.s[2], v11.s[3], v12.s[0], v12.s[1]
#define R6 v12.s[2], v12.s[3], v13.s[0], v13.s[1], v13.s[2], v13.s[3], v14.s[0], v14.s[1], v14.s[2]
#define R8 v14.s[3], v15.s[0], v15.s[1], v15.s[2], v15.s[3], v16.s[0], v16.s[1], v16.s[2], v16.s[3]

/* One product into d: x's lanes 0-1 (lo) or 2-3 (hi) times the element w,
 * or x's lanes 0-1 times w's (lane). */
.macro MAC op, d, x, w, form
	.ifc \form, lo
	\op	\d\().2d, \x\().2s, \w
	.endif
	.ifc \form, hi
	\op\()2	\d\().2d, \x\().4s, \w
	.endif
	.ifc \form, lane
	\op	\d\().2d, \x\().2s, \w\().2s
	.endif
.endm

/* d_i = (fresh 1) or += (fresh 0) x w_i, i = 0..4. */
.macro MAC5 fresh, form, d0, d1, d2, d3, d4, x, w0, w1, w2, w3, w4
	.if \fresh
	MAC5_OP	umull, \form, \d0, \d1, \d2, \d3, \d4, \x, \w0, \w1, \w2, \w3, \w4
	.else
	MAC5_OP	umlal, \form, \d0, \d1, \d2, \d3, \d4, \x, \w0, \w1, \w2, \w3, \w4
	.endif
.endm
.macro MAC5_OP op, form, d0, d1, d2, d3, d4, x, w0, w1, w2, w3, w4
	MAC	\op, \d0, \x, \w0, \form
	MAC	\op, \d1, \x, \w1, \form
	MAC	\op, \d2, \x, \w2, \form
	MAC	\op, \d3, \x, \w3, \form
	MAC	\op, \d4, \x, \w4, \form
.endm

/* Row j of a product: limb j (x) times the power of values p0..p4, q1..q4
 * (q_k = 5 p_k) into the column sums d0..d4: column i gets x p_{i-j},
 * or x q_{i-j+5} where the product wraps past 2^130.  The five rows of a
 * product are independent but for the sums, so any order will do. */
.macro ROW fresh, form, j, d0, d1, d2, d3, d4, x, p0, p1, p2, p3, p4, q1, q2, q3, q4
	.if \j == 0
	MAC5	\fresh, \form, \d0, \d1, \d2, \d3, \d4, \x, \p0, \p1, \p2, \p3, \p4
	.elseif \j == 1
	MAC5	\fresh, \form, \d0, \d1, \d2, \d3, \d4, \x, \q4, \p0, \p1, \p2, \p3
	.elseif \j == 2
	MAC5	\fresh, \form, \d0, \d1, \d2, \d3, \d4, \x, \q3, \q4, \p0, \p1, \p2
	.elseif \j == 3
	MAC5	\fresh, \form, \d0, \d1, \d2, \d3, \d4, \x, \q2, \q3, \q4, \p0, \p1
	.else
	MAC5	\fresh, \form, \d0, \d1, \d2, \d3, \d4, \x, \q1, \q2, \q3, \q4, \p0
	.endif
.endm

/* d0..d4 = (fresh 1) or += (fresh 0) the product of limbs x0..x4 and a
 * power: its five rows in order. */
.macro MUL5 fresh, form, d0, d1, d2, d3, d4, x0, x1, x2, x3, x4, p:vararg
	ROW	\fresh, \form, 0, \d0, \d1, \d2, \d3, \d4, \x0, \p
	ROW	0, \form, 1, \d0, \d1, \d2, \d3, \d4, \x1, \p
	ROW	0, \form, 2, \d0, \d1, \d2, \d3, \d4, \x2, \p
	ROW	0, \form, 3, \d0, \d1, \d2, \d3, \d4, \x3, \p
	ROW	0, \form, 4, \d0, \d1, \d2, \d3, \d4, \x4, \p
.endm

/* Four blocks from x2 (advanced by LD4, which puts word k of block j in
 * lane j of v_k) into limbs v0, v2, v3, v7, v4: limb i is the 26 bits from
 * bit 26 i, across two words, and limb 4 gets the 2^128 bit.  In five
 * parts, each depending only on the ones before, so the loop can put
 * other work between them. */
.macro SPLIT_A
	ushr	v4.4s, v3.4s, #8		/* bits 104-127 */
	shl	v7.4s, v3.4s, #18
	shl	v3.4s, v2.4s, #12
.endm
.macro SPLIT_B
	orr	v4.4s, #1, lsl #24		/* 2^128 */
	sri	v7.4s, v2.4s, #14		/* bits 78-103 (and 6 above) */
	sri	v3.4s, v1.4s, #20		/* bits 52-77 (and 6 above) */
.endm
.macro SPLIT_C
	sli	v7.4s, ZERO.4s, #26
	sli	v3.4s, ZERO.4s, #26
	shl	v2.4s, v1.4s, #6
.endm
.macro SPLIT_D
	sri	v2.4s, v0.4s, #26		/* bits 26-51 (and 6 above) */
.endm
.macro SPLIT_E
	sli	v2.4s, ZERO.4s, #26
	sli	v0.4s, ZERO.4s, #26		/* bits 0-25 */
.endm
.macro LOAD4
	ld4	{v0.4s-v3.4s}, [x2], #64
	SPLIT_A
	SPLIT_B
	SPLIT_C
	SPLIT_D
	SPLIT_E
.endm

/* h (in A's lane 0, lanes 1-3 zero) into the first pair's limbs. */
.macro ADD_H
	add	v0.4s, v0.4s, v17.4s
	add	v2.4s, v2.4s, v18.4s
	add	v3.4s, v3.4s, v19.4s
	add	v7.4s, v7.4s, v20.4s
	add	v4.4s, v4.4s, v21.4s
.endm

/* d_i += the lanes 2-3 of limb i (the newest pair, not multiplied). */
.macro ADDW2 d0, d1, d2, d3, d4
	uaddw2	\d0\().2d, \d0\().2d, v0.4s
	uaddw2	\d1\().2d, \d1\().2d, v2.4s
	uaddw2	\d2\().2d, \d2\().2d, v3.4s
	uaddw2	\d3\().2d, \d3\().2d, v7.4s
	uaddw2	\d4\().2d, \d4\().2d, v4.4s
.endm

/* The column sums d0..d4 (64-bit lanes) carried into limbs below 2^26 +
 * 2^11, the carry c out of limb 4 times 5 into limb 0 (c, then 4 c): two
 * chains at once, 0 -> 1 -> 2 -> 3 -> 4 and 3 -> 4 -> 0 -> 1.  Each lane
 * is cut to its low 26 bits by SLI from the zero register, which does it
 * for 64-bit lanes here and 32-bit ones in the split alike (an AND would
 * need a mask register per lane size).  In five parts, each depending on
 * the ones before. */
.macro CARRY_A d0, d1, d2, d3, d4
	usra	\d1\().2d, \d0\().2d, #26
	usra	\d4\().2d, \d3\().2d, #26
	sli	\d0\().2d, ZERO.2d, #26
	sli	\d3\().2d, ZERO.2d, #26
.endm
.macro CARRY_B d0, d1, d2, d3, d4
	usra	\d2\().2d, \d1\().2d, #26
	ushr	TMP.2d, \d4\().2d, #26
	usra	\d0\().2d, \d4\().2d, #26
	sli	\d1\().2d, ZERO.2d, #26
	sli	\d4\().2d, ZERO.2d, #26
.endm
.macro CARRY_C d0, d1, d2, d3, d4
	usra	\d3\().2d, \d2\().2d, #26
	shl	TMP.2d, TMP.2d, #2
	sli	\d2\().2d, ZERO.2d, #26
.endm
.macro CARRY_D d0, d1, d2, d3, d4
	usra	\d4\().2d, \d3\().2d, #26
	add	\d0\().2d, \d0\().2d, TMP.2d
	sli	\d3\().2d, ZERO.2d, #26
.endm
.macro CARRY_E d0, d1, d2, d3, d4
	usra	\d1\().2d, \d0\().2d, #26
	sli	\d0\().2d, ZERO.2d, #26
.endm
.macro CARRY d0, d1, d2, d3, d4
	CARRY_A	\d0, \d1, \d2, \d3, \d4
	CARRY_B	\d0, \d1, \d2, \d3, \d4
	CARRY_C	\d0, \d1, \d2, \d3, \d4
	CARRY_D	\d0, \d1, \d2, \d3, \d4
	CARRY_E	\d0, \d1, \d2, \d3, \d4
.endm

/* A (32-bit lanes) = the carried limbs d0..d4. */
.macro NARROW d0, d1, d2, d3, d4
	uqxtn	v19.2s, \d2\().2d
	uqxtn	v20.2s, \d3\().2d
	uqxtn	v21.2s, \d4\().2d
	uqxtn	v17.2s, \d0\().2d
	uqxtn	v18.2s, \d1\().2d
.endm

.text

GCRY_FUNC_BEGIN(_gcry_poly1305_aarch64_neon_blocks)
	cmp	x3, #4
	b.lo	.Lpn_none
	sub	sp, sp, #64
	.cfi_adjust_cfa_offset 64
	stp	d8, d9, [sp]
	stp	d10, d11, [sp, #16]
	stp	d12, d13, [sp, #32]
	stp	d14, d15, [sp, #48]

	ld1	{v8.4s-v11.4s}, [x1], #64
	ld1	{v12.4s-v15.4s}, [x1], #64
	ld1	{v16.4s}, [x1], #16		/* x1: the last step's lanes */
	movi	ZERO.2d, #0

	/* h to limbs in lane 0 of A (a write to s<n> zeroes the rest) */
	ldp	x6, x7, [x0]
	ldr	x8, [x0, #16]
	and	x9, x6, #0x3ffffff
	ubfx	x10, x6, #26, #26
	extr	x11, x7, x6, #52
	and	x11, x11, #0x3ffffff
	ubfx	x12, x7, #14, #26
	lsr	x13, x7, #40
	orr	x13, x13, x8, lsl #24		/* h[2] <= 7: < 2^27 */
	fmov	s17, w9
	fmov	s18, w10
	fmov	s19, w11
	fmov	s20, w12
	fmov	s21, w13

	/* the first step: h added to the first block, no A r^k term */
	lsr	x4, x3, #3
	cbz	x4, .Lpn_first4
	LOAD4
	ADD_H
	MUL5	1, lo, TS, XS, R6
	MUL5	0, hi, TS, XS, R4
	LOAD4
	MUL5	0, lo, TS, XS, R2
	ADDW2	TS
	subs	x4, x4, #1
	b.eq	.Lpn_tail

	/* T = A r^8 + P_0 r^6 + P_1 r^4 + P_2 r^2 + P_3 with A = T carried.
	 * The order keeps each instruction apart from the ones it waits for,
	 * for in-order cores such as Cortex-A53 (which issue in this order):
	 * the split of the first four blocks between the parts of the carry,
	 * that of the second four between the rows of A r^8, the rows of a
	 * product limb 4 first (its part of the split is done first). */
.balign 16
.Lpn_loop:
	ld4	{v0.4s-v3.4s}, [x2], #64
	CARRY_A	TS
	CARRY_B	TS
	SPLIT_A
	CARRY_C	TS
	SPLIT_B
	CARRY_D	TS
	SPLIT_C
	CARRY_E	TS
	SPLIT_D
	NARROW	TS
	SPLIT_E
	ROW	1, lo, 4, TS, v4, R6
	ROW	0, hi, 4, TS, v4, R4
	ROW	0, lo, 3, TS, v7, R6
	ROW	0, hi, 3, TS, v7, R4
	ROW	0, lo, 2, TS, v3, R6
	ROW	0, hi, 2, TS, v3, R4
	ROW	0, lo, 1, TS, v2, R6
	ROW	0, hi, 1, TS, v2, R4
	ROW	0, lo, 0, TS, v0, R6
	ROW	0, hi, 0, TS, v0, R4
	ld4	{v0.4s-v3.4s}, [x2], #64
	ROW	0, lo, 0, TS, v17, R8
	SPLIT_A
	ROW	0, lo, 1, TS, v18, R8
	SPLIT_B
	ROW	0, lo, 2, TS, v19, R8
	SPLIT_C
	ROW	0, lo, 3, TS, v20, R8
	SPLIT_D
	ROW	0, lo, 4, TS, v21, R8
	SPLIT_E
	ROW	0, lo, 4, TS, v4, R2
	ROW	0, lo, 3, TS, v7, R2
	ROW	0, lo, 2, TS, v3, R2
	ROW	0, lo, 1, TS, v2, R2
	ROW	0, lo, 0, TS, v0, R2
	ADDW2	TS
	subs	x4, x4, #1
	b.ne	.Lpn_loop

.Lpn_tail:
	/* a four-block step, T = A r^4 + P_0 r^2 + P_1 */
	tbz	x3, #2, .Lpn_last
	CARRY	TS
	NARROW	TS
	LOAD4
	MUL5	1, lo, TS, AS, R4
	MUL5	0, lo, TS, XS, R2
	ADDW2	TS
	b	.Lpn_last

.Lpn_first4:
	LOAD4
	ADD_H
	MUL5	1, lo, TS, XS, R2
	ADDW2	TS

.Lpn_last:
	/* h' = A_0 r^2 + A_1 r: lane by lane, then the lanes summed */
	CARRY	TS
	NARROW	TS
	ld1	{v0.2s-v3.2s}, [x1], #32
	ld1	{v4.2s}, [x1], #8
	ld1	{v27.2s-v30.2s}, [x1]
	MUL5	1, lane, TS, AS, v0, v1, v2, v3, v4, v27, v28, v29, v30
	addp	d22, v22.2d
	addp	d23, v23.2d
	addp	d24, v24.2d
	addp	d25, v25.2d
	addp	d26, v26.2d
	CARRY	TS
	fmov	x9, d22
	fmov	x10, d23
	fmov	x11, d24
	fmov	x12, d25
	fmov	x13, d26

	/* back to radix 2^64: limbs below 2^26 + 2^11 overlap by at most a
	 * few bits, so the three words are sums with carries */
	add	x9, x9, x10, lsl #26
	lsr	x10, x11, #12
	add	x10, x10, x12, lsl #14
	lsr	x12, x13, #24
	lsl	x13, x13, #40
	adds	x9, x9, x11, lsl #52
	adcs	x10, x10, x13
	adc	x11, x12, xzr
	stp	x9, x10, [x0]
	str	x11, [x0, #16]

	/* no power, limb or message word left behind */
	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
	ldp	d8, d9, [sp]
	ldp	d10, d11, [sp, #16]
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	add	sp, sp, #64
	.cfi_adjust_cfa_offset -64
	GCRY_ZERO_X 6, 13
	mov	w0, #64					/* d8-d15 saved below sp */
	ret
.Lpn_none:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_poly1305_aarch64_neon_blocks)

#endif /* __aarch64__ && !__AARCH64EB__ */
