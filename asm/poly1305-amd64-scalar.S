/* poly1305-amd64-scalar.S - Poly1305 one block at a time in general-purpose
 * registers (64-bit limbs, mul/imul only: base x86-64), the scalar part of
 * the SSE2 and AVX2 drivers: inputs below the SIMD threshold, and the
 * blocks the SIMD width leaves over.
 *
 * Written for gcrylike from RFC 8439 section 2.5, with the block step of
 * poly1305-scalar-amd64.h (shared with the stitched routines).  Faster
 * than the portable C, whose 128-bit products the compiler does not
 * schedule as tightly (figures: docs/algorithms.rst, "Poly1305").
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_poly1305_amd64_scalar_blocks(uint64_t h[3],
 *           const uint64_t r[2], const uint8_t *m, size_t nblocks);
 *
 * Absorbs NBLOCKS full 16-byte blocks of M (any alignment), each with the
 * 2^128 bit: h = (h + m + 2^128) r mod p.  The accumulator is h[0] + 2^64
 * h[1] + 2^128 h[2] with h[2] <= 7 on entry and h[2] <= 4 on exit (see
 * poly1305.h); r is clamped.  NBLOCKS 0 returns 0 at once.
 *
 * Burn: returns the bytes written below the stack pointer at entry: six
 * pushed registers and the shared 96-byte frame aligned down to 32 (r and
 * s1 live there); the C glue wipes them.  The caller-saved registers that
 * held products are zeroed.  No branch or address depends on secret data.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "poly1305-scalar-amd64.h"

GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_scalar_blocks)
	xorl	%eax, %eax
	testq	%rcx, %rcx
	jz	.Lps_done

	SCALAR_FRAME
	movq	%rcx, GROUPS			/* blocks left */
	movq	%rdx, MAC			/* MAC is rcx: after the count */
	SCALAR_LOAD %rsi, %rdi

.balign 32
.Lps_block:
	/* one block: add it with the 2^128 bit, multiply by r, fold */
	POLY_PART 0, 0
	POLY_PART 1, 0
	POLY_PART 2, 0
	POLY_PART 3, 0
	addq	$16, MAC
	subq	$1, GROUPS
	jnz	.Lps_block

	SCALAR_LEAVE vectors=0
.Lps_done:
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_scalar_blocks)

#endif /* __x86_64__ */
