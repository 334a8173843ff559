// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_select.c - self-test: plan selection and fallback.  Every op
 * on every VP table, mask, hint set, XMM setting and status against the
 * model; each fallback reason by name; failing statuses reach the original
 * op; an NMI-context send never touches the input page (issue 14), and
 * its fallback to ops that write Linux's input page leaves the glue's
 * alone.
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

#include "hvipi_glue.h"
#include "hvipi_switch.h"
#include "hvipi_test.h"


/* Every op, mask, hint set, XMM setting and status on one VP table. */
static void hvipi_test_table(int table)
{
	static const u32 hints[] = { H_ALL, H_NOEX };
	static const u64 status[] = { 0, 3 };
	struct hvipi_case c = { .vp = hvipi_st.table[table], .vector = 0xfd };
	unsigned int m, h, x, s, cpu, n = 0;

	for (h = 0; h < ARRAY_SIZE(hints); h++)
	for (x = 0; x < 2; x++)
	for (s = 0; s < ARRAY_SIZE(status); s++) {
		c.hints = hints[h];
		c.xmm = x;
		c.status = status[s];
		for (m = 0; m < hvipi_st.nmasks; m++) {
			c.mask = hvipi_st.masks[m];
			c.op = OP_MASK;
			hvipi_kinds_seen |= BIT(hvipi_run_case(&c));
			c.op = OP_MASK_ABS;
			hvipi_kinds_seen |= BIT(hvipi_run_case(&c));
			n += 2;
		}
		c.mask = NULL;
		for (c.op = OP_ABS; c.op <= OP_SELF; c.op++, n++)
			hvipi_kinds_seen |= BIT(hvipi_run_case(&c));
		c.op = OP_ONE;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++, n++) {
			c.cpu = cpu;
			hvipi_kinds_seen |= BIT(hvipi_run_case(&c));
		}
		c.cpu = nr_cpu_ids;	/* no such CPU: nothing to send */
		hvipi_run_case(&c);
		n++;
	}
	pr_info("    # %s: %u cases\n", hvipi_table_name[table], n);
}

void test_table_identity(void) { hvipi_test_table(T_IDENT); }
void test_table_permuted(void) { hvipi_test_table(T_PERM); }
void test_table_high(void) { hvipi_test_table(T_HIGH); }
void test_table_spread(void) { hvipi_test_table(T_SPREAD); }
void test_table_huge(void) { hvipi_test_table(T_HUGE); }
void test_table_inval(void) { hvipi_test_table(T_INVAL); }
void test_table_nonmono(void) { hvipi_test_table(T_NONMONO); }

/*
 * Run every op with @c's settings (each case is checked against the model
 * by hvipi_run_case()); every case with a target must also end in the
 * fallback @reason this test is about, or, for HVIPI_FB_NONE, be sent.
 */
static void hvipi_all_ops(struct hvipi_case c, u32 reason)
{
	const struct cpumask *mask = c.mask ? c.mask : cpu_online_mask;

	for (c.op = 0; c.op < OP_N; c.op++) {
		c.mask = mask;
		if (c.op == OP_ONE && c.cpu < 0)
			c.cpu = cpumask_last(cpu_online_mask);
		hvipi_run_case(&c);
		if (cpumask_empty(hvipi_st.tgt) && !c.no_hcall)
			continue;	/* e.g. all-but-self on one CPU */
		if (reason == HVIPI_FB_NONE)
			CHECK(hvipi_seen.kind != HVIPI_PLAN_FALLBACK &&
			      hvipi_seen.kind != HVIPI_PLAN_NONE,
			      "%s: plan %u/%u, want a hypercall",
			      hvipi_op_name[c.op], hvipi_seen.kind,
			      hvipi_seen.reason);
		else
			CHECK(hvipi_seen.kind == HVIPI_PLAN_FALLBACK &&
			      hvipi_seen.reason == reason,
			      "%s: plan %u/%u, want fallback %u",
			      hvipi_op_name[c.op], hvipi_seen.kind,
			      hvipi_seen.reason, reason);
	}
}

void test_nmi_never_fetches_page(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_HIGH], .vector = 2, .hints = H_ALL,
		.xmm = true, .cpu = -1,
	};

	/* BAD_VECTOR, no hypercall, no page fetch: all checked per case. */
	hvipi_all_ops(c, HVIPI_FB_BAD_VECTOR);
	c.vp = hvipi_st.table[T_IDENT];
	hvipi_all_ops(c, HVIPI_FB_BAD_VECTOR);
}

void test_bad_vectors_fall_back(void)
{
	static const int vec[] = { 0, 0x0f, 0x100, -1, 0x7fffffff };
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_IDENT], .hints = H_ALL, .cpu = -1,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vec); i++) {
		c.vector = vec[i];
		hvipi_all_ops(c, HVIPI_FB_BAD_VECTOR);
	}
	/* the edges that are allowed */
	c.vector = 0x10;
	hvipi_all_ops(c, HVIPI_FB_NONE);
	c.vector = 0xff;
	hvipi_all_ops(c, HVIPI_FB_NONE);
}

void test_fallback_not_recommended(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_IDENT], .vector = 0xf0, .cpu = -1,
		.hints = HVIPI_HINT_EX_MASKS | HVIPI_HINT_XMM_INPUT,
	};

	hvipi_all_ops(c, HVIPI_FB_NOT_RECOMMENDED);
}

void test_fallback_vp_unknown(void)
{
	struct hvipi_case c = {
		.vector = 0xf0, .hints = H_ALL, .cpu = -1,
		.mask = hvipi_st.masks[0],	/* online */
	};
	u32 *t = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	unsigned int cpu;

	if (!t) {
		CHECK(0, "no memory");
		return;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		t[cpu] = HVIPI_VP_INVAL;
	c.vp = t;
	c.op = OP_MASK_ABS;
	if (num_online_cpus() > 1) {
		hvipi_run_case(&c);
		CHECK(hvipi_seen.reason == HVIPI_FB_VP_UNKNOWN,
		      "mask_allbutself: reason %u", hvipi_seen.reason);
	}
	c.op = OP_SELF;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.reason == HVIPI_FB_VP_UNKNOWN, "self: reason %u",
	      hvipi_seen.reason);
	c.op = OP_ONE;
	c.cpu = 0;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.reason == HVIPI_FB_VP_UNKNOWN, "one: reason %u",
	      hvipi_seen.reason);
	/* the whole present set still goes as format "all": no VP needed */
	c.op = OP_ALL;
	hvipi_run_case(&c);
	if (cpumask_equal(cpu_online_mask, cpu_present_mask))
		CHECK(hvipi_seen.kind == HVIPI_PLAN_EX_ALL, "all: plan %u",
		      hvipi_seen.kind);
	kfree(t);
}

void test_fallback_ex_not_recommended(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xf0, .cpu = -1,
		.hints = H_NOEX,
	};

	hvipi_all_ops(c, HVIPI_FB_EX_NOT_RECOMMENDED);
	c.op = OP_SELF;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.reason == HVIPI_FB_EX_NOT_RECOMMENDED,
	      "self: reason %u", hvipi_seen.reason);
}

/*
 * The target mask is the present mask itself (separated_present): the glue
 * passes the core no present mask, so no word is loaded as both, and the
 * whole present set goes as its sparse VP set, not format "all".
 */
void test_present_is_target(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xf6, .cpu = -1,
		.hints = H_ALL, .op = OP_MASK, .mask = cpu_present_mask,
	};

	if (!cpumask_equal(cpu_online_mask, cpu_present_mask)) {
		hvipi_st.skip = "a present CPU is offline: no send to the present mask";
		return;
	}
	hvipi_run_case(&c);
	CHECK(hvipi_seen.kind == HVIPI_PLAN_EX_SPARSE, "plan %u, not EX_SPARSE",
	      hvipi_seen.kind);
	/* the same set in a mask of its own (masks[1]) still goes as "all" */
	c.mask = hvipi_st.masks[1];
	hvipi_run_case(&c);
	CHECK(hvipi_seen.kind == HVIPI_PLAN_EX_ALL, "copy: plan %u, not EX_ALL",
	      hvipi_seen.kind);
}

void test_fallback_vp_too_big(void)
{
	struct hvipi_case c = {
		.vector = 0xf0, .hints = H_ALL, .op = OP_ONE,
	};
	u32 *t = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	unsigned int cpu;

	if (!t) {
		CHECK(0, "no memory");
		return;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		t[cpu] = 4096u + cpu;
	c.vp = t;
	for (cpu = 0; cpu < nr_cpu_ids && cpu < 8; cpu++) {
		c.cpu = cpu;
		hvipi_run_case(&c);
		CHECK(hvipi_seen.reason == HVIPI_FB_VP_TOO_BIG,
		      "one(%u): reason %u", cpu, hvipi_seen.reason);
	}
	c.op = OP_MASK_ABS;
	c.mask = cpu_online_mask;
	if (num_online_cpus() > 1) {
		hvipi_run_case(&c);
		CHECK(hvipi_seen.reason == HVIPI_FB_VP_TOO_BIG,
		      "mask_allbutself: reason %u", hvipi_seen.reason);
	}
	kfree(t);
}

void test_fallback_no_page(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xf0, .cpu = -1,
		.hints = H_ALL, .no_page = true, .mask = hvipi_st.masks[0],
	};

	c.op = OP_MASK;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.reason == HVIPI_FB_NO_PAGE, "mask: reason %u",
	      hvipi_seen.reason);
	c.op = OP_SELF;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.reason == HVIPI_FB_NO_PAGE, "self: reason %u",
	      hvipi_seen.reason);
	/*
	 * The fast call needs no page.  Sent to CPU 0 (VP 0), not to self:
	 * with more than 64 CPUs the test may run on a CPU whose identity VP
	 * is >= 64, which has no fast form (seen once at 80 vCPUs).
	 */
	c.vp = hvipi_st.table[T_IDENT];
	c.op = OP_ONE;
	c.cpu = 0;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.kind == HVIPI_PLAN_FAST, "CPU 0, VP 0: plan %u",
	      hvipi_seen.kind);
}

void test_fallback_no_hypercall_page(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_IDENT], .vector = 0xf0, .cpu = -1,
		.hints = H_ALL, .no_hcall = true,
	};

	hvipi_all_ops(c, HVIPI_FB_NO_PAGE);
}

void test_failing_status_falls_back(void)
{
	static const u64 status[] = { 2, 3, 4, 5, 6, 0xe, 0xffff,
				      0x0000000100000003ull };
	static const int tables[] = { T_IDENT, T_HIGH, T_SPREAD };
	struct hvipi_case c = { .vector = 0xf1, .hints = H_ALL, .cpu = -1 };
	unsigned int i, t, x;

	for (t = 0; t < ARRAY_SIZE(tables); t++)
	for (x = 0; x < 2; x++)
	for (i = 0; i < ARRAY_SIZE(status); i++) {
		c.vp = hvipi_st.table[tables[t]];
		c.xmm = x;
		c.status = status[i];
		for (c.op = 0; c.op < OP_N; c.op++) {
			c.mask = cpu_online_mask;
			if (c.op == OP_ONE)
				c.cpu = cpumask_last(cpu_online_mask);
			hvipi_run_case(&c);	/* checks the fallback */
		}
	}
}

void test_status_high_bits_are_success(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_SPREAD], .vector = 0xf2, .hints = H_ALL,
		.status = 0x0000000500000000ull,	/* 5 reps completed */
		.cpu = -1,
	};

	for (c.op = 0; c.op < OP_N; c.op++) {
		c.mask = cpu_online_mask;
		if (c.op == OP_ONE)
			c.cpu = 0;
		hvipi_run_case(&c);
	}
}

void test_allbutself_only_self_is_noop(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xf3, .hints = H_ALL,
		.op = OP_MASK_ABS,
	};
	cpumask_var_t m;
	int self;

	if (!zalloc_cpumask_var(&m, GFP_KERNEL)) {
		CHECK(0, "no memory");
		return;
	}
	self = get_cpu();
	cpumask_set_cpu(self, m);
	c.mask = m;
	CHECK(hvipi_run_case(&c) == HVIPI_PLAN_NONE, "plan %u",
	      hvipi_seen.kind);
	put_cpu();
	/* and the empty mask */
	cpumask_clear(m);
	c.op = OP_MASK;
	CHECK(hvipi_run_case(&c) == HVIPI_PLAN_NONE, "empty: plan %u",
	      hvipi_seen.kind);
	free_cpumask_var(m);
}

void test_tracepoint_fields(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_SPREAD], .vector = 0xf5, .hints = H_ALL,
		.op = OP_MASK, .mask = hvipi_st.masks[0],
	};

	hvipi_run_case(&c);
	CHECK(hvipi_seen.ncpus == num_online_cpus(), "ncpus %u",
	      hvipi_seen.ncpus);
	CHECK(hvipi_seen.vector == 0xf5, "vector %#x", hvipi_seen.vector);
	c.op = OP_MASK_ABS;
	hvipi_run_case(&c);
	CHECK(hvipi_seen.ncpus == num_online_cpus() - 1, "abs ncpus %u",
	      hvipi_seen.ncpus);
	if (num_online_cpus() > 1)
		CHECK(hvipi_seen.kind == HVIPI_PLAN_EX_SPARSE &&
		      hvipi_seen.banks >= 1, "abs plan %u banks %u",
		      hvipi_seen.kind, hvipi_seen.banks);
}

/* ---- an NMI-context send nested inside another send ------------------ */

/*
 * The nested send runs from the outer send's test_hook: after the core has
 * planned (and written the input page) and before the outer hypercall,
 * with interrupts off, on the outer send's CPU: where an NMI would hit.
 */
static struct {
	struct hvipi_ctx ctx;		/* the nested send's context */
	struct hvipi_case c;		/* op, vector, table, hints, xmm */
	struct {			/* what the hook saw */
		bool ran;
		u32 outer_kind;
		u32 bytes;		/* outer plan.bytes */
		bool page_same;		/* outer page bytes unchanged */
		unsigned long fetches;	/* page fetches by the nested send */
		u64 calls;		/* hypercalls by it */
		struct hvipi_fake_rec rec; /* its last hypercall */
		unsigned int events;
		u32 kind, reason;
		unsigned int orig[OP_N]; /* original ops it called */
		int orig_vector;
	} r;
} nest;

static void hvipi_nest_hook(const struct hvipi_ctx *ctx,
			    struct hvipi_plan *plan, u64 *page)
{
	unsigned long fetches = this_cpu_read(hvipi_page_fetches);
	u64 calls = hvipi_fake_rec.calls;
	u32 n = plan->bytes <= PAGE_SIZE ? plan->bytes : PAGE_SIZE;

	nest.r.ran = true;
	nest.r.outer_kind = plan->kind;
	nest.r.bytes = plan->bytes;
	if (page)
		memcpy(hvipi_st.copy_page, page, n);

	/* what the outer send's checks expect to find untouched */
	memset(&hvipi_seen, 0, sizeof(hvipi_seen));
	memset(hvipi_orig_calls, 0, sizeof(hvipi_orig_calls));

	hvipi_call_op_on(&nest.ctx, &nest.c);

	nest.r.page_same = !page || !memcmp(hvipi_st.copy_page, page, n);
	nest.r.fetches = this_cpu_read(hvipi_page_fetches) - fetches;
	nest.r.calls = hvipi_fake_rec.calls - calls;
	nest.r.rec = hvipi_fake_rec;
	nest.r.events = hvipi_seen.events;
	nest.r.kind = hvipi_seen.kind;
	nest.r.reason = hvipi_seen.reason;
	memcpy(nest.r.orig, hvipi_orig_calls, sizeof(nest.r.orig));
	nest.r.orig_vector = hvipi_orig_vector;

	/* restore: the outer send has not traced, fallen back or called */
	memset(&hvipi_seen, 0, sizeof(hvipi_seen));
	memset(hvipi_orig_calls, 0, sizeof(hvipi_orig_calls));
	hvipi_orig_vector = -1;
	hvipi_orig_cpu = -1;
	hvipi_fake_rec.calls = calls;
}

/* The nested send's targets (on CPU @self) into hvipi_st.want_vps; false if none. */
static bool hvipi_nest_targets(int self, bool *fast)
{
	const u32 *vp = nest.c.vp;
	bool any = false;
	unsigned int cpu;

	*fast = true;
	bitmap_zero(hvipi_st.want_vps, RX_VP_BITS);
	for_each_online_cpu(cpu) {
		bool t;

		switch (nest.c.op) {
		case OP_ONE:
			t = (int)cpu == nest.c.cpu;
			break;
		case OP_SELF:
			t = (int)cpu == self;
			break;
		case OP_ABS:
			t = (int)cpu != self;
			break;
		default:	/* OP_ALL */
			t = true;
			break;
		}
		if (!t)
			continue;
		any = true;
		if (vp[cpu] < 64u)
			__set_bit(vp[cpu], hvipi_st.want_vps);
		else
			*fast = false;
	}
	return any;
}

/*
 * One outer send (@outer: a page plan) with a nested NMI-context send
 * (nest.c) in its hook.  hvipi_run_case() checks the outer send as usual:
 * one trace event, one hypercall, and the receiver decodes the outer
 * vector and VP set from the page at hypercall time.  Here: the nested
 * send fetched no page, left the outer page bytes alone, and was
 * delivered (FAST, or the original op).
 */
static void hvipi_nest_case(const struct hvipi_case *outer)
{
	bool fast, any;
	u32 k, rxs;
	int self;

	memset(&nest.r, 0, sizeof(nest.r));
	hvipi_set_ctx(&nest.ctx, &nest.c);
	nest.ctx.orig = hvipi_st.ctx.orig;
	nest.ctx.test_force_nmi = true;
	nest.ctx.test_hook = NULL;

	hvipi_st.ctx.test_hook = hvipi_nest_hook;
	k = hvipi_run_case(outer);
	hvipi_st.ctx.test_hook = NULL;

	self = get_cpu();
	any = hvipi_nest_targets(self, &fast);
	put_cpu();

#define NESTF "outer %s/%u, nested %s vec=%#x xmm=%d"
#define NESTA hvipi_op_name[outer->op], k, hvipi_op_name[nest.c.op], \
	      nest.c.vector, nest.c.xmm
	CHECK(k == HVIPI_PLAN_EX_SPARSE || k == HVIPI_PLAN_EX_ALL,
	      NESTF ": outer plan is not a page plan", NESTA);
	CHECK(nest.r.ran && nest.r.outer_kind == k, NESTF ": hook ran %d, kind %u",
	      NESTA, nest.r.ran, nest.r.outer_kind);
	CHECK(nest.r.fetches == 0, NESTF ": nested send fetched the page %lu times",
	      NESTA, nest.r.fetches);
	CHECK(nest.r.page_same, NESTF ": nested send changed outer page bytes [0, %u)",
	      NESTA, nest.r.bytes);
	CHECK(nest.r.events == 1, NESTF ": %u nested trace events", NESTA,
	      nest.r.events);
	if (!any) {
		CHECK(nest.r.kind == HVIPI_PLAN_NONE && nest.r.calls == 0,
		      NESTF ": no target, plan %u, %llu calls", NESTA, nest.r.kind,
		      nest.r.calls);
		return;
	}
	if (fast) {
		CHECK(nest.r.kind == HVIPI_PLAN_FAST && nest.r.calls == 1,
		      NESTF ": plan %u/%u, %llu calls, want FAST", NESTA,
		      nest.r.kind, nest.r.reason, nest.r.calls);
		rxs = hvipi_rx_decode_rec(&nest.r.rec, NULL, &hvipi_st.rx);
		CHECK(rxs == RX_OK && hvipi_st.rx.vector == (u32)nest.c.vector &&
		      bitmap_equal(hvipi_st.rx.vps, hvipi_st.want_vps, RX_VP_BITS),
		      NESTF ": nested hypercall rx %#x vector %#x", NESTA, rxs,
		      hvipi_st.rx.vector);
		CHECK(nest.r.orig[nest.c.op] == 0, NESTF ": original op called",
		      NESTA);
	} else {
		/* no page in NMI: never EX_SPARSE/EX_ALL/EX_XMM */
		CHECK(nest.r.kind == HVIPI_PLAN_FALLBACK &&
		      nest.r.reason == HVIPI_FB_NO_PAGE && nest.r.calls == 0,
		      NESTF ": plan %u/%u, %llu calls, want FALLBACK/NO_PAGE",
		      NESTA, nest.r.kind, nest.r.reason, nest.r.calls);
		CHECK(nest.r.orig[nest.c.op] == 1 &&
		      nest.r.orig_vector == nest.c.vector,
		      NESTF ": original op called %u times, vector %#x", NESTA,
		      nest.r.orig[nest.c.op], nest.r.orig_vector);
	}
}

void test_nmi_nested_send_keeps_outer_page(void)
{
	static const int nest_ops[] = { OP_SELF, OP_ONE, OP_ABS, OP_ALL };
	static const int nest_tables[] = { T_IDENT, T_HIGH };
	struct hvipi_case outer = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xfd, .hints = H_ALL,
		.cpu = -1,
	};
	unsigned int o, t, i, x, ncase = 0;
	bool lost;

	for (o = 0; o < OP_N; o++) {
		outer.op = o;
		outer.mask = hvipi_st.masks[0];	/* online */
		if (o == OP_ONE)
			outer.cpu = cpumask_last(cpu_online_mask);
		if ((o == OP_ABS || o == OP_MASK_ABS) && num_online_cpus() < 2)
			continue;
		for (t = 0; t < ARRAY_SIZE(nest_tables); t++)
		for (i = 0; i < ARRAY_SIZE(nest_ops); i++)
		for (x = 0; x < 2; x++) {
			memset(&nest.c, 0, sizeof(nest.c));
			nest.c.op = nest_ops[i];
			nest.c.cpu = 0;
			nest.c.vector = 0xf6;	/* IRQ_WORK_VECTOR */
			nest.c.vp = hvipi_st.table[nest_tables[t]];
			nest.c.hints = H_ALL;
			nest.c.xmm = x;		/* never XMM in NMI */
			hvipi_nest_case(&outer);
			ncase++;
		}
	}

	/*
	 * Control: the same nesting, but the nested send not treated as NMI
	 * (as before the fix).  It writes the shared page and the outer
	 * hypercall then carries the nested vector: the check above can see
	 * the defect.  Not run through hvipi_run_case(), which would fail.
	 */
	outer.op = OP_SELF;
	memset(&nest.c, 0, sizeof(nest.c));
	nest.c.op = OP_SELF;
	nest.c.vector = 0xf6;
	nest.c.vp = hvipi_st.table[T_HIGH];
	nest.c.hints = H_ALL;
	memset(&nest.r, 0, sizeof(nest.r));
	hvipi_set_ctx(&hvipi_st.ctx, &outer);
	hvipi_set_ctx(&nest.ctx, &nest.c);
	nest.ctx.orig = hvipi_st.ctx.orig;
	nest.ctx.test_force_nmi = false;
	hvipi_fake_reset(0);
	hvipi_st.ctx.test_hook = hvipi_nest_hook;
	{
		u64 *page;
		int self = get_cpu();

		page = *per_cpu_ptr(hvipi_st.pages, self);
		hvipi_call_op(&outer);
		lost = hvipi_rx_decode_rec(&hvipi_fake_rec, page, &hvipi_st.rx) == RX_OK &&
		       hvipi_st.rx.vector == 0xf6;
		put_cpu();
	}
	hvipi_st.ctx.test_hook = NULL;
	CHECK(nest.r.ran && !nest.r.page_same && nest.r.fetches == 1 && lost,
	      "control (nested send not in NMI): ran %d, page same %d, fetches %lu, outer call carried the nested vector %d",
	      nest.r.ran, nest.r.page_same, nest.r.fetches, lost);
	pr_info("    # %u nested cases; control without NMI handling: outer IPI %s\n",
		ncase, lost ? "lost (as expected)" : "NOT lost");
}

/* ---- an NMI-context fallback to ops that write Linux's input page ---- */

/*
 * Stand-ins for the ops the module falls back to on Hyper-V, Linux's
 * hv_send_ipi*() (arch/x86/hyperv/hv_apic.c): for a target VP >= 64 they
 * write an Ex input (vector, sparse format, valid-bank mask, banks) into
 * Linux's per-CPU input page before their hypercall.  These write such an
 * input for their targets into this CPU's page of lnx.pages and count
 * like the harness's fakes; they make no hypercall.
 */
static struct {
	void * __percpu *pages;		/* "Linux's" per-CPU input pages */
	const u32 *vp;			/* the VP table they read */
	unsigned int writes;		/* inputs they wrote */
} lnx;

static bool lnx_target(unsigned int cpu, bool exclude_self, u32 *vp)
{
	*vp = lnx.vp[cpu];
	return *vp < HVIPI_VP_LIMIT &&
	       !(exclude_self && cpu == smp_processor_id());
}

static void lnx_write_input(const struct cpumask *mask, bool exclude_self,
			    int vector)
{
	u64 *in = *this_cpu_ptr(lnx.pages);
	unsigned int cpu;
	u64 valid = 0;
	u32 vp;

	for_each_cpu(cpu, mask)
		if (lnx_target(cpu, exclude_self, &vp))
			valid |= BIT_ULL(vp / 64u);
	in[0] = (u32)vector;		/* vector, reserved 0 */
	in[1] = 0;			/* format: sparse */
	in[2] = valid;			/* valid_bank_mask */
	memset(&in[3], 0, hweight64(valid) * sizeof(u64));
	for_each_cpu(cpu, mask)
		if (lnx_target(cpu, exclude_self, &vp))
			in[3 + hweight64(valid & (BIT_ULL(vp / 64u) - 1))] |=
				BIT_ULL(vp % 64u);
	lnx.writes++;
}

static void lnx_send_IPI(int cpu, int vector)
{
	lnx_write_input(cpumask_of(cpu), false, vector);
	hvipi_orig_calls[OP_ONE]++;
	hvipi_orig_cpu = cpu;
	hvipi_orig_vector = vector;
}

static void lnx_send_IPI_mask(const struct cpumask *mask, int vector)
{
	lnx_write_input(mask, false, vector);
	hvipi_orig_calls[OP_MASK]++;
	hvipi_orig_vector = vector;
}

static void lnx_send_IPI_mask_allbutself(const struct cpumask *mask,
					 int vector)
{
	lnx_write_input(mask, true, vector);
	hvipi_orig_calls[OP_MASK_ABS]++;
	hvipi_orig_vector = vector;
}

static void lnx_send_IPI_allbutself(int vector)
{
	lnx_write_input(cpu_online_mask, true, vector);
	hvipi_orig_calls[OP_ABS]++;
	hvipi_orig_vector = vector;
}

static void lnx_send_IPI_all(int vector)
{
	lnx_write_input(cpu_online_mask, false, vector);
	hvipi_orig_calls[OP_ALL]++;
	hvipi_orig_vector = vector;
}

static void lnx_send_IPI_self(int vector)
{
	lnx_write_input(cpumask_of(smp_processor_id()), false, vector);
	hvipi_orig_calls[OP_SELF]++;
	hvipi_orig_vector = vector;
}

static const struct hvipi_ops lnx_ops = {
	.send_IPI			= lnx_send_IPI,
	.send_IPI_mask			= lnx_send_IPI_mask,
	.send_IPI_mask_allbutself	= lnx_send_IPI_mask_allbutself,
	.send_IPI_allbutself		= lnx_send_IPI_allbutself,
	.send_IPI_all			= lnx_send_IPI_all,
	.send_IPI_self			= lnx_send_IPI_self,
};

/* The nested send (nest.c) on @ctx as NMI context; the hook records it. */
static void hvipi_nest_on(const struct hvipi_ctx *ctx, int op)
{
	memset(&nest.c, 0, sizeof(nest.c));
	nest.c.op = op;
	nest.c.cpu = 0;
	nest.c.vector = 0xf6;		/* IRQ_WORK_VECTOR */
	nest.c.vp = ctx->vp_index;
	nest.c.hints = ctx->hints;
	nest.ctx = *ctx;
	nest.ctx.test_force_nmi = true;
	nest.ctx.test_hook = NULL;
	memset(&nest.r, 0, sizeof(nest.r));
}

/*
 * On Hyper-V the module falls back to Linux's ops, which write Linux's
 * input page.  The context is made as the switch makes the live one
 * (hvipi_ctx_fill(), with lnx.pages as Linux's pages and the stand-ins
 * above as the saved ops).  An outer page plan on it is interrupted,
 * between the core's page write and the hypercall, by an NMI-context send
 * on the same context whose plan falls back (VPs >= 64, no page in NMI),
 * so the stand-in writes Linux's page.  hvipi_run_case_on() checks the
 * outer hypercall carries the outer vector and VP set; here: the outer
 * page bytes [0, plan.bytes) are unchanged, the nested send fetched no
 * page, fell back once with its vector, and did write Linux's page.
 */
void test_nmi_fallback_keeps_outer_page(void)
{
	static const int nest_ops[] = { OP_SELF, OP_ONE, OP_ABS, OP_ALL };
	struct hvipi_hv hv = {
		.hcall_pg = (void *)hvipi_fake_hcall,
		.vp_index = hvipi_st.table[T_HIGH],
		.linux_input = hvipi_st.pages,
		.present = cpu_present_mask,
		.hints = H_ALL,
	};
	struct hvipi_case oc = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xfd, .hints = H_ALL,
		.mask = hvipi_st.masks[0], .cpu = -1,
	};
	const struct hvipi_case *outer = &oc;	/* as NESTA names it */
	struct hvipi_ctx ctx, ctrl;
	unsigned int o, i, writes, ncase = 0;
	bool fast, any, lost;
	u64 *page;
	int self;
	u32 k;

	lnx.pages = hv.linux_input;
	lnx.vp = hv.vp_index;
	if (hvipi_ctx_fill(&ctx, &hv, &lnx_ops, false)) {
		CHECK(false, "no memory for the context's input pages");
		return;
	}
	ctx.test_hook = hvipi_nest_hook;
	for (o = 0; o < OP_N; o++) {
		oc.op = o;
		if (o == OP_ONE)
			oc.cpu = cpumask_last(cpu_online_mask);
		if ((o == OP_ABS || o == OP_MASK_ABS) && num_online_cpus() < 2)
			continue;
		for (i = 0; i < ARRAY_SIZE(nest_ops); i++) {
			hvipi_nest_on(&ctx, nest_ops[i]);
			writes = lnx.writes;
			k = hvipi_run_case_on(&ctx, outer);
			writes = lnx.writes - writes;
			self = get_cpu();
			any = hvipi_nest_targets(self, &fast);
			put_cpu();
			ncase++;

			CHECK(k == HVIPI_PLAN_EX_SPARSE || k == HVIPI_PLAN_EX_ALL,
			      NESTF ": outer plan is not a page plan", NESTA);
			CHECK(nest.r.ran && nest.r.outer_kind == k,
			      NESTF ": hook ran %d, kind %u", NESTA, nest.r.ran,
			      nest.r.outer_kind);
			CHECK(nest.r.fetches == 0,
			      NESTF ": nested send fetched the page %lu times",
			      NESTA, nest.r.fetches);
			CHECK(nest.r.page_same,
			      NESTF ": the fallback changed outer page bytes [0, %u)",
			      NESTA, nest.r.bytes);
			if (!any) {
				CHECK(nest.r.kind == HVIPI_PLAN_NONE && !writes,
				      NESTF ": no target, plan %u, %u writes",
				      NESTA, nest.r.kind, writes);
				continue;
			}
			CHECK(!fast && nest.r.kind == HVIPI_PLAN_FALLBACK &&
			      nest.r.reason == HVIPI_FB_NO_PAGE &&
			      nest.r.calls == 0,
			      NESTF ": plan %u/%u, %llu calls, want FALLBACK/NO_PAGE",
			      NESTA, nest.r.kind, nest.r.reason, nest.r.calls);
			CHECK(nest.r.orig[nest.c.op] == 1 &&
			      nest.r.orig_vector == nest.c.vector && writes == 1,
			      NESTF ": original op called %u times, vector %#x, Linux's page written %u times",
			      NESTA, nest.r.orig[nest.c.op], nest.r.orig_vector,
			      writes);
		}
	}

	/*
	 * Control: the context sending through Linux's pages, as the module
	 * did before.  The fallback then overwrites the outer input and the
	 * outer hypercall carries the nested vector: the checks above can
	 * see the defect.  Not run through hvipi_run_case_on(), which would
	 * fail.
	 */
	ctrl = ctx;
	ctrl.input_arg = hv.linux_input;
	oc.op = OP_SELF;
	hvipi_nest_on(&ctrl, OP_SELF);
	hvipi_fake_reset(0);
	self = get_cpu();
	page = *per_cpu_ptr(ctrl.input_arg, self);
	hvipi_call_op_on(&ctrl, outer);
	lost = hvipi_rx_decode_rec(&hvipi_fake_rec, page, &hvipi_st.rx) == RX_OK &&
	       hvipi_st.rx.vector == (u32)nest.c.vector;
	put_cpu();
	CHECK(nest.r.ran && !nest.r.page_same && lost,
	      "control (Linux's pages): ran %d, page same %d, outer call carried the nested vector %d",
	      nest.r.ran, nest.r.page_same, lost);
	pr_info("    # %u nested cases; control with Linux's pages: outer IPI %s\n",
		ncase, lost ? "lost (as expected)" : "NOT lost");
	hvipi_ctx_free_pages(&ctx);
}
