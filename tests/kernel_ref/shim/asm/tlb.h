/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim for <asm/tlb.h>: tlb_remove_table(), which mmu.c of 6.1
 * installs as a paravirt op (never called here; kernel_ref/kflush_mmu.c).
 */
#ifndef KREF_SHIM_ASM_TLB_H
#define KREF_SHIM_ASM_TLB_H

#include "kref_kernel.h"
#include <asm/tlbflush.h>

void tlb_remove_table(struct mmu_gather *tlb, void *table);

#endif /* KREF_SHIM_ASM_TLB_H */
