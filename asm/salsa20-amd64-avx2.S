/* salsa20-amd64-avx2.S - Salsa20 keystream XOR (8 blocks in parallel) and
 * HSalsa20 for amd64 with AVX2.
 *
 * Written for gcrylike from D. J. Bernstein, "Salsa20 specification" and
 * "Extending the Salsa20 nonce" (HSalsa20 / XSalsa20).
 *
 * ABI (System V AMD64, both routines hidden globals):
 *
 *   unsigned int _gcry_salsa20_amd64_avx2_blocks8(uint32_t *state,    rdi
 *                                                 uint8_t *dst,        rsi
 *                                                 const uint8_t *src,  rdx
 *                                                 size_t nblocks,      rcx
 *                                                 unsigned int rounds) r8d
 *
 *   state   16 uint32 words in the standard Salsa20 input layout: words
 *           0, 5, 10, 15 constants, 1-4 and 11-14 key, 6-7 nonce, 8-9 the
 *           64-bit block counter (word 8 low, word 9 high).  Any alignment
 *           (only dword broadcasts and a qword load/store touch it).  Only
 *           words 8-9 are written: the counter is advanced by nblocks; block
 *           j of the call uses counter + j computed in 64 bits, so each lane
 *           carries from word 8 into word 9 on its own (mod 2^64).
 *   dst/src any alignment; dst may equal src.  dst = src XOR keystream.
 *   nblocks a multiple of 8; 0 returns 0 at once and touches nothing (no
 *           stack, no ymm, no state).  (A remainder nblocks % 8 is ignored:
 *           those blocks are neither processed nor counted.)
 *   rounds  an even number >= 2 (20, 12, 8 in practice; 0 gives the bare
 *           feed-forward); rounds/2 double rounds are run.
 *
 *   unsigned int _gcry_hsalsa20_amd64_avx2(const uint32_t *state,     rdi
 *                                          uint8_t *out32,            rsi
 *                                          unsigned int rounds);      edx
 *
 *   state   the Salsa20 input of HSalsa20: constants 0, 5, 10, 15, key 1-4
 *           and 11-14, the 16-byte input in words 6-9; any alignment, read
 *           only.  out32 (any alignment) receives words 0, 5, 10, 15, 6, 7,
 *           8, 9 of the state after `rounds` rounds, with no feed-forward,
 *           little-endian.  rounds even (20 for XSalsa20).
 *
 * Burn convention (as the rest of gcrylike): each routine returns the number
 * of stack bytes, measured down from the stack pointer at entry, that it
 * wrote; the caller wipes [entry_rsp - depth, entry_rsp) itself.
 *   blocks8  two 32-byte spill slots in the red zone (rsp is never moved,
 *            so there is no frame and no CFI beyond start/end), at
 *            r11 = (entry_rsp - 64) & -32; depth = entry_rsp - r11, which is
 *            64 + (entry_rsp mod 32) = 72 or 88 with the ABI's 16-byte
 *            alignment (8 mod 16 at entry); computed at run time.
 *   hsalsa20 no stack: returns 0.
 * Every ymm register is cleared (vzeroall) before return, after anything
 * that held state or keystream.  GPRs used are caller-saved only.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "salsa20-amd64-avx2.h"
#include "hsalsa20-amd64-xmm.h"

/**********************************************************************
 * blocks8: eight blocks in parallel, "transposed" form: one ymm per state
 * word, dword lane j (j = 0..7) holding block j of the group (counter c+j).
 *
 * Register map, quarter-round layout and the slot trades: see
 * salsa20-amd64-avx2.h (SALSA_DROUND); here the slots are
 *   SA = 0(%r11)   word x8        SB = 32(%r11)   word x2
 * (r11 = 32-byte aligned spill base in the red zone, see the header).
 *
 * Performance: the shifts run on only two of the four vector pipes, which
 * bounds the double round.  Other program orders (quarter-round major,
 * wavefront), unrolling and vpmulld for some left shifts measured the same
 * or slower (figures: docs/algorithms.rst, "The Salsa20 family").
 *
 * GPRs: rdi state, rsi dst, rdx src, rcx groups of 8 left, r8d rounds,
 * r9 64-bit counter of the current group, r10d double rounds left,
 * r11 spill base, rax burn depth.
 **********************************************************************/

#define SA	0(%r11)
#define SB	32(%r11)

GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_avx2_blocks8)
	xorl	%eax, %eax
	shrq	$3, %rcx			/* rcx = groups of 8 blocks */
	jz	.Ls8_done

	/* Two 32-byte aligned spill slots in the red zone (rsp unchanged). */
	leaq	-64(%rsp), %r11
	andq	$-32, %r11
	movq	32(%rdi), %r9			/* 64-bit block counter */
	shrl	$1, %r8d			/* r8d = double rounds */

.balign 32
.Ls8_group:
	/* Input words broadcast to all eight lanes (map: see above); x2 to
	 * SB; the per-lane counter words: low (x8) to SA, high (x9) ymm9. */
	vpbroadcastd 8(%rdi), T
	vmovdqa	T, SB				/* SB = x2 */
	CTR8	T, %ymm9, U, %xmm8, %r9
	vmovdqa	T, SA				/* SA = x8 */
	vpbroadcastd 0(%rdi), %ymm0
	vpbroadcastd 4(%rdi), %ymm1
	vpbroadcastd 12(%rdi), %ymm3
	vpbroadcastd 16(%rdi), %ymm4
	vpbroadcastd 20(%rdi), %ymm5
	vpbroadcastd 24(%rdi), %ymm6
	vpbroadcastd 28(%rdi), %ymm7
	vpbroadcastd 40(%rdi), %ymm10
	vpbroadcastd 44(%rdi), %ymm11
	vpbroadcastd 48(%rdi), %ymm12
	vpbroadcastd 52(%rdi), %ymm13
	vpbroadcastd 56(%rdi), %ymm14
	vpbroadcastd 60(%rdi), %ymm15

	movl	%r8d, %r10d			/* r10d = double rounds left */
	testl	%r10d, %r10d
	jz	.Ls8_rounds_done

.balign 32
.Ls8_dround:
	SALSA_DROUND SA, SB

	subl	$1, %r10d
	jnz	.Ls8_dround

.Ls8_rounds_done:
	/* Words 0-7: x2 back from SB; feed-forward with broadcasts in ymm8;
	 * x9 parks in SB to free a second transpose temporary; transpose;
	 * xor and store bytes 0-31 of blocks 0..7. */
	vmovdqa	SB, %ymm2
	FF	%ymm0, 0, %ymm8, %rdi
	FF	%ymm1, 1, %ymm8, %rdi
	FF	%ymm2, 2, %ymm8, %rdi
	FF	%ymm3, 3, %ymm8, %rdi
	FF	%ymm4, 4, %ymm8, %rdi
	FF	%ymm5, 5, %ymm8, %rdi
	FF	%ymm6, 6, %ymm8, %rdi
	FF	%ymm7, 7, %ymm8, %rdi
	vmovdqa	%ymm9, SB			/* SB = x9 */
	TRANSPOSE4 %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm9	/* -> 1,8,3,0 */
	TRANSPOSE4 %ymm4, %ymm5, %ymm6, %ymm7, %ymm2, %ymm9	/* -> 5,2,7,4 */
	OUT2	%ymm1, %ymm5, %ymm6, 0, 0, %rdx, %rsi
	OUT2	%ymm8, %ymm2, %ymm9, 1, 0, %rdx, %rsi
	OUT2	%ymm3, %ymm7, %ymm6, 2, 0, %rdx, %rsi
	OUT2	%ymm0, %ymm4, %ymm9, 3, 0, %rdx, %rsi

	/* Words 8-15: x8 from SA, x9 from SB; counter lanes rebuilt from r9;
	 * feed-forward, transpose, xor and store bytes 32-63. */
	vmovdqa	SA, %ymm8
	vmovdqa	SB, %ymm9
	CTR8	%ymm0, %ymm1, %ymm2, %xmm2, %r9
	vpaddd	%ymm0, %ymm8, %ymm8
	vpaddd	%ymm1, %ymm9, %ymm9
	FF	%ymm10, 10, %ymm2, %rdi
	FF	%ymm11, 11, %ymm3, %rdi
	FF	%ymm12, 12, %ymm4, %rdi
	FF	%ymm13, 13, %ymm5, %rdi
	FF	%ymm14, 14, %ymm6, %rdi
	FF	%ymm15, 15, %ymm7, %rdi
	TRANSPOSE4 %ymm8, %ymm9, %ymm10, %ymm11, %ymm0, %ymm1	/* -> 9,0,11,8 */
	TRANSPOSE4 %ymm12, %ymm13, %ymm14, %ymm15, %ymm2, %ymm3	/* -> 13,2,15,12 */
	OUT2	%ymm9, %ymm13, %ymm1, 0, 32, %rdx, %rsi
	OUT2	%ymm0, %ymm2, %ymm3, 1, 32, %rdx, %rsi
	OUT2	%ymm11, %ymm15, %ymm1, 2, 32, %rdx, %rsi
	OUT2	%ymm8, %ymm12, %ymm3, 3, 32, %rdx, %rsi

	addq	$8, %r9
	addq	$512, %rdx
	addq	$512, %rsi
	subq	$1, %rcx
	jnz	.Ls8_group

	movq	%r9, 32(%rdi)			/* words 8-9 only */
	vzeroall
	/* Burn depth: entry rsp down to the lowest spill byte. */
	movq	%rsp, %rax
	subq	%r11, %rax
.Ls8_done:
	ret
GCRY_FUNC_END(_gcry_salsa20_amd64_avx2_blocks8)

#undef T
#undef U
#undef SA
#undef SB

/**********************************************************************
 * HSalsa20, one block, row/diagonal form in four xmm registers (VEX):
 * hsalsa20-amd64-xmm.h.  A step is a chain of four dependent
 * instructions: add, shift, xor, xor.
 *
 * xmm0 A, xmm1 B, xmm2 C, xmm3 D, xmm4/xmm5 step temporaries (and setup /
 * output scratch with xmm6, xmm7); rdi state, rsi out32, edx double rounds.
 * No stack use.
 **********************************************************************/

/* x ^= (p + q) <<< k, temporaries xmm4, xmm5 */
.macro HSTEP x, p, q, k
	vpaddd	\q, \p, %xmm4
	vpslld	$\k, %xmm4, %xmm5
	vpsrld	$(32 - \k), %xmm4, %xmm4
	vpxor	%xmm5, \x, \x
	vpxor	%xmm4, \x, \x
.endm

/* A ^= xmm4 <<< 18 */
.macro HROT18_A
	vpslld	$18, %xmm4, %xmm5
	vpsrld	$14, %xmm4, %xmm4
	vpxor	%xmm5, %xmm0, %xmm0
	vpxor	%xmm4, %xmm0, %xmm0
.endm

GCRY_FUNC_BEGIN(_gcry_hsalsa20_amd64_avx2)
	HSALSA_LOAD
	shrl	$1, %edx			/* double rounds */
	jz	.Lhs_out

.balign 32
.Lhs_dround:
	HSALSA_DROUND HSTEP, HROT18_A
	subl	$1, %edx
	jnz	.Lhs_dround

.Lhs_out:
	HSALSA_STORE
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hsalsa20_amd64_avx2)

#endif /* __x86_64__ */
