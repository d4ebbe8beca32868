/* aes-aarch64-ce.S - AES-256 key schedule and ECB encrypt/decrypt with the
 * ARMv8 Cryptography Extensions (AESE, AESMC, AESD, AESIMC).
 *
 * Written from FIPS-197 (key expansion 5.2, cipher 5.1, equivalent inverse
 * cipher 5.3.5) and the instruction definitions in the Arm Architecture
 * Reference Manual for A-profile (AESE = AddRoundKey, ShiftRows, SubBytes;
 * AESMC = MixColumns; AESD = AddRoundKey, InvShiftRows, InvSubBytes;
 * AESIMC = InvMixColumns).
 *
 * ABI (AAPCS64, all routines hidden globals):
 *
 *   unsigned int _gcry_aes256_aarch64_ce_setkey(aes256_aesni_key *k,
 *           const uint8_t key[32]);
 *   unsigned int _gcry_aes256_aarch64_ce_encrypt(const aes256_aesni_key *k,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks);
 *   unsigned int _gcry_aes256_aarch64_ce_decrypt(const aes256_aesni_key *k,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks);
 *
 * The key layout is the AES-NI one (ciphers/aes/aes.h, aes256_aesni_key):
 * enc at offset 0 (FIPS-197 schedule, round key r at 16 r), dec at offset
 * 240 (dec[0] = enc[14], dec[r] = InvMixColumns(enc[14-r]) for r = 1..13,
 * dec[14] = enc[0]).  It suits AESD as it suits AESDEC: with AddRoundKey
 * first, "AESD dec[r]; AESIMC" for r = 0..12, "AESD dec[13]", then an XOR
 * with dec[14] is the equivalent inverse cipher, as "AESE enc[r]; AESMC",
 * "AESE enc[13]", XOR enc[14] is the cipher.  setkey writes both halves.
 * All loads and stores are LD1/ST1/LDR/STR of bytes or q registers, which
 * take any alignment, on the key as on the data.  dst and src may be equal
 * (each group is loaded whole before it is stored); nblocks may be 0.
 * Byte order never matters (byte loads), so big-endian aarch64 is fine too.
 *
 * Work per call: the 15 round keys are loaded once into v16-v30, then
 * groups of 8 blocks (eight independent AESE/AESMC chains hide the
 * instructions' latency), then of the 1..7 left one group of 4, one pair
 * and one single block as needed.  AESE/AESMC (AESD/AESIMC) on the same
 * register are kept adjacent: cores such as Cortex-A57/A72 and the
 * Neoverse cores fuse the pair.
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth"): none touches the
 * stack, so all return 0.  Every vector register used (setkey v0-v5;
 * encrypt/decrypt v0-v7 and v16-v30: round keys and blocks) is cleared
 * before return; v8-v15 (callee-saved) and v31 are never touched, nor any
 * callee-saved general-purpose register.  No branch or address depends on
 * key or data.
 */

#include "asm-common-aarch64.h"

#ifdef __aarch64__

	.arch	armv8-a+crypto

#define KEY_ENC 0
#define KEY_DEC 240

.text

/**********************************************************************
 * setkey.  FIPS-197 5.2 with Nk = 8, 16 bytes (four words) at a time,
 * alternately the "even" half (words i = 0 mod 8: the temporary is
 * SubWord(RotWord(w[i-1])) ^ Rcon) and the "odd" half (i = 4 mod 8:
 * SubWord(w[i-1])).  For the round key p = (p0,p1,p2,p3) eight words back
 * and the temporary t in every lane, the new round key is the prefix xor
 * (p0, p0^p1, p0^p1^p2, p0^p1^p2^p3) ^ t: two shift-and-xor steps (by one
 * word, then two) give the prefix.
 *
 * SubWord: w[i-1] broadcast to the four columns, then AESE with a zero
 * round key.  ShiftRows moves bytes between columns within a row, and all
 * columns are equal, so it changes nothing; SubBytes then gives SubWord in
 * every column.  RotWord (bytes a0 a1 a2 a3 -> a1 a2 a3 a0, i.e. the
 * little-endian lane rotated right by 8) commutes with SubWord and is
 * applied after it.
 *   x0 key struct, x1 32-byte key
 *   v0 zero, v1 even half, v3 odd half, v2 temporary, v4/v5 scratch
 **********************************************************************/

/* \acc = prefix-xor(\acc) ^ \t (all lanes), v5 scratch. */
.macro KS_MIX acc, t
	ext	v5.16b, v0.16b, \acc\().16b, #12	/* (0, p0, p1, p2) */
	eor	\acc\().16b, \acc\().16b, v5.16b
	ext	v5.16b, v0.16b, \acc\().16b, #8	/* (0, 0, p0, p0^p1) */
	eor	\acc\().16b, \acc\().16b, v5.16b
	eor	\acc\().16b, \acc\().16b, \t\().16b
.endm

/* Even round key (Rcon rc) into v1 at byte offset \off of enc[]. */
.macro KS_EVEN rc, off
	dup	v2.4s, v3.s[3]				/* w[i-1] everywhere */
	aese	v2.16b, v0.16b				/* SubWord */
	ushr	v4.4s, v2.4s, #8			/* RotWord: ror 8 */
	sli	v4.4s, v2.4s, #24
	movi	v2.4s, #\rc
	eor	v4.16b, v4.16b, v2.16b
	KS_MIX	v1, v4
	str	q1, [x0, #KEY_ENC+\off]
.endm

/* Odd round key into v3 at byte offset \off of enc[]. */
.macro KS_ODD off
	dup	v2.4s, v1.s[3]
	aese	v2.16b, v0.16b				/* SubWord */
	KS_MIX	v3, v2
	str	q3, [x0, #KEY_ENC+\off]
.endm

GCRY_FUNC_BEGIN(_gcry_aes256_aarch64_ce_setkey)
	movi	v0.16b, #0
	ldp	q1, q3, [x1]				/* round keys 0 and 1 */
	stp	q1, q3, [x0, #KEY_ENC]

	/* round keys 2..13, Rcon = 01, 02, 04, 08, 10, 20; 14 even only */
	KS_EVEN	0x01, 32
	KS_ODD	48
	KS_EVEN	0x02, 64
	KS_ODD	80
	KS_EVEN	0x04, 96
	KS_ODD	112
	KS_EVEN	0x08, 128
	KS_ODD	144
	KS_EVEN	0x10, 160
	KS_ODD	176
	KS_EVEN	0x20, 192
	KS_ODD	208
	KS_EVEN	0x40, 224

	/* decryption schedule: reversed, InvMixColumns on rounds 1..13 */
	str	q1, [x0, #KEY_DEC]			/* enc[14] */
	ldr	q2, [x0, #KEY_ENC]
	str	q2, [x0, #KEY_DEC+224]			/* enc[0] */
	.irp r, 1,2,3,4,5,6,7,8,9,10,11,12,13
	ldr	q2, [x0, #KEY_ENC+16*(14-\r)]
	aesimc	v2.16b, v2.16b
	str	q2, [x0, #KEY_DEC+16*\r]
	.endr

	GCRY_ZERO_V 0, 5
	mov	w0, #0					/* no stack used */
	ret
GCRY_FUNC_END(_gcry_aes256_aarch64_ce_setkey)

/**********************************************************************
 * ECB encrypt / decrypt, one body for both.  KOFF selects the schedule
 * (KEY_ENC or KEY_DEC); OP/MIX are aese/aesmc or aesd/aesimc.
 *   x0 key, x1 dst, x2 src, x3 blocks left, x4 key pointer
 *   v16-v30 round keys 0..14 (loaded once per call)
 *   v0-v7 blocks (8-way), v0-v3 (4-way), v0-v1 (pair), v0 (single)
 * Each group clears v1 and up of what it used when it is done (a later,
 * smaller group may not run), v0 and the keys are cleared at the end.
 **********************************************************************/

/* One step on block v\b: \op with round key v\k then \mix (aese/aesmc or
 * aesd/aesimc; \mix empty for the last round), or the final xor. */
.macro STEP op, mix, b, k
	\op	v\b\().16b, v\k\().16b
	.ifnb \mix
	\mix	v\b\().16b, v\b\().16b
	.endif
.endm
.macro XOR_KEY b, k
	eor	v\b\().16b, v\b\().16b, v\k\().16b
.endm

/* The blocks v\b (b in \blocks) through the whole cipher: rounds 0..12
 * with MixColumns, round 13 without, then the xor of round key 14.  The
 * loops run over rounds outside, blocks inside: the blocks' chains are
 * independent and overlap. */
.macro CIPHER op, mix, blocks:vararg
	.irp k, 16,17,18,19,20,21,22,23,24,25,26,27,28
	.irp b, \blocks
	STEP	\op, \mix, \b, \k
	.endr
	.endr
	.irp b, \blocks
	STEP	\op, , \b, 29
	.endr
	.irp b, \blocks
	XOR_KEY	\b, 30
	.endr
.endm

.macro ECB_BODY koff, op, mix, pfx
	cbz	x3, .L\pfx\()_ret
	add	x4, x0, #\koff
	ld1	{v16.16b-v19.16b}, [x4], #64
	ld1	{v20.16b-v23.16b}, [x4], #64
	ld1	{v24.16b-v27.16b}, [x4], #64
	ld1	{v28.16b-v30.16b}, [x4]
	cmp	x3, #8
	b.lo	.L\pfx\()_four

	/* ---- eight blocks per iteration ---- */
.balign 16
.L\pfx\()_eight:
	ld1	{v0.16b-v3.16b}, [x2], #64
	ld1	{v4.16b-v7.16b}, [x2], #64
	CIPHER	\op, \mix, 0,1,2,3,4,5,6,7
	st1	{v0.16b-v3.16b}, [x1], #64
	st1	{v4.16b-v7.16b}, [x1], #64
	sub	x3, x3, #8
	cmp	x3, #8
	b.hs	.L\pfx\()_eight
	GCRY_ZERO_V 1, 7

	/* ---- 0..7 left: one group of four if possible ---- */
.L\pfx\()_four:
	cmp	x3, #4
	b.lo	.L\pfx\()_two
	ld1	{v0.16b-v3.16b}, [x2], #64
	CIPHER	\op, \mix, 0,1,2,3
	st1	{v0.16b-v3.16b}, [x1], #64
	sub	x3, x3, #4
	GCRY_ZERO_V 1, 3

	/* ---- 0..3 left: a pair if possible ---- */
.L\pfx\()_two:
	cmp	x3, #2
	b.lo	.L\pfx\()_single
	ld1	{v0.16b-v1.16b}, [x2], #32
	CIPHER	\op, \mix, 0,1
	st1	{v0.16b-v1.16b}, [x1], #32
	sub	x3, x3, #2
	GCRY_ZERO_V 1, 1

	/* ---- 0..1 left: the last single block (latency bound) ---- */
.L\pfx\()_single:
	cbz	x3, .L\pfx\()_clear
	ld1	{v0.16b}, [x2]
	CIPHER	\op, \mix, 0
	st1	{v0.16b}, [x1]

.L\pfx\()_clear:
	GCRY_ZERO_V 0, 0
	GCRY_ZERO_V 16, 30
.L\pfx\()_ret:
	mov	w0, #0					/* no stack used */
	ret
.endm

GCRY_FUNC_BEGIN(_gcry_aes256_aarch64_ce_encrypt)
	ECB_BODY KEY_ENC, aese, aesmc, enc
GCRY_FUNC_END(_gcry_aes256_aarch64_ce_encrypt)

GCRY_FUNC_BEGIN(_gcry_aes256_aarch64_ce_decrypt)
	ECB_BODY KEY_DEC, aesd, aesimc, dec
GCRY_FUNC_END(_gcry_aes256_aarch64_ce_decrypt)

#endif /* __aarch64__ */
