/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench: the workloads of the instruction-count benchmark (see README.md).
 *
 * Runs under valgrind --tool=callgrind with collection off at start and
 * toggled on only inside the four entry points (hvipi_plan_mask,
 * hvipi_plan_one, linux_ref_mask, linux_ref_one).  For each workload and
 * each side it makes one uncounted warm-up call, zeroes callgrind's
 * counters, makes one call and dumps ("...:1"), then makes --reps calls and
 * dumps ("...:<reps>").  bench_report reads the dumps.
 *
 * Outside the measurement, it decodes what each side produced with the
 * receiver model (tests/receiver, KVM and Xen rules) and checks that both
 * interrupt the same VP set, the one the harness computes from the inputs,
 * so the two counts are for the same work.  It writes one line per
 * workload to the --meta file: name, call and input bytes of each side,
 * number of target VPs, and whether the workload is a big identity
 * broadcast (a target group of the report).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "hvipi.h"
#include "linux_ref.h"
#include "rx.h"

#define B_NR_MAX	4096u
#define B_WORDS		(B_NR_MAX / 64u)
#define B_PAGE_SIZE	4096u
#define B_VECTOR	0xf0u
#define B_HINTS		(HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS)
#define B_SEED		0x6876697069ull		/* "hvipi" */
#define B_FAST_BYTES	16u	/* rdx + r8: the fast call's input block */

_Static_assert(HVIPI_HINT_CLUSTER_IPI == LR_HINT_CLUSTER_IPI &&
	       HVIPI_HINT_EX_MASKS == LR_HINT_EX_MASKS,
	       "the same hint bits go to both sides");
_Static_assert(sizeof(unsigned long) == 8, "cpumask words are 64 bits");

enum b_map { MAP_IDENTITY, MAP_PERMUTED };
enum b_set { SET_ALL, SET_ONE, SET_TWO, SET_RANDOM10 };

struct b_workload {
	const char *name;
	bool one;		/* the one-CPU entry points */
	uint32_t nr;		/* nr_cpu_ids */
	enum b_map map;
	enum b_set set;
	uint32_t cpu, cpu2;	/* SET_ONE: cpu; SET_TWO: cpu, cpu2 */
	uint32_t self;
	bool excl;
	bool present;		/* pass present = the target mask */
	bool big_broadcast;	/* in the "<= 0.25" target group */
	bool xmm;		/* the XMM-input hint is set (both sides) */
};

/*
 * self is 0 everywhere; it matters only for allbutself, and for
 * one-remote-mask, whose target (CPU 1) is not self.
 */
static const struct b_workload workloads[] = {
	{ "one-vp-lt64", true, 4096, MAP_IDENTITY, SET_ONE, 5, 0, 0, false, false, false, false },
	{ "one-vp-ge64", true, 4096, MAP_IDENTITY, SET_ONE, 100, 0, 0, false, false, false, false },
	{ "one-remote-mask", false, 4096, MAP_IDENTITY, SET_ONE, 1, 0, 0, false, false, false, false },
	{ "broadcast-16-identity", false, 16, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, false, false },
	{ "broadcast-64-identity", false, 64, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, false, false },
	{ "broadcast-256-identity", false, 256, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, false, false },
	{ "broadcast-1024-identity", false, 1024, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, true, false },
	{ "broadcast-4096-identity", false, 4096, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, true, false },
	{ "allbutself-4096-identity", false, 4096, MAP_IDENTITY, SET_ALL, 0, 0, 0, true, false, false, false },
	{ "random10pct-4096-identity", false, 4096, MAP_IDENTITY, SET_RANDOM10, 0, 0, 0, false, false, false, false },
	{ "broadcast-1024-permuted", false, 1024, MAP_PERMUTED, SET_ALL, 0, 0, 0, false, false, false, false },
	{ "vps-0-4000", false, 4096, MAP_IDENTITY, SET_TWO, 0, 4000, 0, false, false, false, false },
	{ "broadcast-4096-all", false, 4096, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, true, false, false },
	/* XMM input available: up to 11 banks go in registers, no page */
	{ "one-vp-ge64-xmm", true, 4096, MAP_IDENTITY, SET_ONE, 100, 0, 0, false, false, false, true },
	{ "broadcast-256-identity-xmm", false, 256, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, false, true },
	{ "broadcast-1024-identity-xmm", false, 1024, MAP_IDENTITY, SET_ALL, 0, 0, 0, false, false, true, true },
	{ "vps-0-4000-xmm", false, 4096, MAP_IDENTITY, SET_TWO, 0, 4000, 0, false, false, false, true },
};
#define B_NR_WORKLOADS	(sizeof(workloads) / sizeof(workloads[0]))

/* The inputs, shared by both sides; each side has its own page. */
static unsigned long b_mask[B_WORDS];
static unsigned long b_present[B_WORDS];
static uint32_t b_vp[B_NR_MAX];
/* hvipi_vp_ident() of the table, computed once per workload in b_setup(),
 * as the glue computes it once when it switches the IPI ops: not counted. */
static uint32_t b_ident;
static _Alignas(4096) uint64_t hv_page[B_PAGE_SIZE / 8];
static _Alignas(4096) uint64_t lr_page[B_PAGE_SIZE / 8];

static uint64_t b_rng;

static uint64_t b_next(void)	/* splitmix64 */
{
	uint64_t z = (b_rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t b_below(uint32_t n)
{
	return (uint32_t)(b_next() % n);
}

static void b_set_bit(unsigned long *m, uint32_t cpu)
{
	m[cpu / 64u] |= 1ul << (cpu % 64u);
}

static bool b_test_bit(const unsigned long *m, uint32_t cpu)
{
	return (m[cpu / 64u] >> (cpu % 64u)) & 1ul;
}

/* Fill the shared inputs for @w; the same seed for every run. */
static void b_setup(const struct b_workload *w)
{
	uint32_t i;

	b_rng = B_SEED;
	memset(b_mask, 0, sizeof(b_mask));
	memset(b_present, 0, sizeof(b_present));
	for (i = 0; i < B_NR_MAX; i++)
		b_vp[i] = i < w->nr ? i : HVIPI_VP_INVAL;
	if (w->map == MAP_PERMUTED) {
		for (i = w->nr - 1; i > 0; i--) {	/* Fisher-Yates */
			uint32_t j = b_below(i + 1), t = b_vp[i];

			b_vp[i] = b_vp[j];
			b_vp[j] = t;
		}
	}
	switch (w->set) {
	case SET_ALL:
		for (i = 0; i < w->nr; i++)
			b_set_bit(b_mask, i);
		break;
	case SET_ONE:
		b_set_bit(b_mask, w->cpu);
		break;
	case SET_TWO:
		b_set_bit(b_mask, w->cpu);
		b_set_bit(b_mask, w->cpu2);
		break;
	case SET_RANDOM10: {
		/* exactly round(10 % of nr) distinct CPUs, partial shuffle */
		static uint32_t pick[B_NR_MAX];
		uint32_t n = (w->nr + 5u) / 10u;

		for (i = 0; i < w->nr; i++)
			pick[i] = i;
		for (i = 0; i < n; i++) {
			uint32_t j = i + b_below(w->nr - i), t = pick[i];

			pick[i] = pick[j];
			pick[j] = t;
			b_set_bit(b_mask, pick[i]);
		}
		break;
	}
	}
	if (w->present)
		memcpy(b_present, b_mask, sizeof(b_mask));
	b_ident = hvipi_vp_ident(b_vp, w->nr);
}

/* The hints of @w: the XMM one is read by hvipi; Linux's IPI path has no
 * XMM form and ignores it. */
static uint32_t b_hints(const struct b_workload *w)
{
	return B_HINTS | (w->xmm ? HVIPI_HINT_XMM_INPUT : 0u);
}

/* The measured calls: callgrind counts only inside the entry points. */
static void b_call_hvipi(const struct b_workload *w, struct hvipi_plan *p)
{
	if (w->one)
		hvipi_plan_one(p, w->cpu, w->nr, b_vp, B_VECTOR, b_hints(w),
			       hv_page, B_PAGE_SIZE);
	else
		hvipi_plan_mask(p, b_mask, w->present ? b_present : NULL,
				w->nr, b_vp, b_ident, w->self, w->excl, B_VECTOR,
				b_hints(w), hv_page, B_PAGE_SIZE);
}

static void b_call_ref(const struct b_workload *w, struct lr_out *o)
{
	if (w->one)
		linux_ref_one(o, w->cpu, w->present ? b_present : NULL, w->nr,
			      b_vp, B_VECTOR, b_hints(w), lr_page, B_PAGE_SIZE);
	else
		linux_ref_mask(o, b_mask, w->present ? b_present : NULL,
			       w->nr, b_vp, w->self, w->excl, B_VECTOR,
			       b_hints(w), lr_page, B_PAGE_SIZE);
}

static char b_label[128];

static const char *b_dump_label(const char *side, const char *name,
				unsigned int calls)
{
	snprintf(b_label, sizeof(b_label), "bench:%s:%s:%u", side, name, calls);
	return b_label;
}

/* Warm-up, zero, 1 call + dump, @reps calls + dump. */
static void b_measure_hvipi(const struct b_workload *w, unsigned int reps,
			    bool profile, struct hvipi_plan *p)
{
	unsigned int r;

	b_call_hvipi(w, p);
	CALLGRIND_ZERO_STATS;
	b_call_hvipi(w, p);
	if (profile)
		return;		/* the exit dump holds this one call */
	CALLGRIND_DUMP_STATS_AT(b_dump_label("hvipi", w->name, 1));
	for (r = 0; r < reps; r++)
		b_call_hvipi(w, p);
	CALLGRIND_DUMP_STATS_AT(b_dump_label("hvipi", w->name, reps));
}

static void b_measure_ref(const struct b_workload *w, unsigned int reps,
			  bool profile, struct lr_out *o)
{
	unsigned int r;

	b_call_ref(w, o);
	CALLGRIND_ZERO_STATS;
	b_call_ref(w, o);
	if (profile)
		return;
	CALLGRIND_DUMP_STATS_AT(b_dump_label("ref", w->name, 1));
	for (r = 0; r < reps; r++)
		b_call_ref(w, o);
	CALLGRIND_DUMP_STATS_AT(b_dump_label("ref", w->name, reps));
}

/* Call names and input bytes, the same definitions for both sides. */
static const char *b_call_name(uint32_t kind)
{
	/* HVIPI_PLAN_* and LR_* share their numbering */
	static const char *const names[6] = {
		"none", "fast", "ex-sparse", "ex-all", "apic-fallback", "ex-xmm"
	};

	return kind < 6 ? names[kind] : "?";
}

/* Page bytes for a memory call; rdx, r8 and the xmm bytes read for XMM. */
static uint32_t b_input_bytes(uint32_t kind, uint32_t page_bytes,
			      uint32_t banks)
{
	if (kind == 1)
		return B_FAST_BYTES;
	if (kind == 2 || kind == 3)
		return page_bytes;
	if (kind == HVIPI_PLAN_EX_XMM)
		return HVIPI_EX_HDR_BYTES + 8u * banks;
	return 0;
}

/* What a hypervisor does with one side's call (KVM rules, then Xen's). */
static bool b_decode(const char *side, const struct b_workload *w,
		     uint32_t kind, uint64_t control, uint64_t rdx, uint64_t r8,
		     const uint64_t *page, uint32_t bytes, const uint64_t *xmm_in,
		     uint32_t banks, struct rx_result *res)
{
	struct rx_call call;
	struct rx_result xen;
	int x;

	if (kind == HVIPI_PLAN_EX_XMM) {
		/* KVM only: Xen has no fast Ex (and advertises no XMM input). */
		memset(&call, 0, sizeof(call));
		call.control = control;
		call.rdx = rdx;
		call.r8 = r8;
		call.has_xmm = true;
		memcpy(call.xmm, xmm_in, sizeof(call.xmm));
		if (rx_decode(&call, res) != RX_ST_SUCCESS || !res->delivered ||
		    res->vector != B_VECTOR ||
		    res->bytes_read != b_input_bytes(kind, bytes, banks)) {
			fprintf(stderr, "bench: %s: %s: KVM receiver rejects the XMM call: %s\n",
				w->name, side, res->why);
			return false;
		}
		return true;
	}
	if (kind != 1 && kind != 2 && kind != 3) {
		fprintf(stderr, "bench: %s: %s sent nothing (%s)\n", w->name,
			side, b_call_name(kind));
		return false;
	}
	for (x = 0; x < 2; x++) {
		struct rx_result *r = x ? &xen : res;

		memset(&call, 0, sizeof(call));
		call.control = control;
		call.rdx = rdx;
		call.r8 = r8;
		call.page = kind == 1 ? NULL : (const uint8_t *)page;
		call.page_size = kind == 1 ? 0 : bytes;
		call.xen = x;
		if (rx_decode(&call, r) != RX_ST_SUCCESS || !r->delivered ||
		    r->vector != B_VECTOR) {
			fprintf(stderr, "bench: %s: %s: %s receiver rejects the call: %s\n",
				w->name, side, x ? "Xen" : "KVM", r->why);
			return false;
		}
		if (r->bytes_read != b_input_bytes(kind, bytes, banks)) {
			fprintf(stderr, "bench: %s: %s: receiver read %zu input bytes, counted %u\n",
				w->name, side, r->bytes_read,
				b_input_bytes(kind, bytes, banks));
			return false;
		}
	}
	if (xen.all != res->all || xen.nr_vps != res->nr_vps ||
	    memcmp(xen.vps, res->vps, sizeof(xen.vps)) != 0) {
		fprintf(stderr, "bench: %s: %s: KVM and Xen readings differ\n",
			w->name, side);
		return false;
	}
	return true;
}

/*
 * Both sides interrupt the same VPs: the set the harness computes from the
 * inputs, or, for a present-mask workload where mask == present, "all".
 */
static bool b_check(const struct b_workload *w, const struct hvipi_plan *p,
		    const struct lr_out *o, uint32_t *nvps)
{
	static uint64_t want[RX_VP_WORDS];
	struct rx_result hr, lr;
	uint32_t cpu, n = 0;

	memset(want, 0, sizeof(want));
	for (cpu = 0; cpu < w->nr; cpu++) {
		uint32_t vp = b_vp[cpu];

		if (!b_test_bit(b_mask, cpu) || (w->excl && cpu == w->self))
			continue;
		if (!(want[vp / 64u] & (1ull << (vp % 64u))))
			n++;
		want[vp / 64u] |= 1ull << (vp % 64u);
	}
	*nvps = n;
	if (!b_decode("hvipi", w, p->kind, p->control, p->rdx, p->r8, hv_page,
		      p->bytes, &p->input[2], p->banks, &hr) ||
	    !b_decode("ref", w, o->kind, o->control, o->rdx, o->r8, lr_page,
		      o->bytes, NULL, 0, &lr))
		return false;
	if (w->present) {
		if (!hr.all || !lr.all) {
			fprintf(stderr, "bench: %s: expected format all from both\n",
				w->name);
			return false;
		}
		return true;
	}
	if (hr.all || lr.all || hr.nr_vps != n || lr.nr_vps != n ||
	    memcmp(hr.vps, want, sizeof(want)) != 0 ||
	    memcmp(lr.vps, want, sizeof(want)) != 0) {
		fprintf(stderr, "bench: %s: VP sets differ: hvipi %u VPs, ref %u VPs, expected %u\n",
			w->name, hr.nr_vps, lr.nr_vps, n);
		return false;
	}
	return true;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench [--reps N] [--meta FILE] [--only WORKLOAD]\n"
		"             [--side hvipi|ref|both] [--profile] [--list]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *meta_path = NULL, *only = NULL, *side = "both";
	unsigned int reps = 10, i;
	bool profile = false, ok = true, found = false;
	FILE *meta = NULL;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--reps") && a + 1 < argc)
			reps = (unsigned int)strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--meta") && a + 1 < argc)
			meta_path = argv[++a];
		else if (!strcmp(argv[a], "--only") && a + 1 < argc)
			only = argv[++a];
		else if (!strcmp(argv[a], "--side") && a + 1 < argc)
			side = argv[++a];
		else if (!strcmp(argv[a], "--profile"))
			profile = true;
		else if (!strcmp(argv[a], "--list")) {
			for (i = 0; i < B_NR_WORKLOADS; i++)
				printf("%s\n", workloads[i].name);
			return 0;
		} else
			usage();
	}
	if (reps == 0 || (strcmp(side, "both") && strcmp(side, "hvipi") &&
			  strcmp(side, "ref")))
		usage();
	/* A profile is the exit dump of one call of one side. */
	if (profile && (!only || !strcmp(side, "both")))
		usage();
	if (!RUNNING_ON_VALGRIND)
		fprintf(stderr, "bench: not under callgrind: checking only, no counts\n");
	if (meta_path) {
		meta = fopen(meta_path, "w");
		if (!meta) {
			perror(meta_path);
			return 2;
		}
		fprintf(meta, "# workload\thvipi_call\thvipi_input_bytes\treference_call\treference_input_bytes\ttarget_vps\tbig_broadcast\n");
	}

	for (i = 0; i < B_NR_WORKLOADS; i++) {
		const struct b_workload *w = &workloads[i];
		struct hvipi_plan p;
		struct lr_out o;
		uint32_t nvps = 0;

		if (only && strcmp(only, w->name))
			continue;
		found = true;
		b_setup(w);
		memset(hv_page, 0, sizeof(hv_page));
		memset(lr_page, 0, sizeof(lr_page));
		/* Both sides run for the check; only the chosen one is timed. */
		if (strcmp(side, "ref"))
			b_measure_hvipi(w, reps, profile, &p);
		else
			b_call_hvipi(w, &p);
		if (strcmp(side, "hvipi"))
			b_measure_ref(w, reps, profile, &o);
		else
			b_call_ref(w, &o);
		if (!b_check(w, &p, &o, &nvps)) {
			ok = false;
			continue;
		}
		if (meta)
			fprintf(meta, "%s\t%s\t%u\t%s\t%u\t%u\t%d\n", w->name,
				b_call_name(p.kind),
				b_input_bytes(p.kind, p.bytes, p.banks),
				b_call_name(o.kind),
				b_input_bytes(o.kind, o.bytes, 0), nvps,
				w->big_broadcast);
	}
	if (meta && fclose(meta)) {
		perror(meta_path);
		return 2;
	}
	if (!found) {
		fprintf(stderr, "bench: no workload named %s\n", only);
		return 2;
	}
	if (!ok) {
		fprintf(stderr, "bench: the two sides do not do the same work; no comparison\n");
		return 1;
	}
	return 0;
}
