/* chacha-amd64-ssse3.S - ChaCha20/12/8 and HChaCha for amd64 with SSSE3.
 *
 * Written from RFC 8439 (ChaCha20 block function, section 2.3) and
 * draft-irtf-cfrg-xchacha (HChaCha20, section 2.2).
 *
 * ABI (System V AMD64, all routines hidden globals):
 *
 *   unsigned int _gcry_chacha_amd64_ssse3_blocks1(uint32_t *state,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks,
 *           unsigned int rounds);
 *   unsigned int _gcry_chacha_amd64_ssse3_blocks4(uint32_t *state,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks,
 *           unsigned int rounds);          -- nblocks a multiple of 4
 *   unsigned int _gcry_hchacha_amd64_ssse3(const uint32_t *state,
 *           uint8_t *out32, unsigned int rounds);
 *
 * state: 16 uint32 words as RFC 8439 (0-3 constants, 4-11 key, 12-15
 * counter/nonce).  Words 12-13 are one 64-bit little-endian block counter
 * (word 12 low); block i of a call uses counter+i, with the carry from word
 * 12 into word 13, and counter+nblocks is stored back.  Nothing but words
 * 12-13 of the state is ever written.  The state is 16-byte aligned in
 * practice, but only unaligned loads are used on it.  dst = src XOR
 * keystream; dst and src may be unaligned and may be equal.  rounds is any
 * even number >= 2 (20, 12, 8 in use): rounds/2 double rounds are run.
 * nblocks is rounded down to the routine's multiple; nblocks 0 returns 0 at
 * once.
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"), 0 if none.  It does not
 * wipe them itself: the C glue wipes the deepest depth once per call.  Every
 * xmm register that held key, state or keystream is cleared before return.
 * blocks1 and hchacha use no stack (depth 0); blocks4 keeps two 16-byte
 * spill slots in the red zone (depth 40 with an ABI-aligned stack, computed
 * exactly at run time).
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 16
/* pshufb masks: rotate every 32-bit lane left by 16 / by 8. */
.Lssse3_rot16:
	.byte 2,3,0,1, 6,7,4,5, 10,11,8,9, 14,15,12,13
.Lssse3_rot8:
	.byte 3,0,1,2, 7,4,5,6, 11,8,9,10, 15,12,13,14
/* 64-bit counter increments. */
.Lssse3_q10:			/* +1 on the low qword (words 12-13 of a row) */
	.quad 1, 0
.Lssse3_q01:			/* lanes 0,1 of a 4-block group */
	.quad 0, 1
.Lssse3_q23:			/* lanes 2,3 of a 4-block group */
	.quad 2, 3

.text

/* Row-form quarter round on the four rows a,b,c,d (all four columns, or
 * all four diagonals once the rows are rotated).  t is a scratch register,
 * r16/r8 hold the pshufb rotate masks.  rot 16/8 by pshufb, rot 12/7 by
 * shift+shift+or. */
.macro ROW_QR a, b, c, d, t, r16, r8
	paddd	\b, \a;  pxor \a, \d;  pshufb \r16, \d
	paddd	\d, \c;  pxor \c, \b
	movdqa	\b, \t;  pslld $12, \b;  psrld $20, \t;  por \t, \b
	paddd	\b, \a;  pxor \a, \d;  pshufb \r8, \d
	paddd	\d, \c;  pxor \c, \b
	movdqa	\b, \t;  pslld $7, \b;   psrld $25, \t;  por \t, \b
.endm

/* Row form: move from columns to diagonals.  Row b stays; a, c, d are
 * rotated so that lane j holds a[j-1], b[j], c[j+1], d[j+2] -- the diagonal
 * through b[j].  Keeping b in place takes the shuffles off the critical
 * path (b is the last row a quarter round finishes). */
.macro ROW_DIAG a, c, d
	pshufd	$0x93, \a, \a
	pshufd	$0x39, \c, \c
	pshufd	$0x4e, \d, \d
.endm
.macro ROW_UNDIAG a, c, d
	pshufd	$0x39, \a, \a
	pshufd	$0x93, \c, \c
	pshufd	$0x4e, \d, \d
.endm

/**********************************************************************
 * blocks1: one block at a time, row form.
 *   xmm0-3   working rows a,b,c,d          xmm4      scratch
 *   xmm8-11  input rows (xmm11 = row d, its low qword the 64-bit counter)
 *   xmm12    rot16 mask    xmm13 rot8 mask    xmm14 counter step {1,0}
 *   rdi state, rsi dst, rdx src, rcx blocks left, r8d rounds, eax dbl rounds
 * No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_chacha_amd64_ssse3_blocks1)
	xorl	%eax, %eax
	testq	%rcx, %rcx
	jz	.Lb1_done

	movdqu	0(%rdi), %xmm8
	movdqu	16(%rdi), %xmm9
	movdqu	32(%rdi), %xmm10
	movdqu	48(%rdi), %xmm11
	movdqa	.Lssse3_rot16(%rip), %xmm12
	movdqa	.Lssse3_rot8(%rip), %xmm13
	movdqa	.Lssse3_q10(%rip), %xmm14

.balign 16
.Lb1_block:
	movdqa	%xmm8, %xmm0
	movdqa	%xmm9, %xmm1
	movdqa	%xmm10, %xmm2
	movdqa	%xmm11, %xmm3
	movl	%r8d, %eax
	shrl	$1, %eax

.balign 16
.Lb1_dround:
	/* column round */
	ROW_QR	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm12, %xmm13
	ROW_DIAG %xmm0, %xmm2, %xmm3
	/* diagonal round */
	ROW_QR	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm12, %xmm13
	ROW_UNDIAG %xmm0, %xmm2, %xmm3
	subl	$1, %eax
	jnz	.Lb1_dround

	/* feed-forward, xor with src, store; next counter */
	paddd	%xmm8, %xmm0
	paddd	%xmm9, %xmm1
	paddd	%xmm10, %xmm2
	paddd	%xmm11, %xmm3
	paddq	%xmm14, %xmm11
	movdqu	0(%rdx), %xmm4
	pxor	%xmm4, %xmm0
	movdqu	16(%rdx), %xmm4
	pxor	%xmm4, %xmm1
	movdqu	32(%rdx), %xmm4
	pxor	%xmm4, %xmm2
	movdqu	48(%rdx), %xmm4
	pxor	%xmm4, %xmm3
	movdqu	%xmm0, 0(%rsi)
	movdqu	%xmm1, 16(%rsi)
	movdqu	%xmm2, 32(%rsi)
	movdqu	%xmm3, 48(%rsi)
	addq	$64, %rdx
	addq	$64, %rsi
	subq	$1, %rcx
	jnz	.Lb1_block

	/* store words 12-13 (the 64-bit counter) only */
	movq	%xmm11, 48(%rdi)

	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	pxor	%xmm2, %xmm2
	pxor	%xmm3, %xmm3
	pxor	%xmm4, %xmm4
	pxor	%xmm8, %xmm8
	pxor	%xmm9, %xmm9
	pxor	%xmm10, %xmm10
	pxor	%xmm11, %xmm11
	pxor	%xmm12, %xmm12
	pxor	%xmm13, %xmm13
	pxor	%xmm14, %xmm14
	xorl	%eax, %eax
.Lb1_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_ssse3_blocks1)

/**********************************************************************
 * blocks4: four blocks in parallel, transposed form: one xmm per state
 * word, lane j = block j of the group.
 *   xmm0-3   words 0-3 (a)        xmm4-7   words 4-7 (b)
 *   xmm10-13 words 12-15 (d)
 *   c words 8-11: two live in registers, two in spill slots S0/S1
 *   (0(%r11), 16(%r11), 16-byte aligned, in the red zone); the register
 *   pair holding c and the pair used as scratch swap roles:
 *     column half 1  QR(0,4,8,12) QR(1,5,9,13)    c=xmm8,xmm9   t=xmm14,15
 *       swap A: xmm14,15 <- S0,S1 (w10,w11); S0,S1 <- xmm8,9 (w8,w9)
 *     column half 2  QR(2,6,10,14) QR(3,7,11,15)  c=xmm14,15    t=xmm8,9
 *     diag half 1    QR(0,5,10,15) QR(1,6,11,12)  c=xmm14,15    t=xmm8,9
 *       swap B: xmm8,9 <- S0,S1 (w8,w9); S0,S1 <- xmm14,15 (w10,w11)
 *     diag half 2    QR(2,7,8,13)  QR(3,4,9,14)   c=xmm8,xmm9   t=xmm14,15
 *   so each double round starts and ends with w8,w9 in xmm8,9 and
 *   w10,w11 in S0,S1.  rot masks are aligned rodata memory operands.
 *   r9 = 64-bit counter, r10d = double-round counter, rcx = groups left.
 **********************************************************************/

/* Two independent quarter rounds interleaved, transposed form (SSE,
 * two-operand).  t1/t2 scratch. */
.macro QR2 a1, b1, c1, d1, a2, b2, c2, d2, t1, t2
	paddd	\b1, \a1;  paddd \b2, \a2
	pxor	\a1, \d1;  pxor \a2, \d2
	pshufb	.Lssse3_rot16(%rip), \d1;  pshufb .Lssse3_rot16(%rip), \d2
	paddd	\d1, \c1;  paddd \d2, \c2
	pxor	\c1, \b1;  pxor \c2, \b2
	movdqa	\b1, \t1;  movdqa \b2, \t2
	pslld	$12, \b1;  pslld $12, \b2
	psrld	$20, \t1;  psrld $20, \t2
	por	\t1, \b1;  por \t2, \b2
	paddd	\b1, \a1;  paddd \b2, \a2
	pxor	\a1, \d1;  pxor \a2, \d2
	pshufb	.Lssse3_rot8(%rip), \d1;  pshufb .Lssse3_rot8(%rip), \d2
	paddd	\d1, \c1;  paddd \d2, \c2
	pxor	\c1, \b1;  pxor \c2, \b2
	movdqa	\b1, \t1;  movdqa \b2, \t2
	pslld	$7, \b1;   pslld $7, \b2
	psrld	$25, \t1;  psrld $25, \t2
	por	\t1, \b1;  por \t2, \b2
.endm

/* Broadcast the four words of the row in r into x0..x3 (x3 may be r). */
.macro BCAST4 r, x0, x1, x2, x3
	pshufd	$0x00, \r, \x0
	pshufd	$0x55, \r, \x1
	pshufd	$0xaa, \r, \x2
	pshufd	$0xff, \r, \x3
.endm

/* Lanes of words 12 and 13 for counter r9 + 0..3 (64-bit, with carry):
 * lo <- low halves, hi <- high halves.  Clobbers t. */
.macro CTR4 lo, hi, t
	movq	%r9, \hi
	punpcklqdq \hi, \hi
	movdqa	\hi, \t
	paddq	.Lssse3_q01(%rip), \hi		/* ctr+0, ctr+1 */
	paddq	.Lssse3_q23(%rip), \t		/* ctr+2, ctr+3 */
	movdqa	\hi, \lo
	shufps	$0x88, \t, \lo			/* lo dwords of ctr+0..3 */
	shufps	$0xdd, \t, \hi			/* hi dwords of ctr+0..3 */
.endm

/* Add broadcast row r (a register) to x0..x3; t scratch. */
.macro FEED4 r, x0, x1, x2, x3, t
	pshufd	$0x00, \r, \t;  paddd \t, \x0
	pshufd	$0x55, \r, \t;  paddd \t, \x1
	pshufd	$0xaa, \r, \t;  paddd \t, \x2
	pshufd	$0xff, \r, \t;  paddd \t, \x3
.endm

/* 4x4 transpose of words x0..x3 (lane j = block j) into block rows, xor
 * with src and store to dst at byte offset off of each of the 4 blocks.
 * t0/t1 scratch.  All six registers are clobbered. */
.macro OUT4 x0, x1, x2, x3, t0, t1, off
	movdqa	\x0, \t0;  punpckldq \x1, \t0	/* x0_0 x1_0 x0_1 x1_1 */
	punpckhdq \x1, \x0			/* x0_2 x1_2 x0_3 x1_3 */
	movdqa	\x2, \t1;  punpckldq \x3, \t1	/* x2_0 x3_0 x2_1 x3_1 */
	punpckhdq \x3, \x2			/* x2_2 x3_2 x2_3 x3_3 */
	movdqa	\t0, \x1;  punpcklqdq \t1, \x1	/* block 0 */
	punpckhqdq \t1, \t0			/* block 1 */
	movdqa	\x0, \x3;  punpcklqdq \x2, \x3	/* block 2 */
	punpckhqdq \x2, \x0			/* block 3 */
	movdqu	\off+0(%rdx), \x2;    pxor \x2, \x1;  movdqu \x1, \off+0(%rsi)
	movdqu	\off+64(%rdx), \t1;   pxor \t1, \t0;  movdqu \t0, \off+64(%rsi)
	movdqu	\off+128(%rdx), \x2;  pxor \x2, \x3;  movdqu \x3, \off+128(%rsi)
	movdqu	\off+192(%rdx), \t1;  pxor \t1, \x0;  movdqu \x0, \off+192(%rsi)
.endm

GCRY_FUNC_BEGIN(_gcry_chacha_amd64_ssse3_blocks4)
	xorl	%eax, %eax
	shrq	$2, %rcx			/* groups of 4 blocks */
	jz	.Lb4_done

	/* two aligned 16-byte spill slots in the red zone */
	leaq	-32(%rsp), %r11
	andq	$-16, %r11
	movq	48(%rdi), %r9			/* 64-bit block counter */

.balign 16
.Lb4_group:
	/* state words broadcast to all four lanes */
	movdqu	0(%rdi), %xmm3
	BCAST4	%xmm3, %xmm0, %xmm1, %xmm2, %xmm3
	movdqu	16(%rdi), %xmm7
	BCAST4	%xmm7, %xmm4, %xmm5, %xmm6, %xmm7
	movdqu	32(%rdi), %xmm15
	BCAST4	%xmm15, %xmm8, %xmm9, %xmm14, %xmm15
	movdqa	%xmm14, 0(%r11)			/* S0 = w10 */
	movdqa	%xmm15, 16(%r11)		/* S1 = w11 */
	movdqu	48(%rdi), %xmm13
	pshufd	$0xaa, %xmm13, %xmm12
	pshufd	$0xff, %xmm13, %xmm13
	CTR4	%xmm10, %xmm11, %xmm14
	movl	%r8d, %r10d
	shrl	$1, %r10d

.balign 16
.Lb4_dround:
	/* column round, words 8,9 in registers */
	QR2	%xmm0, %xmm4, %xmm8, %xmm10,  %xmm1, %xmm5, %xmm9, %xmm11, \
		%xmm14, %xmm15
	movdqa	0(%r11), %xmm14
	movdqa	16(%r11), %xmm15
	movdqa	%xmm8, 0(%r11)
	movdqa	%xmm9, 16(%r11)
	/* column round, words 10,11 in registers */
	QR2	%xmm2, %xmm6, %xmm14, %xmm12,  %xmm3, %xmm7, %xmm15, %xmm13, \
		%xmm8, %xmm9
	/* diagonal round (0,5,10,15) (1,6,11,12) */
	QR2	%xmm0, %xmm5, %xmm14, %xmm13,  %xmm1, %xmm6, %xmm15, %xmm10, \
		%xmm8, %xmm9
	movdqa	0(%r11), %xmm8
	movdqa	16(%r11), %xmm9
	movdqa	%xmm14, 0(%r11)
	movdqa	%xmm15, 16(%r11)
	/* diagonal round (2,7,8,13) (3,4,9,14) */
	QR2	%xmm2, %xmm7, %xmm8, %xmm11,  %xmm3, %xmm4, %xmm9, %xmm12, \
		%xmm14, %xmm15
	subl	$1, %r10d
	jnz	.Lb4_dround

	/* words 0-3: feed-forward, transpose, xor, store (scratch 14,15) */
	movdqu	0(%rdi), %xmm15
	FEED4	%xmm15, %xmm0, %xmm1, %xmm2, %xmm3, %xmm14
	OUT4	%xmm0, %xmm1, %xmm2, %xmm3, %xmm14, %xmm15, 0
	/* words 4-7 */
	movdqu	16(%rdi), %xmm15
	FEED4	%xmm15, %xmm4, %xmm5, %xmm6, %xmm7, %xmm14
	OUT4	%xmm4, %xmm5, %xmm6, %xmm7, %xmm14, %xmm15, 16
	/* words 12-15: counter lanes rebuilt in xmm0,1 */
	CTR4	%xmm0, %xmm1, %xmm2
	paddd	%xmm0, %xmm10
	paddd	%xmm1, %xmm11
	movdqu	48(%rdi), %xmm15
	pshufd	$0xaa, %xmm15, %xmm14
	paddd	%xmm14, %xmm12
	pshufd	$0xff, %xmm15, %xmm14
	paddd	%xmm14, %xmm13
	OUT4	%xmm10, %xmm11, %xmm12, %xmm13, %xmm14, %xmm15, 48
	/* words 8-11: w10,w11 back from S0,S1 */
	movdqa	0(%r11), %xmm0
	movdqa	16(%r11), %xmm1
	movdqu	32(%rdi), %xmm15
	FEED4	%xmm15, %xmm8, %xmm9, %xmm0, %xmm1, %xmm14
	OUT4	%xmm8, %xmm9, %xmm0, %xmm1, %xmm14, %xmm15, 32

	addq	$4, %r9
	addq	$256, %rdx
	addq	$256, %rsi
	subq	$1, %rcx
	jnz	.Lb4_group

	movq	%r9, 48(%rdi)			/* words 12-13 only */

	GCRY_ZERO_XMM 16
	/* burn depth: entry rsp down to the lowest spill byte */
	movq	%rsp, %rax
	subq	%r11, %rax
.Lb4_done:
	ret
GCRY_FUNC_END(_gcry_chacha_amd64_ssse3_blocks4)

/**********************************************************************
 * HChaCha: row form, rounds/2 double rounds on the state as given (no
 * counter handling), no feed-forward; out32 = row a (words 0-3) then
 * row d (words 12-15).
 *   xmm0-3 rows, xmm4 scratch, xmm5/6 rot masks; rdi state, rsi out,
 *   edx rounds.  No stack use.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_hchacha_amd64_ssse3)
	movdqu	0(%rdi), %xmm0
	movdqu	16(%rdi), %xmm1
	movdqu	32(%rdi), %xmm2
	movdqu	48(%rdi), %xmm3
	movdqa	.Lssse3_rot16(%rip), %xmm5
	movdqa	.Lssse3_rot8(%rip), %xmm6
	shrl	$1, %edx
	jz	.Lhc_out
.balign 16
.Lhc_dround:
	ROW_QR	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	ROW_DIAG %xmm0, %xmm2, %xmm3
	ROW_QR	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	ROW_UNDIAG %xmm0, %xmm2, %xmm3
	subl	$1, %edx
	jnz	.Lhc_dround
.Lhc_out:
	movdqu	%xmm0, 0(%rsi)
	movdqu	%xmm3, 16(%rsi)
	GCRY_ZERO_XMM 7
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hchacha_amd64_ssse3)

#endif /* __x86_64__ */
