/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_fake_hcall.S - a FAKE hypercall page for the self-test.
 *
 * Called exactly like the real hypercall page.  It records rcx, rdx, r8 and
 * xmm0..xmm5 into hvipi_fake_rec, counts the call, returns the status the
 * test chose in rax (then adds the test's step to it, so that a rep call's
 * "reps completed" can grow from call to call), and then trashes every
 * general register the hypercall
 * ABI lets the hypervisor change (rcx, rdx, r8..r11), so a caller whose
 * clobber list is short of one would be caught.  It only reads the xmm
 * registers: outside kernel_fpu_begin() they may hold user state.
 *
 * Layout of hvipi_fake_rec (see struct hvipi_fake_rec in hvipi_test.h):
 *   0 rcx, 8 rdx, 16 r8, 24..119 xmm0..xmm5, 120 calls, 128 status,
 *   136 step (added to status after each call; 0 but in the rep tests).
 */
#include <linux/linkage.h>

	.text
SYM_FUNC_START(hvipi_fake_hcall)
	movq	%rcx, hvipi_fake_rec+0(%rip)
	movq	%rdx, hvipi_fake_rec+8(%rip)
	movq	%r8, hvipi_fake_rec+16(%rip)
	movdqu	%xmm0, hvipi_fake_rec+24(%rip)
	movdqu	%xmm1, hvipi_fake_rec+40(%rip)
	movdqu	%xmm2, hvipi_fake_rec+56(%rip)
	movdqu	%xmm3, hvipi_fake_rec+72(%rip)
	movdqu	%xmm4, hvipi_fake_rec+88(%rip)
	movdqu	%xmm5, hvipi_fake_rec+104(%rip)
	incq	hvipi_fake_rec+120(%rip)
	movq	hvipi_fake_rec+128(%rip), %rax
	movq	hvipi_fake_rec+136(%rip), %r9
	addq	%r9, hvipi_fake_rec+128(%rip)
	movq	$0x5a5a5a5a00000001, %rcx
	movq	$0x5a5a5a5a00000002, %rdx
	movq	$0x5a5a5a5a00000008, %r8
	movq	$0x5a5a5a5a00000009, %r9
	movq	$0x5a5a5a5a0000000a, %r10
	movq	$0x5a5a5a5a0000000b, %r11
	RET
SYM_FUNC_END(hvipi_fake_hcall)
