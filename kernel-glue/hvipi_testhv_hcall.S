/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_testhv_hcall.S - the hypercall page of the TEST hypervisor (test_hv=,
 * hvipi_testhv.c).  TEST ONLY: it runs inside this guest; no Hyper-V is
 * reached.
 *
 * Called like the real hypercall page (hvipi_hcall.h): rcx = control,
 * rdx = input (fast) or input GPA, r8 = input (fast) or 0, and for the
 * XMM-fast form xmm0..xmm5; the status returns in rax.  The glue's asm lets
 * the callee change rcx, rdx, r8..r11 and the flags, and nothing else.  A C
 * function may also change rsi and rdi, so they are saved here; the C code
 * is built with -mno-sse and never touches an xmm register, which this stub
 * only reads (stores to its own stack).
 *
 * hvipi_testhv_handle(control, rdx, r8, xmm_words[12]) decodes the call
 * and delivers the IPI; its u64 result is the status.
 */
#include <linux/linkage.h>

#define XMM_BYTES	96
#define FRAME		(XMM_BYTES + 8)	/* keeps rsp 16-byte aligned */

	.text
SYM_FUNC_START(hvipi_testhv_hcall)
	pushq	%rsi
	pushq	%rdi
	subq	$FRAME, %rsp
	movdqu	%xmm0, 0x00(%rsp)
	movdqu	%xmm1, 0x10(%rsp)
	movdqu	%xmm2, 0x20(%rsp)
	movdqu	%xmm3, 0x30(%rsp)
	movdqu	%xmm4, 0x40(%rsp)
	movdqu	%xmm5, 0x50(%rsp)
	movq	%rcx, %rdi
	movq	%rdx, %rsi
	movq	%r8, %rdx
	movq	%rsp, %rcx
	call	hvipi_testhv_handle
	addq	$FRAME, %rsp
	popq	%rdi
	popq	%rsi
	RET
SYM_FUNC_END(hvipi_testhv_hcall)
