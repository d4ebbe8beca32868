/* chacha-amd64-avx2.h - what the AVX2 ChaCha routines of eight blocks in
 * transposed form share (chacha-amd64-avx2.S, and the stitched
 * chacha20-poly1305-amd64-avx2.S): the rotate masks and counter offsets,
 * the interleaved round, the counter lanes, the transpose and the output
 * step.  Included once per .S file, after asm-common-amd64.h; it leaves
 * the assembler in .text.
 *
 * Transposed form: one ymm per state word, dword lane j = block j of the
 * group of eight.
 */
#ifndef GCRYLIKE_CHACHA_AMD64_AVX2_H
#define GCRYLIKE_CHACHA_AMD64_AVX2_H

GCRY_RODATA
.balign 32
/* vpshufb masks (both 128-bit lanes): rotate each dword left by 16 / 8. */
.Lavx2_rot16:
	.byte 2,3,0,1, 6,7,4,5, 10,11,8,9, 14,15,12,13
	.byte 2,3,0,1, 6,7,4,5, 10,11,8,9, 14,15,12,13
.Lavx2_rot8:
	.byte 3,0,1,2, 7,4,5,6, 11,8,9,10, 15,12,13,14
	.byte 3,0,1,2, 7,4,5,6, 11,8,9,10, 15,12,13,14
/* Per-lane counter offsets as qwords.  vshufps takes two dwords per
 * 128-bit lane from each source, so {0,1 | 4,5} and {2,3 | 6,7} give
 * lanes 0..7 in order. */
.Lavx2_q0145:
	.quad 0, 1, 4, 5
.Lavx2_q2367:
	.quad 2, 3, 6, 7

.text

/* The default HOOK of QR4M: nothing between the steps. */
.macro QR4M_NOHOOK q
.endm

/* One ChaCha round of the transposed form: four independent quarter
 * rounds interleaved step by step.  The fourth (a3,b3,S,d3) has its c word
 * in memory slot S: c is formed in the scratch register t, stored back to
 * S and xored into b3, after which t is free for the rotates.  rot 16/8 by
 * vpshufb, rot 12/7 by shift, shift, or.  HOOK, if given, is a macro run
 * with Q+0 .. Q+5 after every other step (the stitched routine's Poly1305
 * parts); without it the round is the plain one. */
.macro QR4M a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,S,d3, t, hook=QR4M_NOHOOK, q=0
	/* a += b; d ^= a; d <<<= 16 */
	vpaddd	\b0, \a0, \a0;  vpaddd \b1, \a1, \a1
	vpaddd	\b2, \a2, \a2;  vpaddd \b3, \a3, \a3
	vpxor	\a0, \d0, \d0;  vpxor \a1, \d1, \d1
	vpxor	\a2, \d2, \d2;  vpxor \a3, \d3, \d3
	\hook	\q+0
	vpshufb	.Lavx2_rot16(%rip), \d0, \d0;  vpshufb .Lavx2_rot16(%rip), \d1, \d1
	vpshufb	.Lavx2_rot16(%rip), \d2, \d2;  vpshufb .Lavx2_rot16(%rip), \d3, \d3
	/* c += d; b ^= c; b <<<= 12 */
	vpaddd	\d0, \c0, \c0;  vpaddd \d1, \c1, \c1
	vpaddd	\d2, \c2, \c2;  vpaddd \S, \d3, \t
	vmovdqa	\t, \S
	vpxor	\c0, \b0, \b0;  vpxor \c1, \b1, \b1
	vpxor	\c2, \b2, \b2;  vpxor \t, \b3, \b3
	\hook	\q+1
	vpsrld	$20, \b0, \t;  vpslld $12, \b0, \b0;  vpor \t, \b0, \b0
	vpsrld	$20, \b1, \t;  vpslld $12, \b1, \b1;  vpor \t, \b1, \b1
	vpsrld	$20, \b2, \t;  vpslld $12, \b2, \b2;  vpor \t, \b2, \b2
	vpsrld	$20, \b3, \t;  vpslld $12, \b3, \b3;  vpor \t, \b3, \b3
	/* a += b; d ^= a; d <<<= 8 */
	vpaddd	\b0, \a0, \a0;  vpaddd \b1, \a1, \a1
	vpaddd	\b2, \a2, \a2;  vpaddd \b3, \a3, \a3
	\hook	\q+2
	vpxor	\a0, \d0, \d0;  vpxor \a1, \d1, \d1
	vpxor	\a2, \d2, \d2;  vpxor \a3, \d3, \d3
	vpshufb	.Lavx2_rot8(%rip), \d0, \d0;  vpshufb .Lavx2_rot8(%rip), \d1, \d1
	vpshufb	.Lavx2_rot8(%rip), \d2, \d2;  vpshufb .Lavx2_rot8(%rip), \d3, \d3
	\hook	\q+3
	/* c += d; b ^= c; b <<<= 7 */
	vpaddd	\d0, \c0, \c0;  vpaddd \d1, \c1, \c1
	vpaddd	\d2, \c2, \c2;  vpaddd \S, \d3, \t
	vmovdqa	\t, \S
	\hook	\q+4
	vpxor	\c0, \b0, \b0;  vpxor \c1, \b1, \b1
	vpxor	\c2, \b2, \b2;  vpxor \t, \b3, \b3
	vpsrld	$25, \b0, \t;  vpslld $7, \b0, \b0;  vpor \t, \b0, \b0
	vpsrld	$25, \b1, \t;  vpslld $7, \b1, \b1;  vpor \t, \b1, \b1
	\hook	\q+5
	vpsrld	$25, \b2, \t;  vpslld $7, \b2, \b2;  vpor \t, \b2, \b2
	vpsrld	$25, \b3, \t;  vpslld $7, \b3, \b3;  vpor \t, \b3, \b3
.endm

/* Lanes of words 12/13 for the 64-bit counter CTR (an xmm register or a
 * memory qword) plus 0..7, with the carry: lo <- low dwords, hi <- high
 * dwords; t scratch. */
.macro CTR8 lo, hi, t, ctr
	vpbroadcastq \ctr, \t
	vpaddq	.Lavx2_q0145(%rip), \t, \hi
	vpaddq	.Lavx2_q2367(%rip), \t, \t
	vshufps	$0x88, \t, \hi, \lo
	vshufps	$0xdd, \t, \hi, \hi
.endm

/* In-lane 4x4 transpose of words x0..x3: afterwards
 *   x1 = [blk0 | blk4], t0 = [blk1 | blk5], x3 = [blk2 | blk6],
 *   x0 = [blk3 | blk7]  (each 128-bit half = the 4 consecutive words of
 *   one block); x2 and t1 are free. */
.macro TRANSPOSE4 x0, x1, x2, x3, t0, t1
	vpunpckldq  \x1, \x0, \t0		/* x0_0 x1_0 x0_1 x1_1 */
	vpunpckhdq  \x1, \x0, \x0		/* x0_2 x1_2 x0_3 x1_3 */
	vpunpckldq  \x3, \x2, \t1		/* x2_0 x3_0 x2_1 x3_1 */
	vpunpckhdq  \x3, \x2, \x2		/* x2_2 x3_2 x2_3 x3_3 */
	vpunpcklqdq \t1, \t0, \x1		/* dword lane 0 of each half */
	vpunpckhqdq \t1, \t0, \t0		/* lane 1 */
	vpunpcklqdq \x2, \x0, \x3		/* lane 2 */
	vpunpckhqdq \x2, \x0, \x0		/* lane 3 */
.endm

/* lo = [blk j | blk j+4] words w..w+3, hi = the same for words w+4..w+7:
 * xor with SRC and store to DST (base registers) 32 bytes of block j and
 * of block j+4 at byte offset off.  f scratch; lo clobbered. */
.macro OUT2 lo, hi, f, j, off, src, dst
	vperm2i128 $0x20, \hi, \lo, \f
	vperm2i128 $0x31, \hi, \lo, \lo
	vpxor	(\j*64+\off)(\src), \f, \f
	vpxor	((\j+4)*64+\off)(\src), \lo, \lo
	vmovdqu	\f, (\j*64+\off)(\dst)
	vmovdqu	\lo, ((\j+4)*64+\off)(\dst)
.endm

#endif /* GCRYLIKE_CHACHA_AMD64_AVX2_H */
