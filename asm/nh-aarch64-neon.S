/* nh-aarch64-neon.S - NH (Adiantum's NH^T[256, 32, 4], stride 2) for
 * aarch64 with Advanced SIMD (NEON, baseline ARMv8-A: no CPU check needed).
 *
 * Written from Crowley and Biggers, "Adiantum: length-preserving encryption
 * for entry-level processors", ToSC 2018(4), section 6.3, the formula
 * restated in ciphers/nhpoly1305/nh.h, and the instruction definitions in
 * the Arm Architecture Reference Manual (LD2, ADD, UMLAL, UMLAL2, ADDP).
 *
 * ABI (AAPCS64, all routines hidden globals):
 *
 *   unsigned int _gcry_nh_aarch64_neon(const uint32_t key[268],
 *           const uint8_t *msg, size_t len, uint8_t hash[32]);
 *   unsigned int _gcry_nh_aarch64_neon_units(const uint32_t key[268],
 *           const uint8_t *msg, size_t nunits, uint8_t *hashes);
 *
 * The contract is nh.h's, as for _gcry_nh_amd64_sse2: key the 1072-byte
 * NH key (268 little-endian words), of which only bytes [0, len + 48) are
 * read; msg any alignment, bytes [0, len) read; len rounded down to a
 * multiple of 16, at most 1024, len 0 stores an all-zero hash; hash 32
 * bytes le64(sum_0) .. le64(sum_3); _units hashes nunits consecutive
 * 1024-byte units into nunits consecutive hashes (nunits 0 writes nothing).
 * key, msg and hash may have any alignment (NEON loads and stores of
 * elements are not alignment checked in normal memory).  Little-endian
 * aarch64 only (the 64-bit lanes are stored as le64).
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"): always 0, no stack is
 * used.  v0-v7 and v16-v31 (all hold key, message, products or sums) are
 * cleared before return; v8-v15 (callee-saved) and the callee-saved
 * general-purpose registers are never touched.
 *
 * Method.  A pair of 16-byte groups (m0..m3 | m4..m7) is loaded with
 * LD2 {.2d}, which splits 64-bit elements alternately into two registers:
 * A = (m0, m1, m4, m5) and B = (m2, m3, m6, m7).  The key window of the
 * same two groups, loaded the same way, is added word by word (t = m + k
 * mod 2^32), and UMLAL multiplies the low halves of tA and tB lane by lane:
 * (t0 t2, t1 t3), exactly the two products of the first group, added to a
 * 2 x 64-bit sum; UMLAL2 does the same for the high halves, the second
 * group.  Per 16 bytes and pass: one ADD (four words), one multiply-
 * accumulate (two products); each pass has two sums (one for UMLAL, one
 * for UMLAL2) so that no accumulate waits for the other.  Pass p of the
 * pair at group g uses the window W(g + p) = key groups g+p, g+p+1; the
 * next pair needs W(g+2) .. W(g+5), so two windows carry over and two are
 * loaded per pair (registers R0..R3 trade roles every pair, which is why
 * the loop body is two pairs, 64 bytes).  A last single group reads its
 * message and the two key groups it newly needs as 64-bit halves (LDP of
 * d registers), so that nothing past the contract's bounds is read.
 * No branch or address depends on key or message data.
 */

#include "asm-common-aarch64.h"

#if defined(__aarch64__) && !defined(__AARCH64EB__)

.text

/* Register use (both routines):
 *   x0 key, x1 message position, x2 len or nunits, x3 hash output
 *   x5 key position of the next window to load, x6 64-byte blocks left,
 *   x8 the constant 16 (LD2 post-increment)
 *   v0-v7   sums: pass p in v(2p) (first group of a pair, single groups)
 *           and v(2p+1) (second group), 2 x u64 each
 *   v16/v17 message pair A/B
 *   R0..R3 = v18/v19, v20/v21, v22/v23, v24/v25: key windows (A/B)
 *   v26-v31 sums' operands t = m + k
 */

/* Half a pass over the pair: the operands v\ta/v\tb = message + window
 * (v\wa, v\wb); then the sums v\lo (+= tA.lo * tB.lo) and v\hi (the high
 * halves).  Apart, so that the additions can be issued ahead of the
 * multiplies that wait for them (in-order cores such as Cortex-A53). */
.macro ADD2 wa, wb, ta, tb
	add	v\ta\().4s, v16.4s, v\wa\().4s
	add	v\tb\().4s, v17.4s, v\wb\().4s
.endm
.macro MUL2 lo, hi, ta, tb
	umlal	v\lo\().2d, v\ta\().2s, v\tb\().2s
	umlal2	v\hi\().2d, v\ta\().4s, v\tb\().4s
.endm

/* The pair at x1 (x1 advances 32), passes 0-3 with windows
 * (v\a0, v\b0) .. (v\a3, v\b3); the windows of passes 2 and 3 are loaded
 * first (from x5, which advances 32; x8 = 16: LD2's immediate
 * post-increment can only be its own 32-byte size).  Key bytes read:
 * [x5, x5 + 48).  Six operand registers for four passes: pass 3 reuses
 * pass 0's once pass 0's multiplies have read them. */
.macro PAIR a0, b0, a1, b1, a2, b2, a3, b3
	ld2	{v16.2d, v17.2d}, [x1], #32
	ld2	{v\a2\().2d, v\b2\().2d}, [x5], x8
	ld2	{v\a3\().2d, v\b3\().2d}, [x5], x8
	ADD2	\a0, \b0, 26, 27
	ADD2	\a1, \b1, 28, 29
	ADD2	\a2, \b2, 30, 31
	MUL2	0, 1, 26, 27
	ADD2	\a3, \b3, 26, 27
	MUL2	2, 3, 28, 29
	MUL2	4, 5, 30, 31
	MUL2	6, 7, 26, 27
.endm

/* One pass of a single group: v\lo += (m0+k0) (m2+k2), (m1+k1) (m3+k3)
 * with the message words in the low halves of v16/v17 and the key's in
 * the low halves of v\wa/v\wb. */
.macro PASS1 lo, wa, wb, ta, tb
	add	v\ta\().2s, v16.2s, v\wa\().2s
	add	v\tb\().2s, v17.2s, v\wb\().2s
	umlal	v\lo\().2d, v\ta\().2s, v\tb\().2s
.endm

/* The last single group at x1.  Its passes 0 and 1 use the first groups
 * (low halves) of the carried windows (v\a0, v\b0), (v\a1, v\b1); passes
 * 2 and 3 need key groups g+2 and g+3 at x5 and x5 + 16, loaded as halves
 * into the free windows (v\a2, v\b2), (v\a3, v\b3).  Key bytes read:
 * [x5, x5 + 32). */
.macro SINGLE a0, b0, a1, b1, a2, b2, a3, b3
	ldp	d16, d17, [x1]
	ldp	d\a2, d\b2, [x5]
	ldp	d\a3, d\b3, [x5, #16]
	PASS1	0, \a0, \b0, 26, 27
	PASS1	2, \a1, \b1, 28, 29
	PASS1	4, \a2, \b2, 30, 31
	PASS1	6, \a3, \b3, 26, 27
.endm

/* Zero the sums; x5 = the key; load R0 = W(0), R1 = W(1) (key bytes
 * [0, 48)). */
.macro START
	GCRY_ZERO_V 0, 7
	mov	x5, x0
	mov	x8, #16
	ld2	{v18.2d, v19.2d}, [x5], x8
	ld2	{v20.2d, v21.2d}, [x5], x8
.endm

/* 64 message bytes: two pairs, the window roles swapped in between; on
 * exit R0, R1 are again W(g), W(g+1) for the next group g. */
.macro NH64
	PAIR	18,19, 20,21, 22,23, 24,25
	PAIR	22,23, 24,25, 18,19, 20,21
.endm

/* Fold each pass's two sums and store le64(sum_0..3) at x3. */
.macro FOLD_STORE
	add	v0.2d, v0.2d, v1.2d
	add	v2.2d, v2.2d, v3.2d
	add	v4.2d, v4.2d, v5.2d
	add	v6.2d, v6.2d, v7.2d
	addp	v0.2d, v0.2d, v2.2d			/* sum_0, sum_1 */
	addp	v4.2d, v4.2d, v6.2d			/* sum_2, sum_3 */
	stp	q0, q4, [x3]
.endm

/**********************************************************************
 * _gcry_nh_aarch64_neon: one message of len bytes (<= 1024).
 * Main loop 64 bytes at a time, then (bits 5 and 4 of len) a pair and a
 * single group.  The key bytes read stay below len + 48: a pair at group
 * g reads up to key group g + 4, a single group up to g + 3.
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_aarch64_neon)
	START
	lsr	x6, x2, #6
	cbz	x6, .Lnh_tail

.balign 16
.Lnh_loop64:
	NH64
	subs	x6, x6, #1
	b.ne	.Lnh_loop64

.Lnh_tail:
	tbz	x2, #5, .Lnh_nopair
	PAIR	18,19, 20,21, 22,23, 24,25
	tbz	x2, #4, .Lnh_fold
	SINGLE	22,23, 24,25, 18,19, 20,21		/* roles swapped by the pair */
	b	.Lnh_fold
.Lnh_nopair:
	tbz	x2, #4, .Lnh_fold
	SINGLE	18,19, 20,21, 22,23, 24,25

.Lnh_fold:
	FOLD_STORE
	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
	mov	w0, #0					/* no stack used */
	ret
GCRY_FUNC_END(_gcry_nh_aarch64_neon)

/**********************************************************************
 * _gcry_nh_aarch64_neon_units: nunits full 1024-byte units.
 *   x2 units left, x6 64-byte blocks left in the unit
 **********************************************************************/
GCRY_FUNC_BEGIN(_gcry_nh_aarch64_neon_units)
	cbz	x2, .Lnhu_done

.balign 16
.Lnhu_unit:
	START
	mov	x6, #16

.balign 16
.Lnhu_loop64:
	NH64
	subs	x6, x6, #1
	b.ne	.Lnhu_loop64

	FOLD_STORE
	add	x3, x3, #32
	subs	x2, x2, #1
	b.ne	.Lnhu_unit

	GCRY_ZERO_V 0, 7
	GCRY_ZERO_V 16, 31
.Lnhu_done:
	mov	w0, #0
	ret
GCRY_FUNC_END(_gcry_nh_aarch64_neon_units)

#endif /* __aarch64__ && !__AARCH64EB__ */
