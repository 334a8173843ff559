/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * flush_gva_ref: hvipi_gva_list() against the GVA list of the real Linux
 * guest code.  Linux 6.1's arch/x86/hyperv/mmu.c, from Debian's
 * linux-source-6.1 package (extracted by extract.sh, compiled unchanged
 * against shim/ by kflush_mmu.c), is run two ways on each case:
 *
 *  - flush: the hyperv_flush_tlb_multi() that its hyperv_setup_mmu_ops()
 *    installs as pv_ops.mmu.flush_tlb_multi, on a 4 KiB input page with a
 *    guard after it, for five CPU sets (non-Ex with a processor mask,
 *    non-Ex with all processors, Ex with 2, 7 and 64 banks: list
 *    capacities 509, 509, 506, 501, 444 words).  The hypercall it makes
 *    (kref_env.c's recorder) and the page are compared with
 *    hvipi_gva_list() writing into a page of its own at the same word,
 *    with the words left before the page's end as its capacity;
 *  - fill: its static fill_gva_list() called directly (offset 0, room for
 *    FILL_MAX entries), against hvipi_gva_list() with that capacity.
 *
 * Linux is first held to its documented rules (spec/FLUSH_RULES.md
 * section 3): whole-space call when end == TLB_FLUSH_ALL or (end != 0 and
 * (end - start) / 16 MiB > capacity), else a list of ceil((end - start) /
 * 16 MiB) entries (one, for start's page, when end <= start) covering
 * ceil((end - start) / 4 KiB) pages from start's page.  Then every case
 * falls in one class of the comparison, or fails:
 *
 *   same          page-aligned start, end > start, hvipi n > 0: the two
 *                 lists identical word for word, the same count;
 *   both-space    hvipi 0 (over capacity), Linux a whole-space call;
 *   empty         end <= start: hvipi 0, nothing written; Linux one entry
 *                 for start's page (or, through the caller, a whole-space
 *                 call when end - start wraps to more than capacity units);
 *   unaligned-*   unaligned start: Linux covers ceil((end - start) / 4 KiB)
 *                 pages from start's page, hvipi every page touched:
 *                 "same" when those are the same pages (lists identical),
 *                 "+1 page" when hvipi covers exactly one page more (the
 *                 page of end - 1), "over" when that page makes hvipi need
 *                 capacity + 1 entries (0) while Linux's list fits;
 *   band          capacity x 16 MiB < end - start < (capacity + 1) x 16 MiB:
 *                 Linux's test passes and it writes capacity + 1 entries,
 *                 the last at byte 4096 of the page (in the guard); hvipi 0;
 *   sentinel      end == TLB_FLUSH_ALL (2^64 - 1), a small range at the top:
 *                 Linux flushes the whole space, hvipi lists the pages.
 *
 * Cases: exhaustive small ranges (1 .. 3 x 4096 + 2 pages at three starts,
 * each with ends on, before and after a page boundary, page-aligned and
 * mid-page starts), the boundaries 4096k - 1, 4096k, 4096k + 1 pages up to
 * capacity + 2 entries for each CPU set (and the band's edges), the top of
 * the address space, then random ranges (HVIPI_CASES, HVIPI_SEED).
 *
 * Usage: flush_gva_ref [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
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

#define PAGE_WORDS	512u
#define GUARD_WORDS	16u
#define CANARY		0xa5a5a5a5a5a5a5a5ull
#define UNIT		(4096ull * 4096ull)	/* 16 MiB: one entry at most */
#define FILL_MAX	1024u			/* entries of the direct fill */
#define TOP		(~0ull)			/* TLB_FLUSH_ALL */
#define PMASK		(~0xfffull)

/* HV_FLUSH_* of 6.1's hyperv-tlfs.h */
#define F_ALL_PROCESSORS	1u
#define F_ALL_SPACES		2u
#define F_NON_GLOBAL		4u

/* ---- the CPU sets ---- */

#define NR	4u

struct cfg {
	const char *name;
	uint32_t vp[NR];
	uint32_t max_vp;
	uint32_t cpus;		/* bit c: CPU c in the flush set */
	bool ex;
	uint32_t nb;		/* Ex: banks Linux sends (highest bank + 1) */
	uint64_t pmask;		/* non-Ex: the processor mask (0: all processors) */
};

static const struct cfg cfgs[] = {
	{ "list/mask", { 0, 1, 2, 3 }, 3, 0x6, false, 0, 0x6 },
	{ "list/all", { 0, 1, 2, 3 }, 3, 0xf, false, 0, 0 },
	{ "ex/2", { 0, 1, 2, 100 }, 100, 0xa, true, 2, 0 },
	{ "ex/7", { 5, 70, 200, 447 }, 447, 0xe, true, 7, 0 },
	{ "ex/64", { 0, 1, 2, 4095 }, 4095, 0x9, true, 64, 0 },
};
#define NCFG	(sizeof(cfgs) / sizeof(cfgs[0]))

static struct cpumask cpus_of[NCFG], present;
static uint32_t vptab[NR];
static int cur_cfg = -1;

static uint32_t cfg_off(const struct cfg *c)
{
	return c->ex ? 4u + c->nb : 3u;
}

static uint32_t cfg_cap(const struct cfg *c)
{
	return PAGE_WORDS - cfg_off(c);		/* 509, or 508 - nb */
}

static uint64_t page[PAGE_WORDS + GUARD_WORDS] __attribute__((aligned(4096)));
static uint64_t hpage[PAGE_WORDS + GUARD_WORDS];
static uint64_t fbuf[FILL_MAX + GUARD_WORDS], hbuf[FILL_MAX + GUARD_WORDS];
static uint64_t want[FILL_MAX + 2];

static void use_cfg(int i)
{
	struct kref_env e;

	if (i == cur_cfg)
		return;
	memcpy(vptab, cfgs[i].vp, sizeof(vptab));
	memset(&e, 0, sizeof(e));
	e.nr_cpu_ids = NR;
	e.vp_index = vptab;
	e.max_vp_index = cfgs[i].max_vp;
	e.ex_hint = true;
	e.present = &present;
	e.online = &present;
	e.input_page = page;
	e.self = 0;
	if (!kflush_setup(&e)) {
		printf("flush_gva_ref: hyperv_setup_mmu_ops() did not install hyperv_flush_tlb_multi\n");
		exit(1);
	}
	cur_cfg = i;
}

/* ---- statistics ---- */

enum cls {
	C_SAME, C_BOTH_SPACE, C_EMPTY_LIST, C_EMPTY_SPACE, C_UNAL_SAME,
	C_UNAL_MORE, C_UNAL_OVER, C_BAND, C_SENTINEL, C_COUNT
};
static const char *const cls_name[C_COUNT] = {
	"same", "both-space", "empty(linux 1 entry)", "empty(linux space)",
	"unaligned-same", "unaligned-+1page", "unaligned-over", "band",
	"sentinel",
};

static uint64_t n_flush[C_COUNT], n_fill[C_COUNT], cases, failures;
static uint64_t band_n[NCFG], unal_over_cfg[NCFG];
static const char *phase = "";

static bool fail(const char *what, uint32_t ci, uint64_t start, uint64_t end)
{
	if (failures++ < 20)
		printf("flush_gva_ref: FAIL (%s, %s%s%s): start %#" PRIx64 " end %#" PRIx64 "\n",
		       phase, what, ci < NCFG ? ", " : "", ci < NCFG ? cfgs[ci].name : "",
		       start, end);
	return false;
}

static bool untouched(const uint64_t *w, uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		if (w[i] != CANARY)
			return false;
	return true;
}

/*
 * The receiver's reading of @n entries: one run of pages, every entry
 * after the one before: *@lo .. *@hi.  False if the entries are not one
 * increasing run without gaps.
 */
static bool decode(const uint64_t *e, uint32_t n, uint64_t *lo, uint64_t *hi)
{
	uint32_t j;

	if (n == 0)
		return false;
	*lo = e[0] >> 12;
	*hi = *lo + (e[0] & 0xfff);
	for (j = 1; j < n; j++) {
		if ((e[j] >> 12) != *hi + 1)
			return false;
		*hi = (e[j] >> 12) + (e[j] & 0xfff);
	}
	return true;
}

/*
 * The list of the rules: @pages pages from page @first, entries of 4096
 * pages and the rest (spec/FLUSH_RULES.md section 3), into want[].
 */
static uint32_t rule_list(uint64_t first, uint64_t pages)
{
	uint32_t j = 0;

	while (pages > 0 && j < FILL_MAX + 2) {
		uint64_t k = pages < 4096 ? pages : 4096;

		want[j++] = (first << 12) | (k - 1);
		first += 4096;
		pages -= k;
	}
	return j;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/*
 * The class of hvipi's list against Linux's, given Linux listed @nl
 * entries (0: whole-space call) in @lw and hvipi @nh in @hw, capacity
 * @cap.  Returns C_COUNT if no class holds.
 */
static enum cls classify(uint64_t start, uint64_t end, const uint64_t *lw,
			 uint32_t nl, const uint64_t *hw, uint32_t nh,
			 uint32_t cap)
{
	uint64_t first = start >> 12, llo, lhi, hlo, hhi;

	if (end <= start)
		return nh == 0 ? (nl ? C_EMPTY_LIST : C_EMPTY_SPACE) : C_COUNT;
	if (nl == 0)
		return nh == 0 ? C_BOTH_SPACE : end == TOP ? C_SENTINEL : C_COUNT;
	if (nh == 0) {
		if (nl == cap + 1)
			return C_BAND;
		/* hvipi needs one entry more than fits, for its one page more */
		if ((start & 0xfff) && nl == cap && ceil_div((end - 1) / 4096 - first + 1, 4096) == cap + 1ull)
			return C_UNAL_OVER;
		return C_COUNT;
	}
	if (nl > cap || nh > cap)
		return C_COUNT;
	if (!(start & 0xfff))
		return nl == nh && memcmp(lw, hw, nh * 8u) == 0 ? C_SAME : C_COUNT;
	if (!decode(lw, nl, &llo, &lhi) || !decode(hw, nh, &hlo, &hhi) ||
	    llo != first || hlo != first || hhi != (end - 1) / 4096)
		return C_COUNT;
	if (lhi == hhi)
		return nl == nh && memcmp(lw, hw, nh * 8u) == 0 ? C_UNAL_SAME : C_COUNT;
	return hhi == lhi + 1 ? C_UNAL_MORE : C_COUNT;
}

/* ---- fill: fill_gva_list() called directly ---- */

static bool check_fill(uint64_t start, uint64_t end)
{
	uint64_t len = end - start;
	uint32_t nf, nh, nw;
	enum cls c;

	if (end > start && ceil_div(len, UNIT) > FILL_MAX)
		return true;	/* more than the buffer: the flush check only */
	cases++;
	for (nf = 0; nf < FILL_MAX + GUARD_WORDS; nf++)
		fbuf[nf] = hbuf[nf] = CANARY;
	nf = (uint32_t)kflush_fill_gva_list(fbuf, 0, start, end);
	/* the rules: ceil(len / 16 MiB) entries, ceil(len / 4 KiB) pages from start's */
	if (end > start)
		nw = rule_list(start >> 12, ceil_div(len, 4096));
	else
		nw = 1, want[0] = start & PMASK;
	if (nf != nw || (end > start && nw != ceil_div(len, UNIT)) ||
	    memcmp(fbuf, want, nw * 8u) != 0 || !untouched(fbuf, nw, FILL_MAX + GUARD_WORDS))
		return fail("fill_gva_list is not as its rules say", NCFG, start, end);
	nh = hvipi_gva_list(hbuf, FILL_MAX, start, end);
	if (!untouched(hbuf, nh, FILL_MAX + GUARD_WORDS))
		return fail("hvipi wrote past its count", NCFG, start, end);
	c = classify(start, end, fbuf, nf, hbuf, nh, FILL_MAX);
	if (c == C_COUNT)
		return fail("fill: no known class", NCFG, start, end);
	n_fill[c]++;
	return true;
}

/* ---- flush: hyperv_flush_tlb_multi() ---- */

static bool check_flush(uint32_t ci, uint64_t start, uint64_t end, bool mm)
{
	const struct cfg *cf = &cfgs[ci];
	uint32_t off = cfg_off(cf), cap = cfg_cap(cf), nl = 0, nh, nw, code, vh, reps, i;
	uint64_t len = end - start, flags;
	struct kflush_call k;
	bool space;
	enum cls c;

	cases++;
	use_cfg((int)ci);
	for (i = 0; i < PAGE_WORDS + GUARD_WORDS; i++)
		page[i] = hpage[i] = CANARY;
	kflush_multi(&cpus_of[ci], mm, start, end, &k);
	code = (uint32_t)(k.control & 0xffff);
	vh = (uint32_t)((k.control >> 17) & 0x3ff);
	reps = (uint32_t)((k.control >> 32) & 0xfff);
	if (k.nr_native != 0 || k.nr_hcalls != 1)
		return fail("not one hypercall", ci, start, end);
	if (vh != (cf->ex ? cf->nb : 0) || (k.control >> 48) != 0 ||
	    ((k.control >> 16) & 1) != 0)
		return fail("control word", ci, start, end);

	/* the rules of the caller */
	space = end == TOP || (end != 0 && len / UNIT > cap);
	if (space != (code == (cf->ex ? KFLUSH_SPACE_EX : KFLUSH_SPACE)) ||
	    (!space && code != (cf->ex ? KFLUSH_LIST_EX : KFLUSH_LIST)))
		return fail("call code against the rules", ci, start, end);
	flags = (mm ? 0 : F_ALL_SPACES) | (!cf->ex && !cf->pmask ? F_ALL_PROCESSORS : 0) |
		(end == TOP ? F_NON_GLOBAL : 0);
	if (page[0] != (mm ? kflush_mm_space() : 0) || page[1] != flags ||
	    (!cf->ex && page[2] != cf->pmask) ||
	    (cf->ex && (page[2] != 0 || page[3] != (~0ull >> (64 - cf->nb)))))
		return fail("header words", ci, start, end);
	if (space) {
		if (reps != 0 || !untouched(page, off, PAGE_WORDS + GUARD_WORDS))
			return fail("whole-space call wrote a list", ci, start, end);
	} else {
		nl = reps;
		if (end > start)
			nw = rule_list(start >> 12, ceil_div(len, 4096));
		else
			nw = 1, want[0] = start & PMASK;
		if (nl != nw || off + nl > PAGE_WORDS + GUARD_WORDS ||
		    memcmp(page + off, want, nw * 8u) != 0 ||
		    !untouched(page, off + nl, PAGE_WORDS + GUARD_WORDS))
			return fail("list against the rules", ci, start, end);
		/* the band: one entry past the page, at byte 4096 */
		if ((off + nl > PAGE_WORDS) != (nl == cap + 1) ||
		    (nl == cap + 1 && !(len > cap * UNIT && len < (cap + 1) * UNIT)))
			return fail("entries past the page outside the band", ci, start, end);
	}

	nh = hvipi_gva_list(hpage + off, cap, start, end);
	if (!untouched(hpage, 0, off) || !untouched(hpage, off + nh, PAGE_WORDS + GUARD_WORDS))
		return fail("hvipi wrote outside its list", ci, start, end);
	c = classify(start, end, page + off, nl, hpage + off, nh, cap);
	if (c == C_COUNT)
		return fail("flush: no known class", ci, start, end);
	if (c == C_BAND)
		band_n[ci]++;
	if (c == C_UNAL_OVER)
		unal_over_cfg[ci]++;
	n_flush[c]++;
	return true;
}

/* Both checks; the flush with the CPU set @ci (and an mm on odd ones). */
static void check(uint32_t ci, uint64_t start, uint64_t end)
{
	check_flush(ci, start, end, (start >> 12 ^ end >> 12 ^ ci) & 1);
	check_fill(start, end);
}

/* ---- the cases ---- */

#define SMALL_PAGES	(3u * 4096u + 2u)

static uint64_t exhaustive(void)
{
	static const uint64_t starts[] = { 0x7f0000000000ull, 0x7f0000123000ull, 0 };
	static const uint64_t offs[] = { 0, 0x800, 0xfff, 1 };
	uint64_t c0 = cases, k;
	uint32_t s, o, ci = 0;

	phase = "exhaustive";
	for (s = 0; s < 3; s++)
		for (o = 0; o < 4; o++)
			for (k = 1; k <= SMALL_PAGES; k++) {
				uint64_t a = starts[s] + offs[o], e = a + k * 4096;

				/* the aligned starts every k; mid-page ones every k too */
				check(ci++ % NCFG, a, e);
				check(ci++ % NCFG, a, e - 1);
				check(ci++ % NCFG, a, e + 1);
			}
	/* empty ranges */
	for (s = 0; s < 3; s++)
		for (k = 0; k <= 4096; k++) {
			uint64_t a = starts[s] + 0x1000000;

			check(ci++ % NCFG, a, a - k);
			check(ci++ % NCFG, a + (k & 0xfff), a);
		}
	return cases - c0;
}

static uint64_t boundaries(void)
{
	static const uint64_t starts[] = { 0x7f0000000000ull, 0x55555000ull };
	static const int64_t dp[] = { -1, 0, 1 };
	static const int64_t db[] = { -1, 0, 1 };
	uint64_t c0 = cases, j;
	uint32_t ci, s, p, b, o;

	phase = "boundaries";
	for (ci = 0; ci < NCFG; ci++) {
		uint64_t cap = cfg_cap(&cfgs[ci]);

		for (s = 0; s < 2; s++)
			for (o = 0; o < 2; o++)
				for (j = 1; j <= cap + 2; j++)
					for (p = 0; p < 3; p++)
						for (b = 0; b < 3; b++) {
							uint64_t a = starts[s] + (o ? 0x800 : 0);
							uint64_t pages = 4096 * j + (uint64_t)dp[p];

							check(ci, a, a + pages * 4096 + (uint64_t)db[b]);
						}
		/* the band's edges and middle */
		for (s = 0; s < 2; s++) {
			uint64_t a = starts[s];

			check(ci, a, a + cap * UNIT);
			check(ci, a, a + cap * UNIT + 1);
			check(ci, a, a + cap * UNIT + 4096);
			check(ci, a, a + cap * UNIT + UNIT / 2);
			check(ci, a, a + (cap + 1) * UNIT - 4096);
			check(ci, a, a + (cap + 1) * UNIT - 1);
			check(ci, a, a + (cap + 1) * UNIT);
			check(ci, a, a + (cap + 1) * UNIT + 1);
		}
	}
	return cases - c0;
}

static uint64_t top(void)
{
	static const uint64_t pages[] = { 1, 2, 33, 4095, 4096, 4097, 8191, 8192, 8193,
					  3 * 4096, 3 * 4096 + 1, 509 * 4096, 509 * 4096 + 1 };
	static const uint64_t ends[] = { TOP, TOP - 1, TOP - 0xfff, TOP - 0x1000, 0 };
	uint64_t c0 = cases;
	uint32_t i, e, o, ci = 0;

	phase = "top";
	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		for (e = 0; e < sizeof(ends) / sizeof(ends[0]); e++)
			for (o = 0; o < 3; o++) {
				/* start pages[i] pages below the last page of ends[e] */
				uint64_t end = ends[e], base = (end - 1) & PMASK;
				uint64_t start = base - (pages[i] - 1) * 4096 + (o == 1 ? 0x800 : o == 2 ? 0xfff : 0);

				if (end == 0)	/* end 0: an empty range for hvipi */
					start = TOP - (pages[i] - 1) * 4096;
				check(ci++ % NCFG, start, end);
			}
	return cases - c0;
}

static uint64_t randoms(uint64_t n)
{
	uint64_t c0 = cases, i;

	phase = "random";
	for (i = 0; i < n; i++) {
		uint32_t ci = gen_below(NCFG), r = gen_below(100);
		uint64_t cap = cfg_cap(&cfgs[ci]), start, len, end;

		start = gen_rnd() >> (gen_below(24) + 1);
		start = gen_below(2) ? start & PMASK : start;
		if (r < 30)		/* small */
			len = 1 + gen_rnd() % (SMALL_PAGES * 4096ull);
		else if (r < 55)	/* near a multiple of 16 MiB, up to capacity + 2 entries */
			len = (1 + gen_below((uint32_t)cap + 2)) * UNIT - 0x2000 + gen_rnd() % 0x4000;
		else if (r < 70)	/* the band of this CPU set and around it */
			len = cap * UNIT - UNIT / 2 + gen_rnd() % (2 * UNIT);
		else if (r < 80)	/* anything */
			len = gen_rnd() >> gen_below(64);
		else if (r < 85)	/* empty */
			len = gen_chance(1, 2) ? 0 : (uint64_t)0 - (1 + (gen_rnd() >> gen_below(64)));
		else if (r < 95) {	/* up to the top */
			uint64_t less = gen_chance(1, 2) ? 0 : gen_rnd() % 0x2000;

			start = TOP - (gen_rnd() % (SMALL_PAGES * 4096ull));
			len = TOP - start;
			len -= less < len ? less : 0;
		} else {		/* end 0 */
			len = 0 - start;
		}
		if (r < 80 && len > TOP - start)	/* keep end >= start for these */
			len = TOP - start;
		end = start + len;
		check(ci, start, end);
	}
	return cases - c0;
}

int main(int argc, char **argv)
{
	uint64_t seed = gen_time_seed(), ncases = 300000, ne, nb, nt, nr;
	clock_t t0 = clock();
	uint32_t ci, c, i;

	gen_args(argc, argv, &seed, &ncases);
	printf("flush_gva_ref: Linux side: %s, arch/x86/hyperv/mmu.c compiled unchanged "
	       "(hyperv_flush_tlb_multi via hyperv_setup_mmu_ops, and fill_gva_list)\n",
	       KREF_PKG_VERSION);
	gen_banner("flush_gva_ref", seed, ncases, 0);
	gen_state = seed;
	memset(&present, 0, sizeof(present));
	for (c = 0; c < NR; c++)
		gen_set_bit(present.bits, c);
	for (ci = 0; ci < NCFG; ci++)
		for (c = 0; c < NR; c++)
			if (cfgs[ci].cpus >> c & 1)
				gen_set_bit(cpus_of[ci].bits, c);

	ne = exhaustive();
	nb = boundaries();
	nt = top();
	nr = randoms(ncases);

	printf("flush_gva_ref: checks: exhaustive %" PRIu64 ", boundaries %" PRIu64
	       ", top %" PRIu64 ", random %" PRIu64 " (%" PRIu64 " ranges)\n",
	       ne, nb, nt, nr, ncases);
	printf("flush_gva_ref: CPU sets (list capacity):");
	for (ci = 0; ci < NCFG; ci++)
		printf(" %s (%u)", cfgs[ci].name, cfg_cap(&cfgs[ci]));
	printf("\n");
	printf("flush_gva_ref: %-22s %12s %12s\n", "class", "flush", "fill");
	for (i = 0; i < C_COUNT; i++)
		printf("flush_gva_ref: %-22s %12" PRIu64 " %12" PRIu64 "\n", cls_name[i],
		       n_flush[i], n_fill[i]);
	printf("flush_gva_ref: band (Linux wrote capacity + 1 entries, the last at byte 4096) by CPU set:");
	for (ci = 0; ci < NCFG; ci++)
		printf(" %s=%" PRIu64, cfgs[ci].name, band_n[ci]);
	printf("\n");
	printf("flush_gva_ref: %s, seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       KREF_PKG_VERSION, seed, cases, failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(cases - failures, failures);
	return failures ? 1 : 0;
}
