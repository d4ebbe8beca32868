/* salsa20-aarch64-neon.S - Salsa20 (Bernstein, "Salsa20 specification")
 * four blocks at a time with aarch64 Advanced SIMD.
 *
 *   unsigned int _gcry_salsa20_aarch64_neon_blocks4 (uint32_t *state,
 *       uint8_t *dst, const uint8_t *src, size_t nblocks, unsigned int rounds);
 *
 * gcry_stream_blocks_fn (stream_driver.h): dst = src ^ keystream for
 * NBLOCKS blocks (a multiple of 4), words 8-9 of STATE advanced as one
 * 64-bit block counter.  ROUNDS is even (20, 12, 8): ROUNDS / 2 double
 * rounds (a column round, then a row round).  No single-block routine and
 * no HSalsa20: a one-block NEON form is one dependent chain, slower than
 * the portable C, whose rotations fold into its eors (llvm-mca-16 figures
 * in the commit that added this file), so those stay portable.
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
 *
 * AAPCS64: x0-x4 arguments, x8-x10 scratch; only v0-v7 and v16-v31 are
 * written.  Every vector register that held state, keystream or data is
 * zeroed before returning.  No stack: each returns 0 (its burn depth).
 */
#include "asm-common-aarch64.h"
#include "lanes-aarch64-neon.h"

GCRY_RODATA
.balign 16
/* the block offsets of the four lanes */
.Lsalsa20_lanes:
	.long 0, 1, 2, 3

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
	CTR_STEP 32, 4			/* words 8-9: the counter */

	XOR_LANES4
	subs	x3, x3, #4
	b.ne	.Lb4_group

	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
.Lb4_done:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_salsa20_aarch64_neon_blocks4)
