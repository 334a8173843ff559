// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_harness.c - the self-test's harness: the record of the FAKE
 * hypercall page (hvipi_fake_hcall.S), counting fake "original" APIC ops,
 * the trace probe, the receiver model (hvipi_rx.c) on a record, an
 * independent model of the selection rules, and one case run through the
 * glue with all its checks; the test state, its setup and teardown.
 *
 * No hypervisor is involved: nothing here shows a real Hyper-V accepts
 * the calls, only that they are what the TLFS rules say.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/stddef.h>
#include <asm/io.h>

#include "hvipi_glue.h"
#include "hvipi_rx.h"
#include "hvipi_test.h"
#include "hvipi_trace.h"

struct hvipi_st hvipi_st;
unsigned int hvipi_kinds_seen;

/* ---- the fake hypercall page ------------------------------------------ */

/* Used by hvipi_fake_hcall.S, at fixed offsets. */
struct hvipi_fake_rec hvipi_fake_rec;
static_assert(offsetof(struct hvipi_fake_rec, xmm) == 24);
static_assert(offsetof(struct hvipi_fake_rec, calls) == 120);
static_assert(offsetof(struct hvipi_fake_rec, status) == 128);

void hvipi_fake_set_status(u64 status)
{
	WRITE_ONCE(hvipi_fake_rec.status, status);
}

void hvipi_fake_reset(u64 status)
{
	memset(&hvipi_fake_rec, 0, sizeof(hvipi_fake_rec));
	hvipi_fake_rec.status = status;
}

/* ---- fake "original" APIC ops ------------------------------------------ */

const char * const hvipi_op_name[OP_N] = {
	"send_IPI", "send_IPI_mask", "send_IPI_mask_allbutself",
	"send_IPI_allbutself", "send_IPI_all", "send_IPI_self",
};

unsigned int hvipi_orig_calls[OP_N];
int hvipi_orig_vector;
int hvipi_orig_cpu;

static void fake_send_IPI(int cpu, int vector)
{
	hvipi_orig_calls[OP_ONE]++;
	hvipi_orig_cpu = cpu;
	hvipi_orig_vector = vector;
}

static void fake_send_IPI_mask(const struct cpumask *mask, int vector)
{
	hvipi_orig_calls[OP_MASK]++;
	hvipi_orig_vector = vector;
}

static void fake_send_IPI_mask_allbutself(const struct cpumask *mask,
					  int vector)
{
	hvipi_orig_calls[OP_MASK_ABS]++;
	hvipi_orig_vector = vector;
}

static void fake_send_IPI_allbutself(int vector)
{
	hvipi_orig_calls[OP_ABS]++;
	hvipi_orig_vector = vector;
}

static void fake_send_IPI_all(int vector)
{
	hvipi_orig_calls[OP_ALL]++;
	hvipi_orig_vector = vector;
}

static void fake_send_IPI_self(int vector)
{
	hvipi_orig_calls[OP_SELF]++;
	hvipi_orig_vector = vector;
}

/* ---- trace probe ------------------------------------------------------- */

struct hvipi_seen hvipi_seen;

static void hvipi_probe(void *data, const struct cpumask *mask, int cpu,
			int self, bool exclude_self, int vector, u32 kind,
			u32 reason, u32 banks, u64 status)
{
	unsigned int n = 1;

	if (mask) {
		n = cpumask_weight(mask);
		if (exclude_self && self >= 0 && cpumask_test_cpu(self, mask))
			n--;
	}
	hvipi_seen.events++;
	hvipi_seen.ncpus = n;
	hvipi_seen.vector = vector;
	hvipi_seen.kind = kind;
	hvipi_seen.reason = reason;
	hvipi_seen.banks = banks;
	hvipi_seen.status = status;
}

/* ---- receiver model (facts section 4, hvipi_rx.c) ------------------- */

static_assert(offsetof(struct hvipi_fake_rec, xmm) ==
	      offsetof(struct hvipi_rx_regs, xmm));

/*
 * Decode one recorded call with the shared receiver model.  @page is the
 * input page the GPA must name (NULL if none was handed out).
 */
u32 hvipi_rx_decode_rec(const struct hvipi_fake_rec *r, const u64 *page,
			   struct hvipi_rx *rx)
{
	struct hvipi_rx_regs regs;
	const u64 *mem = NULL;

	regs.rcx = r->rcx;
	regs.rdx = r->rdx;
	regs.r8 = r->r8;
	memcpy(regs.xmm, r->xmm, sizeof(regs.xmm));
	if (page && r->rdx == virt_to_phys((void *)page))
		mem = page;
	return hvipi_rx_decode_regs(&regs, mem, PAGE_SIZE / 8u, rx);
}


const char * const hvipi_table_name[T_N] = {
	"identity", "permuted", "vp_ge_64", "vp_up_to_4095", "vp_ge_4096",
	"vp_inval", "non_monotonic",
};

static void hvipi_fill_table(u32 *t, int kind)
{
	u32 n = nr_cpu_ids, cpu;

	for (cpu = 0; cpu < n; cpu++) {
		switch (kind) {
		case T_IDENT:
			t[cpu] = cpu;
			break;
		case T_PERM:	/* reversed: the last CPU has VP 0 */
			t[cpu] = n - 1 - cpu;
			break;
		case T_HIGH:
			t[cpu] = cpu + 64u;
			break;
		case T_SPREAD:	/* scattered over many banks, up to 4095 */
			t[cpu] = cpu == 0 ? 4095u : (cpu * 131u + 7u) % 4095u;
			break;
		case T_HUGE:
			t[cpu] = cpu;
			if (cpu % 2u == 1u)
				t[cpu] = cpu % 4u == 1u ? 4096u + cpu : 0xfffffffeu;
			break;
		case T_INVAL:
			t[cpu] = cpu % 3u == 2u ? HVIPI_VP_INVAL : cpu;
			break;
		case T_NONMONO:	/* last CPU's VP < 64, an earlier one >= 64 */
			t[cpu] = cpu + 2u;
			if (cpu == 0)
				t[cpu] = 4000u;
			if (cpu == n - 1)
				t[cpu] = 1u;
			break;
		}
	}
}

static void hvipi_random_mask(struct cpumask *m, u32 one_in)
{
	unsigned int cpu;

	cpumask_clear(m);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (prandom_u32_state(&hvipi_st.rnd) % one_in == 0)
			cpumask_set_cpu(cpu, m);
}

/* ---- one case ---------------------------------------------------------- */

struct hvipi_expect {
	u32 kind;
	u32 reason;
	u32 banks;
};

/*
 * The expected plan, from the selection rules in src/hvipi.h and the README:
 * written here independently of the core.
 */
static void hvipi_model(const struct hvipi_case *c, bool present_ok,
			bool exclude_self, struct hvipi_expect *e)
{
	bool unknown = false, high = false, huge = false;
	u64 banks = 0;
	unsigned int cpu;
	u32 vp;

	e->kind = HVIPI_PLAN_NONE;
	e->reason = HVIPI_FB_NONE;
	e->banks = 0;
	bitmap_zero(hvipi_st.want_vps, RX_VP_BITS);

	if (c->no_hcall) {
		e->kind = HVIPI_PLAN_FALLBACK;
		e->reason = HVIPI_FB_NO_PAGE;
		return;
	}
	if (cpumask_empty(hvipi_st.tgt))
		return;
	for_each_cpu(cpu, hvipi_st.tgt) {
		vp = c->vp[cpu];
		if (vp == HVIPI_VP_INVAL) {
			unknown = true;
		} else if (vp >= 4096u) {
			huge = true;
		} else {
			__set_bit(vp, hvipi_st.want_vps);
			banks |= BIT_ULL(vp / 64u);
			if (vp >= 64u)
				high = true;
		}
	}
	e->kind = HVIPI_PLAN_FALLBACK;
	if (!(c->hints & HVIPI_HINT_CLUSTER_IPI)) {
		e->reason = HVIPI_FB_NOT_RECOMMENDED;
		return;
	}
	if (!rx_vector_ok((u32)c->vector)) {
		e->reason = HVIPI_FB_BAD_VECTOR;
		return;
	}
	if (!unknown && !high && !huge) {
		e->kind = HVIPI_PLAN_FAST;
		return;
	}
	/* "all" needs the page; without it the rules below decide */
	if ((c->hints & HVIPI_HINT_EX_MASKS) && present_ok && !exclude_self &&
	    !c->no_page && cpumask_equal(hvipi_st.tgt, cpu_present_mask)) {
		e->kind = HVIPI_PLAN_EX_ALL;
		return;
	}
	if (unknown) {
		e->reason = HVIPI_FB_VP_UNKNOWN;
		return;
	}
	if (!(c->hints & HVIPI_HINT_EX_MASKS)) {
		e->reason = HVIPI_FB_EX_NOT_RECOMMENDED;
		return;
	}
	if (huge) {
		e->reason = HVIPI_FB_VP_TOO_BIG;
		return;
	}
	e->banks = (u32)hweight64(banks);
	/* XMM-fast when allowed and advertised (this runs in process
	 * context, where the FPU may be used) and the banks fit */
	if (c->xmm && (c->hints & HVIPI_HINT_XMM_INPUT) && e->banks <= 11u) {
		e->kind = HVIPI_PLAN_EX_XMM;
		e->reason = HVIPI_FB_NONE;
		return;
	}
	if (c->no_page) {
		e->reason = HVIPI_FB_NO_PAGE;
		return;
	}
	e->kind = HVIPI_PLAN_EX_SPARSE;
}

void hvipi_call_op_on(const struct hvipi_ctx *ctx,
			     const struct hvipi_case *c)
{
	switch (c->op) {
	case OP_ONE:
		hvipi_ctx_send_IPI(ctx, c->cpu, c->vector);
		break;
	case OP_MASK:
		hvipi_ctx_send_IPI_mask(ctx, c->mask, c->vector);
		break;
	case OP_MASK_ABS:
		hvipi_ctx_send_IPI_mask_allbutself(ctx, c->mask, c->vector);
		break;
	case OP_ABS:
		hvipi_ctx_send_IPI_allbutself(ctx, c->vector);
		break;
	case OP_ALL:
		hvipi_ctx_send_IPI_all(ctx, c->vector);
		break;
	case OP_SELF:
		hvipi_ctx_send_IPI_self(ctx, c->vector);
		break;
	}
}

void hvipi_call_op(const struct hvipi_case *c)
{
	hvipi_call_op_on(&hvipi_st.ctx, c);
}

static unsigned long hvipi_fetches(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(hvipi_page_fetches, cpu);
	return n;
}

/* A self-test context for @c (test_force_nmi and test_hook untouched). */
void hvipi_set_ctx(struct hvipi_ctx *ctx, const struct hvipi_case *c)
{
	ctx->hcall_pg = c->no_hcall ? NULL : (void *)hvipi_fake_hcall;
	ctx->input_arg = c->no_page ? NULL : hvipi_st.pages;
	ctx->vp_index = c->vp;
	ctx->vp_ident = hvipi_vp_ident(c->vp, nr_cpu_ids);
	/*
	 * NOT the live path: the self-test always passes a present mask to
	 * exercise the core's "all" format on its fake tables and fake page
	 * (hvipi_live gets cpu_present_mask only when present_partition holds,
	 * hvipi_present_is_partition() in hvipi_switch.c).
	 */
	ctx->present = cpu_present_mask;
	ctx->hints = c->hints;
	ctx->page_size = PAGE_SIZE;
	ctx->xmm = c->xmm;
}

/* Run one case through the glue; returns the expected plan kind. */
u32 hvipi_run_case(const struct hvipi_case *c)
{
	hvipi_set_ctx(&hvipi_st.ctx, c);
	return hvipi_run_case_on(&hvipi_st.ctx, c);
}

/*
 * Run one case through the glue on @ctx, a context that sends as @c says
 * (hvipi_set_ctx()'s, or one made like it); the receiver reads the page of
 * @ctx's input pages that the sending CPU was handed.
 */
u32 hvipi_run_case_on(const struct hvipi_ctx *ctx, const struct hvipi_case *c)
{
	struct hvipi_expect e;
	unsigned long fetches;
	bool exclude_self = false, present_ok = false, hcall, want_orig;
	bool want_xmm;
	u32 rxs, i;
	int self;
	u64 *page;

	hvipi_fake_reset(c->status);
	memset(hvipi_orig_calls, 0, sizeof(hvipi_orig_calls));
	hvipi_orig_vector = -1;
	hvipi_orig_cpu = -1;
	memset(&hvipi_seen, 0, sizeof(hvipi_seen));

	self = get_cpu();
	page = ctx->input_arg ? *per_cpu_ptr(ctx->input_arg, self) : NULL;
	cpumask_clear(hvipi_st.tgt);
	switch (c->op) {
	case OP_ONE:
		if (c->cpu >= 0 && (unsigned int)c->cpu < nr_cpu_ids)
			cpumask_set_cpu(c->cpu, hvipi_st.tgt);
		break;
	case OP_MASK:
		cpumask_copy(hvipi_st.tgt, c->mask);
		/* never the target mask as present too (separated_present) */
		present_ok = c->mask != cpu_present_mask;
		break;
	case OP_MASK_ABS:
		cpumask_copy(hvipi_st.tgt, c->mask);
		exclude_self = true;
		break;
	case OP_ABS:
		cpumask_copy(hvipi_st.tgt, cpu_online_mask);
		exclude_self = true;
		break;
	case OP_ALL:
		cpumask_copy(hvipi_st.tgt, cpu_online_mask);
		present_ok = true;
		break;
	case OP_SELF:
		cpumask_set_cpu(self, hvipi_st.tgt);
		break;
	}
	if (exclude_self)
		cpumask_clear_cpu(self, hvipi_st.tgt);
	hvipi_model(c, present_ok, exclude_self, &e);

	fetches = hvipi_fetches();
	hvipi_call_op_on(ctx, c);
	fetches = hvipi_fetches() - fetches;
	put_cpu();

	hcall = e.kind == HVIPI_PLAN_FAST || e.kind == HVIPI_PLAN_EX_SPARSE ||
		e.kind == HVIPI_PLAN_EX_ALL || e.kind == HVIPI_PLAN_EX_XMM;
	want_orig = e.kind == HVIPI_PLAN_FALLBACK ||
		    (hcall && !hvipi_status_ok(c->status));

#define CASEF "%s vec=%#x hints=%#x xmm=%d ncpus=%u"
#define CASEA hvipi_op_name[c->op], c->vector, c->hints, c->xmm, \
	      cpumask_weight(hvipi_st.tgt)

	/* The trace event: one per send, with the plan. */
	CHECK(hvipi_seen.events == 1, CASEF ": %u trace events", CASEA,
	      hvipi_seen.events);
	CHECK(hvipi_seen.kind == e.kind && hvipi_seen.reason == e.reason,
	      CASEF ": plan %u/%u, model %u/%u", CASEA, hvipi_seen.kind,
	      hvipi_seen.reason, e.kind, e.reason);
	if (e.kind == HVIPI_PLAN_EX_SPARSE || e.kind == HVIPI_PLAN_EX_XMM)
		CHECK(hvipi_seen.banks == e.banks, CASEF ": banks %u, model %u",
		      CASEA, hvipi_seen.banks, e.banks);
	CHECK(hvipi_seen.vector == c->vector, CASEF ": traced vector %#x",
	      CASEA, hvipi_seen.vector);
	if (!c->no_hcall)
		CHECK(hvipi_seen.ncpus == (c->op == OP_ONE || c->op == OP_SELF ?
					   1u : cpumask_weight(hvipi_st.tgt)),
		      CASEF ": traced ncpus %u", CASEA, hvipi_seen.ncpus);

	/* NMI and other bad vectors: the input page is not even fetched. */
	if (!rx_vector_ok((u32)c->vector) || c->no_hcall)
		CHECK(fetches == 0, CASEF ": %lu page fetches", CASEA, fetches);

	/* The hypercall: exactly one when the plan has one. */
	CHECK(hvipi_fake_rec.calls == (hcall ? 1u : 0u),
	      CASEF ": %llu hypercalls", CASEA, hvipi_fake_rec.calls);

	/* The original op: once when the plan or the status says so. */
	for (i = 0; i < OP_N; i++)
		CHECK(hvipi_orig_calls[i] == ((int)i == c->op && want_orig ? 1u : 0u),
		      CASEF ": original %s called %u times", CASEA,
		      hvipi_op_name[i], hvipi_orig_calls[i]);
	if (want_orig) {
		CHECK(hvipi_orig_vector == c->vector,
		      CASEF ": original op got vector %#x", CASEA,
		      hvipi_orig_vector);
		if (c->op == OP_ONE)
			CHECK(hvipi_orig_cpu == c->cpu,
			      CASEF ": original op got cpu %d", CASEA,
			      hvipi_orig_cpu);
	}

	if (!hcall || hvipi_fake_rec.calls != 1)
		return e.kind;

	/* What the receiver sees. */
	rxs = hvipi_rx_decode_rec(&hvipi_fake_rec, page, &hvipi_st.rx);
	CHECK(rxs == RX_OK, CASEF ": receiver status %#x (ctl %#llx)", CASEA,
	      rxs, hvipi_fake_rec.rcx);
	if (rxs != RX_OK)
		return e.kind;
	CHECK(hvipi_st.rx.vector == (u32)c->vector, CASEF ": receiver vector %#x",
	      CASEA, hvipi_st.rx.vector);
	if (e.kind == HVIPI_PLAN_EX_ALL) {
		CHECK(hvipi_st.rx.all, CASEF ": receiver did not see format all",
		      CASEA);
	} else {
		CHECK(!hvipi_st.rx.all, CASEF ": unexpected format all", CASEA);
		CHECK(bitmap_equal(hvipi_st.rx.vps, hvipi_st.want_vps, RX_VP_BITS),
		      CASEF ": receiver VP set differs (first %lu, want %lu)",
		      CASEA, find_first_bit(hvipi_st.rx.vps, RX_VP_BITS),
		      find_first_bit(hvipi_st.want_vps, RX_VP_BITS));
	}
	if (e.kind == HVIPI_PLAN_EX_SPARSE || e.kind == HVIPI_PLAN_EX_XMM)
		CHECK(hvipi_st.rx.banks == e.banks, CASEF ": receiver banks %u/%u",
		      CASEA, hvipi_st.rx.banks, e.banks);

	/*
	 * XMM-fast exactly when the model planned EX_XMM: allowed, advertised
	 * and at most 11 banks; "all" always goes through the page.
	 */
	want_xmm = e.kind == HVIPI_PLAN_EX_XMM;
	if (e.kind != HVIPI_PLAN_FAST)
		CHECK(hvipi_st.rx.fast == want_xmm, CASEF ": XMM-fast %d, want %d",
		      CASEA, hvipi_st.rx.fast, want_xmm);
	else
		CHECK(hvipi_st.rx.fast, CASEF ": Send-IPI not fast", CASEA);
	return e.kind;
}

int hvipi_test_setup(void)
{
	unsigned int i;
	int cpu;

	memset(&hvipi_st, 0, sizeof(hvipi_st));
	prandom_seed_state(&hvipi_st.rnd, 0x68766970ull);
	for (i = 0; i < T_N; i++) {
		hvipi_st.table[i] = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
		if (!hvipi_st.table[i])
			return -ENOMEM;
		hvipi_fill_table(hvipi_st.table[i], i);
	}
	hvipi_st.pages = alloc_percpu(void *);
	if (!hvipi_st.pages)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		void *pg = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);

		if (!pg)
			return -ENOMEM;
		*per_cpu_ptr(hvipi_st.pages, cpu) = pg;
	}
	hvipi_st.self_page = (u64 *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	hvipi_st.copy_page = (u64 *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	hvipi_st.want_vps = bitmap_zalloc(RX_VP_BITS, GFP_KERNEL);
	hvipi_st.rx.vps = bitmap_zalloc(RX_VP_BITS, GFP_KERNEL);
	if (!hvipi_st.self_page || !hvipi_st.copy_page || !hvipi_st.want_vps || !hvipi_st.rx.vps)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&hvipi_st.tgt, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(hvipi_st.masks); i++) {
		if (!zalloc_cpumask_var(&hvipi_st.masks[i], GFP_KERNEL))
			return -ENOMEM;
		hvipi_st.nmasks++;
	}
	/* real kernel masks, and random ones */
	cpumask_copy(hvipi_st.masks[0], cpu_online_mask);
	cpumask_copy(hvipi_st.masks[1], cpu_present_mask);
	/* masks[2] stays empty */
	cpumask_set_cpu(cpumask_first(cpu_online_mask), hvipi_st.masks[3]);
	cpumask_set_cpu(cpumask_last(cpu_online_mask), hvipi_st.masks[4]);
	cpumask_copy(hvipi_st.masks[5], cpu_online_mask);
	cpumask_clear_cpu(cpumask_last(cpu_online_mask), hvipi_st.masks[5]);
	for (i = 6; i < ARRAY_SIZE(hvipi_st.masks); i++)
		hvipi_random_mask(hvipi_st.masks[i], i < 11 ? 2 : 8);

	hvipi_st.ctx.orig.send_IPI = fake_send_IPI;
	hvipi_st.ctx.orig.send_IPI_mask = fake_send_IPI_mask;
	hvipi_st.ctx.orig.send_IPI_mask_allbutself = fake_send_IPI_mask_allbutself;
	hvipi_st.ctx.orig.send_IPI_allbutself = fake_send_IPI_allbutself;
	hvipi_st.ctx.orig.send_IPI_all = fake_send_IPI_all;
	hvipi_st.ctx.orig.send_IPI_self = fake_send_IPI_self;
	return register_trace_hvipi_send(hvipi_probe, NULL);
}

void hvipi_test_teardown(bool probe)
{
	unsigned int i;
	int cpu;

	if (probe) {
		unregister_trace_hvipi_send(hvipi_probe, NULL);
		tracepoint_synchronize_unregister();
	}
	for (i = 0; i < hvipi_st.nmasks; i++)
		free_cpumask_var(hvipi_st.masks[i]);
	free_cpumask_var(hvipi_st.tgt);
	bitmap_free(hvipi_st.rx.vps);
	bitmap_free(hvipi_st.want_vps);
	free_page((unsigned long)hvipi_st.self_page);
	free_page((unsigned long)hvipi_st.copy_page);
	if (hvipi_st.pages) {
		for_each_possible_cpu(cpu)
			free_page((unsigned long)*per_cpu_ptr(hvipi_st.pages, cpu));
		free_percpu(hvipi_st.pages);
	}
	for (i = 0; i < T_N; i++)
		kfree(hvipi_st.table[i]);
}

