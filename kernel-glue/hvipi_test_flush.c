// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_flush.c - self-test: the remote TLB flush op (hvipi_flush.c,
 * hvipi_flush.h) with its real inline asm against the fake hypercall page.
 * What the page recorded (rcx, rdx) and the input page the op filled are
 * checked word by word against the flush rules (spec/FLUSH_RULES.md): the
 * call code and control fields, address space and flags, the processor
 * mask or the sparse VP set, the GVA entries; the rep loop's continuations
 * on a fake page that completes one rep a call; the native flush on a
 * failure, on a success without progress, and without the hint.  No
 * hypervisor is involved.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/io.h>

#include "hvipi_glue.h"
#include "hvipi_test.h"

#define RES(st, reps)	((u64)(st) | ((u64)(reps) << 32))
#define FS		0x7f0000000000ull
#define CANARY		0xa5a5a5a5a5a5a5a5ull
#define MIB16		(4096ull * 4096ull)
#define FLUSH_ALL	(~0ull)		/* TLB_FLUSH_ALL */
#define NOMM		HVIPI_FLUSH_OPT_ALL_SPACES

static unsigned int native_calls;
static struct cpumask flush_mask;

static void fake_native_flush(const struct cpumask *cpus, u64 space,
			      u64 start, u64 end, u32 opts)
{
	native_calls++;
}

static void flush_ctx(struct hvipi_ctx *ctx, int table, u32 hints)
{
	struct hvipi_case c = { .vp = hvipi_st.table[table], .hints = hints };

	hvipi_set_ctx(ctx, &c);
	ctx->orig_flush = fake_native_flush;
}

/*
 * One flush of [start, end) on flush_mask, as the in-tree op asks it for
 * a flush_tlb_info without mm (every address space), TLB_FLUSH_ALL as the
 * whole space, freed tables as global mappings too; returns this CPU's
 * page.
 */
static u64 *run_flush(const struct hvipi_ctx *ctx, u64 start, u64 end,
		      u64 status, u64 step, bool freed)
{
	u32 opts = NOMM | (end == FLUSH_ALL ? HVIPI_FLUSH_OPT_WHOLE : 0) |
		   (freed ? HVIPI_FLUSH_OPT_GLOBAL : 0);
	unsigned int i;
	u64 *page;
	int cpu;

	hvipi_fake_reset(status);
	hvipi_fake_rec.step = step;
	native_calls = 0;
	cpu = get_cpu();
	page = *per_cpu_ptr(hvipi_st.pages, cpu);
	for (i = 0; i < PAGE_SIZE / 8; i++)
		page[i] = CANARY;
	hvipi_ctx_flush_tlb_multi(ctx, &flush_mask, 0, start, end, opts);
	put_cpu();
	return page;
}

static bool untouched_from(const u64 *page, unsigned int from)
{
	unsigned int i;

	for (i = from; i < PAGE_SIZE / 8; i++)
		if (page[i] != CANARY)
			return false;
	return true;
}

/* Non-Ex: List and Space calls, the flags, the continuation loop. */
void test_flush_on_fake_page(void)
{
	struct hvipi_ctx ctx;
	const u32 *vp = hvipi_st.table[T_IDENT];
	bool all;
	u64 *pg, mask, fl;

	flush_ctx(&ctx, T_IDENT, HVIPI_HINT_REMOTE_FLUSH | HVIPI_HINT_EX_MASKS);
	cpumask_clear(&flush_mask);
	cpumask_set_cpu(0, &flush_mask);
	/* the only CPU present: ALL_PROCESSORS, processor mask 0 */
	all = cpumask_equal(&flush_mask, cpu_present_mask);
	mask = all ? 0 : BIT_ULL(vp[0]);
	fl = 0x2 | (all ? 0x1 : 0);

	/* two pages: List 0x0003, one entry with one additional page */
	pg = run_flush(&ctx, FS, FS + 2 * PAGE_SIZE, RES(0, 1), 0, false);
	CHECK(hvipi_fake_rec.calls == 1 && native_calls == 0,
	      "list: %llu calls, %u native", hvipi_fake_rec.calls, native_calls);
	CHECK(hvipi_fake_rec.rcx == 0x100000003ull &&
	      hvipi_fake_rec.rdx == virt_to_phys(pg) && hvipi_fake_rec.r8 == 0,
	      "list: rcx %#llx rdx %#llx r8 %#llx", hvipi_fake_rec.rcx,
	      hvipi_fake_rec.rdx, hvipi_fake_rec.r8);
	CHECK(pg[0] == 0 && pg[1] == fl && pg[2] == mask && pg[3] == (FS | 1),
	      "list: words %#llx %#llx %#llx %#llx", pg[0], pg[1], pg[2], pg[3]);
	CHECK(untouched_from(pg, 4), "list: a word past the input written");

	/* TLB_FLUSH_ALL: Space 0x0002, NON_GLOBAL_MAPPINGS_ONLY */
	pg = run_flush(&ctx, 0, FLUSH_ALL, RES(0, 0), 0, false);
	CHECK(hvipi_fake_rec.calls == 1 && native_calls == 0 &&
	      hvipi_fake_rec.rcx == 0x2 && pg[1] == (fl | 0x4) && pg[2] == mask &&
	      untouched_from(pg, 3), "space: rcx %#llx flags %#llx",
	      hvipi_fake_rec.rcx, pg[1]);
	/* ... freed page tables: global mappings go too */
	pg = run_flush(&ctx, 0, FLUSH_ALL, RES(0, 0), 0, true);
	CHECK(hvipi_fake_rec.rcx == 0x2 && pg[1] == fl,
	      "space, freed tables: flags %#llx", pg[1]);

	/* 3 x 16 MiB, one rep a call: three calls, rep start 0, 1, 2 */
	pg = run_flush(&ctx, FS, FS + 3 * MIB16, RES(0, 1), RES(0, 1), false);
	CHECK(hvipi_fake_rec.calls == 3 && native_calls == 0 &&
	      hvipi_fake_rec.rcx == (0x300000003ull | (2ull << 48)),
	      "continuation: %llu calls, last rcx %#llx, %u native",
	      hvipi_fake_rec.calls, hvipi_fake_rec.rcx, native_calls);
	CHECK(pg[3] == (FS | 0xfff) && pg[4] == ((FS + MIB16) | 0xfff) &&
	      pg[5] == ((FS + 2 * MIB16) | 0xfff) && untouched_from(pg, 6),
	      "continuation: entries %#llx %#llx %#llx", pg[3], pg[4], pg[5]);

	/* a failing status: the native flush */
	run_flush(&ctx, FS, FS + PAGE_SIZE, RES(3, 0), 0, false);
	CHECK(hvipi_fake_rec.calls == 1 && native_calls == 1,
	      "failure: %llu calls, %u native", hvipi_fake_rec.calls, native_calls);
	/* success without progress on a list: BAD, the native flush */
	run_flush(&ctx, FS, FS + PAGE_SIZE, RES(0, 0), 0, false);
	CHECK(hvipi_fake_rec.calls == 1 && native_calls == 1,
	      "no progress: %llu calls, %u native", hvipi_fake_rec.calls,
	      native_calls);
	/* an empty range: nothing at all */
	run_flush(&ctx, FS, FS, RES(0, 0), 0, false);
	CHECK(hvipi_fake_rec.calls == 0 && native_calls == 0,
	      "empty: %llu calls, %u native", hvipi_fake_rec.calls, native_calls);
	/* no remote-flush hint: native, no call */
	flush_ctx(&ctx, T_IDENT, HVIPI_HINT_EX_MASKS);
	run_flush(&ctx, FS, FS + PAGE_SIZE, RES(0, 1), 0, false);
	CHECK(hvipi_fake_rec.calls == 0 && native_calls == 1,
	      "no hint: %llu calls, %u native", hvipi_fake_rec.calls, native_calls);
	/* no input page: native, no call */
	flush_ctx(&ctx, T_IDENT, HVIPI_HINT_REMOTE_FLUSH);
	ctx.input_arg = NULL;
	run_flush(&ctx, FS, FS + PAGE_SIZE, RES(0, 1), 0, false);
	CHECK(hvipi_fake_rec.calls == 0 && native_calls == 1,
	      "no page: %llu calls, %u native", hvipi_fake_rec.calls, native_calls);
}

/* Ex: the sparse VP set at word 2, the list after the banks. */
void test_flush_ex_on_fake_page(void)
{
	struct hvipi_ctx ctx;
	const u32 *vp = hvipi_st.table[T_HIGH];
	u64 *pg;
	u32 v;

	cpumask_clear(&flush_mask);
	cpumask_set_cpu(0, &flush_mask);
	if (cpumask_equal(&flush_mask, cpu_present_mask)) {
		/* one CPU: the set is the present set, a non-Ex ALL_PROCESSORS call */
		hvipi_st.skip = "one CPU present: no Ex set to send";
		return;
	}
	v = vp[0];
	flush_ctx(&ctx, T_HIGH, HVIPI_HINT_REMOTE_FLUSH | HVIPI_HINT_EX_MASKS);
	pg = run_flush(&ctx, FS, FS + PAGE_SIZE, RES(0, 1), 0, false);
	CHECK(v >= 64 && v < 4096, "T_HIGH VP %u", v);
	CHECK(hvipi_fake_rec.calls == 1 && native_calls == 0 &&
	      hvipi_fake_rec.rcx == (0x14ull | (1ull << 17) | (1ull << 32)),
	      "list ex: rcx %#llx, %u native", hvipi_fake_rec.rcx, native_calls);
	CHECK(pg[0] == 0 && pg[1] == 0x2 && pg[2] == 0 &&
	      pg[3] == BIT_ULL(v / 64) && pg[4] == BIT_ULL(v % 64) &&
	      pg[5] == FS && untouched_from(pg, 6),
	      "list ex: words %#llx %#llx %#llx %#llx %#llx %#llx", pg[0], pg[1],
	      pg[2], pg[3], pg[4], pg[5]);
	/* no EX hint: native */
	flush_ctx(&ctx, T_HIGH, HVIPI_HINT_REMOTE_FLUSH);
	run_flush(&ctx, FS, FS + PAGE_SIZE, RES(0, 1), 0, false);
	CHECK(hvipi_fake_rec.calls == 0 && native_calls == 1,
	      "no ex hint: %llu calls, %u native", hvipi_fake_rec.calls,
	      native_calls);
}
