/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_hcall.h - the three Hyper-V hypercall forms the IPI glue issues.
 *
 * Every form calls into the hypercall page through CALL_NOSPEC (a retpoline
 * thunk on kernels built with retpolines) and tells the compiler exactly what
 * the call touches:
 *
 *   in:   rcx = control word, rdx = 1st input (fast) or input page GPA,
 *         r8  = 2nd input (fast) or output page GPA (0: no output)
 *   out:  rax = hypervisor status
 *   lost: rcx, rdx, r8 (the hypervisor may change them, so they are in/out
 *         operands whose values after the call are discarded), r9, r10, r11,
 *         the flags ("cc"); xmm0..xmm5 for the XMM-fast form.
 *
 * "memory" is on every form, also on the fast ones that read no memory: it
 * is the compiler barrier that keeps the stores an IPI publishes (say, a
 * call-function-single entry) before the call that makes the target look
 * at them, and for the memory form it orders the input-page stores.
 *
 * ASM_CALL_CONSTRAINT makes the compiler set up the frame before the call
 * (objtool checks this).  The kernel is built with -mno-red-zone, so the
 * return address pushed by the call does not overwrite live stack data.
 *
 * The same text builds in userspace (usertest/) with shims for
 * CALL_NOSPEC, THUNK_TARGET and ASM_CALL_CONSTRAINT.
 */
#ifndef HVIPI_HCALL_H
#define HVIPI_HCALL_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>
#endif

/*
 * xmm0..xmm5 are clobbered by the XMM form.  Where the compiler may use SSE
 * registers (userspace, __SSE__ defined) they are named in the clobber
 * list (after r11: a macro may not start with a comma).  The kernel is
 * built with -mno-sse: the compiler never keeps a value in an xmm
 * register and refuses to hear of them in a clobber list;
 * the registers belong to the kernel_fpu_begin() section the caller holds,
 * which is what protects the task's user state.
 */
#ifdef __SSE__
#define HVIPI_XMM_CLOBBERS "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5"
#else
#define HVIPI_XMM_CLOBBERS "r11"
#endif

/* XMM-fast input: rdx, r8, then the 12 words of xmm0..xmm5. */
#define HVIPI_XMM_WORDS		12u

/*
 * Fast hypercall with two 64-bit register inputs: rdx = @in1, r8 = @in2.
 * @control must have the fast bit (16) set.
 */
static __always_inline u64 hvipi_hcall_fast(void *hcall_pg, u64 control,
					    u64 in1, u64 in2)
{
	register u64 r8_in asm("r8") = in2;
	u64 status;

	asm volatile(CALL_NOSPEC
		     : "=a" (status), ASM_CALL_CONSTRAINT,
		       "+c" (control), "+d" (in1), "+r" (r8_in)
		     : THUNK_TARGET(hcall_pg)
		     : "cc", "memory", "r9", "r10", "r11");
	return status;
}

/*
 * Memory-input hypercall: rdx = guest physical address of the input page
 * (8-byte aligned, not crossing a page), r8 = 0 (no output page).  The
 * registers are those of the fast form, so it is that form with r8 = 0.
 */
static __always_inline u64 hvipi_hcall_mem(void *hcall_pg, u64 control,
					   u64 input_gpa)
{
	return hvipi_hcall_fast(hcall_pg, control, input_gpa, 0);
}

/*
 * XMM-fast hypercall: rdx = @in1, r8 = @in2, then the 12 words at @xmm_in
 * (96 bytes, any alignment) in xmm0 (words 0, 1) .. xmm5 (words 10, 11).
 * @control must have the fast bit set.
 *
 * The caller owns the FPU: kernel_fpu_begin() (after may_use_simd()) must
 * be in effect, since the xmm registers may hold user state otherwise.
 * The loads and the call are one asm statement, so the compiler cannot put
 * anything between them; xmm0..xmm5 are clobbered.
 */
static __always_inline u64 hvipi_hcall_xmm(void *hcall_pg, u64 control,
					   u64 in1, u64 in2,
					   const u64 *xmm_in)
{
	register u64 r8_in asm("r8") = in2;
	u64 status;

	asm volatile("movdqu 0x00(%[xin]), %%xmm0\n\t"
		     "movdqu 0x10(%[xin]), %%xmm1\n\t"
		     "movdqu 0x20(%[xin]), %%xmm2\n\t"
		     "movdqu 0x30(%[xin]), %%xmm3\n\t"
		     "movdqu 0x40(%[xin]), %%xmm4\n\t"
		     "movdqu 0x50(%[xin]), %%xmm5\n\t"
		     CALL_NOSPEC
		     : "=a" (status), ASM_CALL_CONSTRAINT,
		       "+c" (control), "+d" (in1), "+r" (r8_in)
		     : THUNK_TARGET(hcall_pg), [xin] "r" (xmm_in),
		       "m" (*(const u64 (*)[HVIPI_XMM_WORDS])xmm_in)
		     : "cc", "memory", "r9", "r10", HVIPI_XMM_CLOBBERS);
	return status;
}

#endif /* HVIPI_HCALL_H */
