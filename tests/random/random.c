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
 * hvipi_status_ok(), on values from a second generator (so that the
 * cases themselves are the same for a seed as without them).
 * The mask and VP table of each case are allocated to their exact size,
 * so that ASan catches any read beyond nr_cpu_ids.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "hvipi.h"
#include "rx.h"

#define NR_MAX		8192u
#define INVAL		0xffffffffu
#define LONG_BITS	(8u * (uint32_t)sizeof(unsigned long))

static uint64_t rng_state;
static uint32_t nr_max = NR_MAX;

/* splitmix64 */
static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(void)
{
	return splitmix(&rng_state);
}

/* uniform in [0, n) */
static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static uint32_t pick_nr_full(void)
{
	uint32_t r = below(100);

	if (r < 40)
		return 1 + below(64);
	if (r < 70)
		return 65 + below(448);
	if (r < 90)
		return 513 + below(4096 - 512);
	return 4097 + below(NR_MAX - 4096);
}

static uint32_t pick_nr(void)
{
	uint32_t nr = pick_nr_full();

	return nr > nr_max ? 1 + (nr - 1) % nr_max : nr;
}

/*
 * The control word and the status check, against their definitions
 * (TLFS): code in bits 15:0, fast in bit 16, variable header in 26:17;
 * success when status bits 15:0 are zero.  Returns the failures (0..2).
 */
static unsigned int check_small(uint64_t *state)
{
	uint64_t r = splitmix(state), status = splitmix(state);
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

static void set_bit(unsigned long *m, uint32_t b)
{
	m[b / LONG_BITS] |= 1ul << (b % LONG_BITS);
}

static void make_table(uint32_t *vp, uint32_t nr)
{
	uint32_t c, r = below(100), spread;

	if (r < 30) {			/* identity */
		for (c = 0; c < nr; c++)
			vp[c] = c;
	} else if (r < 55) {		/* permutation of 0..nr-1 */
		for (c = 0; c < nr; c++)
			vp[c] = c;
		for (c = nr - 1; c > 0; c--) {
			uint32_t j = below(c + 1), t = vp[c];

			vp[c] = vp[j];
			vp[j] = t;
		}
	} else if (r < 70) {		/* identity with a stride (sparse VPs) */
		spread = 1 + below(nr > 4096 ? 2 : 4096 / nr + 1);
		for (c = 0; c < nr; c++)
			vp[c] = c * spread;
	} else if (r < 85) {		/* random VPs, duplicates allowed */
		uint32_t lim = below(3) == 0 ? 64 : below(2) ? 4096 : 8192;

		for (c = 0; c < nr; c++)
			vp[c] = below(lim);
	} else {			/* identity, then local swaps */
		for (c = 0; c < nr; c++)
			vp[c] = c;
		for (c = 0; c < 1 + nr / 16; c++) {
			uint32_t a = below(nr), b = below(nr), t = vp[a];

			vp[a] = vp[b];
			vp[b] = t;
		}
	}
	/* sprinkle: VP_INVAL, huge VPs, a high VP on the last CPU */
	if (below(8) == 0)
		for (c = 0; c < 1 + below(3); c++)
			vp[below(nr)] = INVAL;
	if (below(10) == 0)
		vp[below(nr)] = 4096 + below(100000);
	if (below(10) == 0)
		vp[nr - 1] = 64 + below(4032);
	if (below(20) == 0)
		vp[below(nr)] = 0xfffffffeu;
}

static void make_mask(unsigned long *m, uint32_t words, uint32_t nr,
		      uint32_t self, const unsigned long *present)
{
	uint32_t r = below(100), c, k;

	memset(m, 0, words * sizeof(*m));
	if (r < 5) {
		/* empty */
	} else if (r < 20) {			/* one CPU, often self */
		set_bit(m, below(3) == 0 && self < nr ? self : below(nr));
	} else if (r < 45) {			/* a few CPUs */
		for (k = 1 + below(12); k; k--)
			set_bit(m, below(nr));
	} else if (r < 70) {			/* dense, random density */
		uint32_t p = 1 + below(99);

		for (c = 0; c < nr; c++)
			if (below(100) < p)
				set_bit(m, c);
	} else if (r < 80) {			/* a range */
		uint32_t a = below(nr), b = a + below(nr - a);

		for (c = a; c <= b; c++)
			set_bit(m, c);
	} else if (r < 92 && present) {		/* = present (all / all-but-self) */
		memcpy(m, present, words * sizeof(*m));
	} else {				/* all */
		for (c = 0; c < nr; c++)
			set_bit(m, c);
	}
	/* garbage beyond nr_cpu_ids in the last word */
	if (nr % LONG_BITS && below(4) == 0)
		m[words - 1] |= ~0ul << (nr % LONG_BITS);
}

int main(int argc, char **argv)
{
	struct ck_stats st;
	uint64_t seed, ncases, i, one_cases = 0, one_both = 0;
	const char *es = getenv("HVIPI_SEED"), *ec = getenv("HVIPI_CASES");
	const char *en = getenv("HVIPI_NR_MAX");
	uint64_t small_state, small_cases = 0, small_failures = 0;
	clock_t t0 = clock();
	uint64_t *lpage = malloc(4096);

	if (argc > 1)
		seed = strtoull(argv[1], NULL, 0);
	else if (es && *es)
		seed = strtoull(es, NULL, 0);
	else
		seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	ncases = 1000000;
	if (argc > 2)
		ncases = strtoull(argv[2], NULL, 0);
	else if (ec && *ec)
		ncases = strtoull(ec, NULL, 0);
	if (en && *en) {
		unsigned long n = strtoul(en, NULL, 0);

		if (n < 1 || n > NR_MAX) {
			fprintf(stderr, "random: HVIPI_NR_MAX must be 1..%u\n", NR_MAX);
			return 2;
		}
		nr_max = (uint32_t)n;
	}
	printf("random: seed %#" PRIx64 " (rerun: HVIPI_SEED=%#" PRIx64 "), %" PRIu64 " cases, nr_cpu_ids 1..%u\n",
	       seed, seed, ncases, nr_max);
	fflush(stdout);
	rng_state = seed;
	small_state = ~seed;
	memset(&st, 0, sizeof(st));

	for (i = 0; i < ncases; i++) {
		uint32_t nr = pick_nr();
		uint32_t words = HVIPI_MASK_WORDS(nr);
		unsigned long *mask = malloc(words * sizeof(*mask));
		unsigned long *present = malloc(words * sizeof(*present));
		uint32_t *vp = malloc(nr * sizeof(*vp));
		struct ck_case c;
		uint32_t r, cpu;

		if (!mask || !present || !vp || !lpage) {
			perror("malloc");
			return 2;
		}
		make_table(vp, nr);
		memset(&c, 0, sizeof(c));
		c.nr = nr;
		c.vp = vp;
		c.self = below(16) == 0 ? nr + below(4) : below(nr);
		c.excl = below(2);
		r = below(100);
		if (r < 30) {
			c.present = NULL;
		} else {
			uint32_t k;

			memset(present, 0, words * sizeof(*present));
			for (k = 0; k < nr; k++)
				if (r < 75 || below(8))
					set_bit(present, k);
			if (nr % LONG_BITS && below(4) == 0)
				present[words - 1] |= 1ul << (LONG_BITS - 1);
			c.present = present;
		}
		make_mask(mask, words, nr, c.self, c.present);
		c.mask = mask;
		r = below(100);
		c.vector = r < 88 ? 0x10 + below(0xf0) :
			   r < 90 ? (below(2) ? 0x10 : 0xff) :
			   r < 95 ? below(0x10) :
			   r < 98 ? 0x100 + below(2) : 0x100 + below(0x10000);
		c.hints = below(5) == 0 ? below(8) : 3u | (below(2) << 2);
		r = below(100);
		if (r < 75) {
			c.have_page = true;
			c.page_size = 4096;
		} else if (r < 85) {
			c.have_page = false;
		} else {
			c.have_page = true;
			c.page_size = below(600);
		}
		ck_run(&c, NULL, &st, true);

		/* one-CPU send: hvipi against the oracle, and against Linux */
		cpu = below(16) == 0 ? nr : below(nr);
		if (ck_run_one(cpu, nr, vp, c.vector, c.hints, c.have_page,
			       c.page_size, &st)) {
			struct hvipi_plan p;
			struct lr_out lo;
			uint64_t *hp = malloc(4096);

			one_cases++;
			hvipi_plan_one(&p, cpu, nr, vp, c.vector, c.hints,
				       hp, 4096);
			linux_ref_one(&lo, cpu, NULL, nr, vp, c.vector,
				      c.hints, lpage, 4096);
			if ((p.kind == HVIPI_PLAN_FAST || p.kind == HVIPI_PLAN_EX_SPARSE ||
			     p.kind == HVIPI_PLAN_EX_XMM) &&
			    (lo.kind == LR_FAST || lo.kind == LR_EX_SPARSE)) {
				struct rx_call a, b;
				struct rx_result ra, rb;

				memset(&a, 0, sizeof(a));
				memset(&b, 0, sizeof(b));
				a.control = p.control;
				a.rdx = p.rdx;
				a.r8 = p.r8;
				a.page = (const uint8_t *)hp;
				a.page_size = p.bytes;
				if (p.kind == HVIPI_PLAN_EX_XMM) {
					uint32_t w;

					a.has_xmm = true;
					for (w = 0; w < 12u; w++)
						a.xmm[w] = p.input[2 + w];
				}
				b.control = lo.control;
				b.rdx = lo.rdx;
				b.r8 = lo.r8;
				b.page = (const uint8_t *)lpage;
				b.page_size = lo.bytes;
				one_both++;
				if (rx_decode(&a, &ra) || rx_decode(&b, &rb) ||
				    ra.nr_vps != 1 || rb.nr_vps != 1 ||
				    memcmp(ra.vps, rb.vps, sizeof(ra.vps))) {
					fprintf(stderr, "FAIL: one-CPU send, cpu %u vp %#x: hvipi and Linux differ\n",
						cpu, vp[cpu]);
					st.failures++;
				}
			}
			free(hp);
		}
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
	printf("random: hvipi_control/hvipi_status_ok cases %" PRIu64 ", failures %" PRIu64 "\n",
	       small_cases, small_failures);
	st.cases += small_cases;
	st.failures += small_failures;
	printf("random: seed %#" PRIx64 ", %" PRIu64 " cases (mask, one-CPU, control/status), %" PRIu64 " failures, %.1f s\n",
	       seed, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(lpage);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
