// SPDX-License-Identifier: GPL-2.0-only
/*
 * hv_ipi_hvipi.c - drop-in for the IPI send functions of
 * arch/x86/hyperv/hv_apic.c: plan with the verified hvipi core
 * (hvipi.c, unchanged), issue the hypercall with hvipi_hcall.h.
 *
 * hv_apic.c keeps its hv_send_ipi*() wrappers, its trace events, its
 * orig_apic fallback and hv_apic_init() (which installs the ops at boot,
 * before struct apic becomes read-only); only the bodies of
 * __send_ipi_mask() and __send_ipi_one() become calls to the functions
 * below (see kernel-glue/README.md, "In-tree drop-in").
 */
#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/fpu/api.h>
#include <asm/io.h>
#include <asm/mshyperv.h>
#include <asm/simd.h>

#include "hvipi.h"
#include "hvipi_hcall.h"
#include "hv_ipi_hvipi.h"

/* XMM-fast Ex stays off unless asked for (hv_hvipi_xmm=1 on the command line). */
static bool hv_hvipi_xmm __read_mostly;
core_param(hv_hvipi_xmm, hv_hvipi_xmm, bool, 0444);

/*
 * The hints for this send.  The XMM-input hint, which lets the core plan
 * HVIPI_PLAN_EX_XMM, is kept only when XMM-fast is asked for, advertised,
 * and this context may use the FPU (never in NMI context).
 */
static u32 hv_hvipi_hints(void)
{
	u32 hints = 0;

	if (ms_hyperv.hints & HV_X64_CLUSTER_IPI_RECOMMENDED)
		hints |= HVIPI_HINT_CLUSTER_IPI;
	if (ms_hyperv.hints & HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED)
		hints |= HVIPI_HINT_EX_MASKS;
	if (hv_hvipi_xmm &&
	    (ms_hyperv.misc_features & HV_X64_HYPERCALL_XMM_INPUT_AVAILABLE) &&
	    !in_nmi() && may_use_simd())
		hints |= HVIPI_HINT_XMM_INPUT;
	return hints;
}

static u64 hv_hvipi_issue(const struct hvipi_plan *plan, u64 *page)
{
	u64 status;

	switch (plan->kind) {
	case HVIPI_PLAN_FAST:
		return hvipi_hcall_fast(hv_hypercall_pg, plan->control,
					plan->rdx, plan->r8);
	case HVIPI_PLAN_EX_XMM:
		kernel_fpu_begin();
		status = hvipi_hcall_xmm(hv_hypercall_pg, plan->control,
					 plan->rdx, plan->r8, &plan->input[2]);
		kernel_fpu_end();
		return status;
	default:
		return hvipi_hcall_mem(hv_hypercall_pg, plan->control,
				       virt_to_phys(page));
	}
}

/*
 * CPUs below this are their own VPs (hvipi_plan_mask()'s vp_ident).  An
 * hv_vp_index entry only changes from VP_INVAL to its CPU's VP, so a
 * prefix once found stays valid; hv_hvipi_vp_index_changed() extends it.
 */
static u32 hv_hvipi_vp_ident;

void hv_hvipi_vp_index_changed(void)
{
	if (hv_vp_index)
		WRITE_ONCE(hv_hvipi_vp_ident,
			   hvipi_vp_ident(hv_vp_index, nr_cpu_ids));
}

/* @mask NULL: the single CPU @cpu. */
static bool hv_hvipi_send(const struct cpumask *mask, int cpu, int vector,
			  bool exclude_self)
{
	struct hvipi_plan plan;
	unsigned long flags;
	u64 status = 0;
	u64 *page = NULL;
	u32 hints;

	if (!hv_hypercall_pg || !hv_vp_index)
		return false;
	hints = hv_hvipi_hints();

	local_irq_save(flags);
	/* An NMI (vector 2) or any vector the core rejects: no page access. */
	if (vector >= (int)HVIPI_VECTOR_MIN && vector <= (int)HVIPI_VECTOR_MAX &&
	    hyperv_pcpu_input_arg)
		page = *this_cpu_ptr(hyperv_pcpu_input_arg);
	if (mask)
		hvipi_plan_mask(&plan, cpumask_bits(mask),
				cpumask_bits(cpu_present_mask), nr_cpu_ids,
				hv_vp_index, READ_ONCE(hv_hvipi_vp_ident),
				smp_processor_id(), exclude_self,
				(u32)vector, hints, page,
				page ? HV_HYP_PAGE_SIZE : 0);
	else
		hvipi_plan_one(&plan, (u32)cpu, nr_cpu_ids, hv_vp_index,
			       (u32)vector, hints, page,
			       page ? HV_HYP_PAGE_SIZE : 0);
	if (plan.kind != HVIPI_PLAN_NONE && plan.kind != HVIPI_PLAN_FALLBACK)
		status = hv_hvipi_issue(&plan, page);
	local_irq_restore(flags);

	return plan.kind == HVIPI_PLAN_NONE ||
	       (plan.kind != HVIPI_PLAN_FALLBACK && hvipi_status_ok(status));
}

bool hv_hvipi_send_mask(const struct cpumask *mask, int vector,
			bool exclude_self)
{
	return hv_hvipi_send(mask, 0, vector, exclude_self);
}

bool hv_hvipi_send_one(int cpu, int vector)
{
	return hv_hvipi_send(NULL, cpu, vector, false);
}
