// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_apic.c - the APIC IPI callbacks on top of the verified hvipi core.
 *
 * Each send: plan with the core on the caller's cpumask bits and the VP
 * table as they are (no copy, no cpumask on the stack), issue the planned
 * hypercall with interrupts disabled around the per-CPU input page, and
 * call the original APIC op when the plan is FALLBACK or the hypervisor
 * status is not success.
 */
#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/io.h>
#include <asm/fpu/api.h>
#include <asm/simd.h>

#include "hvipi_glue.h"
#include "hvipi_hcall.h"
#include "hvipi_test_hooks.h"

#define CREATE_TRACE_POINTS
#include "hvipi_trace.h"

struct hvipi_ctx hvipi_live __read_mostly;
DEFINE_PER_CPU(unsigned long, hvipi_page_fetches);

static __always_inline bool hvipi_vector_ok(int vector)
{
	return vector >= (int)HVIPI_VECTOR_MIN && vector <= (int)HVIPI_VECTOR_MAX;
}

/*
 * May @ctx have the self-test's fields (test_force_nmi, test_hook) set?
 * Only self-test contexts set them; hvipi_live never does (struct
 * hvipi_ctx).  So the live ops, which pass &hvipi_live, a constant, compile
 * without reading them, and every other context reads them as before.
 */
static __always_inline bool hvipi_test_ctx(const struct hvipi_ctx *ctx)
{
	return ctx != &hvipi_live;
}

/* Does @ctx have a test hook?  (Self-test contexts only.) */
static __always_inline bool hvipi_has_hook(const struct hvipi_ctx *ctx)
{
	return hvipi_test_ctx(ctx) && ctx->test_hook;
}

/*
 * Is this send running in NMI context?  The self-test's contexts can force
 * it (test_force_nmi) to simulate an NMI handler's send; hvipi_live never
 * sets it.
 */
static __always_inline bool hvipi_in_nmi(const struct hvipi_ctx *ctx)
{
	return in_nmi() || (hvipi_test_ctx(ctx) && ctx->test_force_nmi);
}

/*
 * The per-CPU input page, interrupts disabled.  Called only for vectors the
 * core can send, so an NMI (vector 2) never reads, let alone writes, it;
 * and never in NMI context (see hvipi_try()).
 */
static __always_inline u64 *hvipi_fetch_page(const struct hvipi_ctx *ctx)
{
	lockdep_assert_irqs_disabled();
	this_cpu_inc(hvipi_page_fetches);
	if (!ctx->input_arg)
		return NULL;
	return *this_cpu_ptr(ctx->input_arg);
}

/*
 * The hints for this send.  The core plans XMM-fast Ex (HVIPI_PLAN_EX_XMM,
 * at most 11 banks, the input in plan.input[]) only when it is handed
 * HVIPI_HINT_XMM_INPUT; the glue keeps that hint only when XMM-fast is
 * allowed (the xmm parameter), advertised, and this context may use the
 * FPU.  Called only for vectors the core can send and never from NMI
 * context (irq_fpu_usable() warns there): hvipi_try() hands the core
 * ctx->hints without the XMM hint otherwise.
 */
static __always_inline u32 hvipi_send_hints(const struct hvipi_ctx *ctx,
					    u32 hints)
{
	if (likely(!(hints & HVIPI_HINT_XMM_INPUT)))
		return hints;
	if (!ctx->xmm || !may_use_simd())
		hints &= ~HVIPI_HINT_XMM_INPUT;
	return hints;
}

/*
 * Any nonzero low 16 bits read as failure (hvipi_status_ok()); 0x0002 is
 * HV_STATUS_INVALID_HYPERCALL_CODE.  hvipi_issue() returns it for anything
 * it cannot issue, so the caller falls back to the native op.
 */
#define HVIPI_STATUS_NOT_ISSUED	0x0002ull

/*
 * The core's hvipi_status_ok() (success_bits: success iff bits 15:0 are
 * zero), inline: the send path saves the call.
 */
static __always_inline bool hvipi_glue_status_ok(u64 status)
{
	return !(status & 0xffffull);
}

/*
 * Issue the hypercall the plan asks for; interrupts are disabled.  Fails
 * closed: a plan it does not know how to issue returns a failing status,
 * never 0 (success), so the IPI goes to the original op instead of being
 * dropped.
 */
static __always_inline u64 hvipi_issue(const struct hvipi_ctx *ctx,
		       const struct hvipi_plan *plan, u64 *page)
{
	u64 status;

	/* FAST first, in one test: the commonest plan */
	if (likely(plan->kind == HVIPI_PLAN_FAST))
		return hvipi_hcall_fast(ctx->hcall_pg, plan->control,
					plan->rdx, plan->r8);
	switch (plan->kind) {
	case HVIPI_PLAN_EX_XMM:
		/* control, rdx, r8 and xmm0..xmm5 all come from the plan */
		kernel_fpu_begin();
		status = hvipi_hcall_xmm(ctx->hcall_pg, plan->control,
					 plan->rdx, plan->r8, &plan->input[2]);
		kernel_fpu_end();
		return status;
	case HVIPI_PLAN_EX_SPARSE:
	case HVIPI_PLAN_EX_ALL:
		/* the core plans these only with a page; never pass GPA 0 */
		if (unlikely(!page))
			return HVIPI_STATUS_NOT_ISSUED;
		return hvipi_hcall_mem(ctx->hcall_pg, plan->control,
				       virt_to_phys(page));
	default:
		/*
		 * NONE, FALLBACK or an unknown kind: nothing was sent.  The
		 * callers only issue the four kinds above; should another kind
		 * ever get here, report failure so the IPI is not lost.
		 */
		return HVIPI_STATUS_NOT_ISSUED;
	}
}

u64 hvipi_test_issue(const struct hvipi_ctx *ctx,
		     const struct hvipi_plan *plan, u64 *page)
{
	unsigned long flags;
	u64 status;

	local_irq_save(flags);
	status = hvipi_issue(ctx, plan, page);
	local_irq_restore(flags);
	return status;
}

/*
 * Try the hypercall path for @mask (@one false) or for the single @cpu
 * (@one true, @mask NULL; @cpu < 0 means the sending CPU).  Returns true
 * when the IPI was sent (or there was nothing to send), false when the
 * caller must fall back to the native op.  Always inlined with @one a
 * constant, so each caller keeps only its own planning branch.
 */
static __always_inline bool hvipi_try(const struct hvipi_ctx *ctx, bool one,
				      const struct cpumask *mask, int cpu,
				      bool exclude_self, int vector)
{
	/*
	 * Not cleared at each call (CONFIG_INIT_STACK_ALL_ZERO): the core
	 * writes every field of the plan (its writers' contracts), and
	 * plan.input only for EX_XMM, the one kind that reads it.
	 */
	struct hvipi_plan plan __uninitialized;
	unsigned long flags;
	u64 status = 0;
	u64 *page = NULL;
	u32 hints, kind;
	int self;
	bool sent;

	if (unlikely(!ctx->hcall_pg || !ctx->vp_index)) {
		trace_hvipi_send(mask, cpu, -1, false, vector,
				 HVIPI_PLAN_FALLBACK, HVIPI_FB_NO_PAGE, 0, 0);
		return false;
	}

	local_irq_save(flags);
	self = smp_processor_id();
	/*
	 * NMI context never touches the per-CPU input page (issue 14).
	 * local_irq_save() does not mask NMIs: an NMI can hit a send on this
	 * CPU after the core has written the page and before the hypercall.
	 * If the NMI handler sent an IPI through the page (irq_work_queue()
	 * -> send_IPI_self(IRQ_WORK_VECTOR)), it would overwrite the input,
	 * and the interrupted send would then issue a hypercall carrying the
	 * NMI's vector and VP set: its own IPI would be lost.  So in NMI the
	 * core gets no page (NULL, size 0) and plans FAST or FALLBACK/NO_PAGE
	 * (the original op) and no XMM hint (so never EX_XMM).  No fetch is
	 * counted.  The original op may write a page of its own (Linux's
	 * hv_send_ipi*() write hyperv_pcpu_input_arg), never this one: the
	 * live context's pages are the module's (hvipi_ctx_fill()).  A
	 * vector the core cannot send gets neither either: the core plans
	 * BAD_VECTOR (or NONE, NOT_RECOMMENDED) before it looks at
	 * the page or the XMM hint.
	 */
	hints = ctx->hints;
	if (likely(hvipi_vector_ok(vector) && !hvipi_in_nmi(ctx))) {
		page = hvipi_fetch_page(ctx);
		hints = hvipi_send_hints(ctx, hints);
	} else {
		hints &= ~HVIPI_HINT_XMM_INPUT;
	}
	if (!one)
		hvipi_plan_mask(&plan, cpumask_bits(mask),
				ctx->present && ctx->present != mask ?
				cpumask_bits(ctx->present) : NULL,
				nr_cpu_ids, ctx->vp_index,
				READ_ONCE(ctx->vp_ident), self, exclude_self,
				(u32)vector, hints, page,
				page ? ctx->page_size : 0);
	else
		hvipi_plan_one(&plan, cpu < 0 ? (u32)self : (u32)cpu,
			       nr_cpu_ids, ctx->vp_index, (u32)vector,
			       hints, page, page ? ctx->page_size : 0);
	/*
	 * kind is the plan's kind as issued: a local, so that without a hook
	 * the compiler knows it is neither NONE nor FALLBACK after the issue
	 * (the hypercall's "memory" clobber would make plan.kind a reload).
	 * FAST is tested first, alone: the commonest plan takes one compare
	 * here and one in hvipi_issue().
	 */
	kind = plan.kind;
	if (likely(kind == HVIPI_PLAN_FAST) ||
	    (kind != HVIPI_PLAN_NONE && kind != HVIPI_PLAN_FALLBACK)) {
		if (unlikely(hvipi_has_hook(ctx))) {
			ctx->test_hook(ctx, &plan, page);
			kind = plan.kind;	/* the hook may change it */
		}
		status = hvipi_issue(ctx, &plan, page);
	}
	local_irq_restore(flags);

	/* hvipi_issue() fails closed: an unknown kind has a failing status */
	sent = kind == HVIPI_PLAN_NONE ||
	       (kind != HVIPI_PLAN_FALLBACK && hvipi_glue_status_ok(status));
	trace_hvipi_send(mask, cpu < 0 ? self : cpu, self, exclude_self,
			 vector, kind, plan.reason, plan.banks, status);
	return sent;
}

/* hvipi_try() out of line: the one-CPU sends' page path, send_IPI_self. */
static __attribute__((__noinline__))
bool hvipi_try_slow(const struct hvipi_ctx *ctx, int cpu, int vector)
{
	return hvipi_try(ctx, true, NULL, cpu, false, vector);
}

/*
 * send_IPI's page path: a negative @cpu is no CPU, never the sending one.
 * @cpu and @vector come first, in the registers the op receives them in,
 * so that the jump here from the op moves neither.
 */
static __attribute__((__noinline__))
void hvipi_send_IPI_slow(int cpu, int vector, const struct hvipi_ctx *ctx)
{
	if (!hvipi_try(ctx, true, NULL, cpu < 0 ? INT_MAX : cpu, false, vector))
		ctx->orig.send_IPI(cpu, vector);
}

/*
 * send_IPI's planned path, out of line: the core is asked with no input
 * page and without the XMM hint, so its plan depends on neither
 * (hvipi_plan_one()'s contract), except that a target VP >= 64 that the
 * page or XMM-fast would carry comes back FALLBACK/NO_PAGE.  Every other
 * plan is the one hvipi_try() would make and is acted on here; NO_PAGE
 * and any kind to issue go to hvipi_try(), which plans again with the
 * page and the XMM hint, interrupts off.  A negative @cpu is no CPU: as a
 * u32 it is at or beyond nr_cpu_ids, so the core plans NONE; it is traced
 * as INT_MAX and never reaches hvipi_try() negative (where a negative cpu
 * means the sending CPU).
 */
static __attribute__((__noinline__))
void hvipi_send_IPI_plan(int cpu, int vector, const struct hvipi_ctx *ctx)
{
	struct hvipi_plan plan;

	hvipi_plan_one(&plan, (u32)cpu, nr_cpu_ids, ctx->vp_index,
		       (u32)vector, ctx->hints & ~HVIPI_HINT_XMM_INPUT, NULL, 0);
	if (plan.kind == HVIPI_PLAN_FAST ||
	    (plan.kind != HVIPI_PLAN_NONE &&
	     (plan.kind != HVIPI_PLAN_FALLBACK ||
	      plan.reason == HVIPI_FB_NO_PAGE))) {
		/* FAST here means the table changed since hvipi_fast_one() */
		hvipi_send_IPI_slow(cpu, vector, ctx);
		return;
	}
	/* the event reads self only for a mask: -1 as on the no-page path */
	trace_hvipi_send(NULL, cpu < 0 ? INT_MAX : cpu, -1, false, vector,
			 plan.kind, plan.reason, plan.banks, 0);
	if (plan.kind != HVIPI_PLAN_NONE)
		ctx->orig.send_IPI(cpu, vector);
}

/*
 * A send to one other CPU (send_IPI).  The commonest IPI, to a CPU whose
 * VP is below 64, takes hvipi_fast_one(): the FAST plan of
 * hvipi_plan_one() as its r8 alone, so no plan is built and no page is
 * fetched; the registers are the whole input, interrupts stay on, and
 * nothing touches the per-CPU page, so this is also NMI-safe.  Any other
 * answer (0) goes to hvipi_send_IPI_plan().
 *
 * A @cpu >= 64 goes to hvipi_try() at once: Hyper-V numbers its VPs as
 * Linux numbers the CPUs as a rule, so its VP is most likely >= 64 too
 * and the page-less plan would be NO_PAGE, planned twice.  This only picks
 * which of the equivalent ways asks the core, on the CPU number alone (no
 * VP is looked at here): the core still makes the plan, the same one
 * either way.  Contexts without hypercall page or VP table, and self-test
 * contexts with a hook, go to hvipi_try() too.
 */
static __always_inline void hvipi_do_send_IPI(const struct hvipi_ctx *ctx,
					      int cpu, int vector)
{
	u64 r8, status;

	if (unlikely(cpu >= (int)HVIPI_FAST_VP_LIMIT || !ctx->hcall_pg ||
		     !ctx->vp_index || hvipi_has_hook(ctx))) {
		hvipi_send_IPI_slow(cpu, vector, ctx);
		return;
	}
	r8 = hvipi_fast_one((u32)cpu, nr_cpu_ids, ctx->vp_index, (u32)vector,
			    ctx->hints);
	if (unlikely(!r8)) {
		hvipi_send_IPI_plan(cpu, vector, ctx);
		return;
	}
	status = hvipi_hcall_fast(ctx->hcall_pg, HVIPI_CTL_FAST_SEND_IPI,
				  (u32)vector, r8);
	trace_hvipi_send(NULL, cpu, -1, false, vector, HVIPI_PLAN_FAST,
			 HVIPI_FB_NONE, 0, status);
	if (unlikely(!hvipi_glue_status_ok(status)))
		ctx->orig.send_IPI(cpu, vector);
}

void hvipi_ctx_send_IPI(const struct hvipi_ctx *ctx, int cpu, int vector)
{
	hvipi_do_send_IPI(ctx, cpu, vector);
}

/*
 * The mask sends: hvipi_try() is inlined into each (so the compiler drops
 * its one-CPU branch), in the hvipi_ctx_*() functions and in the ops
 * installed into struct apic, which run it on hvipi_live.
 */
static __always_inline void hvipi_do_send_IPI_mask(const struct hvipi_ctx *ctx,
						   const struct cpumask *mask,
						   int vector)
{
	if (!hvipi_try(ctx, false, mask, 0, false, vector))
		ctx->orig.send_IPI_mask(mask, vector);
}

static __always_inline void
hvipi_do_send_IPI_mask_allbutself(const struct hvipi_ctx *ctx,
				  const struct cpumask *mask, int vector)
{
	if (!hvipi_try(ctx, false, mask, 0, true, vector))
		ctx->orig.send_IPI_mask_allbutself(mask, vector);
}

static __always_inline void
hvipi_do_send_IPI_allbutself(const struct hvipi_ctx *ctx, int vector)
{
	if (!hvipi_try(ctx, false, cpu_online_mask, 0, true, vector))
		ctx->orig.send_IPI_allbutself(vector);
}

static __always_inline void hvipi_do_send_IPI_all(const struct hvipi_ctx *ctx,
						  int vector)
{
	if (!hvipi_try(ctx, false, cpu_online_mask, 0, false, vector))
		ctx->orig.send_IPI_all(vector);
}

static __always_inline void hvipi_do_send_IPI_self(const struct hvipi_ctx *ctx,
						   int vector)
{
	if (!hvipi_try_slow(ctx, -1, vector))
		ctx->orig.send_IPI_self(vector);
}

void hvipi_ctx_send_IPI_mask(const struct hvipi_ctx *ctx,
			     const struct cpumask *mask, int vector)
{
	hvipi_do_send_IPI_mask(ctx, mask, vector);
}

void hvipi_ctx_send_IPI_mask_allbutself(const struct hvipi_ctx *ctx,
					const struct cpumask *mask, int vector)
{
	hvipi_do_send_IPI_mask_allbutself(ctx, mask, vector);
}

void hvipi_ctx_send_IPI_allbutself(const struct hvipi_ctx *ctx, int vector)
{
	hvipi_do_send_IPI_allbutself(ctx, vector);
}

void hvipi_ctx_send_IPI_all(const struct hvipi_ctx *ctx, int vector)
{
	hvipi_do_send_IPI_all(ctx, vector);
}

void hvipi_ctx_send_IPI_self(const struct hvipi_ctx *ctx, int vector)
{
	hvipi_do_send_IPI_self(ctx, vector);
}

/* The ops installed into struct apic: the same on the live context. */
static void hvipi_send_IPI(int cpu, int vector)
{
	hvipi_do_send_IPI(&hvipi_live, cpu, vector);
}

static void hvipi_send_IPI_mask(const struct cpumask *mask, int vector)
{
	hvipi_do_send_IPI_mask(&hvipi_live, mask, vector);
}

static void hvipi_send_IPI_mask_allbutself(const struct cpumask *mask,
					   int vector)
{
	hvipi_do_send_IPI_mask_allbutself(&hvipi_live, mask, vector);
}

static void hvipi_send_IPI_allbutself(int vector)
{
	hvipi_do_send_IPI_allbutself(&hvipi_live, vector);
}

static void hvipi_send_IPI_all(int vector)
{
	hvipi_do_send_IPI_all(&hvipi_live, vector);
}

static void hvipi_send_IPI_self(int vector)
{
	hvipi_do_send_IPI_self(&hvipi_live, vector);
}

const struct hvipi_ops hvipi_apic_ops = {
	.send_IPI			= hvipi_send_IPI,
	.send_IPI_mask			= hvipi_send_IPI_mask,
	.send_IPI_mask_allbutself	= hvipi_send_IPI_mask_allbutself,
	.send_IPI_allbutself		= hvipi_send_IPI_allbutself,
	.send_IPI_all			= hvipi_send_IPI_all,
	.send_IPI_self			= hvipi_send_IPI_self,
};
