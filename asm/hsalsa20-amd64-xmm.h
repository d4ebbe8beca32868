/* hsalsa20-amd64-xmm.h - what the AVX2 and AVX-512 HSalsa20 routines
 * (salsa20-amd64-avx2.S, salsa20-amd64-avx512.S) share: one block in the
 * row/diagonal form in xmm0-3, the loads into that form, the double round
 * and the 32-byte output.  Included once per .S file, after
 * asm-common-amd64.h; VEX/EVEX xmm only.
 *
 * Lane j of each register belongs to column quarter-round j:
 *   A = x0  x5  x10 x15   (a words)       B = x4  x9  x14 x3   (b)
 *   C = x8  x13 x2  x7    (c)             D = x12 x1  x6  x11  (d)
 * Column round:  B ^= (A+D)<<<7; C ^= (B+A)<<<9; D ^= (C+B)<<<13;
 *                A ^= (D+C)<<<18.
 * For the row round the same registers are rotated by lanes so that lane j
 * belongs to row quarter-round j: D -> (x1 x6 x11 x12) by pshufd 0x39 takes
 * the b role, C -> (x2 x7 x8 x13) by 0x4e the c role, B -> (x3 x4 x9 x14)
 * by 0x93 the d role:
 *                D ^= (A+B)<<<7; C ^= (D+A)<<<9; B ^= (C+D)<<<13;
 *                A ^= (B+C)<<<18,
 * and rotated back afterwards.  Each rotation is issued right after the
 * register's last use in its half-round, so all six are off the step chain.
 *
 * xmm0 A, xmm1 B, xmm2 C, xmm3 D; xmm4 the step temporary (the including
 * file's STEP and ROT18_A may use more: xmm5); xmm4-7 set-up and output
 * scratch; rdi state, rsi out32.
 */
#ifndef GCRYLIKE_HSALSA20_AMD64_XMM_H
#define GCRYLIKE_HSALSA20_AMD64_XMM_H

/* The state at rdi (rows R0..R3, words 4r..4r+3) to the diagonal form.
 * First the qword blends M02 = (x0 x1 x10 x11), M20 = (x8 x9 x2 x3),
 * M13 = (x4 x5 x14 x15), M31 = (x12 x13 x6 x7); then each register is
 * shufps(lanes 0,2 of one, lanes 1,3 of the next) = (e.g.) x0 x10 x5
 * x15, put in order by pshufd 0xd8. */
.macro HSALSA_LOAD
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
.endm

/* One double round.  STEP x, p, q, k does x ^= (p + q) <<< k; ROT18_A
 * finishes A ^= (sum in xmm4) <<< 18 (the sum is started before the
 * rotations by lanes, the rest after them). */
.macro HSALSA_DROUND step, rot18_a
	/* column round */
	\step	%xmm1, %xmm0, %xmm3, 7		/* B ^= (A+D)<<<7 */
	\step	%xmm2, %xmm1, %xmm0, 9		/* C ^= (B+A)<<<9 */
	\step	%xmm3, %xmm2, %xmm1, 13		/* D ^= (C+B)<<<13 */
	vpshufd	$0x93, %xmm1, %xmm1		/* B -> x3 x4 x9 x14 (d role) */
	vpaddd	%xmm2, %xmm3, %xmm4		/* A ^= (D+C)<<<18 ... */
	vpshufd	$0x39, %xmm3, %xmm3		/* D -> x1 x6 x11 x12 (b role) */
	vpshufd	$0x4e, %xmm2, %xmm2		/* C -> x2 x7 x8 x13 (c role) */
	\rot18_a
	/* row round */
	\step	%xmm3, %xmm0, %xmm1, 7		/* D ^= (A+B)<<<7 */
	\step	%xmm2, %xmm3, %xmm0, 9		/* C ^= (D+A)<<<9 */
	\step	%xmm1, %xmm2, %xmm3, 13		/* B ^= (C+D)<<<13 */
	vpshufd	$0x93, %xmm3, %xmm3		/* D back to x12 x1 x6 x11 */
	vpaddd	%xmm2, %xmm1, %xmm4		/* A ^= (B+C)<<<18 ... */
	vpshufd	$0x39, %xmm1, %xmm1		/* B back to x4 x9 x14 x3 */
	vpshufd	$0x4e, %xmm2, %xmm2		/* C back to x8 x13 x2 x7 */
	\rot18_a
.endm

/* out32 = A (x0 x5 x10 x15), then x6 x7 x8 x9:
 *   unpacklo(C, B) = x8 x4 x13 x9,  unpackhi(D, C) = x6 x2 x11 x7,
 *   shufps 0xcc picks lanes 0,3 of each. */
.macro HSALSA_STORE
	vmovdqu	%xmm0, 0(%rsi)
	vpunpckldq %xmm1, %xmm2, %xmm4		/* x8 x4 x13 x9 */
	vpunpckhdq %xmm2, %xmm3, %xmm5		/* x6 x2 x11 x7 */
	vshufps	$0xcc, %xmm4, %xmm5, %xmm5	/* x6 x7 x8 x9 */
	vmovdqu	%xmm5, 16(%rsi)
.endm

#endif /* GCRYLIKE_HSALSA20_AMD64_XMM_H */
