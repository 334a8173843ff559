/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim for <asm/tlbflush.h> (and what mmu.c of 6.1 takes
 * through it): struct flush_tlb_info with the members 6.1 has, the mm's
 * page-table root for the address space, TLB_FLUSH_ALL, the paravirt op
 * table with the two MMU ops hyperv_setup_mmu_ops() sets, and the native
 * flush it falls back to, a recorder (kernel_ref/kflush_mmu.c).
 */
#ifndef KREF_SHIM_ASM_TLBFLUSH_H
#define KREF_SHIM_ASM_TLBFLUSH_H

#include "kref_kernel.h"
#include <linux/cpumask.h>

#define TLB_FLUSH_ALL		(~0UL)

/* The address bits of CR3 (52-bit physical addresses, no SME bit). */
#define CR3_ADDR_MASK		GENMASK_ULL(51, 12)

typedef struct {
	unsigned long pgd;
} pgd_t;

struct mm_struct {
	pgd_t *pgd;
};

/* Identity: this userspace "physical" address is the pointer. */
static inline u64 virt_to_phys(volatile void *address)
{
	return (u64)(uintptr_t)address;
}

struct flush_tlb_info {
	struct mm_struct *mm;
	unsigned long start;
	unsigned long end;
	u64 new_tlb_gen;
	unsigned int initiating_cpu;
	u8 stride_shift;
	u8 freed_tables;
};

struct mmu_gather;

struct pv_mmu_ops {
	void (*flush_tlb_multi)(const struct cpumask *cpus,
				const struct flush_tlb_info *info);
	void (*tlb_remove_table)(struct mmu_gather *tlb, void *table);
};

struct paravirt_patch_template {
	struct pv_mmu_ops mmu;
};

extern struct paravirt_patch_template pv_ops;

void native_flush_tlb_multi(const struct cpumask *cpumask,
			    const struct flush_tlb_info *info);

#endif /* KREF_SHIM_ASM_TLBFLUSH_H */
