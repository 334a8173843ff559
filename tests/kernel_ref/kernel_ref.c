/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref: hvipi against the real Linux guest code.  Linux 6.1's
 * arch/x86/hyperv/hv_apic.c and include/asm-generic/mshyperv.h, from
 * Debian's linux-source-6.1 package (extracted into the build directory by
 * extract.sh, compiled unchanged against shim/), are called through the
 * apic ops that their hv_apic_init() installs, on the same random cases as
 * hvipi_plan_mask() / hvipi_plan_one():
 *
 *   form              Linux op                      hvipi
 *   mask              apic->send_IPI_mask           plan_mask(mask)
 *   mask-allbutself   apic->send_IPI_mask_allbutself plan_mask(mask, self out)
 *   allbutself        apic->send_IPI_allbutself     plan_mask(online, self out)
 *   all               apic->send_IPI_all            plan_mask(online)
 *   one               apic->send_IPI(cpu)           plan_one(cpu)
 *   self              apic->send_IPI_self           plan_one(self)
 *
 * The hypercalls Linux makes and the native APIC ops it falls back to are
 * recorded (kref_env.c).  Both sides' hypercalls are decoded by the
 * receiver model (KVM's rules); each must interrupt exactly the target
 * set (or all VPs, for the "all" format when its rule holds), with the
 * case's vector, and whenever both send, the two VP sets must be equal
 * unless one side uses "all".  Every other difference is counted in the
 * classes of tests/random's comparison with tests/linux_ref (struct
 * ck_stats, printed by ck_print_linux()); a Linux fallback must be put
 * down to one of the linux_ref reasons (LR_WHY_*) by the marks the shims
 * leave (struct kref_rec) and the case's inputs, else the case fails.
 * hvipi's plan is also checked against the oracle (kind and reason).
 *
 * Inputs are kept to what a kernel can pass: nr_cpu_ids 1..4096, the
 * sending CPU below nr_cpu_ids, a 4 KiB input page or none (for both),
 * VPs below 2^31 or VP_INVAL (6.1 keeps VPs in an int: a VP of 2^31 or
 * more would be a negative bit number).
 *
 * Usage: kernel_ref [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gen.h"
#include "hvipi.h"
#include "kref.h"
#include "kref_version.h"
#include "rx.h"

#define NR_MAX		4096u
#define PAGE_BYTES	4096u
#define CHECK_LEN	1024u	/* page bytes filled and checked (Ex input <= 536) */

enum form {
	F_MASK, F_MASK_ALLBUTSELF, F_ALLBUTSELF, F_ALL, F_ONE, F_SELF, F_COUNT
};

static const char *const form_name[F_COUNT] = {
	"mask", "mask-allbutself", "allbutself", "all", "one", "self"
};

/* One send. */
struct kcase {
	enum form form;
	uint32_t nr;
	uint32_t *vp;
	uint32_t max_vp;
	uint32_t self;
	uint32_t cpu;			/* one, self: the target CPU */
	const unsigned long *mask;	/* the mask sent (online for all forms) */
	const unsigned long *present;	/* Linux's cpu_present_mask */
	const unsigned long *hv_present;/* hvipi's: present or NULL */
	const unsigned long *tmask;	/* the target mask: mask, or {cpu} */
	bool excl;
	uint32_t vector;
	uint32_t hints;
	bool page;
	uint64_t status;
};

/* Counts beyond struct ck_stats. */
struct kstats {
	uint64_t form[F_COUNT];
	uint64_t lr_why[LR_WHY_COUNT];	/* every Linux fallback, by reason */
	uint64_t empty_native;		/* no target, ops not installed: native op */
	uint64_t hcall_failed;		/* failed hypercall, then the native op */
	uint64_t native_other_op;	/* fell back through another op, same set */
	uint64_t lr_all;		/* Linux sent the "all" format */
};

static unsigned int reports, max_reports = 10;
static uint64_t hv_page[PAGE_BYTES / 8];
static uint64_t lr_page[PAGE_BYTES / 8];
static struct or_sets sets;

/* nr_cpu_ids: 35 % 1..64, 30 % 65..512, 35 % 513..4096 */
static const struct gen_nr_mix nr_mix = {
	{ 35, 65, 100 }, { 64, 512, NR_MAX }
};
/*
 * VP tables: identity, permuted, strided, sparse-high (all >= 64), random,
 * identity with local swaps; then, beside gen_table()'s unknown, huge and
 * high VPs, one table in 20 with an unknown VP on the last CPU.
 */
static const struct gen_table_mix table_mix = {
	.identity = 25, .permuted = 45, .strided = 60, .high = 72, .random = 85,
	.fit = false, .huge_in = 10
};

static void make_table(uint32_t *vp, uint32_t nr)
{
	gen_table(vp, nr, 4096u, &table_mix);
	if (gen_below(20) == 0)
		vp[nr - 1] = GEN_INVAL;
}

static bool masks_equal(const unsigned long *a, const unsigned long *b,
			uint32_t nr)
{
	uint32_t c;

	for (c = 0; c < nr; c++)
		if (gen_test_bit(a, c) != gen_test_bit(b, c))
			return false;
	return true;
}

static bool is_target(const struct kcase *k, uint32_t c)
{
	return c < k->nr && gen_test_bit(k->tmask, c) && !(k->excl && c == k->self);
}

static bool vector_ok(const struct kcase *k)
{
	return (int)k->vector >= kref_ipi_low_vector &&
	       (int)k->vector <= kref_ipi_high_vector;
}

static void report(const struct kcase *k, const char *what,
		   const struct hvipi_plan *p)
{
	if (reports++ >= max_reports)
		return;
	fprintf(stderr, "FAIL: %s\n  form=%s nr=%u self=%u cpu=%u excl=%d vector=%#x hints=%#x page=%s status=%#" PRIx64 " hv_present=%s max_vp=%#x\n",
		what, form_name[k->form], k->nr, k->self, k->cpu, k->excl,
		k->vector, k->hints, k->page ? "4096" : "NULL", k->status,
		k->hv_present ? "yes" : "NULL", k->max_vp);
	ck_print_targets(k->tmask, k->present, k->nr, k->vp);
	if (p)
		fprintf(stderr, "  hvipi: kind=%u reason=%u control=%#" PRIx64 " banks=%u bytes=%u\n",
			p->kind, p->reason, p->control, p->banks, p->bytes);
	fprintf(stderr, "  linux: hcalls=%u control=%#" PRIx64 " fast=%d bytes=%u native=%u op=%d marks: trace=%u/%u last=%u irq=%u equal=%u iters=%u@irq%u@eq%u cpu=%d\n",
		kref_rec.nr_hcalls, kref_rec.control, kref_rec.fast,
		kref_rec.bytes, kref_rec.nr_native, kref_rec.op,
		kref_rec.trace_mask, kref_rec.trace_one, kref_rec.last_look,
		kref_rec.irq_save, kref_rec.equal, kref_rec.iters,
		kref_rec.iters_at_irq, kref_rec.iters_at_equal,
		kref_rec.iter_cpu);
}

/*
 * Why 6.1 fell back without a hypercall, from the marks and the inputs:
 * the LR_WHY_* reason, or 0 when nothing explains it.  The order is
 * hv_apic.c's: hv_apic_init() installs the ops only with the cluster
 * hint; __send_ipi_one() checks the VP, then the vector; __send_ipi_mask()
 * checks the vector, looks at the last CPU's VP (cpumask_last), then walks
 * the mask (for_each_cpu) until an unknown VP (fallback) or a VP >= 64
 * (Ex); __send_ipi_mask_ex() checks the EX hint (then local_irq_save), the
 * input page (then cpumask_equal), then __cpumask_to_vpset() gives up on
 * hv_max_vp_index / 64 >= 64 before its walk, or on an unknown VP in it.
 */
static bool hint_ex(const struct kcase *k)
{
	return k->hints & HVIPI_HINT_EX_MASKS;
}

/* A VP >= 64 as 6.1 reads it, in an int: VP_INVAL is -1 there. */
static bool vp_ge64(uint32_t v)
{
	return v != kref_vp_inval && v >= 64u;
}

/* The highest CPU of the target mask below nr_cpu_ids (self included). */
static uint32_t last_cpu(const struct kcase *k)
{
	uint32_t c = k->nr;

	while (c-- > 0)
		if (gen_test_bit(k->tmask, c))
			return c;
	return k->nr;
}

/* __send_ipi_mask_ex(), entered: why it gave up. */
static uint32_t ex_why(const struct kcase *k)
{
	const struct kref_rec *r = &kref_rec;
	int c = r->iter_cpu;

	if (!r->irq_save)
		return hint_ex(k) ? 0 : LR_WHY_NO_EX;
	if (!r->equal)
		return k->page ? 0 : LR_WHY_NO_PAGE;
	if (r->iters == r->iters_at_equal)	/* no walk: the range check */
		return k->max_vp / 64u >= 64u ? LR_WHY_RANGE : 0;
	/* __cpumask_to_vpset()'s walk stopped at CPU c */
	return c >= 0 && is_target(k, (uint32_t)c) && k->vp[c] == kref_vp_inval ?
	       LR_WHY_VP_INVAL : 0;
}

static uint32_t linux_why(const struct kcase *k, bool installed)
{
	const struct kref_rec *r = &kref_rec;
	int c = r->iter_cpu;

	if (!installed)
		return k->hints & HVIPI_HINT_CLUSTER_IPI ? 0 : LR_WHY_NO_HINT;
	if (k->form == F_ONE || k->form == F_SELF) {
		if (!r->trace_one)
			return 0;
		if (k->vp[k->cpu] == kref_vp_inval)
			return LR_WHY_VP_INVAL;
		if (!vector_ok(k))
			return LR_WHY_VECTOR;
		return vp_ge64(k->vp[k->cpu]) ? ex_why(k) : 0;
	}
	if (!r->trace_mask)
		return 0;
	if (!r->last_look)
		return vector_ok(k) ? 0 : LR_WHY_VECTOR;
	if (!vector_ok(k))
		return 0;
	if (r->irq_save)
		return ex_why(k);
	if (r->iters == 0)	/* the last-CPU look went to Ex */
		return vp_ge64(k->vp[last_cpu(k)]) ? ex_why(k) : 0;
	/* the fast walk stopped at CPU c */
	if (c < 0 || !is_target(k, (uint32_t)c))
		return 0;
	if (k->vp[c] == kref_vp_inval)
		return LR_WHY_VP_INVAL;
	return vp_ge64(k->vp[c]) ? ex_why(k) : 0;
}

static enum kref_op form_op(enum form f)
{
	static const enum kref_op op[F_COUNT] = {
		KREF_OP_MASK, KREF_OP_MASK_ALLBUTSELF, KREF_OP_ALLBUTSELF,
		KREF_OP_ALL, KREF_OP_IPI, KREF_OP_SELF
	};

	return op[f];
}

/* Is CPU c a target of the native op @op (called with @m, @cpu)? */
static bool op_targets(const struct kcase *k, enum kref_op op,
		       const unsigned long *m, int cpu, uint32_t c)
{
	switch (op) {
	case KREF_OP_IPI:
		return cpu >= 0 && c == (uint32_t)cpu;
	case KREF_OP_SELF:
		return c == k->self;
	case KREF_OP_MASK:
		return m && gen_test_bit(m, c);
	case KREF_OP_MASK_ALLBUTSELF:
		return m && gen_test_bit(m, c) && c != k->self;
	case KREF_OP_ALLBUTSELF:	/* cpu_online_mask */
		return gen_test_bit(k->mask, c) && c != k->self;
	case KREF_OP_ALL:
		return gen_test_bit(k->mask, c);
	default:
		return false;
	}
}

/* The native op Linux fell back to covers the form's CPUs, same vector. */
static bool native_ok(const struct kcase *k)
{
	const unsigned long *m = (const unsigned long *)kref_rec.op_mask;
	enum kref_op want = form_op(k->form);
	int want_cpu = k->form == F_ONE ? (int)k->cpu : -1;
	uint32_t c;

	if (kref_rec.op_vector != (int)k->vector)
		return false;
	for (c = 0; c < k->nr; c++)
		if (op_targets(k, kref_rec.op, m, kref_rec.op_cpu, c) !=
		    op_targets(k, want, k->mask, want_cpu, c))
			return false;
	return true;
}

/* The "all" format is Linux's rule: target == cpu_present_mask, self kept. */
static bool linux_all_ok(const struct kcase *k)
{
	return !k->excl && masks_equal(k->tmask, k->present, k->nr);
}

/* Decode hvipi's plan with the receiver model: the target set, the vector. */
static bool hv_decode(const struct kcase *k, const struct hvipi_plan *p,
		      struct rx_result *r)
{
	if (ck_decode_plan(r, p, hv_page, false) || !r->delivered ||
	    r->vector != k->vector)
		return false;
	return ck_rx_targets(r, p->kind, &sets);
}

/* Decode Linux's recorded hypercall the same way. */
static bool lr_decode(const struct kcase *k, struct rx_result *r)
{
	bool fast = kref_rec.fast;

	if (ck_decode(r, kref_rec.control, fast ? kref_rec.rdx : 0,
		      fast ? kref_rec.r8 : 0, NULL, fast ? NULL : kref_rec.input,
		      fast ? 0 : kref_rec.bytes, false) ||
	    !r->delivered || r->vector != k->vector)
		return false;
	return r->all ? linux_all_ok(k) : ck_same_set(r, &sets);
}

static void linux_send(const struct kcase *k)
{
	const struct cpumask *m = (const struct cpumask *)k->mask;

	switch (k->form) {
	case F_MASK:
		apic->send_IPI_mask(m, (int)k->vector);
		break;
	case F_MASK_ALLBUTSELF:
		apic->send_IPI_mask_allbutself(m, (int)k->vector);
		break;
	case F_ALLBUTSELF:
		apic->send_IPI_allbutself((int)k->vector);
		break;
	case F_ALL:
		apic->send_IPI_all((int)k->vector);
		break;
	case F_ONE:
		apic->send_IPI((int)k->cpu, (int)k->vector);
		break;
	default:
		apic->send_IPI_self((int)k->vector);
		break;
	}
}

static bool run_case(const struct kcase *k, struct ck_stats *st,
		     struct kstats *ks)
{
	bool one = k->form == F_ONE || k->form == F_SELF;
	uint32_t size = k->page ? PAGE_BYTES : 0, hk, lk, why = 0;
	bool installed, last_cpu_ex = false;
	struct rx_result hr, lr;
	struct hvipi_plan p;
	struct or_expect e;
	struct kref_env env;

	/* hvipi, as the glue calls it */
	or_sets(&sets, k->tmask, one ? NULL : k->hv_present, k->nr, k->vp,
		k->self, k->excl);
	or_expect(&e, &sets, k->vector, k->hints, k->page, size);
	ck_plan_glue(&p, one, k->cpu, k->mask, k->hv_present, k->nr, k->vp,
		     k->self, k->excl, k->vector, k->hints,
		     k->page ? hv_page : NULL, size, CHECK_LEN);
	st->cases++;
	ks->form[k->form]++;
	hk = p.kind;
	if (hk > HVIPI_PLAN_EX_XMM || p.reason > HVIPI_FB_NO_PAGE) {
		report(k, "hvipi: plan kind or reason out of range", &p);
		return false;
	}
	st->kind[hk]++;
	st->reason[p.reason]++;
	if (hk != e.kind || p.reason != e.reason) {
		report(k, "hvipi: kind/reason differs from the oracle", &p);
		return false;
	}
	memset(&hr, 0, sizeof(hr));
	if (ck_hv_sends(hk) && !hv_decode(k, &p, &hr)) {
		report(k, "hvipi: the receiver rejects the plan or reads another set", &p);
		return false;
	}

	/* Linux 6.1, through the ops hv_apic_init() installed */
	memset(&env, 0, sizeof(env));
	env.nr_cpu_ids = k->nr;
	env.vp_index = k->vp;
	env.max_vp_index = k->max_vp;
	env.cluster_hint = k->hints & HVIPI_HINT_CLUSTER_IPI;
	env.ex_hint = hint_ex(k);
	env.present = (const struct cpumask *)k->present;
	env.online = (const struct cpumask *)k->mask;
	env.input_page = k->page ? lr_page : NULL;
	env.self = (int)k->self;
	env.status = k->status;
	installed = kref_env_set(&env);
	if (k->page)
		memset(lr_page, CK_FILL, CHECK_LEN);
	memset(&kref_rec, 0, sizeof(kref_rec));
	kref_rec.iter_cpu = -1;
	linux_send(k);

	if (kref_rec.nr_hcalls > 1 || kref_rec.nr_native > 1 || kref_rec.warns) {
		report(k, "Linux: more than one hypercall or native call, or a warning", &p);
		return false;
	}
	if (kref_rec.nr_native) {
		if (!native_ok(k)) {
			report(k, "Linux: the native op got other CPUs or another vector", &p);
			return false;
		}
		if (kref_rec.op != form_op(k->form))
			ks->native_other_op++;
	}
	memset(&lr, 0, sizeof(lr));
	if (kref_rec.nr_hcalls) {
		if (!lr_decode(k, &lr)) {
			report(k, "Linux: the receiver rejects its call or reads another set", &p);
			if (reports <= max_reports)
				fprintf(stderr, "  rx: status=%u why=%s all=%d nr_vps=%u expected %u vector=%u\n",
					lr.status, lr.why, lr.all, lr.nr_vps,
					sets.nvps, lr.vector);
			return false;
		}
		lk = kref_rec.fast ? LR_FAST : lr.all ? LR_EX_ALL : LR_EX_SPARSE;
		if ((k->status & 0xffffu) != (kref_rec.nr_native ? k->status & 0xffffu : 0)) {
			report(k, "Linux: native op after a good hypercall, or none after a failed one", &p);
			return false;
		}
		if (kref_rec.nr_native)
			ks->hcall_failed++;
		ks->lr_all += lr.all;
	} else if (kref_rec.nr_native) {
		lk = LR_FALLBACK;
		why = linux_why(k, installed);
		if (!why) {
			report(k, "Linux: a fallback that no reason explains", &p);
			return false;
		}
		ks->lr_why[why]++;
	} else {
		lk = LR_NOOP;
	}
	if (!one && kref_rec.last_look &&
	    (kref_rec.irq_save ? kref_rec.iters_at_irq == 0 :
	     lk == LR_FALLBACK && why == LR_WHY_NO_EX && kref_rec.iters == 0))
		last_cpu_ex = true;

	/* the comparison, in the classes of tests/common/check.c */
	ck_count_linux(st, &p, lk, why, last_cpu_ex,
		       (lk == LR_EX_SPARSE || lk == LR_EX_ALL) &&
		       !ck_untouched(lr_page, kref_rec.bytes, CHECK_LEN));
	if ((hk == HVIPI_PLAN_NONE) != (lk == LR_NOOP)) {
		if (hk == HVIPI_PLAN_NONE && lk == LR_FALLBACK &&
		    why == LR_WHY_NO_HINT) {
			ks->empty_native++;
		} else {
			report(k, "hvipi and Linux disagree on a no-op", &p);
			return false;
		}
	}
	if (!ck_both_sent(st, &p, &hr, lk, &lr, kref_rec.bytes)) {
		report(k, "hvipi and Linux interrupt different VP sets", &p);
		return false;
	}
	return true;
}

static void make_case(struct kcase *k, unsigned long *mask,
		      unsigned long *present, unsigned long *onebit,
		      uint32_t *vp, uint32_t nr)
{
	uint32_t words = HVIPI_MASK_WORDS(nr), c, r;

	memset(k, 0, sizeof(*k));
	k->nr = nr;
	k->vp = vp;
	make_table(vp, nr);
	for (c = 0; c < nr; c++)
		if (vp[c] != GEN_INVAL && vp[c] > k->max_vp)
			k->max_vp = vp[c];
	k->self = gen_below(nr);
	gen_present(present, words, nr, gen_below(100), true);
	k->present = present;
	k->hv_present = gen_below(10) < 7 ? present : NULL;
	r = gen_below(100);
	k->form = r < 30 ? F_MASK : r < 55 ? F_MASK_ALLBUTSELF :
		  r < 65 ? F_ALLBUTSELF : r < 75 ? F_ALL : r < 95 ? F_ONE :
		  F_SELF;
	if ((k->form == F_ALL || k->form == F_ALLBUTSELF) && gen_below(2)) {
		memcpy(mask, present, words * sizeof(*mask));
	} else {	/* as tests/random; garbage beyond nr_cpu_ids */
		gen_mask(mask, words, nr, k->self, present, &gen_mask_mix_random);
		gen_garbage(mask, words, nr, 4);
	}
	k->mask = mask;
	k->excl = k->form == F_MASK_ALLBUTSELF || k->form == F_ALLBUTSELF;
	if (k->form == F_ONE || k->form == F_SELF) {
		k->cpu = k->form == F_SELF || gen_below(3) == 0 ? k->self :
			 gen_below(nr);
		memset(onebit, 0, words * sizeof(*onebit));
		gen_set_bit(onebit, k->cpu);
		k->tmask = onebit;
	} else {
		k->cpu = k->self;
		k->tmask = mask;
	}
	k->vector = gen_vector(&gen_vector_mix_random);
	k->hints = gen_hints();
	k->page = gen_below(10) != 0;
	if (gen_below(16) == 0) {			/* a failing hypercall */
		k->status = gen_below(2) ? 5u : gen_rnd();	/* 5: invalid parameter */
		if (!(k->status & 0xffffu))
			k->status |= 3u;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = gen_time_seed(), ncases = 100000, i;
	struct ck_stats st;
	struct kstats ks;
	clock_t t0 = clock();
	int w;

	gen_args(argc, argv, &seed, &ncases);
	printf("kernel_ref: Linux side: %s, arch/x86/hyperv/hv_apic.c and include/asm-generic/mshyperv.h compiled unchanged\n",
	       KREF_PKG_VERSION);
	gen_banner("kernel_ref", seed, ncases, NR_MAX);
	gen_state = seed;
	memset(&st, 0, sizeof(st));
	memset(&ks, 0, sizeof(ks));
	memset(&sets, 0, sizeof(sets));

	for (i = 0; i < ncases; i++) {
		uint32_t nr = gen_nr(&nr_mix), words = HVIPI_MASK_WORDS(nr);
		unsigned long *mask = gen_xmalloc(words * sizeof(*mask));
		unsigned long *present = gen_xmalloc(words * sizeof(*present));
		unsigned long *onebit = gen_xmalloc(words * sizeof(*onebit));
		uint32_t *vp = gen_xmalloc(nr * sizeof(*vp));
		struct kcase k;

		make_case(&k, mask, present, onebit, vp, nr);
		if (!run_case(&k, &st, &ks))
			st.failures++;
		free(mask);
		free(present);
		free(onebit);
		free(vp);
	}

	printf("kernel_ref: forms:");
	for (w = 0; w < F_COUNT; w++)
		printf(" %s=%" PRIu64, form_name[w], ks.form[w]);
	printf("\n");
	ck_print_kinds("kernel_ref", &st);
	printf("kernel_ref: the Linux columns below are the real code of %s (not tests/linux_ref)\n",
	       KREF_PKG_VERSION);
	ck_print_linux("kernel_ref", &st);
	printf("  Linux fallbacks without a hypercall, by reason:");
	for (w = 1; w < LR_WHY_COUNT; w++)
		printf(" %s=%" PRIu64, ck_lr_why_name(w), ks.lr_why[w]);
	printf("\n  Linux sent the \"all\" format: %" PRIu64 "\n", ks.lr_all);
	printf("  no target, no cluster hint (ops not installed): the native op called, hvipi NONE: %" PRIu64 "\n",
	       ks.empty_native);
	printf("  a failed hypercall, then the native op (Linux): %" PRIu64 "\n",
	       ks.hcall_failed);
	printf("  fell back through another native op than the form's, same CPUs (allbutself: send_IPI_mask_allbutself(cpu_online_mask)): %" PRIu64 "\n",
	       ks.native_other_op);
	printf("kernel_ref: %s, seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       KREF_PKG_VERSION, seed, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
