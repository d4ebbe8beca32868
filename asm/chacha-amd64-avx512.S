/* chacha-amd64-avx512.S - ChaCha20/12/8 and HChaCha for amd64 with
 * AVX-512 (AVX512F, AVX512VL for the ymm/xmm widths).
 *
 * Written from RFC 8439 (ChaCha20 block function, section 2.3) and
 * draft-irtf-cfrg-xchacha (HChaCha20, section 2.2).
 *
 * ABI (System V AMD64, all routines hidden globals):
 *
 *   unsigned int _gcry_chacha_amd64_avx512_blocks16(uint32_t *state,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks,
 *           unsigned int rounds);          -- nblocks a multiple of 16
 *   unsigned int _gcry_chacha_amd64_avx512_blocks8(...same...);  -- of 8
 *   unsigned int _gcry_chacha_amd64_avx512_blocks4(...same...);  -- of 4
 *   unsigned int _gcry_chacha_amd64_avx512_blocks1(...same...);  -- any
 *   unsigned int _gcry_hchacha_amd64_avx512(const uint32_t *state,
 *           uint8_t *out32, unsigned int rounds);
 *   unsigned int _gcry_hchacha4_amd64_avx512(const uint32_t *states,
 *           uint8_t *out128, unsigned int rounds);
 *   unsigned int _gcry_hchacha16_amd64_avx512(const uint32_t *state,
 *           const uint32_t *nonces, uint32_t *out, unsigned int rounds);
 *
 * hchacha4: four HChaCha at once (states: four 16-word states one after
 * the other, 256 bytes; out128: their four 32-byte outputs in order), in
 * the time of one: the single routine is bound by its rounds' latency.
 *
 * hchacha16: sixteen HChaCha sharing words 0-11 (constants and key: state,
 * 16 words, of which 12-15 are not read), word 12 + w of state j being
 * nonces[16 w + j] (w = 0..3); output word k of state j (k = 0..3: words
 * 0-3, k = 4..7: words 12-15) goes to out[16 k + j].  Word-major on both
 * sides, as the transposed form works: no transposes, and throughput-bound
 * where hchacha4 is latency-bound, so it beats hchacha4 from five states on
 * (figures: docs/algorithms.rst, "Adiantum", per-sector cost).
 *
 * state: 16 uint32 words as RFC 8439 (0-3 constants, 4-11 key, 12-15
 * counter/nonce).  Words 12-13 are one 64-bit little-endian block counter
 * (word 12 low); block i of a call uses counter+i, with the carry from word
 * 12 into word 13, and counter+nblocks is stored back.  Nothing but words
 * 12-13 of the state is ever written; only unaligned-tolerant accesses are
 * made to it.  dst = src XOR keystream; dst and src may be unaligned and
 * may be equal.  rounds is any even number (20, 12, 8 in use): rounds/2
 * double rounds are run.  nblocks is rounded down to the routine's
 * multiple; nblocks 0 returns at once.
 *
 * Burn convention: each routine returns the number of bytes below the
 * stack pointer at entry that it wrote.  blocks16 with two groups of 16
 * or more (32 blocks) spills two zmm to the red zone: 128; otherwise, and
 * for all the other routines, 0.  Every vector register they wrote is
 * cleared before return: zmm16-31 by vpxord (vzeroall does not reach
 * them), then zmm0-15 by vzeroall.  k2/k3 (counter carries, no secret) are
 * left as they are.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 64
/* Lane offsets of the block counter: lane j is block j of the group. */
.Lavx512_iota:
	.long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
/* ... and of the second group of a pair (blocks16) */
.Lavx512_iota16:
	.long 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
/* the dword 1 for {1toN} broadcasts */
.Lavx512_one:
	.long 1
/* blocks4: counter + j in lane j of row d (the low qword of each lane) */
.balign 64
.Lavx512_row_ctr:
	.quad 0, 0, 1, 0, 2, 0, 3, 0
/* ... and + 4 each group */
.Lavx512_row_inc4:
	.quad 4, 0, 4, 0, 4, 0, 4, 0
/* blocks1: + 1 each block */
.Lavx512_row_inc1:
	.quad 1, 0

.text

/**********************************************************************
 * The transposed form, for blocks16 and blocks8.  V is the register
 * letter (z, y) and N the lanes (16, 8): one register per state
 * word of a group of N blocks, dword lane j = block j of the group.
 * The rounds need no scratch (vprold rotates in place), so a group
 * takes 16 registers, and zmm takes two groups at once.  The input words
 * are broadcast from the state in memory, both to start a group and for
 * the feed-forward ({1toN} memory operands); the counter lanes are word
 * 12 plus the lane offset, and the carry into word 13 is kept in an
 * opmask (k2, or k3 for the second group) from start to feed-forward.
 * Words 12-13 in memory are the group's first block: they are advanced
 * after each group's feed-forward.
 *   rdi state, rsi dst, rdx src, rcx groups left, r8d rounds,
 *   r10d double rounds left, r11 pairs of groups left (zmm).
 **********************************************************************/

/* The six steps of a round, each done on one quarter round (register
 * numbers a,b,c,d; r the rotation count of ROL_D/ROL_B, "-" for the
 * others). */
.macro ADD_AB V, a, b, c, d, r		/* a += b */
	vpaddd	%\V\()mm\b, %\V\()mm\a, %\V\()mm\a
.endm
.macro ADD_CD V, a, b, c, d, r		/* c += d */
	vpaddd	%\V\()mm\d, %\V\()mm\c, %\V\()mm\c
.endm
.macro XOR_DA V, a, b, c, d, r		/* d ^= a */
	vpxord	%\V\()mm\a, %\V\()mm\d, %\V\()mm\d
.endm
.macro XOR_BC V, a, b, c, d, r		/* b ^= c */
	vpxord	%\V\()mm\c, %\V\()mm\b, %\V\()mm\b
.endm
.macro ROL_D V, a, b, c, d, r		/* d <<<= r */
	vprold	$\r, %\V\()mm\d, %\V\()mm\d
.endm
.macro ROL_B V, a, b, c, d, r		/* b <<<= r */
	vprold	$\r, %\V\()mm\b, %\V\()mm\b
.endm

/* STEP (one of the six above, with R) on every quarter round (a,b,c,d)
 * of the list before the next step: the quarter rounds of a round are
 * independent, so each step is as many independent instructions as the
 * list has quarter rounds. */
.macro EACH_QR V, step, r, a, b, c, d, rest:vararg
	\step	\V, \a, \b, \c, \d, \r
	.ifnb \rest
	EACH_QR	\V, \step, \r, \rest
	.endif
.endm

/* Half of each quarter round (a,b,c,d) of the list, step by step:
 * a += b; d ^= a; d <<<= RD; c += d; b ^= c; b <<<= RB. */
.macro HALF_QROUND V, rd, rb, quads:vararg
	EACH_QR	\V, ADD_AB, -, \quads
	EACH_QR	\V, XOR_DA, -, \quads
	EACH_QR	\V, ROL_D, \rd, \quads
	EACH_QR	\V, ADD_CD, -, \quads
	EACH_QR	\V, XOR_BC, -, \quads
	EACH_QR	\V, ROL_B, \rb, \quads
.endm

/* One round: the quarter rounds (a,b,c,d), ... interleaved step by step. */
.macro QROUND V, quads:vararg
	HALF_QROUND \V, 16, 12, \quads
	HALF_QROUND \V, 8, 7, \quads
.endm

/* Start a group in registers r0..r15 (words 0-15): the state words
 * broadcast; counter lanes word 12 + IOTA (lane offsets, memory), the
 * lanes that wrapped noted in opmask K and carried into word 13. */
.macro GROUP_INIT V, N, iota, k, r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,r11,r12,r13,r14,r15
	vpbroadcastd 0(%rdi), %\V\()mm\r0
	vpbroadcastd 4(%rdi), %\V\()mm\r1
	vpbroadcastd 8(%rdi), %\V\()mm\r2
	vpbroadcastd 12(%rdi), %\V\()mm\r3
	vpbroadcastd 16(%rdi), %\V\()mm\r4
	vpbroadcastd 20(%rdi), %\V\()mm\r5
	vpbroadcastd 24(%rdi), %\V\()mm\r6
	vpbroadcastd 28(%rdi), %\V\()mm\r7
	vpbroadcastd 32(%rdi), %\V\()mm\r8
	vpbroadcastd 36(%rdi), %\V\()mm\r9
	vpbroadcastd 40(%rdi), %\V\()mm\r10
	vpbroadcastd 44(%rdi), %\V\()mm\r11
	vpbroadcastd 48(%rdi), %\V\()mm\r12
	vpaddd	\iota(%rip), %\V\()mm\r12, %\V\()mm\r12
	vpcmpud	$1, \iota(%rip), %\V\()mm\r12, \k	/* wrapped: lo < offset */
	vpbroadcastd 52(%rdi), %\V\()mm\r13
	vpaddd	.Lavx512_one(%rip){1to\N}, %\V\()mm\r13, %\V\()mm\r13{\k}
	vpbroadcastd 56(%rdi), %\V\()mm\r14
	vpbroadcastd 60(%rdi), %\V\()mm\r15
.endm

/* The feed-forward of the group GROUP_INIT started in r0..r15 with the
 * same IOTA and K: the input words added back. */
.macro FEED_FORWARD V, N, iota, k, r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,r11,r12,r13,r14,r15
	vpaddd	0(%rdi){1to\N}, %\V\()mm\r0, %\V\()mm\r0
	vpaddd	4(%rdi){1to\N}, %\V\()mm\r1, %\V\()mm\r1
	vpaddd	8(%rdi){1to\N}, %\V\()mm\r2, %\V\()mm\r2
	vpaddd	12(%rdi){1to\N}, %\V\()mm\r3, %\V\()mm\r3
	vpaddd	16(%rdi){1to\N}, %\V\()mm\r4, %\V\()mm\r4
	vpaddd	20(%rdi){1to\N}, %\V\()mm\r5, %\V\()mm\r5
	vpaddd	24(%rdi){1to\N}, %\V\()mm\r6, %\V\()mm\r6
	vpaddd	28(%rdi){1to\N}, %\V\()mm\r7, %\V\()mm\r7
	vpaddd	32(%rdi){1to\N}, %\V\()mm\r8, %\V\()mm\r8
	vpaddd	36(%rdi){1to\N}, %\V\()mm\r9, %\V\()mm\r9
	vpaddd	40(%rdi){1to\N}, %\V\()mm\r10, %\V\()mm\r10
	vpaddd	44(%rdi){1to\N}, %\V\()mm\r11, %\V\()mm\r11
	vpaddd	48(%rdi){1to\N}, %\V\()mm\r12, %\V\()mm\r12
	vpaddd	\iota(%rip), %\V\()mm\r12, %\V\()mm\r12
	vpaddd	52(%rdi){1to\N}, %\V\()mm\r13, %\V\()mm\r13
	vpaddd	.Lavx512_one(%rip){1to\N}, %\V\()mm\r13, %\V\()mm\r13{\k}
	vpaddd	56(%rdi){1to\N}, %\V\()mm\r14, %\V\()mm\r14
	vpaddd	60(%rdi){1to\N}, %\V\()mm\r15, %\V\()mm\r15
.endm

/* Within each 128-bit lane, the 4x4 dword transpose of words x0..x3
 * through the scratch t0..t3: afterwards x<k> holds, in each lane, the
 * four words of block k of that lane (lane L: blocks 4L..4L+3). */
.macro TRANSPOSE4 V, x0, x1, x2, x3, t0, t1, t2, t3
	vpunpckldq  %\V\()mm\x1, %\V\()mm\x0, %\V\()mm\t0	/* x0_0 x1_0 x0_1 x1_1 */
	vpunpckhdq  %\V\()mm\x1, %\V\()mm\x0, %\V\()mm\t1	/* x0_2 x1_2 x0_3 x1_3 */
	vpunpckldq  %\V\()mm\x3, %\V\()mm\x2, %\V\()mm\t2	/* x2_0 x3_0 x2_1 x3_1 */
	vpunpckhdq  %\V\()mm\x3, %\V\()mm\x2, %\V\()mm\t3	/* x2_2 x3_2 x2_3 x3_3 */
	vpunpcklqdq %\V\()mm\t2, %\V\()mm\t0, %\V\()mm\x0	/* block 0 of the lane */
	vpunpckhqdq %\V\()mm\t2, %\V\()mm\t0, %\V\()mm\x1	/* block 1 */
	vpunpcklqdq %\V\()mm\t3, %\V\()mm\t1, %\V\()mm\x2	/* block 2 */
	vpunpckhqdq %\V\()mm\t3, %\V\()mm\t1, %\V\()mm\x3	/* block 3 */
.endm

/* TRANSPOSE4 (zmm) with two scratch registers: the results move, block
 * 0 of each lane to x1, 1 to t0, 2 to x3, 3 to x0; x2 and t1 are free. */
.macro TRANSPOSE4_2T x0, x1, x2, x3, t0, t1
	vpunpckldq  %zmm\x1, %zmm\x0, %zmm\t0	/* x0_0 x1_0 x0_1 x1_1 */
	vpunpckhdq  %zmm\x1, %zmm\x0, %zmm\x0	/* x0_2 x1_2 x0_3 x1_3 */
	vpunpckldq  %zmm\x3, %zmm\x2, %zmm\t1	/* x2_0 x3_0 x2_1 x3_1 */
	vpunpckhdq  %zmm\x3, %zmm\x2, %zmm\x2	/* x2_2 x3_2 x2_3 x3_3 */
	vpunpcklqdq %zmm\t1, %zmm\t0, %zmm\x1	/* block 0 of the lane */
	vpunpckhqdq %zmm\t1, %zmm\t0, %zmm\t0	/* block 1 */
	vpunpcklqdq %zmm\x2, %zmm\x0, %zmm\x3	/* block 2 */
	vpunpckhqdq %zmm\x2, %zmm\x0, %zmm\x0	/* block 3 */
.endm

/* zmm, after TRANSPOSE4: r0..r3 hold block k of each lane (bytes 0-15,
 * 16-31, 32-47, 48-63 of blocks k, k+4, k+8, k+12 in lanes 0-3); the 4x4
 * transpose of their 128-bit lanes through the scratch t0..t3 leaves the
 * whole block k in r0, k+4 in r1, k+8 in r2, k+12 in r3. */
.macro LANES4 r0, r1, r2, r3, t0, t1, t2, t3
	vshufi32x4 $0x44, %zmm\r1, %zmm\r0, %zmm\t0	/* r0.0 r0.1 r1.0 r1.1 */
	vshufi32x4 $0xee, %zmm\r1, %zmm\r0, %zmm\t1	/* r0.2 r0.3 r1.2 r1.3 */
	vshufi32x4 $0x44, %zmm\r3, %zmm\r2, %zmm\t2	/* r2.0 r2.1 r3.0 r3.1 */
	vshufi32x4 $0xee, %zmm\r3, %zmm\r2, %zmm\t3	/* r2.2 r2.3 r3.2 r3.3 */
	vshufi32x4 $0x88, %zmm\t2, %zmm\t0, %zmm\r0	/* lanes 0: block k */
	vshufi32x4 $0xdd, %zmm\t2, %zmm\t0, %zmm\r1	/* lanes 1: block k+4 */
	vshufi32x4 $0x88, %zmm\t3, %zmm\t1, %zmm\r2	/* lanes 2: block k+8 */
	vshufi32x4 $0xdd, %zmm\t3, %zmm\t1, %zmm\r3	/* lanes 3: block k+12 */
.endm

/* LANES4 with two scratch registers: block k ends in r2, k+4 in r3, k+8
 * in t0, k+12 in r0; r1 and t1 are free. */
.macro LANES4_2T r0, r1, r2, r3, t0, t1
	vshufi32x4 $0x44, %zmm\r1, %zmm\r0, %zmm\t0	/* r0.0 r0.1 r1.0 r1.1 */
	vshufi32x4 $0xee, %zmm\r1, %zmm\r0, %zmm\t1	/* r0.2 r0.3 r1.2 r1.3 */
	vshufi32x4 $0x44, %zmm\r3, %zmm\r2, %zmm\r0	/* r2.0 r2.1 r3.0 r3.1 */
	vshufi32x4 $0xee, %zmm\r3, %zmm\r2, %zmm\r1	/* r2.2 r2.3 r3.2 r3.3 */
	vshufi32x4 $0x88, %zmm\r0, %zmm\t0, %zmm\r2	/* block k */
	vshufi32x4 $0xdd, %zmm\r0, %zmm\t0, %zmm\r3	/* block k+4 */
	vshufi32x4 $0x88, %zmm\r1, %zmm\t1, %zmm\t0	/* block k+8 */
	vshufi32x4 $0xdd, %zmm\r1, %zmm\t1, %zmm\r0	/* block k+12 */
.endm

/* dst = src ^ register reg at byte offset off. */
.macro XORST V, reg, off
	vpxord	\off(%rdx), %\V\()mm\reg, %\V\()mm\reg
	vmovdqu32 %\V\()mm\reg, \off(%rsi)
.endm

/* ymm, after TRANSPOSE4: r0..r3 hold block k (low lane) and k+4 (high
 * lane), bytes 0-15, 16-31, 32-47, 48-63.  Pair their lanes (t0, t1
 * scratch) and store blocks k and k+4. */
.macro OUT_LANES2 k, r0, r1, r2, r3, t0, t1
	vshufi32x4 $0, %ymm\r1, %ymm\r0, %ymm\t0	/* block k bytes 0-31 */
	vshufi32x4 $3, %ymm\r1, %ymm\r0, %ymm\r1	/* block k+4 bytes 0-31 */
	vshufi32x4 $0, %ymm\r3, %ymm\r2, %ymm\r0	/* block k bytes 32-63 */
	vshufi32x4 $3, %ymm\r3, %ymm\r2, %ymm\r3	/* block k+4 bytes 32-63 */
	XORST	y, \t0, 64*\k
	XORST	y, \r0, 64*\k+32
	XORST	y, \r1, 64*(\k+4)
	XORST	y, \r3, 64*(\k+4)+32
.endm

/* One group of N blocks in V0-V15, words 12-13 of the state advanced;
 * LBL names its local labels. */
.macro ONE_GROUP V, N, lbl
	GROUP_INIT \V, \N, .Lavx512_iota, %k2, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	movl	%r8d, %r10d
	shrl	$1, %r10d
	jz	.L\lbl\()_out
.balign 32
.L\lbl\()_dround:
	/* column round, diagonal round */
	QROUND	\V, 0,4,8,12, 1,5,9,13, 2,6,10,14, 3,7,11,15
	QROUND	\V, 0,5,10,15, 1,6,11,12, 2,7,8,13, 3,4,9,14
	subl	$1, %r10d
	jnz	.L\lbl\()_dround
.L\lbl\()_out:
	FEED_FORWARD \V, \N, .Lavx512_iota, %k2, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	addq	$\N, 48(%rdi)			/* 64-bit counter, words 12-13 */

	/* words to blocks: dword transpose per 128-bit lane for each run of
	 * four words, then the 128-bit lanes; xor and store */
	TRANSPOSE4 \V, 0, 1, 2, 3, 16, 17, 18, 19
	TRANSPOSE4 \V, 4, 5, 6, 7, 20, 21, 22, 23
	TRANSPOSE4 \V, 8, 9, 10, 11, 24, 25, 26, 27
	TRANSPOSE4 \V, 12, 13, 14, 15, 16, 17, 18, 19
	.if \N == 16
	LANES4	0, 4, 8, 12, 20, 21, 22, 23
	LANES4	1, 5, 9, 13, 24, 25, 26, 27
	LANES4	2, 6, 10, 14, 16, 17, 18, 19
	LANES4	3, 7, 11, 15, 20, 21, 22, 23
	/* register i is block i */
	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	XORST	z, \i, 64*\i
	.endr
	.else
	OUT_LANES2 0, 0, 4, 8, 12, 16, 17
	OUT_LANES2 1, 1, 5, 9, 13, 18, 19
	OUT_LANES2 2, 2, 6, 10, 14, 20, 21
	OUT_LANES2 3, 3, 7, 11, 15, 22, 23
	.endif
.endm

/* Clear zmm16-31 (vzeroall does not reach them), then zmm0-15. */
.macro CLEAR_VECTORS
	.irp i, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpxord	%xmm\i, %xmm\i, %xmm\i
	.endr
	vzeroall
.endm

/* ymm: groups of N blocks, one at a time. */
.macro CHACHA_BLOCKS V, N, lg, lbl
	xorl	%eax, %eax
	shrq	$(\lg - 6), %rcx		/* groups of N blocks */
	jz	.L\lbl\()_done
.balign 32
.L\lbl\()_group:
	ONE_GROUP \V, \N, \lbl
	addq	$(1 << \lg), %rdx
	addq	$(1 << \lg), %rsi
	subq	$1, %rcx
	jnz	.L\lbl\()_group
	CLEAR_VECTORS
.L\lbl\()_done:
.endm

/**********************************************************************
 * blocks16: groups of sixteen blocks, one zmm per state word.  Two
 * groups at a time while there are two (zmm0-15 blocks 0-15, zmm16-31
 * blocks 16-31, their quarter rounds interleaved: one group alone leaves
 * the vector units idle for part of each round), then one group (zmm0-15,
 * scratch zmm16-27).  With two groups every register is in use after the
 * rounds: words 14-15 of the second are spilled to the red zone (128
 * bytes below rsp, unaligned) while the first is stored.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx512_blocks16)
	xorl	%eax, %eax
	shrq	$4, %rcx			/* groups of 16 blocks */
	jz	.Lb16_done
	movq	%rcx, %r11
	shrq	$1, %r11			/* pairs of groups */
	jz	.Lb16_single
	movl	$128, %eax			/* burn depth: the spill slots */

.balign 32
.Lb16_pair:
	GROUP_INIT z, 16, .Lavx512_iota, %k2, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	GROUP_INIT z, 16, .Lavx512_iota16, %k3, \
		16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	movl	%r8d, %r10d
	shrl	$1, %r10d
	jz	.Lb16_pair_out
.balign 32
.Lb16_pair_dround:
	/* column round, then diagonal round, of both groups */
	QROUND	z, 0,4,8,12, 16,20,24,28, 1,5,9,13, 17,21,25,29, \
		2,6,10,14, 18,22,26,30, 3,7,11,15, 19,23,27,31
	QROUND	z, 0,5,10,15, 16,21,26,31, 1,6,11,12, 17,22,27,28, \
		2,7,8,13, 18,23,24,29, 3,4,9,14, 19,20,25,30
	subl	$1, %r10d
	jnz	.Lb16_pair_dround
.Lb16_pair_out:
	/* first group (blocks 0-15) with zmm30-31 as scratch */
	vmovdqu64 %zmm30, -128(%rsp)
	vmovdqu64 %zmm31, -64(%rsp)
	FEED_FORWARD z, 16, .Lavx512_iota, %k2, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	TRANSPOSE4_2T 0, 1, 2, 3, 30, 31	/* -> 1,30,3,0 */
	TRANSPOSE4_2T 4, 5, 6, 7, 2, 31		/* -> 5,2,7,4 */
	TRANSPOSE4_2T 8, 9, 10, 11, 6, 31	/* -> 9,6,11,8 */
	TRANSPOSE4_2T 12, 13, 14, 15, 10, 31	/* -> 13,10,15,12 */
	LANES4_2T 1, 5, 9, 13, 14, 31		/* blocks 0,4,8,12 */
	XORST	z, 9, 0*64
	XORST	z, 13, 4*64
	XORST	z, 14, 8*64
	XORST	z, 1, 12*64
	LANES4_2T 30, 2, 6, 10, 14, 31		/* blocks 1,5,9,13 */
	XORST	z, 6, 1*64
	XORST	z, 10, 5*64
	XORST	z, 14, 9*64
	XORST	z, 30, 13*64
	LANES4_2T 3, 7, 11, 15, 14, 31		/* blocks 2,6,10,14 */
	XORST	z, 11, 2*64
	XORST	z, 15, 6*64
	XORST	z, 14, 10*64
	XORST	z, 3, 14*64
	LANES4_2T 0, 4, 8, 12, 14, 31		/* blocks 3,7,11,15 */
	XORST	z, 8, 3*64
	XORST	z, 12, 7*64
	XORST	z, 14, 11*64
	XORST	z, 0, 15*64
	/* second group (blocks 16-31) with zmm0-15 as scratch */
	vmovdqu64 -128(%rsp), %zmm30
	vmovdqu64 -64(%rsp), %zmm31
	FEED_FORWARD z, 16, .Lavx512_iota16, %k3, \
		16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	addq	$32, 48(%rdi)			/* 64-bit counter, words 12-13 */
	TRANSPOSE4 z, 16, 17, 18, 19, 0, 1, 2, 3
	TRANSPOSE4 z, 20, 21, 22, 23, 4, 5, 6, 7
	TRANSPOSE4 z, 24, 25, 26, 27, 8, 9, 10, 11
	TRANSPOSE4 z, 28, 29, 30, 31, 12, 13, 14, 15
	LANES4	16, 20, 24, 28, 0, 1, 2, 3
	LANES4	17, 21, 25, 29, 4, 5, 6, 7
	LANES4	18, 22, 26, 30, 8, 9, 10, 11
	LANES4	19, 23, 27, 31, 12, 13, 14, 15
	/* register i is block i */
	.irp i, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	XORST	z, \i, 64*\i
	.endr

	addq	$2048, %rdx
	addq	$2048, %rsi
	subq	$1, %r11
	jnz	.Lb16_pair
	andl	$1, %ecx
	jz	.Lb16_clear

.Lb16_single:
	ONE_GROUP z, 16, b16
.Lb16_clear:
	CLEAR_VECTORS
.Lb16_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx512_blocks16)

/**********************************************************************
 * blocks8: eight blocks a group, one ymm per state word (AVX512VL);
 * scratch ymm16-27.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx512_blocks8)
	CHACHA_BLOCKS y, 8, 9, b8
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx512_blocks8)

/**********************************************************************
 * The row form, for blocks4, blocks1 and HChaCha: register a, b, c, d
 * holds row 0-3 (words 0-3, 4-7, 8-11, 12-15) of one block per 128-bit
 * lane.  A
 * round works on the four columns at once; between the rounds the rows
 * are turned so that the diagonals line up as columns.  Fewer blocks than
 * the transposed form, but a shorter path through the rounds (one chain of
 * quarter rounds, no transpose at the end) for the last few blocks.
 **********************************************************************/

/* One round on the rows a, b, c, d (register numbers) of width V. */
.macro QR_ROWS V, a, b, c, d
	vpaddd	%\V\()mm\b, %\V\()mm\a, %\V\()mm\a	/* a += b; d ^= a; d <<<= 16 */
	vpxord	%\V\()mm\a, %\V\()mm\d, %\V\()mm\d
	vprold	$16, %\V\()mm\d, %\V\()mm\d
	vpaddd	%\V\()mm\d, %\V\()mm\c, %\V\()mm\c	/* c += d; b ^= c; b <<<= 12 */
	vpxord	%\V\()mm\c, %\V\()mm\b, %\V\()mm\b
	vprold	$12, %\V\()mm\b, %\V\()mm\b
	vpaddd	%\V\()mm\b, %\V\()mm\a, %\V\()mm\a	/* a += b; d ^= a; d <<<= 8 */
	vpxord	%\V\()mm\a, %\V\()mm\d, %\V\()mm\d
	vprold	$8, %\V\()mm\d, %\V\()mm\d
	vpaddd	%\V\()mm\d, %\V\()mm\c, %\V\()mm\c	/* c += d; b ^= c; b <<<= 7 */
	vpxord	%\V\()mm\c, %\V\()mm\b, %\V\()mm\b
	vprold	$7, %\V\()mm\b, %\V\()mm\b
.endm

/* A double round on the rows: columns, then diagonals.  Per lane, dword
 * j of a, c, d moves to j+1, j-1, j+2 so that it meets b[j] of its
 * diagonal (b stays put: its chain is the longest), and back after. */
.macro DROUND_ROWS V, a, b, c, d
	QR_ROWS	\V, \a, \b, \c, \d
	vpshufd	$0x93, %\V\()mm\a, %\V\()mm\a
	vpshufd	$0x39, %\V\()mm\c, %\V\()mm\c
	vpshufd	$0x4e, %\V\()mm\d, %\V\()mm\d
	QR_ROWS	\V, \a, \b, \c, \d
	vpshufd	$0x39, %\V\()mm\a, %\V\()mm\a
	vpshufd	$0x93, %\V\()mm\c, %\V\()mm\c
	vpshufd	$0x4e, %\V\()mm\d, %\V\()mm\d
.endm

/**********************************************************************
 * blocks4: four blocks a group in row form on zmm, block j in lane j.
 *   zmm0-3   rows a, b, c, d of the group      zmm4-7 scratch (output)
 *   zmm16-18 input rows a, b, c in every lane
 *   zmm19    input row d: counter + j in lane j (64-bit adds)
 *   rdi state, rsi dst, rdx src, rcx groups left, r8d rounds,
 *   eax double rounds left.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx512_blocks4)
	xorl	%eax, %eax
	shrq	$2, %rcx			/* groups of 4 blocks */
	jz	.Lb4_done
	vbroadcasti32x4 0(%rdi), %zmm16
	vbroadcasti32x4 16(%rdi), %zmm17
	vbroadcasti32x4 32(%rdi), %zmm18
	vbroadcasti32x4 48(%rdi), %zmm19
	vpaddq	.Lavx512_row_ctr(%rip), %zmm19, %zmm19

.balign 32
.Lb4_group:
	vmovdqa64 %zmm16, %zmm0
	vmovdqa64 %zmm17, %zmm1
	vmovdqa64 %zmm18, %zmm2
	vmovdqa64 %zmm19, %zmm3
	movl	%r8d, %eax
	shrl	$1, %eax
	jz	.Lb4_out
.balign 32
.Lb4_dround:
	DROUND_ROWS z, 0, 1, 2, 3
	subl	$1, %eax
	jnz	.Lb4_dround
.Lb4_out:
	/* feed-forward, next counters, then lane j of each row is block j */
	vpaddd	%zmm16, %zmm0, %zmm0
	vpaddd	%zmm17, %zmm1, %zmm1
	vpaddd	%zmm18, %zmm2, %zmm2
	vpaddd	%zmm19, %zmm3, %zmm3
	vpaddq	.Lavx512_row_inc4(%rip), %zmm19, %zmm19
	LANES4	0, 1, 2, 3, 4, 5, 6, 7
	XORST	z, 0, 0
	XORST	z, 1, 64
	XORST	z, 2, 128
	XORST	z, 3, 192

	addq	$256, %rdx
	addq	$256, %rsi
	subq	$1, %rcx
	jnz	.Lb4_group

	vmovq	%xmm19, 48(%rdi)		/* words 12-13 only */
	.irp i, 16,17,18,19
	vpxord	%xmm\i, %xmm\i, %xmm\i
	.endr
	vzeroall
	xorl	%eax, %eax
.Lb4_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx512_blocks4)

/**********************************************************************
 * blocks1: one block at a time in row form on xmm: a request's last block
 * (whole, or the partial one's keystream) without making three more.
 *   xmm0-3   rows a, b, c, d of the block
 *   xmm16-19 input rows; the counter is the low qword of xmm19
 *   rdi state, rsi dst, rdx src, rcx blocks left, r8d rounds,
 *   eax double rounds left.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx512_blocks1)
	xorl	%eax, %eax
	testq	%rcx, %rcx
	jz	.Lb1_done
	vmovdqu32 0(%rdi), %xmm16
	vmovdqu32 16(%rdi), %xmm17
	vmovdqu32 32(%rdi), %xmm18
	vmovdqu32 48(%rdi), %xmm19

.balign 32
.Lb1_block:
	vmovdqa64 %xmm16, %xmm0
	vmovdqa64 %xmm17, %xmm1
	vmovdqa64 %xmm18, %xmm2
	vmovdqa64 %xmm19, %xmm3
	movl	%r8d, %eax
	shrl	$1, %eax
	jz	.Lb1_out
.balign 32
.Lb1_dround:
	DROUND_ROWS x, 0, 1, 2, 3
	subl	$1, %eax
	jnz	.Lb1_dround
.Lb1_out:
	/* feed-forward, next counter, xor and store the block */
	vpaddd	%xmm16, %xmm0, %xmm0
	vpaddd	%xmm17, %xmm1, %xmm1
	vpaddd	%xmm18, %xmm2, %xmm2
	vpaddd	%xmm19, %xmm3, %xmm3
	vpaddq	.Lavx512_row_inc1(%rip), %xmm19, %xmm19
	XORST	x, 0, 0
	XORST	x, 1, 16
	XORST	x, 2, 32
	XORST	x, 3, 48

	addq	$64, %rdx
	addq	$64, %rsi
	subq	$1, %rcx
	jnz	.Lb1_block

	vmovq	%xmm19, 48(%rdi)		/* words 12-13 only */
	.irp i, 16,17,18,19
	vpxord	%xmm\i, %xmm\i, %xmm\i
	.endr
	vzeroall
	xorl	%eax, %eax
.Lb1_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx512_blocks1)

/**********************************************************************
 * HChaCha: the row form on xmm0-3 (one state), rounds/2 double rounds, no
 * feed-forward; out32 = row a (words 0-3) then row d (words 12-15).
 *   rdi state, rsi out, edx rounds.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_hchacha_amd64_avx512)
	vmovdqu	0(%rdi), %xmm0
	vmovdqu	16(%rdi), %xmm1
	vmovdqu	32(%rdi), %xmm2
	vmovdqu	48(%rdi), %xmm3
	shrl	$1, %edx
	jz	.Lhc_out
.balign 32
.Lhc_dround:
	DROUND_ROWS x, 0, 1, 2, 3
	subl	$1, %edx
	jnz	.Lhc_dround
.Lhc_out:
	vmovdqu	%xmm0, 0(%rsi)
	vmovdqu	%xmm3, 16(%rsi)
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hchacha_amd64_avx512)

/**********************************************************************
 * HChaCha4: four states in the row form on zmm0-3, state j in lane j.
 *   zmm4-7   state j whole (loads), then the 128-bit lane transpose
 *   rdi states, rsi out, edx rounds.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_hchacha4_amd64_avx512)
	vmovdqu32 0(%rdi), %zmm4
	vmovdqu32 64(%rdi), %zmm5
	vmovdqu32 128(%rdi), %zmm6
	vmovdqu32 192(%rdi), %zmm7
	/* rows: lane j of zmm0 (a), zmm1 (b), zmm2 (c), zmm3 (d) from state j */
	vshufi32x4 $0x44, %zmm5, %zmm4, %zmm0	/* S0.a S0.b S1.a S1.b */
	vshufi32x4 $0xee, %zmm5, %zmm4, %zmm1	/* S0.c S0.d S1.c S1.d */
	vshufi32x4 $0x44, %zmm7, %zmm6, %zmm2	/* S2.a S2.b S3.a S3.b */
	vshufi32x4 $0xee, %zmm7, %zmm6, %zmm3	/* S2.c S2.d S3.c S3.d */
	vshufi32x4 $0x88, %zmm2, %zmm0, %zmm4	/* a: S0 S1 S2 S3 */
	vshufi32x4 $0xdd, %zmm2, %zmm0, %zmm5	/* b */
	vshufi32x4 $0x88, %zmm3, %zmm1, %zmm6	/* c */
	vshufi32x4 $0xdd, %zmm3, %zmm1, %zmm7	/* d */
	vmovdqa64 %zmm4, %zmm0
	vmovdqa64 %zmm5, %zmm1
	vmovdqa64 %zmm6, %zmm2
	vmovdqa64 %zmm7, %zmm3
	shrl	$1, %edx
	jz	.Lhc4_out
.balign 32
.Lhc4_dround:
	DROUND_ROWS z, 0, 1, 2, 3
	subl	$1, %edx
	jnz	.Lhc4_dround
.Lhc4_out:
	/* out j = row a, row d of lane j */
	vmovdqu	%xmm0, 0(%rsi)
	vmovdqu	%xmm3, 16(%rsi)
	vextracti32x4 $1, %zmm0, 32(%rsi)
	vextracti32x4 $1, %zmm3, 48(%rsi)
	vextracti32x4 $2, %zmm0, 64(%rsi)
	vextracti32x4 $2, %zmm3, 80(%rsi)
	vextracti32x4 $3, %zmm0, 96(%rsi)
	vextracti32x4 $3, %zmm3, 112(%rsi)
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hchacha4_amd64_avx512)

/**********************************************************************
 * HChaCha16: sixteen states in the transposed form on zmm0-15 (register
 * w = word w, lane j = state j: the blocks16 rounds), words 0-11
 * broadcast from the shared state, 12-15 loaded from the nonce rows; no
 * feed-forward; rows 0-3 and 12-15 stored as the eight output rows.
 *   rdi state, rsi nonces, rdx out, ecx rounds.  No stack use, zmm16-31
 *   untouched (vzeroall clears the rest).
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_hchacha16_amd64_avx512)
	.irp w, 0,1,2,3,4,5,6,7,8,9,10,11
	vpbroadcastd 4*\w(%rdi), %zmm\w
	.endr
	vmovdqu32 0(%rsi), %zmm12
	vmovdqu32 64(%rsi), %zmm13
	vmovdqu32 128(%rsi), %zmm14
	vmovdqu32 192(%rsi), %zmm15
	shrl	$1, %ecx
	jz	.Lhc16_out
.balign 32
.Lhc16_dround:
	/* column round, diagonal round: four independent quarter rounds each */
	QROUND	z, 0,4,8,12, 1,5,9,13, 2,6,10,14, 3,7,11,15
	QROUND	z, 0,5,10,15, 1,6,11,12, 2,7,8,13, 3,4,9,14
	subl	$1, %ecx
	jnz	.Lhc16_dround
.Lhc16_out:
	vmovdqu32 %zmm0, 0(%rdx)
	vmovdqu32 %zmm1, 64(%rdx)
	vmovdqu32 %zmm2, 128(%rdx)
	vmovdqu32 %zmm3, 192(%rdx)
	vmovdqu32 %zmm12, 256(%rdx)
	vmovdqu32 %zmm13, 320(%rdx)
	vmovdqu32 %zmm14, 384(%rdx)
	vmovdqu32 %zmm15, 448(%rdx)
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hchacha16_amd64_avx512)

#endif /* __x86_64__ */
