/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recorder.S - a recording "hypercall page" for the userspace asm test.
 *
 * Records rcx, rdx, r8, xmm0..xmm5 and the value of hvipi_upub (a word the
 * caller stores just before the call: the "memory" clobber must keep that
 * store before the call) into hvipi_urec, counts the call, returns
 * hvipi_urec.status in rax, then trashes everything the hypercall ABI lets
 * the hypervisor change: rcx, rdx, r8, r9, r10, r11 and the flags; the _xmm
 * entry also trashes xmm0..xmm5.
 *
 * hvipi_urec: 0 rcx, 8 rdx, 16 r8, 24..119 xmm0..5, 120 calls, 128 status,
 *             136 pub.
 */
	.text

	.macro record
	movq	%rcx, hvipi_urec+0(%rip)
	movq	%rdx, hvipi_urec+8(%rip)
	movq	%r8, hvipi_urec+16(%rip)
	movdqu	%xmm0, hvipi_urec+24(%rip)
	movdqu	%xmm1, hvipi_urec+40(%rip)
	movdqu	%xmm2, hvipi_urec+56(%rip)
	movdqu	%xmm3, hvipi_urec+72(%rip)
	movdqu	%xmm4, hvipi_urec+88(%rip)
	movdqu	%xmm5, hvipi_urec+104(%rip)
	incq	hvipi_urec+120(%rip)
	movq	hvipi_upub(%rip), %rax
	movq	%rax, hvipi_urec+136(%rip)
	movq	hvipi_urec+128(%rip), %rax
	movabsq	$0xdeadbeef00000001, %rcx
	movabsq	$0xdeadbeef00000002, %rdx
	movabsq	$0xdeadbeef00000008, %r8
	movabsq	$0xdeadbeef00000009, %r9
	movabsq	$0xdeadbeef0000000a, %r10
	movabsq	$0xdeadbeef0000000b, %r11
	cmpq	%r9, %r10		/* flags: ZF=0, CF=0 ... */
	.endm

	.globl	hvipi_rec_hcall
	.type	hvipi_rec_hcall, @function
hvipi_rec_hcall:
	record
	ret
	.size	hvipi_rec_hcall, .-hvipi_rec_hcall

	.globl	hvipi_rec_hcall_xmm
	.type	hvipi_rec_hcall_xmm, @function
hvipi_rec_hcall_xmm:
	record
	pcmpeqd	%xmm0, %xmm0		/* all ones */
	pcmpeqd	%xmm1, %xmm1
	pcmpeqd	%xmm2, %xmm2
	pcmpeqd	%xmm3, %xmm3
	pcmpeqd	%xmm4, %xmm4
	pcmpeqd	%xmm5, %xmm5
	ret
	.size	hvipi_rec_hcall_xmm, .-hvipi_rec_hcall_xmm

	.section .note.GNU-stack,"",@progbits
