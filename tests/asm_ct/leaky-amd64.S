/* leaky-amd64.S - deliberately leaky routines for the static constant-time
 * check's own test (tests/test_asm_ct.py; test code only, never built into
 * the package).  Each leaky instruction is preceded by a label
 * planted_<what>: the check must report exactly those instructions, one
 * finding each, and nothing in ct_decoys, whose every line looks like a
 * leak to a careless analysis but is constant time.
 *
 * Arguments as in the real routines: rdi and rsi point to secret memory.
 */
#include "asm-common-amd64.h"

GCRY_FUNC_BEGIN(leaky_branch_on_key_bit)
	mov	(%rdi), %eax
	test	$1, %al
planted_branch_on_key_bit:
	jnz	1f
	xor	%eax, %eax
1:	ret
GCRY_FUNC_END(leaky_branch_on_key_bit)

GCRY_FUNC_BEGIN(leaky_table_lookup)
	movzbl	(%rsi), %eax
planted_table_indexed_by_data:
	mov	(%rdi,%rax,4), %eax
	ret
GCRY_FUNC_END(leaky_table_lookup)

GCRY_FUNC_BEGIN(leaky_vector_word_as_address)
	vmovdqu	(%rsi), %xmm0
	vmovd	%xmm0, %ecx
	and	$0xff, %ecx
planted_vmovd_word_as_index:
	movzbl	(%rdi,%rcx), %eax
	vzeroall
	ret
GCRY_FUNC_END(leaky_vector_word_as_address)

GCRY_FUNC_BEGIN(leaky_kortest_branch)
	vmovdqu32 (%rsi), %zmm0
	vpcmpeqd (%rdi), %zmm0, %k1
	kortestw %k1, %k1
	mov	$1, %eax
planted_branch_on_kortest:
	jz	1f
	xor	%eax, %eax
1:	vzeroall
	ret
GCRY_FUNC_END(leaky_kortest_branch)

GCRY_FUNC_BEGIN(leaky_flags_into_address)
	mov	(%rsi), %rax
	cmp	(%rdi), %rax
	setb	%al
	movzbl	%al, %eax
planted_setcc_as_index:
	mov	(%rdi,%rax,8), %rax
	ret
GCRY_FUNC_END(leaky_flags_into_address)

GCRY_FUNC_BEGIN(leaky_secret_shift_counts)
	mov	(%rdi), %ecx
	mov	$1, %eax
planted_shift_by_secret_cl:
	shl	%cl, %rax
	mov	(%rsi), %rdx
planted_shlx_by_secret_count:
	shlx	%rdx, %rax, %rax
	ret
GCRY_FUNC_END(leaky_secret_shift_counts)

GCRY_FUNC_BEGIN(leaky_div_of_secret)
	mov	(%rdi), %rax
	xor	%edx, %edx
	mov	$7, %ecx
planted_div_of_secret:
	div	%rcx
	ret
GCRY_FUNC_END(leaky_div_of_secret)

GCRY_FUNC_BEGIN(leaky_gather)
	vmovdqu32 (%rsi), %zmm1
	mov	$0xffff, %eax
	kmovw	%eax, %k1
planted_gather_with_secret_index:
	vpgatherdd (%rdi,%zmm1,4), %zmm0{%k1}
	vzeroall
	ret
GCRY_FUNC_END(leaky_gather)

/* A secret spilled to a realigned frame and reloaded is still secret; the
 * public pointer spilled beside it is still public (its use below is no
 * finding), and so is the vector spilled above both. */
GCRY_FUNC_BEGIN(leaky_spilled_secret)
	push	%rbp
	mov	%rsp, %rbp
	and	$-32, %rsp
	sub	$64, %rsp
	mov	%rdi, 8(%rsp)
	mov	(%rsi), %rax
	mov	%rax, 16(%rsp)
	vmovdqu	(%rsi), %ymm0
	vmovdqa	%ymm0, 32(%rsp)
	mov	8(%rsp), %rdx
	mov	16(%rsp), %rcx
planted_spilled_secret_as_index:
	mov	(%rdx,%rcx), %eax
	mov	(%rdx), %eax
	mov	%rbp, %rsp
	pop	%rbp
	vzeroall
	ret
GCRY_FUNC_END(leaky_spilled_secret)

GCRY_FUNC_BEGIN(leaky_rep_and_indirect)
	mov	(%rdi), %rcx
	mov	%rsi, %rdi
planted_rep_with_secret_count:
	rep stosb
	mov	(%rsi), %rax
planted_jump_through_secret:
	jmp	*%rax
GCRY_FUNC_END(leaky_rep_and_indirect)

GCRY_FUNC_BEGIN(leaky_unclassified)
	mov	(%rdi), %rax
planted_unclassified_mnemonic:
	bsf	%rax, %rax
	ret
GCRY_FUNC_END(leaky_unclassified)

/* The helper branches on eax: a leak when called with a secret (here), none
 * when called with a public value (ct_decoys). */
GCRY_FUNC_BEGIN(leaky_calls_helper)
	mov	(%rdi), %eax
	call	branch_on_eax
	ret
branch_on_eax:
	test	%eax, %eax
planted_branch_in_called_helper:
	jnz	1f
	xor	%eax, %eax
1:	ret
GCRY_FUNC_END(leaky_calls_helper)

GCRY_FUNC_BEGIN(ct_decoys)
	push	%rbx
	sub	$32, %rsp
	mov	%rsi, (%rsp)		/* a public pointer on the stack */
	movq	$16, 8(%rsp)		/* a public count */
	mov	(%rdi), %rax		/* a secret ... */
	mov	%rax, 16(%rsp)
	xor	%rax, %rax		/* ... forgotten: the zeroing idiom */
	mov	(%rsp), %rbx
	add	8(%rsp), %rbx
	mov	(%rbx,%rax,8), %rdx	/* public base and index */
	cmp	$0, %rdx		/* secret flags, used without a branch */
	cmovne	16(%rsp), %rdx
	adc	$0, %rdx
	vmovdqu	(%rdi), %ymm0
	vpsllvd	%ymm0, %ymm0, %ymm1	/* variable vector shifts are constant time */
	mulx	%rdx, %r8, %r9		/* and so are multiplies of secrets */
	imul	%r8, %r9
	mov	%rsp, %rax
	lea	32(%rsp), %rcx
	sub	%rax, %rcx		/* a public difference of stack pointers */
	mov	%ecx, %eax
	test	%rcx, %rcx
	jz	1f
	call	branch_on_eax		/* public eax: no leak in the helper */
1:	add	$32, %rsp
	pop	%rbx
	vzeroall
	ret
GCRY_FUNC_END(ct_decoys)
