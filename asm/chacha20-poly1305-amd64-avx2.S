/* chacha20-poly1305-amd64-avx2.S - ChaCha20 (8 blocks, AVX2) stitched with
 * scalar Poly1305 (64-bit limbs, general-purpose registers).
 *
 * Written for gcrylike from RFC 8439 (ChaCha20 section 2.3, Poly1305
 * section 2.5).  The ChaCha20 half is the transposed form of
 * _gcry_chacha_amd64_avx2_blocks8, from the macros both share in
 * chacha-amd64-avx2.h (the round macro runs the Poly1305 parts as its
 * hook); the Poly1305 half is POLY_PART of poly1305-scalar-amd64.h
 * (shared with salsa20-poly1305-amd64-avx2.S), the 2^64-radix step of
 * poly1305_generic64_blocks (ciphers/poly1305/poly1305_generic.c) written
 * with mul/imul (base x86-64: no BMI2/ADX).  The vector rounds and the integer multiplies use different
 * execution units, so interleaving them hides most of the MAC's cost.
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_chacha20_poly1305_amd64_avx2_blocks8(
 *           uint32_t input[16],          rdi  ChaCha state
 *           uint8_t *dst,                rsi
 *           const uint8_t *src,          rdx
 *           size_t nblocks,              rcx  a multiple of 8 (rest ignored)
 *           uint64_t h[3],               r8   Poly1305 accumulator
 *           const uint64_t r[2],         r9   clamped r
 *           const uint8_t *mac_src);     8(%rsp)  nblocks * 64 bytes
 *
 * Per group of 8 ChaCha20 blocks (512 bytes): dst = src XOR keystream of
 * blocks counter+0 .. counter+7, and the 32 Poly1305 blocks of the group's
 * 512 bytes of mac_src are absorbed, each with the 2^128 bit:
 * h = (h + m + 2^128) r mod p.  ChaCha state words 12-13 are a 64-bit
 * counter as in chacha-amd64-avx2.S (the caller restores a 32-bit
 * counter's nonce word); counter + nblocks is stored back and nothing else
 * of the state is written.  The accumulator is h[0] + 2^64 h[1] + 2^128
 * h[2], h[2] <= 7 on entry, h[2] <= 4 on exit (see poly1305.h).
 *
 * Aliasing: dst may equal src (in place), and mac_src may equal src
 * (decryption: the MAC reads the ciphertext): every Poly1305 load of a
 * group's 512 bytes comes before, in program order, the group's stores to
 * dst, and earlier groups only store below.  mac_src may also lie wholly
 * below dst (encryption one group behind: mac_src = dst - 512).
 *
 * Burn: returns the bytes written below the stack pointer at entry: six
 * pushed registers and a 96-byte frame aligned down to 32 bytes (152 or 168
 * bytes with an ABI-aligned stack, depending on rsp mod 32; computed
 * exactly at run time).  The frame holds spilled state
 * words and r; it is not wiped here (the C glue burns the depth).  All ymm
 * registers are cleared (vzeroall), and the caller-saved GPRs that held
 * accumulator or products are zeroed.  No branch or address depends on
 * secret data.
 *
 * Layout of one group (ChaCha20 = 10 double rounds):
 *   10 x { column round + diagonal round, 3 Poly1305 blocks }  = 30 blocks
 *   feed-forward, transpose, xor, store, 2 Poly1305 blocks     =  2 blocks
 * Each Poly1305 block is cut into four parts (message add and first
 * product; two products; last products and carries; reduction) and one
 * part follows every other step of the four interleaved quarter rounds.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "chacha-amd64-avx2.h"

#include "poly1305-scalar-amd64.h"

/* The frame's two vector slots */
#define S_W10	SLOT0		/* state word 10, all rounds */
#define S_W8	SLOT1		/* state word 8, output phase */

GCRY_FUNC_BEGIN(_gcry_chacha20_poly1305_amd64_avx2_blocks8)
	STITCH_ENTER .Lcp_done

.balign 32
.Lcp_group:
	/* ChaCha: state words broadcast to the eight lanes (one ymm per word,
	 * lane j = block j; word 10 in S_W10; ymm15 scratch) */
	vpbroadcastd 0(STATE), %ymm0
	vpbroadcastd 4(STATE), %ymm1
	vpbroadcastd 8(STATE), %ymm2
	vpbroadcastd 12(STATE), %ymm3
	vpbroadcastd 16(STATE), %ymm4
	vpbroadcastd 20(STATE), %ymm5
	vpbroadcastd 24(STATE), %ymm6
	vpbroadcastd 28(STATE), %ymm7
	vpbroadcastd 32(STATE), %ymm8
	vpbroadcastd 36(STATE), %ymm9
	vpbroadcastd 40(STATE), %ymm15
	vmovdqa	%ymm15, S_W10
	vpbroadcastd 44(STATE), %ymm10
	CTR8	%ymm11, %ymm12, %ymm15, 48(STATE)
	vpbroadcastd 56(STATE), %ymm13
	vpbroadcastd 60(STATE), %ymm14
	movl	$10, DROUNDS

.balign 32
.Lcp_dround:
	/* column round, Poly1305 block 0 and half of block 1 */
	QR4M	%ymm0, %ymm4, %ymm8, %ymm11,  %ymm1, %ymm5, %ymm9, %ymm12, \
		%ymm3, %ymm7, %ymm10, %ymm14,  %ymm2, %ymm6, S_W10, %ymm13, %ymm15, POLYQ, 0
	/* diagonal round, the rest of block 1 and block 2 */
	QR4M	%ymm1, %ymm6, %ymm10, %ymm11,  %ymm2, %ymm7, %ymm8, %ymm12, \
		%ymm3, %ymm4, %ymm9, %ymm13,  %ymm0, %ymm5, S_W10, %ymm14, %ymm15, POLYQ, 6
	addq	$48, MAC			/* 3 Poly1305 blocks */
	subl	$1, DROUNDS
	jnz	.Lcp_dround

	/* ChaCha words 0-7: feed-forward, transpose, xor, store bytes 0-31 of
	 * blocks 0..7; Poly1305 block 30 (MAC + 0) along the way */
	vmovdqa	%ymm8, S_W8			/* frees ymm8 */
	POLYQ	0
	vpbroadcastd 0(STATE), %ymm15
	vpaddd	%ymm15, %ymm0, %ymm0
	vpbroadcastd 4(STATE), %ymm15
	vpaddd	%ymm15, %ymm1, %ymm1
	vpbroadcastd 8(STATE), %ymm15
	vpaddd	%ymm15, %ymm2, %ymm2
	vpbroadcastd 12(STATE), %ymm15
	vpaddd	%ymm15, %ymm3, %ymm3
	POLYQ	1
	vpbroadcastd 16(STATE), %ymm15
	vpaddd	%ymm15, %ymm4, %ymm4
	vpbroadcastd 20(STATE), %ymm15
	vpaddd	%ymm15, %ymm5, %ymm5
	vpbroadcastd 24(STATE), %ymm15
	vpaddd	%ymm15, %ymm6, %ymm6
	vpbroadcastd 28(STATE), %ymm15
	vpaddd	%ymm15, %ymm7, %ymm7
	TRANSPOSE4 %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm15	/* -> 1,8,3,0 */
	POLYQ	2
	TRANSPOSE4 %ymm4, %ymm5, %ymm6, %ymm7, %ymm2, %ymm15	/* -> 5,2,7,4 */
	POLYQ	3
	OUT2	%ymm1, %ymm5, %ymm6, 0, 0, SRC, DST
	OUT2	%ymm8, %ymm2, %ymm15, 1, 0, SRC, DST
	/* Poly1305 block 31 (MAC + 16): its message load (POLYQ 4, part 0) is before
	 * every store of bytes 32-63 below, so mac_src = src in place reads
	 * ciphertext */
	POLYQ	4
	OUT2	%ymm3, %ymm7, %ymm6, 2, 0, SRC, DST
	OUT2	%ymm0, %ymm4, %ymm15, 3, 0, SRC, DST

	/* ChaCha words 8-15: feed-forward (counter lanes rebuilt from the
	 * state), transpose, xor, store bytes 32-63 of blocks 0..7.
	 * w8 from S_W8 -> ymm6, w9 ymm9, w10 from S_W10 -> ymm7, w11 ymm10 */
	vmovdqa	S_W8, %ymm6
	vmovdqa	S_W10, %ymm7
	vpbroadcastd 32(STATE), %ymm0
	vpbroadcastd 36(STATE), %ymm1
	vpbroadcastd 40(STATE), %ymm2
	vpbroadcastd 44(STATE), %ymm3
	vpaddd	%ymm0, %ymm6, %ymm6
	vpaddd	%ymm1, %ymm9, %ymm9
	vpaddd	%ymm2, %ymm7, %ymm7
	vpaddd	%ymm3, %ymm10, %ymm10
	POLYQ	5
	CTR8	%ymm0, %ymm1, %ymm2, 48(STATE)
	vpbroadcastd 56(STATE), %ymm2
	vpbroadcastd 60(STATE), %ymm3
	vpaddd	%ymm0, %ymm11, %ymm11
	vpaddd	%ymm1, %ymm12, %ymm12
	vpaddd	%ymm2, %ymm13, %ymm13
	vpaddd	%ymm3, %ymm14, %ymm14
	POLYQ	6
	TRANSPOSE4 %ymm6, %ymm9, %ymm7, %ymm10, %ymm0, %ymm1	/* -> 9,0,10,6 */
	TRANSPOSE4 %ymm11, %ymm12, %ymm13, %ymm14, %ymm2, %ymm3	/* -> 12,2,14,11 */
	POLYQ	7
	OUT2	%ymm9, %ymm12, %ymm1, 0, 32, SRC, DST
	OUT2	%ymm0, %ymm2, %ymm3, 1, 32, SRC, DST
	OUT2	%ymm10, %ymm14, %ymm1, 2, 32, SRC, DST
	OUT2	%ymm6, %ymm11, %ymm3, 3, 32, SRC, DST

	addq	$8, 48(STATE)			/* 64-bit counter, words 12-13 */
	addq	$32, MAC
	addq	$512, SRC
	addq	$512, DST
	subq	$1, GROUPS
	jnz	.Lcp_group

	SCALAR_LEAVE
.Lcp_done:
	ret
GCRY_FUNC_END(_gcry_chacha20_poly1305_amd64_avx2_blocks8)

#endif /* __x86_64__ */
