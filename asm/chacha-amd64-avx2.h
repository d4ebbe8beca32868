/* chacha-amd64-avx2.h - what the AVX2 ChaCha routines of eight blocks in
 * transposed form share (chacha-amd64-avx2.S, and the stitched
 * chacha20-poly1305-amd64-avx2.S): the rotate masks and counter offsets,
 * the interleaved round, the counter lanes, and (from
 * transpose-amd64-avx2.h) the transpose and the output step.  Included
 * once per .S file, after asm-common-amd64.h; it leaves the assembler in
 * .text.
 *
 * Transposed form: one ymm per state word, dword lane j = block j of the
 * group of eight.
 */
#ifndef GCRYLIKE_CHACHA_AMD64_AVX2_H
#define GCRYLIKE_CHACHA_AMD64_AVX2_H

#include "transpose-amd64-avx2.h"

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

#endif /* GCRYLIKE_CHACHA_AMD64_AVX2_H */
