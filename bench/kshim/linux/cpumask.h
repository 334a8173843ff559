/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: tests/kernel_ref's cpumask shim, with one change for the
 * instruction count: cpumask_of() reads a constant table as the kernel's
 * does (a pointer into a table of one-bit rows, moved back by the CPU's
 * word index: no store), where kernel_ref's writes a scratch mask.
 */
#ifndef KBENCH_SHIM_LINUX_CPUMASK_H
#define KBENCH_SHIM_LINUX_CPUMASK_H

#include "kbench_kernel.h"

/* kernel_ref's cpumask_of() is renamed out of the way (and unused). */
#define cpumask_of kref_scratch_cpumask_of
#include "../../../tests/kernel_ref/shim/linux/cpumask.h"
#undef cpumask_of

#define KBENCH_MASK_WORDS	(KREF_NR_CPUS / BITS_PER_LONG)

/*
 * Row r (1..64) of kbench_cpu_bit_rows holds bit r - 1 in its word 0 and
 * zeros elsewhere; row 0 is zero.  The mask of @cpu starts cpu / 64 words
 * before row 1 + cpu % 64: its word cpu / 64 is that row's word 0, every
 * other word a zero word of that row or of the rows before it.
 */
extern unsigned long kbench_cpu_bit_rows[(BITS_PER_LONG + 1) * KBENCH_MASK_WORDS];

static inline const struct cpumask *cpumask_of(unsigned int cpu)
{
	const unsigned long *p = kbench_cpu_bit_rows +
		(1 + cpu % BITS_PER_LONG) * KBENCH_MASK_WORDS;

	return (const struct cpumask *)(p - cpu / BITS_PER_LONG);
}

#endif /* KBENCH_SHIM_LINUX_CPUMASK_H */
