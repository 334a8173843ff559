/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hvipi.h"
#include "rx.h"

#define CK_GUARD	64u
/*
 * Bytes of the page that are filled and checked: the whole page plus a
 * guard beyond it, capped at 1 KiB (an Ex input is at most 24 + 8 * 64 =
 * 536 bytes, so anything written beyond 1 KiB is far out of bounds anyway
 * and checking 4 KiB per case would dominate the run time).
 */
#define CK_CHECK_MAX	1024u

unsigned int ck_max_reports = 10;
static unsigned int ck_reports;

static uint64_t hv_page[(CK_PAGE_MAX + CK_GUARD) / 8];
static uint64_t hv_page2[(CK_PAGE_MAX + CK_GUARD) / 8];
static uint64_t lr_page[(CK_PAGE_MAX + CK_GUARD) / 8];
static struct or_sets ck_sets;

static const char *const kind_name[6] = {
	"NONE", "FAST", "EX_SPARSE", "EX_ALL", "FALLBACK", "EX_XMM"
};
static const char *const reason_name[7] = {
	"-", "NOT_RECOMMENDED", "BAD_VECTOR", "VP_UNKNOWN",
	"EX_NOT_RECOMMENDED", "VP_TOO_BIG", "NO_PAGE"
};
static const char *const lr_kind_name[5] = {
	"NOOP", "FAST", "EX_SPARSE", "EX_ALL", "FALLBACK"
};
static const char *const lr_why_name[LR_WHY_COUNT] = {
	"-", "NO_HINT", "VECTOR", "VP_INVAL", "NO_EX", "RANGE", "NO_PAGE"
};

const char *ck_kind_name(uint32_t kind)
{
	return kind < 6u ? kind_name[kind] : "?";
}

const char *ck_reason_name(uint32_t reason)
{
	return reason < 7u ? reason_name[reason] : "?";
}

const char *ck_lr_why_name(uint32_t why)
{
	return why < LR_WHY_COUNT ? lr_why_name[why] : "?";
}

static uint32_t ck_check_len(const struct ck_case *c)
{
	uint32_t n = c->have_page ? c->page_size + CK_GUARD : 0;

	return n > CK_CHECK_MAX ? CK_CHECK_MAX : n;
}

static void ck_report(const struct ck_case *c, const char *what,
		      const struct hvipi_plan *p, const struct or_expect *e)
{
	if (ck_reports++ >= ck_max_reports)
		return;
	fprintf(stderr, "FAIL: %s\n  nr=%u self=%u excl=%d vector=%#x hints=%#x page=%s size=%u present=%s\n",
		what, c->nr, c->self, c->excl, c->vector, c->hints,
		c->have_page ? "yes" : "NULL", c->page_size,
		c->present ? "yes" : "NULL");
	ck_print_targets(c->mask, c->present, c->nr, c->vp);
	if (p)
		fprintf(stderr, "  plan: kind=%s reason=%s control=%#" PRIx64 " rdx=%#" PRIx64 " r8=%#" PRIx64 " vbm=%#" PRIx64 " banks=%u bytes=%u\n",
			ck_kind_name(p->kind), ck_reason_name(p->reason),
			p->control, p->rdx, p->r8, p->valid_bank_mask,
			p->banks, p->bytes);
	if (e)
		fprintf(stderr, "  expected: kind=%s reason=%s banks=%u bytes=%u\n",
			kind_name[e->kind], reason_name[e->reason], e->nbanks,
			e->bytes);
}

void ck_print_targets(const unsigned long *mask, const unsigned long *present,
		      uint32_t nr, const uint32_t *vp)
{
	uint32_t cpu, shown = 0;

	fprintf(stderr, "  targets (cpu:vp):");
	for (cpu = 0; cpu < nr && shown < 24; cpu++) {
		if (or_in_mask(mask, cpu)) {
			fprintf(stderr, " %u:%#x%s", cpu, vp[cpu],
				present && or_in_mask(present, cpu) ? "p" : "");
			shown++;
		}
	}
	fprintf(stderr, "%s\n", shown >= 24 ? " ..." : "");
}

/* The receiver's set equals the oracle's target VP set. */
bool ck_same_set(const struct rx_result *r, const struct or_sets *s)
{
	uint32_t i;

	if (r->all || r->nr_vps != s->nvps)
		return false;
	for (i = 0; i < s->nvps; i++)
		if (!rx_vp_test(r, s->list[i]))
			return false;
	return true;
}

bool ck_rx_targets(const struct rx_result *r, uint32_t kind,
		   const struct or_sets *s)
{
	return r->all ? kind == HVIPI_PLAN_EX_ALL && s->mask_is_present &&
			!s->exclude_self :
			ck_same_set(r, s);
}

int ck_decode(struct rx_result *r, uint64_t control, uint64_t rdx, uint64_t r8,
	      const uint64_t *xmm, const void *page, size_t bytes, bool xen)
{
	struct rx_call call;

	memset(&call, 0, sizeof(call));
	call.control = control;
	call.rdx = rdx;
	call.r8 = r8;
	if (xmm) {
		call.has_xmm = true;
		memcpy(call.xmm, xmm, sizeof(call.xmm));
	}
	call.page = (const uint8_t *)page;
	call.page_size = bytes;
	call.xen = xen;
	return rx_decode(&call, r);
}

int ck_decode_plan(struct rx_result *r, const struct hvipi_plan *p,
		   const uint64_t *page, bool xen)
{
	if (p->kind == HVIPI_PLAN_EX_XMM)
		return ck_decode(r, p->control, p->rdx, p->r8, &p->input[2],
				 NULL, 0, xen);
	if (p->kind == HVIPI_PLAN_FAST)
		return ck_decode(r, p->control, p->rdx, p->r8, NULL, NULL, 0,
				 xen);
	return ck_decode(r, p->control, p->rdx, p->r8, NULL, page, p->bytes,
			 xen);
}

bool ck_untouched(const uint64_t *page, uint32_t from, uint32_t to)
{
	const uint8_t *b = (const uint8_t *)page;
	uint32_t i;

	for (i = from; i < to; i++)
		if (b[i] != CK_FILL)
			return false;
	return true;
}

/*
 * An XMM-fast plan: no page byte written, the banks compact, rdx and r8
 * the first two input words, the words after the last bank zero; KVM's
 * reading is the target set.  Xen has no fast Ex and rejects it (it does
 * not advertise XMM input, so the hint keeps hvipi from sending it there).
 */
static bool ck_plan_xmm(const struct ck_case *c, const struct or_sets *s,
			const struct hvipi_plan *p, const struct or_expect *e,
			uint32_t checklen, struct rx_result *r)
{
	uint32_t i;

	if (!ck_untouched(hv_page, 0, checklen)) {
		ck_report(c, "page written by an EX_XMM plan", p, e);
		return false;
	}
	if (p->bytes != 0 || p->banks != e->nbanks || p->banks > 11u ||
	    p->rdx != p->input[0] || p->r8 != p->input[1] ||
	    p->input[2] != p->valid_bank_mask) {
		ck_report(c, "EX_XMM: registers/banks not as planned", p, e);
		return false;
	}
	for (i = 3u + p->banks; i < HVIPI_XMM_INPUT_WORDS; i++) {
		if (p->input[i] != 0) {
			ck_report(c, "EX_XMM: a word after the banks is not 0", p, e);
			return false;
		}
	}
	if (ck_decode_plan(r, p, NULL, false) || !r->delivered ||
	    r->vector != c->vector || r->all || !ck_same_set(r, s) ||
	    r->bytes_read != 24u + 8u * p->banks) {
		ck_report(c, "EX_XMM: KVM receiver disagrees", p, e);
		fprintf(stderr, "  rx: status=%u why=%s nr_vps=%u expected %u read=%zu\n",
			r->status, r->why, r->nr_vps, s->nvps, r->bytes_read);
		return false;
	}
	{
		struct rx_result xr;

		if (ck_decode_plan(&xr, p, NULL, true) == 0) {
			ck_report(c, "EX_XMM: Xen receiver accepts a fast Ex", p, e);
			return false;
		}
	}
	return true;
}

/*
 * The fields a plan's kind does not use hold the values struct hvipi_plan
 * documents (the contracts' pinned_* clauses); input[] of a plan other
 * than EX_XMM keeps the 0x5a bytes the callers fill the plan with.
 */
static bool ck_pinned(const struct ck_case *c, const struct hvipi_plan *p,
		      const struct or_expect *e)
{
	bool regs = p->kind == HVIPI_PLAN_FAST || p->kind == HVIPI_PLAN_EX_XMM;
	bool banks = p->kind == HVIPI_PLAN_EX_SPARSE ||
		     p->kind == HVIPI_PLAN_EX_XMM ||
		     p->reason == HVIPI_FB_NO_PAGE;
	uint32_t i;

	if (!regs && (p->rdx != 0 || p->r8 != 0)) {
		ck_report(c, "pinned: rdx/r8 not 0", p, e);
		return false;
	}
	if ((p->kind == HVIPI_PLAN_NONE || p->kind == HVIPI_PLAN_FALLBACK) &&
	    p->control != 0) {
		ck_report(c, "pinned: control not 0 without a hypercall", p, e);
		return false;
	}
	if (!banks && (p->valid_bank_mask != 0 || p->banks != 0)) {
		ck_report(c, "pinned: bank fields set outside the sparse rule",
			  p, e);
		return false;
	}
	if (p->kind != HVIPI_PLAN_EX_XMM) {
		for (i = 0; i < HVIPI_XMM_INPUT_WORDS; i++) {
			if (p->input[i] != 0x5a5a5a5a5a5a5a5aull) {
				ck_report(c, "pinned: input[] written", p, e);
				return false;
			}
		}
	}
	return true;
}

/* Check a plan against the expectation; decode it. */
static bool ck_plan(const struct ck_case *c, const struct or_sets *s,
		    const struct hvipi_plan *p, const struct or_expect *e,
		    uint32_t checklen, struct rx_result *r)
{
	int x;

	if (p->kind != e->kind || p->reason != e->reason) {
		ck_report(c, "kind/reason differs from oracle", p, e);
		return false;
	}
	if (!ck_pinned(c, p, e))
		return false;
	switch (p->kind) {
	case HVIPI_PLAN_NONE:
	case HVIPI_PLAN_FALLBACK:
		if (!ck_untouched(hv_page, 0, checklen)) {
			ck_report(c, "page written without an Ex plan", p, e);
			return false;
		}
		return true;
	case HVIPI_PLAN_FAST:
		if (!ck_untouched(hv_page, 0, checklen)) {
			ck_report(c, "page written by a FAST plan", p, e);
			return false;
		}
		for (x = 0; x < 2; x++) {
			if (ck_decode_plan(r, p, hv_page, x) ||
			    !r->delivered || r->vector != c->vector ||
			    !ck_same_set(r, s)) {
				ck_report(c, x ? "FAST: Xen receiver disagrees" :
					  "FAST: KVM receiver disagrees", p, e);
				fprintf(stderr, "  rx: status=%u why=%s nr_vps=%u expected %u\n",
					r->status, r->why, r->nr_vps, s->nvps);
				return false;
			}
		}
		return true;
	case HVIPI_PLAN_EX_XMM:
		return ck_plan_xmm(c, s, p, e, checklen, r);
	default:
		break;
	}
	/* Ex */
	if (p->bytes != e->bytes || (p->kind == HVIPI_PLAN_EX_SPARSE &&
				     p->banks != e->nbanks)) {
		ck_report(c, "Ex: bytes/banks not compact", p, e);
		return false;
	}
	if (!ck_untouched(hv_page, p->bytes, checklen)) {
		ck_report(c, "page written beyond plan.bytes", p, e);
		return false;
	}
	for (x = 0; x < 2; x++) {
		if (ck_decode_plan(r, p, hv_page, x) ||
		    !r->delivered || r->vector != c->vector ||
		    r->bytes_read != p->bytes ||
		    (p->kind == HVIPI_PLAN_EX_ALL ? !r->all : !ck_same_set(r, s))) {
			ck_report(c, x ? "Ex: Xen receiver disagrees" :
				  "Ex: KVM receiver disagrees", p, e);
			fprintf(stderr, "  rx: status=%u why=%s all=%d nr_vps=%u expected %u read=%zu\n",
				r->status, r->why, r->all, r->nr_vps, s->nvps,
				r->bytes_read);
			return false;
		}
	}
	if (p->kind == HVIPI_PLAN_EX_ALL &&
	    (!s->mask_is_present || s->exclude_self)) {
		ck_report(c, "EX_ALL while target set != present set", p, e);
		return false;
	}
	return true;
}

bool ck_hv_sends(uint32_t kind)
{
	return kind == HVIPI_PLAN_FAST || kind == HVIPI_PLAN_EX_SPARSE ||
	       kind == HVIPI_PLAN_EX_ALL || kind == HVIPI_PLAN_EX_XMM;
}

bool ck_lr_sends(uint32_t lk)
{
	return lk == LR_FAST || lk == LR_EX_SPARSE || lk == LR_EX_ALL;
}

void ck_count_linux(struct ck_stats *st, const struct hvipi_plan *p,
		    uint32_t lk, uint32_t why, bool last_cpu_ex, bool beyond)
{
	uint32_t hk = p->kind;

	st->lr_cases++;
	st->matrix[hk][lk]++;
	if (ck_hv_sends(hk) && lk == LR_FALLBACK)
		st->hv_send_lr_fb[why]++;
	if (ck_lr_sends(lk) && hk == HVIPI_PLAN_FALLBACK)
		st->lr_send_hv_fb[p->reason]++;
	if (hk == HVIPI_PLAN_FAST && (lk == LR_EX_SPARSE || lk == LR_EX_ALL ||
				      (lk == LR_FALLBACK && last_cpu_ex))) {
		st->lr_ex_hv_fast++;
		if (last_cpu_ex)
			st->lr_last_cpu_ex++;
	}
	if ((lk == LR_EX_SPARSE || lk == LR_EX_ALL) && beyond)
		st->lr_written_beyond++;
}

bool ck_both_sent(struct ck_stats *st, const struct hvipi_plan *p,
		  const struct rx_result *hr, uint32_t lk,
		  const struct rx_result *lr, uint32_t lr_bytes)
{
	uint32_t hk = p->kind;

	if (!ck_hv_sends(hk) || !ck_lr_sends(lk))
		return true;
	st->both_sent++;
	if (hr->all != lr->all) {
		st->all_vs_sparse++;
	} else if (!hr->all && (hr->nr_vps != lr->nr_vps ||
				memcmp(hr->vps, lr->vps, sizeof(hr->vps)))) {
		return false;
	}
	if ((hk == HVIPI_PLAN_EX_SPARSE || hk == HVIPI_PLAN_EX_XMM) &&
	    lk == LR_EX_SPARSE) {
		/* input bytes: in the page, or in rdx, r8 and xmm0.. */
		uint32_t hb = hk == HVIPI_PLAN_EX_XMM ? 24u + 8u * p->banks :
			      p->bytes;

		st->both_sparse++;
		st->xmm_sparse += hk == HVIPI_PLAN_EX_XMM;
		st->hv_sparse_bytes += hb;
		st->lr_sparse_bytes += lr_bytes;
		if (hb != lr_bytes)
			st->sparse_bytes_differ++;
	}
	return true;
}

static bool ck_linux(const struct ck_case *c, const struct or_sets *s,
		     const struct hvipi_plan *p, const struct rx_result *hr,
		     struct ck_stats *st)
{
	struct lr_out lo;
	struct rx_result lr;
	uint32_t lk;

	if (c->have_page)
		memset(lr_page, CK_FILL, ck_check_len(c));
	linux_ref_mask(&lo, c->mask, c->present, c->nr, c->vp, c->self,
		       c->excl, c->vector, c->hints,
		       c->have_page ? lr_page : NULL, c->page_size);
	lk = lo.kind;
	ck_count_linux(st, p, lk, lo.why, lo.last_cpu_ex, lo.written > lo.bytes);
	if ((p->kind == HVIPI_PLAN_NONE) != (lk == LR_NOOP)) {
		ck_report(c, "hvipi and Linux disagree on a no-op", p, NULL);
		return false;
	}
	if (!ck_lr_sends(lk))
		return true;
	if (ck_decode(&lr, lo.control, lo.rdx, lo.r8, NULL,
		      lk == LR_FAST ? NULL : lr_page, lo.bytes, false) ||
	    !lr.delivered || lr.vector != c->vector) {
		ck_report(c, "Linux reference: receiver rejects", p, NULL);
		fprintf(stderr, "  rx: status=%u why=%s\n", lr.status, lr.why);
		return false;
	}
	if (lr.all ? !(s->mask_is_present && !s->exclude_self) :
	    !ck_same_set(&lr, s)) {
		ck_report(c, "Linux reference: wrong VP set", p, NULL);
		return false;
	}
	if (!ck_both_sent(st, p, hr, lk, &lr, lo.bytes)) {
		ck_report(c, "hvipi and Linux interrupt different VP sets", p, NULL);
		return false;
	}
	return true;
}

bool ck_run(const struct ck_case *c, const struct or_sets *s,
	    struct ck_stats *st, bool vs_linux)
{
	return ck_run_plan(c, s, st, vs_linux, NULL, NULL);
}

bool ck_run_plan(const struct ck_case *c, const struct or_sets *s,
		 struct ck_stats *st, bool vs_linux, struct hvipi_plan *out,
		 const uint64_t **page)
{
	struct hvipi_plan p;
	struct or_expect e;
	struct rx_result r;
	uint32_t checklen = ck_check_len(c), ident;
	bool ok;

	if (!s) {
		or_sets(&ck_sets, c->mask, c->present, c->nr, c->vp, c->self,
			c->excl);
		s = &ck_sets;
	}
	or_expect(&e, s, c->vector, c->hints, c->have_page, c->page_size);
	if (checklen)
		memset(hv_page, CK_FILL, checklen);
	memset(&p, 0x5a, sizeof(p));
	ident = hvipi_vp_ident(c->vp, c->nr);
	hvipi_plan_mask(&p, c->mask, c->present, c->nr, c->vp, ident, c->self,
			c->excl, c->vector, c->hints,
			c->have_page ? hv_page : NULL, c->page_size);
	st->cases++;
	/*
	 * The identity prefix changes only the speed: with no prefix and with
	 * a shorter one (not a multiple of 64), the same plan and page bytes.
	 */
	if (ident >= 64u) {
		uint32_t shorter[2] = { 0, ident / 2u + 1u }, k;

		for (k = 0; k < 2; k++) {
			struct hvipi_plan q;

			if (checklen)
				memset(hv_page2, CK_FILL, checklen);
			memset(&q, 0x5a, sizeof(q));
			hvipi_plan_mask(&q, c->mask, c->present, c->nr, c->vp,
					shorter[k], c->self, c->excl, c->vector,
					c->hints, c->have_page ? hv_page2 : NULL,
					c->page_size);
			st->ident_cases++;
			if (memcmp(&p, &q, sizeof(p)) ||
			    (checklen && memcmp(hv_page, hv_page2, checklen))) {
				ck_report(c, "the plan depends on vp_ident", &p, NULL);
				st->failures++;
				return false;
			}
		}
	}
	if (p.kind < 6)
		st->kind[p.kind]++;
	if (p.reason < 7)
		st->reason[p.reason]++;
	memset(&r, 0, sizeof(r));
	ok = ck_plan(c, s, &p, &e, checklen, &r);
	if (ok && vs_linux)
		ok = ck_linux(c, s, &p, &r, st);
	if (!ok)
		st->failures++;
	if (out)
		*out = p;
	if (page)
		*page = c->have_page ? hv_page : NULL;
	return ok;
}

void ck_plan_glue(struct hvipi_plan *p, bool one, uint32_t cpu,
		  const unsigned long *mask, const unsigned long *present,
		  uint32_t nr, const uint32_t *vp, uint32_t self, bool excl,
		  uint32_t vector, uint32_t hints, uint64_t *page,
		  uint32_t page_size, uint32_t fill)
{
	if (page)
		memset(page, CK_FILL, fill);
	memset(p, 0x5a, sizeof(*p));
	if (one)
		hvipi_plan_one(p, cpu, nr, vp, vector, hints, page, page_size);
	else
		hvipi_plan_mask(p, mask, present, nr, vp, hvipi_vp_ident(vp, nr),
				self, excl, vector, hints, page, page_size);
}

bool ck_run_one(uint32_t cpu, uint32_t nr, const uint32_t *vp,
		uint32_t vector, uint32_t hints, bool have_page,
		uint32_t page_size, struct ck_stats *st)
{
	return ck_run_one_plan(cpu, nr, vp, vector, hints, have_page,
			       page_size, st, NULL, NULL);
}

bool ck_run_one_plan(uint32_t cpu, uint32_t nr, const uint32_t *vp,
		     uint32_t vector, uint32_t hints, bool have_page,
		     uint32_t page_size, struct ck_stats *st,
		     struct hvipi_plan *out, const uint64_t **page)
{
	unsigned long mask[HVIPI_MASK_WORDS(8192u) + 1];
	struct hvipi_plan p;
	struct or_expect e;
	struct rx_result r;
	struct ck_case c;
	uint64_t fast;
	bool ok;

	memset(mask, 0, sizeof(mask));
	if (cpu < 64u * (sizeof(mask) / sizeof(mask[0])))
		mask[cpu / 64u] = 1ul << (cpu % 64u);
	memset(&c, 0, sizeof(c));
	c.mask = mask;
	c.nr = nr;
	c.vp = vp;
	c.self = cpu;
	c.vector = vector;
	c.hints = hints;
	c.have_page = have_page;
	c.page_size = page_size;
	or_sets(&ck_sets, mask, NULL, nr, vp, cpu, false);
	or_expect(&e, &ck_sets, vector, hints, have_page, page_size);
	if (ck_check_len(&c))
		memset(hv_page, CK_FILL, ck_check_len(&c));
	memset(&p, 0x5a, sizeof(p));
	hvipi_plan_one(&p, cpu, nr, vp, vector, hints,
		       have_page ? hv_page : NULL, page_size);
	st->cases++;
	ok = ck_plan(&c, &ck_sets, &p, &e, ck_check_len(&c), &r);
	if (!ok) {
		fprintf(stderr, "  (hvipi_plan_one, cpu %u)\n", cpu);
		st->failures++;
	}
	/* hvipi_fast_one() is hvipi_plan_one()'s FAST plan, and only that. */
	fast = hvipi_fast_one(cpu, nr, vp, vector, hints);
	if ((fast != 0) != (p.kind == HVIPI_PLAN_FAST) ||
	    (fast && (fast != p.r8 || p.rdx != vector ||
		      p.control != HVIPI_CTL_FAST_SEND_IPI))) {
		fprintf(stderr, "FAIL hvipi_fast_one(cpu %u) = %#llx, plan kind %s r8 %#llx\n",
			cpu, (unsigned long long)fast, ck_kind_name(p.kind),
			(unsigned long long)p.r8);
		st->failures++;
		ok = false;
	}
	if (out)
		*out = p;
	if (page)
		*page = have_page ? hv_page : NULL;
	return ok;
}

void ck_print_kinds(const char *suite, const struct ck_stats *st)
{
	int i;

	printf("%s: plans:", suite);
	for (i = 0; i < 6; i++)
		printf(" %s=%" PRIu64, kind_name[i], st->kind[i]);
	printf("\n%s: fallback reasons:", suite);
	for (i = 1; i < 7; i++)
		printf(" %s=%" PRIu64, reason_name[i], st->reason[i]);
	printf("\n");
}

void ck_print_linux(const char *suite, const struct ck_stats *st)
{
	int i, j;

	printf("%s: vs Linux reference, %" PRIu64 " cases; rows hvipi, columns Linux:\n",
	       suite, st->lr_cases);
	printf("  %-10s", "");
	for (j = 0; j < 5; j++)
		printf(" %10s", lr_kind_name[j]);
	printf("\n");
	for (i = 0; i < 6; i++) {
		printf("  %-10s", kind_name[i]);
		for (j = 0; j < 5; j++)
			printf(" %10" PRIu64, st->matrix[i][j]);
		printf("\n");
	}
	printf("  both send, same VP set checked: %" PRIu64 " (all vs sparse: %" PRIu64 ")\n",
	       st->both_sent, st->all_vs_sparse);
	printf("  both sparse Ex: %" PRIu64 " (hvipi XMM-fast in %" PRIu64 "), bytes differ (compact vs dense) in %" PRIu64
	       "; input bytes hvipi %" PRIu64 " vs Linux %" PRIu64 "\n",
	       st->both_sparse, st->xmm_sparse, st->sparse_bytes_differ,
	       st->hv_sparse_bytes, st->lr_sparse_bytes);
	printf("  Linux goes Ex (or falls back from Ex) where hvipi is FAST: %" PRIu64
	       " (last-CPU look: %" PRIu64 ")\n", st->lr_ex_hv_fast,
	       st->lr_last_cpu_ex);
	printf("  Linux wrote page bytes beyond those sent: %" PRIu64 "\n",
	       st->lr_written_beyond);
	printf("  hvipi sends, Linux falls back:");
	for (i = 1; i < LR_WHY_COUNT; i++)
		printf(" %s=%" PRIu64, lr_why_name[i], st->hv_send_lr_fb[i]);
	printf("\n  Linux sends, hvipi falls back:");
	for (i = 1; i < 7; i++)
		printf(" %s=%" PRIu64, reason_name[i], st->lr_send_hv_fb[i]);
	printf("\n");
}
