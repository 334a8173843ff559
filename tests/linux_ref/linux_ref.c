/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * linux_ref: what Linux 6.1's guest code sends (see linux_ref.h).
 */
#include <string.h>

#include "linux_ref.h"

#define LR_VP_INVAL		0xffffffffu
#define LR_CALL_IPI		0x000bull
#define LR_CALL_IPI_EX		0x0015ull
#define LR_CTL_FAST		(1ull << 16)
#define LR_CTL_VARHDR_SHIFT	17
#define LR_FMT_SPARSE		0ull
#define LR_FMT_ALL		1ull
#define LR_VEC_MIN		0x10u
#define LR_VEC_MAX		0xffu
#define LR_BANK_VPS		64u
#define LR_MAX_BANKS		64u
#define LR_HDR_WORDS		3u
#define LR_LONG_BITS		(8u * sizeof(unsigned long))


static bool lr_test(const unsigned long *m, uint32_t cpu)
{
	return (m[cpu / LR_LONG_BITS] >> (cpu % LR_LONG_BITS)) & 1ul;
}

/*
 * A VP >= 64 as 6.1 compares it, in an int: VP_INVAL (U32_MAX) is -1, so
 * not; the VPs from 2^31 up to VP_INVAL - 1 would be negative too, but
 * 6.1 would then set a negative bit number in its fast walk (undefined):
 * the model takes them as >= 64.
 */
static bool lr_vp_ge64(uint32_t vp)
{
	return vp != LR_VP_INVAL && vp >= 64u;
}

static void lr_clear(struct lr_out *out)
{
	memset(out, 0, sizeof(*out));
}

static void lr_fail(struct lr_out *out, uint32_t why)
{
	out->kind = LR_FALLBACK;
	out->why = why;
}

/* The largest VP index seen (Linux keeps it as CPUs come up). */
static uint32_t lr_max_vp(const uint32_t *vp_index, uint32_t nr_cpu_ids)
{
	uint32_t cpu, max = 0;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (vp_index[cpu] != LR_VP_INVAL && vp_index[cpu] > max)
			max = vp_index[cpu];
	return max;
}

static bool lr_equal(const unsigned long *a, const unsigned long *b,
		     uint32_t nr_cpu_ids)
{
	uint32_t cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (lr_test(a, cpu) != lr_test(b, cpu))
			return false;
	return true;
}

/*
 * The Ex send.  @one >= 0: the mask is the single CPU @one (mask unused).
 */
static void lr_send_ex(struct lr_out *out, const unsigned long *mask,
		       int64_t one, const unsigned long *present,
		       uint32_t nr_cpu_ids, const uint32_t *vp_index,
		       uint32_t self, bool exclude_self, uint32_t vector,
		       uint32_t hints, uint64_t *page, uint32_t page_size)
{
	uint32_t max_bank, nr_bank, cpu, bank;
	bool all;

	if (!(hints & LR_HINT_EX_MASKS)) {
		lr_fail(out, LR_WHY_NO_EX);
		return;
	}
	if (!page || page_size < 8u * LR_HDR_WORDS) {
		lr_fail(out, LR_WHY_NO_PAGE);
		return;
	}
	if (one >= 0) {
		/* mask == present iff present is exactly {one} */
		all = false;
		if (present) {
			all = true;
			for (cpu = 0; cpu < nr_cpu_ids; cpu++)
				if (lr_test(present, cpu) != (cpu == (uint32_t)one))
					all = false;
		}
	} else {
		all = present && !exclude_self &&
		      lr_equal(mask, present, nr_cpu_ids);
	}
	page[0] = vector;	/* u32 vector, vtl 0, reserved 0 */
	if (all) {
		page[1] = LR_FMT_ALL;
		page[2] = 0;
		out->kind = LR_EX_ALL;
		out->control = LR_CALL_IPI_EX;
		out->bytes = 24;
		out->written = 24;
		return;
	}
	page[1] = LR_FMT_SPARSE;
	page[2] = 0;
	out->written = 24;
	max_bank = lr_max_vp(vp_index, nr_cpu_ids) / LR_BANK_VPS;
	if (max_bank >= LR_MAX_BANKS) {
		lr_fail(out, LR_WHY_RANGE);
		return;
	}
	/* Linux's page is 4 KiB, always large enough; model a smaller one. */
	if (page_size < 8u * (LR_HDR_WORDS + max_bank + 1u)) {
		lr_fail(out, LR_WHY_NO_PAGE);
		return;
	}
	for (bank = 0; bank <= max_bank; bank++)
		page[LR_HDR_WORDS + bank] = 0;
	out->written = 8u * (LR_HDR_WORDS + max_bank + 1u);
	nr_bank = 1;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		uint32_t vp;

		if (one >= 0 ? cpu != (uint32_t)one : !lr_test(mask, cpu))
			continue;
		if (exclude_self && cpu == self)
			continue;
		vp = vp_index[cpu];
		if (vp == LR_VP_INVAL) {
			lr_fail(out, LR_WHY_VP_INVAL);
			return;
		}
		bank = vp / LR_BANK_VPS;
		if (bank > max_bank) {
			/* cannot happen: max_bank covers the table */
			lr_fail(out, LR_WHY_RANGE);
			return;
		}
		page[LR_HDR_WORDS + bank] |= 1ull << (vp % LR_BANK_VPS);
		if (bank + 1u > nr_bank)
			nr_bank = bank + 1u;
	}
	page[2] = nr_bank >= 64u ? ~0ull : (1ull << nr_bank) - 1u;
	out->kind = LR_EX_SPARSE;
	out->nr_bank = nr_bank;
	out->control = LR_CALL_IPI_EX |
		       ((uint64_t)nr_bank << LR_CTL_VARHDR_SHIFT);
	out->bytes = 8u * (LR_HDR_WORDS + nr_bank);
}

void linux_ref_mask(struct lr_out *out, const unsigned long *mask,
		    const unsigned long *present, uint32_t nr_cpu_ids,
		    const uint32_t *vp_index, uint32_t self, bool exclude_self,
		    uint32_t vector, uint32_t hints, uint64_t *page,
		    uint32_t page_size)
{
	uint32_t cpu, weight = 0, last = 0;
	uint64_t vpmask = 0;

	lr_clear(out);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (lr_test(mask, cpu)) {
			weight++;
			last = cpu;
		}
	}
	if (weight == 0 || (exclude_self && weight == 1 &&
			    self < nr_cpu_ids && lr_test(mask, self)))
		return;
	if (!(hints & LR_HINT_CLUSTER_IPI)) {
		lr_fail(out, LR_WHY_NO_HINT);
		return;
	}
	if (vector < LR_VEC_MIN || vector > LR_VEC_MAX) {
		lr_fail(out, LR_WHY_VECTOR);
		return;
	}
	/*
	 * The last-CPU look (self not skipped).  6.1 reads the VP through
	 * hv_cpu_number_to_vp_number(), an int: VP_INVAL is -1 there, not
	 * >= 64, and the walk below meets it (or skips it, as self).
	 */
	if (lr_vp_ge64(vp_index[last])) {
		out->last_cpu_ex = true;
		goto ex;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		uint32_t vp;

		if (!lr_test(mask, cpu))
			continue;
		if (exclude_self && cpu == self)
			continue;
		vp = vp_index[cpu];
		if (vp == LR_VP_INVAL) {
			lr_fail(out, LR_WHY_VP_INVAL);
			return;
		}
		if (vp >= 64u)
			goto ex;
		vpmask |= 1ull << vp;
	}
	out->kind = LR_FAST;
	out->control = LR_CALL_IPI | LR_CTL_FAST;
	out->rdx = vector;
	out->r8 = vpmask;
	return;
ex:
	lr_send_ex(out, mask, -1, present, nr_cpu_ids, vp_index, self,
		   exclude_self, vector, hints, page, page_size);
}

void linux_ref_one(struct lr_out *out, uint32_t cpu,
		   const unsigned long *present, uint32_t nr_cpu_ids,
		   const uint32_t *vp_index, uint32_t vector, uint32_t hints,
		   uint64_t *page, uint32_t page_size)
{
	uint32_t vp;

	lr_clear(out);
	if (cpu >= nr_cpu_ids)
		return;
	if (!(hints & LR_HINT_CLUSTER_IPI)) {
		lr_fail(out, LR_WHY_NO_HINT);
		return;
	}
	vp = vp_index[cpu];
	if (vp == LR_VP_INVAL) {
		lr_fail(out, LR_WHY_VP_INVAL);
		return;
	}
	if (vector < LR_VEC_MIN || vector > LR_VEC_MAX) {
		lr_fail(out, LR_WHY_VECTOR);
		return;
	}
	if (vp >= 64u) {
		lr_send_ex(out, NULL, cpu, present, nr_cpu_ids, vp_index, 0,
			   false, vector, hints, page, page_size);
		return;
	}
	out->kind = LR_FAST;
	out->control = LR_CALL_IPI | LR_CTL_FAST;
	out->rdx = vector;
	out->r8 = 1ull << vp;
}
