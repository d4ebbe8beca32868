/* salsa20-amd64-avx512.h - what the AVX-512 Salsa20 routines in transposed
 * form share (salsa20-amd64-avx512.S, whose groups of 17 run a scalar block
 * through the hook; a stitched Salsa20 + IFMA Poly1305 routine could run
 * its MAC parts there the same way): the counter lanes, the double round
 * (with an optional hook between its steps), the feed-forward, and the
 * transposes that turn word registers back into blocks.  Included once per .S file,
 * after asm-common-amd64.h; it leaves the assembler in .text.
 *
 * Transposed form: one vector register per state word, dword lane j = block
 * j of the group.  The macros take the register prefix V ("zmm" for the
 * 16-block form, "ymm" for the 8-block one) and N, the lanes (16 or 8):
 *   %V0 .. %V15   word x_i of every lane
 * Everything else is named by the including routine (step temporary,
 * counter lanes, transpose scratch), so a stitched routine can keep its
 * own registers out of the way.  Needs AVX512F, and AVX512VL for V = ymm.
 *
 * Salsa20 quarter-round (a,b,c,d):
 *   b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18
 *   column round  (0,4,8,12)  (5,9,13,1)   (10,14,2,6)  (15,3,7,11)
 *   row round     (0,1,2,3)   (5,6,7,4)    (10,11,8,9)  (15,12,13,14)
 * With 32 vector registers all sixteen words stay in registers (the AVX2
 * form spills two), and vprold makes each step three ops: add, rotate,
 * xor.  (vpternlogd has nothing to merge here: the step has one logic op;
 * shift, shift, ternlog would be three ops where vprold, vpxord are two.)
 */
#ifndef GCRYLIKE_SALSA20_AMD64_AVX512_H
#define GCRYLIKE_SALSA20_AMD64_AVX512_H

GCRY_RODATA
.balign 64
/* Counter offsets of lanes 0..15 (an 8-lane routine reads the first 8). */
.Ls512_lanes:
	.long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
/* Broadcast dwords: the per-group counter steps and the carry. */
.Ls512_dw16:
	.long 16
.Ls512_dw8:
	.long 8
.Ls512_dw17:
	.long 17
.Ls512_one:
	.long 1

.text

/* x ^= (p + q) <<< k on words x, p, q (numbers) of V; t the temporary. */
.macro S512_STEP v, t, x, p, q, k
	vpaddd	%\v\q, %\v\p, \t
	vprold	$\k, \t, \t
	vpxord	\t, %\v\x, %\v\x
.endm

/* The default HOOK of SALSA512_DROUND: nothing between the steps. */
.macro SALSA512_NOHOOK q
.endm

/* One Salsa20 round: quarter-rounds (a,b,c,d) = (A0,B0,C0,D0) ..
 * (A3,B3,C3,D3) run interleaved step by step (four independent
 * add-rotate-xor chains per step), each step "STEP v, t, x, p, q, k".
 * HOOK runs with Q+0 .. Q+5 at six points spread over the 16 steps. */
.macro S512_ROUND v, t, hook, q, step, a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3
	/* step 1: b ^= (a+d)<<<7 */
	\step	\v, \t, \b0, \a0, \d0, 7
	\step	\v, \t, \b1, \a1, \d1, 7
	\step	\v, \t, \b2, \a2, \d2, 7
	\hook	\q+0
	\step	\v, \t, \b3, \a3, \d3, 7
	/* step 2: c ^= (b+a)<<<9 */
	\step	\v, \t, \c0, \b0, \a0, 9
	\hook	\q+1
	\step	\v, \t, \c1, \b1, \a1, 9
	\step	\v, \t, \c2, \b2, \a2, 9
	\step	\v, \t, \c3, \b3, \a3, 9
	\hook	\q+2
	/* step 3: d ^= (c+b)<<<13 */
	\step	\v, \t, \d0, \c0, \b0, 13
	\step	\v, \t, \d1, \c1, \b1, 13
	\step	\v, \t, \d2, \c2, \b2, 13
	\hook	\q+3
	\step	\v, \t, \d3, \c3, \b3, 13
	/* step 4: a ^= (d+c)<<<18 */
	\step	\v, \t, \a0, \d0, \c0, 18
	\hook	\q+4
	\step	\v, \t, \a1, \d1, \c1, 18
	\step	\v, \t, \a2, \d2, \c2, 18
	\step	\v, \t, \a3, \d3, \c3, 18
	\hook	\q+5
.endm

/* The quarter-rounds (a,b,c,d) of the column round and of the row round,
 * each word number prefixed with W: empty for the bare numbers, or a
 * prefix whose W<n> names word n's operand (SW: the scalar words). */
#define S512_COLUMN_QRS(W) \
	W##0, W##4, W##8, W##12,  W##5, W##9, W##13, W##1, \
	W##10, W##14, W##2, W##6,  W##15, W##3, W##7, W##11
#define S512_ROW_QRS(W) \
	W##0, W##1, W##2, W##3,  W##5, W##6, W##7, W##4, \
	W##10, W##11, W##8, W##9,  W##15, W##12, W##13, W##14

/* One Salsa20 double round (column round, row round) on words %V0..%V15,
 * t the step temporary.  HOOK, if given, is a macro run with Q+0 .. Q+11
 * at twelve points spread over the 32 steps (six per round: a stitched
 * routine's MAC parts); without it the double round is the plain one, 96
 * vector ops.  STEP (default S512_STEP) does one step on word numbers; a
 * routine running two groups passes one doing the step on both. */
.macro SALSA512_DROUND v, t, hook=SALSA512_NOHOOK, q=0, step=S512_STEP
	/* column round: x4, x9, x14, x3; x8, x13, x2, x7; x12, x1, x6, x11;
	 * x0, x5, x10, x15 */
	S512_ROUND \v, \t, \hook, \q+0, \step, S512_COLUMN_QRS()
	/* row round: x1, x6, x11, x12; x2, x7, x8, x13; x3, x4, x9, x14;
	 * x0, x5, x10, x15 */
	S512_ROUND \v, \t, \hook, \q+6, \step, S512_ROW_QRS()
.endm

/* Counter lanes of the first group: lane j of lo/hi = low/high dword of
 * the 64-bit counter in words 8-9 of the state at ST, plus j.  A lane whose
 * low dword wrapped (lo < j) carries into its high dword.  Clobbers k1. */
.macro S512_CTR_INIT n, lo, hi, st
	vpbroadcastd 32(\st), \lo
	vpbroadcastd 36(\st), \hi
	vpaddd	.Ls512_lanes(%rip), \lo, \lo
	vpcmpud	$1, .Ls512_lanes(%rip), \lo, %k1	/* lo < j: wrapped */
	vpaddd	.Ls512_one(%rip){1to\n}, \hi, \hi{%k1}
.endm

/* Counter lanes of the next group: every lane (N of them) + STEP (16, 8
 * or 17), with carry (a low dword wrapped iff it is now below STEP).
 * Clobbers k1. */
.macro S512_CTR_NEXT n, lo, hi, step
	vpaddd	.Ls512_dw\step(%rip){1to\n}, \lo, \lo
	vpcmpud	$1, .Ls512_dw\step(%rip){1to\n}, \lo, %k1
	vpaddd	.Ls512_one(%rip){1to\n}, \hi, \hi{%k1}
.endm

/* Words of the group's input: the state at ST broadcast to every lane,
 * words 8-9 from the counter lanes lo/hi. */
.macro S512_LOAD v, lo, hi, st
	.irp i, 0,1,2,3,4,5,6,7,10,11,12,13,14,15
	vpbroadcastd (4*\i)(\st), %\v\i
	.endr
	vmovdqa32 \lo, %\v\()8
	vmovdqa32 \hi, %\v\()9
.endm

/* Feed-forward: the group's input added back to the rounds' result. */
.macro S512_FEED v, n, lo, hi, st
	.irp i, 0,1,2,3,4,5,6,7,10,11,12,13,14,15
	vpaddd	(4*\i)(\st){1to\n}, %\v\i, %\v\i
	.endr
	vpaddd	\lo, %\v\()8, %\v\()8
	vpaddd	\hi, %\v\()9, %\v\()9
.endm

/* In-lane 4x4 dword transpose of words x0..x3 (register names) within
 * every 128-bit lane: afterwards x1, t0, x3, x0 hold in 128-bit lane k the
 * four words of block 4k+0, 4k+1, 4k+2, 4k+3 (of the 128-bit lane's
 * blocks); x2 and t1 are free.  (TRANSPOSE4 of transpose-amd64-avx2.h,
 * EVEX-encodable here: any of the 32 registers.) */
.macro S512_TRANSPOSE4 x0, x1, x2, x3, t0, t1
	vpunpckldq  \x1, \x0, \t0		/* x0_0 x1_0 x0_1 x1_1 */
	vpunpckhdq  \x1, \x0, \x0		/* x0_2 x1_2 x0_3 x1_3 */
	vpunpckldq  \x3, \x2, \t1		/* x2_0 x3_0 x2_1 x3_1 */
	vpunpckhdq  \x3, \x2, \x2		/* x2_2 x3_2 x2_3 x3_3 */
	vpunpcklqdq \t1, \t0, \x1		/* dword lane 0 of each 128-bit lane */
	vpunpckhqdq \t1, \t0, \t0		/* lane 1 */
	vpunpcklqdq \x2, \x0, \x3		/* lane 2 */
	vpunpckhqdq \x2, \x0, \x0		/* lane 3 */
.endm

/* 16-block output for one i in 0..3: r0..r3 hold words 0-3, 4-7, 8-11,
 * 12-15 of block i + 4k in 128-bit lane k.  A 4x4 transpose of 128-bit
 * lanes gives whole blocks i, i+4, i+8, i+12, each xored with SRC and
 * stored to DST (base registers).  a, b, c, d scratch; r0..r3 kept. */
.macro S512_OUT16 r0, r1, r2, r3, i, a, b, c, d, src, dst
	vshufi32x4 $0x44, \r1, \r0, \a		/* r0.l0 r0.l1 r1.l0 r1.l1 */
	vshufi32x4 $0xee, \r1, \r0, \b		/* r0.l2 r0.l3 r1.l2 r1.l3 */
	vshufi32x4 $0x44, \r3, \r2, \c		/* r2.l0 r2.l1 r3.l0 r3.l1 */
	vshufi32x4 $0xee, \r3, \r2, \d		/* r2.l2 r2.l3 r3.l2 r3.l3 */
	vshufi32x4 $0x88, \c, \a, \r0		/* lanes 0 of r0..r3: block i */
	vshufi32x4 $0xdd, \c, \a, \a		/* lanes 1: block i+4 */
	vshufi32x4 $0x88, \d, \b, \c		/* lanes 2: block i+8 */
	vshufi32x4 $0xdd, \d, \b, \b		/* lanes 3: block i+12 */
	vpxord	(\i*64)(\src), \r0, \r0
	vpxord	((\i+4)*64)(\src), \a, \a
	vpxord	((\i+8)*64)(\src), \c, \c
	vpxord	((\i+12)*64)(\src), \b, \b
	vmovdqu32 \r0, (\i*64)(\dst)
	vmovdqu32 \a, ((\i+4)*64)(\dst)
	vmovdqu32 \c, ((\i+8)*64)(\dst)
	vmovdqu32 \b, ((\i+12)*64)(\dst)
.endm

/* 8-block output for one i in 0..3: ymm r0..r3 hold words 0-3, 4-7, 8-11,
 * 12-15 of block i in 128-bit lane 0 and of block i+4 in lane 1; joined
 * into the two halves of each block, xored with SRC and stored to DST.
 * a, b scratch; r0..r3 clobbered. */
.macro S512_OUT8 r0, r1, r2, r3, i, a, b, src, dst
	vshufi32x4 $0x0, \r1, \r0, \a		/* block i, bytes 0-31 */
	vshufi32x4 $0x3, \r1, \r0, \r0		/* block i+4, bytes 0-31 */
	vshufi32x4 $0x0, \r3, \r2, \b		/* block i, bytes 32-63 */
	vshufi32x4 $0x3, \r3, \r2, \r2		/* block i+4, bytes 32-63 */
	vpxord	(\i*64)(\src), \a, \a
	vpxord	(\i*64+32)(\src), \b, \b
	vpxord	((\i+4)*64)(\src), \r0, \r0
	vpxord	((\i+4)*64+32)(\src), \r2, \r2
	vmovdqu32 \a, (\i*64)(\dst)
	vmovdqu32 \b, (\i*64+32)(\dst)
	vmovdqu32 \r0, ((\i+4)*64)(\dst)
	vmovdqu32 \r2, ((\i+4)*64+32)(\dst)
.endm

/* Words %V0..%V15 (after the feed-forward) to blocks: the in-lane
 * transposes of each quad of words (scratch t0..t3 keep the moved results,
 * t4 a temporary), then the output step per block index i.  OUT is
 * S512_OUT16 (a..d scratch) or S512_OUT8 (a, b).  Register order after the
 * transposes: quad w's results for i = 0..3 are in x(4w+1), t_w, x(4w+3),
 * x(4w). */
.macro S512_TRANSPOSE_OUT v, t0, t1, t2, t3, t4, out, a, b, c, d, src, dst
	S512_TRANSPOSE4 %\v\()0, %\v\()1, %\v\()2, %\v\()3, \t0, \t4
	S512_TRANSPOSE4 %\v\()4, %\v\()5, %\v\()6, %\v\()7, \t1, \t4
	S512_TRANSPOSE4 %\v\()8, %\v\()9, %\v\()10, %\v\()11, \t2, \t4
	S512_TRANSPOSE4 %\v\()12, %\v\()13, %\v\()14, %\v\()15, \t3, \t4
	.ifc \out, S512_OUT16
	S512_OUT16 %\v\()1, %\v\()5, %\v\()9,  %\v\()13, 0, \a, \b, \c, \d, \src, \dst
	S512_OUT16 \t0,     \t1,     \t2,      \t3,      1, \a, \b, \c, \d, \src, \dst
	S512_OUT16 %\v\()3, %\v\()7, %\v\()11, %\v\()15, 2, \a, \b, \c, \d, \src, \dst
	S512_OUT16 %\v\()0, %\v\()4, %\v\()8,  %\v\()12, 3, \a, \b, \c, \d, \src, \dst
	.else
	S512_OUT8 %\v\()1, %\v\()5, %\v\()9,  %\v\()13, 0, \a, \b, \src, \dst
	S512_OUT8 \t0,     \t1,     \t2,      \t3,      1, \a, \b, \src, \dst
	S512_OUT8 %\v\()3, %\v\()7, %\v\()11, %\v\()15, 2, \a, \b, \src, \dst
	S512_OUT8 %\v\()0, %\v\()4, %\v\()8,  %\v\()12, 3, \a, \b, \src, \dst
	.endif
.endm

#endif /* GCRYLIKE_SALSA20_AMD64_AVX512_H */
