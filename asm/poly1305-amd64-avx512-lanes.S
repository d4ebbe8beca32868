/* poly1305-amd64-avx512-lanes.S - Poly1305 of eight short messages at once,
 * one message per qword lane, for amd64 with AVX512F.
 *
 * Written for gcrylike from RFC 8439 (Poly1305, section 2.5) and D. J.
 * Bernstein, "The Poly1305-AES message-authentication code".
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_poly1305_amd64_avx512_lanes8(const uint64_t *powers, rdi
 *                                                   const uint64_t *blocks, rsi
 *                                                   size_t nblocks,         rdx
 *                                                   uint64_t *limbs);       rcx
 *
 *   powers  r^1 .. r^8, nine qwords each (power k at qword 9 (k - 1)): its
 *           radix-2^26 limbs r_0 .. r_4 (each < 2^26, fully reduced), then
 *           5 r_1 .. 5 r_4 (_gcry_poly1305_amd64_avx512_lanes_setup in
 *           poly1305_amd64_tables.c).
 *   blocks  the messages word-major: qword q (0 low, 1 high) of block j of
 *           message k at blocks[16 j + 8 q + k]; any alignment.
 *   nblocks 0 to 8 blocks a message (all eight the same length).
 *   limbs   out: message k's value h_k in radix 2^26, limb i at
 *           limbs[8 i + k]; limb 1 may reach 2^26 + 2^12, the others are
 *           below 2^26 (so h_k < 2^130 + 2^38, congruent to the sum).
 *
 * Each message is hashed from a zero accumulator without the s pad:
 *     h_k = sum_j (c_kj + 2^128) r^(nblocks - j)  (mod p = 2^130 - 5)
 * with the block c_kj.  No carries between blocks: with five-limb products
 * (2^130 = 5 mod p folds the wrapped ones, hence the 5 r_i) each column
 * sum of one block is below 5 * 2^26 * 2^29 < 2^57.4, eight blocks below
 * 2^60.4, so the column sums stay exact in 64-bit lanes and one carry pass
 * at the end reduces them.  Every product is vpmuludq of a message limb and
 * a power value broadcast from memory: 25 a block for eight messages.
 *
 * Returns the burn depth: 0 (no stack).  zmm0-19 are used and cleared
 * before return (vpxord for zmm16-19, then vzeroall); GPRs touched: rax,
 * rdx, r8 (no secret left in them but pointers and counts).  Branches
 * depend on nblocks only.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

GCRY_RODATA
.balign 8
.Llanes_mask26:
	.quad 0x3ffffff
.Llanes_hibit:				/* 2^128 in limb 4 */
	.quad 0x1000000

.text

#define D0	%zmm0		/* column sums, limb 0..4, lane k = message k */
#define D1	%zmm1
#define D2	%zmm2
#define D3	%zmm3
#define D4	%zmm4
#define M0	%zmm5		/* the block's limbs */
#define M1	%zmm6
#define M2	%zmm7
#define M3	%zmm8
#define M4	%zmm9
#define LO	%zmm10		/* the block's low and high qwords */
#define HI	%zmm11
#define MASK26	%zmm12
#define HIBIT	%zmm13
#define T0	%zmm14		/* products, scratch */
#define T1	%zmm15
#define T2	%zmm16
#define T3	%zmm17
#define T4	%zmm18
#define T5	%zmm19

/* Power value v of the current power (rax): r_0..r_4 at v = 0..4, 5 r_1..
 * 5 r_4 at v = 5..8, broadcast to the eight lanes. */
#define PV(v)	(8 * (v))(%rax){1to8}

/* column d += m0 p0 + m1 p1 + m2 p2 + m3 p3 + m4 p4 (value indices p*):
 * five products into five scratch registers, then summed pairwise. */
.macro COLUMN d, p0, p1, p2, p3, p4
	vpmuludq PV(\p0), M0, T0
	vpmuludq PV(\p1), M1, T1
	vpmuludq PV(\p2), M2, T2
	vpmuludq PV(\p3), M3, T3
	vpmuludq PV(\p4), M4, T4
	vpaddq	T1, T0, T0
	vpaddq	T3, T2, T2
	vpaddq	T4, \d, \d
	vpaddq	T2, T0, T0
	vpaddq	T0, \d, \d
.endm

/* one carry step: limb \x's bits 26 and up into \y */
.macro CARRY26 x, y
	vpsrlq	$26, \x, T5
	vpandq	MASK26, \x, \x
	vpaddq	T5, \y, \y
.endm

GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_avx512_lanes8)
	vpxord	D0, D0, D0
	vpxord	D1, D1, D1
	vpxord	D2, D2, D2
	vpxord	D3, D3, D3
	vpxord	D4, D4, D4
	testq	%rdx, %rdx
	jz	.Llanes_store
	vpbroadcastq .Llanes_mask26(%rip), MASK26
	vpbroadcastq .Llanes_hibit(%rip), HIBIT
	/* block 0 takes r^nblocks: power nblocks - 1 from the table start */
	leaq	(%rdx, %rdx, 8), %rax
	leaq	-72(%rdi, %rax, 8), %rax

.balign 32
.Llanes_block:
	/* the block's two qwords, eight messages, into radix 2^26 limbs
	 * (bits 0-25, 26-51, 52-77, 78-103, 104-127 and the 2^128 bit) */
	vmovdqu64 0(%rsi), LO
	vmovdqu64 64(%rsi), HI
	vpandq	MASK26, LO, M0
	vpsrlq	$26, LO, M1
	vpandq	MASK26, M1, M1
	vpsrlq	$52, LO, T0
	vpsllq	$12, HI, M2
	vpternlogq $0xa8, MASK26, T0, M2	/* M2 = (M2 | T0) & mask */
	vpsrlq	$14, HI, M3
	vpandq	MASK26, M3, M3
	vpsrlq	$40, HI, M4
	vporq	HIBIT, M4, M4

	/* the sums += limbs times the power (2^130 = 5: wrapped terms take
	 * 5 r_i) */
	COLUMN	D0, 0, 8, 7, 6, 5		/* r0, 5r4, 5r3, 5r2, 5r1 */
	COLUMN	D1, 1, 0, 8, 7, 6		/* r1, r0, 5r4, 5r3, 5r2 */
	COLUMN	D2, 2, 1, 0, 8, 7		/* r2, r1, r0, 5r4, 5r3 */
	COLUMN	D3, 3, 2, 1, 0, 8		/* r3, r2, r1, r0, 5r4 */
	COLUMN	D4, 4, 3, 2, 1, 0		/* r4, r3, r2, r1, r0 */

	subq	$72, %rax			/* the next block's power, one lower */
	addq	$128, %rsi
	subq	$1, %rdx
	jnz	.Llanes_block

	/* one carry pass (sums < 2^60.4): 0 -> 1 -> 2 -> 3 -> 4, the carry out
	 * of limb 4 (weight 2^130) back into limb 0 times 5, then 0 -> 1 */
	CARRY26	D0, D1
	CARRY26	D1, D2
	CARRY26	D2, D3
	CARRY26	D3, D4
	vpsrlq	$26, D4, T5
	vpandq	MASK26, D4, D4
	vpsllq	$2, T5, T4
	vpaddq	T4, T5, T5			/* 5 c < 2^37 */
	vpaddq	T5, D0, D0
	CARRY26	D0, D1

.Llanes_store:
	vmovdqu64 D0, 0(%rcx)
	vmovdqu64 D1, 64(%rcx)
	vmovdqu64 D2, 128(%rcx)
	vmovdqu64 D3, 192(%rcx)
	vmovdqu64 D4, 256(%rcx)

	vpxord	%xmm16, %xmm16, %xmm16
	vpxord	%xmm17, %xmm17, %xmm17
	vpxord	%xmm18, %xmm18, %xmm18
	vpxord	%xmm19, %xmm19, %xmm19
	vzeroall
	xorl	%eax, %eax			/* burn depth: no stack used */
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_avx512_lanes8)

#endif /* __x86_64__ */
