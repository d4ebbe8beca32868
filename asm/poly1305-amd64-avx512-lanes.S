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
 *                                                   uint64_t *out);         rcx
 *
 *   powers  r^1 .. r^8, nine qwords each (power k at qword 9 (k - 1)): its
 *           radix-2^26 limbs r_0 .. r_4 (each < 2^26, fully reduced), then
 *           5 r_1 .. 5 r_4 (_gcry_poly1305_amd64_avx512_lanes_setup in
 *           poly1305_amd64_tables.c).
 *   blocks  the messages word-major: qword q (0 low, 1 high) of block j of
 *           message k at blocks[16 j + 8 q + k]; any alignment.
 *   nblocks 0 to 8 blocks a message (all eight the same length).
 *   out     message k's value, fully reduced mod p and then taken mod
 *           2^128, as qword w (0 low, 1 high) at out[8 w + k].
 *
 * Each message is hashed from a zero accumulator without the s pad (what
 * the Poly1305 tag is with s = 0):
 *     h_k = sum_j (c_kj + 2^128) r^(nblocks - j)  (mod p = 2^130 - 5)
 * with the block c_kj.  No carries between blocks: with five-limb products
 * (2^130 = 5 mod p folds the wrapped ones, hence the 5 r_i) each column
 * sum of one block is below 5 * 2^26 * 2^29 < 2^57.4, eight blocks below
 * 2^60.4, so the column sums stay exact in 64-bit lanes.  Every product is
 * vpmuludq of a message limb and a power value broadcast from memory: 25 a
 * block for eight messages.  Then carry passes until every limb is below
 * 2^26 (h < 2^130), h - p where h + 5 reaches 2^130 (a select on a lane
 * mask, no branch), and the 128 low bits packed.
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
.Llanes_five:
	.quad 5

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

/* limb 4's bits 26 and up (weight 2^130) into limb 0 times 5 */
.macro FOLD40
	vpsrlq	$26, D4, T5
	vpandq	MASK26, D4, D4
	vpsllq	$2, T5, T4
	vpaddq	T4, T5, T5
	vpaddq	T5, D0, D0
.endm

/* a carry pass from limb 1 round to limb 1: 1 -> 2 -> 3 -> 4 -> 0 -> 1 */
.macro CARRY_ROUND
	CARRY26	D1, D2
	CARRY26	D2, D3
	CARRY26	D3, D4
	FOLD40
	CARRY26	D0, D1
.endm

/* dst = (lanes of SEL all ones) ? g : h, through the scratch T4 */
.macro SELECT h, g
	vmovdqa64 LO, T4
	vpternlogq $0xca, \h, \g, T4		/* T4 = T4 ? g : h, bit by bit */
	vmovdqa64 T4, \h
.endm

GCRY_FUNC_BEGIN(_gcry_poly1305_amd64_avx512_lanes8)
	vpxord	D0, D0, D0
	vpxord	D1, D1, D1
	vpxord	D2, D2, D2
	vpxord	D3, D3, D3
	vpxord	D4, D4, D4
	vpbroadcastq .Llanes_mask26(%rip), MASK26
	vpbroadcastq .Llanes_hibit(%rip), HIBIT
	testq	%rdx, %rdx
	jz	.Llanes_reduce
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

	/* carry the sums (< 2^60.4): 0 -> 1 -> 2 -> 3 -> 4, limb 4 folded
	 * into 0 (5 c < 2^37), 0 -> 1: limb 1 < 2^26 + 2^11, the rest
	 * < 2^26.  One more round from limb 1 leaves every limb below 2^26:
	 * a carry goes round only if limb 1 had one, and then limb 1 is
	 * below 2^11 when the carry comes back. */
	CARRY26	D0, D1
	CARRY26	D1, D2
	CARRY26	D2, D3
	CARRY26	D3, D4
	FOLD40
	CARRY26	D0, D1
.Llanes_reduce:
	CARRY_ROUND

	/* h < 2^130 now.  g = h + 5 carried (in M0..M4); where g reaches
	 * 2^130, h >= p and h - p = g - 2^130 replaces h */
	vpaddq	.Llanes_five(%rip){1to8}, D0, M0
	vpsrlq	$26, M0, T5
	vpandq	MASK26, M0, M0
	vpaddq	T5, D1, M1
	vpsrlq	$26, M1, T5
	vpandq	MASK26, M1, M1
	vpaddq	T5, D2, M2
	vpsrlq	$26, M2, T5
	vpandq	MASK26, M2, M2
	vpaddq	T5, D3, M3
	vpsrlq	$26, M3, T5
	vpandq	MASK26, M3, M3
	vpaddq	T5, D4, M4
	vpsrlq	$26, M4, LO			/* 1 where g >= 2^130, else 0 */
	vpandq	MASK26, M4, M4
	vpxord	HI, HI, HI
	vpsubq	LO, HI, LO			/* SEL: all ones or all zeros */
	SELECT	D0, M0
	SELECT	D1, M1
	SELECT	D2, M2
	SELECT	D3, M3
	SELECT	D4, M4

	/* the 128 low bits: limbs at bits 0, 26, 52 | 78 (= 64 + 14), 104 */
	vpsllq	$26, D1, T0
	vpsllq	$52, D2, T1
	vpternlogq $0xfe, T1, T0, D0		/* D0 |= T0 | T1 */
	vpsrlq	$12, D2, D2
	vpsllq	$14, D3, T0
	vpsllq	$40, D4, T1
	vpternlogq $0xfe, T1, T0, D2		/* D2 |= T0 | T1 */
	vmovdqu64 D0, 0(%rcx)
	vmovdqu64 D2, 64(%rcx)

	vpxord	%xmm16, %xmm16, %xmm16
	vpxord	%xmm17, %xmm17, %xmm17
	vpxord	%xmm18, %xmm18, %xmm18
	vpxord	%xmm19, %xmm19, %xmm19
	vzeroall
	xorl	%eax, %eax			/* burn depth: no stack used */
	ret
GCRY_FUNC_END(_gcry_poly1305_amd64_avx512_lanes8)

#endif /* __x86_64__ */
