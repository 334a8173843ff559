/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kref_check: one send through Linux 6.1's hv_apic.c and its comparison
 * with hvipi's plan (kref_check.h); the kernel_ref and exhaustive suites.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "kref_check.h"
#include "linux_ref.h"

const char *const kref_form_name[KREF_F_COUNT] = {
	"mask", "mask-allbutself", "allbutself", "all", "one", "self"
};

unsigned int kref_reports, kref_max_reports = 10;

static uint64_t lr_page[KREF_PAGE_BYTES / 8];
static uint64_t model_page[KREF_PAGE_BYTES / 8];

uint32_t kref_max_vp(const uint32_t *vp, uint32_t nr)
{
	uint32_t c, max = 0;

	for (c = 0; c < nr; c++)
		if (vp[c] != kref_vp_inval && vp[c] > max)
			max = vp[c];
	return max;
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

static bool is_target(const struct kref_case *k, uint32_t c)
{
	return c < k->nr && gen_test_bit(k->tmask, c) && !(k->excl && c == k->self);
}

static bool vector_ok(const struct kref_case *k)
{
	return (int)k->vector >= kref_ipi_low_vector &&
	       (int)k->vector <= kref_ipi_high_vector;
}

void kref_report(const struct kref_case *k, const char *what,
		 const struct hvipi_plan *p)
{
	if (kref_reports++ >= kref_max_reports)
		return;
	fprintf(stderr, "FAIL: %s\n  form=%s nr=%u self=%u cpu=%u excl=%d vector=%#x hints=%#x page=%s status=%#" PRIx64 " hv_present=%s max_vp=%#x\n",
		what, kref_form_name[k->form], k->nr, k->self, k->cpu, k->excl,
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
static bool hint_ex(const struct kref_case *k)
{
	return k->hints & HVIPI_HINT_EX_MASKS;
}

/* A VP >= 64 as 6.1 reads it, in an int: VP_INVAL is -1 there. */
static bool vp_ge64(uint32_t v)
{
	return v != kref_vp_inval && v >= 64u;
}

/* The highest CPU of the target mask below nr_cpu_ids (self included). */
static uint32_t last_cpu(const struct kref_case *k)
{
	uint32_t c = k->nr;

	while (c-- > 0)
		if (gen_test_bit(k->tmask, c))
			return c;
	return k->nr;
}

/* __send_ipi_mask_ex(), entered: why it gave up. */
static uint32_t ex_why(const struct kref_case *k)
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

static uint32_t linux_why(const struct kref_case *k, bool installed)
{
	const struct kref_rec *r = &kref_rec;
	int c = r->iter_cpu;

	if (!installed)
		return k->hints & HVIPI_HINT_CLUSTER_IPI ? 0 : LR_WHY_NO_HINT;
	if (k->form == KREF_F_ONE || k->form == KREF_F_SELF) {
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

static enum kref_op form_op(enum kref_form f)
{
	static const enum kref_op op[KREF_F_COUNT] = {
		KREF_OP_MASK, KREF_OP_MASK_ALLBUTSELF, KREF_OP_ALLBUTSELF,
		KREF_OP_ALL, KREF_OP_IPI, KREF_OP_SELF
	};

	return op[f];
}

/* Is CPU c a target of the native op @op (called with @m, @cpu)? */
static bool op_targets(const struct kref_case *k, enum kref_op op,
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
static bool native_ok(const struct kref_case *k)
{
	const unsigned long *m = (const unsigned long *)kref_rec.op_mask;
	enum kref_op want = form_op(k->form);
	int want_cpu = k->form == KREF_F_ONE ? (int)k->cpu : -1;
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
static bool linux_all_ok(const struct kref_case *k)
{
	return !k->excl && masks_equal(k->tmask, k->present, k->nr);
}

/* Decode Linux's recorded hypercall with the receiver model (KVM's rules). */
static bool lr_decode(const struct kref_case *k, const struct or_sets *s,
		      struct rx_result *r)
{
	bool fast = kref_rec.fast;

	if (ck_decode(r, kref_rec.control, fast ? kref_rec.rdx : 0,
		      fast ? kref_rec.r8 : 0, NULL, fast ? NULL : kref_rec.input,
		      fast ? 0 : kref_rec.bytes, false) ||
	    !r->delivered || r->vector != k->vector)
		return false;
	return r->all ? linux_all_ok(k) : ck_same_set(r, s);
}

static void linux_send(const struct kref_case *k)
{
	const struct cpumask *m = (const struct cpumask *)k->mask;

	switch (k->form) {
	case KREF_F_MASK:
		apic->send_IPI_mask(m, (int)k->vector);
		break;
	case KREF_F_MASK_ALLBUTSELF:
		apic->send_IPI_mask_allbutself(m, (int)k->vector);
		break;
	case KREF_F_ALLBUTSELF:
		apic->send_IPI_allbutself((int)k->vector);
		break;
	case KREF_F_ALL:
		apic->send_IPI_all((int)k->vector);
		break;
	case KREF_F_ONE:
		apic->send_IPI((int)k->cpu, (int)k->vector);
		break;
	default:
		apic->send_IPI_self((int)k->vector);
		break;
	}
}

/*
 * The model tests/linux_ref on the same inputs: the same kind, reason and
 * last-CPU look, the same call (registers; input bytes), and the same page
 * bytes, every one of the first KREF_CHECK_LEN (written or not).  The one
 * known difference: with no target and no cluster hint, 6.1's ops are not
 * installed and the native op is called (with nothing to send), where the
 * model reports a no-op before it looks at the hints.
 */
static bool model_check(const struct kref_case *k, const struct kref_linux *l,
			const struct hvipi_plan *p, struct kref_stats *ks)
{
	bool one = k->form == KREF_F_ONE || k->form == KREF_F_SELF;
	bool excl = k->form == KREF_F_MASK_ALLBUTSELF ||
		    k->form == KREF_F_ALLBUTSELF;
	uint64_t *page = k->page ? model_page : NULL;
	uint32_t size = k->page ? KREF_PAGE_BYTES : 0;
	struct lr_out mo;

	if (k->page)
		memset(model_page, CK_FILL, KREF_CHECK_LEN);
	if (one)
		linux_ref_one(&mo, k->cpu, k->present, k->nr, k->vp, k->vector,
			      k->hints, page, size);
	else
		linux_ref_mask(&mo, k->mask, k->present, k->nr, k->vp, k->self,
			       excl, k->vector, k->hints, page, size);
	ks->model_runs++;
	if (mo.kind == LR_NOOP && l->lk == LR_FALLBACK &&
	    l->why == LR_WHY_NO_HINT && !l->installed) {
		ks->model_empty_nohint++;
		return true;
	}
	if (mo.kind != l->lk ||
	    (l->lk == LR_FALLBACK && mo.why != l->why) ||
	    (!one && mo.last_cpu_ex != l->last_cpu_ex) ||
	    (ck_lr_sends(l->lk) && mo.control != kref_rec.control) ||
	    (l->lk == LR_FAST && (mo.rdx != kref_rec.rdx || mo.r8 != kref_rec.r8)) ||
	    ((l->lk == LR_EX_SPARSE || l->lk == LR_EX_ALL) &&
	     (mo.bytes != kref_rec.bytes ||
	      memcmp(model_page, kref_rec.input, mo.bytes))) ||
	    (k->page && memcmp(model_page, lr_page, KREF_CHECK_LEN))) {
		kref_report(k, "the model tests/linux_ref does not do what Linux 6.1 does", p);
		if (kref_reports <= kref_max_reports)
			fprintf(stderr, "  model: kind=%u why=%u last_cpu_ex=%d control=%#" PRIx64 " bytes=%u written=%u; 6.1: kind=%u why=%u last_cpu_ex=%d\n",
				mo.kind, mo.why, mo.last_cpu_ex, mo.control,
				mo.bytes, mo.written, l->lk, l->why,
				l->last_cpu_ex);
		return false;
	}
	ks->model_same++;
	return true;
}

bool kref_linux_run(const struct kref_case *k, const struct or_sets *s,
		    const struct hvipi_plan *p, struct kref_linux *l,
		    struct kref_stats *ks)
{
	bool one = k->form == KREF_F_ONE || k->form == KREF_F_SELF;
	struct kref_env env;

	memset(l, 0, sizeof(*l));
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
	l->installed = kref_env_set(&env);
	if (k->page)
		memset(lr_page, CK_FILL, KREF_CHECK_LEN);
	memset(&kref_rec, 0, sizeof(kref_rec));
	kref_rec.iter_cpu = -1;
	linux_send(k);

	if (kref_rec.nr_hcalls > 1 || kref_rec.nr_native > 1 || kref_rec.warns) {
		kref_report(k, "Linux: more than one hypercall or native call, or a warning", p);
		return false;
	}
	if (kref_rec.nr_native) {
		if (!native_ok(k)) {
			kref_report(k, "Linux: the native op got other CPUs or another vector", p);
			return false;
		}
		l->native_other_op = kref_rec.op != form_op(k->form);
	}
	if (kref_rec.nr_hcalls) {
		if (!lr_decode(k, s, &l->lr)) {
			kref_report(k, "Linux: the receiver rejects its call or reads another set", p);
			if (kref_reports <= kref_max_reports)
				fprintf(stderr, "  rx: status=%u why=%s all=%d nr_vps=%u expected %u vector=%u\n",
					l->lr.status, l->lr.why, l->lr.all,
					l->lr.nr_vps, s->nvps, l->lr.vector);
			return false;
		}
		l->lk = kref_rec.fast ? LR_FAST : l->lr.all ? LR_EX_ALL : LR_EX_SPARSE;
		if ((k->status & 0xffffu) != (kref_rec.nr_native ? k->status & 0xffffu : 0)) {
			kref_report(k, "Linux: native op after a good hypercall, or none after a failed one", p);
			return false;
		}
		l->hcall_failed = kref_rec.nr_native;
		l->bytes = kref_rec.bytes;
	} else if (kref_rec.nr_native) {
		l->lk = LR_FALLBACK;
		l->why = linux_why(k, l->installed);
		if (!l->why) {
			kref_report(k, "Linux: a fallback that no reason explains", p);
			return false;
		}
	} else {
		l->lk = LR_NOOP;
	}
	if (!one && kref_rec.last_look &&
	    (kref_rec.irq_save ? kref_rec.iters_at_irq == 0 :
	     l->lk == LR_FALLBACK && l->why == LR_WHY_NO_EX && kref_rec.iters == 0))
		l->last_cpu_ex = true;
	l->beyond = (l->lk == LR_EX_SPARSE || l->lk == LR_EX_ALL) &&
		    !ck_untouched(lr_page, kref_rec.bytes, KREF_CHECK_LEN);
	if (!model_check(k, l, p, ks))
		return false;
	l->ok = true;
	return true;
}

bool kref_compare(const struct kref_case *k, const struct hvipi_plan *p,
		  const struct rx_result *hr, const struct kref_linux *l,
		  struct ck_stats *st, struct kref_stats *ks)
{
	uint32_t hk = p->kind;

	if (!l->ok)
		return false;	/* reported by kref_linux_run() */
	ks->native_other_op += l->native_other_op;
	ks->hcall_failed += l->hcall_failed;
	if (ck_lr_sends(l->lk))
		ks->lr_all += l->lr.all;
	if (l->lk == LR_FALLBACK)
		ks->lr_why[l->why]++;
	/* the comparison, in the classes of tests/common/check.c */
	ck_count_linux(st, p, l->lk, l->why, l->last_cpu_ex, l->beyond);
	if ((hk == HVIPI_PLAN_NONE) != (l->lk == LR_NOOP)) {
		if (hk == HVIPI_PLAN_NONE && l->lk == LR_FALLBACK &&
		    l->why == LR_WHY_NO_HINT) {
			ks->empty_native++;
		} else {
			kref_report(k, "hvipi and Linux disagree on a no-op", p);
			return false;
		}
	}
	if (!ck_both_sent(st, p, hr, l->lk, &l->lr, l->bytes)) {
		kref_report(k, "hvipi and Linux interrupt different VP sets", p);
		return false;
	}
	return true;
}

void kref_print(const char *suite, const struct ck_stats *st,
		const struct kref_stats *ks)
{
	int w;

	ck_print_linux(suite, st);
	printf("  Linux fallbacks without a hypercall, by reason:");
	for (w = 1; w < LR_WHY_COUNT; w++)
		printf(" %s=%" PRIu64, ck_lr_why_name(w), ks->lr_why[w]);
	printf("\n  Linux sent the \"all\" format: %" PRIu64 "\n", ks->lr_all);
	printf("  no target, no cluster hint (ops not installed): the native op called, hvipi NONE: %" PRIu64 "\n",
	       ks->empty_native);
	printf("  a failed hypercall, then the native op (Linux): %" PRIu64 "\n",
	       ks->hcall_failed);
	printf("  fell back through another native op than the form's, same CPUs (allbutself: send_IPI_mask_allbutself(cpu_online_mask)): %" PRIu64 "\n",
	       ks->native_other_op);
	printf("%s: the model tests/linux_ref on the same Linux sends: %" PRIu64 ", same as 6.1 (kind, reason, call, page bytes) %" PRIu64
	       ", known difference (no target, no cluster hint: model no-op, 6.1 the native op) %" PRIu64 "\n",
	       suite, ks->model_runs, ks->model_same, ks->model_empty_nohint);
}
