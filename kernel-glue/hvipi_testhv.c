// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_testhv.c - TEST ONLY: a test hypervisor inside the guest, so that
 * the kernel's own IPIs can be planned by hvipi and delivered as planned.
 *
 * No real Hyper-V is reached here.  With test_hv=<table> (and rodata=off,
 * never on a Hyper-V guest) the module switches all six APIC IPI ops to
 * the glue for the whole time it is loaded, with hvipi_testhv_hcall
 * (hvipi_testhv_hcall.S) as the hypercall page.  Each hypercall is decoded by the
 * shared receiver model (hvipi_rx.c: control word; fast, memory and XMM
 * input; variable-header size, sparse banks, format "all"; KVM's checks
 * plus Xen's stricter ones).  A malformed call is rejected with its TLFS
 * status and counted; the glue then falls back to the original op, so the
 * IPI still arrives.  An accepted call is delivered: the vector goes to the
 * CPU of each decoded VP (the inverse of this mode's VP table) through the
 * original APIC op send_IPI_mask (the one original op that never calls
 * back into struct apic), in the hypercall's context (interrupts off).
 *
 * VP tables (test_hv=): identity; permuted (reversed: the last CPU has VP
 * 0); sparse-high (CPU c has VP 64 + (67 c mod 4032): injective, all VPs in
 * 64..4095, one bank per CPU for the first ~60 CPUs), so that the kernel's
 * IPIs take FAST (identity, permuted), EX_SPARSE and EX_ALL (sparse-high),
 * and EX_XMM (sparse-high with xmm=1).
 *
 * While loaded, a kthread sends from the module: smp_call_function_many()
 * on random masks (each target must run the function) and irq_work-vector
 * IPIs through each of the six ops in turn (each target must take an
 * irq_work interrupt).  The QEMU test runs a user workload and cycles CPUs
 * offline/online meanwhile.  At unload the ops are restored and a KTAP
 * report with the counts is printed.
 */
#define pr_fmt(fmt) "hvipi: testhv: " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/io.h>
#include <asm/irq_vectors.h>

#include "hvipi_assume.h"
#include "hvipi_glue.h"
#include "hvipi_rx.h"
#include "hvipi_switch.h"
#include "hvipi_test.h"
#include "hvipi_test_hooks.h"
#include "hvipi_trace.h"

static char *test_hv;
module_param(test_hv, charp, 0444);
MODULE_PARM_DESC(test_hv, "TEST ONLY, not on Hyper-V, needs rodata=off: switch the APIC ops to hvipi with a test hypervisor inside this guest until unload; VP table: identity, permuted or sparse-high");

static int testhv_hotplug_cycles;
module_param(testhv_hotplug_cycles, int, 0644);
MODULE_PARM_DESC(testhv_hotplug_cycles, "TEST ONLY: written by the QEMU test before unload: CPU offline/online cycles it did (> 0), or < 0 when CPUs could not go offline");

/* The hypercall page of the test hypervisor (hvipi_testhv_hcall.S). */
void hvipi_testhv_hcall(void);
u64 hvipi_testhv_handle(u64 control, u64 rdx, u64 r8, const u64 *xmm);

#define KIND_N		7	/* enum hvipi_kind 0..5, 6: any other value */
#define REASON_N	8	/* enum hvipi_reason 0..6, 7: any other value */

static const char * const thv_reason_name[REASON_N] = {
	"none", "not_recommended", "bad_vector", "vp_unknown",
	"ex_not_recommended", "vp_too_big", "no_page", "other",
};

/* Forms the test hypervisor accepted. */
enum { F_FAST, F_EX_MEM, F_EX_ALL, F_EX_XMM, F_N };

/* Rejection statuses: 2, 3, 4, 5, anything else. */
#define REJ_N	5

/* Per CPU; every counter is bumped with this_cpu_inc() (NMI-safe). */
struct thv_pcpu {
	/* the decoder's VP bitmaps: [0] normal, [1] NMI (they can nest) */
	unsigned long vps[2][BITS_TO_LONGS(RX_VP_BITS)];
	/* test hypervisor */
	u64 calls;
	u64 form[F_N];
	u64 rejected;
	u64 rej[REJ_N];
	u64 delivered;		/* (CPU, vector) deliveries */
	u64 vp_no_cpu;		/* decoded VPs without a CPU */
	u64 empty;		/* accepted calls that named no VP */
	u64 not_online;		/* calls from a CPU not (yet, still) online */
	/* the ops (counting wrappers) and the trace event */
	int cur_op;		/* op being run on this CPU, -1: none */
	u64 op[OP_N];
	u64 untraced;		/* sends from a CPU not online: no event */
	u64 op_kind[OP_N + 1][KIND_N];	/* [OP_N]: send outside a wrapper */
	u64 kind[KIND_N];
	u64 reason[REASON_N];
	u64 status_failed;	/* hypercall made, failing status */
};

/* The sums, at unload. */
struct thv_sum {
	u64 calls, form[F_N], rejected, rej[REJ_N], delivered, vp_no_cpu;
	u64 empty, not_online, untraced, op[OP_N], op_kind[OP_N + 1][KIND_N], kind[KIND_N];
	u64 reason[REASON_N], status_failed;
};

/* The module-side sender (kthread). */
struct thv_load {
	unsigned long rounds;
	unsigned long scf_calls, scf_checked, scf_missed;
	unsigned long iwi_sends[OP_N], iwi_checked, iwi_missed;
};

static struct {
	bool started;
	bool xmm;
	int table_kind;
	u32 *table;			/* CPU -> VP, nr_cpu_ids entries */
	u16 *vp_cpu;			/* VP -> CPU, RX_VP_BITS entries */
	void * __percpu *pages;		/* per-CPU input pages */
	struct thv_pcpu __percpu *pcpu;
	struct hvipi_ops saved;		/* the original ops */
	struct task_struct *load_task;
	int cpuhp_state;
	atomic_t cpu_up, cpu_down;
	struct thv_load load;
	unsigned long *iwi0;		/* per CPU, irq_work IRQs before */
	unsigned int *hits0;		/* per CPU, function calls before */
	cpumask_var_t snap, mask;
	struct rnd_state rnd;
	u64 t0;
	/* the first rejected call, for the report */
	atomic_t rej_logged;
	struct hvipi_rx_regs rej_regs;
	u32 rej_status;
} thv = { .cpuhp_state = -1 };

#define VP_NO_CPU	0xffffu

enum { TBL_IDENTITY, TBL_PERMUTED, TBL_SPARSE_HIGH };

static const char * const thv_table_name[] = {
	"identity", "permuted", "sparse-high",
};

bool hvipi_testhv_requested(void)
{
	return test_hv && test_hv[0];
}

/* ---- the test hypervisor ------------------------------------------------ */

static void thv_deliver(unsigned int cpu, u32 vector)
{
	/*
	 * An xAPIC send writes ICR2 (the destination), then ICR.  A call
	 * from NMI context may have interrupted a send between the two: put
	 * ICR2 back, as a real hypervisor never touches the guest's APIC.
	 */
	bool icr2_kept = in_nmi() && !x2apic_mode;
	u32 icr2 = icr2_kept ? native_apic_mem_read(APIC_ICR2) : 0;

	/*
	 * The original send_IPI_mask: flat, physical flat and x2APIC all
	 * write the ICR directly; the original send_IPI may go back through
	 * apic->send_IPI_mask (default_send_IPI_single), i.e. to hvipi.
	 */
	thv.saved.send_IPI_mask(cpumask_of(cpu), (int)vector);
	if (icr2_kept)
		native_apic_mem_write(APIC_ICR2, icr2);
	this_cpu_inc(thv.pcpu->delivered);
}

static void thv_reject(const struct hvipi_rx_regs *regs, u32 status)
{
	this_cpu_inc(thv.pcpu->rejected);
	switch (status) {
	case RX_INVALID_CODE:
		this_cpu_inc(thv.pcpu->rej[0]);
		break;
	case RX_INVALID_INPUT:
		this_cpu_inc(thv.pcpu->rej[1]);
		break;
	case RX_INVALID_ALIGNMENT:
		this_cpu_inc(thv.pcpu->rej[2]);
		break;
	case RX_INVALID_PARAMETER:
		this_cpu_inc(thv.pcpu->rej[3]);
		break;
	default:
		this_cpu_inc(thv.pcpu->rej[4]);
		break;
	}
	if (atomic_xchg(&thv.rej_logged, 1) == 0) {
		thv.rej_regs = *regs;
		thv.rej_status = status;
	}
}

/*
 * Called by hvipi_testhv_hcall with the hypercall's registers (xmm: the 12
 * words of xmm0..xmm5), interrupts off (the glue's send), possibly in NMI
 * context.  Returns the status.
 */
u64 hvipi_testhv_handle(u64 control, u64 rdx, u64 r8, const u64 *xmm)
{
	struct thv_pcpu *pc = this_cpu_ptr(thv.pcpu);
	struct hvipi_rx_regs regs;
	struct hvipi_rx rx;
	const u64 *mem = NULL;
	unsigned int vp, cpu, n = 0;
	u32 status;

	this_cpu_inc(thv.pcpu->calls);
	regs.rcx = control;
	regs.rdx = rdx;
	regs.r8 = r8;
	memcpy(regs.xmm, xmm, sizeof(regs.xmm));
	rx.vps = pc->vps[in_nmi() ? 1 : 0];

	/* a memory input must be this CPU's input page (the glue's only) */
	if (!((control >> HVIPI_CTL_FAST_SHIFT) & 1u)) {
		u64 *page = *this_cpu_ptr(thv.pages);

		if (page && rdx == virt_to_phys(page))
			mem = page;
	}
	status = hvipi_rx_decode_regs(&regs, mem, PAGE_SIZE / 8u, &rx);
	if (status == RX_BAD_GPA)	/* model-only status: the TLFS one */
		status = (rdx & 7u) ? RX_INVALID_ALIGNMENT : RX_INVALID_PARAMETER;
	if (status != RX_OK) {
		thv_reject(&regs, status);
		return status;
	}

	/*
	 * Tracepoints do not fire on a CPU that is not online (coming up,
	 * going down); those calls are counted apart so that the forms
	 * below match the plan kinds the trace event counted.
	 */
	if (!cpu_online(smp_processor_id()))
		this_cpu_inc(thv.pcpu->not_online);
	else if (rx.code == HVIPI_CALL_SEND_IPI)
		this_cpu_inc(thv.pcpu->form[F_FAST]);
	else if (rx.fast)
		this_cpu_inc(thv.pcpu->form[F_EX_XMM]);
	else if (rx.all)
		this_cpu_inc(thv.pcpu->form[F_EX_ALL]);
	else
		this_cpu_inc(thv.pcpu->form[F_EX_MEM]);

	if (rx.all) {
		/* every VP of the partition: each present CPU with a VP */
		for_each_present_cpu(cpu) {
			if (thv.table[cpu] < RX_VP_BITS) {
				thv_deliver(cpu, rx.vector);
				n++;
			}
		}
	} else {
		for_each_set_bit(vp, rx.vps, RX_VP_BITS) {
			cpu = thv.vp_cpu[vp];
			if (cpu == VP_NO_CPU) {	/* KVM ignores it; we count */
				this_cpu_inc(thv.pcpu->vp_no_cpu);
				continue;
			}
			thv_deliver(cpu, rx.vector);
			n++;
		}
	}
	if (!n)
		this_cpu_inc(thv.pcpu->empty);
	return 0;
}

/* ---- the six ops, counted, around hvipi's ---------------------------- */

static int thv_op_begin(int op)
{
	int prev;

	preempt_disable();
	prev = this_cpu_read(thv.pcpu->cur_op);
	this_cpu_write(thv.pcpu->cur_op, op);
	this_cpu_inc(thv.pcpu->op[op]);
	if (!cpu_online(smp_processor_id()))	/* no trace event */
		this_cpu_inc(thv.pcpu->untraced);
	return prev;
}

static void thv_op_end(int prev)
{
	this_cpu_write(thv.pcpu->cur_op, prev);
	preempt_enable();
}

static void thv_send_IPI(int cpu, int vector)
{
	int prev = thv_op_begin(OP_ONE);

	hvipi_apic_ops.send_IPI(cpu, vector);
	thv_op_end(prev);
}

static void thv_send_IPI_mask(const struct cpumask *mask, int vector)
{
	int prev = thv_op_begin(OP_MASK);

	hvipi_apic_ops.send_IPI_mask(mask, vector);
	thv_op_end(prev);
}

static void thv_send_IPI_mask_allbutself(const struct cpumask *mask,
					 int vector)
{
	int prev = thv_op_begin(OP_MASK_ABS);

	hvipi_apic_ops.send_IPI_mask_allbutself(mask, vector);
	thv_op_end(prev);
}

static void thv_send_IPI_allbutself(int vector)
{
	int prev = thv_op_begin(OP_ABS);

	hvipi_apic_ops.send_IPI_allbutself(vector);
	thv_op_end(prev);
}

static void thv_send_IPI_all(int vector)
{
	int prev = thv_op_begin(OP_ALL);

	hvipi_apic_ops.send_IPI_all(vector);
	thv_op_end(prev);
}

static void thv_send_IPI_self(int vector)
{
	int prev = thv_op_begin(OP_SELF);

	hvipi_apic_ops.send_IPI_self(vector);
	thv_op_end(prev);
}

static const struct hvipi_ops thv_ops = {
	.send_IPI			= thv_send_IPI,
	.send_IPI_mask			= thv_send_IPI_mask,
	.send_IPI_mask_allbutself	= thv_send_IPI_mask_allbutself,
	.send_IPI_allbutself		= thv_send_IPI_allbutself,
	.send_IPI_all			= thv_send_IPI_all,
	.send_IPI_self			= thv_send_IPI_self,
};

/* One event per send through the glue: plan kind, reason, status. */
static void thv_probe(void *data, const struct cpumask *mask, int cpu,
		      int self, bool exclude_self, int vector, u32 kind,
		      u32 reason, u32 banks, u64 status)
{
	int op = this_cpu_read(thv.pcpu->cur_op);
	u32 k = kind < KIND_N - 1 ? kind : KIND_N - 1;

	if (op < 0 || op >= OP_N)
		op = OP_N;
	this_cpu_inc(thv.pcpu->kind[k]);
	this_cpu_inc(thv.pcpu->op_kind[op][k]);
	if (kind == HVIPI_PLAN_FALLBACK)
		this_cpu_inc(thv.pcpu->reason[reason < REASON_N - 1 ?
					      reason : REASON_N - 1]);
	else if (kind != HVIPI_PLAN_NONE && !hvipi_status_ok(status))
		this_cpu_inc(thv.pcpu->status_failed);
}

/* ---- the module-side sender ------------------------------------------ */

static DEFINE_PER_CPU(unsigned int, thv_hits);

static void thv_func(void *info)
{
	this_cpu_inc(thv_hits);
}

static unsigned long thv_iwi(unsigned int cpu)
{
	return READ_ONCE(per_cpu(irq_stat, cpu).apic_irq_work_irqs);
}

/* A random subset of the snapshot: each CPU with probability 1/2. */
static void thv_random_mask(void)
{
	unsigned int cpu;

	cpumask_clear(thv.mask);
	for_each_cpu(cpu, thv.snap)
		if (prandom_u32_state(&thv.rnd) & 1u)
			cpumask_set_cpu(cpu, thv.mask);
}

/* One random CPU of the snapshot. */
static void thv_one_random_cpu(void)
{
	unsigned int i = prandom_u32_state(&thv.rnd) % cpumask_weight(thv.snap);
	unsigned int cpu;

	cpumask_clear(thv.mask);
	for_each_cpu(cpu, thv.snap) {
		if (!i--) {
			cpumask_set_cpu(cpu, thv.mask);
			break;
		}
	}
}

/*
 * Wait (up to 5 s) until each CPU of @targets has taken an irq_work
 * interrupt since thv.iwi0.  Two IPIs of one vector that meet in the IRR
 * are one interrupt, hence one send at a time.
 */
static void thv_wait_iwi(const struct cpumask *targets)
{
	u64 t0 = ktime_get_ns();
	unsigned int cpu;

	for_each_cpu(cpu, targets) {
		thv.load.iwi_checked++;
		while (thv_iwi(cpu) == thv.iwi0[cpu]) {
			if (ktime_get_ns() - t0 > 5 * NSEC_PER_SEC) {
				thv.load.iwi_missed++;
				pr_info("irq_work IPI to CPU %u not taken in 5 s\n",
					cpu);
				break;
			}
			cpu_relax();
		}
	}
}

/*
 * One round, preemption disabled (no CPU of the snapshot can go offline:
 * that needs stop_machine()): smp_call_function_many() on a random mask,
 * wait=1, each target must have run the function once; then an irq_work
 * IPI through one of the six ops (in turn), each target must take it.
 */
static void thv_round(void)
{
	unsigned int cpu;
	int self, op;

	preempt_disable();
	self = smp_processor_id();
	cpumask_copy(thv.snap, cpu_online_mask);

	thv_random_mask();
	if (thv.load.rounds % 7 == 0)	/* now and then all of them */
		cpumask_copy(thv.mask, thv.snap);
	for_each_cpu(cpu, thv.mask)
		thv.hits0[cpu] = per_cpu(thv_hits, cpu);
	smp_call_function_many(thv.mask, thv_func, NULL, true);
	thv.load.scf_calls++;
	for_each_cpu(cpu, thv.mask) {
		if ((int)cpu == self)	/* not run on the caller */
			continue;
		thv.load.scf_checked++;
		if (per_cpu(thv_hits, cpu) != thv.hits0[cpu] + 1) {
			thv.load.scf_missed++;
			pr_info("smp_call_function_many: CPU %u ran the function %u times, want 1\n",
				cpu, per_cpu(thv_hits, cpu) - thv.hits0[cpu]);
		}
	}

	op = thv.load.rounds % OP_N;
	thv_random_mask();
	switch (op) {
	case OP_ONE:
		thv_one_random_cpu();
		break;
	case OP_MASK:
		break;
	case OP_MASK_ABS:
		break;
	case OP_ABS:
		cpumask_copy(thv.mask, thv.snap);
		break;
	case OP_ALL:
		cpumask_copy(thv.mask, thv.snap);
		break;
	case OP_SELF:
		cpumask_clear(thv.mask);
		cpumask_set_cpu(self, thv.mask);
		break;
	}
	for_each_cpu(cpu, thv.snap)
		thv.iwi0[cpu] = thv_iwi(cpu);
	switch (op) {
	case OP_ONE:
		apic->send_IPI(cpumask_first(thv.mask), IRQ_WORK_VECTOR);
		break;
	case OP_MASK:
		apic->send_IPI_mask(thv.mask, IRQ_WORK_VECTOR);
		break;
	case OP_MASK_ABS:
		apic->send_IPI_mask_allbutself(thv.mask, IRQ_WORK_VECTOR);
		cpumask_clear_cpu(self, thv.mask);
		break;
	case OP_ABS:
		apic->send_IPI_allbutself(IRQ_WORK_VECTOR);
		cpumask_clear_cpu(self, thv.mask);
		break;
	case OP_ALL:
		apic->send_IPI_all(IRQ_WORK_VECTOR);
		break;
	case OP_SELF:
		apic->send_IPI_self(IRQ_WORK_VECTOR);
		break;
	}
	thv.load.iwi_sends[op]++;
	thv_wait_iwi(thv.mask);
	preempt_enable();
	thv.load.rounds++;
}

static int thv_load_fn(void *unused)
{
	while (!kthread_should_stop()) {
		thv_round();
		msleep(1);	/* leave the CPUs to the user workload */
	}
	return 0;
}

static int thv_cpu_online(unsigned int cpu)
{
	atomic_inc(&thv.cpu_up);
	return 0;
}

static int thv_cpu_offline(unsigned int cpu)
{
	atomic_inc(&thv.cpu_down);
	return 0;
}

/* ---- start, stop, report --------------------------------------------- */

static int thv_fill_table(void)
{
	unsigned int c, n = nr_cpu_ids;

	for (c = 0; c < n; c++) {
		switch (thv.table_kind) {
		case TBL_IDENTITY:
			thv.table[c] = c;
			break;
		case TBL_PERMUTED:
			thv.table[c] = n - 1 - c;
			break;
		default:	/* gcd(67, 4032) = 1: injective for c < 4032 */
			thv.table[c] = 64u + (67u * c) % 4032u;
			break;
		}
		if (thv.table[c] >= RX_VP_BITS)
			return -EINVAL;
	}
	return 0;
}

static void thv_free(void)
{
	unsigned int cpu;

	if (thv.pages) {
		for_each_possible_cpu(cpu)
			free_page((unsigned long)*per_cpu_ptr(thv.pages, cpu));
		free_percpu(thv.pages);
		thv.pages = NULL;
	}
	free_percpu(thv.pcpu);
	thv.pcpu = NULL;
	kfree(thv.table);
	kfree(thv.vp_cpu);
	kfree(thv.iwi0);
	kfree(thv.hits0);
	thv.table = NULL;
	thv.vp_cpu = NULL;
	thv.iwi0 = NULL;
	thv.hits0 = NULL;
	free_cpumask_var(thv.snap);
	free_cpumask_var(thv.mask);
}

int hvipi_testhv_start(bool xmm)
{
	unsigned long *seen = NULL;
	const char *why;
	unsigned int cpu, i;
	u32 a, b, vp;
	int err = -ENOMEM;

	why = hvipi_test_switch_blocker();
	if (why) {
		pr_warn("not started: %s\n", why);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < ARRAY_SIZE(thv_table_name); i++)
		if (sysfs_streq(test_hv, thv_table_name[i]))
			break;
	if (i == ARRAY_SIZE(thv_table_name)) {
		pr_warn("not started: test_hv=%s: want identity, permuted or sparse-high\n",
			test_hv);
		return -EINVAL;
	}
	thv.table_kind = i;
	thv.xmm = xmm;

	thv.table = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	thv.vp_cpu = kmalloc_array(RX_VP_BITS, sizeof(u16), GFP_KERNEL);
	thv.iwi0 = kcalloc(nr_cpu_ids, sizeof(*thv.iwi0), GFP_KERNEL);
	thv.hits0 = kcalloc(nr_cpu_ids, sizeof(*thv.hits0), GFP_KERNEL);
	thv.pcpu = alloc_percpu(struct thv_pcpu);
	thv.pages = alloc_percpu(void *);
	seen = bitmap_zalloc(HVIPI_VP_LIMIT, GFP_KERNEL);
	if (!thv.table || !thv.vp_cpu || !thv.iwi0 || !thv.hits0 ||
	    !thv.pcpu || !thv.pages || !seen ||
	    !zalloc_cpumask_var(&thv.snap, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&thv.mask, GFP_KERNEL))
		goto fail;
	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(thv.pages, cpu) = (void *)get_zeroed_page(GFP_KERNEL);
		if (!*per_cpu_ptr(thv.pages, cpu))
			goto fail;
		per_cpu_ptr(thv.pcpu, cpu)->cur_op = -1;
	}
	err = thv_fill_table();
	if (err)
		goto fail;
	/* the core's assumption vp_injective, as for a real switch */
	if (!hvipi_vp_injective(thv.table, nr_cpu_ids, seen, &a, &b, &vp)) {
		pr_warn("not started: CPUs %u and %u share VP %u\n", a, b, vp);
		err = -EINVAL;
		goto fail;
	}
	for (i = 0; i < RX_VP_BITS; i++)
		thv.vp_cpu[i] = VP_NO_CPU;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		thv.vp_cpu[thv.table[cpu]] = cpu;
	prandom_seed_state(&thv.rnd, 0x74687631ull);
	atomic_set(&thv.cpu_up, 0);
	atomic_set(&thv.cpu_down, 0);
	atomic_set(&thv.rej_logged, 0);
	memset(&thv.load, 0, sizeof(thv.load));

	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "hvipi/testhv:online",
					thv_cpu_online, thv_cpu_offline);
	if (err < 0)
		goto fail;
	thv.cpuhp_state = err;
	err = register_trace_hvipi_send(thv_probe, NULL);
	if (err)
		goto fail_cpuhp;

	hvipi_read_ops(&thv.saved);
	hvipi_live.hcall_pg = (void *)hvipi_testhv_hcall;
	hvipi_live.input_arg = thv.pages;
	hvipi_live.vp_index = thv.table;
	hvipi_live.vp_ident = hvipi_vp_ident(thv.table, nr_cpu_ids);
	hvipi_live.present = hvipi_live_present();	/* as a real switch */
	hvipi_live.hints = HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS |
			   (xmm ? HVIPI_HINT_XMM_INPUT : 0);
	hvipi_live.page_size = PAGE_SIZE;
	hvipi_live.xmm = xmm;
	hvipi_live.orig = thv.saved;
	smp_wmb();	/* hvipi_live complete before any CPU calls an op */
	hvipi_write_ops(&thv_ops);
	thv.started = true;
	thv.t0 = ktime_get_ns();

	thv.load_task = kthread_run(thv_load_fn, NULL, "hvipi-testhv");
	if (IS_ERR(thv.load_task))
		thv.load_task = NULL;	/* reported as 0 rounds: a failure */

	pr_info("TEST hypervisor inside this guest (no Hyper-V is reached): all six APIC IPI ops now go to hvipi; VP table %s (CPU %u -> VP %u ... CPU %u -> VP %u), xmm %s, Ex \"all\" format %s, %u CPUs online\n",
		thv_table_name[thv.table_kind], 0, thv.table[0],
		nr_cpu_ids - 1, thv.table[nr_cpu_ids - 1],
		xmm ? "on" : "off", hvipi_live.present ? "on" : "off",
		num_online_cpus());
	bitmap_free(seen);
	return 0;

fail_cpuhp:
	cpuhp_remove_state_nocalls(thv.cpuhp_state);
	thv.cpuhp_state = -1;
fail:
	pr_warn("not started: setup failed (%d)\n", err);
	bitmap_free(seen);
	thv_free();
	return err < 0 ? err : -ENOMEM;
}

static void thv_sum(struct thv_sum *s)
{
	unsigned int cpu, i, j;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		const struct thv_pcpu *p = per_cpu_ptr(thv.pcpu, cpu);

		s->calls += p->calls;
		s->rejected += p->rejected;
		s->delivered += p->delivered;
		s->vp_no_cpu += p->vp_no_cpu;
		s->empty += p->empty;
		s->not_online += p->not_online;
		s->untraced += p->untraced;
		s->status_failed += p->status_failed;
		for (i = 0; i < F_N; i++)
			s->form[i] += p->form[i];
		for (i = 0; i < REJ_N; i++)
			s->rej[i] += p->rej[i];
		for (i = 0; i < OP_N; i++)
			s->op[i] += p->op[i];
		for (i = 0; i < KIND_N; i++)
			s->kind[i] += p->kind[i];
		for (i = 0; i < REASON_N; i++)
			s->reason[i] += p->reason[i];
		for (i = 0; i <= OP_N; i++)
			for (j = 0; j < KIND_N; j++)
				s->op_kind[i][j] += p->op_kind[i][j];
	}
}

static unsigned int thv_tests, thv_pass, thv_fail, thv_skip;

static void thv_ktap(bool ok, const char *name, const char *skip)
{
	thv_tests++;
	if (ok && skip) {
		thv_skip++;
		printk(KERN_INFO "ok %u - %s # SKIP %s\n", thv_tests, name, skip);
	} else if (ok) {
		thv_pass++;
		printk(KERN_INFO "ok %u - %s\n", thv_tests, name);
	} else {
		thv_fail++;
		printk(KERN_INFO "not ok %u - %s\n", thv_tests, name);
	}
}

#define THV_NTESTS	9

static void thv_report(const struct thv_sum *s, u64 secs)
{
	const struct thv_load *l = &thv.load;
	u64 hcalls = s->kind[HVIPI_PLAN_FAST] + s->kind[HVIPI_PLAN_EX_SPARSE] +
		     s->kind[HVIPI_PLAN_EX_ALL] + s->kind[HVIPI_PLAN_EX_XMM];
	u64 odd_fallbacks = s->reason[HVIPI_FB_NONE] +
		s->reason[HVIPI_FB_NOT_RECOMMENDED] +
		s->reason[HVIPI_FB_VP_UNKNOWN] +
		s->reason[HVIPI_FB_EX_NOT_RECOMMENDED] +
		s->reason[HVIPI_FB_VP_TOO_BIG] + s->reason[REASON_N - 1];
	bool present = hvipi_live_present() != NULL;
	int cycles = READ_ONCE(testhv_hotplug_cycles);
	bool ops_ok = true, kinds_ok, sends_ok = true;
	u64 ops_sum = 0, kinds_sum = 0;
	const char *skip;
	unsigned int i;

	for (i = 0; i < KIND_N; i++)
		kinds_sum += s->kind[i];
	for (i = 0; i < OP_N; i++) {
		ops_sum += s->op[i];
		ops_ok &= s->op[i] > 0;
		sends_ok &= l->iwi_sends[i] > 0;
	}

	/* the counts (the QEMU test parses and checks these lines too) */
	pr_info("counts: table=%s xmm=%d cpus=%u secs=%llu\n",
		thv_table_name[thv.table_kind], thv.xmm, num_online_cpus(),
		secs);
	pr_info("counts: plans fast=%llu ex_sparse=%llu ex_xmm=%llu ex_all=%llu fallback=%llu none=%llu other=%llu untraced_sends=%llu\n",
		s->kind[HVIPI_PLAN_FAST], s->kind[HVIPI_PLAN_EX_SPARSE],
		s->kind[HVIPI_PLAN_EX_XMM], s->kind[HVIPI_PLAN_EX_ALL],
		s->kind[HVIPI_PLAN_FALLBACK], s->kind[HVIPI_PLAN_NONE],
		s->kind[KIND_N - 1], s->untraced);
	for (i = 0; i <= OP_N; i++)
		pr_info("counts: op %s=%llu plans fast=%llu ex_sparse=%llu ex_xmm=%llu ex_all=%llu fallback=%llu none=%llu\n",
			i < OP_N ? hvipi_op_name[i] : "(outside_the_ops)",
			i < OP_N ? s->op[i] : 0, s->op_kind[i][HVIPI_PLAN_FAST],
			s->op_kind[i][HVIPI_PLAN_EX_SPARSE],
			s->op_kind[i][HVIPI_PLAN_EX_XMM],
			s->op_kind[i][HVIPI_PLAN_EX_ALL],
			s->op_kind[i][HVIPI_PLAN_FALLBACK],
			s->op_kind[i][HVIPI_PLAN_NONE]);
	pr_info("counts: hypervisor hv_calls=%llu hv_fast=%llu hv_ex_memory_sparse=%llu hv_ex_memory_all=%llu hv_ex_xmm=%llu hv_from_cpu_not_online=%llu delivered=%llu empty=%llu vp_without_cpu=%llu rejected=%llu rejected_status_2=%llu rejected_status_3=%llu rejected_status_4=%llu rejected_status_5=%llu rejected_other=%llu\n",
		s->calls, s->form[F_FAST], s->form[F_EX_MEM], s->form[F_EX_ALL],
		s->form[F_EX_XMM], s->not_online, s->delivered, s->empty,
		s->vp_no_cpu,
		s->rejected, s->rej[0], s->rej[1], s->rej[2], s->rej[3],
		s->rej[4]);
	pr_info("counts: fallbacks fb_%s=%llu fb_%s=%llu fb_%s=%llu fb_%s=%llu fb_%s=%llu fb_%s=%llu fb_other=%llu failed_status=%llu\n",
		thv_reason_name[1], s->reason[1], thv_reason_name[2], s->reason[2],
		thv_reason_name[3], s->reason[3], thv_reason_name[4], s->reason[4],
		thv_reason_name[5], s->reason[5], thv_reason_name[6], s->reason[6],
		s->reason[0] + s->reason[REASON_N - 1], s->status_failed);
	pr_info("counts: sender rounds=%lu scf_calls=%lu scf_checked=%lu scf_missed=%lu iwi_one=%lu iwi_mask=%lu iwi_mask_allbutself=%lu iwi_allbutself=%lu iwi_all=%lu iwi_self=%lu iwi_checked=%lu iwi_missed=%lu\n",
		l->rounds, l->scf_calls, l->scf_checked, l->scf_missed,
		l->iwi_sends[OP_ONE], l->iwi_sends[OP_MASK],
		l->iwi_sends[OP_MASK_ABS], l->iwi_sends[OP_ABS],
		l->iwi_sends[OP_ALL], l->iwi_sends[OP_SELF], l->iwi_checked,
		l->iwi_missed);
	pr_info("counts: hotplug cycles_reported=%d cpu_down_callbacks=%d cpu_up_callbacks=%d online_at_end=%u present=%u\n",
		cycles, atomic_read(&thv.cpu_down), atomic_read(&thv.cpu_up),
		num_online_cpus(), num_present_cpus());
	if (thv.rej_status)
		pr_info("first rejected call: status %#x control %#llx rdx %#llx r8 %#llx xmm0 %#llx:%#llx\n",
			thv.rej_status, thv.rej_regs.rcx, thv.rej_regs.rdx,
			thv.rej_regs.r8, thv.rej_regs.xmm[1],
			thv.rej_regs.xmm[0]);

	printk(KERN_INFO "KTAP version 1\n");
	printk(KERN_INFO "1..%u\n", THV_NTESTS);
	thv_ktap(s->calls > 0 && s->rejected == 0 && s->status_failed == 0,
		 "testhv_hypercalls_decoded_none_rejected", NULL);
	thv_ktap(s->delivered > 0 && s->vp_no_cpu == 0,
		 "testhv_every_decoded_vp_delivered_to_its_cpu", NULL);
	thv_ktap(hcalls + s->not_online == s->calls &&
		 s->form[F_FAST] == s->kind[HVIPI_PLAN_FAST] &&
		 s->form[F_EX_MEM] == s->kind[HVIPI_PLAN_EX_SPARSE] &&
		 s->form[F_EX_ALL] == s->kind[HVIPI_PLAN_EX_ALL] &&
		 s->form[F_EX_XMM] == s->kind[HVIPI_PLAN_EX_XMM] &&
		 s->kind[KIND_N - 1] == 0,
		 "testhv_plans_match_decoded_forms", NULL);
	thv_ktap(ops_ok && ops_sum == kinds_sum + s->untraced &&
		 s->op_kind[OP_N][HVIPI_PLAN_FAST] +
		 s->op_kind[OP_N][HVIPI_PLAN_EX_SPARSE] +
		 s->op_kind[OP_N][HVIPI_PLAN_EX_XMM] +
		 s->op_kind[OP_N][HVIPI_PLAN_EX_ALL] == 0,
		 "testhv_all_six_ops_through_hvipi", NULL);
	/* which plans this table must produce */
	switch (thv.table_kind) {
	case TBL_SPARSE_HIGH:
		kinds_ok = s->kind[HVIPI_PLAN_FAST] == 0 &&
			   (!present || s->kind[HVIPI_PLAN_EX_ALL] > 0) &&
			   (thv.xmm ? s->kind[HVIPI_PLAN_EX_XMM] > 0 :
			    s->kind[HVIPI_PLAN_EX_XMM] == 0 &&
			    s->kind[HVIPI_PLAN_EX_SPARSE] > 0);
		break;
	default:	/* all VPs < 64 with at most 64 CPUs: FAST only */
		kinds_ok = s->kind[HVIPI_PLAN_FAST] > 0 &&
			   (nr_cpu_ids > 64 ||
			    s->kind[HVIPI_PLAN_EX_SPARSE] + s->kind[HVIPI_PLAN_EX_XMM] +
			    s->kind[HVIPI_PLAN_EX_ALL] == 0);
		break;
	}
	thv_ktap(kinds_ok, "testhv_plan_kinds_for_the_vp_table", NULL);
	/* NMI vector (bad_vector) and NMI-context sends (no_page) only */
	thv_ktap(odd_fallbacks == 0, "testhv_fallbacks_only_nmi_reasons", NULL);
	thv_ktap(l->scf_calls > 0 && l->scf_checked > 0 && l->scf_missed == 0,
		 "testhv_smp_call_function_many_random_masks_none_missed", NULL);
	thv_ktap(sends_ok && l->iwi_checked > 0 && l->iwi_missed == 0,
		 "testhv_irq_work_ipis_through_each_op_none_missed", NULL);
	skip = NULL;
	if (cycles < 0)
		skip = "CPU offline/online not possible here";
	thv_ktap(num_online_cpus() == num_present_cpus() &&
		 (cycles < 0 || (cycles > 0 &&
				 atomic_read(&thv.cpu_down) >= cycles &&
				 atomic_read(&thv.cpu_up) >= cycles)),
		 "testhv_cpu_hotplug_cycles_seen", skip);
	if (thv_skip)
		printk(KERN_INFO "# hvipi: skip:%u\n", thv_skip);
	printk(KERN_INFO "# hvipi: pass:%u fail:%u\n", thv_pass, thv_fail);
}

void hvipi_testhv_stop(void)
{
	struct thv_sum *s;
	u64 secs;

	if (!thv.started)
		return;
	if (thv.load_task)
		kthread_stop(thv.load_task);
	thv.load_task = NULL;
	hvipi_write_ops(&thv.saved);
	/* sends run with preemption or interrupts off: then none is left */
	synchronize_rcu();
	memset(&hvipi_live, 0, sizeof(hvipi_live));
	unregister_trace_hvipi_send(thv_probe, NULL);
	tracepoint_synchronize_unregister();
	cpuhp_remove_state_nocalls(thv.cpuhp_state);
	thv.cpuhp_state = -1;
	thv.started = false;
	secs = (ktime_get_ns() - thv.t0) / NSEC_PER_SEC;
	pr_info("APIC IPI ops restored after %llu s\n", secs);

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (s) {
		thv_sum(s);
		thv_report(s, secs);
		kfree(s);
	} else {
		printk(KERN_INFO "KTAP version 1\n");
		printk(KERN_INFO "1..1\n");
		printk(KERN_INFO "not ok 1 - testhv_report\n");
		printk(KERN_INFO "# hvipi: pass:0 fail:1\n");
	}
	thv_free();
}
