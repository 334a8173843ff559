// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_flush.c - the remote TLB flush op of the module, on an explicit
 * context: hvipi_flush_try() (hvipi_flush.h), then the context's native
 * flush when the plan falls back or the hypercall fails.
 */
#include <linux/cpumask.h>

#include "hvipi_flush.h"
#include "hvipi_glue.h"

void hvipi_ctx_flush_tlb_multi(const struct hvipi_ctx *ctx,
			       const struct cpumask *cpus, u64 space,
			       u64 start, u64 end, u32 opts)
{
	struct hvipi_flush_plan plan;
	unsigned int calls;

	if (hvipi_flush_try(ctx->hcall_pg, ctx->input_arg, cpus, ctx->present,
			    ctx->vp_index, ctx->vp_ident, ctx->hints,
			    ctx->page_size, space, start, end, opts, &plan,
			    &calls))
		return;
	if (ctx->orig_flush)
		ctx->orig_flush(cpus, space, start, end, opts);
}
