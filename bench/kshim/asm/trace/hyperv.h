/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: Linux's two IPI trace points, disabled: one nop each, as
 * the glue's (linux/tracepoint.h here); kernel_ref's version leaves test
 * marks instead.
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

#endif /* KBENCH_SHIM_ASM_TRACE_HYPERV_H */
