/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim: the cpumask operations the 6.1 files use, on
 * nr_cpumask_bits = nr_cpu_ids bits as in 6.1 (CONFIG_CPUMASK_OFFSTACK),
 * over the find_bit functions of linux/bitops.h.  struct cpumask is in
 * kref.h; nr_cpu_ids and the system masks are set by the harness.
 */
#ifndef KREF_SHIM_LINUX_CPUMASK_H
#define KREF_SHIM_LINUX_CPUMASK_H

#include "kref_kernel.h"
#include <linux/bitops.h>

extern unsigned int nr_cpu_ids;
#define nr_cpumask_bits		nr_cpu_ids
#define cpumask_bits(maskp)	((maskp)->bits)

extern const struct cpumask *cpu_present_mask;
extern const struct cpumask *cpu_online_mask;

static inline unsigned int cpumask_weight(const struct cpumask *srcp)
{
	return bitmap_weight(cpumask_bits(srcp), nr_cpumask_bits);
}

#define num_present_cpus()	cpumask_weight(cpu_present_mask)

/* Marks the "last CPU" look of __send_ipi_mask(). */
static inline unsigned int cpumask_last(const struct cpumask *srcp)
{
	KREF_MARK(last_look);
	return (unsigned int)find_last_bit(cpumask_bits(srcp), nr_cpumask_bits);
}

static __always_inline bool cpumask_test_cpu(int cpu, const struct cpumask *cpumask)
{
	return test_bit(cpu, cpumask_bits(cpumask));
}

/* Marks __send_ipi_mask_ex() past its input-page check. */
static inline bool cpumask_equal(const struct cpumask *src1p,
				 const struct cpumask *src2p)
{
	KREF_MARK_AT(equal, iters_at_equal);
	return bitmap_equal(cpumask_bits(src1p), cpumask_bits(src2p),
			    nr_cpumask_bits);
}

#define for_each_cpu(cpu, mask)	\
	for_each_set_bit(cpu, cpumask_bits(mask), nr_cpumask_bits)

/*
 * The mask of one CPU: one word of a zeroed mask set, the word set by the
 * previous call cleared (the kernel points into a constant table instead).
 */
extern struct cpumask kref_cpu_mask;
extern unsigned int kref_cpu_mask_word;

static inline const struct cpumask *cpumask_of(unsigned int cpu)
{
	kref_cpu_mask.bits[kref_cpu_mask_word] = 0;
	kref_cpu_mask_word = cpu / BITS_PER_LONG;
	kref_cpu_mask.bits[kref_cpu_mask_word] = BIT_MASK(cpu);
	return &kref_cpu_mask;
}

#endif /* KREF_SHIM_LINUX_CPUMASK_H */
