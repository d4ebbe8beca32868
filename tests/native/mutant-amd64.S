/* mutant-amd64.S - a deliberately wrong routine for the native check's own
 * test (test code only; run with --mutant): it writes below its entry stack
 * pointer like the real routines (a pushed register, a frame aligned down to
 * 32 bytes) but reports 8 bytes less than it wrote.  The depth probe must
 * fail it at every stack alignment.
 *
 *   unsigned int asmcheck_mutant_underreports(void);
 */
#include "asm-common-amd64.h"

GCRY_FUNC_BEGIN(asmcheck_mutant_underreports)
	push	%rbx
	mov	%rsp, %rdx		/* entry rsp - 8 */
	and	$-32, %rsp
	sub	$32, %rsp
	movq	$1, (%rsp)		/* the bottom of the frame */
	lea	8(%rdx), %rax
	sub	%rsp, %rax		/* what it wrote below its entry rsp */
	sub	$8, %rax		/* the bug: 8 bytes short */
	mov	%rdx, %rsp
	pop	%rbx
	ret
GCRY_FUNC_END(asmcheck_mutant_underreports)
