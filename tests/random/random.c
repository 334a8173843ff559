/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * random: randomized cases over nr_cpu_ids up to 8192, VPs up to 4095 and
 * beyond, dense and sparse masks, identity and permuted maps.  Every case
 * is checked against the oracle and the receiver model, and compared with
 * the Linux reference (same VP set whenever both send); the deliberate
 * differences are counted and listed.
 *
 * Usage: random [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
 * HVIPI_NR_MAX (default and at most 8192) caps nr_cpu_ids: a larger pick
 * is folded into 1..HVIPI_NR_MAX, so smaller ones keep their shares (the
 * E-ACSL build uses it, its checks cost O(nr_cpu_ids) and more per call).
 * Each case also checks the two small entry points, hvipi_control() and
 * hvipi_status_ok(), and the flush planner on the case's masks and table,
 * on values from a second generator (so that the cases themselves are the
 * same for a seed as without them).
 * The mask and VP table of each case are allocated to their exact size,
 * so that ASan catches any read beyond nr_cpu_ids.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gen.h"
#include "hvipi.h"
#include "rx.h"

#define NR_MAX		8192u

static uint32_t nr_max = NR_MAX;

/* nr_cpu_ids: 40 % 1..64, 30 % 65..512, 20 % 513..4096, 10 % 4097..8192 */
static const struct gen_nr_mix nr_mix = {
	{ 40, 70, 90, 100 }, { 64, 512, 4096, NR_MAX }
};
/*
 * VP tables: identity, a permutation of 0..nr-1, identity with a stride
 * (sparse VPs), random VPs (duplicates allowed), identity with local swaps;
 * then, beside gen_table()'s unknown, huge and high VPs, one table in 20
 * with a VP of 0xfffffffe.
 */
static const struct gen_table_mix table_mix = {
	.identity = 30, .permuted = 55, .strided = 70, .high = 70, .random = 85,
	.fit = false, .huge_in = 10
};

static uint32_t pick_nr(void)
{
	uint32_t nr = gen_nr(&nr_mix);

	return nr > nr_max ? 1 + (nr - 1) % nr_max : nr;
}

/*
 * The control word and the status check, against their definitions
 * (TLFS): code in bits 15:0, fast in bit 16, variable header in 26:17;
 * success when status bits 15:0 are zero.  Returns the failures (0..2).
 */
static unsigned int check_small(uint64_t *state)
{
	uint64_t r = gen_splitmix(state), status = gen_splitmix(state);
	uint32_t code = (uint32_t)(r & 0xffffu);
	bool fast = (r >> 16) & 1u;
	uint32_t var_hdr = (uint32_t)((r >> 17) % (HVIPI_CTL_VARHDR_MAX + 1u));
	uint64_t want = code | (uint64_t)fast << 16 | (uint64_t)var_hdr << 17;
	unsigned int bad = 0;

	if (r >> 63)		/* half of them succeed */
		status &= ~0xffffull;
	if (hvipi_control(code, fast, var_hdr) != want) {
		fprintf(stderr, "FAIL: hvipi_control(%#x, %d, %u) != %#" PRIx64 "\n",
			code, fast, var_hdr, want);
		bad++;
	}
	if (hvipi_status_ok(status) != ((status & 0xffffu) == 0)) {
		fprintf(stderr, "FAIL: hvipi_status_ok(%#" PRIx64 ")\n", status);
		bad++;
	}
	return bad;
}

/*
 * The flush planner, one case in four, on the case's mask, present mask and VP table, with a
 * range, options and hints from the second generator: the plan's kind and
 * reason in range, NONE exactly when no CPU below nr is in the mask or the
 * range is empty, no page word written at or past plan.bytes (a canary;
 * the 4 KiB page is allocated to its size, so ASan sees a write past it),
 * the control word's rep count the entries.  In the E-ACSL builds the
 * instrumented core checks hvipi_plan_flush()'s contract on every call.
 * Returns the failures (0 or 1).
 */
static uint64_t flush_cases;

static unsigned int check_flush(const unsigned long *mask,
				const unsigned long *present, uint32_t nr,
				const uint32_t *vp, uint64_t *state)
{
	uint64_t r = gen_splitmix(state), start = gen_splitmix(state) >> 16;
	uint64_t len, *pg, end;
	uint32_t opts, hints, c, i;
	struct hvipi_flush_plan p;
	bool any = false, none;

	/* one case in four: the E-ACSL build checks the planner's whole
	 * contract on each call, at some 0.1 s a call with 8192 CPUs */
	if (r % 4u != 0)
		return 0;
	r >>= 2;

	/* up to 40 pages; up to 16 x 16 MiB; one in 16 up to 600 x 16 MiB,
	 * past what the page can list (coverage clauses cost a step per page
	 * in the E-ACSL build) */
	len = r & 0x8 ? (r >> 20) % (4096ull * 40) :
	      (r & 0xf00) == 0 ? (r >> 20) % (4096ull * 4096 * 600) :
	      (r >> 20) % (4096ull * 4096 * 16);
	pg = gen_xmalloc(4096);
	end = start + len;
	opts = (uint32_t)(r & 7u);
	hints = (uint32_t)((r >> 4) & 0xfu);
	if (r & 0x10000)	/* three in four with the remote-flush hint */
		hints |= HVIPI_HINT_REMOTE_FLUSH;
	for (i = 0; i < 512; i++)
		pg[i] = 0xa5a5a5a5a5a5a5a5ull ^ i;
	for (c = 0; c < nr && !any; c++)
		any = (mask[c / 64] >> (c % 64)) & 1ul;
	hvipi_plan_flush(&p, mask, present, nr, vp, 0, 0x1000, start, end, opts,
			 hints, pg, 4096);
	flush_cases++;
	none = !any || (!(opts & HVIPI_FLUSH_OPT_WHOLE) && end <= start);
	for (i = HVIPI_FLUSH_CALL(&p) ? p.bytes / 8 : 0; i < 512; i++)
		if (pg[i] != (0xa5a5a5a5a5a5a5a5ull ^ i))
			break;
	free(pg);
	if (p.kind > HVIPI_FLUSH_FALLBACK || p.reason > HVIPI_FB_NO_PAGE ||
	    (p.kind == HVIPI_FLUSH_NONE) != none || p.bytes > 4096 || i < 512 ||
	    (HVIPI_FLUSH_CALL(&p) && ((p.control >> 32) & 0xfffu) != p.gvas)) {
		fprintf(stderr, "FAIL: flush plan kind %u reason %u bytes %u (nr %u, start %#" PRIx64 ", end %#" PRIx64 ", opts %u, hints %#x)\n",
			p.kind, p.reason, p.bytes, nr, start, end, opts, hints);
		return 1;
	}
	return 0;
}

static void make_table(uint32_t *vp, uint32_t nr)
{
	gen_table(vp, nr, 4096u, &table_mix);
	if (gen_below(20) == 0)
		vp[gen_below(nr)] = 0xfffffffeu;
}

int main(int argc, char **argv)
{
	struct ck_stats st;
	uint64_t seed = gen_time_seed(), ncases = 1000000, i;
	uint64_t one_cases = 0, one_both = 0;
	const char *en = getenv("HVIPI_NR_MAX");
	uint64_t small_state, small_cases = 0, small_failures = 0;
	clock_t t0 = clock();
	uint64_t *lpage = gen_xmalloc(4096);

	gen_args(argc, argv, &seed, &ncases);
	if (en && *en) {
		unsigned long n = strtoul(en, NULL, 0);

		if (n < 1 || n > NR_MAX) {
			fprintf(stderr, "random: HVIPI_NR_MAX must be 1..%u\n", NR_MAX);
			return 2;
		}
		nr_max = (uint32_t)n;
	}
	gen_banner("random", seed, ncases, nr_max);
	gen_state = seed;
	small_state = ~seed;
	memset(&st, 0, sizeof(st));

	for (i = 0; i < ncases; i++) {
		uint32_t nr = pick_nr();
		uint32_t words = HVIPI_MASK_WORDS(nr);
		unsigned long *mask = gen_xmalloc(words * sizeof(*mask));
		unsigned long *present = gen_xmalloc(words * sizeof(*present));
		uint32_t *vp = gen_xmalloc(nr * sizeof(*vp));
		struct ck_case c;
		uint32_t r, cpu;

		make_table(vp, nr);
		memset(&c, 0, sizeof(c));
		c.nr = nr;
		c.vp = vp;
		c.self = gen_below(16) == 0 ? nr + gen_below(4) : gen_below(nr);
		c.excl = gen_below(2);
		r = gen_below(100);
		if (r < 30) {
			c.present = NULL;
		} else {
			gen_present(present, words, nr, r, true);
			c.present = present;
		}
		gen_mask(mask, words, nr, c.self, c.present, &gen_mask_mix_random);
		gen_garbage(mask, words, nr, 4);	/* beyond nr_cpu_ids */
		c.mask = mask;
		c.vector = gen_vector(&gen_vector_mix_random);
		c.hints = gen_hints();
		r = gen_below(100);
		if (r < 75) {
			c.have_page = true;
			c.page_size = 4096;
		} else if (r < 85) {
			c.have_page = false;
		} else {
			c.have_page = true;
			c.page_size = gen_below(600);
		}
		ck_run(&c, NULL, &st, true);

		/* one-CPU send: hvipi against the oracle, and against Linux */
		cpu = gen_below(16) == 0 ? nr : gen_below(nr);
		if (ck_run_one(cpu, nr, vp, c.vector, c.hints, c.have_page,
			       c.page_size, &st)) {
			struct hvipi_plan p;
			struct lr_out lo;
			uint64_t *hp = gen_xmalloc(4096);

			one_cases++;
			hvipi_plan_one(&p, cpu, nr, vp, c.vector, c.hints,
				       hp, 4096);
			linux_ref_one(&lo, cpu, NULL, nr, vp, c.vector,
				      c.hints, lpage, 4096);
			if ((p.kind == HVIPI_PLAN_FAST || p.kind == HVIPI_PLAN_EX_SPARSE ||
			     p.kind == HVIPI_PLAN_EX_XMM) &&
			    (lo.kind == LR_FAST || lo.kind == LR_EX_SPARSE)) {
				struct rx_result ra, rb;

				one_both++;
				if (ck_decode_plan(&ra, &p, hp, false) ||
				    ck_decode(&rb, lo.control, lo.rdx, lo.r8, NULL,
					      lpage, lo.bytes, false) ||
				    ra.nr_vps != 1 || rb.nr_vps != 1 ||
				    memcmp(ra.vps, rb.vps, sizeof(ra.vps))) {
					fprintf(stderr, "FAIL: one-CPU send, cpu %u vp %#x: hvipi and Linux differ\n",
						cpu, vp[cpu]);
					st.failures++;
				}
			}
			free(hp);
		}
		if (check_flush(mask, c.present, nr, vp, &small_state))
			small_failures++;
		free(mask);
		free(present);
		free(vp);
		small_cases++;
		if (check_small(&small_state))
			small_failures++;
	}
	ck_print_kinds("random", &st);
	ck_print_linux("random", &st);
	printf("random: one-CPU sends %" PRIu64 ", both sending (same VP) %" PRIu64 "\n",
	       one_cases, one_both);
	printf("random: mask sends re-planned with a shorter vp_ident (same plan required) %" PRIu64 "\n",
	       st.ident_cases);
	printf("random: hvipi_control/hvipi_status_ok cases %" PRIu64 ", hvipi_plan_flush cases %" PRIu64 ", failures %" PRIu64 "\n",
	       small_cases, flush_cases, small_failures);
	st.cases += small_cases + flush_cases;
	st.failures += small_failures;
	printf("random: seed %#" PRIx64 ", %" PRIu64 " cases (mask, one-CPU, control/status, flush), %" PRIu64 " failures, %.1f s\n",
	       seed, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(lpage);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
