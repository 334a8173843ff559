/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi: planning and encoding of one Hyper-V PV IPI send.
 *
 * Two passes over the target mask.  The first (hvipi_scan) reads the VP of
 * every target CPU and summarises the set: the VPs below 64, the non-empty
 * banks, and whether any VP is unknown, >= 64 or >= 4096.  That decides
 * the plan without writing anything.  Only for a sparse Ex plan, once the
 * page is known to be large enough, the second pass (hvipi_fill_banks)
 * writes the compacted bank words.
 */
#include "hvipi.h"

uint64_t hvipi_control(uint32_t code, bool fast, uint32_t var_hdr)
{
	/* The fields do not overlap, so + assembles them as | would. */
	return (uint64_t)code + ((uint64_t)fast << HVIPI_CTL_FAST_SHIFT) +
	       ((uint64_t)var_hdr << HVIPI_CTL_VARHDR_SHIFT);
}

bool hvipi_status_ok(uint64_t status)
{
	return (status & 0xffffu) == 0;
}

/* What the first pass learns about the target set. */
struct hvipi_scan {
	uint64_t low;	/* bit v: VP v (< 64) is a target */
	uint64_t banks;	/* bit k: a target VP lies in 64k..64k+63 (< 4096) */
	bool any;	/* the target set is not empty */
	bool unknown;	/* a target VP is HVIPI_VP_INVAL */
	bool high;	/* a target VP is in 64..4095 */
	bool huge;	/* a target VP is in 4096..HVIPI_VP_INVAL-1 */
};

static void hvipi_scan_cpu(struct hvipi_scan *s, uint32_t vp)
{
	if (vp == HVIPI_VP_INVAL) {
		s->unknown = true;
	} else if (vp >= HVIPI_VP_LIMIT) {
		s->huge = true;
	} else {
		s->banks |= 1ull << (vp / 64u);
		if (vp < HVIPI_FAST_VP_LIMIT)
			s->low |= 1ull << vp;
		else
			s->high = true;
	}
}

static void hvipi_scan(struct hvipi_scan *s, const unsigned long *mask,
		       uint32_t nr_cpu_ids, const uint32_t *vp_index,
		       uint32_t self, bool exclude_self)
{
	uint32_t nwords = HVIPI_MASK_WORDS(nr_cpu_ids);
	uint32_t w, b;

	s->low = 0;
	s->banks = 0;
	s->any = false;
	s->unknown = false;
	s->high = false;
	s->huge = false;

	for (w = 0; w < nwords; w++) {
		unsigned long bits = mask[w];
		uint32_t base = w * 64u;
		uint32_t lim = nr_cpu_ids - base < 64u ? nr_cpu_ids - base : 64u;

		if (bits == 0)
			continue;
		for (b = 0; b < lim; b++) {
			uint32_t cpu = base + b;

			if (((bits >> b) & 1u) == 0)
				continue;
			if (exclude_self && cpu == self)
				continue;
			s->any = true;
			hvipi_scan_cpu(s, vp_index[cpu]);
		}
	}
}

/*
 * rank[k] = number of set bits of @banks below bit k: the index at which
 * bank k's word is stored in a compacted sparse set.  Returns the
 * number of set bits.
 */
static uint32_t hvipi_rank(uint64_t banks, uint8_t rank[64])
{
	uint32_t k, r = 0;

	for (k = 0; k < 64u; k++) {
		rank[k] = (uint8_t)r;
		r += (uint32_t)((banks >> k) & 1u);
	}
	return r;
}

/* Second pass: OR each target VP into its compacted bank word. */
static void hvipi_fill_banks(uint64_t *bank_words, uint32_t nbanks,
			     const uint8_t rank[64], const unsigned long *mask,
			     uint32_t nr_cpu_ids, const uint32_t *vp_index,
			     uint32_t self, bool exclude_self)
{
	uint32_t nwords = HVIPI_MASK_WORDS(nr_cpu_ids);
	uint32_t i, w, b;

	for (i = 0; i < nbanks; i++)
		bank_words[i] = 0;

	for (w = 0; w < nwords; w++) {
		unsigned long bits = mask[w];
		uint32_t base = w * 64u;
		uint32_t lim = nr_cpu_ids - base < 64u ? nr_cpu_ids - base : 64u;

		if (bits == 0)
			continue;
		for (b = 0; b < lim; b++) {
			uint32_t cpu = base + b;
			uint32_t vp;

			if (((bits >> b) & 1u) == 0)
				continue;
			if (exclude_self && cpu == self)
				continue;
			vp = vp_index[cpu];
			if (vp < HVIPI_VP_LIMIT)
				bank_words[rank[vp / 64u]] |= 1ull << (vp % 64u);
		}
	}
}

/* Does the target set (self kept) equal the present set? */
static bool hvipi_same_set(const unsigned long *mask,
			   const unsigned long *present, uint32_t nr_cpu_ids)
{
	uint32_t nwords = HVIPI_MASK_WORDS(nr_cpu_ids);
	uint32_t w, b;

	for (w = 0; w < nwords; w++) {
		uint32_t base = w * 64u;
		uint32_t lim = nr_cpu_ids - base < 64u ? nr_cpu_ids - base : 64u;
		unsigned long a = mask[w], p = present[w];

		if (a == p)
			continue;
		for (b = 0; b < lim; b++)
			if (((a >> b) & 1u) != ((p >> b) & 1u))
				return false;
	}
	return true;
}

static void hvipi_fallback(struct hvipi_plan *plan, uint32_t reason)
{
	plan->kind = HVIPI_PLAN_FALLBACK;
	plan->reason = reason;
}

static void hvipi_plan_clear(struct hvipi_plan *plan)
{
	plan->kind = HVIPI_PLAN_NONE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = 0;
	plan->rdx = 0;
	plan->r8 = 0;
	plan->valid_bank_mask = 0;
	plan->banks = 0;
	plan->bytes = 0;
}

void hvipi_plan_mask(struct hvipi_plan *plan, const unsigned long *mask,
		     const unsigned long *present, uint32_t nr_cpu_ids,
		     const uint32_t *vp_index, uint32_t self, bool exclude_self,
		     uint32_t vector, uint32_t hints, uint64_t *page,
		     uint32_t page_size)
{
	struct hvipi_scan s;
	uint8_t rank[64];
	uint32_t nbanks;

	hvipi_plan_clear(plan);
	hvipi_scan(&s, mask, nr_cpu_ids, vp_index, self, exclude_self);

	if (!s.any)
		return;
	if (!(hints & HVIPI_HINT_CLUSTER_IPI)) {
		hvipi_fallback(plan, HVIPI_FB_NOT_RECOMMENDED);
		return;
	}
	if (vector < HVIPI_VECTOR_MIN || vector > HVIPI_VECTOR_MAX) {
		hvipi_fallback(plan, HVIPI_FB_BAD_VECTOR);
		return;
	}
	if (!s.unknown && !s.high && !s.huge) {
		plan->kind = HVIPI_PLAN_FAST;
		plan->control = hvipi_control(HVIPI_CALL_SEND_IPI, true, 0);
		plan->rdx = vector;
		plan->r8 = s.low;
		return;
	}
	if ((hints & HVIPI_HINT_EX_MASKS) && present && !exclude_self &&
	    hvipi_same_set(mask, present, nr_cpu_ids)) {
		if (!page || page_size < HVIPI_EX_HDR_BYTES) {
			hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
			return;
		}
		page[0] = vector;
		page[1] = HVIPI_FORMAT_ALL;
		page[2] = 0;
		plan->kind = HVIPI_PLAN_EX_ALL;
		plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 0);
		plan->bytes = HVIPI_EX_HDR_BYTES;
		return;
	}
	if (s.unknown) {
		hvipi_fallback(plan, HVIPI_FB_VP_UNKNOWN);
		return;
	}
	if (!(hints & HVIPI_HINT_EX_MASKS)) {
		hvipi_fallback(plan, HVIPI_FB_EX_NOT_RECOMMENDED);
		return;
	}
	if (s.huge) {
		hvipi_fallback(plan, HVIPI_FB_VP_TOO_BIG);
		return;
	}
	nbanks = hvipi_rank(s.banks, rank);
	plan->valid_bank_mask = s.banks;
	plan->banks = nbanks;
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u * nbanks) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		return;
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = s.banks;
	hvipi_fill_banks(page + HVIPI_EX_HDR_WORDS, nbanks, rank, mask,
			 nr_cpu_ids, vp_index, self, exclude_self);
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, nbanks);
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u * nbanks;
}

void hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu, uint32_t nr_cpu_ids,
		    const uint32_t *vp_index, uint32_t vector, uint32_t hints,
		    uint64_t *page, uint32_t page_size)
{
	uint32_t vp;

	hvipi_plan_clear(plan);
	if (cpu >= nr_cpu_ids)
		return;
	if (!(hints & HVIPI_HINT_CLUSTER_IPI)) {
		hvipi_fallback(plan, HVIPI_FB_NOT_RECOMMENDED);
		return;
	}
	if (vector < HVIPI_VECTOR_MIN || vector > HVIPI_VECTOR_MAX) {
		hvipi_fallback(plan, HVIPI_FB_BAD_VECTOR);
		return;
	}
	vp = vp_index[cpu];
	if (vp == HVIPI_VP_INVAL) {
		hvipi_fallback(plan, HVIPI_FB_VP_UNKNOWN);
		return;
	}
	if (vp < HVIPI_FAST_VP_LIMIT) {
		plan->kind = HVIPI_PLAN_FAST;
		plan->control = hvipi_control(HVIPI_CALL_SEND_IPI, true, 0);
		plan->rdx = vector;
		plan->r8 = 1ull << vp;
		return;
	}
	if (!(hints & HVIPI_HINT_EX_MASKS)) {
		hvipi_fallback(plan, HVIPI_FB_EX_NOT_RECOMMENDED);
		return;
	}
	if (vp >= HVIPI_VP_LIMIT) {
		hvipi_fallback(plan, HVIPI_FB_VP_TOO_BIG);
		return;
	}
	plan->valid_bank_mask = 1ull << (vp / 64u);
	plan->banks = 1;
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		return;
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = plan->valid_bank_mask;
	page[3] = 1ull << (vp % 64u);
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 1);
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u;
}
