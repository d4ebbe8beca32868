/* nh-amd64-sse2.S - NH (Adiantum's NH^T[256, 32, 4], stride 2) for amd64
 * with SSE2 (baseline x86-64, no CPU check needed).
 *
 * Written from Crowley and Biggers, "Adiantum: length-preserving encryption
 * for entry-level processors", ToSC 2018(4), section 6.3, and the formula
 * restated in ciphers/nhpoly1305/nh.h.
 *
 * ABI (System V AMD64, all routines hidden globals):
 *
 *   unsigned int _gcry_nh_amd64_sse2(const uint32_t key[268],
 *           const uint8_t *msg, size_t len, uint8_t hash[32]);
 *   unsigned int _gcry_nh_amd64_sse2_units(const uint32_t key[268],
 *           const uint8_t *msg, size_t nunits, uint8_t *hashes);
 *
 * key: the 1072-byte NH key (268 little-endian words); only key bytes
 * [0, len + 48) are read.  msg: any alignment; bytes [0, len) are read.
 * len is rounded down to a multiple of 16 and must not exceed 1024; len 0
 * stores an all-zero hash.  hash: 32 bytes, le64(sum_0) .. le64(sum_3).
 * _units hashes nunits consecutive 1024-byte units of msg into nunits
 * consecutive 32-byte hashes (nunits 0 writes nothing).  key, msg and hash
 * may have any alignment (movdqu only; no memory operands on SSE ops).
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"): always 0, no stack is
 * used.  Every xmm register (all sixteen hold key, message, products or
 * sums at some point) is cleared before return; the ymm upper halves are
 * never touched (legacy SSE encoding).
 *
 * Method.  For pass p and the 16-byte group at word i, with t_x =
 * m[i+x] + k[i+x+4p] (mod 2^32), the sum gains t_0*t_2 + t_1*t_3.  pmuludq
 * multiplies the low dwords of each qword, so the group's words are put in
 * the order (0,2,1,3) by pshufd $0xd8: qword 0 then holds t_0|t_2 and
 * qword 1 holds t_1|t_3, and pshufd $0xf5 copies the high dwords down as
 * the partners.  The order change is a permutation, so it is applied to
 * message and key before the addition: the message once per group, and
 * each 16-byte key window once for the four passes that use it (window
 * W(x) = shuffled key bytes [x, x+16) serves the group at x - 16p at pass
 * p).  Per group and pass: movdqa, paddd, pshufd, pmuludq, paddq for two
 * products.  No branch or address depends on key or message data.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

.text

/* Register use (both routines):
 *   rdi   key position (advances with the message)
 *   rsi   message position
 *   rcx   hash output
 *   xmm0-3   sums of passes 0-3 (2 x u64 each)
 *   xmm4-7   shuffled key windows R0-R3 (rotating roles, see the loop)
 *   xmm8     shuffled message group
 *   xmm9-15  scratch
 */

/* Shuffled key window: dst = pshufd $0xd8 of key bytes [off, off+16). */
.macro LOADW off, dst
	movdqu	\off(%rdi), \dst
	pshufd	$0xd8, \dst, \dst
.endm

/* One pass over the shuffled group m: sum += lo32(t) * hi32(t) per qword
 * where t = m + w.  t, u scratch. */
.macro PASS sum, w, m, t, u
	movdqa	\m, \t
	paddd	\w, \t
	pshufd	$0xf5, \t, \u
	pmuludq	\u, \t
	paddq	\t, \sum
.endm

/* The group at off(%rsi), passes 0-3 with windows w0-w3 (= W(j), W(j+16),
 * W(j+32), W(j+48) for the group at key offset j). */
.macro NH16 off, w0, w1, w2, w3
	movdqu	\off(%rsi), %xmm8
	pshufd	$0xd8, %xmm8, %xmm8
	PASS	%xmm0, \w0, %xmm8, %xmm9, %xmm10
	PASS	%xmm1, \w1, %xmm8, %xmm11, %xmm12
	PASS	%xmm2, \w2, %xmm8, %xmm13, %xmm14
	PASS	%xmm3, \w3, %xmm8, %xmm15, %xmm9
.endm

/* 64 message bytes (four groups).  On entry R0-R2 = W(0), W(16), W(32)
 * relative to rdi; each group loads the one window it newly needs, so on
 * exit R0-R2 = W(64), W(80), W(96): the same invariant for rdi + 64.
 * Key bytes read: [rdi + 48, rdi + 112). */
.macro NH64
	LOADW	48, %xmm7
	NH16	0, %xmm4, %xmm5, %xmm6, %xmm7
	LOADW	64, %xmm4
	NH16	16, %xmm5, %xmm6, %xmm7, %xmm4
	LOADW	80, %xmm5
	NH16	32, %xmm6, %xmm7, %xmm4, %xmm5
	LOADW	96, %xmm6
	NH16	48, %xmm7, %xmm4, %xmm5, %xmm6
.endm

/* Fold each sum's two qwords and store le64(sum_0..3) at 0(%rcx). */
.macro FOLD_STORE
	movdqa	%xmm0, %xmm8
	punpcklqdq %xmm1, %xmm8			/* s0.0 s1.0 */
	punpckhqdq %xmm1, %xmm0			/* s0.1 s1.1 */
	paddq	%xmm8, %xmm0			/* s0 s1 */
	movdqa	%xmm2, %xmm9
	punpcklqdq %xmm3, %xmm9			/* s2.0 s3.0 */
	punpckhqdq %xmm3, %xmm2			/* s2.1 s3.1 */
	paddq	%xmm9, %xmm2			/* s2 s3 */
	movdqu	%xmm0, 0(%rcx)
	movdqu	%xmm2, 16(%rcx)
.endm

/* Zero the sums, load R0-R2 = W(0), W(16), W(32). */
.macro START
	GCRY_ZERO_XMM 4
	LOADW	0, %xmm4
	LOADW	16, %xmm5
	LOADW	32, %xmm6
.endm

/**********************************************************************
 * _gcry_nh_amd64_sse2: one message of len bytes (<= 1024).
 *   r8  64-byte blocks left, then groups left
 * Main loop 64 bytes at a time (key windows carried between iterations),
 * then up to three single groups, still carrying the windows (shifted down
 * one register per group).
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_amd64_sse2)
	START
	movq	%rdx, %r8
	shrq	$6, %r8
	jz	.Lnh_tail

.balign 16
.Lnh_loop64:
	NH64
	addq	$64, %rsi
	addq	$64, %rdi
	subq	$1, %r8
	jnz	.Lnh_loop64

.Lnh_tail:
	/* R0-R2 = W(0), W(16), W(32) here by the invariant */
	movl	%edx, %r8d
	shrl	$4, %r8d
	andl	$3, %r8d			/* groups left: 0..3 */
	jz	.Lnh_fold
.Lnh_group:
	LOADW	48, %xmm7
	NH16	0, %xmm4, %xmm5, %xmm6, %xmm7
	movdqa	%xmm5, %xmm4
	movdqa	%xmm6, %xmm5
	movdqa	%xmm7, %xmm6
	addq	$16, %rsi
	addq	$16, %rdi
	subl	$1, %r8d
	jnz	.Lnh_group

.Lnh_fold:
	FOLD_STORE
	GCRY_ZERO_XMM 16
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_nh_amd64_sse2)

/**********************************************************************
 * _gcry_nh_amd64_sse2_units: nunits full 1024-byte units.
 *   rdx units left, r8 64-byte blocks left in the unit, r9 key base
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_amd64_sse2_units)
	testq	%rdx, %rdx
	jz	.Lnhu_done
	movq	%rdi, %r9

.balign 16
.Lnhu_unit:
	movq	%r9, %rdi
	START
	movl	$16, %r8d

.balign 16
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

	GCRY_ZERO_XMM 16
.Lnhu_done:
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_nh_amd64_sse2_units)

#endif /* __x86_64__ */
