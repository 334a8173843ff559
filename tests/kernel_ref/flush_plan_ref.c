/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * flush_plan_ref: hvipi_plan_flush() against the real remote TLB flush of
 * Linux 6.1, hyperv_flush_tlb_multi() of arch/x86/hyperv/mmu.c (Debian's
 * linux-source-6.1, compiled unchanged against shim/ by kflush_mmu.c, as
 * for flush-ref), and against its own rules read by the receiver model.
 *
 * Each case: nr_cpu_ids, a VP table (gen_table(): identity, permuted,
 * strided, high, random; unknown VPs, VPs >= 4096), a present mask, a
 * target mask, the Ex hint, an mm or none, a range or TLB_FLUSH_ALL.
 *
 *  1. The rules (spec/FLUSH_RULES.md section 9, an oracle written here from
 *     the target set): hvipi's kind and reason; then its call decoded by
 *     the flush receiver model (receiver/rx_flush.c, TLFS reading): status
 *     success, the VPs flushed exactly the target VPs (all VPs, through
 *     ALL_PROCESSORS, when the targets are the present CPUs), the address
 *     space and the flags, a List exactly when a range was asked and its
 *     entries fit, the entries one run of the pages the range touches, the
 *     input size the receiver needs equal to plan.bytes, no page word
 *     written at or past it.
 *  2. Linux on the same case (skipped for an empty mask, which its callers
 *     never pass): a native flush exactly when hvipi falls back, a
 *     hypercall exactly when hvipi plans one, both decoded by the model to
 *     the same VP set, address space, flags and Ex-ness, and the same
 *     List/Space choice and entries, except in the classes below, each
 *     counted and each a difference spec/FLUSH_RULES.md names:
 *       empty          end <= start: hvipi NONE, Linux lists start's page;
 *       unaligned      start not page-aligned: hvipi lists the pages the
 *                      range touches, a superset of Linux's (one page more
 *                      at most), or a whole space when that page needs an
 *                      entry more than fits;
 *       band           capacity x 16 MiB < end - start < (capacity + 1) x
 *                      16 MiB: Linux writes an entry past the page (the
 *                      receiver model refuses its call, status 4: input
 *                      crosses its page), hvipi a whole-space call;
 *       linux-empty-ex a VP >= 4096 in the partition: Linux's Ex calls
 *                      carry an empty VP set (section 5.1), even when a
 *                      target VP is unknown (its last-CPU shortcut skips the
 *                      walk); hvipi an Ex set of the targets, or VP_UNKNOWN
 *                      or VP_TOO_BIG;
 *       compact-room   an Ex list that fits after hvipi's compact banks but
 *                      not after Linux's dense ones (highest bank + 1
 *                      words): hvipi a List, Linux a whole-space call.
 *
 * Cases: first every small case (exhaustive(): nr_cpu_ids 1..8, every
 * mask over five VP tables, two present masks, the Ex hint, mm, four
 * ranges), then CASES random ones.
 *
 * Usage: flush_plan_ref [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counts.h"
#include "gen.h"
#include "hvipi.h"
#include "kflush.h"
#include "kref_version.h"
#include "rx_flush.h"

#define NR_MAX		512u
#define WORDS		(NR_MAX / 64u)
#define PAGE_WORDS	512u
#define GUARD_WORDS	16u
#define CANARY		0xa5a5a5a5a5a5a5a5ull
#define UNIT		(4096ull * 4096ull)	/* 16 MiB */
#define TOP		(~0ull)			/* TLB_FLUSH_ALL */
#define GPA		0x100000ull
#define INVAL		0xffffffffu

static const struct gen_nr_mix nr_mix = { { 40, 80, 100 }, { 64, 200, NR_MAX } };
static const struct gen_table_mix table_mix = {
	.identity = 25, .permuted = 40, .strided = 55, .high = 70, .random = 85,
	.fit = true, .huge_in = 15
};

static struct cpumask cpus, present;
static uint32_t vp[NR_MAX];
static uint64_t lpage[PAGE_WORDS + GUARD_WORDS] __attribute__((aligned(4096)));
static uint64_t hpage[PAGE_WORDS + GUARD_WORDS] __attribute__((aligned(4096)));
static uint64_t part[RX_VP_WORDS], want[RX_VP_WORDS];

enum cls { C_SAME, C_EMPTY, C_UNALIGNED, C_BAND, C_EMPTY_EX, C_ROOM, C_COUNT };
static const char *const cls_name[C_COUNT] = {
	"same", "empty", "unaligned", "band", "linux-empty-ex", "compact-room",
};
static uint64_t n_cls[C_COUNT], n_kind[6], n_reason[7], n_list, n_space;
static uint64_t cases, failures, linux_runs;

struct fcase {
	uint32_t nr, ex, mm, whole, ident;
	uint32_t nohint;	/* no remote-flush hint: hvipi only */
	uint32_t psize;		/* page size; not 4096 (0: no page): hvipi only */
	uint32_t garbage;	/* mask bits at and past nr set: hvipi only */
	uint64_t start, end;
	uint32_t max_vp;
};

static bool fail(const struct fcase *k, const struct hvipi_flush_plan *p,
		 const char *what)
{
	if (failures++ < 20)
		printf("flush_plan_ref: FAIL: %s: nr %u ex %u mm %u start %#" PRIx64
		       " end %#" PRIx64 " max_vp %u: kind %u reason %u control %#" PRIx64
		       " gvas %u banks %u bytes %u\n", what, k->nr, k->ex, k->mm,
		       k->start, k->end, k->max_vp, p->kind, p->reason, p->control,
		       p->gvas, p->banks, p->bytes);
	return false;
}

static void decode(const uint64_t *pg, uint64_t control, struct rxf_result *r)
{
	struct rxf_call c;

	memset(&c, 0, sizeof(c));
	c.control = control;
	c.rdx = GPA;
	c.mem = (const uint8_t *)pg;
	c.mem_len = 4096;
	c.mem_gpa = GPA;
	c.vps = part;
	c.hints = RXF_HINT_REMOTE_FLUSH | RXF_HINT_EX;
	c.rules = RXF_TLFS;
	rxf_decode(&c, r);
}

/* The oracle: the target set, and what the rules make of it. */
struct oracle {
	bool any, unknown, high, huge, same;
	uint32_t kind, reason;
};

static void oracle(const struct fcase *k, struct oracle *o)
{
	uint32_t c;

	memset(o, 0, sizeof(*o));
	memset(want, 0, sizeof(want));
	o->same = true;
	for (c = 0; c < k->nr; c++) {
		bool in = gen_test_bit(cpus.bits, c);

		if (in != gen_test_bit(present.bits, c))
			o->same = false;
		if (!in)
			continue;
		o->any = true;
		if (vp[c] == INVAL)
			o->unknown = true;
		else if (vp[c] >= 4096)
			o->huge = true;
		else {
			if (vp[c] >= 64)
				o->high = true;
			want[vp[c] / 64] |= 1ull << (vp[c] % 64);
		}
	}
	o->reason = HVIPI_FB_NONE;
	if (!o->any || (!k->whole && k->end <= k->start))
		o->kind = HVIPI_FLUSH_NONE;
	else if (k->nohint)
		o->reason = HVIPI_FB_NOT_RECOMMENDED;
	else if (o->same)
		o->kind = HVIPI_FLUSH_SPACE;
	else if (o->unknown)
		o->reason = HVIPI_FB_VP_UNKNOWN;
	else if (!o->high && !o->huge)
		o->kind = HVIPI_FLUSH_SPACE;
	else if (!k->ex)
		o->reason = HVIPI_FB_EX_NOT_RECOMMENDED;
	else if (o->huge)
		o->reason = HVIPI_FB_VP_TOO_BIG;
	else
		o->kind = HVIPI_FLUSH_SPACE_EX;
	if (o->reason != HVIPI_FB_NONE)
		o->kind = HVIPI_FLUSH_FALLBACK;
}

/* Entries of a list: one run of pages *lo .. *hi, in order, none empty. */
static bool run_of(const struct rxf_result *r, uint64_t *lo, uint64_t *hi)
{
	uint32_t j;

	if (!r->list_read || r->nr_gvas == 0 || r->gva_start != 0)
		return false;
	*lo = rxf_gva_first(r->gvas[0]);
	*hi = *lo + rxf_gva_pages(r->gvas[0]) - 1;
	for (j = 1; j < r->nr_gvas; j++) {
		if (rxf_gva_first(r->gvas[j]) != *hi + 1)
			return false;
		*hi = rxf_gva_first(r->gvas[j]) + rxf_gva_pages(r->gvas[j]) - 1;
	}
	return true;
}

/* The banks a set of VPs needs: its non-empty 64-VP words. */
static int popcount(const uint64_t *w)
{
	int n = 0;
	uint32_t i;

	for (i = 0; i < RX_VP_WORDS; i++)
		n += w[i] != 0;
	return n;
}

static bool same_vps(const struct rxf_result *a, const struct rxf_result *b)
{
	return a->all == b->all &&
	       (a->all || memcmp(a->vps, b->vps, sizeof(a->vps)) == 0);
}

static bool run_case(const struct fcase *k)
{
	struct hvipi_flush_plan p;
	struct kflush_call lk;
	struct rxf_result hr, lr;
	struct kref_env e;
	struct oracle o;
	uint64_t flags, space = k->mm ? kflush_mm_space() : 0, lo, hi, llo, lhi;
	uint32_t opts = (k->mm ? 0 : HVIPI_FLUSH_OPT_ALL_SPACES) |
			(k->whole ? HVIPI_FLUSH_OPT_WHOLE : 0);
	uint32_t hints = (k->nohint ? 0 : HVIPI_HINT_REMOTE_FLUSH) |
			 (k->ex ? HVIPI_HINT_EX_MASKS : 0);
	uint32_t words = k->psize / 8u;
	uint32_t i, hdr = 0, cap, ident = k->ident ? hvipi_vp_ident(vp, k->nr) : 0;
	uint64_t end = k->whole ? TOP : k->end;
	uint32_t lreps, lhdr;
	uint64_t need;
	bool list_want;

	cases++;
	oracle(k, &o);
	for (i = 0; i < PAGE_WORDS + GUARD_WORDS; i++)
		hpage[i] = lpage[i] = CANARY;
	hvipi_plan_flush(&p, cpus.bits, present.bits, k->nr, vp, ident, space,
			 k->start, end, opts, hints, k->psize ? hpage : NULL,
			 k->psize);
	if (p.kind > HVIPI_FLUSH_FALLBACK || p.reason > HVIPI_FB_NO_PAGE)
		return fail(k, &p, "kind or reason out of range");
	n_kind[p.kind]++;
	n_reason[p.reason]++;
	/* 1. the rules */
	/* a call kind whose header the page cannot hold: NO_PAGE */
	if ((o.kind == HVIPI_FLUSH_SPACE && words < 3u) ||
	    (o.kind == HVIPI_FLUSH_SPACE_EX && words < 4u + (uint32_t)popcount(want))) {
		o.kind = HVIPI_FLUSH_FALLBACK;
		o.reason = HVIPI_FB_NO_PAGE;
	}
	if ((o.kind == HVIPI_FLUSH_SPACE && p.kind != HVIPI_FLUSH_SPACE &&
	     p.kind != HVIPI_FLUSH_LIST) ||
	    (o.kind == HVIPI_FLUSH_SPACE_EX && p.kind != HVIPI_FLUSH_SPACE_EX &&
	     p.kind != HVIPI_FLUSH_LIST_EX) ||
	    ((o.kind == HVIPI_FLUSH_NONE || o.kind == HVIPI_FLUSH_FALLBACK) &&
	     p.kind != o.kind) || p.reason != o.reason)
		return fail(k, &p, "kind/reason differs from the oracle");
	if (!HVIPI_FLUSH_CALL(&p)) {
		for (i = 0; i < PAGE_WORDS + GUARD_WORDS; i++)
			if (hpage[i] != CANARY)
				return fail(k, &p, "no call, but the page was written");
	} else {
		bool ex = HVIPI_FLUSH_IS_EX(&p);

		for (i = p.bytes / 8; i < PAGE_WORDS + GUARD_WORDS; i++)
			if (hpage[i] != CANARY)
				return fail(k, &p, "a page word written at or past plan.bytes");
		if (ex && p.banks != (uint32_t)popcount(want))
			return fail(k, &p, "banks are not the target banks");
		decode(hpage, p.control, &hr);
		if (hr.ud || hr.status != RX_ST_SUCCESS || hr.empty_set)
			return fail(k, &p, "the receiver refuses the call");
		if (hr.bytes != p.bytes)
			return fail(k, &p, "input size differs from the receiver's");
		if (o.same ? !hr.all : (hr.all || memcmp(hr.vps, want, sizeof(want)) != 0))
			return fail(k, &p, "VPs flushed are not the target VPs");
		flags = (o.same ? RXF_F_ALL_PROCESSORS : 0) |
			(k->mm ? 0 : RXF_F_ALL_SPACES) | (k->whole ? RXF_F_NON_GLOBAL : 0);
		if (hr.flags != flags || hr.address_space != space)
			return fail(k, &p, "flags or address space");
		hdr = ex ? 4u + p.banks : 3u;
		cap = words - hdr < 4095u ? words - hdr : 4095u;
		/* 64 bits: a range near the top of the address space needs 2^40 */
		need = k->whole || k->end <= k->start ? 0 :
		       ((k->end - 1) / 4096 - k->start / 4096) / 4096 + 1;
		list_want = !k->whole && need <= cap;
		if (list_want != HVIPI_FLUSH_IS_LIST(&p) || (list_want && p.gvas != need))
			return fail(k, &p, "List/Space choice or entry count");
		if (list_want) {
			n_list++;
			if (!run_of(&hr, &lo, &hi) || lo != k->start / 4096 ||
			    hi != (k->end - 1) / 4096)
				return fail(k, &p, "entries are not the pages of the range");
		} else {
			n_space++;
			if (!hr.whole_space)
				return fail(k, &p, "Space call not read as a whole space");
		}
	}

	/* 2. Linux (it never sees these: no PV op without the hint, a 4 KiB
	 * page, no mask bit past nr_cpu_ids) */
	if (!o.any || k->nohint || k->psize != 4096 || k->garbage)
		return true;
	memset(&e, 0, sizeof(e));
	e.nr_cpu_ids = k->nr;
	e.vp_index = vp;
	e.max_vp_index = k->max_vp;
	e.ex_hint = k->ex;
	e.present = &present;
	e.online = &present;
	e.input_page = lpage;
	if (!kflush_setup(&e))
		return fail(k, &p, "hyperv_setup_mmu_ops() did not install the flush");
	kflush_multi(&cpus, k->mm, k->start, end, &lk);
	linux_runs++;
	if (p.kind == HVIPI_FLUSH_NONE) {
		/* o.any: the range is empty; Linux lists start's page (or
		 * flushes natively, for its own reasons) */
		n_cls[C_EMPTY]++;
		return true;
	}
	if (lk.nr_hcalls + lk.nr_native != 1)
		return fail(k, &p, "Linux did not flush exactly once");
	if (lk.nr_hcalls)
		decode(lpage, lk.control, &lr);
	if (lk.nr_hcalls && k->max_vp >= 4096 &&
	    ((lk.control & 0xffffu) == RXF_CODE_SPACE_EX ||
	     (lk.control & 0xffffu) == RXF_CODE_LIST_EX) &&
	    ((lk.control >> 17) & 0x3ffu) == 0 && lpage[3] == 0) {
		/* 5.1: Linux's Ex set is empty (no bank, varhdr 0; the list
		 * may even cross the page, section 3); hvipi sends the
		 * targets in an Ex set, or falls back when it cannot */
		if (!HVIPI_FLUSH_IS_EX(&p) && p.reason != HVIPI_FB_VP_UNKNOWN &&
		    p.reason != HVIPI_FB_VP_TOO_BIG)
			return fail(k, &p, "Linux sent an empty Ex set, hvipi neither Ex nor a fallback");
		n_cls[C_EMPTY_EX]++;
		return true;
	}
	if (p.kind == HVIPI_FLUSH_FALLBACK) {
		if (lk.nr_native != 1)
			return fail(k, &p, "hvipi falls back, Linux does not flush natively");
		n_cls[C_SAME]++;
		return true;
	}
	if (!lk.nr_hcalls)
		return fail(k, &p, "hvipi calls, Linux flushes natively");
	lreps = (uint32_t)(lk.control >> 32) & 0xfffu;
	lhdr = lr.code == RXF_CODE_SPACE_EX || lr.code == RXF_CODE_LIST_EX ?
	       4u + ((uint32_t)(lk.control >> 17) & 0x3ffu) : 3u;
	if (lr.status == RX_ST_INVALID_ALIGN && lreps == PAGE_WORDS - lhdr + 1) {
		/* section 3: Linux's list one entry past the page; hvipi's
		 * call (checked above) a whole space, or a list that fits
		 * after its compact banks */
		n_cls[C_BAND]++;
		return true;
	}
	if (lr.ud || lr.status != RX_ST_SUCCESS)
		return fail(k, &p, "the receiver refuses Linux's call");
	if ((lr.code == RXF_CODE_SPACE_EX || lr.code == RXF_CODE_LIST_EX) !=
	    HVIPI_FLUSH_IS_EX(&p))
		return fail(k, &p, "Ex-ness differs from Linux's");
	if (!same_vps(&hr, &lr) || lr.flags != hr.flags ||
	    lr.address_space != hr.address_space)
		return fail(k, &p, "VP set, flags or address space differ from Linux's");
	if (lr.whole_space == hr.whole_space &&
	    (!lr.list_read || (lr.nr_gvas == hr.nr_gvas &&
	     memcmp(lr.gvas, hr.gvas, 8u * hr.nr_gvas) == 0))) {
		n_cls[C_SAME]++;
		return true;
	}
	if (k->start % 4096 != 0 && hr.list_read && lr.list_read &&
	    run_of(&lr, &llo, &lhi) && run_of(&hr, &lo, &hi) && llo == lo &&
	    hi == lhi + 1) {
		n_cls[C_UNALIGNED]++;
		return true;
	}
	if (k->start % 4096 != 0 && hr.whole_space && lr.list_read &&
	    lreps == PAGE_WORDS - hdr) {
		n_cls[C_UNALIGNED]++;
		return true;
	}
	if (hr.list_read && lr.whole_space && lhdr > hdr &&
	    (k->end - k->start) / UNIT > PAGE_WORDS - lhdr) {
		/* Linux's dense banks leave less room than hvipi's compact ones */
		n_cls[C_ROOM]++;
		return true;
	}
	return fail(k, &p, "List/Space or entries differ from Linux's");
}

static void gen_range(struct fcase *k)
{
	uint32_t r = gen_below(100);
	uint64_t len;

	k->whole = r < 25;
	k->start = (gen_rnd() >> (gen_below(20) + 17)) & ~0xfffull;
	if (r < 25)
		len = 0;
	else if (r < 65)	/* 1 .. 40 pages */
		len = (1 + gen_below(40)) * 4096ull;
	else if (r < 75) {	/* unaligned */
		k->start += 1 + gen_below(4095);
		len = 1 + gen_rnd() % (64 * 4096ull);
	} else if (r < 90)	/* around multiples of 16 MiB up to 512 of them */
		len = (1 + gen_below(512)) * UNIT - 0x2000 + gen_rnd() % 0x4000;
	else if (r < 95)	/* empty */
		len = 0 - (uint64_t)gen_below(2) * 4096;
	else
		len = gen_rnd() >> gen_below(40);
	if (len != 0 && len - 1 > TOP - 1 - k->start && r < 95 && r >= 25)
		len = TOP - 1 - k->start;
	k->end = k->start + len;
	if (r >= 90 && r < 95)
		k->end = k->start - (len ? 4096 : 0);
}

/* The partition's VPs (part[]: every known VP of the table below
 * RX_NR_VPS) and k->max_vp, from vp[0 .. k->nr - 1]. */
static void table_facts(struct fcase *k)
{
	uint32_t c;

	memset(part, 0, sizeof(part));
	k->max_vp = 0;
	for (c = 0; c < k->nr; c++) {
		if (vp[c] == INVAL)
			continue;
		if (vp[c] > k->max_vp)
			k->max_vp = vp[c];
		if (vp[c] < RX_NR_VPS)
			part[vp[c] / 64] |= 1ull << (vp[c] % 64);
	}
}

/*
 * The exhaustive part, before the random one: nr_cpu_ids 1 .. EXH_NR_MAX,
 * five VP tables (identity; reversed; every VP >= 64, one bank a CPU;
 * identity but the last CPU's VP unknown; identity but CPU 0's VP >= 4096),
 * two present masks (every CPU; every CPU but the last, whose bit no mask
 * then has), every target mask, the Ex hint on and off, with and without
 * an mm, four ranges (1 page, 33 pages, TLB_FLUSH_ALL, 510 x 16 MiB: more
 * than any page lists), the identity prefix on every other mask.  Each
 * case is run_case(): the rules, then Linux on the same case.
 */
#define EXH_NR_MAX	8u
#define EXH_START	0x7f0000000000ull

static void exhaustive(void)
{
	static const uint64_t pages[4] = { 1, 33, 0, 510ull * 4096 };
	uint64_t before = cases, fails = failures;
	uint32_t nr, t, pr, m, x, mm, r, c;
	struct fcase k;
	clock_t t0 = clock();

	for (nr = 1; nr <= EXH_NR_MAX; nr++)
	for (t = 0; t < 5; t++)
	for (pr = 0; pr < 2; pr++)
	for (m = 0; m < (1u << nr); m++)
	for (x = 0; x < 2; x++)
	for (mm = 0; mm < 2; mm++)
	for (r = 0; r < 4; r++) {
		if (pr && nr > 1 && (m >> (nr - 1)) & 1u)
			continue;	/* the last CPU is not present */
		memset(&k, 0, sizeof(k));
		k.nr = nr;
		for (c = 0; c < nr; c++)
			vp[c] = t == 1 ? nr - 1 - c : t == 2 ? 64u * c + c % 64u : c;
		if (t == 3)
			vp[nr - 1] = INVAL;
		if (t == 4)
			vp[0] = 5000;
		table_facts(&k);
		memset(&present, 0, sizeof(present));
		memset(&cpus, 0, sizeof(cpus));
		for (c = 0; c < nr; c++) {
			if (!pr || nr == 1 || c != nr - 1)
				gen_set_bit(present.bits, c);
			if ((m >> c) & 1u)
				gen_set_bit(cpus.bits, c);
		}
		k.psize = 4096;
		k.ex = x;
		k.mm = mm;
		k.ident = m & 1u;
		k.whole = r == 2;
		k.start = EXH_START;
		k.end = r == 2 ? 0 : EXH_START + pages[r] * 4096u;
		run_case(&k);
	}
	printf("flush_plan_ref: exhaustive: nr_cpu_ids 1..%u, 5 VP tables x 2 present masks x every mask x Ex hint x mm x 4 ranges: %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       EXH_NR_MAX, cases - before, failures - fails,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
}

int main(int argc, char **argv)
{
	uint64_t seed = gen_time_seed(), ncases = 1000000, n;
	clock_t t0 = clock();
	struct fcase k;
	uint32_t i;

	gen_args(argc, argv, &seed, &ncases);
	printf("flush_plan_ref: Linux side: %s, arch/x86/hyperv/mmu.c compiled unchanged "
	       "(hyperv_flush_tlb_multi via hyperv_setup_mmu_ops); receiver: rx_flush, TLFS reading\n",
	       KREF_PKG_VERSION);
	gen_banner("flush_plan_ref", seed, ncases, 0);
	exhaustive();
	gen_state = seed;
	for (n = 0; n < ncases; n++) {
		memset(&k, 0, sizeof(k));
		k.nr = gen_nr(&nr_mix);
		gen_table(vp, k.nr, 4096u, &table_mix);
		table_facts(&k);
		gen_present(present.bits, WORDS, k.nr, gen_below(100), false);
		gen_mask(cpus.bits, WORDS, k.nr, 0, present.bits, &gen_mask_mix_random);
		k.garbage = k.nr % 64u && gen_below(20) == 0;
		if (k.garbage)
			cpus.bits[(k.nr - 1) / 64u] |= ~0ul << (k.nr % 64u);
		k.nohint = gen_below(20) == 0;
		k.psize = 4096;
		if (gen_below(20) == 0)
			k.psize = gen_below(4) == 0 ? 0 : gen_below(600);
		k.ex = gen_below(10) != 0;
		k.mm = gen_below(2);
		k.ident = gen_below(2);
		gen_range(&k);
		run_case(&k);
	}
	printf("flush_plan_ref: %" PRIu64 " cases, %" PRIu64 " also run on Linux; hvipi kinds:",
	       cases, linux_runs);
	for (i = 0; i < 6; i++)
		printf(" %u=%" PRIu64, i, n_kind[i]);
	printf("; reasons:");
	for (i = 0; i < 7; i++)
		printf(" %u=%" PRIu64, i, n_reason[i]);
	printf("; list %" PRIu64 ", space %" PRIu64 "\n", n_list, n_space);
	printf("flush_plan_ref: against Linux:");
	for (i = 0; i < C_COUNT; i++)
		printf(" %s=%" PRIu64, cls_name[i], n_cls[i]);
	printf("\n");
	printf("flush_plan_ref: %s, seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       KREF_PKG_VERSION, seed, cases, failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(cases - failures, failures);
	return failures ? 1 : 0;
}
