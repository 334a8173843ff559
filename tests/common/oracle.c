/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
#include <string.h>

#include "oracle.h"
#include "hvipi.h"

bool or_in_mask(const unsigned long *m, uint32_t cpu)
{
	uint32_t bits = 8u * (uint32_t)sizeof(unsigned long);

	return (m[cpu / bits] >> (cpu % bits)) & 1ul;
}

void or_sets(struct or_sets *s, const unsigned long *mask,
	     const unsigned long *present, uint32_t nr_cpu_ids,
	     const uint32_t *vp_index, uint32_t self, bool exclude_self)
{
	bool bank[64];
	uint32_t cpu, v, k;

	/* clear all but the big arrays; vp[] only where set last time */
	for (k = 0; k < s->nvps && k < OR_NR_VPS; k++)
		s->vp[s->list[k]] = false;
	s->ntargets = 0;
	s->any_inval = s->any_ge64 = s->any_ge4096 = false;
	s->nvps = s->nbanks = s->max_target_vp = 0;
	memset(bank, 0, sizeof(bank));
	s->have_present = present != NULL;
	s->exclude_self = exclude_self;
	s->mask_is_present = present != NULL;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		bool in = or_in_mask(mask, cpu);

		if (present && in != or_in_mask(present, cpu))
			s->mask_is_present = false;
		if (!in || (exclude_self && cpu == self))
			continue;
		s->ntargets++;
		v = vp_index[cpu];
		if (v == 0xffffffffu) {
			s->any_inval = true;
		} else if (v >= 4096u) {
			s->any_ge4096 = true;
		} else {
			if (v >= 64u)
				s->any_ge64 = true;
			if (!s->vp[v]) {
				s->vp[v] = true;
				s->list[s->nvps++] = (uint16_t)v;
				if (v > s->max_target_vp)
					s->max_target_vp = v;
			}
			bank[v / 64u] = true;
		}
	}
	for (k = 0; k < 64u; k++)
		if (bank[k])
			s->nbanks++;
}

static void or_fb(struct or_expect *e, uint32_t reason)
{
	e->kind = HVIPI_PLAN_FALLBACK;
	e->reason = reason;
}

void or_expect(struct or_expect *e, const struct or_sets *s, uint32_t vector,
	       uint32_t hints, bool have_page, uint32_t page_size)
{
	bool cluster = hints & HVIPI_HINT_CLUSTER_IPI;
	bool ex = hints & HVIPI_HINT_EX_MASKS;

	memset(e, 0, sizeof(*e));
	e->kind = HVIPI_PLAN_NONE;
	if (s->ntargets == 0)
		return;
	if (!cluster)
		return or_fb(e, HVIPI_FB_NOT_RECOMMENDED);
	if (vector < 16u || vector > 255u)
		return or_fb(e, HVIPI_FB_BAD_VECTOR);
	if (!s->any_inval && !s->any_ge64 && !s->any_ge4096) {
		e->kind = HVIPI_PLAN_FAST;
		return;
	}
	/* "all" needs a page of 24 bytes; without, the rules below decide */
	if (ex && s->have_present && !s->exclude_self && s->mask_is_present &&
	    have_page && page_size >= 24u) {
		e->kind = HVIPI_PLAN_EX_ALL;
		e->bytes = 24;
		return;
	}
	if (s->any_inval)
		return or_fb(e, HVIPI_FB_VP_UNKNOWN);
	if (!ex)
		return or_fb(e, HVIPI_FB_EX_NOT_RECOMMENDED);
	if (s->any_ge4096)
		return or_fb(e, HVIPI_FB_VP_TOO_BIG);
	if ((hints & HVIPI_HINT_XMM_INPUT) && s->nbanks <= 11u) {
		/* rdx, r8, xmm0..xmm5: 16 + 96 bytes, 11 banks after the mask */
		e->kind = HVIPI_PLAN_EX_XMM;
		e->nbanks = s->nbanks;
		return;
	}
	if (!have_page || page_size < 24u + 8u * s->nbanks)
		return or_fb(e, HVIPI_FB_NO_PAGE);
	e->kind = HVIPI_PLAN_EX_SPARSE;
	e->nbanks = s->nbanks;
	e->bytes = 24u + 8u * s->nbanks;
}
