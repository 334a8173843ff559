/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_flush.h - one remote TLB flush (pv_ops.mmu.flush_tlb_multi) through
 * the verified core: hvipi_plan_flush() plans it and writes the input page,
 * hvipi_rep_call() issues it until every rep is done.  Shared by the module
 * (hvipi_flush.c, its self-test on the fake hypercall page) and the in-tree
 * drop-in (intree/hv_ipi_hvipi.c, for arch/x86/hyperv/mmu.c).
 *
 * What the core's contract needs of this caller (proofs/ASSUMPTIONS.md):
 *  - the masks and the VP table valid up to nr_cpu_ids (mask_valid,
 *    table_valid): cpumask_bits() of a struct cpumask, hv_vp_index checked
 *    at init as for IPIs;
 *  - the page this CPU's own, valid for page_size bytes, and nobody else
 *    writing it while the call is built and issued (page_valid,
 *    separated): interrupts are off from the fetch of the page to the last
 *    continuation, and no NMI-time send writes a page (the IPI glue never
 *    fetches one in NMI context);
 *  - present passed only when present_partition holds (as for IPIs: the
 *    ALL_PROCESSORS flag flushes every VP of the partition), and never
 *    when it is the target mask itself (separated_present): below;
 *  - the address space a CR3 value with bits 11:0 and 63 clear (space_cr3):
 *    __pa(mm->pgd) & CR3_ADDR_MASK, or 0 with HVIPI_FLUSH_OPT_ALL_SPACES;
 *  - rep_call for hvipi_rep_next(): the control word is the plan's
 *    (well_formed), then each rep_restart word.
 * The mask is read once (read_once), so a cpumask another CPU changes
 * meanwhile (mm_cpumask() during a context switch) gives one consistent
 * plan.
 */
#ifndef HVIPI_FLUSH_H
#define HVIPI_FLUSH_H

#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <asm/io.h>

#include "hvipi.h"
#include "hvipi_rep.h"

/*
 * The status hvipi_rep_call() returns for a rep call that made no progress:
 * HV_STATUS_INVALID_PARAMETER, a failure, so the caller flushes natively.
 */
#define HVIPI_FLUSH_BAD_REPS	0x5ull

/*
 * Plan and issue the flush of [@start, @end) (@opts: HVIPI_FLUSH_OPT_*,
 * @space: the address space, a CR3 value) on @cpus.  The caller derives
 * them from its struct flush_tlb_info (the in-tree drop-in,
 * hv_hvipi_flush_tlb_multi(); a module cannot see that struct: 6.1's
 * asm/tlbflush.h hides it under #ifndef MODULE).  Returns true when it is done
 * (the hypercall succeeded, or there was nothing to flush) and false when
 * the caller must flush natively.  The core decides: hvipi_flush_gate()
 * before anything is read (no VP table, no hypercall page, NMI context),
 * hvipi_page_ok() whether the planner gets the input page, and
 * hvipi_flush_path() and hvipi_path_done() what the plan then takes; this
 * function binds the kernel's facts to them and follows.  *@plan: the
 * plan (its reason the gate's when the gate refused), for tracing and
 * tests; *@calls: the hypercalls issued.
 */
static inline bool hvipi_flush_try(void *hcall_pg, void * __percpu *input_arg,
				   const struct cpumask *cpus,
				   const struct cpumask *present,
				   const u32 *vp_index, u32 vp_ident, u32 hints,
				   u32 page_size, u64 space, u64 start,
				   u64 end, u32 opts,
				   struct hvipi_flush_plan *plan,
				   unsigned int *calls)
{
	unsigned long flags;
	u64 *page = NULL, status = 0;
	u32 path;
	bool done;

	*calls = 0;
	plan->kind = HVIPI_FLUSH_FALLBACK;
	plan->reason = hvipi_flush_gate(vp_index && input_arg, hcall_pg,
					in_nmi());
	if (plan->reason != HVIPI_FB_NONE)
		return false;
	local_irq_save(flags);
	if (hvipi_page_ok(irqs_disabled(), in_nmi()))
		page = *this_cpu_ptr(input_arg);
	/* The planner loads each word once: never one mask as both. */
	if (present == cpus)
		present = NULL;
	hvipi_plan_flush(plan, cpumask_bits(cpus),
			 present ? cpumask_bits(present) : NULL, nr_cpu_ids,
			 vp_index, vp_ident, space, start, end, opts, hints,
			 page, page ? page_size : 0);
	path = hvipi_flush_path(plan->kind, hcall_pg, page, irqs_disabled(),
				in_nmi());
	if (path == HVIPI_PATH_MEM)
		status = hvipi_rep_call(hcall_pg, plan->control,
					virt_to_phys(page),
					HVIPI_FLUSH_BAD_REPS, calls);
	done = hvipi_path_done(path, status);
	local_irq_restore(flags);
	return done;
}

#endif /* HVIPI_FLUSH_H */
