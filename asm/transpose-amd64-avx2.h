/* transpose-amd64-avx2.h - the output step of the eight-block AVX2
 * routines in transposed form (ChaCha and Salsa20, plain and stitched):
 * one ymm per state word with dword lane j = block j, turned back into
 * blocks, xored with the input and stored.  Included by
 * chacha-amd64-avx2.h and salsa20-amd64-avx2.h.
 */
#ifndef GCRYLIKE_TRANSPOSE_AMD64_AVX2_H
#define GCRYLIKE_TRANSPOSE_AMD64_AVX2_H

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

#endif /* GCRYLIKE_TRANSPOSE_AMD64_AVX2_H */
