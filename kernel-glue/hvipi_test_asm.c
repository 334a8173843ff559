// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_asm.c - self-test: the three hypercall asm forms against the
 * fake page, called directly; the rep-call loop (hvipi_rep.h) against the
 * fake page's growing "reps completed"; the receiver model's own
 * rejections; and
 * hvipi_issue() failing closed on a plan it cannot issue.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <asm/fpu/api.h>
#include <asm/io.h>
#include <asm/simd.h>

#include "hvipi_glue.h"
#include "hvipi_hcall.h"
#include "hvipi_rep.h"
#include "hvipi_rx.h"
#include "hvipi_test.h"
#include "hvipi_test_hooks.h"

/* The three asm forms against the fake page, called directly. */
void test_hcall_asm_forms(void)
{
	u64 xin[HVIPI_XMM_WORDS];
	u64 st0, a = 0x0123456789abcdefull;
	unsigned int i;
	void *pg = (void *)hvipi_fake_hcall;

	hvipi_fake_reset(0x1234);
	st0 = hvipi_hcall_fast(pg, 0x1000b, 0xfe, 0x8000000000000001ull);
	CHECK(st0 == 0x1234, "fast: status %#llx", st0);
	CHECK(hvipi_fake_rec.rcx == 0x1000b && hvipi_fake_rec.rdx == 0xfe &&
	      hvipi_fake_rec.r8 == 0x8000000000000001ull,
	      "fast: recorded %#llx %#llx %#llx", hvipi_fake_rec.rcx,
	      hvipi_fake_rec.rdx, hvipi_fake_rec.r8);

	hvipi_fake_reset(0x3);
	st0 = hvipi_hcall_mem(pg, 0x20015, virt_to_phys(hvipi_st.self_page));
	CHECK(st0 == 0x3, "mem: status %#llx", st0);
	CHECK(hvipi_fake_rec.rcx == 0x20015 &&
	      hvipi_fake_rec.rdx == virt_to_phys(hvipi_st.self_page) &&
	      hvipi_fake_rec.r8 == 0, "mem: recorded %#llx %#llx %#llx",
	      hvipi_fake_rec.rcx, hvipi_fake_rec.rdx, hvipi_fake_rec.r8);

	for (i = 0; i < HVIPI_XMM_WORDS; i++)
		xin[i] = (0x1111111111111111ull * (i + 1)) ^ a;
	hvipi_fake_reset(0);
	if (may_use_simd()) {
		kernel_fpu_begin();
		st0 = hvipi_hcall_xmm(pg, 0x10015 | (11ull << 17), 0xfd, 0, xin);
		kernel_fpu_end();
		CHECK(st0 == 0, "xmm: status %#llx", st0);
		CHECK(hvipi_fake_rec.rcx == (0x10015 | (11ull << 17)) &&
		      hvipi_fake_rec.rdx == 0xfd && hvipi_fake_rec.r8 == 0,
		      "xmm: recorded regs");
		for (i = 0; i < HVIPI_XMM_WORDS; i++)
			CHECK(hvipi_fake_rec.xmm[i] == xin[i],
			      "xmm word %u: %#llx want %#llx", i,
			      hvipi_fake_rec.xmm[i], xin[i]);
	}
	CHECK(hvipi_fake_rec.calls == (may_use_simd() ? 1u : 0u),
	      "calls %llu", hvipi_fake_rec.calls);
}

/* A result word: status in bits 15:0, reps completed in bits 43:32. */
#define REP_RES(status, reps)	((u64)(status) | ((u64)(reps) << 32))

/*
 * The rep-call loop (hvipi_rep.h) on the fake page, whose result grows by
 * its step after every call: each call is the first one's control word
 * with the rep start at the reps completed so far; the loop ends on all
 * reps done, on a failure, and on a success without progress.
 */
void test_rep_call_loop(void)
{
	void *pg = (void *)hvipi_fake_hcall;
	u64 gpa = virt_to_phys(hvipi_st.self_page);
	u64 ctl = hvipi_rep_control(0x0003, 0, 5);
	u64 bad = 0x5;	/* HV_STATUS_INVALID_PARAMETER, a failing status */
	unsigned int calls;
	u64 res;

	CHECK(ctl == 0x500000003ull, "rep control %#llx", ctl);
	/* one rep a call: five calls, the last from rep 4 */
	hvipi_fake_reset(REP_RES(0, 1));
	hvipi_fake_rec.step = REP_RES(0, 1);
	res = hvipi_rep_call(pg, ctl, gpa, bad, &calls);
	CHECK(res == REP_RES(0, 5) && calls == 5 && hvipi_fake_rec.calls == 5,
	      "1 a call: result %#llx, %u calls", res, calls);
	CHECK(hvipi_fake_rec.rcx == (ctl | (4ull << 48)) &&
	      hvipi_fake_rec.rdx == gpa && hvipi_fake_rec.r8 == 0,
	      "1 a call: last control %#llx", hvipi_fake_rec.rcx);
	/* all at once: one call */
	hvipi_fake_reset(REP_RES(0, 5));
	res = hvipi_rep_call(pg, ctl, gpa, bad, &calls);
	CHECK(res == REP_RES(0, 5) && calls == 1 && hvipi_fake_rec.rcx == ctl,
	      "all at once: result %#llx, %u calls", res, calls);
	/* two a call: 2, 4, then 6 of 5 reps: BAD on the third call */
	hvipi_fake_reset(REP_RES(0, 2));
	hvipi_fake_rec.step = REP_RES(0, 2);
	res = hvipi_rep_call(pg, ctl, gpa, bad, &calls);
	CHECK(res == bad && calls == 3 && hvipi_fake_rec.rcx == (ctl | (4ull << 48)),
	      "past the count: result %#llx, %u calls, last %#llx", res, calls,
	      hvipi_fake_rec.rcx);
	/* no progress after the first rep: BAD on the second call */
	hvipi_fake_reset(REP_RES(0, 1));
	res = hvipi_rep_call(pg, ctl, gpa, bad, &calls);
	CHECK(res == bad && calls == 2 && hvipi_fake_rec.rcx == (ctl | (1ull << 48)),
	      "stalled: result %#llx, %u calls", res, calls);
	/* a failure on the first call */
	hvipi_fake_reset(REP_RES(3, 0));
	res = hvipi_rep_call(pg, ctl, gpa, bad, &calls);
	CHECK(res == REP_RES(3, 0) && calls == 1, "failed: result %#llx, %u calls",
	      res, calls);
	/* rep count 0 (a Space flush): one call, done on success */
	ctl = hvipi_rep_control(0x0002, 0, 0);
	hvipi_fake_reset(0);
	res = hvipi_rep_call(pg, ctl, gpa, bad, &calls);
	CHECK(res == 0 && calls == 1 && hvipi_fake_rec.rcx == 0x2,
	      "space: result %#llx, %u calls", res, calls);
	hvipi_fake_reset(0);
}

/* The receiver model itself rejects what it must. */
void test_receiver_model_rejects(void)
{
	struct hvipi_fake_rec r;
	u64 *p = hvipi_st.self_page;

	memset(&r, 0, sizeof(r));
	r.rcx = 0x1000b;
	r.rdx = 0xfe;
	r.r8 = 1;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_OK, "fast ok");
	r.rcx = 0x1000b | BIT_ULL(27);
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT, "rsvd 27");
	r.rcx = 0x1000b | BIT_ULL(32);
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT, "rep count");
	r.rcx = 0x1000b | (1ull << 17);
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT, "varhdr");
	r.rcx = 0x1000b;
	r.rdx = 0x1000000fe;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT, "rdx high");
	r.rdx = 0x2;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT, "NMI vec");
	r.rcx = 0x1000c;
	r.rdx = 0xfe;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_CODE, "code");

	/* Ex in memory */
	p[0] = 0xfe;
	p[1] = HVIPI_FORMAT_SPARSE;
	p[2] = BIT_ULL(0) | BIT_ULL(5);
	p[3] = 1;
	p[4] = 2;
	r.rcx = 0x15 | (2ull << 17);
	r.rdx = virt_to_phys(p);
	r.r8 = 0;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_OK &&
	      test_bit(0, hvipi_st.rx.vps) && test_bit(5 * 64 + 1, hvipi_st.rx.vps) &&
	      bitmap_weight(hvipi_st.rx.vps, RX_VP_BITS) == 2, "ex sparse ok");
	r.rcx = 0x15 | (1ull << 17);
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT,
	      "ex varhdr != popcount");
	p[1] = HVIPI_FORMAT_ALL;
	p[2] = 0;
	r.rcx = 0x15;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_OK && hvipi_st.rx.all, "ex all");
	p[1] = 7;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_PARAMETER,
	      "ex format 7");
	p[1] = HVIPI_FORMAT_SPARSE;
	p[0] = 0x2;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_OK,
	      "empty sparse set ok before the vector check");
	p[0] = 0xfe | BIT_ULL(32);
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_PARAMETER,
	      "target_vtl set");
	r.rdx = virt_to_phys(p) + 8;
	p[0] = 0xfe;
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_BAD_GPA, "wrong GPA");
	/* XMM-fast with 12 banks */
	r.rcx = 0x10015 | (12ull << 17);
	r.rdx = 0xfe;
	r.r8 = HVIPI_FORMAT_SPARSE;
	r.xmm[0] = GENMASK_ULL(11, 0);
	CHECK(hvipi_rx_decode_rec(&r, p, &hvipi_st.rx) == RX_INVALID_INPUT,
	      "xmm 12 banks");
}

/* ---- hvipi_issue() fails closed ----------------------------------------- */

static void hvipi_bogus_kind_hook(const struct hvipi_ctx *ctx,
				  struct hvipi_plan *plan, u64 *page)
{
	plan->kind = 0x7fffffffu;
}

void test_unknown_plan_kind_fails_closed(void)
{
	static const u32 kinds[] = { HVIPI_PLAN_NONE, HVIPI_PLAN_FALLBACK, 6,
				     0x7fffffffu, 0xffffffffu };
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_IDENT], .vector = 0xf7, .hints = H_ALL,
		.cpu = -1,
	};
	struct hvipi_plan plan;
	unsigned int i;
	u64 status;

	hvipi_set_ctx(&hvipi_st.ctx, &c);
	/* directly: every kind hvipi_issue() cannot issue is a failure */
	for (i = 0; i < ARRAY_SIZE(kinds) + 2; i++) {
		memset(&plan, 0, sizeof(plan));
		plan.control = HVIPI_CALL_SEND_IPI | BIT_ULL(HVIPI_CTL_FAST_SHIFT);
		plan.rdx = 0xf7;
		plan.r8 = 1;
		if (i < ARRAY_SIZE(kinds))
			plan.kind = kinds[i];
		else	/* a page plan without a page */
			plan.kind = i == ARRAY_SIZE(kinds) ?
				    HVIPI_PLAN_EX_SPARSE : HVIPI_PLAN_EX_ALL;
		hvipi_fake_reset(0);
		status = hvipi_test_issue(&hvipi_st.ctx, &plan, NULL);
		CHECK(!hvipi_status_ok(status) && hvipi_fake_rec.calls == 0,
		      "kind %u: status %#llx, %llu hypercalls", plan.kind,
		      status, hvipi_fake_rec.calls);
	}

	/* end to end: a plan kind corrupted before the issue -> original op */
	hvipi_st.ctx.test_hook = hvipi_bogus_kind_hook;
	for (c.op = 0; c.op < OP_N; c.op++) {
		c.mask = cpu_online_mask;
		if (c.op == OP_ONE)
			c.cpu = cpumask_last(cpu_online_mask);
		hvipi_set_ctx(&hvipi_st.ctx, &c);
		hvipi_fake_reset(0);
		memset(hvipi_orig_calls, 0, sizeof(hvipi_orig_calls));
		hvipi_orig_vector = -1;
		memset(&hvipi_seen, 0, sizeof(hvipi_seen));
		hvipi_call_op(&c);
		if (hvipi_seen.kind == HVIPI_PLAN_NONE)
			continue;	/* all-but-self on one CPU */
		CHECK(hvipi_seen.kind == 0x7fffffffu &&
		      hvipi_fake_rec.calls == 0 &&
		      hvipi_orig_calls[c.op] == 1 && hvipi_orig_vector == 0xf7,
		      "%s: traced kind %#x, %llu hypercalls, original op %u times (vector %#x)",
		      hvipi_op_name[c.op], hvipi_seen.kind,
		      hvipi_fake_rec.calls, hvipi_orig_calls[c.op],
		      hvipi_orig_vector);
	}
	hvipi_st.ctx.test_hook = NULL;
}
