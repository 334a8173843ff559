/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* kernel_ref shim: the two IPI trace points, as marks for the harness. */
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

#endif /* KREF_SHIM_ASM_TRACE_HYPERV_H */
