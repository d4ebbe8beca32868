/* depth-aarch64.S - the native check's burn-depth probe on aarch64 (test
 * code only); the same contract as depth-amd64.S.
 *
 *   void asmcheck_depth_probe(depth_call *c);      (layout in depth.c)
 *
 * Calls c->fn with c->args[0..6] in x0-x6 (AAPCS64 passes all seven in
 * registers), from a stack pointer aligned down to 64 bytes and then moved
 * SHIFT bytes lower: that is the routine's entry sp (bl pushes nothing).
 * Before the call the DEPTH_SPAN bytes below it are painted with
 * c->paint; after it the lowest byte that lost the paint gives how deep the
 * routine wrote (c->measured, bytes below its entry sp; 0 if nothing).
 * All of it runs here, in registers, so no C frame lands in the measured
 * area.
 *
 * Also checked (c->abi_ok): the callee-saved x19-x29 and the low halves of
 * v8-v15 (d8-d15), set to sentinels before the call, and sp come back.
 * Every other vector register bit is set before the call: zero when
 * c->vfill is 0, else every byte of vn is c->vfill + n (the poisoned
 * registers a real caller leaves, under which depth.c checks the routine
 * does the same).  What the routine left in v0-v31 is stored to c->vregs
 * (16 bytes a register, 64 apart; c->vecmode is 3), with the checked
 * sentinels of d8-d15 cleared there so that only what the routine left
 * counts.
 */
#include "asm-common-aarch64.h"

#define DEPTH_SPAN 8192

/* depth_call offsets */
#define C_FN		0
#define C_ARGS		8
#define C_SHIFT		64
#define C_PAINT		72
#define C_REPORTED	80
#define C_MEASURED	88
#define C_ENTRY		96
#define C_ABI_OK	104
#define C_VFILL		120
#define C_VREGS		128		/* 32 slots of 64 bytes */

.bss
.balign 8
saved_sp:	.quad 0
saved_call:	.quad 0

/* x17 = the sentinel base; x19 + i is base + 1 + i, d8 + i the same */
.macro SENTINEL_BASE
	movz	x17, #0x0b00
	movk	x17, #0x0b0b, lsl #16
	movk	x17, #0x0b0b, lsl #32
	movk	x17, #0x0b0b, lsl #48
.endm

.text
GCRY_FUNC_BEGIN(asmcheck_depth_probe)
	stp	x29, x30, [sp, #-160]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	adrp	x9, saved_sp
	add	x9, x9, :lo12:saved_sp
	mov	x10, sp
	str	x10, [x9]
	str	x0, [x9, #8]
	mov	x19, x0

	/* the stack pointer of the call: 64-aligned, SHIFT lower */
	mov	x10, sp
	and	x10, x10, #-64
	ldr	x11, [x19, #C_SHIFT]
	sub	x20, x10, x11

	/* paint [call sp - SPAN - 64, call sp) with sp below it */
	mov	x11, #(DEPTH_SPAN + 64)
	sub	x12, x20, x11
	mov	sp, x12
	ldrb	w13, [x19, #C_PAINT]
	mov	x14, #0x0101010101010101
	mul	x13, x13, x14
1:	str	x13, [x12], #8
	cmp	x12, x20
	b.lo	1b
	mov	sp, x20
	str	x20, [x19, #C_ENTRY]

	/* the vector registers: zero, or byte vfill + n in vn */
	ldr	x9, [x19, #C_VFILL]
	GCRY_ZERO_V 0, 31
	cbz	x9, 5f
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	dup	v\r\().16b, w9
	add	w9, w9, #1
	.endr
5:
	ldr	x16, [x19, #C_FN]
	ldp	x0, x1, [x19, #C_ARGS]
	ldp	x2, x3, [x19, #C_ARGS + 16]
	ldp	x4, x5, [x19, #C_ARGS + 32]
	ldr	x6, [x19, #C_ARGS + 48]
	SENTINEL_BASE
	.irp r, 19,20,21,22,23,24,25,26,27,28,29
	add	x\r, x17, #(\r - 18)
	.endr
	/* d8-d15: the low halves only (ins keeps the high halves' fill) */
	.irp r, 8,9,10,11,12,13,14,15
	add	x9, x17, #(\r - 7)
	ins	v\r\().d[0], x9
	.endr
	blr	x16
	mov	w15, w0				/* the reported depth */

	/* what the routine left in the vector registers */
	adrp	x9, saved_sp
	add	x9, x9, :lo12:saved_sp
	ldr	x14, [x9, #8]			/* c */
	add	x13, x14, #C_VREGS
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	str	q\r, [x13, #(\r * 64)]
	.endr

	/* ABI: the sentinels and sp (x12 gathers the differences) */
	SENTINEL_BASE
	mov	x12, #0
	.irp r, 19,20,21,22,23,24,25,26,27,28,29
	add	x11, x17, #(\r - 18)
	eor	x11, x11, x\r
	orr	x12, x12, x11
	.endr
	.irp r, 8,9,10,11,12,13,14,15
	add	x11, x17, #(\r - 7)
	fmov	x10, d\r
	eor	x11, x11, x10
	orr	x12, x12, x11
	str	xzr, [x13, #(\r * 64)]		/* checked: not the routine's data */
	.endr
	ldr	x10, [x14, #C_ENTRY]
	mov	x11, sp
	eor	x11, x11, x10
	orr	x12, x12, x11
	cmp	x12, #0
	cset	x11, eq
	str	x11, [x14, #C_ABI_OK]
	str	x15, [x14, #C_REPORTED]

	/* the lowest byte below the entry sp that lost the paint */
	ldr	x10, [x14, #C_ENTRY]
	mov	x11, #DEPTH_SPAN
	sub	x12, x10, x11
	ldrb	w13, [x14, #C_PAINT]
2:	ldrb	w11, [x12]
	cmp	w11, w13
	b.ne	3f
	add	x12, x12, #1
	cmp	x12, x10
	b.lo	2b
	str	xzr, [x14, #C_MEASURED]
	b	4f
3:	sub	x11, x10, x12
	str	x11, [x14, #C_MEASURED]
4:
	adrp	x9, saved_sp
	ldr	x10, [x9, :lo12:saved_sp]
	mov	sp, x10
	ldp	d14, d15, [sp, #144]
	ldp	d12, d13, [sp, #128]
	ldp	d10, d11, [sp, #112]
	ldp	d8, d9, [sp, #96]
	ldp	x27, x28, [sp, #80]
	ldp	x25, x26, [sp, #64]
	ldp	x23, x24, [sp, #48]
	ldp	x21, x22, [sp, #32]
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #160
	ret
GCRY_FUNC_END(asmcheck_depth_probe)
