/* salsa20-aarch64-neon.S - Salsa20 (Bernstein, "Salsa20 specification")
 * and HSalsa20 with aarch64 Advanced SIMD.
 *
 *   unsigned int _gcry_salsa20_aarch64_neon_blocks4 (uint32_t *state,
 *       uint8_t *dst, const uint8_t *src, size_t nblocks, unsigned int rounds);
 *   unsigned int _gcry_salsa20_aarch64_neon_blocks1 (same arguments);
 *   unsigned int _gcry_hsalsa20_aarch64_neon (const uint32_t *state,
 *       uint8_t *out32, unsigned int rounds);
 *
 * The block routines (gcry_stream_blocks_fn, stream_driver.h): dst = src ^
 * keystream for NBLOCKS blocks (a multiple of 4, or any count), words 8-9
 * of STATE advanced as one 64-bit block counter.  ROUNDS is even (20, 12,
 * 8): ROUNDS / 2 double rounds (a column round, then a row round).
 * HSalsa20: the rounds on STATE (constants 0, 5, 10, 15, key 1-4 and
 * 11-14, the 16-byte input in 6-9) without the final addition, words 0, 5,
 * 10, 15, 6, 7, 8, 9 out.
 *
 * The quarter round on (y0, y1, y2, y3), each step one add, one rotation
 * (shl into a temporary and sri of the rest) and one eor:
 *   y1 ^= (y0 + y3) <<< 7;  y2 ^= (y1 + y0) <<< 9;
 *   y3 ^= (y2 + y1) <<< 13; y0 ^= (y3 + y2) <<< 18.
 * Column round: (0, 4, 8, 12) (5, 9, 13, 1) (10, 14, 2, 6) (15, 3, 7, 11);
 * row round: (0, 1, 2, 3) (5, 6, 7, 4) (10, 11, 8, 9) (15, 12, 13, 14).
 *
 * blocks4 keeps word i of four consecutive blocks in the four lanes of
 * x<i> = v(16+i) ("vertical" form): a round is four independent quarter
 * rounds, interleaved step by step (every step four independent
 * instructions of each kind).  The state words are broadcast with ld4r,
 * the lane counters built from the 64-bit counter plus 0..3 with the
 * carry; four 4x4 transposes (zip1/zip2) turn lanes back into blocks.
 * blocks1 and HSalsa20 keep one block in "diagonal" form in v0-v3:
 *   a = (x0, x5, x10, x15), b = (x4, x9, x14, x3),
 *   c = (x8, x13, x2, x7),  d = (x12, x1, x6, x11),
 * so the column round is the quarter round on lanes (a, b, c, d); with d,
 * c, b rotated by 1, 2, 3 lanes (ext) the row round is the quarter round
 * on (a, d, c, b), and the rotations are undone.  The state goes in and
 * out of that form with one four-register tbl per row.
 *
 * AAPCS64: x0-x4 arguments, x8-x10 scratch; only v0-v7 and v16-v31 are
 * written.  Every vector register that held state, keystream or data is
 * zeroed before returning.  No stack: each returns 0 (its burn depth).
 */
#include "asm-common-aarch64.h"

GCRY_RODATA
.balign 16
/* the block offsets of the four lanes */
.Lsalsa20_lanes:
	.long 0, 1, 2, 3
/* tbl indices, rows of the state (v16-v19) to the diagonal form a, b, c, d:
 * lane k of diagonal row j is lane k of state row (k + j) mod 4 */
.Lsalsa20_to_diag:
	.byte 0,1,2,3, 20,21,22,23, 40,41,42,43, 60,61,62,63
	.byte 16,17,18,19, 36,37,38,39, 56,57,58,59, 12,13,14,15
	.byte 32,33,34,35, 52,53,54,55, 8,9,10,11, 28,29,30,31
	.byte 48,49,50,51, 4,5,6,7, 24,25,26,27, 44,45,46,47
/* and back: lane k of state row i is lane k of diagonal row (i - k) mod 4 */
.Lsalsa20_from_diag:
	.byte 0,1,2,3, 52,53,54,55, 40,41,42,43, 28,29,30,31
	.byte 16,17,18,19, 4,5,6,7, 56,57,58,59, 44,45,46,47
	.byte 32,33,34,35, 20,21,22,23, 8,9,10,11, 60,61,62,63
	.byte 48,49,50,51, 36,37,38,39, 24,25,26,27, 12,13,14,15
/* HSalsa20's words 6, 7, 8, 9 from the diagonal form: d[2], c[3], c[0], b[1] */
.Lhsalsa20_out:
	.byte 56,57,58,59, 44,45,46,47, 32,33,34,35, 20,21,22,23

/* ---- vertical form: four quarter rounds on four lane groups -------- */

/* One step of four quarter rounds: d_i ^= (p_i + q_i) <<< N, through the
 * temporaries v0-v3 (the sums) and v4-v7 (the rotated sums). */
.macro STEP4 n, d0,p0,q0, d1,p1,q1, d2,p2,q2, d3,p3,q3
	add	v0.4s, \p0\().4s, \q0\().4s
	add	v1.4s, \p1\().4s, \q1\().4s
	add	v2.4s, \p2\().4s, \q2\().4s
	add	v3.4s, \p3\().4s, \q3\().4s
	shl	v4.4s, v0.4s, #\n
	shl	v5.4s, v1.4s, #\n
	shl	v6.4s, v2.4s, #\n
	shl	v7.4s, v3.4s, #\n
	sri	v4.4s, v0.4s, #(32 - \n)
	sri	v5.4s, v1.4s, #(32 - \n)
	sri	v6.4s, v2.4s, #(32 - \n)
	sri	v7.4s, v3.4s, #(32 - \n)
	eor	\d0\().16b, \d0\().16b, v4.16b
	eor	\d1\().16b, \d1\().16b, v5.16b
	eor	\d2\().16b, \d2\().16b, v6.16b
	eor	\d3\().16b, \d3\().16b, v7.16b
.endm

/* Four quarter rounds on (y0_i, y1_i, y2_i, y3_i). */
.macro QROUND4 a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3
	STEP4	7,  \b0,\a0,\d0, \b1,\a1,\d1, \b2,\a2,\d2, \b3,\a3,\d3
	STEP4	9,  \c0,\b0,\a0, \c1,\b1,\a1, \c2,\b2,\a2, \c3,\b3,\a3
	STEP4	13, \d0,\c0,\b0, \d1,\c1,\b1, \d2,\c2,\b2, \d3,\c3,\b3
	STEP4	18, \a0,\d0,\c0, \a1,\d1,\c1, \a2,\d2,\c2, \a3,\d3,\c3
.endm

.macro ADD4 a0,b0, a1,b1, a2,b2, a3,b3
	add	\a0\().4s, \a0\().4s, \b0\().4s
	add	\a1\().4s, \a1\().4s, \b1\().4s
	add	\a2\().4s, \a2\().4s, \b2\().4s
	add	\a3\().4s, \a3\().4s, \b3\().4s
.endm

/* Word 8 (LO) and 9 (HI) of the four lanes' blocks: the state's 64-bit
 * counter plus 0..3 (lane offsets in LANES), the carry into word 9 where
 * word 8 wrapped (cmhi gives all ones there: subtracting it adds 1). */
.macro CTR_LANES lo, hi, lanes, t0, t1
	add	\t0\().4s, \lo\().4s, \lanes\().4s
	cmhi	\t1\().4s, \lo\().4s, \t0\().4s
	sub	\hi\().4s, \hi\().4s, \t1\().4s
	mov	\lo\().16b, \t0\().16b
.endm

/* x0..x3 (four lanes' words 4g..4g+3) to block order in place: x_j
 * then holds words 4g..4g+3 of block j; v0-v3 are the temporaries. */
.macro TRANSPOSE4 x0, x1, x2, x3
	zip1	v0.4s, \x0\().4s, \x1\().4s
	zip2	v1.4s, \x0\().4s, \x1\().4s
	zip1	v2.4s, \x2\().4s, \x3\().4s
	zip2	v3.4s, \x2\().4s, \x3\().4s
	zip1	\x0\().2d, v0.2d, v2.2d
	zip2	\x1\().2d, v0.2d, v2.2d
	zip1	\x2\().2d, v1.2d, v3.2d
	zip2	\x3\().2d, v1.2d, v3.2d
.endm

/* One block of the four: src xored with rows K0..K3 into dst. */
.macro XOR_BLOCK k0, k1, k2, k3
	ld1	{v0.16b-v3.16b}, [x2], #64
	eor	v0.16b, v0.16b, \k0\().16b
	eor	v1.16b, v1.16b, \k1\().16b
	eor	v2.16b, v2.16b, \k2\().16b
	eor	v3.16b, v3.16b, \k3\().16b
	st1	{v0.16b-v3.16b}, [x1], #64
.endm

GCRY_FUNC_BEGIN(_gcry_salsa20_aarch64_neon_blocks4)
	cbz	x3, .Lb4_done
	adrp	x10, .Lsalsa20_lanes
	add	x10, x10, :lo12:.Lsalsa20_lanes
.Lb4_group:
	/* x_i = the state's word i in every lane, the counter per lane */
	mov	x8, x0
	ld4r	{v16.4s-v19.4s}, [x8], #16
	ld4r	{v20.4s-v23.4s}, [x8], #16
	ld4r	{v24.4s-v27.4s}, [x8], #16
	ld4r	{v28.4s-v31.4s}, [x8]
	ldr	q4, [x10]			/* lane offsets 0..3 */
	CTR_LANES v24, v25, v4, v0, v1
	mov	w9, w4
.Lb4_round:
	/* column round */
	QROUND4	v16,v20,v24,v28, v21,v25,v29,v17, v26,v30,v18,v22, v31,v19,v23,v27
	/* row round */
	QROUND4	v16,v17,v18,v19, v21,v22,v23,v20, v26,v27,v24,v25, v31,v28,v29,v30
	subs	w9, w9, #2
	b.hi	.Lb4_round

	/* the final addition of the input words (the same broadcast) */
	mov	x8, x0
	ld4r	{v0.4s-v3.4s}, [x8], #16
	ADD4	v16,v0, v17,v1, v18,v2, v19,v3
	ld4r	{v0.4s-v3.4s}, [x8], #16
	ADD4	v20,v0, v21,v1, v22,v2, v23,v3
	ld4r	{v0.4s-v3.4s}, [x8], #16
	ldr	q4, [x10]
	CTR_LANES v0, v1, v4, v5, v6
	ADD4	v24,v0, v25,v1, v26,v2, v27,v3
	ld4r	{v0.4s-v3.4s}, [x8]
	ADD4	v28,v0, v29,v1, v30,v2, v31,v3
	ldr	x9, [x0, #32]			/* words 8-9: the counter */
	add	x9, x9, #4
	str	x9, [x0, #32]

	TRANSPOSE4 v16, v17, v18, v19
	TRANSPOSE4 v20, v21, v22, v23
	TRANSPOSE4 v24, v25, v26, v27
	TRANSPOSE4 v28, v29, v30, v31
	XOR_BLOCK v16, v20, v24, v28
	XOR_BLOCK v17, v21, v25, v29
	XOR_BLOCK v18, v22, v26, v30
	XOR_BLOCK v19, v23, v27, v31
	subs	x3, x3, #4
	b.ne	.Lb4_group

	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
.Lb4_done:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_salsa20_aarch64_neon_blocks4)

/* ---- diagonal form: one block in v0-v3 ------------------------------- */

/* d ^= (p + q) <<< N, temporaries v16 (the sum) and v17 */
.macro STEP1 n, d, p, q
	add	v16.4s, \p\().4s, \q\().4s
	shl	v17.4s, v16.4s, #\n
	sri	v17.4s, v16.4s, #(32 - \n)
	eor	\d\().16b, \d\().16b, v17.16b
.endm

/* The quarter round on the four lanes of (y0, y1, y2, y3). */
.macro QROUND_DIAG y0, y1, y2, y3
	STEP1	7,  \y1, \y0, \y3
	STEP1	9,  \y2, \y1, \y0
	STEP1	13, \y3, \y2, \y1
	STEP1	18, \y0, \y3, \y2
.endm

/* ROUNDS (w9, counted down to 0) on a, b, c, d = v0-v3: a column round,
 * then d, c, b rotated by 1, 2, 3 lanes so that lane k holds row k of the
 * row round as (a, d, c, b), a round, and the rotations undone. */
.macro ROUNDS_DIAG label
\label:
	QROUND_DIAG v0, v1, v2, v3
	ext	v3.16b, v3.16b, v3.16b, #4
	ext	v2.16b, v2.16b, v2.16b, #8
	ext	v1.16b, v1.16b, v1.16b, #12
	QROUND_DIAG v0, v3, v2, v1
	ext	v3.16b, v3.16b, v3.16b, #12
	ext	v2.16b, v2.16b, v2.16b, #8
	ext	v1.16b, v1.16b, v1.16b, #4
	subs	w9, w9, #2
	b.hi	\label
.endm

GCRY_FUNC_BEGIN(_gcry_salsa20_aarch64_neon_blocks1)
	cbz	x3, .Lb1_done
	adrp	x10, .Lsalsa20_to_diag
	add	x10, x10, :lo12:.Lsalsa20_to_diag
	ld1	{v20.16b-v23.16b}, [x10], #64	/* to the diagonal form */
	ld1	{v24.16b-v27.16b}, [x10]	/* and back */
.Lb1_block:
	ld1	{v16.4s-v19.4s}, [x0]		/* the input rows */
	tbl	v4.16b, {v16.16b-v19.16b}, v20.16b
	tbl	v5.16b, {v16.16b-v19.16b}, v21.16b
	tbl	v6.16b, {v16.16b-v19.16b}, v22.16b
	tbl	v7.16b, {v16.16b-v19.16b}, v23.16b
	mov	v0.16b, v4.16b
	mov	v1.16b, v5.16b
	mov	v2.16b, v6.16b
	mov	v3.16b, v7.16b
	mov	w9, w4
	ROUNDS_DIAG .Lb1_round
	add	v0.4s, v0.4s, v4.4s
	add	v1.4s, v1.4s, v5.4s
	add	v2.4s, v2.4s, v6.4s
	add	v3.4s, v3.4s, v7.4s
	tbl	v16.16b, {v0.16b-v3.16b}, v24.16b
	tbl	v17.16b, {v0.16b-v3.16b}, v25.16b
	tbl	v18.16b, {v0.16b-v3.16b}, v26.16b
	tbl	v19.16b, {v0.16b-v3.16b}, v27.16b
	ldr	x9, [x0, #32]			/* words 8-9: the counter */
	add	x9, x9, #1
	str	x9, [x0, #32]
	ld1	{v4.16b-v7.16b}, [x2], #64
	eor	v4.16b, v4.16b, v16.16b
	eor	v5.16b, v5.16b, v17.16b
	eor	v6.16b, v6.16b, v18.16b
	eor	v7.16b, v7.16b, v19.16b
	st1	{v4.16b-v7.16b}, [x1], #64
	subs	x3, x3, #1
	b.ne	.Lb1_block

	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 27
.Lb1_done:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_salsa20_aarch64_neon_blocks1)

GCRY_FUNC_BEGIN(_gcry_hsalsa20_aarch64_neon)
	adrp	x10, .Lsalsa20_to_diag
	add	x10, x10, :lo12:.Lsalsa20_to_diag
	ld1	{v20.16b-v23.16b}, [x10]
	adrp	x10, .Lhsalsa20_out
	ldr	q24, [x10, :lo12:.Lhsalsa20_out]
	ld1	{v16.4s-v19.4s}, [x0]
	tbl	v0.16b, {v16.16b-v19.16b}, v20.16b
	tbl	v1.16b, {v16.16b-v19.16b}, v21.16b
	tbl	v2.16b, {v16.16b-v19.16b}, v22.16b
	tbl	v3.16b, {v16.16b-v19.16b}, v23.16b
	mov	w9, w2
	ROUNDS_DIAG .Lh_round
	tbl	v4.16b, {v0.16b-v3.16b}, v24.16b
	st1	{v0.4s}, [x1], #16		/* words 0, 5, 10, 15 */
	st1	{v4.4s}, [x1]			/* words 6, 7, 8, 9 */
	GCRY_ZERO_V 0, 4
	GCRY_ZERO_V 16, 24
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_hsalsa20_aarch64_neon)
