/* aarch64_call_check.S - call a routine under test and record what the
 * AAPCS64 and the burn convention forbid it to leave behind
 * (tests/cross/aarch64_parts_check.c reads the record).
 *
 *   uint64_t a64_call_checked(void *fn, uint64_t a0, uint64_t a1,
 *           uint64_t a2, uint64_t a3, struct a64_call_record *rec);
 *
 * Before the call: A64_PAINT bytes below the stack pointer are painted
 * with A64_PAINT_BYTE, x19-x28 get the values A64_GPR_PATTERN + n, and
 * every vector register vn gets all bytes A64_V_PATTERN + n (so d8-d15,
 * the callee-saved low halves, are patterned too).  fn is called with
 * a0..a3 in x0..x3 and the stack pointer as it was at entry here.  After:
 *   rec->ret    fn's x0;
 *   rec->depth  stack pointer minus the lowest painted byte changed
 *               (0 if none): the bytes fn wrote below its entry sp;
 *   rec->gpr_bad bit n set when xn (19..28) lost its value; bit 29 when
 *               x29 or sp did not come back;
 *   rec->v[32]  the 32 vector registers as fn left them (the C side
 *               checks that each is its pattern, untouched, or zero).
 * The values must match aarch64_parts_check.c's definitions.
 */
#define A64_PAINT 4096
#define A64_PAINT_BYTE 0xa5

	.arch	armv8-a
	.text
	.globl	a64_call_checked
	.type	a64_call_checked, %function
	.balign	16
a64_call_checked:
	/* frame: x29/x30, x19-x28, d8-d15, rec, fn */
	stp	x29, x30, [sp, #-176]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	stp	x5, x0, [sp, #160]

	/* paint [sp - A64_PAINT, sp) */
	mov	x9, sp
	sub	x10, x9, #A64_PAINT
	mov	x11, #0xa5a5
	movk	x11, #0xa5a5, lsl #16
	movk	x11, #0xa5a5, lsl #32
	movk	x11, #0xa5a5, lsl #48
1:	str	x11, [x10], #8
	cmp	x10, x9
	b.lo	1b

	/* callee-saved patterns: xn = 0x5a5a5a5a5a5a5a00 + n */
	mov	x9, #0x5a00
	movk	x9, #0x5a5a, lsl #16
	movk	x9, #0x5a5a, lsl #32
	movk	x9, #0x5a5a, lsl #48
	.irp n, 19,20,21,22,23,24,25,26,27,28
	add	x\n, x9, #\n
	.endr
	/* vector patterns: every byte of vn = 0x40 + n */
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	movi	v\n\().16b, #(0x40 + \n)
	.endr

	ldr	x9, [sp, #168]
	mov	x0, x1
	mov	x1, x2
	mov	x2, x3
	mov	x3, x4
	blr	x9

	/* record the vector registers before anything touches them */
	ldr	x9, [sp, #160]
	str	x0, [x9, #0]
	add	x10, x9, #32
	st1	{v0.16b-v3.16b}, [x10], #64
	st1	{v4.16b-v7.16b}, [x10], #64
	st1	{v8.16b-v11.16b}, [x10], #64
	st1	{v12.16b-v15.16b}, [x10], #64
	st1	{v16.16b-v19.16b}, [x10], #64
	st1	{v20.16b-v23.16b}, [x10], #64
	st1	{v24.16b-v27.16b}, [x10], #64
	st1	{v28.16b-v31.16b}, [x10], #64

	/* callee-saved general-purpose registers */
	mov	x11, #0
	mov	x12, #0x5a00
	movk	x12, #0x5a5a, lsl #16
	movk	x12, #0x5a5a, lsl #32
	movk	x12, #0x5a5a, lsl #48
	.irp n, 19,20,21,22,23,24,25,26,27,28
	add	x13, x12, #\n
	cmp	x\n, x13
	cset	x13, ne
	orr	x11, x11, x13, lsl #\n
	.endr
	mov	x13, sp
	cmp	x13, x29
	cset	x13, ne
	orr	x11, x11, x13, lsl #29
	str	x11, [x9, #16]

	/* lowest changed painted byte */
	mov	x12, sp
	sub	x10, x12, #A64_PAINT
	mov	x13, #0
2:	cmp	x10, x12
	b.hs	3f
	ldrb	w14, [x10]
	cmp	w14, #A64_PAINT_BYTE
	b.ne	4f
	add	x10, x10, #1
	b	2b
4:	sub	x13, x12, x10
3:	str	x13, [x9, #8]

	/* restore (x29 from the frame: sp was checked equal to it) */
	mov	sp, x29
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldr	x0, [x9, #0]
	ldp	x29, x30, [sp], #176
	ret
	.size	a64_call_checked, .-a64_call_checked

	.section .note.GNU-stack,"",%progbits
