// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_live.c - the self-test's live-kernel cases (test_switch=1,
 * rodata=off, never on a Hyper-V guest): the live APIC ops switched to the
 * glue with the FAKE hypercall page failing every call, so every real IPI
 * goes through planning and the asm and must then reach the original op;
 * and the same while CPUs go offline and online.
 */
#define pr_fmt(fmt) "hvipi: " fmt

#include <linux/atomic.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/irq_vectors.h>

#include "hvipi_glue.h"
#include "hvipi_switch.h"
#include "hvipi_test.h"
#include "hvipi_trace.h"

static bool test_switch;
module_param(test_switch, bool, 0444);
MODULE_PARM_DESC(test_switch, "TEST ONLY, not on Hyper-V: switch the APIC ops to the glue with the fake hypercall page failing every call, send real IPIs, restore (needs rodata=off)");

/*
 * TEST ONLY (the CPU hotplug test, test_switch=1): the QEMU test's init
 * script waits for hotplug_phase 1, cycles CPUs offline/online through
 * /sys/devices/system/cpu/cpuN/online, then writes hotplug_done: the number
 * of offline+online cycles done (> 0), or < 0 when it could not
 * (-1: no online file, -2: offline/online writes fail, -3: one CPU).
 */
static int hotplug_phase;
module_param(hotplug_phase, int, 0444);
MODULE_PARM_DESC(hotplug_phase, "TEST ONLY: 1 while the CPU hotplug test sends IPIs and waits for CPUs to be cycled, 2 after");

static int hotplug_done;
module_param(hotplug_done, int, 0644);
MODULE_PARM_DESC(hotplug_done, "TEST ONLY: written by the test driver: CPU offline/online cycles done (> 0) or why none (< 0)");

static int hotplug_fails;
module_param(hotplug_fails, int, 0644);
MODULE_PARM_DESC(hotplug_fails, "TEST ONLY: written by the test driver: offline/online writes that failed");

static struct hvipi_ops hvipi_saved;

/* Why the live tests cannot run here (NULL: they can). */
static const char *hvipi_live_test_blocker(void)
{
	if (!test_switch)
		return "test_switch=0";
	return hvipi_test_switch_blocker();
}

/*
 * Fake VP table and input pages for the live tests: identity VPs, one
 * zeroed page per possible CPU.  Returns 0 or -ENOMEM (partial
 * allocations are left for hvipi_lt_free()).
 */
static int hvipi_lt_alloc(u32 **table, void * __percpu **pages)
{
	unsigned int i, cpu;

	*table = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	*pages = alloc_percpu(void *);
	if (!*table || !*pages)
		return -ENOMEM;
	for (i = 0; i < nr_cpu_ids; i++)
		(*table)[i] = i;
	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(*pages, cpu) = (void *)get_zeroed_page(GFP_KERNEL);
		if (!*per_cpu_ptr(*pages, cpu))
			return -ENOMEM;
	}
	return 0;
}

static void hvipi_lt_free(u32 *table, void * __percpu *pages)
{
	unsigned int cpu;

	if (pages) {
		for_each_possible_cpu(cpu)
			free_page((unsigned long)*per_cpu_ptr(pages, cpu));
		free_percpu(pages);
	}
	kfree(table);
}

/*
 * Switch the live APIC ops to the glue with the fake hypercall page made
 * to fail every call (status 2): each IPI is planned by the core, goes
 * through the hypercall asm, and must then reach the original op.
 */
static void hvipi_lt_switch(u32 *table, void * __percpu *pages)
{
	hvipi_fake_set_status(2);	/* HV_STATUS_INVALID_HYPERCALL_CODE */
	hvipi_live.hcall_pg = (void *)hvipi_fake_hcall;
	hvipi_live.input_arg = pages;
	hvipi_live.vp_index = table;
	hvipi_live.vp_ident = hvipi_vp_ident(table, nr_cpu_ids);
	hvipi_live.present = hvipi_live_present();	/* as in hvipi_switch() */
	hvipi_live.hints = HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS;
	hvipi_live.page_size = PAGE_SIZE;
	hvipi_live.xmm = false;
	hvipi_read_ops(&hvipi_saved);
	hvipi_live.orig = hvipi_saved;
	smp_wmb();
	hvipi_write_ops(&hvipi_apic_ops);
}

static void hvipi_lt_restore(void)
{
	hvipi_write_ops(&hvipi_saved);
	synchronize_rcu();
	memset(&hvipi_live, 0, sizeof(hvipi_live));
}

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
	void * __percpu *pages = NULL;
	unsigned int fails = 0, i, want, nother, cpu;
	u32 *table = NULL;
	int self;

	*skip = hvipi_live_test_blocker();
	if (*skip)
		return 0;

	if (hvipi_lt_alloc(&table, &pages))
		goto nomem;
	if (register_trace_hvipi_send(hvipi_lt_probe, NULL))
		goto nomem;

	hvipi_lt_switch(table, pages);

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

	hvipi_lt_restore();
	unregister_trace_hvipi_send(hvipi_lt_probe, NULL);
	tracepoint_synchronize_unregister();

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
	hvipi_lt_free(table, pages);
	return fails;
}

/* ---- CPU hotplug under the live switch (test_switch=1) -------------- */

static DEFINE_PER_CPU(unsigned int, hvipi_hp_hits);

static struct {
	cpumask_var_t snap;		/* online CPUs of the current round */
	unsigned int *hits0;		/* per CPU, before the round */
	unsigned int *iwi0;		/* irq_work interrupts, before */
	unsigned long rounds;
	unsigned long lost_calls;	/* an online target missed a call */
	unsigned long lost_iwi;		/* an online target took no IWI */
	unsigned long max_online, min_online;
	atomic_t cpu_up, cpu_down;	/* hotplug callbacks seen */
	atomic_t abs, all;		/* raw all-but-self / all via the glue */
} hp;

static void hvipi_hp_func(void *info)
{
	this_cpu_inc(hvipi_hp_hits);
}

static void hvipi_hp_probe(void *data, const struct cpumask *mask, int cpu,
			   int self, bool exclude_self, int vector, u32 kind,
			   u32 reason, u32 banks, u64 status)
{
	hvipi_lt_probe(data, mask, cpu, self, exclude_self, vector, kind,
		       reason, banks, status);
	if (mask == cpu_online_mask)	/* send_IPI_allbutself / _all */
		atomic_inc(exclude_self ? &hp.abs : &hp.all);
}

static int hvipi_hp_online(unsigned int cpu)
{
	atomic_inc(&hp.cpu_up);
	return 0;
}

static int hvipi_hp_offline(unsigned int cpu)
{
	atomic_inc(&hp.cpu_down);
	return 0;
}

static unsigned int hvipi_iwi(unsigned int cpu)
{
	return READ_ONCE(per_cpu(irq_stat, cpu).apic_irq_work_irqs);
}

/*
 * Wait (up to 2 s) until each CPU of the snapshot but @skip_cpu has taken
 * an irq_work interrupt since hp.iwi0; count the ones that did not, and
 * take the new counts as the next baseline.  Two IPIs of one vector that
 * meet in the IRR are one interrupt, hence one send at a time.
 */
static void hvipi_hp_wait_iwi(int skip_cpu)
{
	u64 t0 = ktime_get_ns();
	unsigned int cpu;

	for_each_cpu(cpu, hp.snap) {
		if ((int)cpu == skip_cpu)
			continue;
		while (hvipi_iwi(cpu) == hp.iwi0[cpu]) {
			if (ktime_get_ns() - t0 > 2 * NSEC_PER_SEC) {
				hp.lost_iwi++;
				break;
			}
			cpu_relax();
		}
	}
	for_each_cpu(cpu, hp.snap)
		hp.iwi0[cpu] = hvipi_iwi(cpu);
}

/*
 * One round, preemption disabled: CPU offline needs stop_machine(), which
 * cannot run while this CPU is not preemptible, so every CPU online at the
 * snapshot stays online for the round (CPUs may come online meanwhile).
 * Sends, through the switched ops: all-but-self and all with
 * IRQ_WORK_VECTOR (harmless: irq_work_run() on each target), then
 * smp_call_function_many() with wait=1 (send_IPI_mask or
 * send_IPI_allbutself); each online target must run the function once.
 */
static void hvipi_hp_round(void)
{
	unsigned int cpu, n;
	int self;

	preempt_disable();
	self = smp_processor_id();
	cpumask_copy(hp.snap, cpu_online_mask);
	n = cpumask_weight(hp.snap);
	hp.max_online = max_t(unsigned long, hp.max_online, n);
	hp.min_online = min_t(unsigned long, hp.min_online, n);
	for_each_cpu(cpu, hp.snap) {
		hp.hits0[cpu] = per_cpu(hvipi_hp_hits, cpu);
		hp.iwi0[cpu] = hvipi_iwi(cpu);
	}
	apic->send_IPI_allbutself(IRQ_WORK_VECTOR);
	hvipi_hp_wait_iwi(self);
	apic->send_IPI_all(IRQ_WORK_VECTOR);
	hvipi_hp_wait_iwi(-1);
	smp_call_function_many(hp.snap, hvipi_hp_func, NULL, true);
	for_each_cpu(cpu, hp.snap)
		if ((int)cpu != self &&
		    per_cpu(hvipi_hp_hits, cpu) != hp.hits0[cpu] + 1)
			hp.lost_calls++;
	preempt_enable();
	hp.rounds++;
}

static int hvipi_hp_storm(void *unused)
{
	while (!kthread_should_stop()) {
		hvipi_hp_round();
		cond_resched();
	}
	return 0;
}

#define HP_WAIT_S	300

/*
 * With the live ops switched as in hvipi_live_switch_test(), a kthread
 * sends IPIs in a loop while the QEMU test's init script cycles CPUs
 * offline/online (hotplug_phase/hotplug_done).  Checks: no IPI lost to an
 * online CPU, the all/all-but-self ops went through the glue, every
 * hypercall (all failing) reached the original op, the cycles happened
 * (CPU hotplug callbacks), and all CPUs are back online.  Any WARN, BUG or
 * lockup in the guest log fails the QEMU test itself.
 */
int hvipi_live_hotplug_test(const char **skip)
{
	void * __percpu *pages = NULL;
	struct task_struct *storm = NULL;
	unsigned int fails = 0, waited;
	u32 *table = NULL;
	int state = -1, done;

	*skip = hvipi_live_test_blocker();
	if (*skip)
		return 0;

	memset(&hp, 0, sizeof(hp));
	hp.min_online = ULONG_MAX;
	atomic_set(&lt_events, 0);
	atomic_set(&lt_mask, 0);
	atomic_set(&lt_one, 0);
	atomic_set(&lt_unsent, 0);
	atomic_set(&lt_hcalls, 0);
	hp.hits0 = kcalloc(nr_cpu_ids, sizeof(*hp.hits0), GFP_KERNEL);
	hp.iwi0 = kcalloc(nr_cpu_ids, sizeof(*hp.iwi0), GFP_KERNEL);
	if (!hp.hits0 || !hp.iwi0 || !zalloc_cpumask_var(&hp.snap, GFP_KERNEL))
		goto nomem;
	if (hvipi_lt_alloc(&table, &pages))
		goto nomem;
	state = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "hvipi/test:online",
					  hvipi_hp_online, hvipi_hp_offline);
	if (state < 0)
		goto nomem;
	if (register_trace_hvipi_send(hvipi_hp_probe, NULL))
		goto nomem;

	hvipi_lt_switch(table, pages);
	storm = kthread_run(hvipi_hp_storm, NULL, "hvipi-hp-storm");
	if (IS_ERR(storm)) {
		storm = NULL;
		fails++;
	}

	WRITE_ONCE(hotplug_done, 0);
	WRITE_ONCE(hotplug_phase, 1);
	for (waited = 0; waited < HP_WAIT_S * 10; waited++) {
		if (READ_ONCE(hotplug_done))
			break;
		msleep(100);
	}
	if (storm)
		kthread_stop(storm);
	WRITE_ONCE(hotplug_phase, 2);
	done = READ_ONCE(hotplug_done);

	hvipi_lt_restore();
	unregister_trace_hvipi_send(hvipi_hp_probe, NULL);
	tracepoint_synchronize_unregister();

	pr_info("hotplug test: driver reported %d cycles (%d failed writes), CPU callbacks %d down / %d up; %lu rounds with %lu..%lu CPUs online; lost: %lu calls, %lu irq_work IPIs; %d sends through the glue (%d all-but-self, %d all), %d hypercalls, %d to the original op\n",
		done, READ_ONCE(hotplug_fails), atomic_read(&hp.cpu_down),
		atomic_read(&hp.cpu_up), hp.rounds,
		hp.min_online == ULONG_MAX ? 0 : hp.min_online, hp.max_online,
		hp.lost_calls, hp.lost_iwi, atomic_read(&lt_events),
		atomic_read(&hp.abs), atomic_read(&hp.all),
		atomic_read(&lt_hcalls), atomic_read(&lt_unsent));

	/* IPIs: whatever the hotplug driver managed, none may be lost */
	if (hp.rounds == 0 || hp.lost_calls || hp.lost_iwi)
		fails++;
	if (atomic_read(&hp.all) == 0 || atomic_read(&lt_hcalls) == 0 ||
	    atomic_read(&lt_unsent) != atomic_read(&lt_hcalls))
		fails++;
	if (num_online_cpus() != num_present_cpus())
		fails++;
	if (done == 0) {
		pr_info("hotplug test: no report from the hotplug driver in %d s\n",
			HP_WAIT_S);
		fails++;
	} else if (done < 0 && !fails) {
		*skip = done == -1 ? "CPU offline/online not possible: no /sys/devices/system/cpu/cpu1/online" :
			done == -3 ? "CPU offline/online needs 2 CPUs" :
			"CPU offline/online not possible: writes to /sys/devices/system/cpu/cpuN/online fail";
	} else if (done > 0) {
		/* every cycle is one offline and one online callback */
		if (READ_ONCE(hotplug_fails) ||
		    atomic_read(&hp.cpu_down) < done ||
		    atomic_read(&hp.cpu_up) < done)
			fails++;
		if (num_online_cpus() > 1 && atomic_read(&hp.abs) == 0)
			fails++;
	}
	goto out;
nomem:
	fails++;
out:
	if (state >= 0)
		cpuhp_remove_state_nocalls(state);
	free_cpumask_var(hp.snap);
	kfree(hp.hits0);
	kfree(hp.iwi0);
	hvipi_lt_free(table, pages);
	return fails;
}

/* ---- the KTAP cases ---------------------------------------------------- */

void test_live_switch(void)
{
	unsigned int fails = hvipi_live_switch_test(&hvipi_st.skip);

	CHECK(fails == 0, "%u live switch checks failed", fails);
}

void test_live_hotplug(void)
{
	unsigned int fails = hvipi_live_hotplug_test(&hvipi_st.skip);

	CHECK(fails == 0, "%u hotplug checks failed", fails);
}
