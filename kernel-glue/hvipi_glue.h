/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_glue.h - the kernel glue around the verified hvipi core.
 *
 * All state the send path reads is in one struct hvipi_ctx: the live one
 * (hvipi_live) is filled from the Hyper-V globals when the module switches
 * the APIC ops; the self-test builds its own with a fake hypercall page,
 * its own input pages and counting "original" ops, so testing never
 * touches the live state.
 */
#ifndef HVIPI_GLUE_H
#define HVIPI_GLUE_H

#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "hvipi.h"

/* The APIC IPI ops the glue replaces, and falls back to. */
struct hvipi_ops {
	void (*send_IPI)(int cpu, int vector);
	void (*send_IPI_mask)(const struct cpumask *mask, int vector);
	void (*send_IPI_mask_allbutself)(const struct cpumask *mask, int vector);
	void (*send_IPI_allbutself)(int vector);
	void (*send_IPI_all)(int vector);
	void (*send_IPI_self)(int vector);
};

struct hvipi_ctx {
	void *hcall_pg;			/* call target; NULL: always fall back */
	/*
	 * per-CPU input page, or NULL; only the glue's: never a page the
	 * original ops write (hvipi_ctx_fill(), hvipi_switch.c)
	 */
	void * __percpu *input_arg;
	const u32 *vp_index;		/* nr_cpu_ids entries */
	u32 vp_ident;			/* hvipi_vp_ident(vp_index): CPUs below
					 * it are their own VPs (0: none) */
	const struct cpumask *present;	/* "all" format only for this set */
	u32 hints;			/* HVIPI_HINT_* */
	u32 page_size;			/* bytes of each input page */
	bool xmm;			/* XMM-fast Ex allowed (with the hint) */
	struct hvipi_ops orig;		/* fallback */
	/* the native remote TLB flush, the flush op's fallback (NULL: none),
	 * with the op's arguments */
	void (*orig_flush)(const struct cpumask *cpus, u64 space, u64 start,
			   u64 end, u32 opts);
	/*
	 * TEST ONLY (self-test contexts; hvipi_live leaves both zero):
	 * test_force_nmi makes the glue treat every send on this context as
	 * NMI context (hvipi_in_nmi()); test_hook, when set, is called by
	 * hvipi_try() with interrupts off after planning and right before the
	 * hypercall, e.g. to run a nested "NMI" send between the outer send's
	 * page write and its hypercall, or to corrupt the plan.  The live
	 * ops do not even read them (hvipi_test_ctx() in hvipi_apic.c): set
	 * them on a self-test context, never on hvipi_live.
	 */
	bool test_force_nmi;
	void (*test_hook)(const struct hvipi_ctx *ctx, struct hvipi_plan *plan,
			  u64 *page);
};

extern struct hvipi_ctx hvipi_live;

/* Input-page fetches, per CPU: the self-test checks NMIs do none. */
DECLARE_PER_CPU(unsigned long, hvipi_page_fetches);

/* The six ops on an explicit context (the live ops call them on hvipi_live). */
void hvipi_ctx_send_IPI(const struct hvipi_ctx *ctx, int cpu, int vector);
void hvipi_ctx_send_IPI_mask(const struct hvipi_ctx *ctx,
			     const struct cpumask *mask, int vector);
void hvipi_ctx_send_IPI_mask_allbutself(const struct hvipi_ctx *ctx,
					const struct cpumask *mask, int vector);
void hvipi_ctx_send_IPI_allbutself(const struct hvipi_ctx *ctx, int vector);
void hvipi_ctx_send_IPI_all(const struct hvipi_ctx *ctx, int vector);
void hvipi_ctx_send_IPI_self(const struct hvipi_ctx *ctx, int vector);

/*
 * The remote TLB flush op on an explicit context (hvipi_flush.c): the
 * verified flush planner, the rep-call loop, ctx->orig_flush on any
 * fallback; the flush as hvipi_flush_try() takes it (address space, range,
 * HVIPI_FLUSH_OPT_*).  The module does not install it:
 * pv_ops.mmu.flush_tlb_multi call sites are patched at boot, and 6.1 hides
 * struct flush_tlb_info from modules, so only the in-tree drop-in
 * (intree/hv_ipi_hvipi.c) puts the flush on the live path; the module runs
 * this op in its self-test on the fake hypercall page.
 */
void hvipi_ctx_flush_tlb_multi(const struct hvipi_ctx *ctx,
			       const struct cpumask *cpus, u64 space,
			       u64 start, u64 end, u32 opts);

/* The ops installed into struct apic (they use hvipi_live). */
extern const struct hvipi_ops hvipi_apic_ops;

#endif /* HVIPI_GLUE_H */
