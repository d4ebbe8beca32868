/* chacha8-amd64-sse2.S - ChaCha keystream, one block at a time in row form
 * on SSE2 (an example plugin's assembly: small, not fast).
 *
 * unsigned int chacha8_amd64_sse2_blocks1 (uint32_t *state, uint8_t *dst,
 *                                          const uint8_t *src, size_t nblocks,
 *                                          unsigned int rounds);
 *
 * The stream driver's routine ABI (gcrylike/_native/stream_driver.h):
 * NBLOCKS blocks of STATE's keystream xored from SRC into DST, the 64-bit
 * block counter (state words 12-13) advanced, and the stack burn depth
 * returned: 0, as nothing is written to the stack.
 *
 * Row form: xmm0..xmm3 hold state rows a (words 0-3), b (4-7), c (8-11)
 * and d (12-15), so a column round is four lane-wise quarter rounds; the
 * diagonal round turns rows b, c, d by one, two and three lanes first
 * (pshufd) and back after.  xmm8..xmm11 keep the input rows for the
 * feed-forward; xmm4 and xmm5 are scratch.
 */
#include "asm-common-amd64.h"

#define STATE	%rdi
#define DST	%rsi
#define SRC	%rdx
#define NBLOCKS	%rcx
#define ROUNDS	%r8d

/* x <<<= r for each 32-bit lane (SSE2 has no rotate): t = x >> (32 - r) */
.macro ROTL32 r, x, t
	movdqa	\x, \t
	pslld	$\r, \x
	psrld	$(32 - \r), \t
	por	\t, \x
.endm

/* the quarter round on all four lanes of rows a, b, c, d */
.macro QROUND a, b, c, d
	paddd	\b, \a;  pxor \a, \d;  ROTL32 16, \d, %xmm4
	paddd	\d, \c;  pxor \c, \b;  ROTL32 12, \b, %xmm4
	paddd	\b, \a;  pxor \a, \d;  ROTL32 8, \d, %xmm4
	paddd	\d, \c;  pxor \c, \b;  ROTL32 7, \b, %xmm4
.endm

GCRY_RODATA
.balign 16
.Lcounter_one:
	.quad 1, 0		/* adds 1 to words 12-13 as one 64-bit counter */

GCRY_FUNC_BEGIN(chacha8_amd64_sse2_blocks1)
	movdqu	0(STATE), %xmm8
	movdqu	16(STATE), %xmm9
	movdqu	32(STATE), %xmm10
	movdqu	48(STATE), %xmm11
	testq	NBLOCKS, NBLOCKS
	jz	.Lstore

.Lblock:
	movdqa	%xmm8, %xmm0
	movdqa	%xmm9, %xmm1
	movdqa	%xmm10, %xmm2
	movdqa	%xmm11, %xmm3
	movl	ROUNDS, %eax
	shrl	$1, %eax		/* double rounds */

.Ldouble_round:
	QROUND	%xmm0, %xmm1, %xmm2, %xmm3	/* columns */
	pshufd	$0x39, %xmm1, %xmm1		/* b: lanes 1,2,3,0 */
	pshufd	$0x4e, %xmm2, %xmm2		/* c: lanes 2,3,0,1 */
	pshufd	$0x93, %xmm3, %xmm3		/* d: lanes 3,0,1,2 */
	QROUND	%xmm0, %xmm1, %xmm2, %xmm3	/* diagonals */
	pshufd	$0x93, %xmm1, %xmm1		/* rows back in place */
	pshufd	$0x4e, %xmm2, %xmm2
	pshufd	$0x39, %xmm3, %xmm3
	decl	%eax
	jnz	.Ldouble_round

	/* feed-forward, xor into the data (either may be unaligned) */
	paddd	%xmm8, %xmm0
	paddd	%xmm9, %xmm1
	paddd	%xmm10, %xmm2
	paddd	%xmm11, %xmm3
	movdqu	0(SRC), %xmm4
	movdqu	16(SRC), %xmm5
	pxor	%xmm4, %xmm0
	pxor	%xmm5, %xmm1
	movdqu	32(SRC), %xmm4
	movdqu	48(SRC), %xmm5
	pxor	%xmm4, %xmm2
	pxor	%xmm5, %xmm3
	movdqu	%xmm0, 0(DST)
	movdqu	%xmm1, 16(DST)
	movdqu	%xmm2, 32(DST)
	movdqu	%xmm3, 48(DST)

	paddq	.Lcounter_one(%rip), %xmm11	/* next block */
	addq	$64, SRC
	addq	$64, DST
	decq	NBLOCKS
	jnz	.Lblock

.Lstore:
	movdqu	%xmm11, 48(STATE)	/* the counter; the nonce is unchanged */
	/* no keystream or key left in registers: clear every one used */
	GCRY_ZERO_XMM 12
	xorl	%eax, %eax		/* burn depth: no stack used */
	ret
GCRY_FUNC_END(chacha8_amd64_sse2_blocks1)
