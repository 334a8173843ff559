// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_main.c - module load/unload: self-test, then (only on a Hyper-V
 * guest that recommends cluster IPIs, and only where struct apic can still
 * be written) switch the APIC IPI ops to the verified path.
 */
#define pr_fmt(fmt) "hvipi: " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/hypervisor.h>
#include <asm/mshyperv.h>
#include <asm/pgtable_types.h>
#include <asm/processor.h>

#include "hvipi_glue.h"
#include "hvipi_trace.h"

static bool xmm;
module_param(xmm, bool, 0444);
MODULE_PARM_DESC(xmm, "use XMM-fast Ex hypercalls when the hypervisor advertises XMM input (default: off)");

static bool selftest = true;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the KTAP self-test at load (default: on)");

static bool switch_ops = true;
module_param(switch_ops, bool, 0444);
MODULE_PARM_DESC(switch_ops, "switch the APIC IPI ops when possible (default: on)");

static bool test_switch;
module_param(test_switch, bool, 0444);
MODULE_PARM_DESC(test_switch, "TEST ONLY, not on Hyper-V: switch the APIC ops to the glue with the fake hypercall page failing every call, send real IPIs, restore (needs rodata=off)");

static struct hvipi_ops hvipi_saved;
static bool hvipi_switched;

/* Is the page holding @addr mapped writable in the kernel page tables? */
static bool hvipi_kernel_writable(const void *addr)
{
	unsigned int level;
	pte_t *pte = lookup_address((unsigned long)addr, &level);

	return pte && pte_present(*pte) && pte_write(*pte);
}

/* NULL when the switch can be done, else why not. */
static const char *hvipi_switch_blocker(void)
{
	if (!hypervisor_is_type(X86_HYPER_MS_HYPERV))
		return "not a Hyper-V guest";
	if (!(ms_hyperv.hints & HV_X64_CLUSTER_IPI_RECOMMENDED))
		return "CPUID 0x40000004 EAX bit 10 (cluster IPI recommended) is clear";
	if (!hv_hypercall_pg)
		return "no hypercall page";
	if (!hv_vp_index)
		return "no VP index table";
	if (!hyperv_pcpu_input_arg)
		return "no per-CPU input pages";
	/*
	 * hv_vp_index is allocated with num_possible_cpus() entries but is
	 * indexed by CPU id; the core reads it up to nr_cpu_ids (facts 5.8).
	 */
	if (num_possible_cpus() != nr_cpu_ids)
		return "possible CPU ids are sparse: hv_vp_index is shorter than nr_cpu_ids";
	if (!apic)
		return "no APIC driver";
	if (!hvipi_kernel_writable(apic))
		return "struct apic is read-only (__ro_after_init) once the kernel has booted: use the in-tree drop-in (kernel-glue/intree), or boot with rodata=off";
	return NULL;
}

static void hvipi_read_ops(struct hvipi_ops *ops)
{
	ops->send_IPI = apic->send_IPI;
	ops->send_IPI_mask = apic->send_IPI_mask;
	ops->send_IPI_mask_allbutself = apic->send_IPI_mask_allbutself;
	ops->send_IPI_allbutself = apic->send_IPI_allbutself;
	ops->send_IPI_all = apic->send_IPI_all;
	ops->send_IPI_self = apic->send_IPI_self;
}

static void hvipi_write_ops(const struct hvipi_ops *ops)
{
	WRITE_ONCE(apic->send_IPI, ops->send_IPI);
	WRITE_ONCE(apic->send_IPI_mask, ops->send_IPI_mask);
	WRITE_ONCE(apic->send_IPI_mask_allbutself, ops->send_IPI_mask_allbutself);
	WRITE_ONCE(apic->send_IPI_allbutself, ops->send_IPI_allbutself);
	WRITE_ONCE(apic->send_IPI_all, ops->send_IPI_all);
	WRITE_ONCE(apic->send_IPI_self, ops->send_IPI_self);
}

static u32 hvipi_hv_hints(void)
{
	u32 hints = 0;

	if (ms_hyperv.hints & HV_X64_CLUSTER_IPI_RECOMMENDED)
		hints |= HVIPI_HINT_CLUSTER_IPI;
	if (ms_hyperv.hints & HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED)
		hints |= HVIPI_HINT_EX_MASKS;
	if (ms_hyperv.misc_features & HV_X64_HYPERCALL_XMM_INPUT_AVAILABLE)
		hints |= HVIPI_HINT_XMM_INPUT;
	return hints;
}

static void hvipi_log_platform(void)
{
	u32 sig[3] = { 0, 0, 0 };
	char vendor[13];
	u32 max = 0;

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		cpuid(0x40000000, &max, &sig[0], &sig[1], &sig[2]);
	memcpy(vendor, sig, 12);
	vendor[12] = '\0';
	pr_info("hypervisor CPUID leaf 0x40000000: max=0x%x vendor=\"%s\"; x86_hyper_type=%d; nr_cpu_ids=%u online=%u present=%u\n",
		max, vendor, (int)x86_hyper_type, nr_cpu_ids,
		num_online_cpus(), num_present_cpus());
	if (apic)
		pr_info("APIC driver %s; struct apic %s\n", apic->name,
			hvipi_kernel_writable(apic) ? "writable" : "read-only");
}

/* ---- live switch test (test_switch=1, never on a Hyper-V guest) ---- */

static atomic_t lt_events, lt_mask, lt_one, lt_unsent, lt_hcalls;
static atomic_t lt_hits, lt_self_hits;

static void hvipi_lt_probe(void *data, const struct cpumask *mask, int cpu,
			   int self, bool exclude_self, int vector, u32 kind,
			   u32 reason, u32 banks, u64 status)
{
	atomic_inc(&lt_events);
	atomic_inc(mask ? &lt_mask : &lt_one);
	if (kind != HVIPI_PLAN_NONE && kind != HVIPI_PLAN_FALLBACK)
		atomic_inc(&lt_hcalls);
	/* everything that was not a no-op went to the original op */
	if (kind == HVIPI_PLAN_FALLBACK ||
	    (kind != HVIPI_PLAN_NONE && !hvipi_status_ok(status)))
		atomic_inc(&lt_unsent);
}

static void hvipi_lt_func(void *info)
{
	atomic_inc(&lt_hits);
}

static void hvipi_lt_irq_work(struct irq_work *w)
{
	atomic_inc(&lt_self_hits);
}

#define LT_ROUNDS 50

/*
 * Switch the live APIC ops to the glue, with the fake hypercall page made
 * to fail every call (status 2), so each IPI is planned by the core, goes
 * through the hypercall asm, and must then reach the original op: if one
 * did not, the waiting smp_call_function*() would hang.  Restores the ops.
 * Returns the number of failed checks; sets *skip when not run.
 */
int hvipi_live_switch_test(const char **skip)
{
	struct irq_work iw = IRQ_WORK_INIT_HARD(hvipi_lt_irq_work);
	void * __percpu *pages;
	unsigned int fails = 0, i, want, nother, cpu;
	u32 *table;
	int self;

	*skip = NULL;
	if (!test_switch) {
		*skip = "test_switch=0";
		return 0;
	}
	if (!hvipi_switch_blocker()) {
		*skip = "a real Hyper-V guest: the live ops are not faked here";
		return 0;
	}
	if (!apic || !hvipi_kernel_writable(apic)) {
		*skip = "struct apic is read-only (boot with rodata=off)";
		return 0;
	}

	table = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	pages = alloc_percpu(void *);
	if (!table || !pages)
		goto nomem;
	for (i = 0; i < nr_cpu_ids; i++)
		table[i] = i;
	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(pages, cpu) = (void *)get_zeroed_page(GFP_KERNEL);
		if (!*per_cpu_ptr(pages, cpu))
			goto nomem;
	}
	if (register_trace_hvipi_send(hvipi_lt_probe, NULL))
		goto nomem;

	hvipi_fake_set_status(2);	/* HV_STATUS_INVALID_HYPERCALL_CODE */
	hvipi_live.hcall_pg = (void *)hvipi_fake_hcall;
	hvipi_live.input_arg = pages;
	hvipi_live.vp_index = table;
	hvipi_live.vp_ident = hvipi_vp_ident(table, nr_cpu_ids);
	hvipi_live.present = cpu_present_mask;
	hvipi_live.hints = HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS;
	hvipi_live.page_size = PAGE_SIZE;
	hvipi_live.xmm = false;
	hvipi_read_ops(&hvipi_saved);
	hvipi_live.orig = hvipi_saved;
	smp_wmb();
	hvipi_write_ops(&hvipi_apic_ops);

	for (i = 0; i < LT_ROUNDS; i++)
		smp_call_function(hvipi_lt_func, NULL, 1);	/* mask/allbutself */
	self = get_cpu();
	nother = 0;
	for_each_online_cpu(cpu) {
		if ((int)cpu == self)
			continue;
		nother++;
		smp_call_function_single(cpu, hvipi_lt_func, NULL, 1); /* one */
	}
	put_cpu();
	for (i = 0; i < LT_ROUNDS; i++) {
		irq_work_queue(&iw);				/* self */
		irq_work_sync(&iw);
	}

	hvipi_write_ops(&hvipi_saved);
	synchronize_rcu();
	unregister_trace_hvipi_send(hvipi_lt_probe, NULL);
	tracepoint_synchronize_unregister();
	memset(&hvipi_live, 0, sizeof(hvipi_live));

	want = LT_ROUNDS * (num_online_cpus() - 1) + nother;
	pr_info("live switch test: %d sends through the glue (%d mask, %d one-CPU), %d hypercalls, %d to the original op; %d/%u remote calls, %d/%d self irq_work\n",
		atomic_read(&lt_events), atomic_read(&lt_mask),
		atomic_read(&lt_one), atomic_read(&lt_hcalls),
		atomic_read(&lt_unsent), atomic_read(&lt_hits), want,
		atomic_read(&lt_self_hits), LT_ROUNDS);
	if (atomic_read(&lt_hits) != (int)want)
		fails++;
	if (atomic_read(&lt_self_hits) != LT_ROUNDS)
		fails++;
	if (num_online_cpus() > 1 && atomic_read(&lt_mask) == 0)
		fails++;
	if (atomic_read(&lt_one) < LT_ROUNDS)
		fails++;
	if (atomic_read(&lt_hcalls) == 0)
		fails++;
	if (atomic_read(&lt_unsent) != atomic_read(&lt_hcalls))
		fails++;
	goto out;
nomem:
	fails++;
out:
	if (pages) {
		for_each_possible_cpu(cpu)
			free_page((unsigned long)*per_cpu_ptr(pages, cpu));
		free_percpu(pages);
	}
	kfree(table);
	return fails;
}

static int __init hvipi_init(void)
{
	const char *why;
	int failed = 0;

	hvipi_log_platform();
	if (selftest)
		failed = hvipi_selftest();

	why = hvipi_switch_blocker();
	if (!why && failed)
		why = "the self-test failed";
	if (why) {
		pr_info("not switching the APIC IPI ops: %s\n", why);
		return 0;
	}
	if (!switch_ops) {
		pr_info("not switching the APIC IPI ops: switch_ops=0\n");
		return 0;
	}

	hvipi_live.hcall_pg = hv_hypercall_pg;
	hvipi_live.input_arg = hyperv_pcpu_input_arg;
	hvipi_live.vp_index = hv_vp_index;
	/*
	 * The identity prefix, once: an hv_vp_index entry only changes from
	 * VP_INVAL to its CPU's VP (hv_cpu_init), so CPUs found to be their
	 * own VPs stay so; CPUs that come up later are read CPU by CPU.
	 */
	hvipi_live.vp_ident = hvipi_vp_ident(hv_vp_index, nr_cpu_ids);
	hvipi_live.present = cpu_present_mask;
	hvipi_live.hints = hvipi_hv_hints();
	hvipi_live.page_size = HV_HYP_PAGE_SIZE;
	hvipi_live.xmm = xmm;
	hvipi_read_ops(&hvipi_saved);
	hvipi_live.orig = hvipi_saved;
	/* hvipi_live must be complete before any CPU can call an op. */
	smp_wmb();
	hvipi_write_ops(&hvipi_apic_ops);
	hvipi_switched = true;
	pr_info("APIC IPI ops switched to the verified path (hints 0x%x, xmm %s)\n",
		hvipi_live.hints, xmm ? "on" : "off");
	return 0;
}

static void __exit hvipi_exit(void)
{
	if (!hvipi_switched)
		return;
	hvipi_write_ops(&hvipi_saved);
	/*
	 * IPIs are sent with preemption (or interrupts) disabled: once every
	 * CPU has gone through a quiescent state nobody runs our ops.
	 */
	synchronize_rcu();
	pr_info("APIC IPI ops restored\n");
}

module_init(hvipi_init);
module_exit(hvipi_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Hyper-V PV IPI send path on the formally verified hvipi core");
