/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim: the two IPI trace points, as marks for the harness, and
 * the remote TLB flush one of mmu.c (nothing).
 */
#ifndef KREF_SHIM_ASM_TRACE_HYPERV_H
#define KREF_SHIM_ASM_TRACE_HYPERV_H

#include "kref_kernel.h"

static inline void trace_hyperv_send_ipi_mask(const struct cpumask *cpus,
					      int vector)
{
	(void)cpus;
	(void)vector;
	KREF_MARK(trace_mask);
}

static inline void trace_hyperv_send_ipi_one(int cpu, int vector)
{
	(void)cpu;
	(void)vector;
	KREF_MARK(trace_one);
}

struct flush_tlb_info;

static inline void trace_hyperv_mmu_flush_tlb_multi(const struct cpumask *cpus,
						    const struct flush_tlb_info *info)
{
	(void)cpus;
	(void)info;
}

#endif /* KREF_SHIM_ASM_TRACE_HYPERV_H */
