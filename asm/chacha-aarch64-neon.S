/* chacha-aarch64-neon.S - ChaCha (RFC 8439) with aarch64 Advanced SIMD.
 *
 *   unsigned int _gcry_chacha_aarch64_neon_blocks8 (uint32_t *state,
 *       uint8_t *dst, const uint8_t *src, size_t nblocks, unsigned int rounds);
 *   unsigned int _gcry_chacha_aarch64_neon_blocks4 (same arguments);
 *   unsigned int _gcry_chacha_aarch64_neon_blocks1 (same arguments);
 *   unsigned int _gcry_hchacha_aarch64_neon (const uint32_t *state,
 *       uint8_t *out32, unsigned int rounds);
 *
 * The block routines (gcry_stream_blocks_fn, stream_driver.h): dst = src ^
 * keystream for NBLOCKS blocks (a multiple of 8, of 4, or any count),
 * words 12-13 of STATE advanced as one 64-bit block counter.  ROUNDS is
 * even (20, 12, 8).  HChaCha: the rounds on STATE without the final addition, words 0-3
 * and 12-15 out.
 *
 * blocks4 keeps word i of four consecutive blocks in the four lanes of
 * x<i> = v(16+i) ("vertical" form): a round is four independent quarter
 * rounds, one per lane group, so the four column (or diagonal) quarter
 * rounds are interleaved step by step and every step is four independent
 * instructions, which hides the NEON latency on in-order and out-of-order
 * cores alike.  The state words are broadcast with ld4r (one load for four
 * words) instead of being kept in registers, so the whole routine fits in
 * v0-v7 and v16-v31 and needs no callee-saved v8-v15 and no stack.  At
 * the end four 4x4 transposes (trn1/trn2) turn the lanes back into blocks.
 * blocks8 runs two such sets of four lanes (blocks 0-3 in v16-v31, 4-7
 * in v0-v15) step by step together: eight independent instructions per
 * step, enough to hide the NEON latency of in-order cores and to keep two
 * pipes busy on out-of-order ones.  Thirty-two state registers leave none
 * for the rotations' temporaries, so each set parks in a stack frame the
 * words a quarter round is not using at the time: its d words (12-15)
 * while b is rotated, two b words while their registers hold the tbl
 * indices.  The frame also saves the callee-saved d8-d15 and x19-x24; the
 * routine returns its size.  Its loads and stores take fixed base
 * registers (no writeback) and sit between groups of NEON instructions:
 * what lets an in-order core issue them beside the NEON ones.
 * blocks1 and HChaCha keep one block's rows in v0-v3 ("row" form) and
 * rotate rows 1-3 between column and diagonal rounds (ext).
 *
 * Rotations: by 16 one rev32 of halfwords, by 8 one tbl (a byte shuffle),
 * by 12 and 7 shl into the destination and sri (shift right and insert)
 * of the rest, from b ^ c kept in a temporary.
 *
 * AAPCS64: x0-x4 arguments, x8-x10 scratch (blocks8: x5-x17 and, saved,
 * x19-x24).  Only blocks8 writes v8-v15 (their low halves restored from
 * its frame, which clears the high ones).  Every other vector register
 * that held state, keystream or data is zeroed before returning.
 * blocks8 returns its frame's size, the others use no stack and return 0
 * (the burn depth).
 */
#include "asm-common-aarch64.h"
#include "lanes-aarch64-neon.h"

GCRY_RODATA
.balign 16
/* tbl indices: each 32-bit lane rotated left by 8 bits */
.Lchacha_rot8:
	.byte 3,0,1,2, 7,4,5,6, 11,8,9,10, 15,12,13,14
/* the block offsets of the four lanes, and of blocks8's second set */
.Lchacha_lanes:
	.long 0, 1, 2, 3
.Lchacha_lanes_hi:
	.long 4, 5, 6, 7

/* ---- vertical form: four quarter rounds on four lane groups -------- */

/* d_i ^= a_i on four registers (ADD4: lanes-aarch64-neon.h) */
.macro EOR4 d0,a0, d1,a1, d2,a2, d3,a3
	eor	\d0\().16b, \d0\().16b, \a0\().16b
	eor	\d1\().16b, \d1\().16b, \a1\().16b
	eor	\d2\().16b, \d2\().16b, \a2\().16b
	eor	\d3\().16b, \d3\().16b, \a3\().16b
.endm
/* d0..d3 rotated left by 16 */
.macro ROT16_4 d0, d1, d2, d3
	rev32	\d0\().8h, \d0\().8h
	rev32	\d1\().8h, \d1\().8h
	rev32	\d2\().8h, \d2\().8h
	rev32	\d3\().8h, \d3\().8h
.endm
/* d0..d3 rotated left by 8 (tbl indices in IDX) */
.macro ROT8_4 d0, d1, d2, d3, idx=v4
	tbl	\d0\().16b, {\d0\().16b}, \idx\().16b
	tbl	\d1\().16b, {\d1\().16b}, \idx\().16b
	tbl	\d2\().16b, {\d2\().16b}, \idx\().16b
	tbl	\d3\().16b, {\d3\().16b}, \idx\().16b
.endm
/* t_i = b_i ^ c_i; b_i = t_i << N; b_i |= t_i >> (32 - N): one part of a
 * rotation for each of four chains */
.macro XOR3_4 t0,b0,c0, t1,b1,c1, t2,b2,c2, t3,b3,c3
	eor	\t0\().16b, \b0\().16b, \c0\().16b
	eor	\t1\().16b, \b1\().16b, \c1\().16b
	eor	\t2\().16b, \b2\().16b, \c2\().16b
	eor	\t3\().16b, \b3\().16b, \c3\().16b
.endm
.macro SHL4 n, b0,t0, b1,t1, b2,t2, b3,t3
	shl	\b0\().4s, \t0\().4s, #\n
	shl	\b1\().4s, \t1\().4s, #\n
	shl	\b2\().4s, \t2\().4s, #\n
	shl	\b3\().4s, \t3\().4s, #\n
.endm
.macro SRI4 n, b0,t0, b1,t1, b2,t2, b3,t3
	sri	\b0\().4s, \t0\().4s, #(32 - \n)
	sri	\b1\().4s, \t1\().4s, #(32 - \n)
	sri	\b2\().4s, \t2\().4s, #(32 - \n)
	sri	\b3\().4s, \t3\().4s, #(32 - \n)
.endm

/* b_i = (b_i ^ c_i) <<< N, through the temporaries v0-v3 */
.macro XROT4 n, b0,c0, b1,c1, b2,c2, b3,c3
	XOR3_4	v0,\b0,\c0, v1,\b1,\c1, v2,\b2,\c2, v3,\b3,\c3
	SHL4	\n, \b0,v0, \b1,v1, \b2,v2, \b3,v3
	SRI4	\n, \b0,v0, \b1,v1, \b2,v2, \b3,v3
.endm

/* Four quarter rounds (a_i, b_i, c_i, d_i), RFC 8439 section 2.1 each. */
.macro QROUND4 a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3
	ADD4	\a0,\b0, \a1,\b1, \a2,\b2, \a3,\b3
	EOR4	\d0,\a0, \d1,\a1, \d2,\a2, \d3,\a3
	ROT16_4	\d0, \d1, \d2, \d3
	ADD4	\c0,\d0, \c1,\d1, \c2,\d2, \c3,\d3
	XROT4	12, \b0,\c0, \b1,\c1, \b2,\c2, \b3,\c3
	ADD4	\a0,\b0, \a1,\b1, \a2,\b2, \a3,\b3
	EOR4	\d0,\a0, \d1,\a1, \d2,\a2, \d3,\a3
	ROT8_4	\d0, \d1, \d2, \d3
	ADD4	\c0,\d0, \c1,\d1, \c2,\d2, \c3,\d3
	XROT4	7, \b0,\c0, \b1,\c1, \b2,\c2, \b3,\c3
.endm

GCRY_FUNC_BEGIN(_gcry_chacha_aarch64_neon_blocks4)
	cbz	x3, .Lb4_done
	adrp	x10, .Lchacha_rot8
	add	x10, x10, :lo12:.Lchacha_rot8
	ldr	q5, [x10, #16]			/* lane offsets 0..3 */
.Lb4_group:
	ldr	q4, [x10]			/* rot8 indices (v4 is reused below) */
	/* x_i = the state's word i in every lane, the counter per lane */
	mov	x8, x0
	ld4r	{v16.4s-v19.4s}, [x8], #16
	ld4r	{v20.4s-v23.4s}, [x8], #16
	ld4r	{v24.4s-v27.4s}, [x8], #16
	ld4r	{v28.4s-v31.4s}, [x8]
	CTR_LANES v28, v29, v5, v0, v1
	mov	w9, w4
.Lb4_round:
	QROUND4	v16,v20,v24,v28, v17,v21,v25,v29, v18,v22,v26,v30, v19,v23,v27,v31
	QROUND4	v16,v21,v26,v31, v17,v22,v27,v28, v18,v23,v24,v29, v19,v20,v25,v30
	subs	w9, w9, #2
	b.hi	.Lb4_round

	/* the final addition of the input words (the same broadcast) */
	mov	x8, x0
	ld4r	{v0.4s-v3.4s}, [x8], #16
	ADD4	v16,v0, v17,v1, v18,v2, v19,v3
	ld4r	{v0.4s-v3.4s}, [x8], #16
	ADD4	v20,v0, v21,v1, v22,v2, v23,v3
	ld4r	{v0.4s-v3.4s}, [x8], #16
	ADD4	v24,v0, v25,v1, v26,v2, v27,v3
	ld4r	{v0.4s-v3.4s}, [x8]
	CTR_LANES v0, v1, v5, v4, v6
	ADD4	v28,v0, v29,v1, v30,v2, v31,v3
	CTR_STEP 48, 4			/* words 12-13: the counter */

	XOR_LANES4
	subs	x3, x3, #4
	b.ne	.Lb4_group

	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
.Lb4_done:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_chacha_aarch64_neon_blocks4)

/* ---- two sets of four lanes: eight blocks ---------------------------- */

/* blocks8's frame: where each set parks its d words (12-15) and two b
 * words (4-5), the two sets' counter words as the rounds began, the
 * callee-saved registers.  Set B is parked at 0 after the rounds. */
#define F_AD	0			/* set A (v16-v31): d words */
#define F_AB	64			/* set A: b words */
#define F_BD	128			/* set B (v0-v15): d words */
#define F_BB	192			/* set B: b words */
#define F_ACTR	256			/* set A's words 12-13 as the rounds began */
#define F_BCTR	288			/* set B's */
#define F_SAVE	320			/* d8-d15, x19-x24 */
#define F_SIZE	432

/* Both sets' b rotated by N (b ^= c first) through their parked d
 * registers, one part at a time for all eight chains; d brought back as
 * soon as each set is done with them. */
.macro XROT8 n, b0,c0, b1,c1, b2,c2, b3,c3, f0,g0, f1,g1, f2,g2, f3,g3
	XOR3_4	v28,\b0,\c0, v29,\b1,\c1, v30,\b2,\c2, v31,\b3,\c3
	XOR3_4	v12,\f0,\g0, v13,\f1,\g1, v14,\f2,\g2, v15,\f3,\g3
	SHL4	\n, \b0,v28, \b1,v29, \b2,v30, \b3,v31
	SHL4	\n, \f0,v12, \f1,v13, \f2,v14, \f3,v15
	SRI4	\n, \b0,v28, \b1,v29, \b2,v30, \b3,v31
	ld1	{v28.4s-v31.4s}, [x11]
	SRI4	\n, \f0,v12, \f1,v13, \f2,v14, \f3,v15
	ld1	{v12.4s-v15.4s}, [x13]
.endm

/* Four quarter rounds on each set, (a_i, b_i, c_i, d_i) of set A and
 * (e_i, f_i, g_i, h_i) of set B, step by step together.  The d words
 * (v28-v31, v12-v15) are parked while b is rotated (their registers the
 * temporaries), two b words (v20-v21, v4-v5) from their use in a += b
 * until b ^= c (their registers hold the tbl indices meanwhile, loaded
 * from x10 two registers at a time); x11-x14 point at the frame's areas.  Which registers hold d and b is the same
 * in the column and the diagonal round.  Each load or store sits between
 * two groups of NEON instructions, whose results it waits for or which
 * wait for it only a group later. */
.macro QROUND8 a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3, \
	       e0,f0,g0,h0, e1,f1,g1,h1, e2,f2,g2,h2, e3,f3,g3,h3
	ADD4	\a0,\b0, \a1,\b1, \a2,\b2, \a3,\b3
	ADD4	\e0,\f0, \e1,\f1, \e2,\f2, \e3,\f3
	EOR4	\d0,\a0, \d1,\a1, \d2,\a2, \d3,\a3
	EOR4	\h0,\e0, \h1,\e1, \h2,\e2, \h3,\e3
	ROT16_4	\d0, \d1, \d2, \d3
	ROT16_4	\h0, \h1, \h2, \h3
	ADD4	\c0,\d0, \c1,\d1, \c2,\d2, \c3,\d3
	st1	{v28.4s-v31.4s}, [x11]
	ADD4	\g0,\h0, \g1,\h1, \g2,\h2, \g3,\h3
	st1	{v12.4s-v15.4s}, [x13]
	XROT8	12, \b0,\c0, \b1,\c1, \b2,\c2, \b3,\c3, \f0,\g0, \f1,\g1, \f2,\g2, \f3,\g3
	ADD4	\a0,\b0, \a1,\b1, \a2,\b2, \a3,\b3
	st1	{v20.4s-v21.4s}, [x12]
	ADD4	\e0,\f0, \e1,\f1, \e2,\f2, \e3,\f3
	st1	{v4.4s-v5.4s}, [x14]
	ld1	{v20.16b-v21.16b}, [x10]	/* the indices into v20 and v4 */
	EOR4	\d0,\a0, \d1,\a1, \d2,\a2, \d3,\a3
	ld1	{v4.16b-v5.16b}, [x10]
	EOR4	\h0,\e0, \h1,\e1, \h2,\e2, \h3,\e3
	ROT8_4	\d0, \d1, \d2, \d3, v20
	ld1	{v20.4s-v21.4s}, [x12]
	ROT8_4	\h0, \h1, \h2, \h3, v4
	ld1	{v4.4s-v5.4s}, [x14]
	ADD4	\c0,\d0, \c1,\d1, \c2,\d2, \c3,\d3
	st1	{v28.4s-v31.4s}, [x11]
	ADD4	\g0,\h0, \g1,\h1, \g2,\h2, \g3,\h3
	st1	{v12.4s-v15.4s}, [x13]
	XROT8	7, \b0,\c0, \b1,\c1, \b2,\c2, \b3,\c3, \f0,\g0, \f1,\g1, \f2,\g2, \f3,\g3
.endm

/* One 4x4 transpose's first half (x0-x3 into t0-t3) and second (back). */
.macro TRN_HALF1 x0, x1, x2, x3, t0, t1, t2, t3
	trn1	\t0\().4s, \x0\().4s, \x1\().4s
	trn2	\t1\().4s, \x0\().4s, \x1\().4s
	trn1	\t2\().4s, \x2\().4s, \x3\().4s
	trn2	\t3\().4s, \x2\().4s, \x3\().4s
.endm
.macro TRN_HALF2 x0, x1, x2, x3, t0, t1, t2, t3
	trn1	\x0\().2d, \t0\().2d, \t2\().2d
	trn1	\x1\().2d, \t1\().2d, \t3\().2d
	trn2	\x2\().2d, \t0\().2d, \t2\().2d
	trn2	\x3\().2d, \t1\().2d, \t3\().2d
.endm
/* Block K's keystream rows (register K of each group of four words)
 * xored into the source block loaded in T0-T3 */
.macro XOR_ROWS t0, t1, t2, t3, k0, k1, k2, k3
	eor	\t0\().16b, \t0\().16b, \k0\().16b
	eor	\t1\().16b, \t1\().16b, \k1\().16b
	eor	\t2\().16b, \t2\().16b, \k2\().16b
	eor	\t3\().16b, \t3\().16b, \k3\().16b
.endm

/* The set in v16-v31 turned into four blocks (through v0-v15), each xored
 * with its source block (loaded into v0-v15 as the transposes free them,
 * from x2, x19-x21), three of them stored (to x1, x22, x23; the last, in
 * v12-v15, left to the caller).  No loads or stores with writeback: in
 * LLVM's Cortex-A53 model one waits for the NEON instructions before it. */
.macro TRANSPOSE_XOR8
	TRN_HALF1 v16, v17, v18, v19, v0, v1, v2, v3
	TRN_HALF1 v20, v21, v22, v23, v4, v5, v6, v7
	TRN_HALF1 v24, v25, v26, v27, v8, v9, v10, v11
	TRN_HALF1 v28, v29, v30, v31, v12, v13, v14, v15
	TRN_HALF2 v16, v17, v18, v19, v0, v1, v2, v3
	ld1	{v0.16b-v3.16b}, [x2]
	TRN_HALF2 v20, v21, v22, v23, v4, v5, v6, v7
	ld1	{v4.16b-v7.16b}, [x19]
	TRN_HALF2 v24, v25, v26, v27, v8, v9, v10, v11
	ld1	{v8.16b-v11.16b}, [x20]
	TRN_HALF2 v28, v29, v30, v31, v12, v13, v14, v15
	ld1	{v12.16b-v15.16b}, [x21]
	XOR_ROWS v0, v1, v2, v3, v16, v20, v24, v28
	XOR_ROWS v4, v5, v6, v7, v17, v21, v25, v29
	st1	{v0.16b-v3.16b}, [x1]
	XOR_ROWS v8, v9, v10, v11, v18, v22, v26, v30
	st1	{v4.16b-v7.16b}, [x22]
	XOR_ROWS v12, v13, v14, v15, v19, v23, v27, v31
	st1	{v8.16b-v11.16b}, [x23]
.endm

/* The eight block pointers (source x2, x19-x21; destination x1, x22-x24)
 * past one set's four blocks. */
.macro NEXT_SET
	.irp r, x2, x19, x20, x21, x1, x22, x23, x24
	add	\r, \r, #256
	.endr
.endm

GCRY_FUNC_BEGIN(_gcry_chacha_aarch64_neon_blocks8)
	mov	w9, #0
	cbz	x3, .Lb8_done
	sub	sp, sp, #F_SIZE
	stp	d8, d9, [sp, #F_SAVE]
	stp	d10, d11, [sp, #(F_SAVE + 16)]
	stp	d12, d13, [sp, #(F_SAVE + 32)]
	stp	d14, d15, [sp, #(F_SAVE + 48)]
	stp	x19, x20, [sp, #(F_SAVE + 64)]
	stp	x21, x22, [sp, #(F_SAVE + 80)]
	stp	x23, x24, [sp, #(F_SAVE + 96)]
	adrp	x10, .Lchacha_rot8
	add	x10, x10, :lo12:.Lchacha_rot8
	/* fixed addresses (the loads and stores take no offsets): the
	 * state's words 4, 8, 12 and 14, the frame's areas, the second to
	 * fourth source and destination blocks of a set */
	add	x5, x0, #16
	add	x6, x0, #32
	add	x7, x0, #48
	add	x8, x0, #56
	add	x11, sp, #F_AD
	add	x12, sp, #F_AB
	add	x13, sp, #F_BD
	add	x14, sp, #F_BB
	add	x16, sp, #F_ACTR
	add	x17, sp, #F_BCTR
	add	x19, x2, #64
	add	x20, x2, #128
	add	x21, x2, #192
	add	x22, x1, #64
	add	x23, x1, #128
	add	x24, x1, #192
.Lb8_group:
	/* set A: the state's word i in every lane, the counter plus 0..3;
	 * set B the same words, the counter plus 4..7; both counters kept
	 * for the final addition */
	ld4r	{v16.4s-v19.4s}, [x0]
	ld4r	{v20.4s-v23.4s}, [x5]
	ld4r	{v24.4s-v27.4s}, [x6]
	ld4r	{v28.4s-v31.4s}, [x7]
	ld4r	{v12.4s-v15.4s}, [x7]
	ldr	q0, [x10, #16]			/* lane offsets 0..3 */
	ldr	q2, [x10, #32]			/* lane offsets 4..7 */
	/* CTR_LANES (lanes-aarch64-neon.h) on both sets, step by step */
	add	v1.4s, v28.4s, v0.4s
	add	v3.4s, v12.4s, v2.4s
	ld4r	{v4.4s-v7.4s}, [x5]
	cmhi	v0.4s, v28.4s, v1.4s
	cmhi	v2.4s, v12.4s, v3.4s
	ld4r	{v8.4s-v11.4s}, [x6]
	sub	v29.4s, v29.4s, v0.4s
	sub	v13.4s, v13.4s, v2.4s
	mov	v28.16b, v1.16b
	mov	v12.16b, v3.16b
	st1	{v28.4s-v29.4s}, [x16]
	st1	{v12.4s-v13.4s}, [x17]
	ld4r	{v0.4s-v3.4s}, [x0]
	mov	w9, w4
.Lb8_round:
	QROUND8	v16,v20,v24,v28, v17,v21,v25,v29, v18,v22,v26,v30, v19,v23,v27,v31, \
		v0,v4,v8,v12, v1,v5,v9,v13, v2,v6,v10,v14, v3,v7,v11,v15
	QROUND8	v16,v21,v26,v31, v17,v22,v27,v28, v18,v23,v24,v29, v19,v20,v25,v30, \
		v0,v5,v10,v15, v1,v6,v11,v12, v2,v7,v8,v13, v3,v4,v9,v14
	subs	w9, w9, #2
	b.hi	.Lb8_round

	/* set B parked, its registers taking the input words (added to
	 * set A as they come), while set A's blocks are finished; then set B
	 * brought into set A's registers and finished the same way */
	st1	{v0.4s-v3.4s}, [x11]
	ld4r	{v0.4s-v3.4s}, [x0]
	st1	{v4.4s-v7.4s}, [x12]
	ld4r	{v4.4s-v7.4s}, [x5]
	st1	{v8.4s-v11.4s}, [x13]
	ADD4	v16,v0, v17,v1, v18,v2, v19,v3
	ld4r	{v8.4s-v11.4s}, [x6]
	st1	{v12.4s-v15.4s}, [x14]
	ADD4	v20,v4, v21,v5, v22,v6, v23,v7
	ld1	{v12.4s-v13.4s}, [x16]
	ld2r	{v14.4s-v15.4s}, [x8]
	ADD4	v24,v8, v25,v9, v26,v10, v27,v11
	ADD4	v28,v12, v29,v13, v30,v14, v31,v15
	TRANSPOSE_XOR8
	ld1	{v16.4s-v19.4s}, [x11]
	ld1	{v20.4s-v23.4s}, [x12]
	st1	{v12.16b-v15.16b}, [x24]	/* set A's last block */
	ld4r	{v0.4s-v3.4s}, [x0]
	ld1	{v24.4s-v27.4s}, [x13]
	ld4r	{v4.4s-v7.4s}, [x5]
	ADD4	v16,v0, v17,v1, v18,v2, v19,v3
	ld1	{v28.4s-v31.4s}, [x14]
	ld4r	{v8.4s-v11.4s}, [x6]
	ADD4	v20,v4, v21,v5, v22,v6, v23,v7
	ld1	{v12.4s-v13.4s}, [x17]
	ld2r	{v14.4s-v15.4s}, [x8]
	ADD4	v24,v8, v25,v9, v26,v10, v27,v11
	NEXT_SET
	ADD4	v28,v12, v29,v13, v30,v14, v31,v15
	TRANSPOSE_XOR8
	st1	{v12.16b-v15.16b}, [x24]
	CTR_STEP 48, 8			/* words 12-13: the counter */
	NEXT_SET
	subs	x3, x3, #8
	b.ne	.Lb8_group

	ldp	d8, d9, [sp, #F_SAVE]
	ldp	d10, d11, [sp, #(F_SAVE + 16)]
	ldp	d12, d13, [sp, #(F_SAVE + 32)]
	ldp	d14, d15, [sp, #(F_SAVE + 48)]
	ldp	x19, x20, [sp, #(F_SAVE + 64)]
	ldp	x21, x22, [sp, #(F_SAVE + 80)]
	ldp	x23, x24, [sp, #(F_SAVE + 96)]
	add	sp, sp, #F_SIZE
	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
	mov	w9, #F_SIZE
.Lb8_done:
	mov	w0, w9
	ret
GCRY_FUNC_END(_gcry_chacha_aarch64_neon_blocks8)

/* ---- row form: one block, rows in v0-v3 ------------------------------ */

/* One quarter round on the four columns of rows v0-v3 (temporary v16,
 * rot8 indices in v17). */
.macro QROUND_ROWS
	add	v0.4s, v0.4s, v1.4s
	eor	v3.16b, v3.16b, v0.16b
	rev32	v3.8h, v3.8h
	add	v2.4s, v2.4s, v3.4s
	eor	v16.16b, v1.16b, v2.16b
	shl	v1.4s, v16.4s, #12
	sri	v1.4s, v16.4s, #20
	add	v0.4s, v0.4s, v1.4s
	eor	v3.16b, v3.16b, v0.16b
	tbl	v3.16b, {v3.16b}, v17.16b
	add	v2.4s, v2.4s, v3.4s
	eor	v16.16b, v1.16b, v2.16b
	shl	v1.4s, v16.4s, #7
	sri	v1.4s, v16.4s, #25
.endm

/* ROUNDS (w9, counted down to 0) on rows v0-v3: a column round, then
 * rows 1-3 rotated by 1, 2, 3 lanes so the columns are the diagonals, a
 * round, and the rows rotated back. */
.macro ROUNDS_ROWS label
	adrp	x10, .Lchacha_rot8
	ldr	q17, [x10, :lo12:.Lchacha_rot8]
\label:
	QROUND_ROWS
	ext	v1.16b, v1.16b, v1.16b, #4
	ext	v2.16b, v2.16b, v2.16b, #8
	ext	v3.16b, v3.16b, v3.16b, #12
	QROUND_ROWS
	ext	v1.16b, v1.16b, v1.16b, #12
	ext	v2.16b, v2.16b, v2.16b, #8
	ext	v3.16b, v3.16b, v3.16b, #4
	subs	w9, w9, #2
	b.hi	\label
.endm

GCRY_FUNC_BEGIN(_gcry_chacha_aarch64_neon_blocks1)
	cbz	x3, .Lb1_done
.Lb1_block:
	ld1	{v4.4s-v7.4s}, [x0]		/* the input rows */
	mov	v0.16b, v4.16b
	mov	v1.16b, v5.16b
	mov	v2.16b, v6.16b
	mov	v3.16b, v7.16b
	mov	w9, w4
	ROUNDS_ROWS .Lb1_round
	add	v0.4s, v0.4s, v4.4s
	add	v1.4s, v1.4s, v5.4s
	add	v2.4s, v2.4s, v6.4s
	add	v3.4s, v3.4s, v7.4s
	CTR_STEP 48, 1			/* words 12-13: the counter */
	ld1	{v4.16b-v7.16b}, [x2], #64
	eor	v4.16b, v4.16b, v0.16b
	eor	v5.16b, v5.16b, v1.16b
	eor	v6.16b, v6.16b, v2.16b
	eor	v7.16b, v7.16b, v3.16b
	st1	{v4.16b-v7.16b}, [x1], #64
	subs	x3, x3, #1
	b.ne	.Lb1_block

	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 17
.Lb1_done:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_chacha_aarch64_neon_blocks1)

GCRY_FUNC_BEGIN(_gcry_hchacha_aarch64_neon)
	ld1	{v0.4s-v3.4s}, [x0]
	mov	w9, w2
	ROUNDS_ROWS .Lh_round
	st1	{v0.4s}, [x1], #16		/* words 0-3 */
	st1	{v3.4s}, [x1]			/* words 12-15 */
	GCRY_ZERO_V 0, 3
	GCRY_ZERO_V 16, 17
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_hchacha_aarch64_neon)
