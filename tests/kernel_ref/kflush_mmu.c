/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kflush_mmu: Linux 6.1's arch/x86/hyperv/mmu.c (extracted by extract.sh,
 * compiled unchanged against shim/) included in this file, so that the
 * harness can call its static fill_gva_list() and the
 * hyperv_flush_tlb_multi() that its hyperv_setup_mmu_ops() installs; plus
 * what the kernel defines elsewhere for it: pv_ops, the native flush (a
 * recorder) and tlb_remove_table (never called).  The hypercall recorder
 * and the other globals are kref_env.c's.
 */
#include <string.h>

#include "arch/x86/hyperv/mmu.c"

#include "kflush.h"

_Static_assert(HVCALL_FLUSH_VIRTUAL_ADDRESS_SPACE == KFLUSH_SPACE, "code");
_Static_assert(HVCALL_FLUSH_VIRTUAL_ADDRESS_LIST == KFLUSH_LIST, "code");
_Static_assert(HVCALL_FLUSH_VIRTUAL_ADDRESS_SPACE_EX == KFLUSH_SPACE_EX, "code");
_Static_assert(HVCALL_FLUSH_VIRTUAL_ADDRESS_LIST_EX == KFLUSH_LIST_EX, "code");
_Static_assert(sizeof(struct hv_tlb_flush) == 24, "layout");
_Static_assert(sizeof(struct hv_tlb_flush_ex) == 32, "layout");

struct paravirt_patch_template pv_ops;

static unsigned int kflush_native;

void native_flush_tlb_multi(const struct cpumask *cpumask,
			    const struct flush_tlb_info *info)
{
	(void)cpumask;
	(void)info;
	kflush_native++;
}

void tlb_remove_table(struct mmu_gather *tlb, void *table)
{
	(void)tlb;
	(void)table;
}

/* Page-aligned, as a page-table root is. */
static pgd_t kflush_pgd[512] __aligned(4096);
static struct mm_struct kflush_mm = { .pgd = kflush_pgd };

int kflush_fill_gva_list(uint64_t *gva_list, int offset, unsigned long start,
			 unsigned long end)
{
	return fill_gva_list(gva_list, offset, start, end);
}

bool kflush_setup(const struct kref_env *e)
{
	struct kref_env env = *e;

	env.status = (u64)0xfff << HV_HYPERCALL_REP_COMP_OFFSET;
	kref_env_set(&env);
	ms_hyperv.hints |= HV_X64_REMOTE_TLB_FLUSH_RECOMMENDED;
	memset(&pv_ops, 0, sizeof(pv_ops));
	hyperv_setup_mmu_ops();
	return pv_ops.mmu.flush_tlb_multi == hyperv_flush_tlb_multi;
}

void kflush_multi(const struct cpumask *cpus, bool with_mm,
		  unsigned long start, unsigned long end,
		  struct kflush_call *out)
{
	struct flush_tlb_info info = {
		.mm = with_mm ? &kflush_mm : NULL,
		.start = start,
		.end = end,
		.stride_shift = PAGE_SHIFT,
	};

	memset(&kref_rec, 0, sizeof(kref_rec));
	kflush_native = 0;
	pv_ops.mmu.flush_tlb_multi(cpus, &info);
	out->nr_hcalls = kref_rec.nr_hcalls;
	out->control = kref_rec.control;
	out->nr_native = kflush_native;
}

uint64_t kflush_mm_space(void)
{
	return virt_to_phys(kflush_mm.pgd) & CR3_ADDR_MASK;
}
