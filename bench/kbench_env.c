/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kbench_env: the environment of hvipi's APIC glue (kernel-glue/hvipi_apic.c)
 * in the bench, compiled like it, against bench/kshim and
 * tests/kernel_ref/shim: its context hvipi_live, the recorder that stands
 * for the hypercall page (kernel-glue/usertest/recorder.S, whose record
 * this file defines), the original APIC ops as fallback counters, and the
 * FPU functions the XMM path calls; and the flush op's native flush and
 * entry (kbench_flush_set(), kbench_glue_flush()).  Also the table behind the cpumask_of()
 * shim (bench/kshim/linux/cpumask.h) that Linux's hv_apic.c uses.
 */
#include <string.h>

#include "hvipi_glue.h"
#include "kbench.h"

unsigned int kbench_preempt_count;
unsigned char kbench_irqs_off;
unsigned long kbench_this_cpu_off;
unsigned long kbench_cpu_bit_rows[(BITS_PER_LONG + 1) * KBENCH_MASK_WORDS];

void kbench_init(void)
{
	unsigned int b;

	memset(kbench_cpu_bit_rows, 0, sizeof(kbench_cpu_bit_rows));
	for (b = 0; b < BITS_PER_LONG; b++)
		kbench_cpu_bit_rows[(1 + b) * KBENCH_MASK_WORDS] = 1UL << b;
}

/* The record recorder.S writes (its layout comment: 0 rcx ... 136 pub). */
struct kbench_urec {
	u64 rcx, rdx, r8;
	u64 xmm[12];
	u64 calls;
	u64 status;
	u64 pub;
};
_Static_assert(__builtin_offsetof(struct kbench_urec, xmm) == 24, "layout");
_Static_assert(__builtin_offsetof(struct kbench_urec, calls) == 120, "layout");
_Static_assert(__builtin_offsetof(struct kbench_urec, pub) == 136, "layout");

struct kbench_urec hvipi_urec;	/* status 0: every hypercall succeeds */
u64 hvipi_upub;

/* The original ops: never reached on the bench's workloads (checked). */
static unsigned int kbench_native;

static void kb_orig_ipi(int cpu, int vector)
{
	(void)cpu;
	(void)vector;
	kbench_native++;
}

static void kb_orig_mask(const struct cpumask *mask, int vector)
{
	(void)mask;
	(void)vector;
	kbench_native++;
}

static void kb_orig_vec(int vector)
{
	(void)vector;
	kbench_native++;
}

/*
 * The FPU: the kernel's irq_fpu_usable() (not in NMI, the FPU not already
 * in kernel use, not in a hard interrupt) and kernel_fpu_begin/end()'s
 * bookkeeping (preemption off, the in-use flag).  Not done: the save of
 * the task's FPU registers that kernel_fpu_begin() makes the first time
 * (XSAVES) and their restore on the way back to user space.
 */
static bool kbench_in_kernel_fpu;
#define KBENCH_HARDIRQ_MASK	0x000f0000u

__attribute__((noinline)) bool irq_fpu_usable(void)
{
	if (kbench_preempt_count & KBENCH_NMI_MASK)
		return false;
	if (kbench_in_kernel_fpu)
		return false;
	return !(kbench_preempt_count & KBENCH_HARDIRQ_MASK);
}

__attribute__((noinline)) void kernel_fpu_begin(void)
{
	kbench_preempt_count++;
	kbench_in_kernel_fpu = true;
}

__attribute__((noinline)) void kernel_fpu_end(void)
{
	kbench_in_kernel_fpu = false;
	kbench_preempt_count--;
}

static void *kbench_input_slot;		/* this CPU's hyperv_pcpu_input_arg */

void kbench_glue_set(const struct kbench_glue_env *e)
{
	nr_cpu_ids = e->nr_cpu_ids;
	kref_self = e->self;
	kbench_input_slot = e->input_page;
	memset(&hvipi_live, 0, sizeof(hvipi_live));
	hvipi_live.hcall_pg = (void *)hvipi_rec_hcall;
	hvipi_live.input_arg = &kbench_input_slot;
	hvipi_live.vp_index = e->vp_index;
	hvipi_live.vp_ident = e->vp_ident;
	hvipi_live.present = e->present;
	hvipi_live.hints = e->hints;
	hvipi_live.page_size = e->page_size;
	hvipi_live.xmm = e->xmm;
	hvipi_live.orig.send_IPI = kb_orig_ipi;
	hvipi_live.orig.send_IPI_mask = kb_orig_mask;
	hvipi_live.orig.send_IPI_mask_allbutself = kb_orig_mask;
	hvipi_live.orig.send_IPI_allbutself = kb_orig_vec;
	hvipi_live.orig.send_IPI_all = kb_orig_vec;
	hvipi_live.orig.send_IPI_self = kb_orig_vec;
	memset(&hvipi_urec, 0, sizeof(hvipi_urec));
	kbench_native = 0;
	kbench_preempt_count = 0;
	kbench_in_kernel_fpu = false;
}

static void kb_orig_flush(const struct cpumask *cpus, u64 space, u64 start,
			  u64 end, u32 opts)
{
	(void)cpus;
	(void)space;
	(void)start;
	(void)end;
	(void)opts;
	kbench_native++;
}

void kbench_flush_set(const struct kbench_glue_env *e, uint64_t status)
{
	kbench_glue_set(e);
	hvipi_live.orig_flush = kb_orig_flush;
	hvipi_urec.status = status;
}

void kbench_glue_flush(const struct cpumask *cpus, uint64_t space,
		       uint64_t start, uint64_t end, uint32_t opts)
{
	hvipi_ctx_flush_tlb_multi(&hvipi_live, cpus, space, start, end, opts);
}

void kbench_glue_ops(struct kbench_ops *ops)
{
	ops->send_IPI = hvipi_apic_ops.send_IPI;
	ops->send_IPI_mask = hvipi_apic_ops.send_IPI_mask;
	ops->send_IPI_mask_allbutself = hvipi_apic_ops.send_IPI_mask_allbutself;
}

void kbench_glue_last(struct kbench_hcall *h)
{
	h->calls = hvipi_urec.calls;
	h->rcx = hvipi_urec.rcx;
	h->rdx = hvipi_urec.rdx;
	h->r8 = hvipi_urec.r8;
	memcpy(h->xmm, hvipi_urec.xmm, sizeof(h->xmm));
	h->nr_native = kbench_native;
}
