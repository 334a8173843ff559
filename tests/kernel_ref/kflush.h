/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kflush: what the flush_gva_ref harness and the kernel side share.  The
 * kernel side is Linux 6.1's arch/x86/hyperv/mmu.c, compiled unchanged
 * against the headers of shim/ by kflush_mmu.c (which includes it, so that
 * its static functions can be reached), with kref_env.c's globals and
 * hypercall recorder.  Plain C types only, as kref.h.
 */
#ifndef KFLUSH_H
#define KFLUSH_H

#include <stdbool.h>
#include <stdint.h>

#include "kref.h"

/* The call codes of 6.1's hyperv-tlfs.h (checked in kflush_mmu.c). */
#define KFLUSH_SPACE		0x0002u
#define KFLUSH_LIST		0x0003u
#define KFLUSH_SPACE_EX		0x0013u
#define KFLUSH_LIST_EX		0x0014u

/* What one pv_ops.mmu.flush_tlb_multi() call did. */
struct kflush_call {
	unsigned int nr_hcalls;		/* hypercalls issued (the rep loop's too) */
	uint64_t control;		/* the first one's control word */
	unsigned int nr_native;		/* native_flush_tlb_multi() calls */
};

/* mmu.c's static fill_gva_list(gva_list, offset, start, end), called as is. */
int kflush_fill_gva_list(uint64_t *gva_list, int offset, unsigned long start,
			 unsigned long end);

/*
 * kref_env_set(@e), then the remote-flush hint set in ms_hyperv.hints and
 * mmu.c's hyperv_setup_mmu_ops() run; every hypercall succeeds with all
 * its reps done (status 0xfff << 32).  Returns whether it installed
 * hyperv_flush_tlb_multi as pv_ops.mmu.flush_tlb_multi.
 */
bool kflush_setup(const struct kref_env *e);

/*
 * pv_ops.mmu.flush_tlb_multi(@cpus, info) with info = { mm (a fixed one
 * when @with_mm, else NULL), @start, @end }; what it did in *@out.
 */
void kflush_multi(const struct cpumask *cpus, bool with_mm,
		  unsigned long start, unsigned long end,
		  struct kflush_call *out);

/* The address space word an info with an mm carries (its pgd & CR3 mask). */
uint64_t kflush_mm_space(void);

#endif /* KFLUSH_H */
