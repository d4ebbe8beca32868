/* salsa20-amd64-avx2.h - what the AVX2 Salsa20 routines of eight blocks in
 * transposed form share (salsa20-amd64-avx2.S, and the stitched
 * salsa20-poly1305-amd64-avx2.S): the counter offsets, the quarter-round
 * steps, the double round (with an optional hook between its steps), the
 * counter lanes, the feed-forward and (from transpose-amd64-avx2.h) the
 * transpose and the output step.
 * Included once per .S file, after asm-common-amd64.h; it leaves the
 * assembler in .text and defines T (%ymm2) and U (%ymm8), the two step
 * temporaries (#undef them after the last use if the names are wanted).
 *
 * Transposed form: one ymm per state word, dword lane j = block j of the
 * group of eight.
 *
 * Register map at every half-round boundary (and at round loop entry/exit):
 *   ymm_i   word x_i for i in {0,1,3,4,5,6,7,9,10,11,12,13,14,15}
 *   ymm2    T, ymm8  U: the two temporaries of every step
 *   slot SA word x8        slot SB word x2      (two 32-byte aligned
 *   memory slots given to SALSA_DROUND by the including routine)
 *
 * Salsa20 quarter-round (a,b,c,d):
 *   b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18
 *   column round  Q1 (0,4,8,12)  Q2 (5,9,13,1)   Q3 (10,14,2,6)  Q4 (15,3,7,11)
 *   row round     Q1 (0,1,2,3)   Q2 (5,6,7,4)    Q3 (10,11,8,9)  Q4 (15,12,13,14)
 * In both rounds the c words of Q1 and Q3 are {x8, x2} and their a words are
 * x0 and x10.  So ymm0 and ymm10 each carry one a word and, between steps 2
 * and 4, one c word: at step 2 the a word (next needed only as the XOR
 * target of step 4) goes to the c word's slot and the c word comes in; at
 * step 4 they trade back.  A slot's load is issued before the store to it in
 * program order, so each pair needs only one slot, and the load always reads
 * a value stored two steps earlier: no spill is on the dependency chain.
 * Each round runs its four quarter-rounds interleaved step by step; every
 * step is add, shift, shift, xor, xor (5 vector ALU ops), 160 per double
 * round, plus 4 loads and 4 stores.
 */
#ifndef GCRYLIKE_SALSA20_AMD64_AVX2_H
#define GCRYLIKE_SALSA20_AMD64_AVX2_H

#include "transpose-amd64-avx2.h"

GCRY_RODATA
.balign 32
/* blocks8: per-lane counter offsets as qwords.  vshufps takes two dwords
 * per 128-bit lane from each source, so offsets {0,1 | 4,5} and {2,3 | 6,7}
 * give lanes 0..7 in order after the even/odd dword selection. */
.Lsalsa_q0145:
	.quad 0, 1, 4, 5
.Lsalsa_q2367:
	.quad 2, 3, 6, 7

.text

#define T	%ymm2
#define U	%ymm8

/* x ^= (p + q) <<< k   (x, p, q registers) */
.macro QSTEP x, p, q, k
	vpaddd	\q, \p, T
	vpslld	$\k, T, U
	vpsrld	$(32 - \k), T, T
	vpxor	U, \x, \x
	vpxor	T, \x, \x
.endm

/* Same step with a trade through slot S: the word to update is in S, the
 * word now in register x goes to S, and the result lands in x.  q may be x
 * (it is read by the add first).  The load of S precedes the store. */
.macro QSTEP_SWAP x, p, q, k, S
	vpaddd	\q, \p, T
	vpslld	$\k, T, U
	vpsrld	$(32 - \k), T, T
	vpxor	T, U, U			/* U = (p + q) <<< k */
	vmovdqa	\S, T			/* T = incoming word */
	vmovdqa	\x, \S			/* outgoing word to the slot */
	vpxor	T, U, \x
.endm

/* The default HOOK of SALSA_DROUND: nothing between the steps. */
.macro SALSA_NOHOOK q
.endm

/* One Salsa20 double round (column round, row round) of the transposed
 * form, lanes 0..7, slots SA (x8) and SB (x2).  HOOK, if given, is a macro
 * run with Q+0 .. Q+11 at twelve points spread over the 32 steps (six per
 * round: the stitched routine's Poly1305 parts); without it the double
 * round is the plain one. */
.macro SALSA_DROUND SA, SB, hook=SALSA_NOHOOK, q=0
	/* ---- column round, lanes 0..7 ---- */
	/* step 1: x4, x9, x14, x3 */
	QSTEP	%ymm4,  %ymm0,  %ymm12, 7
	QSTEP	%ymm9,  %ymm5,  %ymm1,  7
	QSTEP	%ymm14, %ymm10, %ymm6,  7
	\hook	\q+0
	QSTEP	%ymm3,  %ymm15, %ymm11, 7
	/* step 2: x8, x13, x2, x7.  x0 -> SA, ymm0 := x8; x10 -> SB, ymm10 := x2 */
	QSTEP_SWAP %ymm0,  %ymm4,  %ymm0,  9, \SA
	\hook	\q+1
	QSTEP	%ymm13, %ymm9,  %ymm5,  9
	QSTEP_SWAP %ymm10, %ymm14, %ymm10, 9, \SB
	QSTEP	%ymm7,  %ymm3,  %ymm15, 9
	\hook	\q+2
	/* step 3: x12, x1, x6, x11   (x8 in ymm0, x2 in ymm10) */
	QSTEP	%ymm12, %ymm0,  %ymm4,  13
	QSTEP	%ymm1,  %ymm13, %ymm9,  13
	QSTEP	%ymm6,  %ymm10, %ymm14, 13
	\hook	\q+3
	QSTEP	%ymm11, %ymm7,  %ymm3,  13
	/* step 4: x0, x5, x10, x15.  x8 -> SA, ymm0 := x0; x2 -> SB, ymm10 := x10 */
	QSTEP_SWAP %ymm0,  %ymm12, %ymm0,  18, \SA
	\hook	\q+4
	QSTEP	%ymm5,  %ymm1,  %ymm13, 18
	QSTEP_SWAP %ymm10, %ymm6,  %ymm10, 18, \SB
	QSTEP	%ymm15, %ymm11, %ymm7,  18
	\hook	\q+5

	/* ---- row round, lanes 0..7 ---- */
	/* step 1: x1, x6, x11, x12 */
	QSTEP	%ymm1,  %ymm0,  %ymm3,  7
	QSTEP	%ymm6,  %ymm5,  %ymm4,  7
	QSTEP	%ymm11, %ymm10, %ymm9,  7
	\hook	\q+6
	QSTEP	%ymm12, %ymm15, %ymm14, 7
	/* step 2: x2, x7, x8, x13.  x0 -> SB, ymm0 := x2; x10 -> SA, ymm10 := x8 */
	QSTEP_SWAP %ymm0,  %ymm1,  %ymm0,  9, \SB
	\hook	\q+7
	QSTEP	%ymm7,  %ymm6,  %ymm5,  9
	QSTEP_SWAP %ymm10, %ymm11, %ymm10, 9, \SA
	QSTEP	%ymm13, %ymm12, %ymm15, 9
	\hook	\q+8
	/* step 3: x3, x4, x9, x14   (x2 in ymm0, x8 in ymm10) */
	QSTEP	%ymm3,  %ymm0,  %ymm1,  13
	QSTEP	%ymm4,  %ymm7,  %ymm6,  13
	QSTEP	%ymm9,  %ymm10, %ymm11, 13
	\hook	\q+9
	QSTEP	%ymm14, %ymm13, %ymm12, 13
	/* step 4: x0, x5, x10, x15.  x2 -> SB, ymm0 := x0; x8 -> SA, ymm10 := x10 */
	QSTEP_SWAP %ymm0,  %ymm3,  %ymm0,  18, \SB
	\hook	\q+10
	QSTEP	%ymm5,  %ymm4,  %ymm7,  18
	QSTEP_SWAP %ymm10, %ymm9,  %ymm10, 18, \SA
	QSTEP	%ymm15, %ymm14, %ymm13, 18
	\hook	\q+11
.endm

/* Lanes of words 8/9 for the 64-bit counter CTR (a GPR or a memory qword)
 * plus 0..7 (64-bit adds, per-lane carry): lo <- low dwords, hi <- high
 * dwords; t scratch, tx its xmm name. */
.macro CTR8 lo, hi, t, tx, ctr
	vmovq	\ctr, \tx
	vpbroadcastq \tx, \t
	vpaddq	.Lsalsa_q0145(%rip), \t, \hi	/* c+0 c+1 | c+4 c+5 */
	vpaddq	.Lsalsa_q2367(%rip), \t, \t	/* c+2 c+3 | c+6 c+7 */
	vshufps	$0x88, \t, \hi, \lo		/* low dwords, lanes 0..7 */
	vshufps	$0xdd, \t, \hi, \hi		/* high dwords */
.endm


/* x += word i of the state at ST broadcast (feed-forward); t scratch. */
.macro FF x, i, t, st
	vpbroadcastd (4*\i)(\st), \t
	vpaddd	\t, \x, \x
.endm

#endif /* GCRYLIKE_SALSA20_AMD64_AVX2_H */
