/* salsa20-amd64-avx512.S - Salsa20 keystream XOR (16 blocks in zmm, two
 * such groups interleaved while there are 32 blocks; a variant taking 17
 * at a time from 272 blocks, one in general-purpose registers; 8 blocks in
 * ymm) and HSalsa20 for amd64 with AVX512F + AVX512VL.
 *
 * Written for gcrylike from D. J. Bernstein, "Salsa20 specification" and
 * "Extending the Salsa20 nonce" (HSalsa20 / XSalsa20).
 *
 * ABI (System V AMD64, all routines hidden globals), the same as the AVX2
 * routines of salsa20-amd64-avx2.S:
 *
 *   unsigned int _gcry_salsa20_amd64_avx512_blocks16(uint32_t *state,   rdi
 *                                                    uint8_t *dst,       rsi
 *                                                    const uint8_t *src, rdx
 *                                                    size_t nblocks,     rcx
 *                                                    unsigned int rounds) r8d
 *   unsigned int _gcry_salsa20_amd64_avx512_blocks16_gpr(...the same...)
 *   unsigned int _gcry_salsa20_amd64_avx512_blocks8(...the same...)
 *
 *   state   16 uint32 words in the standard Salsa20 input layout: words
 *           0, 5, 10, 15 constants, 1-4 and 11-14 key, 6-7 nonce, 8-9 the
 *           64-bit block counter (word 8 low, word 9 high).  Any alignment.
 *           Only words 8-9 are written: the counter is advanced by nblocks;
 *           block j of the call uses counter + j mod 2^64 (each lane
 *           carries from word 8 into word 9 on its own).
 *   dst/src any alignment; dst may equal src.  dst = src XOR keystream.
 *   nblocks a multiple of 16 (resp. 8); 0 returns 0 at once and touches
 *           nothing.  (A remainder is ignored: neither processed nor
 *           counted.)
 *   rounds  an even number (20, 12, 8 in practice; 0 gives the bare
 *           feed-forward); rounds/2 double rounds are run.
 *
 *   unsigned int _gcry_hsalsa20_amd64_avx512(const uint32_t *state,     rdi
 *                                            uint8_t *out32,            rsi
 *                                            unsigned int rounds);      edx
 *
 *   state   constants 0, 5, 10, 15, key 1-4 and 11-14, the 16-byte input in
 *           words 6-9; any alignment, read only.  out32 (any alignment)
 *           receives words 0, 5, 10, 15, 6, 7, 8, 9 of the state after
 *           `rounds` rounds, no feed-forward, little-endian.
 *
 * Burn convention (as the rest of gcrylike): each routine returns the
 * number of stack bytes below its entry rsp that it wrote.  blocks8,
 * HSalsa20 and blocks16 below 32 blocks use no stack (32 vector registers
 * hold everything) and return 0; blocks16 from 32 blocks (two groups: one
 * word spilled, and room to free output scratch) returns 576, as does
 * blocks16_gpr below 272 blocks (it runs blocks16 there); blocks16_gpr from
 * 272 blocks keeps its scalar block's spills, keystream and the pointers in
 * a frame: 176 bytes.
 * Every vector register that held state or keystream is cleared before
 * return: vzeroall for zmm0-15, vpxord for the zmm16-31 used (vzeroall
 * does not reach them).  k1 holds only counter carries.  The 17-block
 * path clears the caller-saved GPRs that held its scalar block and
 * restores the callee-saved ones; otherwise only caller-saved GPRs are
 * used, for no secrets.
 *
 * The assembler picks VEX encodings where the registers allow (xmm/ymm
 * 0-15, e.g. vpbroadcastd, vpunpck*, vpblendd); every CPU with AVX512VL
 * runs them, and the driver's features are avx512f and avx512vl.
 */

#include "asm-common-amd64.h"

#ifdef __x86_64__

#include "salsa20-amd64-avx512.h"
#include "hsalsa20-amd64-xmm.h"

/**********************************************************************
 * blocks16 / blocks8: 16 (8) blocks in parallel, transposed form: zmm_i
 * (ymm_i) = word x_i, dword lane j = block j of the group (counter c+j).
 * (blocks16 runs two groups at a time while it can: "blocks16 pairs"
 * below; this single-group loop takes the odd group left.)
 *
 *   v0..v15   words              v16      step temporary
 *   v17, v18  counter lanes of the group (low, high dwords), advanced
 *             in registers from group to group
 *   v19..v23  transpose scratch, v24..v27 output scratch (v24, v25 only
 *             in blocks8)
 * GPRs: rdi state, rsi dst, rdx src, rcx groups left, r8d double rounds,
 * r9 64-bit counter (stored back at the end), r10d double rounds left.
 *
 * Per group of 16: 10 x 96 ops of rounds at 20 rounds, 16 feed-forward
 * adds, 64 shuffles, 16 xors; the 8-block form has the same op count on
 * half-width registers.
 **********************************************************************/

/* The group loop: RCX groups of N blocks (V register prefix, OUT output
 * macro, PFX label prefix) from rdi state, rdx src, rsi dst, r8d double
 * rounds, r9 the 64-bit counter and v17/v18 its lanes; advances rdx, rsi,
 * r9 and the lanes, leaves rcx 0. */
.macro S512_LOOP v, n, out, pfx
.balign 32
.L\pfx\()_group:
	/* The group's input: words broadcast, counter lanes in 8 and 9. */
	S512_LOAD \v, %\v\()17, %\v\()18, %rdi

	movl	%r8d, %r10d			/* r10d = double rounds left */
	testl	%r10d, %r10d
	jz	.L\pfx\()_rounds_done

.balign 32
.L\pfx\()_dround:
	SALSA512_DROUND \v, %\v\()16
	subl	$1, %r10d
	jnz	.L\pfx\()_dround

.L\pfx\()_rounds_done:
	/* Feed-forward, back to blocks, xor with src, store. */
	S512_FEED \v, \n, %\v\()17, %\v\()18, %rdi
	S512_TRANSPOSE_OUT \v, %\v\()19, %\v\()20, %\v\()21, %\v\()22, %\v\()23, \out, %\v\()24, %\v\()25, %\v\()26, %\v\()27, %rdx, %rsi

	S512_CTR_NEXT \n, %\v\()17, %\v\()18, \n
	addq	$\n, %r9
	addq	$(\n*64), %rdx
	addq	$(\n*64), %rsi
	subq	$1, %rcx
	jnz	.L\pfx\()_group
.endm

/* Clear the words (zmm0-15) and zmm16-27 (keystream, counter lanes). */
.macro S512_CLEAR
	vzeroall
	.irp r, 16,17,18,19,20,21,22,23,24,25,26,27
	vpxord	%xmm\r, %xmm\r, %xmm\r		/* EVEX: clears all 512 bits */
	.endr
.endm

GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_avx512_blocks8)
	xorl	%eax, %eax
	shrq	$3, %rcx			/* rcx = groups of 8 blocks */
	jz	.Ls8_done
	movq	32(%rdi), %r9			/* 64-bit block counter */
	shrl	$1, %r8d			/* r8d = double rounds */
	S512_CTR_INIT 8, %ymm17, %ymm18, %rdi
	S512_LOOP ymm, 8, S512_OUT8, s8
	movq	%r9, 32(%rdi)			/* words 8-9 only */
	S512_CLEAR
.Ls8_done:
	ret
GCRY_FUNC_END(_gcry_salsa20_amd64_avx512_blocks8)

/**********************************************************************
 * blocks16_gpr: blocks16, but from 272 blocks in groups of 17, 16 in zmm
 * as above and the 17th
 * (counter c+16) in general-purpose registers, its rounds spread through
 * the vector double round by SALSA512_DROUND's hook.  On Zen 4 the vector
 * double round leaves the integer ALUs idle: a scalar double round (96 ALU
 * ops, chains of 24 dependent ones) fits beside it at no measured cost, so
 * a group of 17 takes the time of one of 16.  Every 272 blocks (17 groups
 * of 16) go as 16 groups of 17, the rest as groups of 16; the caller sees
 * a multiple of 16 as with blocks16.  Where 512-bit instructions run whole
 * (Intel), the vector double round is shorter and the scalar steps would
 * compete for its ports (as llvm-mca predicts).  blocks16's two
 * interleaved groups are faster again on Zen 4, so the glue calls this
 * only when a test forces it (figures: docs/algorithms.rst, "The Salsa20
 * family").
 *
 * Scalar block words: x0 ebx, x1 ecx, x3 esi, x4 edi, x5 ebp, x6 r8d,
 * x7 r9d, x9 r10d, x10 r11d, x11 r12d, x12 r13d, x13 r14d, x14 r15d,
 * x15 edx; x2 and x8 live in the frame (no step adds them together); eax
 * is the step temporary.  Pointers, counts and the 64-bit counter live in
 * the frame while the words hold the registers.
 *
 * Frame (rsp after the pushes and the sub; all below the entry rsp):
 *   6 pushes (48 bytes: rbp rbx r12-r15), then FRAME17 = 128 bytes:
 *   0 state  8 dst  16 src  24 groups of 17 left  32 double rounds
 *   36 double rounds left  40 64-bit counter of the group  48 x2  52 x8
 *   56 groups of 16 after them
 *   64..127 the scalar block's keystream (xored into dst with one zmm)
 * Burn depth: 48 + 128 = 176 bytes (return address excluded).
 **********************************************************************/

#define FRAME17		128
#define F_STATE		0(%rsp)
#define F_DST		8(%rsp)
#define F_SRC		16(%rsp)
#define F_GROUPS	24(%rsp)
#define F_DR		32(%rsp)
#define F_DRLEFT	36(%rsp)
#define F_CTR		40(%rsp)
#define F_X2		48(%rsp)
#define F_X8		52(%rsp)
#define F_REST		56(%rsp)
#define F_KS		64

#define SW0	%ebx
#define SW1	%ecx
#define SW2	F_X2
#define SW3	%esi
#define SW4	%edi
#define SW5	%ebp
#define SW6	%r8d
#define SW7	%r9d
#define SW8	F_X8
#define SW9	%r10d
#define SW10	%r11d
#define SW11	%r12d
#define SW12	%r13d
#define SW13	%r14d
#define SW14	%r15d
#define SW15	%edx

/* x ^= (p + q) <<< k on the scalar words (p and q never both in memory) */
.macro SSTEP x, p, q, k
	movl	\p, %eax
	addl	\q, %eax
	roll	$\k, %eax
	xorl	%eax, \x
.endm

/* M w, off for each pair (scalar word operand w, its byte offset off in
 * the state) of the list, in order. */
.macro S17_EACH m, w, off, rest:vararg
	\m	\w, \off
	.ifnb \rest
	S17_EACH \m, \rest
	.endif
.endm

/* The scalar word w from the state (rdi). */
.macro S17_LOADW w, off
	movl	\off(%rdi), \w
.endm

/* Feed-forward of the scalar word w (state in rax) into the frame's
 * keystream block. */
.macro S17_FEEDW w, off
	addl	\off(%rax), \w
	movl	\w, F_KS+\off(%rsp)
.endm

/* Save (restore, in the reverse order) callee-saved registers, with
 * their unwind notes. */
.macro S17_PUSH regs:vararg
	.irp r, \regs
	pushq	%\r
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %\r, 0
	.endr
.endm
.macro S17_POP regs:vararg
	.irp r, \regs
	popq	%\r
	.cfi_adjust_cfa_offset -8
	.cfi_restore %\r
	.endr
.endm

/* STEP of S512_ROUND for the scalar block: its steps number 0..15 in
 * the round's order (s17_i counts them), and only those from s17_lo to
 * below s17_hi are done.  (v, t unused.) */
.macro S17_PICK v, t, x, p, q, k
	.if (s17_i >= s17_lo) && (s17_i < s17_hi)
	SSTEP	\x, \p, \q, \k
	.endif
	.set	s17_i, s17_i + 1
.endm

/* The scalar double round in twelve parts, Q = 0..11 (the hook points of
 * SALSA512_DROUND): each round's 16 steps in the vector round's order
 * (step-major), split 3, 3, 3, 3, 2, 2. */
.macro S17_HOOK q
	.set	s17_i, 0
	.set	s17_j, (\q) % 6			/* part of the round */
	.if s17_j < 4
	.set	s17_lo, 3 * s17_j
	.set	s17_hi, 3 * s17_j + 3
	.else
	.set	s17_lo, 2 * s17_j + 4
	.set	s17_hi, 2 * s17_j + 6
	.endif
	.if (\q) < 6
	/* column round: (a,b,c,d) = (0,4,8,12) (5,9,13,1) (10,14,2,6) (15,3,7,11) */
	S512_ROUND -, -, SALSA512_NOHOOK, 0, S17_PICK, S512_COLUMN_QRS(SW)
	.else
	/* row round: (0,1,2,3) (5,6,7,4) (10,11,8,9) (15,12,13,14) */
	S512_ROUND -, -, SALSA512_NOHOOK, 0, S17_PICK, S512_ROW_QRS(SW)
	.endif
.endm

/**********************************************************************
 * blocks16 pairs: while there are 32 blocks, two groups of 16 at a time,
 * their double rounds interleaved step by step.  One group alone is bound
 * by the latency of its four-step chains; two independent groups fill the
 * vector pipes (figures for Zen 4: docs/algorithms.rst, "The Salsa20
 * family").
 *
 *   zmm0..zmm15   group A (blocks 0-15): word x_i in zmm_i
 *   zmm16..zmm30  group B (blocks 16-31): word x_i in zmm(16+i), i < 15
 *   S2_SLOT       group B's x15 (no register is left for it)
 *   zmm31         the step temporary of both groups
 * The counter lanes are rebuilt from r9 (the 64-bit counter of group A)
 * when needed, as no register is left to keep them.  For group A's
 * output, group B's words 7..14 (zmm23..zmm30) go to the frame to free
 * nine scratch registers; group B is then gathered into zmm0..zmm15 and
 * leaves as a single group does.
 *
 * Frame (rsp after the sub, all below the entry rsp): 0..511 group B's
 * words 7..14 during group A's output, 512..575 S2_SLOT.  Burn depth 576.
 **********************************************************************/

#define S2_FRAME	576
#define S2_SLOT		512(%rsp)

GCRY_RODATA
.balign 64
/* Counter offsets of group B's lanes. */
.Ls2_lanes16:
	.long 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
.text

/* Counter lanes lo/hi of a group from r9 (the 64-bit counter) plus the
 * dword offsets at LANES (0..15 or 16..31); a lane whose low dword wrapped
 * (lo < its offset) carries.  Clobbers r10, k1. */
.macro S2_CTR lo, hi, lanes
	vpbroadcastd %r9d, \lo
	movq	%r9, %r10
	shrq	$32, %r10
	vpbroadcastd %r10d, \hi
	vpaddd	\lanes(%rip), \lo, \lo
	vpcmpud	$1, \lanes(%rip), \lo, %k1
	vpaddd	.Ls512_one(%rip){1to16}, \hi, \hi{%k1}
.endm

/* x ^= (p + q) <<< k on group B's words bx, bp, bq (zmm numbers 16 + i;
 * 31 stands for x15 in S2_SLOT), t the temporary.  p and q are never
 * both x15; x15 as x is read, updated and written back. */
.macro S2_BSTEP t, bx, bp, bq, k
	.if \bp == 31
	vpaddd	S2_SLOT, %zmm\bq, \t
	.elseif \bq == 31
	vpaddd	S2_SLOT, %zmm\bp, \t
	.else
	vpaddd	%zmm\bq, %zmm\bp, \t
	.endif
	vprold	$\k, \t, \t
	.if \bx == 31
	vpxord	S2_SLOT, \t, \t
	vmovdqu64 \t, S2_SLOT
	.else
	vpxord	\t, %zmm\bx, %zmm\bx
	.endif
.endm

/* zmm(B) = zmm(A), A and B register-number expressions (altmacro
 * evaluates them). */
.macro S2_ZMOV a, b
	.altmacro
	S2_ZMOVN %(\a), %(\b)
	.noaltmacro
.endm
.macro S2_ZMOVN a, b
	vmovdqa64 %zmm\a, %zmm\b
.endm

/* The STEP of SALSA512_DROUND for both groups: x ^= (p + q) <<< k on
 * words x, p, q of group A (zmm x), then of group B (zmm 16+x; altmacro
 * for the register number arithmetic). */
.macro S2_STEP v, t, x, p, q, k
	S512_STEP \v, \t, \x, \p, \q, \k
	.altmacro
	S2_BSTEP <\t>, %(\x+16), %(\p+16), %(\q+16), \k
	.noaltmacro
.endm


GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_avx512_blocks16)
.Ls16_enter:
	xorl	%eax, %eax
	shrq	$4, %rcx			/* rcx = groups of 16 blocks */
	jz	.Ls16_done
	movq	32(%rdi), %r9			/* 64-bit block counter */
	shrl	$1, %r8d			/* r8d = double rounds */
	movq	%rcx, %r11
	shrq	$1, %r11			/* r11 = pairs of groups */
	jz	.Ls16_single
	andl	$1, %ecx			/* rcx = the group left after them */
	subq	$S2_FRAME, %rsp
	.cfi_adjust_cfa_offset S2_FRAME

.balign 32
.Ls2_pair:
	/* Both groups' input: words broadcast, counter lanes in words 8-9
	 * (group B's x15 to the slot through the temporary). */
	S2_CTR	%zmm8, %zmm9, .Ls512_lanes
	S2_CTR	%zmm24, %zmm25, .Ls2_lanes16
	vpbroadcastd 60(%rdi), %zmm31
	vmovdqu64 %zmm31, S2_SLOT
	.irp i, 0,1,2,3,4,5,6,7,10,11,12,13,14,15
	vpbroadcastd (4*\i)(%rdi), %zmm\i
	.endr
	.irp i, 0,1,2,3,4,5,6,7,10,11,12,13,14
	S2_ZMOV	\i, \i+16			/* group B's copy */
	.endr

	movl	%r8d, %r10d			/* r10d = double rounds left */
	testl	%r10d, %r10d
	jz	.Ls2_rounds_done
.balign 32
.Ls2_dround:
	/* One double round of both groups: SALSA512_DROUND's step order
	 * (columns, then rows), each step A's then B's. */
	SALSA512_DROUND zmm, %zmm31, step=S2_STEP
	subl	$1, %r10d
	jnz	.Ls2_dround

.Ls2_rounds_done:
	/* Group A (blocks 0-15) out, with group B's words 7..14 in the frame
	 * and zmm23..zmm31 as lanes and scratch. */
	.irp i, 23,24,25,26,27,28,29,30
	vmovdqu64 %zmm\i, (64*(\i-23))(%rsp)
	.endr
	S2_CTR	%zmm23, %zmm24, .Ls512_lanes
	S512_FEED zmm, 16, %zmm23, %zmm24, %rdi
	S512_TRANSPOSE_OUT zmm, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27, S512_OUT16, %zmm28, %zmm29, %zmm30, %zmm31, %rdx, %rsi

	/* Group B (blocks 16-31) gathered into zmm0..zmm15, out as a single
	 * group (lanes zmm17/18, scratch zmm19..zmm27). */
	.irp i, 0,1,2,3,4,5,6
	S2_ZMOV	\i+16, \i
	.endr
	.irp i, 7,8,9,10,11,12,13,14
	vmovdqu64 (64*(\i-7))(%rsp), %zmm\i
	.endr
	vmovdqu64 S2_SLOT, %zmm15
	S2_CTR	%zmm17, %zmm18, .Ls2_lanes16
	addq	$(16*64), %rdx
	addq	$(16*64), %rsi
	S512_FEED zmm, 16, %zmm17, %zmm18, %rdi
	S512_TRANSPOSE_OUT zmm, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, S512_OUT16, %zmm24, %zmm25, %zmm26, %zmm27, %rdx, %rsi

	addq	$32, %r9
	addq	$(16*64), %rdx
	addq	$(16*64), %rsi
	subq	$1, %r11
	jnz	.Ls2_pair

	addq	$S2_FRAME, %rsp
	.cfi_adjust_cfa_offset -S2_FRAME
	vpxord	%xmm28, %xmm28, %xmm28		/* pair-only registers */
	vpxord	%xmm29, %xmm29, %xmm29
	vpxord	%xmm30, %xmm30, %xmm30
	vpxord	%xmm31, %xmm31, %xmm31
	movl	$S2_FRAME, %eax			/* burn depth: the frame */
	testq	%rcx, %rcx
	jz	.Ls16_store

.Ls16_single:
	/* Groups of 16 one at a time (after the pairs: one). */
	S2_CTR	%zmm17, %zmm18, .Ls512_lanes
	S512_LOOP zmm, 16, S512_OUT16, s16
.Ls16_store:
	movq	%r9, 32(%rdi)			/* words 8-9 only */
	S512_CLEAR
.Ls16_done:
	ret
GCRY_FUNC_END(_gcry_salsa20_amd64_avx512_blocks16)

GCRY_FUNC_BEGIN(_gcry_salsa20_amd64_avx512_blocks16_gpr)
	/* Below 272 blocks: blocks16.  From 272: each 272 as 16 groups of 17,
	 * the rest (a multiple of 16) as groups of 16. */
	cmpq	$272, %rcx
	jb	.Ls16_enter
	movq	%rdx, %r11			/* src, while div uses rdx */
	movq	%rcx, %rax
	xorl	%edx, %edx
	movl	$272, %r10d
	divq	%r10				/* rax = n / 272, rdx = n % 272 */
	shlq	$4, %rax			/* groups of 17 */
	shrq	$4, %rdx			/* then groups of 16 */
	movq	%rdx, %r10
	movq	%r11, %rdx

	S17_PUSH rbp, rbx, r12, r13, r14, r15
	subq	$FRAME17, %rsp
	.cfi_adjust_cfa_offset FRAME17

	movq	%rdi, F_STATE
	movq	%rsi, F_DST
	movq	%rdx, F_SRC
	movq	%rax, F_GROUPS
	movq	%r10, F_REST
	shrl	$1, %r8d
	movl	%r8d, F_DR
	movq	32(%rdi), %rax
	movq	%rax, F_CTR
	S512_CTR_INIT 16, %zmm17, %zmm18, %rdi

.balign 32
.Ls17_group:
	/* Vector lanes 0..15 as in blocks16 (rdi = state here). */
	S512_LOAD zmm, %zmm17, %zmm18, %rdi
	/* Scalar block: the state with counter c+16; edi (x4) last. */
	movq	F_CTR, %rax
	addq	$16, %rax
	movl	%eax, F_X8
	shrq	$32, %rax
	movl	%eax, %r10d			/* x9 */
	movl	8(%rdi), %eax
	movl	%eax, F_X2
	S17_EACH S17_LOADW, SW0, 0, SW1, 4, SW3, 12, SW5, 20, SW6, 24, SW7, 28, \
		SW10, 40, SW11, 44, SW12, 48, SW13, 52, SW14, 56, SW15, 60, \
		SW4, 16

	movl	F_DR, %eax
	movl	%eax, F_DRLEFT
	testl	%eax, %eax
	jz	.Ls17_rounds_done

.balign 32
.Ls17_dround:
	SALSA512_DROUND zmm, %zmm16, S17_HOOK
	subl	$1, F_DRLEFT
	jnz	.Ls17_dround

.Ls17_rounds_done:
	/* Scalar feed-forward into the frame's keystream block. */
	movq	F_STATE, %rax
	S17_EACH S17_FEEDW, SW0, 0, SW1, 4
	movl	F_X2, %ebx			/* x2 through ebx (x0 is stored) */
	S17_EACH S17_FEEDW, %ebx, 8, SW3, 12, SW4, 16, SW5, 20, SW6, 24, SW7, 28
	movq	F_CTR, %rcx
	addq	$16, %rcx
	movl	F_X8, %ebx
	addl	%ecx, %ebx
	movl	%ebx, F_KS+32(%rsp)
	shrq	$32, %rcx
	addl	%ecx, %r10d
	movl	%r10d, F_KS+36(%rsp)
	S17_EACH S17_FEEDW, SW10, 40, SW11, 44, SW12, 48, SW13, 52, SW14, 56, SW15, 60

	/* Pointers back; the scalar block (block 16) xored and stored. */
	movq	%rax, %rdi
	movq	F_SRC, %rdx
	movq	F_DST, %rsi
	vmovdqu32 F_KS(%rsp), %zmm16
	vpxord	1024(%rdx), %zmm16, %zmm16
	vmovdqu32 %zmm16, 1024(%rsi)

	/* Vector blocks 0..15 as in blocks16. */
	S512_FEED zmm, 16, %zmm17, %zmm18, %rdi
	S512_TRANSPOSE_OUT zmm, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, S512_OUT16, %zmm24, %zmm25, %zmm26, %zmm27, %rdx, %rsi

	S512_CTR_NEXT 16, %zmm17, %zmm18, 17
	addq	$17, F_CTR
	addq	$(17*64), %rdx
	addq	$(17*64), %rsi
	movq	%rdx, F_SRC
	movq	%rsi, F_DST
	subq	$1, F_GROUPS
	jnz	.Ls17_group

	/* The groups of 16 left: the plain loop, registers from the frame
	 * (rdi, rdx, rsi are current; the lanes in zmm17/18 run on). */
	movq	F_REST, %rcx
	testq	%rcx, %rcx
	jz	.Ls17_exit
	movq	F_CTR, %r9
	movl	F_DR, %r8d
	S512_LOOP zmm, 16, S512_OUT16, s16r
	movq	%r9, F_CTR

.Ls17_exit:
	movq	F_CTR, %rax
	movq	%rax, 32(%rdi)			/* words 8-9 only */
	/* Clear the vector registers used, and the scalar words left in
	 * caller-saved registers (the callee-saved ones are restored below;
	 * the frame is the caller's to burn). */
	S512_CLEAR
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	xorl	%esi, %esi
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d
	addq	$FRAME17, %rsp
	.cfi_adjust_cfa_offset -FRAME17
	S17_POP r15, r14, r13, r12, rbx, rbp
	movl	$(6*8 + FRAME17), %eax		/* burn depth */
	ret
GCRY_FUNC_END(_gcry_salsa20_amd64_avx512_blocks16_gpr)

/**********************************************************************
 * HSalsa20, one block, row/diagonal form in four xmm registers:
 * hsalsa20-amd64-xmm.h.  A step is a chain of three dependent
 * instructions with vprold: add, rotate, xor.
 *
 * xmm0 A, xmm1 B, xmm2 C, xmm3 D, xmm4 step temporary (xmm4..xmm7 set-up
 * and output scratch); rdi state, rsi out32, edx double rounds.
 **********************************************************************/

/* x ^= (p + q) <<< k, temporary xmm4 */
.macro HS512_STEP x, p, q, k
	vpaddd	\q, \p, %xmm4
	vprold	$\k, %xmm4, %xmm4
	vpxord	%xmm4, \x, \x
.endm

/* A ^= xmm4 <<< 18 */
.macro HS512_ROT18_A
	vprold	$18, %xmm4, %xmm4
	vpxord	%xmm4, %xmm0, %xmm0
.endm

GCRY_FUNC_BEGIN(_gcry_hsalsa20_amd64_avx512)
	HSALSA_LOAD
	shrl	$1, %edx			/* double rounds */
	jz	.Lhs512_out

.balign 32
.Lhs512_dround:
	HSALSA_DROUND HS512_STEP, HS512_ROT18_A
	subl	$1, %edx
	jnz	.Lhs512_dround

.Lhs512_out:
	HSALSA_STORE
	vzeroall				/* xmm0-7 only were used */
	xorl	%eax, %eax
	ret
GCRY_FUNC_END(_gcry_hsalsa20_amd64_avx512)

#endif /* __x86_64__ */
