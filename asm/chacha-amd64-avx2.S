/* chacha-amd64-avx2.S - ChaCha20/12/8 and HChaCha for amd64 with AVX2.
 *
 * Written from RFC 8439 (ChaCha20 block function, section 2.3) and
 * draft-irtf-cfrg-xchacha (HChaCha20, section 2.2).
 *
 * ABI (System V AMD64, all routines hidden globals):
 *
 *   unsigned int _gcry_chacha_amd64_avx2_blocks8(uint32_t *state,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks,
 *           unsigned int rounds);          -- nblocks a multiple of 8
 *   unsigned int _gcry_chacha_amd64_avx2_blocks4(...same...);  -- of 4
 *   unsigned int _gcry_chacha_amd64_avx2_blocks2(...same...);  -- of 2
 *   unsigned int _gcry_hchacha_amd64_avx2(const uint32_t *state,
 *           uint8_t *out32, unsigned int rounds);
 *
 * state: 16 uint32 words as RFC 8439 (0-3 constants, 4-11 key, 12-15
 * counter/nonce).  Words 12-13 are one 64-bit little-endian block counter
 * (word 12 low); block i of a call uses counter+i, with the carry from word
 * 12 into word 13, and counter+nblocks is stored back.  Nothing but words
 * 12-13 of the state is ever written.  The state is 32-byte aligned in
 * practice, but only unaligned-tolerant (VEX) accesses are made to it.
 * dst = src XOR keystream; dst and src may be unaligned and may be equal.
 * rounds is any even number >= 2 (20, 12, 8 in use): rounds/2 double rounds
 * are run.  nblocks is rounded down to the routine's multiple; nblocks 0
 * returns 0 at once.
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"), 0 if none.  It does not
 * wipe them itself: the C glue wipes the deepest depth once per call.  All
 * ymm registers are cleared (vzeroall) before return.  blocks4, blocks2 and
 * hchacha use no stack (depth 0); blocks8 keeps two 32-byte spill slots in
 * the red zone, 32-byte aligned (depth 72 or 88 with an ABI-aligned stack,
 * depending on rsp mod 32; computed exactly at run time).
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "chacha-amd64-avx2.h"

GCRY_RODATA
.balign 32
/* row form: low qword of each 128-bit lane is the counter (words 12-13) */
.Lavx2_row_01:
	.quad 0, 0, 1, 0
.Lavx2_row_23:
	.quad 2, 0, 3, 0
.Lavx2_row_inc2:
	.quad 2, 0, 2, 0
.Lavx2_row_inc4:
	.quad 4, 0, 4, 0

.text

/* One quarter round (VEX, three-operand) on the rows a,b,c,d (row form:
 * all four columns or diagonals of one or two blocks at once).  t scratch,
 * r16/r8 the rotate masks (register or memory). */
.macro QR1 a, b, c, d, t, r16, r8
	vpaddd	\b, \a, \a;  vpxor \a, \d, \d;  vpshufb \r16, \d, \d
	vpaddd	\d, \c, \c;  vpxor \c, \b, \b
	vpsrld	$20, \b, \t;  vpslld $12, \b, \b;  vpor \t, \b, \b
	vpaddd	\b, \a, \a;  vpxor \a, \d, \d;  vpshufb \r8, \d, \d
	vpaddd	\d, \c, \c;  vpxor \c, \b, \b
	vpsrld	$25, \b, \t;  vpslld $7, \b, \b;  vpor \t, \b, \b
.endm

/* Row form, per 128-bit lane: columns -> diagonals and back.  b stays put;
 * lane j of the rotated rows holds a[j-1], b[j], c[j+1], d[j+2], which
 * keeps the shuffles off the b-chain (the critical path). */
.macro ROW_DIAG a, c, d
	vpshufd	$0x93, \a, \a
	vpshufd	$0x39, \c, \c
	vpshufd	$0x4e, \d, \d
.endm
.macro ROW_UNDIAG a, c, d
	vpshufd	$0x39, \a, \a
	vpshufd	$0x93, \c, \c
	vpshufd	$0x4e, \d, \d
.endm

/**********************************************************************
 * blocks8: eight blocks in parallel, transposed form: one ymm per state
 * word, dword lane j = block j of the group of 8.
 *   ymm0-3   words 0-3 (a)        ymm4-7   words 4-7 (b)
 *   ymm8     word 8               ymm9     word 9
 *   ymm10    word 11              ymm11-14 words 12-15 (d)
 *   ymm15    the one scratch register (renamed per use)
 *   word 10 lives in spill slot S = 0(%r11) for the whole call; slot
 *   S2 = 32(%r11) takes word 8 during the output phase.  Both slots are
 *   32-byte aligned, in the red zone (r11 = (rsp - 64) & -32).
 *   Each round runs its four quarter rounds interleaved step by step
 *   (QR4M), the one whose c word is word 10 using S as a memory operand:
 *     column round  QR(0,4,8,12) QR(1,5,9,13) QR(3,7,11,15) QR(2,6,S,14)
 *     diagonal      QR(1,6,11,12) QR(2,7,8,13) QR(3,4,9,14) QR(0,5,S,15)
 *   Rotate masks are rodata memory operands.
 *   rdi state, rsi dst, rdx src, rcx groups left, r8d rounds,
 *   r9 64-bit counter, r10d double rounds left, r11 spill base.
 **********************************************************************/

GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx2_blocks8)
	xorl	%eax, %eax
	shrq	$3, %rcx			/* groups of 8 blocks */
	jz	.Lb8_done

	/* two 32-byte aligned spill slots in the red zone */
	leaq	-64(%rsp), %r11
	andq	$-32, %r11
	movq	48(%rdi), %r9			/* 64-bit block counter */

.balign 32
.Lb8_group:
	/* state words broadcast to all eight lanes; counter lanes */
	vpbroadcastd 0(%rdi), %ymm0
	vpbroadcastd 4(%rdi), %ymm1
	vpbroadcastd 8(%rdi), %ymm2
	vpbroadcastd 12(%rdi), %ymm3
	vpbroadcastd 16(%rdi), %ymm4
	vpbroadcastd 20(%rdi), %ymm5
	vpbroadcastd 24(%rdi), %ymm6
	vpbroadcastd 28(%rdi), %ymm7
	vpbroadcastd 32(%rdi), %ymm8
	vpbroadcastd 36(%rdi), %ymm9
	vpbroadcastd 40(%rdi), %ymm15
	vmovdqa	%ymm15, 0(%r11)			/* S = w10 */
	vpbroadcastd 44(%rdi), %ymm10
	vmovq	%r9, %xmm15
	CTR8	%ymm11, %ymm12, %ymm15, %xmm15
	vpbroadcastd 56(%rdi), %ymm13
	vpbroadcastd 60(%rdi), %ymm14
	movl	%r8d, %r10d
	shrl	$1, %r10d

.balign 32
.Lb8_dround:
	/* column round */
	QR4M	%ymm0, %ymm4, %ymm8, %ymm11,  %ymm1, %ymm5, %ymm9, %ymm12, \
		%ymm3, %ymm7, %ymm10, %ymm14,  %ymm2, %ymm6, 0(%r11), %ymm13, %ymm15
	/* diagonal round */
	QR4M	%ymm1, %ymm6, %ymm10, %ymm11,  %ymm2, %ymm7, %ymm8, %ymm12, \
		%ymm3, %ymm4, %ymm9, %ymm13,  %ymm0, %ymm5, 0(%r11), %ymm14, %ymm15
	subl	$1, %r10d
	jnz	.Lb8_dround

	/* words 0-7: feed-forward (broadcast loads into the scratch),
	 * transpose, xor, store bytes 0-31 of blocks 0..7.  w8 goes to S2 to
	 * free a second scratch register for the transposes. */
	vmovdqa	%ymm8, 32(%r11)			/* S2 = w8, frees ymm8 */
	vpbroadcastd 0(%rdi), %ymm15
	vpaddd	%ymm15, %ymm0, %ymm0
	vpbroadcastd 4(%rdi), %ymm15
	vpaddd	%ymm15, %ymm1, %ymm1
	vpbroadcastd 8(%rdi), %ymm15
	vpaddd	%ymm15, %ymm2, %ymm2
	vpbroadcastd 12(%rdi), %ymm15
	vpaddd	%ymm15, %ymm3, %ymm3
	vpbroadcastd 16(%rdi), %ymm15
	vpaddd	%ymm15, %ymm4, %ymm4
	vpbroadcastd 20(%rdi), %ymm15
	vpaddd	%ymm15, %ymm5, %ymm5
	vpbroadcastd 24(%rdi), %ymm15
	vpaddd	%ymm15, %ymm6, %ymm6
	vpbroadcastd 28(%rdi), %ymm15
	vpaddd	%ymm15, %ymm7, %ymm7
	TRANSPOSE4 %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm15	/* -> 1,8,3,0 */
	TRANSPOSE4 %ymm4, %ymm5, %ymm6, %ymm7, %ymm2, %ymm15	/* -> 5,2,7,4 */
	OUT2	%ymm1, %ymm5, %ymm6, 0, 0, %rdx, %rsi
	OUT2	%ymm8, %ymm2, %ymm15, 1, 0, %rdx, %rsi
	OUT2	%ymm3, %ymm7, %ymm6, 2, 0, %rdx, %rsi
	OUT2	%ymm0, %ymm4, %ymm15, 3, 0, %rdx, %rsi

	/* words 8-15: feed-forward (counter lanes rebuilt from r9),
	 * transpose, xor, store bytes 32-63 of blocks 0..7.
	 * w8 from S2 -> ymm6, w9 ymm9, w10 from S -> ymm7, w11 ymm10 */
	vmovdqa	32(%r11), %ymm6
	vmovdqa	0(%r11), %ymm7
	vpbroadcastd 32(%rdi), %ymm0
	vpbroadcastd 36(%rdi), %ymm1
	vpbroadcastd 40(%rdi), %ymm2
	vpbroadcastd 44(%rdi), %ymm3
	vpaddd	%ymm0, %ymm6, %ymm6
	vpaddd	%ymm1, %ymm9, %ymm9
	vpaddd	%ymm2, %ymm7, %ymm7
	vpaddd	%ymm3, %ymm10, %ymm10
	vmovq	%r9, %xmm2
	CTR8	%ymm0, %ymm1, %ymm2, %xmm2
	vpbroadcastd 56(%rdi), %ymm2
	vpbroadcastd 60(%rdi), %ymm3
	vpaddd	%ymm0, %ymm11, %ymm11
	vpaddd	%ymm1, %ymm12, %ymm12
	vpaddd	%ymm2, %ymm13, %ymm13
	vpaddd	%ymm3, %ymm14, %ymm14
	TRANSPOSE4 %ymm6, %ymm9, %ymm7, %ymm10, %ymm0, %ymm1	/* -> 9,0,10,6 */
	TRANSPOSE4 %ymm11, %ymm12, %ymm13, %ymm14, %ymm2, %ymm3	/* -> 12,2,14,11 */
	OUT2	%ymm9, %ymm12, %ymm1, 0, 32, %rdx, %rsi
	OUT2	%ymm0, %ymm2, %ymm3, 1, 32, %rdx, %rsi
	OUT2	%ymm10, %ymm14, %ymm1, 2, 32, %rdx, %rsi
	OUT2	%ymm6, %ymm11, %ymm3, 3, 32, %rdx, %rsi

	addq	$8, %r9
	addq	$512, %rdx
	addq	$512, %rsi
	subq	$1, %rcx
	jnz	.Lb8_group

	movq	%r9, 48(%rdi)			/* words 12-13 only */
	vzeroall
	/* burn depth: entry rsp down to the lowest spill byte */
	movq	%rsp, %rax
	subq	%r11, %rax
.Lb8_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx2_blocks8)

/**********************************************************************
 * blocks4: four blocks as two independent row-form sets, each ymm holding
 * one row of two blocks ([block k row | block k+1 row]).
 *   set A (blocks 0,1): ymm0-3 rows a,b,c,d
 *   set B (blocks 2,3): ymm4-7 rows a,b,c,d
 *   ymm8-10  input rows a,b,c broadcast to both lanes
 *   ymm11    input row d of set A: counter+0 | counter+1
 *   ymm12    input row d of set B: counter+2 | counter+3
 *   ymm13,14 scratch         ymm15 rot16 mask (rot8 from memory)
 *   rdi state, rsi dst, rdx src, rcx groups left, r8d rounds,
 *   eax double rounds left.  No stack use.
 **********************************************************************/

/* Write one row-form set r0..r3 (= blocks k, k+1) to block offset off:
 * scratch f0, f1; r0, r2 clobbered. */
.macro OUTROWS r0, r1, r2, r3, f0, f1, off
	vperm2i128 $0x20, \r1, \r0, \f0		/* block k, bytes 0-31 */
	vperm2i128 $0x20, \r3, \r2, \f1		/* block k, bytes 32-63 */
	vperm2i128 $0x31, \r1, \r0, \r0		/* block k+1, bytes 0-31 */
	vperm2i128 $0x31, \r3, \r2, \r2		/* block k+1, bytes 32-63 */
	vpxor	(\off+0)(%rdx), \f0, \f0
	vpxor	(\off+32)(%rdx), \f1, \f1
	vpxor	(\off+64)(%rdx), \r0, \r0
	vpxor	(\off+96)(%rdx), \r2, \r2
	vmovdqu	\f0, (\off+0)(%rsi)
	vmovdqu	\f1, (\off+32)(%rsi)
	vmovdqu	\r0, (\off+64)(%rsi)
	vmovdqu	\r2, (\off+96)(%rsi)
.endm

GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx2_blocks4)
	xorl	%eax, %eax
	shrq	$2, %rcx			/* groups of 4 blocks */
	jz	.Lb4x_done

	vbroadcasti128 0(%rdi), %ymm8
	vbroadcasti128 16(%rdi), %ymm9
	vbroadcasti128 32(%rdi), %ymm10
	vbroadcasti128 48(%rdi), %ymm12
	vpaddq	.Lavx2_row_01(%rip), %ymm12, %ymm11
	vpaddq	.Lavx2_row_23(%rip), %ymm12, %ymm12
	vmovdqa	.Lavx2_rot16(%rip), %ymm15

.balign 32
.Lb4x_group:
	vmovdqa	%ymm8, %ymm0
	vmovdqa	%ymm9, %ymm1
	vmovdqa	%ymm10, %ymm2
	vmovdqa	%ymm11, %ymm3
	vmovdqa	%ymm8, %ymm4
	vmovdqa	%ymm9, %ymm5
	vmovdqa	%ymm10, %ymm6
	vmovdqa	%ymm12, %ymm7
	movl	%r8d, %eax
	shrl	$1, %eax

.balign 32
.Lb4x_dround:
	/* column round: set A, then set B (in program order the sets are
	 * not interleaved: the scheduler then favours one chain, which
	 * measured faster than step-by-step interleaving; docs/algorithms.rst,
	 * "The ChaCha family") */
	QR1	%ymm0, %ymm1, %ymm2, %ymm3, %ymm13, %ymm15, .Lavx2_rot8(%rip)
	QR1	%ymm4, %ymm5, %ymm6, %ymm7, %ymm14, %ymm15, .Lavx2_rot8(%rip)
	ROW_DIAG %ymm0, %ymm2, %ymm3
	ROW_DIAG %ymm4, %ymm6, %ymm7
	/* diagonal round */
	QR1	%ymm0, %ymm1, %ymm2, %ymm3, %ymm13, %ymm15, .Lavx2_rot8(%rip)
	QR1	%ymm4, %ymm5, %ymm6, %ymm7, %ymm14, %ymm15, .Lavx2_rot8(%rip)
	ROW_UNDIAG %ymm0, %ymm2, %ymm3
	ROW_UNDIAG %ymm4, %ymm6, %ymm7
	subl	$1, %eax
	jnz	.Lb4x_dround

	/* feed-forward */
	vpaddd	%ymm8, %ymm0, %ymm0
	vpaddd	%ymm9, %ymm1, %ymm1
	vpaddd	%ymm10, %ymm2, %ymm2
	vpaddd	%ymm11, %ymm3, %ymm3
	vpaddd	%ymm8, %ymm4, %ymm4
	vpaddd	%ymm9, %ymm5, %ymm5
	vpaddd	%ymm10, %ymm6, %ymm6
	vpaddd	%ymm12, %ymm7, %ymm7
	/* next counters */
	vpaddq	.Lavx2_row_inc4(%rip), %ymm11, %ymm11
	vpaddq	.Lavx2_row_inc4(%rip), %ymm12, %ymm12

	OUTROWS	%ymm0, %ymm1, %ymm2, %ymm3, %ymm13, %ymm14, 0
	OUTROWS	%ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, 128

	addq	$256, %rdx
	addq	$256, %rsi
	subq	$1, %rcx
	jnz	.Lb4x_group

	vmovq	%xmm11, 48(%rdi)		/* words 12-13 only */
	vzeroall
	xorl	%eax, %eax
.Lb4x_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx2_blocks4)

/**********************************************************************
 * blocks2: two blocks as one row-form set ([block 0 row | block 1 row]).
 *   ymm0-3 rows a,b,c,d     ymm4 scratch
 *   ymm8-10 input rows a,b,c (both lanes)
 *   ymm11   input row d: counter+0 | counter+1
 *   ymm12 rot16 mask, ymm13 rot8 mask
 *   rdi state, rsi dst, rdx src, rcx pairs left, r8d rounds,
 *   eax double rounds left.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_chacha_amd64_avx2_blocks2)
	xorl	%eax, %eax
	shrq	$1, %rcx			/* pairs of blocks */
	jz	.Lb2_done

	vbroadcasti128 0(%rdi), %ymm8
	vbroadcasti128 16(%rdi), %ymm9
	vbroadcasti128 32(%rdi), %ymm10
	vbroadcasti128 48(%rdi), %ymm11
	vpaddq	.Lavx2_row_01(%rip), %ymm11, %ymm11
	vmovdqa	.Lavx2_rot16(%rip), %ymm12
	vmovdqa	.Lavx2_rot8(%rip), %ymm13

.balign 32
.Lb2_pair:
	vmovdqa	%ymm8, %ymm0
	vmovdqa	%ymm9, %ymm1
	vmovdqa	%ymm10, %ymm2
	vmovdqa	%ymm11, %ymm3
	movl	%r8d, %eax
	shrl	$1, %eax

.balign 32
.Lb2_dround:
	QR1	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm12, %ymm13
	ROW_DIAG %ymm0, %ymm2, %ymm3
	QR1	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm12, %ymm13
	ROW_UNDIAG %ymm0, %ymm2, %ymm3
	subl	$1, %eax
	jnz	.Lb2_dround

	vpaddd	%ymm8, %ymm0, %ymm0
	vpaddd	%ymm9, %ymm1, %ymm1
	vpaddd	%ymm10, %ymm2, %ymm2
	vpaddd	%ymm11, %ymm3, %ymm3
	vpaddq	.Lavx2_row_inc2(%rip), %ymm11, %ymm11

	OUTROWS	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, 0

	addq	$128, %rdx
	addq	$128, %rsi
	subq	$1, %rcx
	jnz	.Lb2_pair

	vmovq	%xmm11, 48(%rdi)		/* words 12-13 only */
	vzeroall
	xorl	%eax, %eax
.Lb2_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_avx2_blocks2)

/**********************************************************************
 * HChaCha: row form on xmm (VEX), rounds/2 double rounds, no
 * feed-forward; out32 = row a (words 0-3) then row d (words 12-15).
 *   xmm0-3 rows, xmm4 scratch, xmm5/6 rot masks; rdi state, rsi out,
 *   edx rounds.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_hchacha_amd64_avx2)
	vmovdqu	0(%rdi), %xmm0
	vmovdqu	16(%rdi), %xmm1
	vmovdqu	32(%rdi), %xmm2
	vmovdqu	48(%rdi), %xmm3
	vmovdqa	.Lavx2_rot16(%rip), %xmm5
	vmovdqa	.Lavx2_rot8(%rip), %xmm6
	shrl	$1, %edx
	jz	.Lhcx_out
.balign 32
.Lhcx_dround:
	QR1	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	ROW_DIAG %xmm0, %xmm2, %xmm3
	QR1	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	ROW_UNDIAG %xmm0, %xmm2, %xmm3
	subl	$1, %edx
	jnz	.Lhcx_dround
.Lhcx_out:
	vmovdqu	%xmm0, 0(%rsi)
	vmovdqu	%xmm3, 16(%rsi)
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hchacha_amd64_avx2)

#endif /* __x86_64__ */
