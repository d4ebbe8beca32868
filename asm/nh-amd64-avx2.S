/* nh-amd64-avx2.S - NH (Adiantum's NH^T[256, 32, 4], stride 2) for amd64
 * with AVX2.
 *
 * Written from Crowley and Biggers, "Adiantum: length-preserving encryption
 * for entry-level processors", ToSC 2018(4), section 6.3, and the formula
 * restated in ciphers/nhpoly1305/nh.h.
 *
 * ABI (System V AMD64, all routines hidden globals):
 *
 *   unsigned int _gcry_nh_amd64_avx2(const uint32_t key[268],
 *           const uint8_t *msg, size_t len, uint8_t hash[32]);
 *   unsigned int _gcry_nh_amd64_avx2_units(const uint32_t key[268],
 *           const uint8_t *msg, size_t nunits, uint8_t *hashes);
 *
 * key: the 1072-byte NH key (268 little-endian words); only key bytes
 * [0, len + 48) are read.  msg: any alignment; bytes [0, len) are read.
 * len is rounded down to a multiple of 16 and must not exceed 1024; len 0
 * stores an all-zero hash.  hash: 32 bytes, le64(sum_0) .. le64(sum_3).
 * _units hashes nunits consecutive 1024-byte units of msg into nunits
 * consecutive 32-byte hashes (nunits 0 writes nothing).  key, msg and hash
 * may have any alignment (only VEX unaligned-tolerant accesses are used).
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"): always 0, no stack is
 * used.  All ymm registers (key, message, products, sums) are cleared
 * (vzeroall) before return.
 *
 * Method.  For pass p and the 16-byte group at word i, with t_x =
 * m[i+x] + k[i+x+4p] (mod 2^32), the sum gains t_0*t_2 + t_1*t_3.  vpmuludq
 * multiplies the low dwords of each qword, so the group's words are first
 * put in the order (0,2,1,3) by vpshufd $0xd8: then qword 0 holds t_0|t_2
 * and qword 1 holds t_1|t_3, and one vpsrlq $32 gives the partners.  The
 * order change is a permutation, so it is applied to message and key
 * *before* the addition: the message once per load, and each 32-byte key
 * window once for the two passes that use it (pass p of the message at j
 * reads the key at byte j + 16p; window W(x) = shuffled key bytes
 * [x, x+32) serves message offset x at pass 0 and x - 32 at pass 2, or x -
 * 16 at pass 1 and x - 48 at pass 3).  Per 32 message bytes and pass this
 * leaves vpaddd, vpsrlq, vpmuludq, vpaddq: four products each.  Each sum
 * register keeps four 64-bit partial sums (two groups x two products),
 * folded together at the end.  No branch or address depends on key or
 * message data.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

.text

/* Register use (both routines):
 *   rdi   key position (advances with the message)
 *   rsi   message position
 *   rcx   hash output
 *   ymm0-3   sums of passes 0-3 (4 x u64 each)
 *   ymm4-7   shuffled key windows R0-R3 (rotating roles, see the loop)
 *   ymm8     shuffled message (32 bytes = two groups)
 *   ymm9-15  scratch
 */

/* Shuffled key window: dst = vpshufd $0xd8 of key bytes [off, off+32). */
.macro LOADW off, dst
	vpshufd	$0xd8, \off(%rdi), \dst
.endm

/* One pass over the shuffled message m: sum += lo32(t) * hi32(t) per qword
 * where t = m + w.  t, u scratch. */
.macro PASS sum, w, m, t, u
	vpaddd	\w, \m, \t
	vpsrlq	$32, \t, \u
	vpmuludq \u, \t, \t
	vpaddq	\t, \sum, \sum
.endm

/* PASS for one 16-byte group: t, u, w, m are xmm names (VEX.128, which
 * zeroes bits 128-255 of t), ty the ymm name of t, added to the ymm sum. */
.macro PASS16 sum, w, m, t, u, ty
	vpaddd	\w, \m, \t
	vpsrlq	$32, \t, \u
	vpmuludq \u, \t, \t
	vpaddq	\ty, \sum, \sum
.endm

/* 32 message bytes at off(%rsi), passes 0-3 with windows w0-w3 (= W(j),
 * W(j+16), W(j+32), W(j+48) for the message at key offset j). */
.macro NH32 off, w0, w1, w2, w3
	vpshufd	$0xd8, \off(%rsi), %ymm8
	PASS	%ymm0, \w0, %ymm8, %ymm9, %ymm10
	PASS	%ymm1, \w1, %ymm8, %ymm11, %ymm12
	PASS	%ymm2, \w2, %ymm8, %ymm13, %ymm14
	PASS	%ymm3, \w3, %ymm8, %ymm15, %ymm9
.endm

/* 64 message bytes.  On entry R0 = W(0), R1 = W(16) (relative to rdi);
 * on exit R0 = W(64), R1 = W(80), i.e. the same invariant for rdi + 64.
 * Key bytes read: [rdi + 32, rdi + 112). */
.macro NH64
	LOADW	32, %ymm6
	LOADW	48, %ymm7
	NH32	0, %ymm4, %ymm5, %ymm6, %ymm7
	LOADW	64, %ymm4
	LOADW	80, %ymm5
	NH32	32, %ymm6, %ymm7, %ymm4, %ymm5
.endm

/* Fold the four sum registers into le64(sum_0..3) at 0(%rcx):
 * interleave qwords of sums (p, p+1), add, then add the 128-bit lanes. */
.macro FOLD_STORE
	vpunpcklqdq %ymm1, %ymm0, %ymm8		/* s0.0 s1.0 | s0.2 s1.2 */
	vpunpckhqdq %ymm1, %ymm0, %ymm9		/* s0.1 s1.1 | s0.3 s1.3 */
	vpunpcklqdq %ymm3, %ymm2, %ymm10	/* s2.0 s3.0 | s2.2 s3.2 */
	vpunpckhqdq %ymm3, %ymm2, %ymm11	/* s2.1 s3.1 | s2.3 s3.3 */
	vpaddq	%ymm9, %ymm8, %ymm8		/* (s0 s1) low lane | high lane */
	vpaddq	%ymm11, %ymm10, %ymm10		/* (s2 s3) low lane | high lane */
	vperm2i128 $0x20, %ymm10, %ymm8, %ymm9	/* low lanes:  s0 s1 s2 s3 */
	vperm2i128 $0x31, %ymm10, %ymm8, %ymm11	/* high lanes: s0 s1 s2 s3 */
	vpaddq	%ymm11, %ymm9, %ymm9
	vmovdqu	%ymm9, 0(%rcx)
.endm

/* Zero the sums, load R0 = W(0), R1 = W(16). */
.macro START
	vpxor	%xmm0, %xmm0, %xmm0
	vpxor	%xmm1, %xmm1, %xmm1
	vpxor	%xmm2, %xmm2, %xmm2
	vpxor	%xmm3, %xmm3, %xmm3
	LOADW	0, %ymm4
	LOADW	16, %ymm5
.endm

/**********************************************************************
 * _gcry_nh_amd64_avx2: one message of len bytes (<= 1024).
 *   r8  64-byte blocks left
 * Main loop 64 bytes at a time (key windows carried between iterations),
 * then a 32-byte tail (which still uses the carried R0, R1) and a
 * 16-byte tail (128-bit windows loaded afresh).
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_amd64_avx2)
	START
	movq	%rdx, %r8
	shrq	$6, %r8
	jz	.Lnh_tail32

.balign 32
.Lnh_loop64:
	NH64
	addq	$64, %rsi
	addq	$64, %rdi
	subq	$1, %r8
	jnz	.Lnh_loop64

.Lnh_tail32:
	/* 32-byte group pair: R0, R1 are W(0), W(16) here by the invariant */
	testb	$32, %dl
	jz	.Lnh_tail16
	LOADW	32, %ymm6
	LOADW	48, %ymm7
	NH32	0, %ymm4, %ymm5, %ymm6, %ymm7
	addq	$32, %rsi
	addq	$32, %rdi

.Lnh_tail16:
	/* last single group: 128-bit forms (VEX.128 zeroes the upper lane
	 * of the product, so it adds into the 256-bit sums as 0) */
	testb	$16, %dl
	jz	.Lnh_fold
	vpshufd	$0xd8, 0(%rsi), %xmm8
	vpshufd	$0xd8, 0(%rdi), %xmm4
	vpshufd	$0xd8, 16(%rdi), %xmm5
	vpshufd	$0xd8, 32(%rdi), %xmm6
	vpshufd	$0xd8, 48(%rdi), %xmm7
	PASS16	%ymm0, %xmm4, %xmm8, %xmm9, %xmm10, %ymm9
	PASS16	%ymm1, %xmm5, %xmm8, %xmm11, %xmm12, %ymm11
	PASS16	%ymm2, %xmm6, %xmm8, %xmm13, %xmm14, %ymm13
	PASS16	%ymm3, %xmm7, %xmm8, %xmm15, %xmm9, %ymm15

.Lnh_fold:
	FOLD_STORE
	vzeroall
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_nh_amd64_avx2)

/**********************************************************************
 * _gcry_nh_amd64_avx2_units: nunits full 1024-byte units.
 *   rdx units left, r8 64-byte blocks left in the unit, r9 key base
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_amd64_avx2_units)
	testq	%rdx, %rdx
	jz	.Lnhu_done
	movq	%rdi, %r9

.balign 32
.Lnhu_unit:
	movq	%r9, %rdi
	START
	movl	$16, %r8d

.balign 32
.Lnhu_loop64:
	NH64
	addq	$64, %rsi
	addq	$64, %rdi
	subl	$1, %r8d
	jnz	.Lnhu_loop64

	FOLD_STORE
	addq	$32, %rcx
	subq	$1, %rdx
	jnz	.Lnhu_unit

	vzeroall
.Lnhu_done:
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_nh_amd64_avx2_units)

#endif /* __x86_64__ */
