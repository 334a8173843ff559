/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kbench_flush: what the bench harness (bench.c) and kbench_mmu.c (the
 * Linux side of the flush rows: Linux 6.1's arch/x86/hyperv/mmu.c
 * included, unchanged) share.  Plain C types only.
 */
#ifndef KBENCH_FLUSH_H
#define KBENCH_FLUSH_H

#include <stdbool.h>
#include <stdint.h>

/* GVA entries a non-Ex flush input page lists: (4096 - 24) / 8. */
#define KBENCH_FLUSH_CAPACITY	509u

/* mmu.c's static fill_gva_list(gva_list, 0, start, end), as is. */
int kbench_fill_gva_list(uint64_t *gva_list, unsigned long start,
			 unsigned long end);

/*
 * hyperv_flush_tlb_multi()'s (non-Ex) choice of the whole-space call over
 * the list: end == TLB_FLUSH_ALL, or end != 0 and (end - start) / 16 MiB >
 * 509 (kbench_mmu.c).
 */
bool kbench_flush_space(unsigned long start, unsigned long end);

/* mmu.c's non-Ex max_gvas (509), for the harness's check. */
unsigned int kbench_max_gvas(void);

/* The core as the module builds it (bench/kcore_names.h). */
uint32_t hvipi_k_gva_list(uint64_t *list, uint32_t capacity, uint64_t start,
			  uint64_t end);

#endif /* KBENCH_FLUSH_H */
