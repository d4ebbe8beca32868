/* poly1305-aarch64-scalar.S - Poly1305 one block at a time in general-
 * purpose registers with 64-bit limbs (MUL/UMULH: baseline ARMv8-A).
 *
 * Written from RFC 8439 section 2.5 and the Arm Architecture Reference
 * Manual (MUL, UMULH, ADDS/ADCS/ADC).  The arithmetic is that of the
 * portable 2^64-radix step (poly1305_generic64_blocks in
 * ciphers/poly1305/poly1305_generic.c), so the two give the same words.
 *
 * ABI (AAPCS64, hidden global):
 *
 *   unsigned int _gcry_poly1305_aarch64_scalar_blocks(uint64_t h[3],
 *           const uint64_t r[2], const uint8_t *m, size_t nblocks);
 *
 * The contract of _gcry_poly1305_amd64_scalar_blocks
 * (ciphers/poly1305/poly1305_amd64.h): absorbs NBLOCKS full 16-byte blocks
 * of M (any alignment), each with the 2^128 bit: h = (h + m + 2^128) r mod
 * p.  The accumulator is h[0] + 2^64 h[1] + 2^128 h[2], partially reduced,
 * with h[2] <= 7 on entry and h[2] <= 4 on exit; r is clamped.  NBLOCKS 0
 * returns at once.  Little-endian aarch64 only (LDP of 64-bit words).
 *
 * Burn convention: returns the bytes written below the stack pointer at
 * entry: 0, no stack is used (only the caller-saved x0-x17 are; the
 * callee-saved registers and every vector register are never touched).
 * The registers that held r, products or message words are zeroed before
 * return.  No branch or address depends on secret data.
 *
 * One block.  With s1 = r1 + r1/4 (2^128 r1 = 2^130 r1/4 = 5 r1/4 mod p,
 * r1 a multiple of 4 after clamping):
 *   d0 = h0 r0 + h1 s1                        (128 bits)
 *   d1 = h0 r1 + h1 r0 + h2 s1 + d0 >> 64     (128 bits)
 *   d2 = h2 r0 + d1 >> 64                     (64 bits)
 * then the bits of d2 at and above 2^130 are folded back times 5:
 *   h = d0 mod 2^64 + 2^64 (d1 mod 2^64) + 2^128 (d2 & 3) + 5 (d2 >> 2).
 * Bounds: h2 <= 7 + 2 = 9 after the add; r0, r1 < 2^60, s1 < 2^61, so
 * h2 s1 and h2 r0 fit 64 bits, d1 < 2^126 and d2 < 2^64; after the fold
 * h2 <= 3 + 1.  Ten multiplies per block: four 64x64->128 (MUL + UMULH)
 * and two 64x64->64 (h2 is small).
 */

#include "asm-common-aarch64.h"

#if defined(__aarch64__) && !defined(__AARCH64EB__)

.text

/* Registers:
 *   x0 h[] pointer, x2 message position, x3 blocks left
 *   x1 the constant 1 (the 2^128 bit, added with the carry)
 *   x4 r0, x5 r1, x6 s1
 *   x7 h0, x8 h1, x9 h2
 *   x10-x17 message words and products
 */
GCRY_FUNC_BEGIN(_gcry_poly1305_aarch64_scalar_blocks)
	cbz	x3, .Lps_ret
	ldp	x4, x5, [x1]
	ldp	x7, x8, [x0]
	ldr	x9, [x0, #16]
	add	x6, x5, x5, lsr #2			/* s1 = 5 r1 / 4 */
	mov	x1, #1

.balign 16
.Lps_block:
	/* h += m + 2^128 */
	ldp	x10, x11, [x2], #16
	adds	x7, x7, x10
	adcs	x8, x8, x11
	adc	x9, x9, x1

	/* the products */
	mul	x10, x7, x4				/* h0 r0 */
	umulh	x11, x7, x4
	mul	x12, x8, x6				/* h1 s1 */
	umulh	x13, x8, x6
	mul	x14, x7, x5				/* h0 r1 */
	umulh	x15, x7, x5
	mul	x16, x8, x4				/* h1 r0 */
	umulh	x17, x8, x4
	mul	x7, x9, x6				/* h2 s1 */
	mul	x8, x9, x4				/* h2 r0 */

	/* d0 = x11:x10; d1 = x15:x14; d2 = x15 */
	adds	x10, x10, x12
	adc	x11, x11, x13
	adds	x14, x14, x16
	adc	x15, x15, x17
	adds	x14, x14, x7
	adc	x15, x15, xzr
	adds	x14, x14, x11				/* + d0 >> 64 */
	adc	x15, x15, x8				/* d2 = h2 r0 + d1 >> 64 */

	/* fold: h2 = d2 & 3, h += 5 (d2 >> 2) = (d2 & ~3) + (d2 >> 2) */
	and	x9, x15, #3
	and	x12, x15, #~3
	add	x12, x12, x15, lsr #2
	adds	x7, x10, x12
	adcs	x8, x14, xzr
	adc	x9, x9, xzr

	subs	x3, x3, #1
	b.ne	.Lps_block

	stp	x7, x8, [x0]
	str	x9, [x0, #16]
	/* no r, s1, product or message word left behind */
	GCRY_ZERO_X 4, 17
.Lps_ret:
	mov	w0, #0					/* no stack used */
	ret
GCRY_FUNC_END(_gcry_poly1305_aarch64_scalar_blocks)

#endif /* __aarch64__ && !__AARCH64EB__ */
