/* salsa20-amd64-sse2.S - Salsa20 keystream XOR, four blocks in parallel, SSE2.
 *
 * Written for gcrylike from D. J. Bernstein, "Salsa20 specification".
 *
 * ABI (System V AMD64):
 *
 *   unsigned int _gcry_salsa20_amd64_sse2_blocks4(uint32_t *state,    rdi
 *                                                 uint8_t *dst,        rsi
 *                                                 const uint8_t *src,  rdx
 *                                                 size_t nblocks,      rcx
 *                                                 unsigned int rounds) r8d
 *
 *   state   16 uint32 words in the standard Salsa20 input layout: words
 *           0, 5, 10, 15 constants, 1-4 and 11-14 key, 6-7 nonce, 8-9 the
 *           64-bit block counter (word 8 low, word 9 high).  16-byte aligned.
 *           Only words 8-9 are written: the counter is advanced by nblocks,
 *           carrying from word 8 into word 9 (mod 2^64).
 *   dst/src any alignment; dst may equal src.  dst = src XOR keystream.
 *   nblocks a multiple of 4; 0 returns 0 at once and touches nothing (no
 *           stack, no xmm, no state).  (A remainder nblocks % 4 would be
 *           ignored: those blocks are neither processed nor counted.)
 *   rounds  an even number >= 2 (20 or 12 in practice); rounds/2 double
 *           rounds are run.
 *
 * Return value (burn depth): the number of stack bytes, measured down from
 * the stack pointer at entry, that this routine wrote.  The caller wipes
 * [entry_rsp - depth, entry_rsp) itself; the routine does not wipe its own
 * frame.  The frame is 320 bytes below entry rsp, aligned down to 16, so the
 * value is 320 + (entry_rsp mod 16), i.e. 328 under the ABI's alignment.
 * Every xmm register that held state or keystream (xmm0-xmm15) is cleared
 * before return.  Only caller-saved GPRs are used (rax, rcx, rdx, rsi, rdi,
 * r8, r10, r11); nothing is pushed.
 *
 * Method: "transposed" layout.  Word i of the Salsa20 state for the four
 * blocks (counters c, c+1, c+2, c+3) sits in one xmm register, lane j holding
 * block j.  A quarter-round step  x ^= (p + q) <<< k  is then four paddd /
 * pslld / psrld / pxor on whole registers, with no shuffles in the rounds.
 *
 * Register map at every half-round boundary (also at round loop entry/exit):
 *   xmm_i holds word x_i for i in {0,1,3,4,5,6,7,9,10,11,12,13,14,15};
 *   words x2 and x8 live in stack slots S2 and S8;
 *   xmm2 and xmm8 are the two temporaries T and U of every step.
 * Words x2 and x8 are the "c" words of quarter-rounds 1 and 3 in both the
 * column and the row round; x0 and x10 are the "a" (diagonal) words of the
 * same quarter-rounds.  Inside a half-round the pair trades places: at step 2
 * the diagonal word (whose next use is as the XOR target of step 4) goes to
 * its slot and the c word comes into its register; at step 4 they trade back.
 * So no value stored to the stack is reloaded on the critical dependency
 * chain, and every other word stays in the same register for the whole
 * computation.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

/* Stack frame, offsets from the 16-byte aligned rsp. */
#define IN(i)		((i) * 16)(%rsp)	/* input word i, broadcast to 4 lanes;
						   IN(8)/IN(9): per-lane counter
						   low/high words of this batch */
#define S0		0x100(%rsp)		/* spill slots for x0, x2, x8, x10 */
#define S2		0x110(%rsp)
#define S8		0x120(%rsp)
#define S10		0x130(%rsp)
#define FRAME_SIZE	0x140

/* Temporaries of the quarter-round steps. */
#define T		%xmm2
#define U		%xmm8

/* x ^= (p + q) <<< k.  x, p: registers; q: register or aligned memory. */
.macro QSTEP x, p, q, k
	movdqa	\p, T
	paddd	\q, T
	movdqa	T, U
	pslld	$\k, T
	psrld	$(32 - \k), U
	pxor	T, \x
	pxor	U, \x
.endm

/* Same step, but register x first hands its current word to slot \out and
 * takes the word to be updated from slot \in (q may be x: it is read first). */
.macro QSTEP_SWAP x, p, q, k, out, in
	movdqa	\p, T
	paddd	\q, T
	movdqa	\x, \out
	movdqa	\in, \x
	movdqa	T, U
	pslld	$\k, T
	psrld	$(32 - \k), U
	pxor	T, \x
	pxor	U, \x
.endm

/* Transpose the 4x4 matrix of words held in a, b, c, d (lane j = block j)
 * using temporary t; afterwards block 0 is in t, block 1 in d, block 2 in a,
 * block 3 in b (each register = 4 consecutive words of one block). */
.macro TRANSPOSE4 a, b, c, d, t
	movdqa		\a, \t
	punpckldq	\b, \t		/* a0 b0 a1 b1 */
	punpckhdq	\b, \a		/* a2 b2 a3 b3 */
	movdqa		\c, \b
	punpckldq	\d, \b		/* c0 d0 c1 d1 */
	punpckhdq	\d, \c		/* c2 d2 c3 d3 */
	movdqa		\t, \d
	punpcklqdq	\b, \t		/* a0 b0 c0 d0 */
	punpckhqdq	\b, \d		/* a1 b1 c1 d1 */
	movdqa		\a, \b
	punpcklqdq	\c, \a		/* a2 b2 c2 d2 */
	punpckhqdq	\c, \b		/* a3 b3 c3 d3 */
.endm

/* dst[off] = src[off] ^ v, 16 bytes, unaligned; tmp is clobbered. */
.macro XOR16 off, v, tmp
	movdqu	\off(%rdx), \tmp
	pxor	\v, \tmp
	movdqu	\tmp, \off(%rsi)
.endm

/* Feed-forward, transpose and XOR out one group of four words (g = 0..3:
 * words 4g..4g+3, bytes 16g..16g+15 of each 64-byte block). */
.macro OUTPUT_GROUP g, a, b, c, d, t, tmp
	paddd	IN(4 * \g + 0), \a
	paddd	IN(4 * \g + 1), \b
	paddd	IN(4 * \g + 2), \c
	paddd	IN(4 * \g + 3), \d
	TRANSPOSE4 \a, \b, \c, \d, \t
	XOR16	(16 * \g + 0 * 64), \t, \tmp
	XOR16	(16 * \g + 1 * 64), \d, \tmp
	XOR16	(16 * \g + 2 * 64), \a, \tmp
	XOR16	(16 * \g + 3 * 64), \b, \tmp
.endm

GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_sse2_blocks4)
	/* rdi = state, rsi = dst, rdx = src, rcx = nblocks, r8d = rounds */
	shrq	$2, %rcx			/* rcx = number of 4-block batches */
	jz	.Lzero_blocks

	/* Frame: r11 keeps the entry rsp (CFA = r11 + 8 while it is live). */
	movq	%rsp, %r11
	.cfi_def_cfa_register %r11
	subq	$FRAME_SIZE, %rsp
	andq	$-16, %rsp

	shrl	$1, %r8d			/* r8d = double rounds */

	/* Broadcast the input words that are the same for all lanes:
	 * IN(i) = state[i] x 4 for i != 8, 9. */
	movdqa	0(%rdi), %xmm0			/* words 0-3 */
	movdqa	16(%rdi), %xmm1			/* words 4-7 */
	movdqa	32(%rdi), %xmm2			/* words 8-11 */
	movdqa	48(%rdi), %xmm3			/* words 12-15 */
	pshufd	$0x00, %xmm0, %xmm4
	pshufd	$0x55, %xmm0, %xmm5
	pshufd	$0xaa, %xmm0, %xmm6
	pshufd	$0xff, %xmm0, %xmm7
	movdqa	%xmm4, IN(0)
	movdqa	%xmm5, IN(1)
	movdqa	%xmm6, IN(2)
	movdqa	%xmm7, IN(3)
	pshufd	$0x00, %xmm1, %xmm4
	pshufd	$0x55, %xmm1, %xmm5
	pshufd	$0xaa, %xmm1, %xmm6
	pshufd	$0xff, %xmm1, %xmm7
	movdqa	%xmm4, IN(4)
	movdqa	%xmm5, IN(5)
	movdqa	%xmm6, IN(6)
	movdqa	%xmm7, IN(7)
	pshufd	$0xaa, %xmm2, %xmm6
	pshufd	$0xff, %xmm2, %xmm7
	movdqa	%xmm6, IN(10)
	movdqa	%xmm7, IN(11)
	pshufd	$0x00, %xmm3, %xmm4
	pshufd	$0x55, %xmm3, %xmm5
	pshufd	$0xaa, %xmm3, %xmm6
	pshufd	$0xff, %xmm3, %xmm7
	movdqa	%xmm4, IN(12)
	movdqa	%xmm5, IN(13)
	movdqa	%xmm6, IN(14)
	movdqa	%xmm7, IN(15)

	movq	32(%rdi), %rax			/* rax = 64-bit block counter */

	.balign 16
.Lbatch_loop:
	/* Per-lane counters c+j (j = 0..3) as 64-bit values, then split into
	 * a vector of low words (x8) and a vector of high words (x9); the
	 * 64-bit adds give each lane its own carry. */
	movq	%rax, %xmm0
	leaq	1(%rax), %r10
	movq	%r10, %xmm1
	leaq	2(%rax), %r10
	movq	%r10, %xmm2
	leaq	3(%rax), %r10
	movq	%r10, %xmm3
	punpcklqdq %xmm1, %xmm0			/* lo0 hi0 lo1 hi1 */
	punpcklqdq %xmm3, %xmm2			/* lo2 hi2 lo3 hi3 */
	pshufd	$0xd8, %xmm0, %xmm0		/* lo0 lo1 hi0 hi1 */
	pshufd	$0xd8, %xmm2, %xmm2		/* lo2 lo3 hi2 hi3 */
	movdqa	%xmm0, %xmm8
	punpcklqdq %xmm2, %xmm8			/* x8: lo0 lo1 lo2 lo3 */
	movdqa	%xmm0, %xmm9
	punpckhqdq %xmm2, %xmm9			/* x9: hi0 hi1 hi2 hi3 */
	movdqa	%xmm8, IN(8)
	movdqa	%xmm9, IN(9)
	movdqa	%xmm8, S8			/* x8 starts in its slot */
	addq	$4, %rax

	/* Load the working state (map: see header); x2 goes to S2. */
	movdqa	IN(2), %xmm2
	movdqa	%xmm2, S2
	movdqa	IN(0), %xmm0
	movdqa	IN(1), %xmm1
	movdqa	IN(3), %xmm3
	movdqa	IN(4), %xmm4
	movdqa	IN(5), %xmm5
	movdqa	IN(6), %xmm6
	movdqa	IN(7), %xmm7
	movdqa	IN(10), %xmm10
	movdqa	IN(11), %xmm11
	movdqa	IN(12), %xmm12
	movdqa	IN(13), %xmm13
	movdqa	IN(14), %xmm14
	movdqa	IN(15), %xmm15

	movl	%r8d, %r10d			/* r10d = double rounds left */
	testl	%r10d, %r10d
	jz	.Lrounds_done

	.balign 16
.Ldouble_round:
	/* Column round, all four lanes; quarter-rounds (a,b,c,d) =
	 *   Q1 (0,4,8,12)  Q2 (5,9,13,1)  Q3 (10,14,2,6)  Q4 (15,3,7,11)
	 * steps: b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18
	 * interleaved step by step across Q1..Q4. */

	/* step 1: x4, x9, x14, x3 */
	QSTEP	%xmm4,  %xmm0,  %xmm12, 7
	QSTEP	%xmm9,  %xmm5,  %xmm1,  7
	QSTEP	%xmm14, %xmm10, %xmm6,  7
	QSTEP	%xmm3,  %xmm15, %xmm11, 7
	/* step 2: x8, x13, x2, x7.  x0 -> S0, xmm0 := x8; x10 -> S10, xmm10 := x2 */
	QSTEP_SWAP %xmm0,  %xmm4,  %xmm0,  9, S0, S8
	QSTEP	%xmm13, %xmm9,  %xmm5,  9
	QSTEP_SWAP %xmm10, %xmm14, %xmm10, 9, S10, S2
	QSTEP	%xmm7,  %xmm3,  %xmm15, 9
	/* step 3: x12, x1, x6, x11   (x8 in xmm0, x2 in xmm10) */
	QSTEP	%xmm12, %xmm0,  %xmm4,  13
	QSTEP	%xmm1,  %xmm13, %xmm9,  13
	QSTEP	%xmm6,  %xmm10, %xmm14, 13
	QSTEP	%xmm11, %xmm7,  %xmm3,  13
	/* step 4: x0, x5, x10, x15.  x8 -> S8, xmm0 := x0; x2 -> S2, xmm10 := x10 */
	QSTEP_SWAP %xmm0,  %xmm12, %xmm0,  18, S8, S0
	QSTEP	%xmm5,  %xmm1,  %xmm13, 18
	QSTEP_SWAP %xmm10, %xmm6,  %xmm10, 18, S2, S10
	QSTEP	%xmm15, %xmm11, %xmm7,  18

	/* Row round, all four lanes; quarter-rounds (a,b,c,d) =
	 *   Q1 (0,1,2,3)  Q2 (5,6,7,4)  Q3 (10,11,8,9)  Q4 (15,12,13,14)
	 * same steps; register map again as in the header. */

	/* step 1: x1, x6, x11, x12 */
	QSTEP	%xmm1,  %xmm0,  %xmm3,  7
	QSTEP	%xmm6,  %xmm5,  %xmm4,  7
	QSTEP	%xmm11, %xmm10, %xmm9,  7
	QSTEP	%xmm12, %xmm15, %xmm14, 7
	/* step 2: x2, x7, x8, x13.  x0 -> S0, xmm0 := x2; x10 -> S10, xmm10 := x8 */
	QSTEP_SWAP %xmm0,  %xmm1,  %xmm0,  9, S0, S2
	QSTEP	%xmm7,  %xmm6,  %xmm5,  9
	QSTEP_SWAP %xmm10, %xmm11, %xmm10, 9, S10, S8
	QSTEP	%xmm13, %xmm12, %xmm15, 9
	/* step 3: x3, x4, x9, x14   (x2 in xmm0, x8 in xmm10) */
	QSTEP	%xmm3,  %xmm0,  %xmm1,  13
	QSTEP	%xmm4,  %xmm7,  %xmm6,  13
	QSTEP	%xmm9,  %xmm10, %xmm11, 13
	QSTEP	%xmm14, %xmm13, %xmm12, 13
	/* step 4: x0, x5, x10, x15.  x2 -> S2, xmm0 := x0; x8 -> S8, xmm10 := x10 */
	QSTEP_SWAP %xmm0,  %xmm3,  %xmm0,  18, S2, S0
	QSTEP	%xmm5,  %xmm4,  %xmm7,  18
	QSTEP_SWAP %xmm10, %xmm9,  %xmm10, 18, S8, S10
	QSTEP	%xmm15, %xmm14, %xmm13, 18

	subl	$1, %r10d
	jnz	.Ldouble_round

.Lrounds_done:
	/* Feed-forward (x_i += input word i), transpose to four 64-byte
	 * blocks, XOR with src, store to dst.  Words 4-7 and 12-15 first,
	 * using the free xmm2/xmm8; then x2 and x8 come back from their slots
	 * and the freed xmm4/xmm5 serve as temporaries. */
	OUTPUT_GROUP 1, %xmm4,  %xmm5,  %xmm6,  %xmm7,  %xmm2, %xmm8
	OUTPUT_GROUP 3, %xmm12, %xmm13, %xmm14, %xmm15, %xmm2, %xmm8
	movdqa	S2, %xmm2
	movdqa	S8, %xmm8
	OUTPUT_GROUP 0, %xmm0,  %xmm1,  %xmm2,  %xmm3,  %xmm4, %xmm5
	OUTPUT_GROUP 2, %xmm8,  %xmm9,  %xmm10, %xmm11, %xmm4, %xmm5

	addq	$256, %rdx
	addq	$256, %rsi
	subq	$1, %rcx
	jnz	.Lbatch_loop

	/* Write back the advanced counter (words 8-9 only). */
	movq	%rax, 32(%rdi)

	/* Clear every xmm register that held state or keystream. */
	GCRY_ZERO_XMM 16

	/* Burn depth = entry rsp - lowest written address (= aligned rsp). */
	movq	%r11, %rax
	subq	%rsp, %rax
	movq	%r11, %rsp
	.cfi_def_cfa_register %rsp
	ret

.Lzero_blocks:
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_salsa20_amd64_sse2_blocks4)


/**********************************************************************
 * HSalsa20 (XSalsa20's subkey derivation), one block, SSE2 only.
 *
 *   unsigned int _gcry_hsalsa20_amd64_sse2(const uint32_t *state,     rdi
 *                                          uint8_t *out32,            rsi
 *                                          unsigned int rounds);      edx
 *
 * Written from "Extending the Salsa20 nonce": state is the Salsa20 input
 * with constants in words 0, 5, 10, 15, the key in 1-4 and 11-14 and the
 * 16-byte input in words 6-9 (any alignment, read only).  out32 (any
 * alignment) receives words 0, 5, 10, 15, 6, 7, 8, 9 of the state after
 * `rounds` rounds (rounds/2 double rounds; 20 for XSalsa20), without the
 * feed-forward, little-endian.  No stack use: returns burn depth 0.
 * xmm0-xmm7 (all it touches) are cleared before return.
 *
 * Row/diagonal form: lane j of each register belongs to column
 * quarter-round j:
 *   A = x0  x5  x10 x15   (a words)       B = x4  x9  x14 x3   (b)
 *   C = x8  x13 x2  x7    (c)             D = x12 x1  x6  x11  (d)
 * Column round:  B ^= (A+D)<<<7; C ^= (B+A)<<<9; D ^= (C+B)<<<13;
 *                A ^= (D+C)<<<18.
 * For the row round the registers are rotated by lanes so that lane j
 * belongs to row quarter-round j: D -> (x1 x6 x11 x12) by pshufd 0x39 takes
 * the b role, C -> (x2 x7 x8 x13) by 0x4e the c role, B -> (x3 x4 x9 x14)
 * by 0x93 the d role:
 *                D ^= (A+B)<<<7; C ^= (D+A)<<<9; B ^= (C+D)<<<13;
 *                A ^= (B+C)<<<18,
 * and rotated back afterwards.  Each pshufd is issued right after the
 * register's last use in its half-round, off the step dependency chain.
 *
 * xmm0 A, xmm1 B, xmm2 C, xmm3 D; xmm4, xmm5 step temporaries; xmm4-xmm7
 * setup/output scratch.  edx double rounds left.
 **********************************************************************/

/* x ^= (p + q) <<< k, temporaries xmm4, xmm5 */
.macro HSTEP x, p, q, k
	movdqa	\p, %xmm4
	paddd	\q, %xmm4
	movdqa	%xmm4, %xmm5
	pslld	$\k, %xmm4
	psrld	$(32 - \k), %xmm5
	pxor	%xmm4, \x
	pxor	%xmm5, \x
.endm

GCRY_FUNC_BEGIN(_gcry_hsalsa20_amd64_sse2)
	/* Rows R0..R3 (words 4r..4r+3) -> diagonal form.  First the qword
	 * merges (shufps 0xe4 = lanes 0,1 of dst, lanes 2,3 of src)
	 *   M02 = x0 x1 x10 x11   M20 = x8 x9 x2 x3
	 *   M13 = x4 x5 x14 x15   M31 = x12 x13 x6 x7,
	 * then shufps 0xd8 (lanes 0,2 of dst, lanes 1,3 of src) gives e.g.
	 * x0 x10 x5 x15, put in order by pshufd 0xd8. */
	movdqu	0(%rdi), %xmm4			/* R0 */
	movdqu	16(%rdi), %xmm5			/* R1 */
	movdqu	32(%rdi), %xmm6			/* R2 */
	movdqu	48(%rdi), %xmm7			/* R3 */
	movdqa	%xmm4, %xmm0
	shufps	$0xe4, %xmm6, %xmm0		/* M02 */
	movdqa	%xmm6, %xmm2
	shufps	$0xe4, %xmm4, %xmm2		/* M20 */
	movdqa	%xmm5, %xmm1
	shufps	$0xe4, %xmm7, %xmm1		/* M13 */
	movdqa	%xmm7, %xmm3
	shufps	$0xe4, %xmm5, %xmm3		/* M31 */
	movdqa	%xmm0, %xmm4
	shufps	$0xd8, %xmm1, %xmm4		/* x0  x10 x5  x15 */
	movdqa	%xmm1, %xmm5
	shufps	$0xd8, %xmm2, %xmm5		/* x4  x14 x9  x3  */
	movdqa	%xmm2, %xmm6
	shufps	$0xd8, %xmm3, %xmm6		/* x8  x2  x13 x7  */
	movdqa	%xmm3, %xmm7
	shufps	$0xd8, %xmm0, %xmm7		/* x12 x6  x1  x11 */
	pshufd	$0xd8, %xmm4, %xmm0		/* A */
	pshufd	$0xd8, %xmm5, %xmm1		/* B */
	pshufd	$0xd8, %xmm6, %xmm2		/* C */
	pshufd	$0xd8, %xmm7, %xmm3		/* D */

	shrl	$1, %edx			/* double rounds */
	jz	.Lhs_out

	.balign 16
.Lhs_dround:
	/* column round */
	HSTEP	%xmm1, %xmm0, %xmm3, 7		/* B ^= (A+D)<<<7 */
	HSTEP	%xmm2, %xmm1, %xmm0, 9		/* C ^= (B+A)<<<9 */
	HSTEP	%xmm3, %xmm2, %xmm1, 13		/* D ^= (C+B)<<<13 */
	pshufd	$0x93, %xmm1, %xmm1		/* B -> x3 x4 x9 x14 (d role) */
	movdqa	%xmm3, %xmm4			/* A ^= (D+C)<<<18 ... */
	paddd	%xmm2, %xmm4
	pshufd	$0x39, %xmm3, %xmm3		/* D -> x1 x6 x11 x12 (b role) */
	pshufd	$0x4e, %xmm2, %xmm2		/* C -> x2 x7 x8 x13 (c role) */
	movdqa	%xmm4, %xmm5
	pslld	$18, %xmm4
	psrld	$14, %xmm5
	pxor	%xmm4, %xmm0
	pxor	%xmm5, %xmm0
	/* row round */
	HSTEP	%xmm3, %xmm0, %xmm1, 7		/* D ^= (A+B)<<<7 */
	HSTEP	%xmm2, %xmm3, %xmm0, 9		/* C ^= (D+A)<<<9 */
	HSTEP	%xmm1, %xmm2, %xmm3, 13		/* B ^= (C+D)<<<13 */
	pshufd	$0x93, %xmm3, %xmm3		/* D back to x12 x1 x6 x11 */
	movdqa	%xmm1, %xmm4			/* A ^= (B+C)<<<18 ... */
	paddd	%xmm2, %xmm4
	pshufd	$0x39, %xmm1, %xmm1		/* B back to x4 x9 x14 x3 */
	pshufd	$0x4e, %xmm2, %xmm2		/* C back to x8 x13 x2 x7 */
	movdqa	%xmm4, %xmm5
	pslld	$18, %xmm4
	psrld	$14, %xmm5
	pxor	%xmm4, %xmm0
	pxor	%xmm5, %xmm0
	subl	$1, %edx
	jnz	.Lhs_dround

.Lhs_out:
	/* out32 = A (x0 x5 x10 x15), then x6 x7 x8 x9:
	 *   unpackhi(D, C) = x6 x2 x11 x7,  unpacklo(C, B) = x8 x4 x13 x9,
	 *   shufps 0xcc picks lanes 0,3 of each. */
	movdqu	%xmm0, 0(%rsi)
	movdqa	%xmm3, %xmm5
	punpckhdq %xmm2, %xmm5			/* x6 x2 x11 x7 */
	punpckldq %xmm1, %xmm2			/* x8 x4 x13 x9 */
	shufps	$0xcc, %xmm2, %xmm5		/* x6 x7 x8 x9 */
	movdqu	%xmm5, 16(%rsi)

	GCRY_ZERO_XMM 8
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hsalsa20_amd64_sse2)

#endif /* __x86_64__ */
