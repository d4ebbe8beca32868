/* salsa20-amd64-avx512.S - Salsa20 keystream XOR (16 blocks in zmm, 8 in
 * ymm) and HSalsa20 for amd64 with AVX512F + AVX512VL.
 *
 * Written for gcrylike from D. J. Bernstein, "Salsa20 specification" and
 * "Extending the Salsa20 nonce" (HSalsa20 / XSalsa20).
 *
 * ABI (System V AMD64, all routines hidden globals), the same as the AVX2
 * routines of salsa20-amd64-avx2.S:
 *
 *   unsigned int _gcry_salsa20_amd64_avx512_blocks16(uint32_t *state,   rdi
 *                                                    uint8_t *dst,       rsi
 *                                                    const uint8_t *src, rdx
 *                                                    size_t nblocks,     rcx
 *                                                    unsigned int rounds) r8d
 *   unsigned int _gcry_salsa20_amd64_avx512_blocks8(...the same...)
 *
 *   state   16 uint32 words in the standard Salsa20 input layout: words
 *           0, 5, 10, 15 constants, 1-4 and 11-14 key, 6-7 nonce, 8-9 the
 *           64-bit block counter (word 8 low, word 9 high).  Any alignment.
 *           Only words 8-9 are written: the counter is advanced by nblocks;
 *           block j of the call uses counter + j mod 2^64 (each lane
 *           carries from word 8 into word 9 on its own).
 *   dst/src any alignment; dst may equal src.  dst = src XOR keystream.
 *   nblocks a multiple of 16 (resp. 8); 0 returns 0 at once and touches
 *           nothing.  (A remainder is ignored: neither processed nor
 *           counted.)
 *   rounds  an even number (20, 12, 8 in practice; 0 gives the bare
 *           feed-forward); rounds/2 double rounds are run.
 *
 *   unsigned int _gcry_hsalsa20_amd64_avx512(const uint32_t *state,     rdi
 *                                            uint8_t *out32,            rsi
 *                                            unsigned int rounds);      edx
 *
 *   state   constants 0, 5, 10, 15, key 1-4 and 11-14, the 16-byte input in
 *           words 6-9; any alignment, read only.  out32 (any alignment)
 *           receives words 0, 5, 10, 15, 6, 7, 8, 9 of the state after
 *           `rounds` rounds, no feed-forward, little-endian.
 *
 * Burn convention (as the rest of gcrylike): each routine returns the
 * number of stack bytes below its entry rsp that it wrote.  None of these
 * uses the stack (32 vector registers hold everything): all return 0.
 * Every vector register that held state or keystream is cleared before
 * return: vzeroall for zmm0-15, vpxord for the zmm16-31 used (vzeroall
 * does not reach them).  k1 holds only counter carries.  GPRs used are
 * caller-saved only.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "salsa20-amd64-avx512.h"

/**********************************************************************
 * blocks16 / blocks8: 16 (8) blocks in parallel, transposed form: zmm_i
 * (ymm_i) = word x_i, dword lane j = block j of the group (counter c+j).
 *
 *   v0..v15   words              v16      step temporary
 *   v17, v18  counter lanes of the group (low, high dwords), advanced
 *             in registers from group to group
 *   v19..v23  transpose scratch, v24..v27 output scratch (v24, v25 only
 *             in blocks8)
 * GPRs: rdi state, rsi dst, rdx src, rcx groups left, r8d double rounds,
 * r9 64-bit counter (stored back at the end), r10d double rounds left.
 *
 * Per group of 16: 10 x 96 ops of rounds at 20 rounds, 16 feed-forward
 * adds, 64 shuffles, 16 xors; the 8-block form has the same op count on
 * half-width registers.
 **********************************************************************/

/* One routine body; V register prefix, N lanes, OUT output macro. */
.macro S512_BLOCKS v, n, out, pfx
	xorl	%eax, %eax
	.if \n == 16
	shrq	$4, %rcx			/* rcx = groups of 16 blocks */
	.else
	shrq	$3, %rcx			/* rcx = groups of 8 blocks */
	.endif
	jz	.L\pfx\()_done

	movq	32(%rdi), %r9			/* 64-bit block counter */
	shrl	$1, %r8d			/* r8d = double rounds */
	S512_CTR_INIT \n, %\v\()17, %\v\()18, %rdi

.balign 32
.L\pfx\()_group:
	/* The group's input: words broadcast, counter lanes in 8 and 9. */
	S512_LOAD \v, %\v\()17, %\v\()18, %rdi

	movl	%r8d, %r10d			/* r10d = double rounds left */
	testl	%r10d, %r10d
	jz	.L\pfx\()_rounds_done

.balign 32
.L\pfx\()_dround:
	SALSA512_DROUND \v, %\v\()16
	subl	$1, %r10d
	jnz	.L\pfx\()_dround

.L\pfx\()_rounds_done:
	/* Feed-forward, back to blocks, xor with src, store. */
	S512_FEED \v, \n, %\v\()17, %\v\()18, %rdi
	S512_TRANSPOSE_OUT \v, %\v\()19, %\v\()20, %\v\()21, %\v\()22, %\v\()23, \out, %\v\()24, %\v\()25, %\v\()26, %\v\()27, %rdx, %rsi

	S512_CTR_NEXT \n, %\v\()17, %\v\()18
	addq	$\n, %r9
	addq	$(\n*64), %rdx
	addq	$(\n*64), %rsi
	subq	$1, %rcx
	jnz	.L\pfx\()_group

	movq	%r9, 32(%rdi)			/* words 8-9 only */
	/* Clear the words (zmm0-15) and v16-v27 (keystream, counter lanes). */
	vzeroall
	.irp r, 16,17,18,19,20,21,22,23,24,25,26,27
	vpxord	%xmm\r, %xmm\r, %xmm\r		/* EVEX: clears all 512 bits */
	.endr
.L\pfx\()_done:
	ret
.endm

GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_avx512_blocks16)
	S512_BLOCKS zmm, 16, S512_OUT16, s16
GCRY_FUNC_END(_gcry_salsa20_amd64_avx512_blocks16)

GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_avx512_blocks8)
	S512_BLOCKS ymm, 8, S512_OUT8, s8
GCRY_FUNC_END(_gcry_salsa20_amd64_avx512_blocks8)

/**********************************************************************
 * HSalsa20, one block, row/diagonal form in four xmm registers.
 *
 * Lane j of each register belongs to column quarter-round j:
 *   A = x0  x5  x10 x15   (a words)       B = x4  x9  x14 x3   (b)
 *   C = x8  x13 x2  x7    (c)             D = x12 x1  x6  x11  (d)
 * Column round:  B ^= (A+D)<<<7; C ^= (B+A)<<<9; D ^= (C+B)<<<13;
 *                A ^= (D+C)<<<18.
 * For the row round the registers are rotated by lanes so that lane j
 * belongs to row quarter-round j: D by pshufd 0x39 (x1 x6 x11 x12) takes
 * the b role, C by 0x4e (x2 x7 x8 x13) the c role, B by 0x93 (x3 x4 x9
 * x14) the d role; rotated back after the row round.  Each rotation is
 * issued after the register's last use in its half-round, off the chain
 * of steps (3 cycles a step with vprold: add, rotate, xor).
 *
 * xmm0 A, xmm1 B, xmm2 C, xmm3 D, xmm4 step temporary (xmm4..xmm7 set-up
 * and output scratch); rdi state, rsi out32, edx double rounds.
 **********************************************************************/

/* x ^= (p + q) <<< k, temporary xmm4 */
.macro HS512_STEP x, p, q, k
	vpaddd	\q, \p, %xmm4
	vprold	$\k, %xmm4, %xmm4
	vpxord	%xmm4, \x, \x
.endm

GCRY_FUNC_BEGIN(_gcry_hsalsa20_amd64_avx512)
	/* Rows R0..R3 (words 4r..4r+3) to the diagonal form: qword blends
	 * M02 = (x0 x1 x10 x11), M20 = (x8 x9 x2 x3), M13 = (x4 x5 x14 x15),
	 * M31 = (x12 x13 x6 x7); shufps of lanes 0,2 of one and 1,3 of the
	 * next gives e.g. x0 x10 x5 x15, put in order by pshufd 0xd8. */
	vmovdqu	0(%rdi), %xmm4			/* R0 */
	vmovdqu	16(%rdi), %xmm5			/* R1 */
	vmovdqu	32(%rdi), %xmm6			/* R2 */
	vmovdqu	48(%rdi), %xmm7			/* R3 */
	vpblendd $0x0c, %xmm6, %xmm4, %xmm0	/* M02 */
	vpblendd $0x0c, %xmm4, %xmm6, %xmm2	/* M20 */
	vpblendd $0x0c, %xmm7, %xmm5, %xmm1	/* M13 */
	vpblendd $0x0c, %xmm5, %xmm7, %xmm3	/* M31 */
	vshufps	$0xd8, %xmm1, %xmm0, %xmm4	/* x0  x10 x5  x15 */
	vshufps	$0xd8, %xmm2, %xmm1, %xmm5	/* x4  x14 x9  x3  */
	vshufps	$0xd8, %xmm3, %xmm2, %xmm6	/* x8  x2  x13 x7  */
	vshufps	$0xd8, %xmm0, %xmm3, %xmm7	/* x12 x6  x1  x11 */
	vpshufd	$0xd8, %xmm4, %xmm0		/* A */
	vpshufd	$0xd8, %xmm5, %xmm1		/* B */
	vpshufd	$0xd8, %xmm6, %xmm2		/* C */
	vpshufd	$0xd8, %xmm7, %xmm3		/* D */

	shrl	$1, %edx			/* double rounds */
	jz	.Lhs512_out

.balign 32
.Lhs512_dround:
	/* column round */
	HS512_STEP %xmm1, %xmm0, %xmm3, 7	/* B ^= (A+D)<<<7 */
	HS512_STEP %xmm2, %xmm1, %xmm0, 9	/* C ^= (B+A)<<<9 */
	HS512_STEP %xmm3, %xmm2, %xmm1, 13	/* D ^= (C+B)<<<13 */
	vpshufd	$0x93, %xmm1, %xmm1		/* B -> x3 x4 x9 x14 (d role) */
	vpaddd	%xmm2, %xmm3, %xmm4		/* A ^= (D+C)<<<18 ... */
	vpshufd	$0x39, %xmm3, %xmm3		/* D -> x1 x6 x11 x12 (b role) */
	vpshufd	$0x4e, %xmm2, %xmm2		/* C -> x2 x7 x8 x13 (c role) */
	vprold	$18, %xmm4, %xmm4
	vpxord	%xmm4, %xmm0, %xmm0
	/* row round */
	HS512_STEP %xmm3, %xmm0, %xmm1, 7	/* D ^= (A+B)<<<7 */
	HS512_STEP %xmm2, %xmm3, %xmm0, 9	/* C ^= (D+A)<<<9 */
	HS512_STEP %xmm1, %xmm2, %xmm3, 13	/* B ^= (C+D)<<<13 */
	vpshufd	$0x93, %xmm3, %xmm3		/* D back to x12 x1 x6 x11 */
	vpaddd	%xmm2, %xmm1, %xmm4		/* A ^= (B+C)<<<18 ... */
	vpshufd	$0x39, %xmm1, %xmm1		/* B back to x4 x9 x14 x3 */
	vpshufd	$0x4e, %xmm2, %xmm2		/* C back to x8 x13 x2 x7 */
	vprold	$18, %xmm4, %xmm4
	vpxord	%xmm4, %xmm0, %xmm0
	subl	$1, %edx
	jnz	.Lhs512_dround

.Lhs512_out:
	/* out32 = A (x0 x5 x10 x15), then x6 x7 x8 x9:
	 *   unpacklo(C, B) = x8 x4 x13 x9,  unpackhi(D, C) = x6 x2 x11 x7,
	 *   shufps 0xcc picks lanes 0,3 of each. */
	vmovdqu	%xmm0, 0(%rsi)
	vpunpckldq %xmm1, %xmm2, %xmm4		/* x8 x4 x13 x9 */
	vpunpckhdq %xmm2, %xmm3, %xmm5		/* x6 x2 x11 x7 */
	vshufps	$0xcc, %xmm4, %xmm5, %xmm5	/* x6 x7 x8 x9 */
	vmovdqu	%xmm5, 16(%rsi)
	vzeroall				/* xmm0-7 only were used */
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hsalsa20_amd64_avx512)

#endif /* __x86_64__ */
