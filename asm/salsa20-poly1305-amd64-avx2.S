/* salsa20-poly1305-amd64-avx2.S - Salsa20/20 (8 blocks, AVX2) stitched
 * with scalar Poly1305 (64-bit limbs, general-purpose registers), for the
 * NaCl secretbox (XSalsa20-Poly1305: after HSalsa20 the stream is plain
 * Salsa20/20 under the subkey).
 *
 * Written for gcrylike from D. J. Bernstein, "Salsa20 specification" and
 * RFC 8439 section 2.5 (Poly1305).  The Salsa20 half is the transposed form
 * of _gcry_salsa20_amd64_avx2_blocks8, from the macros both share in
 * salsa20-amd64-avx2.h (the double round runs the Poly1305 parts as its
 * hook); the Poly1305 half is POLY_PART of poly1305-scalar-amd64.h, as in
 * chacha20-poly1305-amd64-avx2.S.  The vector rounds and the integer
 * multiplies use different execution units, so interleaving them hides
 * most of the MAC's cost.
 *
 * ABI (System V AMD64, hidden global):
 *
 *   unsigned int _gcry_salsa20_poly1305_amd64_avx2_blocks8(
 *           uint32_t input[16],          rdi  Salsa20 state
 *           uint8_t *dst,                rsi
 *           const uint8_t *src,          rdx
 *           size_t nblocks,              rcx  a multiple of 8 (rest ignored)
 *           uint64_t h[3],               r8   Poly1305 accumulator
 *           const uint64_t r[2],         r9   clamped r
 *           const uint8_t *mac_src);     8(%rsp)  nblocks * 64 bytes
 *
 * Per group of 8 Salsa20 blocks (512 bytes): dst = src XOR keystream of
 * blocks counter+0 .. counter+7 (20 rounds), and the 32 Poly1305 blocks of
 * the group's 512 bytes of mac_src are absorbed, each with the 2^128 bit:
 * h = (h + m + 2^128) r mod p.  State words 8-9 are the 64-bit block
 * counter (as in salsa20-amd64-avx2.S); counter + nblocks is stored back
 * and nothing else of the state is written.  The accumulator is h[0] +
 * 2^64 h[1] + 2^128 h[2], h[2] <= 7 on entry, h[2] <= 4 on exit (see
 * poly1305.h).
 *
 * Aliasing: dst may equal src (in place), and mac_src may equal src
 * (decryption: the MAC reads the ciphertext): every Poly1305 load of a
 * group's 512 bytes comes before, in program order, the group's first
 * store to dst, and earlier groups only store below.  mac_src may also lie
 * wholly below dst (encryption one group behind: mac_src = dst - 512).
 *
 * Burn: returns the bytes written below the stack pointer at entry: six
 * pushed registers and a 96-byte frame aligned down to 32 bytes (152 or 168
 * bytes with an ABI-aligned stack, depending on rsp mod 32; computed
 * exactly at run time).  The frame holds the two state-word slots and r;
 * it is not wiped here (the C glue burns the depth).  All ymm registers are
 * cleared (vzeroall), and the caller-saved GPRs that held accumulator or
 * products are zeroed.  No branch or address depends on secret data.
 *
 * Layout of one group (Salsa20/20 = 10 double rounds):
 *   10 x { column round + row round, 3 Poly1305 blocks }  = 30 blocks
 *   feed-forward, transpose, xor, store, 2 Poly1305 blocks =  2 blocks
 * Each Poly1305 block is cut into four parts (message add and first
 * product; two products; last products and carries; reduction); the
 * double round runs one part after every two or three of its 32
 * quarter-round steps.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "salsa20-amd64-avx2.h"

#include "poly1305-scalar-amd64.h"

/* The frame's two vector slots */
#define SA	SLOT0		/* state word x8 (or x0/x10 while traded) */
#define SB	SLOT1		/* state word x2 (likewise) */

GCRY_FUNC_BEGIN(_gcry_salsa20_poly1305_amd64_avx2_blocks8)
	STITCH_ENTER .Lsp_done

.balign 32
.Lsp_group:
	/* Salsa20: state words broadcast to the eight lanes (register map in
	 * salsa20-amd64-avx2.h); x2 to SB; the per-lane counter words from
	 * the state's 64-bit counter: low (x8) to SA, high (x9) ymm9. */
	vpbroadcastd 8(STATE), T
	vmovdqa	T, SB				/* SB = x2 */
	CTR8	T, %ymm9, U, %xmm8, 32(STATE)
	vmovdqa	T, SA				/* SA = x8 */
	vpbroadcastd 0(STATE), %ymm0
	vpbroadcastd 4(STATE), %ymm1
	vpbroadcastd 12(STATE), %ymm3
	vpbroadcastd 16(STATE), %ymm4
	vpbroadcastd 20(STATE), %ymm5
	vpbroadcastd 24(STATE), %ymm6
	vpbroadcastd 28(STATE), %ymm7
	vpbroadcastd 40(STATE), %ymm10
	vpbroadcastd 44(STATE), %ymm11
	vpbroadcastd 48(STATE), %ymm12
	vpbroadcastd 52(STATE), %ymm13
	vpbroadcastd 56(STATE), %ymm14
	vpbroadcastd 60(STATE), %ymm15
	movl	$10, DROUNDS

.balign 32
.Lsp_dround:
	/* column and row round, lanes 0..7; Poly1305 blocks MAC+0, +16, +32
	 * (parts 0-11) between the steps */
	SALSA_DROUND SA, SB, POLYQ, 0
	addq	$48, MAC			/* 3 Poly1305 blocks */
	subl	$1, DROUNDS
	jnz	.Lsp_dround

	/* Words 0-7: x2 back from SB; feed-forward (broadcasts in ymm8); x9
	 * parks in SB; transpose.  Poly1305 block 30 (MAC + 0) and the message
	 * load of block 31 (MAC + 16, part 0) along the way, so every MAC load
	 * of the group precedes its first store (in place decryption reads
	 * ciphertext). */
	vmovdqa	SB, %ymm2
	FF	%ymm0, 0, %ymm8, STATE
	FF	%ymm1, 1, %ymm8, STATE
	FF	%ymm2, 2, %ymm8, STATE
	FF	%ymm3, 3, %ymm8, STATE
	POLYQ	0
	FF	%ymm4, 4, %ymm8, STATE
	FF	%ymm5, 5, %ymm8, STATE
	FF	%ymm6, 6, %ymm8, STATE
	FF	%ymm7, 7, %ymm8, STATE
	POLYQ	1
	vmovdqa	%ymm9, SB			/* SB = x9 */
	TRANSPOSE4 %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm9	/* -> 1,8,3,0 */
	POLYQ	2
	TRANSPOSE4 %ymm4, %ymm5, %ymm6, %ymm7, %ymm2, %ymm9	/* -> 5,2,7,4 */
	POLYQ	3
	POLYQ	4
	/* xor and store bytes 0-31 of blocks 0..7 */
	OUT2	%ymm1, %ymm5, %ymm6, 0, 0, SRC, DST
	OUT2	%ymm8, %ymm2, %ymm9, 1, 0, SRC, DST
	OUT2	%ymm3, %ymm7, %ymm6, 2, 0, SRC, DST
	OUT2	%ymm0, %ymm4, %ymm9, 3, 0, SRC, DST

	/* Words 8-15: x8 from SA, x9 from SB; counter lanes rebuilt from the
	 * state; feed-forward, transpose, xor and store bytes 32-63 of blocks
	 * 0..7.  The rest of Poly1305 block 31 in between. */
	vmovdqa	SA, %ymm8
	vmovdqa	SB, %ymm9
	CTR8	%ymm0, %ymm1, %ymm2, %xmm2, 32(STATE)
	vpaddd	%ymm0, %ymm8, %ymm8
	vpaddd	%ymm1, %ymm9, %ymm9
	POLYQ	5
	FF	%ymm10, 10, %ymm2, STATE
	FF	%ymm11, 11, %ymm3, STATE
	FF	%ymm12, 12, %ymm4, STATE
	FF	%ymm13, 13, %ymm5, STATE
	FF	%ymm14, 14, %ymm6, STATE
	FF	%ymm15, 15, %ymm7, STATE
	POLYQ	6
	TRANSPOSE4 %ymm8, %ymm9, %ymm10, %ymm11, %ymm0, %ymm1	/* -> 9,0,11,8 */
	TRANSPOSE4 %ymm12, %ymm13, %ymm14, %ymm15, %ymm2, %ymm3	/* -> 13,2,15,12 */
	POLYQ	7
	OUT2	%ymm9, %ymm13, %ymm1, 0, 32, SRC, DST
	OUT2	%ymm0, %ymm2, %ymm3, 1, 32, SRC, DST
	OUT2	%ymm11, %ymm15, %ymm1, 2, 32, SRC, DST
	OUT2	%ymm8, %ymm12, %ymm3, 3, 32, SRC, DST

	addq	$8, 32(STATE)			/* 64-bit counter, words 8-9 */
	addq	$32, MAC
	addq	$512, SRC
	addq	$512, DST
	subq	$1, GROUPS
	jnz	.Lsp_group

	SCALAR_LEAVE
.Lsp_done:
	ret
GCRY_FUNC_END(_gcry_salsa20_poly1305_amd64_avx2_blocks8)

#endif /* __x86_64__ */
