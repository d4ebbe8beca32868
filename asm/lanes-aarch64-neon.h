/* lanes-aarch64-neon.h - what the four-lane NEON stream routines
 * (chacha-aarch64-neon.S, salsa20-aarch64-neon.S) share: word i of four
 * consecutive blocks in the four 32-bit lanes of one register. */
#ifndef GCRYLIKE_LANES_AARCH64_NEON_H
#define GCRYLIKE_LANES_AARCH64_NEON_H

/* a_i += b_i on four registers. */
.macro ADD4 a0,b0, a1,b1, a2,b2, a3,b3
	add	\a0\().4s, \a0\().4s, \b0\().4s
	add	\a1\().4s, \a1\().4s, \b1\().4s
	add	\a2\().4s, \a2\().4s, \b2\().4s
	add	\a3\().4s, \a3\().4s, \b3\().4s
.endm

/* The block counter's low (LO) and high (HI) words of the four lanes'
 * blocks: the state's 64-bit counter plus 0..3 (lane offsets in LANES),
 * the carry into HI where LO wrapped (cmhi gives all ones there:
 * subtracting it adds 1). */
.macro CTR_LANES lo, hi, lanes, t0, t1
	add	\t0\().4s, \lo\().4s, \lanes\().4s
	cmhi	\t1\().4s, \lo\().4s, \t0\().4s
	sub	\hi\().4s, \hi\().4s, \t1\().4s
	mov	\lo\().16b, \t0\().16b
.endm

/* x0..x3 (four lanes' words 4g..4g+3) to block order in place: x_j
 * then holds words 4g..4g+3 of block j; v0-v3 are the temporaries.  trn
 * rather than zip: the same result, and the cheaper permute on LLVM's
 * Cortex-A72/Neoverse-N1 models. */
.macro TRANSPOSE4 x0, x1, x2, x3
	trn1	v0.4s, \x0\().4s, \x1\().4s
	trn2	v1.4s, \x0\().4s, \x1\().4s
	trn1	v2.4s, \x2\().4s, \x3\().4s
	trn2	v3.4s, \x2\().4s, \x3\().4s
	trn1	\x0\().2d, v0.2d, v2.2d
	trn1	\x1\().2d, v1.2d, v3.2d
	trn2	\x2\().2d, v0.2d, v2.2d
	trn2	\x3\().2d, v1.2d, v3.2d
.endm

/* One block of the four: src (x2) xored with rows K0..K3 into dst (x1),
 * both advanced. */
.macro XOR_BLOCK k0, k1, k2, k3
	ld1	{v0.16b-v3.16b}, [x2], #64
	eor	v0.16b, v0.16b, \k0\().16b
	eor	v1.16b, v1.16b, \k1\().16b
	eor	v2.16b, v2.16b, \k2\().16b
	eor	v3.16b, v3.16b, \k3\().16b
	st1	{v0.16b-v3.16b}, [x1], #64
.endm

/* The four lanes' keystream (words 4g..4g+3 in v16+4g .. v19+4g) made
 * four blocks, each xored from src (x2) into dst (x1). */
.macro XOR_LANES4
	TRANSPOSE4 v16, v17, v18, v19
	TRANSPOSE4 v20, v21, v22, v23
	TRANSPOSE4 v24, v25, v26, v27
	TRANSPOSE4 v28, v29, v30, v31
	XOR_BLOCK v16, v20, v24, v28
	XOR_BLOCK v17, v21, v25, v29
	XOR_BLOCK v18, v22, v26, v30
	XOR_BLOCK v19, v23, v27, v31
.endm

/* The state's 64-bit block counter, the doubleword at byte OFF of the
 * state (x0), advanced by N (x9 the temporary). */
.macro CTR_STEP off, n
	ldr	x9, [x0, #\off]
	add	x9, x9, #\n
	str	x9, [x0, #\off]
.endm

#endif
