// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_switch.c - what the module needs to decide on and do the APIC
 * switch: may struct apic be written, does the VP table satisfy
 * vp_injective, is the present mask the partition (present_partition),
 * the hints, the live context with input pages of its own, and
 * reading/writing the six ops.  Used by hvipi_main.c and,
 * through hvipi_switch.h, by the live tests and the test hypervisor.
 */
#define pr_fmt(fmt) "hvipi: " fmt

#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/percpu.h>
#include <linux/pgtable.h>
#include <linux/string.h>
#include <linux/version.h>
#include <asm/apic.h>
#include <asm/hypervisor.h>
#include <asm/mshyperv.h>
#include <asm/pgtable_types.h>

#include "hvipi_assume.h"
#include "hvipi_glue.h"
#include "hvipi_switch.h"

/*
 * Since Linux 6.6 the APIC callbacks are static calls (apic_call_send_IPI*
 * in arch/x86/kernel/apic/init.c), patched from struct apic at boot and by
 * apic_update_callback(), both __init; only the trampolines are exported.
 * Writing the function pointers in struct apic from a module then changes
 * nothing: IPIs keep going through the boot-time targets.  asm/apic.h
 * defines DECLARE_APIC_CALL exactly on such kernels; the version test is a
 * second guard should the macro move.
 */
#if defined(DECLARE_APIC_CALL) || LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define HVIPI_APIC_STATIC_CALLS	1
#else
#define HVIPI_APIC_STATIC_CALLS	0
#endif

/* NULL when writing struct apic switches the IPI ops, else why not. */
const char *hvipi_static_call_blocker(void)
{
	if (HVIPI_APIC_STATIC_CALLS)
		return "this kernel (>= 6.6) sends IPIs through static calls patched from struct apic at boot: writing struct apic from a module would change nothing; use the in-tree drop-in (kernel-glue/intree)";
	return NULL;
}

/* Is the page holding @addr mapped writable in the kernel page tables? */
bool hvipi_kernel_writable(const void *addr)
{
	unsigned int level;
	pte_t *pte = lookup_address((unsigned long)addr, &level);

	return pte && pte_present(*pte) && pte_write(*pte);
}

/*
 * vp_injective(hv_vp_index, nr_cpu_ids) for the entries known at switch
 * time (every CPU that has been up has its entry; VP_INVAL entries are
 * skipped, and so are entries >= 4096, which the core never sends).
 * Entries filled in later, by hv_cpu_init() on a CPU coming up, are
 * trusted to be distinct: Hyper-V gives each VP its own index.  NULL when
 * no two CPUs share a VP, else why the switch is refused (also logged,
 * with the CPUs, as a warning).  Scratch: 512 bytes, static, used only
 * from module init (serialized).
 */
static DECLARE_BITMAP(hvipi_vp_seen, HVIPI_VP_LIMIT);

static const char *hvipi_vp_table_blocker(const u32 *table)
{
	u32 a, b, vp;

	if (hvipi_vp_injective(table, nr_cpu_ids, hvipi_vp_seen, &a, &b, &vp))
		return NULL;
	pr_warn("hv_vp_index: CPUs %u and %u both have VP %u; the verified core's no-other-CPU guarantee needs distinct VPs (vp_injective): not switching\n",
		a, b, vp);
	return "two CPUs share a VP in hv_vp_index (vp_injective does not hold)";
}

/*
 * present_partition: pass cpu_present_mask to the core (which then may use
 * the Ex "all" format, HV_GENERIC_SET_ALL: every VP of the partition) only
 * when the present CPUs are exactly the partition's processors:
 * num_present_cpus() == num_possible_cpus() == nr_cpu_ids, and the ACPI
 * MADT lists num_present_cpus() enabled processors and no online-capable
 * ones (hvipi_partition_blocker(), hvipi_assume.h).  Otherwise NULL: the
 * core never plans "all", a sparse VP set instead (always correct).
 * Decided once (at module init, before the self-test's live tests and the
 * switch), logged once.
 */
static bool hvipi_present_decided, hvipi_present_ok;

bool hvipi_present_is_partition(void)
{
	struct hvipi_madt_cpus c;
	const char *why;

	if (hvipi_present_decided)
		return hvipi_present_ok;
	why = hvipi_partition_blocker(&c);
	hvipi_present_ok = !why;
	hvipi_present_decided = true;
	if (why && !c.read)
		pr_info("Ex \"all\" format (HV_GENERIC_SET_ALL) off, sparse VP sets only: %s (present %u, possible %u, nr_cpu_ids %u; MADT not read)\n",
			why, num_present_cpus(), num_possible_cpus(),
			nr_cpu_ids);
	else if (why)
		pr_info("Ex \"all\" format (HV_GENERIC_SET_ALL) off, sparse VP sets only: %s (present %u, possible %u, nr_cpu_ids %u; MADT processors: %u enabled, %u online-capable, %u disabled)\n",
			why, num_present_cpus(), num_possible_cpus(),
			nr_cpu_ids, c.enabled, c.online_capable, c.disabled);
	else
		pr_info("Ex \"all\" format (HV_GENERIC_SET_ALL) on: the %u present CPUs are the partition's processors (possible %u, nr_cpu_ids %u; MADT: %u enabled, %u online-capable, %u disabled)\n",
			num_present_cpus(), num_possible_cpus(), nr_cpu_ids,
			c.enabled, c.online_capable, c.disabled);
	return hvipi_present_ok;
}

/* The present mask for the live context: cpu_present_mask or NULL. */
const struct cpumask *hvipi_live_present(void)
{
	return hvipi_present_is_partition() ? cpu_present_mask : NULL;
}

/* NULL when the switch can be done, else why not. */
const char *hvipi_switch_blocker(void)
{
	const char *why;

	if (!hypervisor_is_type(X86_HYPER_MS_HYPERV))
		return "not a Hyper-V guest";
	if (!(ms_hyperv.hints & HV_X64_CLUSTER_IPI_RECOMMENDED))
		return "CPUID 0x40000004 EAX bit 10 (cluster IPI recommended) is clear";
	if (!hv_hypercall_pg)
		return "no hypercall page";
	if (!hv_vp_index)
		return "no VP index table";
	/* Linux's ops, the fallback, need them (the glue has its own) */
	if (!hyperv_pcpu_input_arg)
		return "no per-CPU input pages (hyperv_pcpu_input_arg)";
	/*
	 * hv_vp_index is allocated with num_possible_cpus() entries but is
	 * indexed by CPU id; the core reads it up to nr_cpu_ids (facts 5.8).
	 */
	if (num_possible_cpus() != nr_cpu_ids)
		return "possible CPU ids are sparse: hv_vp_index is shorter than nr_cpu_ids";
	why = hvipi_vp_table_blocker(hv_vp_index);
	if (why)
		return why;
	if (!apic)
		return "no APIC driver";
	if (!hvipi_kernel_writable(apic))
		return "struct apic is read-only (__ro_after_init) once the kernel has booted: use the in-tree drop-in (kernel-glue/intree), or boot with rodata=off";
	return NULL;
}

void hvipi_read_ops(struct hvipi_ops *ops)
{
	ops->send_IPI = apic->send_IPI;
	ops->send_IPI_mask = apic->send_IPI_mask;
	ops->send_IPI_mask_allbutself = apic->send_IPI_mask_allbutself;
	ops->send_IPI_allbutself = apic->send_IPI_allbutself;
	ops->send_IPI_all = apic->send_IPI_all;
	ops->send_IPI_self = apic->send_IPI_self;
}

void hvipi_write_ops(const struct hvipi_ops *ops)
{
	WRITE_ONCE(apic->send_IPI, ops->send_IPI);
	WRITE_ONCE(apic->send_IPI_mask, ops->send_IPI_mask);
	WRITE_ONCE(apic->send_IPI_mask_allbutself, ops->send_IPI_mask_allbutself);
	WRITE_ONCE(apic->send_IPI_allbutself, ops->send_IPI_allbutself);
	WRITE_ONCE(apic->send_IPI_all, ops->send_IPI_all);
	WRITE_ONCE(apic->send_IPI_self, ops->send_IPI_self);
}

/* Free @pages (alloc_percpu() of page pointers, some possibly NULL). */
static void hvipi_pages_free(void * __percpu *pages)
{
	int cpu;

	if (!pages)
		return;
	for_each_possible_cpu(cpu)
		free_page((unsigned long)*per_cpu_ptr(pages, cpu));
	free_percpu(pages);
}

/*
 * The live context's input pages are the module's own, never Linux's
 * hyperv_pcpu_input_arg.  A send from NMI context plans without a page and
 * may fall back to the original op, which on Hyper-V is Linux's
 * hv_send_ipi*(): for a VP >= 64 it writes its Ex input into
 * hyperv_pcpu_input_arg.  Were that the glue's page too, an NMI hitting a
 * send between the core's page write and the hypercall would overwrite
 * the interrupted send's input, and its IPI would be lost (issue 14, by
 * way of the fallback).  Whole pages from the page allocator: page-aligned
 * (a hypercall input must not cross a page) and in the linear map, so
 * virt_to_phys() gives their GPA.  All possible CPUs get theirs now, so
 * CPU hotplug needs nothing.
 */
int hvipi_ctx_fill(struct hvipi_ctx *ctx, const struct hvipi_hv *hv,
		   const struct hvipi_ops *orig, bool xmm)
{
	void * __percpu *pages;
	int cpu;

	BUILD_BUG_ON(HV_HYP_PAGE_SIZE > PAGE_SIZE);
	pages = alloc_percpu(void *);
	if (!pages)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		void *pg = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);

		if (!pg) {
			hvipi_pages_free(pages);
			return -ENOMEM;
		}
		*per_cpu_ptr(pages, cpu) = pg;
	}

	memset(ctx, 0, sizeof(*ctx));
	ctx->hcall_pg = hv->hcall_pg;
	ctx->input_arg = pages;
	ctx->vp_index = hv->vp_index;
	/*
	 * The identity prefix, once: an hv_vp_index entry only changes from
	 * VP_INVAL to its CPU's VP (hv_cpu_init), so CPUs found to be their
	 * own VPs stay so; CPUs that come up later are read CPU by CPU.
	 */
	ctx->vp_ident = hvipi_vp_ident(hv->vp_index, nr_cpu_ids);
	ctx->present = hv->present;
	ctx->hints = hv->hints;
	ctx->page_size = HV_HYP_PAGE_SIZE;
	ctx->xmm = xmm;
	ctx->orig = *orig;
	return 0;
}

void hvipi_ctx_free_pages(struct hvipi_ctx *ctx)
{
	hvipi_pages_free(ctx->input_arg);
	ctx->input_arg = NULL;
}

u32 hvipi_hv_hints(void)
{
	u32 hints = 0;

	if (ms_hyperv.hints & HV_X64_CLUSTER_IPI_RECOMMENDED)
		hints |= HVIPI_HINT_CLUSTER_IPI;
	if (ms_hyperv.hints & HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED)
		hints |= HVIPI_HINT_EX_MASKS;
	/* read by the flush planner only (the IPI planner ignores it) */
	if (ms_hyperv.hints & HV_X64_REMOTE_TLB_FLUSH_RECOMMENDED)
		hints |= HVIPI_HINT_REMOTE_FLUSH;
	if (ms_hyperv.misc_features & HV_X64_HYPERCALL_XMM_INPUT_AVAILABLE)
		hints |= HVIPI_HINT_XMM_INPUT;
	return hints;
}

/*
 * Why the live ops cannot be switched for a TEST here (NULL: they can):
 * never on a real Hyper-V guest, and only where struct apic is writable
 * (rodata=off) and is what the CPUs call (no static calls).
 */
const char *hvipi_test_switch_blocker(void)
{
	if (!hvipi_switch_blocker())
		return "a real Hyper-V guest: the live ops are not faked here";
	if (!apic || !hvipi_kernel_writable(apic))
		return "struct apic is read-only (boot with rodata=off)";
	return hvipi_static_call_blocker();
}
