// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_main.c - module load/unload: self-test, then (only on a Hyper-V
 * guest that recommends cluster IPIs, and only where struct apic can still
 * be written) switch the APIC IPI ops to the verified path.
 *
 * Tests are reached only through hvipi_test_hooks.h (the self-test, the
 * test hypervisor); no test calls into this file.
 */
#define pr_fmt(fmt) "hvipi: " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/hypervisor.h>
#include <asm/mshyperv.h>
#include <asm/processor.h>

#include "hvipi_glue.h"
#include "hvipi_switch.h"
#include "hvipi_test_hooks.h"

static bool xmm;
module_param(xmm, bool, 0444);
MODULE_PARM_DESC(xmm, "use XMM-fast Ex hypercalls when the hypervisor advertises XMM input (default: off)");

static bool selftest = true;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the KTAP self-test at load (default: on)");

static bool switch_ops = true;
module_param(switch_ops, bool, 0444);
MODULE_PARM_DESC(switch_ops, "switch the APIC IPI ops when possible (default: on)");

static struct hvipi_ops hvipi_saved;
static bool hvipi_switched;

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

static int hvipi_switch(void);

static int __init hvipi_init(void)
{
	const char *why;
	int failed = 0;

	hvipi_log_platform();
	/* decide (and log) present_partition once, before anything switches */
	hvipi_present_is_partition();
	if (selftest)
		failed = hvipi_selftest();

	/*
	 * TEST ONLY (test_hv=<table>, rodata=off, never on Hyper-V): the live
	 * ops go to the glue with the test hypervisor of hvipi_testhv.c as
	 * the hypercall page until the module is unloaded.
	 */
	if (hvipi_testhv_requested()) {
		if (failed) {
			pr_info("test hypervisor not started: the self-test failed\n");
			return -EINVAL;
		}
		return hvipi_testhv_start(xmm);
	}

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

	return hvipi_switch();
}

/* Switch the live APIC IPI ops to the glue; 0 or why not (logged). */
static int hvipi_switch(void)
{
	const char *why = hvipi_static_call_blocker();
	struct hvipi_hv hv = {
		.hcall_pg = hv_hypercall_pg,
		.vp_index = hv_vp_index,
		.linux_input = hyperv_pcpu_input_arg,
		/* present_partition: cpu_present_mask only if the partition */
		.present = hvipi_live_present(),
		.hints = hvipi_hv_hints(),
	};
	int err;

	if (why) {
		pr_warn("not switching the APIC IPI ops: %s\n", why);
		return -EOPNOTSUPP;
	}
	hvipi_read_ops(&hvipi_saved);
	/* the saved ops write Linux's input pages: the glue gets its own */
	err = hvipi_ctx_fill(&hvipi_live, &hv, &hvipi_saved, xmm);
	if (err) {
		pr_warn("not switching the APIC IPI ops: no memory for the input pages\n");
		return err;
	}
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
	hvipi_testhv_stop();	/* restores the ops, reports (test_hv= only) */
	if (!hvipi_switched)
		return;
	hvipi_write_ops(&hvipi_saved);
	/*
	 * IPIs are sent with preemption (or interrupts) disabled: once every
	 * CPU has gone through a quiescent state nobody runs our ops.
	 */
	synchronize_rcu();
	/* nobody sends through hvipi_live now: its input pages can go */
	hvipi_ctx_free_pages(&hvipi_live);
	pr_info("APIC IPI ops restored\n");
}

module_init(hvipi_init);
module_exit(hvipi_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Hyper-V PV IPI send path on the formally verified hvipi core");
