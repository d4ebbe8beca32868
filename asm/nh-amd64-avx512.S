/* nh-amd64-avx512.S - NH (Adiantum's NH^T[256, 32, 4], stride 2) for amd64
 * with AVX-512 (AVX512F: 512-bit vpmuludq, opmask tails).
 *
 * Written from Crowley and Biggers, "Adiantum: length-preserving encryption
 * for entry-level processors", ToSC 2018(4), section 6.3, and the formula
 * restated in ciphers/nhpoly1305/nh.h.
 *
 * ABI (System V AMD64, all routines hidden globals), the AVX2 routines'
 * prototypes:
 *
 *   unsigned int _gcry_nh_amd64_avx512(const uint32_t key[268],
 *           const uint8_t *msg, size_t len, uint8_t hash[32]);
 *   unsigned int _gcry_nh_amd64_avx512_units(const uint32_t key[268],
 *           const uint8_t *msg, size_t nunits, uint8_t *hashes);
 *
 * key: the 1072-byte NH key (268 little-endian words) ARRANGED: words 1 and
 * 2 of every 16-byte group swapped (nh_key_arrange in nh.h; the glue does
 * it once at setkey).  Only key bytes [0, len + 48) are read.  msg: any
 * alignment; bytes [0, len) are read.  len is rounded down to a multiple
 * of 16 and must not exceed 1024; len 0 stores an all-zero hash.  hash: 32
 * bytes, le64(sum_0) .. le64(sum_3).  _units hashes nunits consecutive
 * 1024-byte units of msg into nunits consecutive 32-byte hashes (nunits 0
 * writes nothing).  key, msg and hash may have any alignment.
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"): always 0, no stack is
 * used.  Only zmm0-zmm12 are used, and vzeroall clears zmm0-15 whole before
 * return (zmm16-31 are never touched); the opmask register k1 holds only a
 * length-derived mask.
 *
 * Method.  For pass p and the 16-byte group at word i, with t_x =
 * m[i+x] + k[i+x+4p] (mod 2^32), the sum gains t_0*t_2 + t_1*t_3.  As in
 * the AVX2 routine, each group's words are put in the order (0,2,1,3) in
 * both message and key before the addition (a permutation commutes with
 * it), so that t's qwords hold t_0|t_2 and t_1|t_3 and one vpsrlq $32
 * gives the partners of one vpmuludq.
 *
 * Layout: one zmm holds four consecutive groups (64 message bytes); pass p
 * of the block at byte j adds the 64 key bytes at j + 16p.  Those windows
 * overlap (each key group serves four of them), which is why the key comes
 * already arranged: every window is then the plain memory operand of the
 * vpaddd that adds it, and per 64 message bytes the work is one message
 * vpshufd and, per pass, vpaddd (with the key load), vpsrlq, vpmuludq,
 * vpaddq: 17 zmm operations for 32 products, the 512-bit pipes' limit on
 * Zen 4.  Shuffling the windows in the loop (four more operations) or
 * into a stack copy per call (17 more per call, plus a frame to burn) was
 * measured slower: see docs/algorithms.rst, "NHPoly1305".  Each sum
 * register keeps eight 64-bit partial sums (four groups x two products) of
 * its pass, folded at the end.  A last partial block (16, 32 or 48 bytes)
 * reads message and key windows under a dword mask (zero elsewhere, so the
 * absent groups' products are 0), so nothing is read past either end.
 * No branch or address depends on key or message data.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

.text

/* Register use (both routines):
 *   rdi   key position (advances with the message)
 *   rsi   message position
 *   r11   hash output (rcx is needed for a shift count)
 *   zmm0-3   sums of passes 0-3 (8 x u64 each)
 *   zmm4     shuffled message block (four groups)
 *   zmm5-12  products and partners, two per pass
 *   k1    dword mask of a last partial block
 */

/* k = (1 << count) - 1 for count (0..15) in ecx; eax clobbered. */
.macro LOW_MASK k
	movl	$1, %eax
	shll	%cl, %eax
	subl	$1, %eax
	kmovw	%eax, \k
.endm

/* One pass over the shuffled message block zmm4: sum += lo32(t) * hi32(t)
 * per qword where t = zmm4 + key window at off(%rdi).  With MASK
 * ({%k1}{z}) the window is read only in the present groups' dwords and t
 * is zero elsewhere. */
.macro PASS sum, off, t, u, mask=
	vpaddd	\off(%rdi), %zmm4, \t\mask
	vpsrlq	$32, \t, \u
	vpmuludq \u, \t, \t
	vpaddq	\t, \sum, \sum
.endm

/* Passes 0-3 of the message block in zmm4 (key windows at 0, 16, 32, 48
 * bytes past rdi). */
.macro PASSES mask=
	PASS	%zmm0, 0, %zmm5, %zmm6, \mask
	PASS	%zmm1, 16, %zmm7, %zmm8, \mask
	PASS	%zmm2, 32, %zmm9, %zmm10, \mask
	PASS	%zmm3, 48, %zmm11, %zmm12, \mask
.endm

/* r8 (>= 1) full 64-byte blocks from rsi, key from rdi; both advance. */
.macro LOOP64
.balign 32
1:
	vpshufd	$0xd8, (%rsi), %zmm4
	PASSES
	addq	$64, %rsi
	addq	$64, %rdi
	subq	$1, %r8
	jnz	1b
.endm

/* Fold the four sum registers into le64(sum_0..3) at 0(%r11).
 * zmm5 = per 128-bit lane (s0, s1) partials, zmm6 = (s2, s3) partials;
 * then lanes (0,2) + (1,3) of both, then the two 256-bit halves' lanes. */
.macro FOLD_STORE
	vpunpcklqdq %zmm1, %zmm0, %zmm5		/* s0.even s1.even per lane */
	vpunpckhqdq %zmm1, %zmm0, %zmm6		/* s0.odd  s1.odd  per lane */
	vpaddq	%zmm6, %zmm5, %zmm5		/* X: (s0 s1) x 4 lanes */
	vpunpcklqdq %zmm3, %zmm2, %zmm6
	vpunpckhqdq %zmm3, %zmm2, %zmm7
	vpaddq	%zmm7, %zmm6, %zmm6		/* Y: (s2 s3) x 4 lanes */
	vshufi64x2 $0x88, %zmm6, %zmm5, %zmm7	/* X0 X2 Y0 Y2 */
	vshufi64x2 $0xdd, %zmm6, %zmm5, %zmm8	/* X1 X3 Y1 Y3 */
	vpaddq	%zmm8, %zmm7, %zmm7		/* X01 X23 Y01 Y23 */
	vextracti64x4 $1, %zmm7, %ymm8		/* Y01 Y23 */
	vperm2i128 $0x20, %ymm8, %ymm7, %ymm9	/* X01 Y01 */
	vperm2i128 $0x31, %ymm8, %ymm7, %ymm10	/* X23 Y23 */
	vpaddq	%ymm10, %ymm9, %ymm9		/* s0 s1 s2 s3 */
	vmovdqu	%ymm9, 0(%r11)
.endm

.macro ZERO_SUMS
	vpxor	%xmm0, %xmm0, %xmm0
	vpxor	%xmm1, %xmm1, %xmm1
	vpxor	%xmm2, %xmm2, %xmm2
	vpxor	%xmm3, %xmm3, %xmm3
.endm

/**********************************************************************
 * _gcry_nh_amd64_avx512: one message of len bytes (<= 1024).
 *   r8  64-byte blocks
 * Full blocks, then one block of the last 16, 32 or 48 bytes under k1.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_amd64_avx512)
	movq	%rcx, %r11
	ZERO_SUMS
	movq	%rdx, %r8
	shrq	$6, %r8
	jz	.Lnh_tail
	LOOP64

.Lnh_tail:
	/* the present groups' dwords: (len mod 64) / 4 (0, 4, 8 or 12);
	 * the bits below 16 of len are dropped here */
	movl	%edx, %ecx
	andl	$0x30, %ecx
	jz	.Lnh_fold
	shrl	$2, %ecx
	LOW_MASK %k1
	vmovdqu32 (%rsi), %zmm4{%k1}{z}
	vpshufd	$0xd8, %zmm4, %zmm4
	PASSES	{%k1}{z}

.Lnh_fold:
	FOLD_STORE
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_nh_amd64_avx512)

/**********************************************************************
 * _gcry_nh_amd64_avx512_units: nunits full 1024-byte units.
 *   rdx units left, r8 64-byte blocks left in the unit, r9 key base
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_amd64_avx512_units)
	xorl	%eax, %eax
	testq	%rdx, %rdx
	jz	.Lnhu_done
	movq	%rcx, %r11
	movq	%rdi, %r9

.balign 32
.Lnhu_unit:
	movq	%r9, %rdi
	ZERO_SUMS
	movl	$16, %r8d
	LOOP64
	FOLD_STORE
	addq	$32, %r11
	subq	$1, %rdx
	jnz	.Lnhu_unit

	vzeroall
.Lnhu_done:
	ret
GCRY_FUNC_END(_gcry_nh_amd64_avx512_units)

#endif /* __x86_64__ */
