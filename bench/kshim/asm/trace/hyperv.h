/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: Linux's two IPI trace points, disabled: one nop each, as
 * the glue's (linux/tracepoint.h here); kernel_ref's version leaves test
 * marks instead.  And mmu.c's remote TLB flush one, the same way (the
 * flush rows' check runs the real hyperv_flush_tlb_multi(), uncounted).
 */
#ifndef KBENCH_SHIM_ASM_TRACE_HYPERV_H
#define KBENCH_SHIM_ASM_TRACE_HYPERV_H

#include "kbench_kernel.h"

static inline void trace_hyperv_send_ipi_mask(const struct cpumask *cpus,
					      int vector)
{
	(void)cpus;
	(void)vector;
	asm volatile("nop");
}

static inline void trace_hyperv_send_ipi_one(int cpu, int vector)
{
	(void)cpu;
	(void)vector;
	asm volatile("nop");
}

struct flush_tlb_info;

static inline void trace_hyperv_mmu_flush_tlb_multi(const struct cpumask *cpus,
						    const struct flush_tlb_info *info)
{
	(void)cpus;
	(void)info;
	asm volatile("nop");
}

#endif /* KBENCH_SHIM_ASM_TRACE_HYPERV_H */
