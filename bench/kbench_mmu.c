/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kbench_mmu: the Linux side of the bench's flush rows.  Linux 6.1's
 * arch/x86/hyperv/mmu.c (extracted by tests/kernel_ref/extract.sh,
 * compiled unchanged, with the bench's kernel flags and shims) is included
 * here so that its static fill_gva_list() can be called; the measured
 * entry points are the functions below (see bench/README.md, "Flush
 * rows").  In the kernel fill_gva_list() is inlined into
 * hyperv_flush_tlb_multi() with offset 0 (non-Ex); these wrappers call it
 * with the constant 0 too, so the compiler sees what it sees there.
 *
 * tests/kernel_ref/kflush_mmu.c includes the same file for the uncounted
 * check of the real hyperv_flush_tlb_multi() and defines pv_ops,
 * native_flush_tlb_multi() and tlb_remove_table(); this copy's one
 * non-static function is renamed so that both link together.
 */
#define hyperv_setup_mmu_ops	kbench_unused_setup_mmu_ops

#include "arch/x86/hyperv/mmu.c"

#include "kbench_flush.h"

/*
 * The list room of a non-Ex input page, as hyperv_flush_tlb_multi()
 * computes its max_gvas: (PAGE_SIZE - sizeof(*flush)) / sizeof(u64), 509.
 */
#define KBENCH_MAX_GVAS \
	((PAGE_SIZE - sizeof(struct hv_tlb_flush)) / sizeof(u64))

_Static_assert(KBENCH_MAX_GVAS == KBENCH_FLUSH_CAPACITY, "non-Ex list room");

/*
 * The choice hyperv_flush_tlb_multi() makes (non-Ex) between the
 * whole-space call and the list, restated here for the bench with mmu.c's
 * own TLB_FLUSH_ALL, HV_TLB_FLUSH_UNIT and struct: whole space when end is
 * TLB_FLUSH_ALL, or when end is not 0 and (end - start) / 16 MiB is more
 * than the page's list room.  Not a copy of the kernel's statement: the
 * bench checks on every flush row that it agrees with what the real
 * hyperv_flush_tlb_multi() does (bench.c, b_flush_check()).
 */
static __always_inline bool kbench_space(unsigned long start,
					 unsigned long end)
{
	if (end == TLB_FLUSH_ALL)
		return true;
	return end != 0 && (end - start) / HV_TLB_FLUSH_UNIT > KBENCH_MAX_GVAS;
}

int kbench_fill_gva_list(uint64_t *gva_list, unsigned long start,
			 unsigned long end)
{
	return fill_gva_list(gva_list, 0, start, end);
}

bool kbench_flush_space(unsigned long start, unsigned long end)
{
	return kbench_space(start, end);
}

unsigned int kbench_max_gvas(void)
{
	return KBENCH_MAX_GVAS;
}
