/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench: the workloads of the instruction-count benchmark (see README.md).
 *
 * Four sides, each counted on the same inputs:
 *   hvipi   the core alone: hvipi_plan_mask() / hvipi_plan_one();
 *   ref     the model of Linux (tests/linux_ref): linux_ref_mask/_one();
 *   glue    hvipi from the APIC callback down: the ops of
 *           kernel-glue/hvipi_apic.c (hvipi_send_IPI*), with the core built
 *           as the module builds it, the hypercall excluded;
 *   kernel  Linux 6.1 from the APIC callback down: the hv_send_ipi* ops
 *           that the real arch/x86/hyperv/hv_apic.c installs (through
 *           tests/kernel_ref's environment), the hypercall excluded.
 *
 * Runs under valgrind --tool=callgrind with collection off at start and
 * toggled on only inside the entry points of the four sides (and off
 * again inside the hypercall recorders).  For each workload and each side
 * it makes one uncounted warm-up call, zeroes callgrind's counters, makes
 * one call and dumps ("...:1"), then makes --reps calls and dumps
 * ("...:<reps>").  bench_report reads the dumps.
 *
 * Outside the measurement, it decodes what each side sent with the
 * receiver model (tests/receiver, KVM and Xen rules) and checks that all
 * four interrupt the same VP set, the one the harness computes from the
 * inputs, so the counts are for the same work; and that the glue issued
 * exactly the call the core plans.  It writes one line per workload to the
 * --meta file: name, call and input bytes of each side, number of target
 * VPs, and whether the workload is a big identity broadcast (a target
 * group of the report); and the linux-source package version.
 *
 * Then the flush rows ("flush: GVA list", b_flush_all()): hvipi_gva_list()
 * (both builds) against the real fill_gva_list() and whole-space test of
 * Linux 6.1's arch/x86/hyperv/mmu.c, counted the same way, checked against
 * the real hyperv_flush_tlb_multi(); one "@flush" meta line each.
 *
 * Last the flush planner rows ("flush: the whole flush", b_fplan_all()):
 * hvipi_plan_flush() and the module's flush op against the real
 * hyperv_flush_tlb_multi() from the op down, on flushes of 1, 64, 1024
 * and 4096 CPUs and ranges of 1 page, 33 pages and more than a page
 * lists; both calls read by the flush receiver model; one "@fplan" meta
 * line each.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "hvipi.h"
#include "linux_ref.h"
#include "rx.h"
#include "kbench.h"		/* and tests/kernel_ref's kref.h */
#include "kbench_flush.h"
#include "kflush.h"		/* tests/kernel_ref: the real hyperv_flush_tlb_multi() */
#include "rx_flush.h"
#include "kref_version.h"	/* KREF_PKG_VERSION, from extract.sh */

#define B_NR_MAX	4096u
/* The kernel's struct cpumask (kref.h: CONFIG_NR_CPUS bits): every mask
 * has its size, so that the kernel sides may take it as one. */
#define B_WORDS		(KREF_NR_CPUS / 64u)
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
enum b_set { SET_ALL, SET_ONE, SET_TWO, SET_RANDOM };

struct b_workload {
	const char *name;
	bool one;		/* the one-CPU entry points (send_IPI) */
	uint32_t nr;		/* nr_cpu_ids */
	enum b_map map;
	enum b_set set;
	uint32_t cpu, cpu2;	/* SET_ONE: cpu; SET_TWO: cpu, cpu2 */
	uint32_t count;		/* SET_RANDOM: CPUs; 0: round(10 % of nr) */
	uint32_t self;
	bool excl;		/* exclude self: send_IPI_mask_allbutself */
	bool present;		/* pass present = the target mask */
	bool big_broadcast;	/* in the "<= 0.25" target group */
	bool xmm;		/* the XMM-input hint is set (all sides) */
};

/*
 * self is 0 everywhere; it matters only for allbutself, and for
 * one-remote-mask, whose target (CPU 1) is not self.
 */
static const struct b_workload workloads[] = {
	{ .name = "one-vp-lt64", .one = true, .nr = 4096, .set = SET_ONE, .cpu = 5 },
	{ .name = "one-vp-ge64", .one = true, .nr = 4096, .set = SET_ONE, .cpu = 100 },
	{ .name = "one-remote-mask", .nr = 4096, .set = SET_ONE, .cpu = 1 },
	/* a mask of self and CPU 100, self excluded: one target, VP >= 64 */
	{ .name = "one-cpu-ge64-allbutself", .nr = 4096, .set = SET_TWO, .cpu = 0,
	  .cpu2 = 100, .excl = true },
	{ .name = "broadcast-16-identity", .nr = 16 },
	{ .name = "broadcast-64-identity", .nr = 64 },
	{ .name = "broadcast-256-identity", .nr = 256 },
	{ .name = "broadcast-1024-identity", .nr = 1024, .big_broadcast = true },
	{ .name = "broadcast-4096-identity", .nr = 4096, .big_broadcast = true },
	{ .name = "allbutself-4096-identity", .nr = 4096, .excl = true },
	{ .name = "random10pct-4096-identity", .nr = 4096, .set = SET_RANDOM },
	{ .name = "sparse-64-of-4096", .nr = 4096, .set = SET_RANDOM, .count = 64 },
	{ .name = "broadcast-1024-permuted", .nr = 1024, .map = MAP_PERMUTED },
	{ .name = "vps-0-4000", .nr = 4096, .set = SET_TWO, .cpu = 0, .cpu2 = 4000 },
	{ .name = "broadcast-4096-all", .nr = 4096, .present = true },
	/* XMM input available: up to 11 banks go in registers, no page */
	{ .name = "one-vp-ge64-xmm", .one = true, .nr = 4096, .set = SET_ONE,
	  .cpu = 100, .xmm = true },
	{ .name = "broadcast-256-identity-xmm", .nr = 256, .xmm = true },
	{ .name = "broadcast-1024-identity-xmm", .nr = 1024, .big_broadcast = true,
	  .xmm = true },
	{ .name = "vps-0-4000-xmm", .nr = 4096, .set = SET_TWO, .cpu = 0,
	  .cpu2 = 4000, .xmm = true },
};
#define B_NR_WORKLOADS	(sizeof(workloads) / sizeof(workloads[0]))

/* The inputs, shared by all sides; each side has its own page. */
static unsigned long b_mask[B_WORDS];
static unsigned long b_present[B_WORDS];
static uint32_t b_vp[B_NR_MAX];
/* hvipi_vp_ident() of the table, computed once per workload in b_setup(),
 * as the glue computes it once when it switches the IPI ops: not counted. */
static uint32_t b_ident;
/*
 * The real Linux side's cpu_present_mask and cpu_online_mask (Linux has no
 * "no present mask"): with a present mask, the target mask; without, the
 * complement of the target below nr_cpu_ids, which differs from it in
 * word 0, so cpumask_equal() says "not equal" after one word (its cheapest)
 * and Linux takes the sparse path, as hvipi does without a present mask.
 * Online: every CPU below nr_cpu_ids (no op measured reads it).
 */
static unsigned long b_kpresent[B_WORDS];
static unsigned long b_konline[B_WORDS];
static uint32_t b_kmax_vp;	/* hv_max_vp_index: the largest VP in the table */
static _Alignas(4096) uint64_t hv_page[B_PAGE_SIZE / 8];
static _Alignas(4096) uint64_t lr_page[B_PAGE_SIZE / 8];
static _Alignas(4096) uint64_t kg_page[B_PAGE_SIZE / 8];	/* glue */
static _Alignas(4096) uint64_t kl_page[B_PAGE_SIZE / 8];	/* Linux */

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
	case SET_RANDOM: {
		/* exactly count (or round(10 % of nr)) distinct CPUs,
		 * partial shuffle */
		static uint32_t pick[B_NR_MAX];
		uint32_t n = w->count ? w->count : (w->nr + 5u) / 10u;

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
	memset(b_kpresent, 0, sizeof(b_kpresent));
	memset(b_konline, 0, sizeof(b_konline));
	b_kmax_vp = 0;
	for (i = 0; i < w->nr; i++) {
		if (w->present ? b_test_bit(b_mask, i) : !b_test_bit(b_mask, i))
			b_set_bit(b_kpresent, i);
		b_set_bit(b_konline, i);
		if (b_vp[i] > b_kmax_vp)
			b_kmax_vp = b_vp[i];
	}
}

/* The hints of @w: the XMM one is read by hvipi; Linux's IPI path has no
 * XMM form and ignores it. */
static uint32_t b_hints(const struct b_workload *w)
{
	return B_HINTS | (w->xmm ? HVIPI_HINT_XMM_INPUT : 0u);
}

enum b_side { S_HVIPI, S_REF, S_GLUE, S_KERNEL, S_COUNT };
static const char *const b_side_name[S_COUNT] = { "hvipi", "ref", "glue", "kernel" };

/* What the sides produced (the core's plan, the model's output). */
static struct hvipi_plan b_plan;
static struct lr_out b_lro;
static struct kbench_ops b_glue_ops;
static unsigned int b_calls[S_COUNT];	/* calls made on this workload */

/* The real Linux side's environment: hv_apic_init() installs its ops. */
static bool b_kernel_env(const struct b_workload *w)
{
	struct kref_env e = {
		.nr_cpu_ids = w->nr,
		.vp_index = b_vp,
		.max_vp_index = b_kmax_vp,
		.cluster_hint = true,
		.ex_hint = true,
		.present = (const struct cpumask *)b_kpresent,
		.online = (const struct cpumask *)b_konline,
		.input_page = kl_page,
		.self = (int)w->self,
		.status = 0,
	};

	if (!kref_env_set(&e))
		return false;
	memset(&kref_rec, 0, sizeof(kref_rec));
	return true;
}

/* The glue's context, as the module fills hvipi_live at the switch. */
static void b_glue_env(const struct b_workload *w)
{
	struct kbench_glue_env e = {
		.nr_cpu_ids = w->nr,
		.vp_index = b_vp,
		.vp_ident = b_ident,
		.present = w->present ? (const struct cpumask *)b_present : NULL,
		.hints = b_hints(w),
		.xmm = w->xmm,
		.input_page = kg_page,
		.page_size = B_PAGE_SIZE,
		.self = (int)w->self,
	};

	kbench_glue_set(&e);
	kbench_glue_ops(&b_glue_ops);
}

/*
 * The measured calls: callgrind counts only inside the entry points.  The
 * kernel sides are entered through the APIC op the code installed, as the
 * kernel's apic->send_IPI*() calls do.
 */
static void b_call(enum b_side s, const struct b_workload *w)
{
	const struct cpumask *m = (const struct cpumask *)b_mask;

	b_calls[s]++;
	switch (s) {
	case S_HVIPI:
		if (w->one)
			hvipi_plan_one(&b_plan, w->cpu, w->nr, b_vp, B_VECTOR,
				       b_hints(w), hv_page, B_PAGE_SIZE);
		else
			hvipi_plan_mask(&b_plan, b_mask,
					w->present ? b_present : NULL, w->nr,
					b_vp, b_ident, w->self, w->excl,
					B_VECTOR, b_hints(w), hv_page,
					B_PAGE_SIZE);
		break;
	case S_REF:
		if (w->one)
			linux_ref_one(&b_lro, w->cpu,
				      w->present ? b_present : NULL, w->nr,
				      b_vp, B_VECTOR, b_hints(w), lr_page,
				      B_PAGE_SIZE);
		else
			linux_ref_mask(&b_lro, b_mask,
				       w->present ? b_present : NULL, w->nr,
				       b_vp, w->self, w->excl, B_VECTOR,
				       b_hints(w), lr_page, B_PAGE_SIZE);
		break;
	case S_GLUE:
		if (w->one)
			b_glue_ops.send_IPI((int)w->cpu, (int)B_VECTOR);
		else if (w->excl)
			b_glue_ops.send_IPI_mask_allbutself(m, (int)B_VECTOR);
		else
			b_glue_ops.send_IPI_mask(m, (int)B_VECTOR);
		break;
	case S_KERNEL:
		if (w->one)
			apic->send_IPI((int)w->cpu, (int)B_VECTOR);
		else if (w->excl)
			apic->send_IPI_mask_allbutself(m, (int)B_VECTOR);
		else
			apic->send_IPI_mask(m, (int)B_VECTOR);
		break;
	case S_COUNT:
		break;
	}
}

static char b_label[128];

static const char *b_dump_label(const char *side, const char *name,
				unsigned int calls)
{
	snprintf(b_label, sizeof(b_label), "bench:%s:%s:%u", side, name, calls);
	return b_label;
}

/* Warm-up, zero, 1 call + dump, @reps calls + dump. */
static void b_measure(enum b_side s, const struct b_workload *w,
		      unsigned int reps, bool profile)
{
	unsigned int r;

	b_call(s, w);
	CALLGRIND_ZERO_STATS;
	b_call(s, w);
	if (profile)
		return;		/* the exit dump holds this one call */
	CALLGRIND_DUMP_STATS_AT(b_dump_label(b_side_name[s], w->name, 1));
	for (r = 0; r < reps; r++)
		b_call(s, w);
	CALLGRIND_DUMP_STATS_AT(b_dump_label(b_side_name[s], w->name, reps));
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

/* HvCallSendSyntheticClusterIpi(Ex) codes and the control fields read here. */
#define B_CODE_IPI	0x000bu
#define B_CODE_IPI_EX	0x0015u
#define B_CTL_FAST	(1ull << 16)
#define B_VARHDR(ctl)	((uint32_t)(((ctl) >> 17) & 0x3ffu))
#define B_FORMAT_ALL	1u	/* HV_GENERIC_SET_ALL, at byte 8 of the Ex input */

/*
 * What the real Linux side sent, as a kind (HVIPI_PLAN_* numbering), from
 * kref_env.c's record of the @calls sends: exactly one hypercall each and
 * no fallback, else the bench stops.
 */
static bool b_kernel_sent(const struct b_workload *w, unsigned int calls,
			  uint32_t *kind, uint32_t *bytes)
{
	if (kref_rec.nr_native) {
		*kind = HVIPI_PLAN_FALLBACK;
		*bytes = 0;
		fprintf(stderr, "bench: %s: Linux fell back to the native APIC op\n",
			w->name);
		return false;
	}
	if (kref_rec.nr_hcalls != calls) {
		fprintf(stderr, "bench: %s: Linux made %u hypercalls in %u sends\n",
			w->name, kref_rec.nr_hcalls, calls);
		return false;
	}
	if (kref_rec.fast) {
		*kind = HVIPI_PLAN_FAST;
		*bytes = 0;
	} else {
		*kind = kref_rec.bytes >= 16 && kref_rec.input[1] == B_FORMAT_ALL ?
			HVIPI_PLAN_EX_ALL : HVIPI_PLAN_EX_SPARSE;
		*bytes = kref_rec.bytes;
	}
	return true;
}

/*
 * What the glue sent (usertest/recorder.S's record of the last of @calls
 * hypercalls): exactly one per send, no fallback, and the call the core
 * plans on the same inputs (@p, counted on its own page).
 */
static bool b_glue_sent(const struct b_workload *w, unsigned int calls,
			const struct hvipi_plan *p, struct kbench_hcall *h,
			uint32_t *kind, uint32_t *bytes, uint32_t *banks)
{
	bool fast;

	kbench_glue_last(h);
	if (h->nr_native || h->calls != calls) {
		fprintf(stderr, "bench: %s: glue: %" PRIu64 " hypercalls and %u fallbacks in %u sends\n",
			w->name, h->calls, h->nr_native, calls);
		return false;
	}
	fast = (h->rcx & B_CTL_FAST) != 0;
	*banks = B_VARHDR(h->rcx);
	*bytes = 0;
	if (fast && (h->rcx & 0xffffu) == B_CODE_IPI) {
		*kind = HVIPI_PLAN_FAST;
	} else if (fast && (h->rcx & 0xffffu) == B_CODE_IPI_EX) {
		*kind = HVIPI_PLAN_EX_XMM;
	} else if (h->rdx == (uint64_t)(uintptr_t)kg_page) {
		*bytes = HVIPI_EX_HDR_BYTES + 8u * *banks;
		*kind = kg_page[1] == B_FORMAT_ALL ? HVIPI_PLAN_EX_ALL :
			HVIPI_PLAN_EX_SPARSE;
	} else {
		fprintf(stderr, "bench: %s: glue: a memory call not on its input page\n",
			w->name);
		return false;
	}
	if (*kind != p->kind || h->rcx != p->control ||
	    (*kind == HVIPI_PLAN_FAST && (h->rdx != p->rdx || h->r8 != p->r8)) ||
	    (*kind == HVIPI_PLAN_EX_XMM &&
	     (h->rdx != p->rdx || h->r8 != p->r8 || *banks != p->banks ||
	      memcmp(h->xmm, &p->input[2], sizeof(h->xmm)) != 0)) ||
	    ((*kind == HVIPI_PLAN_EX_SPARSE || *kind == HVIPI_PLAN_EX_ALL) &&
	     (*bytes != p->bytes ||
	      memcmp(kg_page, hv_page, *bytes) != 0))) {
		fprintf(stderr, "bench: %s: the glue did not issue the call the core plans\n",
			w->name);
		return false;
	}
	return true;
}

/* One side's decoded call against the expected set (or "all"). */
static bool b_same(const char *side, const struct b_workload *w,
		   const struct rx_result *r, const uint64_t *want, uint32_t n)
{
	if (w->present) {
		if (!r->all) {
			fprintf(stderr, "bench: %s: %s: expected format all\n",
				w->name, side);
			return false;
		}
		return true;
	}
	if (r->all || r->nr_vps != n ||
	    memcmp(r->vps, want, RX_VP_WORDS * sizeof(uint64_t)) != 0) {
		fprintf(stderr, "bench: %s: %s: VP set differs: %u VPs, expected %u\n",
			w->name, side, r->nr_vps, n);
		return false;
	}
	return true;
}

/* Per workload: call and input bytes of each side, for the meta file. */
struct b_sent {
	uint32_t kind[S_COUNT];
	uint32_t bytes[S_COUNT];
};

/*
 * All sides interrupt the same VPs: the set the harness computes from the
 * inputs, or, for a present-mask workload where mask == present, "all".
 */
static bool b_check(const struct b_workload *w, uint32_t *nvps,
		    struct b_sent *sent)
{
	static uint64_t want[RX_VP_WORDS];
	static struct rx_result hr, lr, gr, kr;
	const struct hvipi_plan *p = &b_plan;
	const struct lr_out *o = &b_lro;
	struct kbench_hcall h;
	uint32_t cpu, n = 0, gkind, gbytes, gbanks, kkind, kbytes;

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
	if (!b_glue_sent(w, b_calls[S_GLUE], p, &h, &gkind, &gbytes, &gbanks) ||
	    !b_decode("glue", w, gkind, h.rcx, h.rdx, h.r8, kg_page, gbytes,
		      h.xmm, gbanks, &gr))
		return false;
	if (!b_kernel_sent(w, b_calls[S_KERNEL], &kkind, &kbytes) ||
	    !b_decode("kernel", w, kkind, kref_rec.control, kref_rec.rdx,
		      kref_rec.r8, kref_rec.input, kbytes, NULL, 0, &kr))
		return false;
	if (!b_same("hvipi", w, &hr, want, n) || !b_same("ref", w, &lr, want, n) ||
	    !b_same("glue", w, &gr, want, n) || !b_same("kernel", w, &kr, want, n))
		return false;
	sent->kind[S_HVIPI] = p->kind;
	sent->bytes[S_HVIPI] = b_input_bytes(p->kind, p->bytes, p->banks);
	sent->kind[S_REF] = o->kind;
	sent->bytes[S_REF] = b_input_bytes(o->kind, o->bytes, 0);
	sent->kind[S_GLUE] = gkind;
	sent->bytes[S_GLUE] = b_input_bytes(gkind, gbytes, gbanks);
	sent->kind[S_KERNEL] = kkind;
	sent->bytes[S_KERNEL] = b_input_bytes(kkind, kbytes, 0);
	return true;
}

/* ---- the flush rows: the GVA list of a remote TLB flush ---- */

/*
 * hvipi_gva_list() against Linux 6.1's fill_gva_list() (mmu.c, through
 * kbench_mmu.c) on page-aligned ranges of @pages pages from B_FLUSH_START,
 * with the list room of a non-Ex input page (509 entries) as hvipi's
 * capacity.  Four sides, each counted as the IPI sides are (b_fmeasure):
 *   flush-core   hvipi_gva_list(), the userspace build (as core_Ir);
 *   flush-kcore  hvipi_k_gva_list(), the core as the module builds it;
 *   flush-fill   fill_gva_list(list, 0, start, end), only on the rows
 *                where Linux lists (it is not called on a whole-space one);
 *   flush-test   Linux's choice of the whole-space call (end ==
 *                TLB_FLUSH_ALL, or (end - start) / 16 MiB > 509).
 * The report's Linux total is test + fill (fill 0 when not called).
 */
struct b_flush {
	const char *name;
	uint64_t pages;
};

static const struct b_flush flushes[] = {
	{ "gva-1-page", 1 },
	{ "gva-33-pages", 33 },		/* tlb_single_page_flush_ceiling */
	{ "gva-4096-pages", 4096 },
	{ "gva-4097-pages", 4097 },
	{ "gva-509x4096-pages", 509ull * 4096 },	/* a full non-Ex page */
	/* one page more than the page lists: hvipi 0; Linux's test still
	 * says "list" ((end - start) / 16 MiB == 509) and it writes 510 */
	{ "gva-509x4096+1-pages", 509ull * 4096 + 1 },
	/* the first page-aligned range Linux flushes as a whole space */
	{ "gva-510x4096-pages", 510ull * 4096 },
};
#define B_NR_FLUSHES	(sizeof(flushes) / sizeof(flushes[0]))
#define B_FLUSH_START	0x7f0000000000ull	/* page-aligned, user space */
#define B_FLUSH_WORDS	1024u			/* every side's list buffer */
#define B_FLUSH_GUARD	16u

enum b_fside { F_CORE, F_KCORE, F_FILL, F_TEST, F_COUNT };
static const char *const b_fside_name[F_COUNT] = {
	"flush-core", "flush-kcore", "flush-fill", "flush-test"
};

static uint64_t b_flist[F_COUNT][B_FLUSH_WORDS];
static int64_t b_fret[F_COUNT];	/* each side's last result */

static void b_fcall(enum b_fside s, uint64_t start, uint64_t end)
{
	switch (s) {
	case F_CORE:
		b_fret[s] = hvipi_gva_list(b_flist[s], KBENCH_FLUSH_CAPACITY,
					   start, end);
		break;
	case F_KCORE:
		b_fret[s] = hvipi_k_gva_list(b_flist[s], KBENCH_FLUSH_CAPACITY,
					     start, end);
		break;
	case F_FILL:
		b_fret[s] = kbench_fill_gva_list(b_flist[s], start, end);
		break;
	case F_TEST:
		b_fret[s] = kbench_flush_space(start, end);
		break;
	case F_COUNT:
		break;
	}
}

/* As b_measure(): warm-up, zero, 1 call + dump, @reps calls + dump. */
static void b_fmeasure(enum b_fside s, const struct b_flush *f,
		       unsigned int reps)
{
	uint64_t end = B_FLUSH_START + f->pages * 4096u;
	unsigned int r;

	b_fcall(s, B_FLUSH_START, end);
	CALLGRIND_ZERO_STATS;
	b_fcall(s, B_FLUSH_START, end);
	CALLGRIND_DUMP_STATS_AT(b_dump_label(b_fside_name[s], f->name, 1));
	for (r = 0; r < reps; r++)
		b_fcall(s, B_FLUSH_START, end);
	CALLGRIND_DUMP_STATS_AT(b_dump_label(b_fside_name[s], f->name, reps));
}

/*
 * The real hyperv_flush_tlb_multi() (tests/kernel_ref/kflush_mmu.c: mmu.c
 * as hyperv_setup_mmu_ops() installs it), non-Ex: 4 CPUs, VP = CPU, a
 * flush of CPUs 1 and 2 (a processor mask, not "all"), with an mm.  Its
 * input page has a guard after it: Linux may write one entry past it.
 */
static uint64_t b_fpage[512 + B_FLUSH_GUARD] __attribute__((aligned(4096)));
static struct cpumask b_fcpus, b_fpresent;
static uint32_t b_fvp[4] = { 0, 1, 2, 3 };

static bool b_flush_env(void)
{
	struct kref_env e;
	uint32_t c;

	memset(&b_fcpus, 0, sizeof(b_fcpus));
	memset(&b_fpresent, 0, sizeof(b_fpresent));
	for (c = 0; c < 4; c++)
		b_set_bit(b_fpresent.bits, c);
	b_set_bit(b_fcpus.bits, 1);
	b_set_bit(b_fcpus.bits, 2);
	memset(&e, 0, sizeof(e));
	e.nr_cpu_ids = 4;
	e.vp_index = b_fvp;
	e.max_vp_index = 3;
	e.ex_hint = true;
	e.present = &b_fpresent;
	e.online = &b_fpresent;
	e.input_page = b_fpage;
	e.self = 0;
	return kflush_setup(&e);
}

/*
 * Outside the measurement: every side did what the row says, and the
 * Linux wrappers did what the real hyperv_flush_tlb_multi() does on the
 * same range: the same choice (whole space or list), the same entries.
 * hvipi lists ceil(pages / 4096) entries when that is at most 509, else
 * 0; its list and Linux's are the same words whenever it lists.  *@lnx_n:
 * the entries Linux wrote (0 for the whole space); *@lnx_call its call.
 */
static bool b_flush_check(const struct b_flush *f, bool space,
			  uint32_t *lnx_n, const char **lnx_call)
{
	uint64_t end = B_FLUSH_START + f->pages * 4096u;
	uint64_t want_n = (f->pages + 4095u) / 4096u;
	uint32_t hv_n = want_n <= KBENCH_FLUSH_CAPACITY ? (uint32_t)want_n : 0;
	struct kflush_call k;
	uint32_t code, reps;

	if (b_fret[F_CORE] != hv_n || b_fret[F_KCORE] != hv_n ||
	    memcmp(b_flist[F_CORE], b_flist[F_KCORE], hv_n * 8u) != 0) {
		fprintf(stderr, "bench: %s: hvipi listed %" PRId64 " / %" PRId64 " entries, expected %u\n",
			f->name, b_fret[F_CORE], b_fret[F_KCORE], hv_n);
		return false;
	}
	if (b_fret[F_TEST] != space ||
	    (!space && (b_fret[F_FILL] != (int64_t)want_n ||
			(hv_n && memcmp(b_flist[F_FILL], b_flist[F_CORE], hv_n * 8u) != 0)))) {
		fprintf(stderr, "bench: %s: Linux's wrappers: space %" PRId64 ", fill %" PRId64 " (want %" PRIu64 " entries)\n",
			f->name, b_fret[F_TEST], b_fret[F_FILL], want_n);
		return false;
	}
	memset(b_fpage, 0, sizeof(b_fpage));
	kflush_multi(&b_fcpus, true, B_FLUSH_START, end, &k);
	code = (uint32_t)(k.control & 0xffffu);
	reps = (uint32_t)((k.control >> 32) & 0xfffu);
	if (k.nr_native || k.nr_hcalls != 1 ||
	    code != (space ? KFLUSH_SPACE : KFLUSH_LIST) ||
	    reps != (space ? 0 : want_n) ||
	    (!space && memcmp(b_fpage + 3, b_flist[F_FILL], want_n * 8u) != 0)) {
		fprintf(stderr, "bench: %s: the real hyperv_flush_tlb_multi() does not do what the wrappers say (code %#x, reps %u)\n",
			f->name, code, reps);
		return false;
	}
	*lnx_n = space ? 0 : (uint32_t)want_n;
	*lnx_call = space ? "space" : 3u + want_n > 512u ? "list>page" : "list";
	return true;
}

/*
 * Every flush row (or @only); measured unless @measure is false.  Writes
 * one "@flush" line per row to @meta.
 */
static bool b_flush_all(FILE *meta, const char *only, unsigned int reps,
			bool measure, bool *found)
{
	bool ok = true;
	unsigned int i;
	int s;

	if (kbench_max_gvas() != KBENCH_FLUSH_CAPACITY) {
		fprintf(stderr, "bench: mmu.c's non-Ex max_gvas is %u, not %u\n",
			kbench_max_gvas(), KBENCH_FLUSH_CAPACITY);
		return false;
	}
	if (meta)
		fprintf(meta, "# @flush\trange\tpages\tcapacity\thvipi_entries\tkernel_entries\tkernel_call\n");
	for (i = 0; i < B_NR_FLUSHES; i++) {
		const struct b_flush *f = &flushes[i];
		uint64_t end = B_FLUSH_START + f->pages * 4096u;
		const char *lnx_call = "?";
		uint32_t lnx_n = 0;
		bool space;

		if (only && strcmp(only, f->name))
			continue;
		*found = true;
		memset(b_flist, 0, sizeof(b_flist));
		memset(b_fret, 0xff, sizeof(b_fret));
		/* Linux's choice, to know whether it calls fill_gva_list() */
		space = kbench_flush_space(B_FLUSH_START, end);
		for (s = 0; s < F_COUNT; s++) {
			if (s == F_FILL && space)
				continue;	/* Linux does not call it */
			if (measure)
				b_fmeasure((enum b_fside)s, f, reps);
			else
				b_fcall((enum b_fside)s, B_FLUSH_START, end);
		}
		if (!b_flush_env()) {
			fprintf(stderr, "bench: hyperv_setup_mmu_ops() did not install hyperv_flush_tlb_multi\n");
			return false;
		}
		if (!b_flush_check(f, space, &lnx_n, &lnx_call)) {
			ok = false;
			continue;
		}
		if (meta)
			fprintf(meta, "@flush\t%s\t%" PRIu64 "\t%u\t%" PRId64 "\t%u\t%s\n",
				f->name, f->pages, KBENCH_FLUSH_CAPACITY,
				b_fret[F_CORE], lnx_n, lnx_call);
	}
	return ok;
}

/* ---- the flush planner rows: a whole remote TLB flush ---- */

/*
 * hvipi's remote TLB flush against Linux 6.1's hyperv_flush_tlb_multi(),
 * from the op down, on 4096 CPUs (VP = CPU, every CPU present), a flush
 * of @cpus CPUs (CPU 1 alone; CPUs 0 .. cpus - 1 else, so the 4096 row is
 * "every present CPU") in one address space (an mm), of @pages pages from
 * B_FLUSH_START.  Three sides, counted as the IPI sides (b_pmeasure):
 *   fplan-core    hvipi_plan_flush() alone, the userspace build;
 *   fplan-glue    the module's flush op hvipi_ctx_flush_tlb_multi()
 *                 (kernel-glue/hvipi_flush.c: interrupts off, the page,
 *                 the planner as the module builds it, the rep-call loop),
 *                 the hypercall excluded;
 *   fplan-kernel  pv_ops.mmu.flush_tlb_multi() as mmu.c installs it, the
 *                 real hyperv_flush_tlb_multi(), the hypercall excluded.
 * The glue's op takes the address space and options that the in-tree
 * drop-in hv_hvipi_flush_tlb_multi() derives from struct flush_tlb_info
 * (kernel-glue/intree); that derivation is not counted (bench/README.md).
 */
struct b_fplan {
	const char *name;
	uint32_t cpus;
	uint64_t pages;
};

/* More pages than any input page lists: 510 entries of 4096 pages; the
 * whole space on both sides, Ex or not. */
#define B_OVERCAP	(510ull * 4096)

static const struct b_fplan fplans[] = {
	{ "flush-1cpu-1page", 1, 1 },
	{ "flush-1cpu-33pages", 1, 33 },
	{ "flush-1cpu-overcap", 1, B_OVERCAP },
	{ "flush-64cpu-1page", 64, 1 },
	{ "flush-64cpu-33pages", 64, 33 },
	{ "flush-64cpu-overcap", 64, B_OVERCAP },
	/* a full non-Ex list: 509 entries of 4096 pages */
	{ "flush-64cpu-509entries", 64, 509ull * 4096 },
	{ "flush-1024cpu-1page", 1024, 1 },
	{ "flush-1024cpu-33pages", 1024, 33 },
	{ "flush-1024cpu-overcap", 1024, B_OVERCAP },
	{ "flush-4096cpu-1page", 4096, 1 },
	{ "flush-4096cpu-33pages", 4096, 33 },
	{ "flush-4096cpu-overcap", 4096, B_OVERCAP },
};
#define B_NR_FPLANS	(sizeof(fplans) / sizeof(fplans[0]))
#define B_FPLAN_NR	4096u
#define B_FPLAN_GPA	0x100000ull	/* where the receiver model maps a page */
#define B_FPLAN_HINTS	(HVIPI_HINT_REMOTE_FLUSH | HVIPI_HINT_EX_MASKS)

enum b_pside { P_CORE, P_GLUE, P_KERNEL, P_COUNT };
static const char *const b_pside_name[P_COUNT] = {
	"fplan-core", "fplan-glue", "fplan-kernel"
};

static struct cpumask b_pcpus, b_ppresent;
static uint32_t b_pvp[B_FPLAN_NR];
static uint64_t b_pspace;			/* the mm's address space */
static struct hvipi_flush_plan b_pplan;
static struct kflush_call b_pk;
static unsigned int b_pcalls[P_COUNT];
static _Alignas(4096) uint64_t pc_page[B_PAGE_SIZE / 8];	/* core */
static _Alignas(4096) uint64_t pg_page[B_PAGE_SIZE / 8];	/* glue */
/* Linux's, with a guard: it may write one entry past its page */
static _Alignas(4096) uint64_t pk_page[B_PAGE_SIZE / 8 + B_FLUSH_GUARD];

static void b_pcall(enum b_pside s, const struct b_fplan *f)
{
	uint64_t end = B_FLUSH_START + f->pages * 4096u;

	b_pcalls[s]++;
	switch (s) {
	case P_CORE:
		hvipi_plan_flush(&b_pplan, b_pcpus.bits, b_ppresent.bits,
				 B_FPLAN_NR, b_pvp, B_FPLAN_NR, b_pspace,
				 B_FLUSH_START, end, 0, B_FPLAN_HINTS, pc_page,
				 B_PAGE_SIZE);
		break;
	case P_GLUE:
		kbench_glue_flush(&b_pcpus, b_pspace, B_FLUSH_START, end, 0);
		break;
	case P_KERNEL:
		kflush_multi(&b_pcpus, true, B_FLUSH_START, end, &b_pk);
		break;
	case P_COUNT:
		break;
	}
}

/* As b_measure(): warm-up, zero, 1 call + dump, @reps calls + dump. */
static void b_pmeasure(enum b_pside s, const struct b_fplan *f,
		       unsigned int reps)
{
	unsigned int r;

	b_pcall(s, f);
	CALLGRIND_ZERO_STATS;
	b_pcall(s, f);
	CALLGRIND_DUMP_STATS_AT(b_dump_label(b_pside_name[s], f->name, 1));
	for (r = 0; r < reps; r++)
		b_pcall(s, f);
	CALLGRIND_DUMP_STATS_AT(b_dump_label(b_pside_name[s], f->name, reps));
}

/* The call a control word names (its code), for the meta file. */
static const char *b_fcall_name(uint64_t control)
{
	switch (control & 0xffffu) {
	case KFLUSH_SPACE:
		return "space";
	case KFLUSH_LIST:
		return "list";
	case KFLUSH_SPACE_EX:
		return "space-ex";
	case KFLUSH_LIST_EX:
		return "list-ex";
	default:
		return "?";
	}
}

/* The receiver model's reading (TLFS rules) of one side's call. */
static bool b_pdecode(const struct b_fplan *f, const char *side,
		      const uint64_t *page, uint64_t control,
		      struct rxf_result *r)
{
	static uint64_t part[RX_VP_WORDS];
	struct rxf_call c;

	memset(part, 0xff, B_FPLAN_NR / 8u);	/* VPs 0 .. 4095 */
	memset(&c, 0, sizeof(c));
	c.control = control;
	c.rdx = B_FPLAN_GPA;
	c.mem = (const uint8_t *)page;
	c.mem_len = B_PAGE_SIZE;
	c.mem_gpa = B_FPLAN_GPA;
	c.vps = part;
	c.hints = RXF_HINT_REMOTE_FLUSH | RXF_HINT_EX;
	c.rules = RXF_TLFS;
	if (rxf_decode(&c, r) != RX_ST_SUCCESS || r->ud || r->empty_set) {
		fprintf(stderr, "bench: %s: %s: the receiver model refuses the call: %s\n",
			f->name, side, r->why);
		return false;
	}
	return true;
}

/*
 * Outside the measurement: the glue issued exactly the core's call, one
 * per flush, and never fell back; Linux made one hypercall per flush and
 * no native flush; the receiver model reads both calls as the same work:
 * the same VPs (every VP through ALL_PROCESSORS on the 4096 row, else
 * exactly the target CPUs' VPs), the same address space and flags, the
 * same choice of list or whole space, and every page of the range
 * flushed.  *@hv_b, *@lnx_b: the input bytes each call needs.
 */
static bool b_pcheck(const struct b_fplan *f, uint32_t *hv_b, uint32_t *lnx_b)
{
	static struct rxf_result hr, lr;
	const struct hvipi_flush_plan *p = &b_pplan;
	uint64_t pg, first = B_FLUSH_START / 4096u;
	struct kbench_hcall h;
	uint32_t cpu;

	if (!HVIPI_FLUSH_CALL(p)) {
		fprintf(stderr, "bench: %s: hvipi planned no call (kind %u, reason %u)\n",
			f->name, p->kind, p->reason);
		return false;
	}
	kbench_glue_last(&h);
	if (h.nr_native || h.calls != b_pcalls[P_GLUE] ||
	    h.rcx != p->control ||
	    h.rdx != (uint64_t)(uintptr_t)pg_page ||
	    memcmp(pg_page, pc_page, p->bytes) != 0) {
		fprintf(stderr, "bench: %s: the glue did not issue the call the core plans (%" PRIu64 " calls, %u native)\n",
			f->name, h.calls, h.nr_native);
		return false;
	}
	if (kref_rec.nr_native || b_pk.nr_native || b_pk.nr_hcalls != 1) {
		fprintf(stderr, "bench: %s: Linux: %u hypercalls, a native flush %u\n",
			f->name, b_pk.nr_hcalls, b_pk.nr_native);
		return false;
	}
	if (!b_pdecode(f, "hvipi", pc_page, p->control, &hr) ||
	    !b_pdecode(f, "linux", pk_page, b_pk.control, &lr))
		return false;
	if (hr.bytes != p->bytes) {
		fprintf(stderr, "bench: %s: the model reads %zu bytes, the plan says %u\n",
			f->name, hr.bytes, p->bytes);
		return false;
	}
	if (hr.all != (f->cpus == B_FPLAN_NR) || lr.all != hr.all ||
	    (!hr.all && (hr.nr_vps != f->cpus || lr.nr_vps != f->cpus))) {
		fprintf(stderr, "bench: %s: VPs flushed: hvipi %u%s, Linux %u%s\n",
			f->name, hr.nr_vps, hr.all ? " (all)" : "", lr.nr_vps,
			lr.all ? " (all)" : "");
		return false;
	}
	for (cpu = 0; !hr.all && cpu < B_FPLAN_NR; cpu++) {
		bool t = b_test_bit(b_pcpus.bits, cpu);

		if (rxf_vp_test(&hr, b_pvp[cpu]) != t ||
		    rxf_vp_test(&lr, b_pvp[cpu]) != t) {
			fprintf(stderr, "bench: %s: VP %u flushed or not\n",
				f->name, b_pvp[cpu]);
			return false;
		}
	}
	if (hr.address_space != b_pspace || lr.address_space != b_pspace ||
	    hr.flags != lr.flags || hr.whole_space != lr.whole_space) {
		fprintf(stderr, "bench: %s: address space, flags or list/space differ\n",
			f->name);
		return false;
	}
	for (pg = first; pg < first + f->pages; pg++)
		if (!rxf_page_flushed(&hr, pg) || !rxf_page_flushed(&lr, pg)) {
			fprintf(stderr, "bench: %s: page %#" PRIx64 " not flushed\n",
				f->name, pg);
			return false;
		}
	*hv_b = p->bytes;
	*lnx_b = (uint32_t)lr.bytes;
	return true;
}

/*
 * Every flush planner row (or @only); measured unless @measure is false.
 * Writes one "@fplan" line per row to @meta.
 */
static bool b_fplan_all(FILE *meta, const char *only, unsigned int reps,
			bool measure, bool *found)
{
	struct kbench_glue_env ge;
	struct kref_env e;
	bool ok = true;
	unsigned int i;
	uint32_t c;
	int s;

	if (meta)
		fprintf(meta, "# @fplan\tworkload\tcpus\tpages\thvipi_call\thvipi_input_bytes\tkernel_call\tkernel_input_bytes\n");
	for (c = 0; c < B_FPLAN_NR; c++)
		b_pvp[c] = c;
	memset(&b_ppresent, 0, sizeof(b_ppresent));
	for (c = 0; c < B_FPLAN_NR; c++)
		b_set_bit(b_ppresent.bits, c);
	for (i = 0; i < B_NR_FPLANS; i++) {
		const struct b_fplan *f = &fplans[i];
		uint32_t hv_b = 0, lnx_b = 0;

		if (only && strcmp(only, f->name))
			continue;
		*found = true;
		memset(&b_pcpus, 0, sizeof(b_pcpus));
		if (f->cpus == 1)
			b_set_bit(b_pcpus.bits, 1);
		else
			for (c = 0; c < f->cpus; c++)
				b_set_bit(b_pcpus.bits, c);
		memset(&e, 0, sizeof(e));
		e.nr_cpu_ids = B_FPLAN_NR;
		e.vp_index = b_pvp;
		e.max_vp_index = B_FPLAN_NR - 1;
		e.ex_hint = true;
		e.present = &b_ppresent;
		e.online = &b_ppresent;
		e.input_page = pk_page;
		e.self = 0;
		if (!kflush_setup(&e)) {
			fprintf(stderr, "bench: hyperv_setup_mmu_ops() did not install hyperv_flush_tlb_multi\n");
			return false;
		}
		b_pspace = kflush_mm_space();
		memset(pc_page, 0, sizeof(pc_page));
		memset(pg_page, 0, sizeof(pg_page));
		memset(pk_page, 0, sizeof(pk_page));
		memset(b_pcalls, 0, sizeof(b_pcalls));
		/* the core's plan first: its rep count is the status the
		 * glue's hypercalls return (every rep done) */
		b_pcall(P_CORE, f);
		memset(&ge, 0, sizeof(ge));
		ge.nr_cpu_ids = B_FPLAN_NR;
		ge.vp_index = b_pvp;
		ge.vp_ident = B_FPLAN_NR;
		ge.present = &b_ppresent;
		ge.hints = B_FPLAN_HINTS;
		ge.input_page = pg_page;
		ge.page_size = B_PAGE_SIZE;
		ge.self = 0;
		kbench_flush_set(&ge, (uint64_t)b_pplan.gvas << 32);
		for (s = 0; s < P_COUNT; s++) {
			if (measure)
				b_pmeasure((enum b_pside)s, f, reps);
			else
				b_pcall((enum b_pside)s, f);
		}
		if (!b_pcheck(f, &hv_b, &lnx_b)) {
			ok = false;
			continue;
		}
		if (meta)
			fprintf(meta, "@fplan\t%s\t%u\t%" PRIu64 "\t%s\t%u\t%s\t%u\n",
				f->name, f->cpus, f->pages,
				b_fcall_name(b_pplan.control), hv_b,
				b_fcall_name(b_pk.control), lnx_b);
	}
	return ok;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench [--reps N] [--meta FILE] [--only WORKLOAD]\n"
		"             [--side hvipi|ref|glue|kernel|all] [--profile] [--list]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *meta_path = NULL, *only = NULL, *side = "all";
	unsigned int reps = 10, i;
	int measured = -1;	/* the side measured, or -1 for all */
	bool profile = false, ok = true, found = false;
	FILE *meta = NULL;
	int a, s;

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
			for (i = 0; i < B_NR_FLUSHES; i++)
				printf("%s\n", flushes[i].name);
			for (i = 0; i < B_NR_FPLANS; i++)
				printf("%s\n", fplans[i].name);
			return 0;
		} else
			usage();
	}
	for (s = 0; s < S_COUNT; s++)
		if (!strcmp(side, b_side_name[s]))
			measured = s;
	if (reps == 0 || (measured < 0 && strcmp(side, "all") &&
			  strcmp(side, "both")))
		usage();
	/* A profile is the exit dump of one call of one side. */
	if (profile && (!only || measured < 0))
		usage();
	if (!RUNNING_ON_VALGRIND)
		fprintf(stderr, "bench: not under callgrind: checking only, no counts\n");
	kbench_init();
	if (meta_path) {
		meta = fopen(meta_path, "w");
		if (!meta) {
			perror(meta_path);
			return 2;
		}
		fprintf(meta, "#package\t%s\n", KREF_PKG_VERSION);
		fprintf(meta, "# workload\thvipi_call\thvipi_input_bytes\treference_call\treference_input_bytes\tglue_call\tglue_input_bytes\tkernel_call\tkernel_input_bytes\ttarget_vps\tbig_broadcast\n");
	}

	for (i = 0; i < B_NR_WORKLOADS; i++) {
		const struct b_workload *w = &workloads[i];
		struct b_sent sent;
		uint32_t nvps = 0;

		if (only && strcmp(only, w->name))
			continue;
		found = true;
		b_setup(w);
		memset(hv_page, 0, sizeof(hv_page));
		memset(lr_page, 0, sizeof(lr_page));
		memset(kg_page, 0, sizeof(kg_page));
		memset(kl_page, 0, sizeof(kl_page));
		memset(b_calls, 0, sizeof(b_calls));
		if (!b_kernel_env(w)) {
			fprintf(stderr, "bench: %s: hv_apic_init() did not install the IPI ops\n",
				w->name);
			ok = false;
			continue;
		}
		b_glue_env(w);
		/* Every side runs for the check; only the chosen ones are timed. */
		for (s = 0; s < S_COUNT; s++) {
			if (measured < 0 || measured == s)
				b_measure((enum b_side)s, w, reps, profile);
			else
				b_call((enum b_side)s, w);
		}
		if (!b_check(w, &nvps, &sent)) {
			ok = false;
			continue;
		}
		if (meta)
			fprintf(meta, "%s\t%s\t%u\t%s\t%u\t%s\t%u\t%s\t%u\t%u\t%d\n",
				w->name,
				b_call_name(sent.kind[S_HVIPI]), sent.bytes[S_HVIPI],
				b_call_name(sent.kind[S_REF]), sent.bytes[S_REF],
				b_call_name(sent.kind[S_GLUE]), sent.bytes[S_GLUE],
				b_call_name(sent.kind[S_KERNEL]), sent.bytes[S_KERNEL],
				nvps, w->big_broadcast);
	}
	/* The flush rows, after the IPI ones (kflush_setup() resets the
	 * kernel_ref environment); not with a profile (IPI sides only). */
	if (!profile && !b_flush_all(meta, only, reps, measured < 0, &found))
		ok = false;
	/* Then the flush planner rows (kflush_setup() per row). */
	if (!profile && !b_fplan_all(meta, only, reps, measured < 0, &found))
		ok = false;
	if (meta && fclose(meta)) {
		perror(meta_path);
		return 2;
	}
	if (!found) {
		fprintf(stderr, "bench: no workload named %s\n", only);
		return 2;
	}
	if (!ok) {
		fprintf(stderr, "bench: the sides do not do the same work; no comparison\n");
		return 1;
	}
	return 0;
}
