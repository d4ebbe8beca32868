/* mutant-aarch64.S - deliberately wrong routines for the native check's own
 * test on aarch64 (test code only; run with --mutant), each of which it
 * must fail:
 *
 *   unsigned int asmcheck_mutant_underreports(void);
 *     writes below its entry sp like the real routines would with a frame
 *     (a register pair, a frame aligned down to 32 bytes) but reports 8
 *     bytes less than it wrote: the depth proof must fail it at every
 *     stack alignment (as mutant-amd64.S);
 *   unsigned int asmcheck_mutant_chacha_rounds(state, dst, src, nblocks,
 *                                               rounds);
 *     the NEON four-block ChaCha with two rounds fewer than asked: the
 *     comparison with the portable C and the published vectors must fail
 *     it, where its depth and registers are as clean as the real one's.
 */
#include "asm-common-aarch64.h"

GCRY_FUNC_BEGIN(asmcheck_mutant_underreports)
	mov	x9, sp
	stp	x19, x20, [sp, #-16]!
	mov	x10, sp
	and	x10, x10, #-32
	sub	x10, x10, #32
	mov	sp, x10
	str	x9, [sp]			/* the bottom of the frame */
	sub	x0, x9, x10			/* what it wrote below its entry sp */
	sub	x0, x0, #8			/* the bug: 8 bytes short */
	sub	sp, x9, #16
	ldp	x19, x20, [sp], #16
	ret
GCRY_FUNC_END(asmcheck_mutant_underreports)

GCRY_FUNC_BEGIN(asmcheck_mutant_chacha_rounds)
	sub	w4, w4, #2			/* the bug */
	b	_gcry_chacha_aarch64_neon_blocks4
GCRY_FUNC_END(asmcheck_mutant_chacha_rounds)
