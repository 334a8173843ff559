/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kbench: what the bench harness (bench.c) and the kernel-side objects
 * share: hvipi's APIC glue (kernel-glue/hvipi_apic.c with the core built as
 * the module builds it) and its environment (kbench_env.c).  The real Linux
 * side is reached through tests/kernel_ref's kref.h (kref_env_set(), the
 * apic ops, kref_rec).  Plain C types and kref.h's struct cpumask only.
 */
#ifndef KBENCH_H
#define KBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "kref.h"

/* The glue's context (struct hvipi_ctx hvipi_live) for one workload. */
struct kbench_glue_env {
	uint32_t nr_cpu_ids;
	const uint32_t *vp_index;
	uint32_t vp_ident;		/* hvipi_vp_ident(), as the switch computes it */
	const struct cpumask *present;	/* NULL: no "all" format */
	uint32_t hints;			/* HVIPI_HINT_* */
	bool xmm;			/* XMM-fast Ex allowed */
	void *input_page;		/* this CPU's input page */
	uint32_t page_size;
	int self;
};

/* The glue ops installed into struct apic (hvipi_apic_ops) that the bench calls. */
struct kbench_ops {
	void (*send_IPI)(int cpu, int vector);
	void (*send_IPI_mask)(const struct cpumask *mask, int vector);
	void (*send_IPI_mask_allbutself)(const struct cpumask *mask, int vector);
};

/* What the glue's hypercalls passed: the last call's registers. */
struct kbench_hcall {
	uint64_t calls;			/* hypercalls since kbench_glue_set() */
	uint64_t rcx, rdx, r8;
	uint64_t xmm[12];		/* xmm0..5, low half first */
	unsigned int nr_native;		/* fallbacks to the original ops */
};

void kbench_init(void);		/* the cpumask_of() table */
void kbench_glue_set(const struct kbench_glue_env *e);
void kbench_glue_ops(struct kbench_ops *ops);
void kbench_glue_last(struct kbench_hcall *h);

/*
 * The flush op of the module (kernel-glue/hvipi_flush.c,
 * hvipi_ctx_flush_tlb_multi() on hvipi_live), for the flush planner rows:
 * kbench_flush_set() is kbench_glue_set(@e) (@e->hints with the
 * remote-flush hint) plus a native flush that counts as a fallback
 * (kbench_glue_last()'s nr_native), and every hypercall returning
 * @status (a rep call's: all its reps done, as a hypervisor that
 * finishes the list in one go).  kbench_glue_flush() calls the op; the
 * count is taken inside it (toggle on hvipi_ctx_flush_tlb_multi).
 */
void kbench_flush_set(const struct kbench_glue_env *e, uint64_t status);
void kbench_glue_flush(const struct cpumask *cpus, uint64_t space,
		       uint64_t start, uint64_t end, uint32_t opts);

/* The glue's hypercall page: usertest/recorder.S (excluded from the count). */
void hvipi_rec_hcall(void);

#endif /* KBENCH_H */
