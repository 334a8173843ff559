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
#include <linux/mm.h>
#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <asm/fpu/api.h>
#include <asm/io.h>
#include <asm/mshyperv.h>
#include <asm/simd.h>
#include <asm/tlbflush.h>

#include "hvipi.h"
#include "hvipi_assume.h"
#include "hvipi_flush.h"
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
	case HVIPI_PLAN_EX_SPARSE:
	case HVIPI_PLAN_EX_ALL:
		/* the core plans these only with a page; never pass GPA 0 */
		if (unlikely(!page))
			return HV_STATUS_INVALID_HYPERCALL_CODE;
		return hvipi_hcall_mem(hv_hypercall_pg, plan->control,
				       virt_to_phys(page));
	default:
		/* not a hypercall plan: fail closed, the caller falls back */
		return HV_STATUS_INVALID_HYPERCALL_CODE;
	}
}

/*
 * Set once by hv_hvipi_init() (from hv_apic_init(), before the ops are
 * installed): the VP table can be indexed up to nr_cpu_ids.  Until then,
 * or when it is not, every send falls back to the native APIC.
 */
static bool hv_hvipi_ready __ro_after_init;

/*
 * present_partition: the present mask handed to the core, cpu_present_mask
 * or NULL (then the core never uses the Ex "all" format, which interrupts
 * every VP of the partition, and sends a sparse VP set instead).  Set by
 * hv_hvipi_init() with the module's check (hvipi_partition_blocker(),
 * hvipi_assume.h): present == possible == nr_cpu_ids CPUs and as many
 * enabled processors, and no online-capable one, in the ACPI MADT.  At
 * hv_apic_init() time (x86_platform.apic_post_init, from late_time_init)
 * acpi_early_init() has run and the MADT has been parsed (acpi_boot_init()
 * in setup_arch()), so acpi_get_table() can map it.  The MADT count, not
 * Linux's own num_processors/disabled_cpus, because Linux drops some
 * entries without counting them (e.g. x2APIC IDs the APIC driver cannot
 * use), and those are exactly VPs the kernel did not bring up.
 */
static const struct cpumask *hv_hvipi_present __ro_after_init;

/* vp_injective scratch (512 bytes), boot only. */
static __initdata DECLARE_BITMAP(hv_hvipi_vp_seen, HVIPI_VP_LIMIT);

bool __init hv_hvipi_init(void)
{
	struct hvipi_madt_cpus c;
	const char *why;
	u32 a, b, vp;

	if (!hv_hypercall_pg || !hv_vp_index) {
		pr_warn("Hyper-V: hvipi: no hypercall page or VP index table: native IPIs\n");
		return false;
	}
	/*
	 * hv_vp_index has num_possible_cpus() entries but is indexed by CPU
	 * id, and the core reads it up to nr_cpu_ids (facts 5.8): with sparse
	 * possible CPU ids it is shorter than that.  Same check as the module
	 * (hvipi_switch.c, hvipi_switch_blocker()).
	 */
	if (num_possible_cpus() != nr_cpu_ids) {
		pr_warn("Hyper-V: hvipi: possible CPU ids are sparse (%u possible, nr_cpu_ids %u): hv_vp_index is shorter than nr_cpu_ids; native IPIs\n",
			num_possible_cpus(), nr_cpu_ids);
		return false;
	}
	/*
	 * vp_injective(hv_vp_index, nr_cpu_ids) for the entries known now (at
	 * hv_apic_init() only the boot CPU's; VP_INVAL and VPs >= 4096 are
	 * skipped).  Entries hv_cpu_init() fills in later, as the other CPUs
	 * come up, are trusted to be distinct: Hyper-V gives each VP its own
	 * index.
	 */
	if (!hvipi_vp_injective(hv_vp_index, nr_cpu_ids, hv_hvipi_vp_seen,
				&a, &b, &vp)) {
		pr_warn("Hyper-V: hvipi: CPUs %u and %u both have VP %u in hv_vp_index (vp_injective does not hold); native IPIs\n",
			a, b, vp);
		return false;
	}
	why = hvipi_partition_blocker(&c);
	hv_hvipi_present = why ? NULL : cpu_present_mask;
	if (why)
		pr_info("Hyper-V: hvipi: Ex \"all\" format off, sparse VP sets only: %s (present %u, possible %u, nr_cpu_ids %u; MADT %s: %u enabled, %u online-capable)\n",
			why, num_present_cpus(), num_possible_cpus(),
			nr_cpu_ids, c.read ? "read" : "not read", c.enabled,
			c.online_capable);
	hv_hvipi_ready = true;
	hv_hvipi_vp_index_changed();
	return true;
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

	if (!READ_ONCE(hv_hvipi_ready) || !hv_hypercall_pg || !hv_vp_index)
		return false;

	local_irq_save(flags);
	/*
	 * The hints with interrupts off: whether this context may use the FPU
	 * (may_use_simd(), for the XMM-input hint) must be the answer for the
	 * CPU and context that then issues the call, as in the module.
	 */
	hints = hv_hvipi_hints();
	/*
	 * An NMI (vector 2) or any vector the core rejects: no page access.
	 * Nor in NMI context: an NMI may hit between an interrupted send's
	 * page write and its hypercall, and an IPI sent by the NMI handler
	 * (irq_work_queue() -> send_IPI_self) would overwrite that input.
	 * Without a page the core plans FAST or falls back (NO_PAGE).
	 */
	if (vector >= (int)HVIPI_VECTOR_MIN && vector <= (int)HVIPI_VECTOR_MAX &&
	    !in_nmi() && hyperv_pcpu_input_arg)
		page = *this_cpu_ptr(hyperv_pcpu_input_arg);
	if (mask)
		hvipi_plan_mask(&plan, cpumask_bits(mask),
				hv_hvipi_present ?
				cpumask_bits(hv_hvipi_present) : NULL,
				nr_cpu_ids,
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

/*
 * The remote TLB flush, for arch/x86/hyperv/mmu.c: the body of
 * hyperv_flush_tlb_multi() becomes
 *
 *	if (!hv_hvipi_flush_tlb_multi(cpus, info))
 *		native_flush_tlb_multi(cpus, info);
 *
 * (kernel-glue/README.md, "In-tree drop-in").  The flush_tlb_info maps to
 * the core's explicit inputs: no mm, every address space (address space
 * 0); the mm's page-table root as a CR3 value (physical address of pgd,
 * CR3_ADDR_MASK: no PCID bits, no NOFLUSH bit, as 6.1 sends it);
 * TLB_FLUSH_ALL, the whole space (the core never reads end as a sentinel);
 * freed page tables, global mappings too (no NON_GLOBAL_MAPPINGS_ONLY:
 * stronger than 6.1, which ignores freed_tables).  Same readiness, VP
 * table, identity prefix and present mask as the IPIs above.
 */
bool hv_hvipi_flush_tlb_multi(const struct cpumask *cpus,
			      const struct flush_tlb_info *info)
{
	struct hvipi_flush_plan plan;
	unsigned int calls;
	u32 opts = 0, hints = 0;
	u64 space = 0;

	if (!READ_ONCE(hv_hvipi_ready))
		return false;
	if (info->mm)
		space = __pa(info->mm->pgd) & CR3_ADDR_MASK;
	else
		opts |= HVIPI_FLUSH_OPT_ALL_SPACES;
	if (info->end == TLB_FLUSH_ALL)
		opts |= HVIPI_FLUSH_OPT_WHOLE;
	if (info->freed_tables)
		opts |= HVIPI_FLUSH_OPT_GLOBAL;
	if (ms_hyperv.hints & HV_X64_REMOTE_TLB_FLUSH_RECOMMENDED)
		hints |= HVIPI_HINT_REMOTE_FLUSH;
	if (ms_hyperv.hints & HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED)
		hints |= HVIPI_HINT_EX_MASKS;
	return hvipi_flush_try(hv_hypercall_pg, hyperv_pcpu_input_arg, cpus,
			       hv_hvipi_present, hv_vp_index,
			       READ_ONCE(hv_hvipi_vp_ident), hints,
			       HV_HYP_PAGE_SIZE, space, info->start, info->end,
			       opts, &plan, &calls);
}
