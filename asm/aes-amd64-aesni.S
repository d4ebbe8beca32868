/* aes-amd64-aesni.S - AES-256 key schedule and ECB encrypt/decrypt with
 * AES-NI (SSE2 + AES instructions only, no VEX).
 *
 * Written from FIPS-197 (key expansion 5.2, cipher 5.1, equivalent inverse
 * cipher 5.3.5) and the instruction definitions in the Intel SDM
 * (AESENC, AESENCLAST, AESDEC, AESDECLAST, AESIMC, AESKEYGENASSIST).
 *
 * ABI (System V AMD64, all routines hidden globals):
 *
 *   unsigned int _gcry_aes256_amd64_aesni_setkey(aes256_aesni_key *k,
 *           const uint8_t key[32]);
 *   unsigned int _gcry_aes256_amd64_aesni_encrypt(const aes256_aesni_key *k,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks);
 *   unsigned int _gcry_aes256_amd64_aesni_decrypt(const aes256_aesni_key *k,
 *           uint8_t *dst, const uint8_t *src, size_t nblocks);
 *
 * aes256_aesni_key (ciphers/aes/aes.h) is two arrays of 15 round keys of
 * 16 bytes: enc at offset 0 (FIPS-197 schedule, round key r at 16 r) and
 * dec at offset 240 (dec[0] = enc[14], dec[r] = InvMixColumns(enc[14-r])
 * for r = 1..13, dec[14] = enc[0]).  setkey writes both.  Only unaligned
 * loads/stores (movdqu) are used, on the key as well as on the data, and
 * the AES instructions take register operands only, so no alignment is
 * assumed anywhere.  dst and src may be equal; nblocks may be 0.
 *
 * Work per call: groups of 8 blocks (eight independent aesenc/aesdec
 * chains hide the instruction's latency), then of the 1..7 left one group
 * of 4, one pair and one single block as needed (at most three
 * latency-bound passes for the tail).
 *
 * Burn convention: each routine returns the number of bytes below the stack
 * pointer at entry that it wrote (its "burn depth").  None of them touches
 * the stack, so all return 0.  Every xmm register they use (xmm0-xmm4 in
 * setkey, xmm0-xmm11 in encrypt/decrypt: key material or cipher state) is
 * cleared before return; xmm12-xmm15 are never touched.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#define KEY_ENC 0
#define KEY_DEC 240

.text

/**********************************************************************
 * setkey.  FIPS-197 5.2 with Nk = 8: the schedule is built 16 bytes (four
 * words) at a time, alternately from the "even" half (w[i], i = 0 mod 8,
 * which takes SubWord(RotWord(w[i-1])) ^ Rcon) and the "odd" half
 * (i = 4 mod 8, which takes SubWord(w[i-1])).  For a round key
 * p = (p0,p1,p2,p3) eight words back and the broadcast temporary t, the
 * new round key is (p0^t, p0^p1^t, p0^p1^p2^t, p0^p1^p2^p3^t): prefix xor
 * by three 4-byte shifts, then xor t.
 *
 * AESKEYGENASSIST imm, src, dst gives, from x = dword 3 of src,
 * dword 3 = RotWord(SubWord(x)) ^ imm and dword 2 = SubWord(x) (dwords 0
 * and 1 likewise from dword 1, unused here); with src = the round key just
 * made, x is w[i-1].  pshufd broadcasts the dword wanted.  (RotWord and
 * SubWord commute.)
 *   rdi key struct, rsi 32-byte key
 *   xmm1 even half, xmm3 odd half, xmm2 temporary, xmm4 shift scratch
 **********************************************************************/

/* \acc = prefix-xor(\acc) ^ broadcast(\tmp dword \sel). */
.macro KS_MIX acc, tmp, sel
	pshufd	$\sel, \tmp, \tmp
	movdqa	\acc, %xmm4
	pslldq	$4, %xmm4
	pxor	%xmm4, \acc
	pslldq	$4, %xmm4
	pxor	%xmm4, \acc
	pslldq	$4, %xmm4
	pxor	%xmm4, \acc
	pxor	\tmp, \acc
.endm

/* Round keys 2i (even half, Rcon rc) and 2i+1 (odd half), at byte offsets
 * 32 i and 32 i + 16 of the encryption schedule. */
.macro KS_PAIR rc, off
	aeskeygenassist $\rc, %xmm3, %xmm2
	KS_MIX	%xmm1, %xmm2, 0xff
	movdqu	%xmm1, KEY_ENC+\off(%rdi)
	aeskeygenassist $0, %xmm1, %xmm2
	KS_MIX	%xmm3, %xmm2, 0xaa
	movdqu	%xmm3, KEY_ENC+\off+16(%rdi)
.endm

GCRY_FUNC_BEGIN(_gcry_aes256_amd64_aesni_setkey)
	/* round keys 0 and 1: the cipher key */
	movdqu	0(%rsi), %xmm1
	movdqu	16(%rsi), %xmm3
	movdqu	%xmm1, KEY_ENC+0(%rdi)
	movdqu	%xmm3, KEY_ENC+16(%rdi)

	/* round keys 2..13, Rcon = 01, 02, 04, 08, 10, 20 */
	KS_PAIR	0x01, 32
	KS_PAIR	0x02, 64
	KS_PAIR	0x04, 96
	KS_PAIR	0x08, 128
	KS_PAIR	0x10, 160
	KS_PAIR	0x20, 192
	/* round key 14: even half only, Rcon = 40 */
	aeskeygenassist $0x40, %xmm3, %xmm2
	KS_MIX	%xmm1, %xmm2, 0xff
	movdqu	%xmm1, KEY_ENC+224(%rdi)

	/* decryption schedule: reversed, InvMixColumns on rounds 1..13 */
	movdqu	%xmm1, KEY_DEC+0(%rdi)		/* enc[14] */
	movdqu	KEY_ENC+0(%rdi), %xmm0
	movdqu	%xmm0, KEY_DEC+224(%rdi)	/* enc[0] */
	.irp r, 1,2,3,4,5,6,7,8,9,10,11,12,13
	movdqu	KEY_ENC+16*(14-\r)(%rdi), %xmm0
	aesimc	%xmm0, %xmm0
	movdqu	%xmm0, KEY_DEC+16*\r(%rdi)
	.endr

	GCRY_ZERO_XMM 5
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_aes256_amd64_aesni_setkey)

/**********************************************************************
 * ECB encrypt / decrypt, one body for both.  The schedule used is at
 * rdi + KOFF (KEY_ENC or KEY_DEC); OP/OPLAST are aesenc/aesenclast or
 * aesdec/aesdeclast (the equivalent inverse cipher has the same shape).
 *   rdi key, rsi dst, rdx src, rcx blocks left
 *   xmm0-7 blocks (8-way), xmm0-3 (4-way), xmm0-1 (pair), xmm0 (single)
 *   xmm8 round key 0, xmm9 round key 14 (loaded once per call)
 *   xmm10/xmm11 round keys 1..13, reloaded alternately per round (loads
 *   are off the critical path; keeping all 15 would leave too few
 *   registers for eight blocks)
 *   xmm12-xmm15 are not used.
 **********************************************************************/

/* The blocks in \regs (a register list) through round keys 1..13 with \op,
 * key r loaded into xmm10 / xmm11 alternately so that the load of the next
 * key overlaps the rounds of the current one. */
.macro ROUNDS13 koff, op, regs:vararg
	.irp r, 1,2,3,4,5,6,7,8,9,10,11,12,13
	.if \r & 1
	movdqu	\koff+16*\r(%rdi), %xmm10
	.irp x, \regs
	\op	%xmm10, \x
	.endr
	.else
	movdqu	\koff+16*\r(%rdi), %xmm11
	.irp x, \regs
	\op	%xmm11, \x
	.endr
	.endif
	.endr
.endm

.macro ECB_BODY koff, op, oplast, pfx
	testq	%rcx, %rcx
	jz	.L\pfx\()_ret
	movdqu	\koff+0(%rdi), %xmm8		/* round key 0 */
	movdqu	\koff+224(%rdi), %xmm9		/* round key 14 */
	cmpq	$8, %rcx
	jb	.L\pfx\()_four

	/* ---- eight blocks per iteration ---- */
.balign 16
.L\pfx\()_eight:
	movdqu	0*16(%rdx), %xmm0
	movdqu	1*16(%rdx), %xmm1
	movdqu	2*16(%rdx), %xmm2
	movdqu	3*16(%rdx), %xmm3
	movdqu	4*16(%rdx), %xmm4
	movdqu	5*16(%rdx), %xmm5
	movdqu	6*16(%rdx), %xmm6
	movdqu	7*16(%rdx), %xmm7
	pxor	%xmm8, %xmm0
	pxor	%xmm8, %xmm1
	pxor	%xmm8, %xmm2
	pxor	%xmm8, %xmm3
	pxor	%xmm8, %xmm4
	pxor	%xmm8, %xmm5
	pxor	%xmm8, %xmm6
	pxor	%xmm8, %xmm7
	ROUNDS13 \koff, \op, %xmm0,%xmm1,%xmm2,%xmm3,%xmm4,%xmm5,%xmm6,%xmm7
	\oplast	%xmm9, %xmm0
	\oplast	%xmm9, %xmm1
	\oplast	%xmm9, %xmm2
	\oplast	%xmm9, %xmm3
	\oplast	%xmm9, %xmm4
	\oplast	%xmm9, %xmm5
	\oplast	%xmm9, %xmm6
	\oplast	%xmm9, %xmm7
	movdqu	%xmm0, 0*16(%rsi)
	movdqu	%xmm1, 1*16(%rsi)
	movdqu	%xmm2, 2*16(%rsi)
	movdqu	%xmm3, 3*16(%rsi)
	movdqu	%xmm4, 4*16(%rsi)
	movdqu	%xmm5, 5*16(%rsi)
	movdqu	%xmm6, 6*16(%rsi)
	movdqu	%xmm7, 7*16(%rsi)
	addq	$8*16, %rdx
	addq	$8*16, %rsi
	subq	$8, %rcx
	cmpq	$8, %rcx
	jae	.L\pfx\()_eight
	testq	%rcx, %rcx
	jz	.L\pfx\()_clear

	/* ---- 1..7 left: one group of four if possible ---- */
.L\pfx\()_four:
	cmpq	$4, %rcx
	jb	.L\pfx\()_two
	movdqu	0*16(%rdx), %xmm0
	movdqu	1*16(%rdx), %xmm1
	movdqu	2*16(%rdx), %xmm2
	movdqu	3*16(%rdx), %xmm3
	pxor	%xmm8, %xmm0
	pxor	%xmm8, %xmm1
	pxor	%xmm8, %xmm2
	pxor	%xmm8, %xmm3
	ROUNDS13 \koff, \op, %xmm0,%xmm1,%xmm2,%xmm3
	\oplast	%xmm9, %xmm0
	\oplast	%xmm9, %xmm1
	\oplast	%xmm9, %xmm2
	\oplast	%xmm9, %xmm3
	movdqu	%xmm0, 0*16(%rsi)
	movdqu	%xmm1, 1*16(%rsi)
	movdqu	%xmm2, 2*16(%rsi)
	movdqu	%xmm3, 3*16(%rsi)
	addq	$4*16, %rdx
	addq	$4*16, %rsi
	subq	$4, %rcx
	jz	.L\pfx\()_clear

	/* ---- 1..3 left: a pair if possible ---- */
.L\pfx\()_two:
	cmpq	$2, %rcx
	jb	.L\pfx\()_single
	movdqu	0*16(%rdx), %xmm0
	movdqu	1*16(%rdx), %xmm1
	pxor	%xmm8, %xmm0
	pxor	%xmm8, %xmm1
	ROUNDS13 \koff, \op, %xmm0,%xmm1
	\oplast	%xmm9, %xmm0
	\oplast	%xmm9, %xmm1
	movdqu	%xmm0, 0*16(%rsi)
	movdqu	%xmm1, 1*16(%rsi)
	addq	$2*16, %rdx
	addq	$2*16, %rsi
	subq	$2, %rcx
	jz	.L\pfx\()_clear

	/* ---- the last single block (latency bound) ---- */
.L\pfx\()_single:
	movdqu	(%rdx), %xmm0
	pxor	%xmm8, %xmm0
	ROUNDS13 \koff, \op, %xmm0
	\oplast	%xmm9, %xmm0
	movdqu	%xmm0, (%rsi)

.L\pfx\()_clear:
	GCRY_ZERO_XMM 12			/* the registers the ECB routines use */
.L\pfx\()_ret:
	xorl	%eax, %eax			/* no stack used */
	ret
.endm

GCRY_FUNC_BEGIN(_gcry_aes256_amd64_aesni_encrypt)
	ECB_BODY KEY_ENC, aesenc, aesenclast, enc
GCRY_FUNC_END(_gcry_aes256_amd64_aesni_encrypt)

GCRY_FUNC_BEGIN(_gcry_aes256_amd64_aesni_decrypt)
	ECB_BODY KEY_DEC, aesdec, aesdeclast, dec
GCRY_FUNC_END(_gcry_aes256_amd64_aesni_decrypt)

#endif /* __x86_64__ */
