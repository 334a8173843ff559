/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * exhaustive: every target mask over nr_cpu_ids = 1..NR_MAX (default 10)
 * CPUs, a family of VP tables, every self CPU (and one that is no CPU),
 * with and without exclude_self, three present masks (none, all CPUs, the
 * target mask itself), vectors 2/0x0f/0x10/0xff/0x100, the 8 hint
 * combinations and page sizes NULL/16/24/4096.  Each case is checked
 * against the oracle and decoded by the receiver model (common/check.c).
 * Also hvipi_plan_one() for every CPU.
 *
 * Usage: exhaustive [NR_MAX]   (env HVIPI_EXH_NR_MAX too)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "hvipi.h"

#define NR_LIMIT	10u
#define INVAL		0xffffffffu
#define NTABLES		9

static const char *const table_name[NTABLES] = {
	"identity", "reversed", "nonmonotonic", "inval", "spread-banks",
	"too-big", "duplicates", "mixed", "last-high"
};

static void make_table(uint32_t *vp, int t, uint32_t nr)
{
	uint32_t c;

	for (c = 0; c < nr; c++) {
		switch (t) {
		case 0:	/* identity */
			vp[c] = c;
			break;
		case 1:	/* reversed */
			vp[c] = nr - 1u - c;
			break;
		case 2:	/* non-monotonic: CPU 0 high, the last CPU low (bug 5) */
			vp[c] = c == 0 ? 100u : c;
			break;
		case 3:	/* some CPUs without a VP yet */
			vp[c] = c % 3u == 1u ? INVAL : c;
			break;
		case 4:	/* one CPU per bank, banks 0..9 (compact vs dense) */
			vp[c] = 65u * c * (c % 2u ? 1u : 6u) % 4096u;
			break;
		case 5:	/* a VP beyond the 4096 of a sparse set */
			vp[c] = c == nr / 2u ? 4096u + c : (c == nr - 1u ? 4095u : c);
			break;
		case 6:	/* duplicates across the 64 boundary */
			vp[c] = 62u + c / 2u;
			break;
		case 7:	/* a bit of everything */
			vp[c] = c % 4u == 0 ? 4095u - c : c % 4u == 1 ? c :
				c % 4u == 2 ? 128u + c : (c == 3 ? INVAL : 70000u);
			break;
		default: /* only the last CPU high (bug 6 when it is self) */
			vp[c] = c == nr - 1u ? 200u : c;
			break;
		}
	}
}

static const uint32_t vectors[] = { 2u, 0x0fu, 0x10u, 0xffu, 0x100u };
static const uint32_t pages[] = { 0u, 16u, 24u, 4096u };	/* 0: NULL */

int main(int argc, char **argv)
{
	static struct or_sets s;	/* zeroed once, reused */
	struct ck_stats st;
	uint32_t nr_max = NR_LIMIT, nr, m, self, vi, h, pi, cpu;
	uint32_t vp[NR_LIMIT];
	unsigned long mask[1], present[3][1];
	const char *env = getenv("HVIPI_EXH_NR_MAX");
	uint64_t table_cases[NTABLES];
	clock_t t0 = clock();
	int t, ex, pr;

	if (argc > 1)
		nr_max = (uint32_t)strtoul(argv[1], NULL, 0);
	else if (env && *env)
		nr_max = (uint32_t)strtoul(env, NULL, 0);
	if (nr_max < 1 || nr_max > NR_LIMIT)
		nr_max = NR_LIMIT;
	memset(&st, 0, sizeof(st));
	memset(table_cases, 0, sizeof(table_cases));

	for (nr = 1; nr <= nr_max; nr++) {
		for (t = 0; t < NTABLES; t++) {
			uint64_t before = st.cases;

			make_table(vp, t, nr);
			for (m = 0; m < (1u << nr); m++) {
				/* garbage beyond nr_cpu_ids on odd masks */
				mask[0] = m | ((m & 1u) ? ~0ul << nr : 0ul);
				present[0][0] = 0;
				present[1][0] = ((1ul << nr) - 1ul) |
						((m & 2u) ? 1ul << 63 : 0ul);
				present[2][0] = m | ((m & 1u) ? 0ul : 3ul << 62);
				for (pr = 0; pr < 3; pr++)
				for (ex = 0; ex < 2; ex++)
				for (self = 0; self <= nr; self++) {
					struct ck_case c;

					c.mask = mask;
					c.present = pr ? present[pr] : NULL;
					c.nr = nr;
					c.vp = vp;
					c.self = self;
					c.excl = ex;
					or_sets(&s, c.mask, c.present, nr, vp,
						self, c.excl);
					for (vi = 0; vi < 5; vi++)
					for (h = 0; h < 8; h++)
					for (pi = 0; pi < 4; pi++) {
						c.vector = vectors[vi];
						c.hints = h;
						c.have_page = pages[pi] != 0;
						c.page_size = pages[pi];
						ck_run(&c, &s, &st, false);
					}
				}
			}
			for (cpu = 0; cpu <= nr; cpu++)
				for (vi = 0; vi < 5; vi++)
					for (h = 0; h < 8; h++)
						for (pi = 0; pi < 4; pi++)
							ck_run_one(cpu, nr, vp, vectors[vi], h,
								   pages[pi] != 0, pages[pi], &st);
			table_cases[t] += st.cases - before;
		}
	}
	ck_print_kinds("exhaustive", &st);
	printf("exhaustive: cases per VP table:");
	for (t = 0; t < NTABLES; t++)
		printf(" %s=%" PRIu64, table_name[t], table_cases[t]);
	printf("\nexhaustive: nr_cpu_ids 1..%u, %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       nr_max, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
