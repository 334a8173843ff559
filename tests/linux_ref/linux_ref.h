/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * linux_ref: a model, written from docs/HYPERV_FACTS.md §3, of what Linux
 * 6.1's guest code sends for a Hyper-V PV IPI.  Self-contained: its own
 * constants.
 * Same inputs as hvipi_plan_mask() / hvipi_plan_one(), same output shape
 * (control, rdx, r8, input page bytes), so the receiver model can decode
 * it.  Also the baseline of the benchmarks.
 *
 * Checked against the real code of Linux 6.1 (tests/kernel_ref/kref_check.c:
 * kind, reason, call and page bytes on every send of the kernel_ref and
 * exhaustive suites).
 * Linux behaviours kept on purpose (they are what hvipi is compared with):
 *  - the "last CPU" look: if the VP of the highest CPU in the mask is >= 64
 *    (VP_INVAL does not count: 6.1 reads it into an int, as -1), go
 *    straight to the Ex call, even when that CPU is self and self is
 *    excluded;
 *  - the fast walk falls back on the first VP_INVAL it meets, and switches
 *    to Ex on the first VP >= 64 it meets, whichever comes first;
 *  - sparse sets are dense: banks 0..highest used bank (at least bank 0),
 *    valid_bank_mask = low nr_bank bits; the banks 0..(max VP seen)/64 are
 *    cleared in the page first;
 *  - a max VP seen (over the whole table) >= 4096 makes every sparse Ex
 *    send fall back;
 *  - format "all" when the mask equals the present mask and self is not
 *    excluded, whatever the VPs (VP_INVAL included).
 */
#ifndef LINUX_REF_H
#define LINUX_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hint bits: the same values as the HVIPI_HINT_* inputs of the core. */
#define LR_HINT_CLUSTER_IPI	(1u << 0)
#define LR_HINT_EX_MASKS	(1u << 1)

enum lr_kind {
	LR_NOOP = 0,		/* nothing sent, success */
	LR_FAST = 1,		/* fast HvCallSendSyntheticClusterIpi */
	LR_EX_SPARSE = 2,	/* HvCallSendSyntheticClusterIpiEx, sparse */
	LR_EX_ALL = 3,		/* HvCallSendSyntheticClusterIpiEx, all */
	LR_FALLBACK = 4,	/* native APIC */
};

enum lr_why {
	LR_WHY_NONE = 0,
	LR_WHY_NO_HINT,		/* PV IPIs not installed (no cluster hint) */
	LR_WHY_VECTOR,		/* vector outside 0x10..0xff */
	LR_WHY_VP_INVAL,	/* a target VP unknown */
	LR_WHY_NO_EX,		/* Ex needed, EX hint not set */
	LR_WHY_RANGE,		/* max VP seen >= 4096 */
	LR_WHY_NO_PAGE,		/* no input page (or too small) */
	LR_WHY_COUNT
};

struct lr_out {
	uint32_t kind;		/* enum lr_kind */
	uint32_t why;		/* enum lr_why */
	uint64_t control;
	uint64_t rdx;		/* FAST: vector; Ex: 0 (the page GPA) */
	uint64_t r8;		/* FAST: VP mask */
	uint32_t nr_bank;	/* Ex sparse: banks sent */
	uint32_t bytes;		/* Ex: input bytes sent */
	uint32_t written;	/* Ex: page bytes written (>= bytes) */
	bool last_cpu_ex;	/* the last-CPU look chose Ex */
};

void linux_ref_mask(struct lr_out *out, const unsigned long *mask,
		    const unsigned long *present, uint32_t nr_cpu_ids,
		    const uint32_t *vp_index, uint32_t self, bool exclude_self,
		    uint32_t vector, uint32_t hints, uint64_t *page,
		    uint32_t page_size);

/* One-CPU send; @present may be NULL.  A @cpu >= @nr_cpu_ids: NOOP. */
void linux_ref_one(struct lr_out *out, uint32_t cpu,
		   const unsigned long *present, uint32_t nr_cpu_ids,
		   const uint32_t *vp_index, uint32_t vector, uint32_t hints,
		   uint64_t *page, uint32_t page_size);

#endif /* LINUX_REF_H */
