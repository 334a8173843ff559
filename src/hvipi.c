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
	/*
	 * The fields do not overlap, so + and * place them as | and << would;
	 * WP reasons about + and * natively.
	 */
	return (uint64_t)code +
	       (uint64_t)fast * (1ull << HVIPI_CTL_FAST_SHIFT) +
	       (uint64_t)var_hdr * (1ull << HVIPI_CTL_VARHDR_SHIFT);
}

bool hvipi_status_ok(uint64_t status)
{
	/* Bits 15:0 are status % 2^16 (the compiler emits the same AND). */
	return status % 0x10000u == 0;
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

/*@ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ assigns \nothing;
  @ ensures any: \result.any <==> !no_target(HVIPI_SEND);
  @ ensures unknown: \result.unknown <==> some_vp_unknown(HVIPI_SEND);
  @ ensures huge: \result.huge <==> some_vp_too_big(HVIPI_SEND);
  @ ensures high: \result.high <==> \exists integer c;
  @   target(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096;
  @ ensures low: \forall integer v; 0 <= v < 64 ==>
  @   (bit64(\result.low, v) <==> vp_target(HVIPI_SEND, v));
  @ ensures banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(\result.banks, k) <==> bank_used(HVIPI_SEND, k));
  @*/
static struct hvipi_scan hvipi_scan(const unsigned long *mask,
				    uint32_t nr_cpu_ids,
				    const uint32_t *vp_index, uint32_t self,
				    bool exclude_self)
{
	struct hvipi_scan s;
	uint64_t low = 0, banks = 0;
	bool any = false, unknown = false, high = false, huge = false;
	uint32_t cpu = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant any: any <==> \exists integer c;
	  @   0 <= c < cpu && target(HVIPI_SEND, c);
	  @ loop invariant unknown: unknown <==> \exists integer c;
	  @   0 <= c < cpu && target(HVIPI_SEND, c) &&
	  @   vp_index[c] == HVIPI_VP_INVAL;
	  @ loop invariant huge: huge <==> \exists integer c;
	  @   0 <= c < cpu && target(HVIPI_SEND, c) &&
	  @   4096 <= vp_index[c] < HVIPI_VP_INVAL;
	  @ loop invariant high: high <==> \exists integer c;
	  @   0 <= c < cpu && target(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096;
	  @ loop invariant low: \forall integer v; 0 <= v < 64 ==>
	  @   (bit64(low, v) <==> \exists integer c;
	  @     0 <= c < cpu && target(HVIPI_SEND, c) && vp_index[c] == v);
	  @ loop invariant banks: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(banks, k) <==> \exists integer c;
	  @     0 <= c < cpu && target(HVIPI_SEND, c) &&
	  @     vp_index[c] < 4096 && vp_index[c] / 64 == k);
	  @ loop assigns cpu, low, banks, any, unknown, high, huge;
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids) {
		unsigned long word = mask[cpu / 64u];
		uint32_t vp;

		if (cpu % 64u == 0 && word == 0) {
			/* A whole empty word: none of its 64 CPUs is a target. */
			/*@ assert empty_word: \forall integer c;
			  @   cpu <= c < cpu + 64 ==> !cpu_in(mask, c); */
			cpu = nr_cpu_ids - cpu <= 64u ? nr_cpu_ids : cpu + 64u;
			continue;
		}
		if (((word >> (cpu % 64u)) & 1u) == 0 ||
		    (exclude_self && cpu == self)) {
			/*@ assert not_target: !target(HVIPI_SEND, cpu); */
			cpu++;
			continue;
		}
		/*@ assert is_target: target(HVIPI_SEND, cpu); */
		any = true;
		vp = vp_index[cpu];
		if (vp == HVIPI_VP_INVAL) {
			unknown = true;
		} else if (vp >= HVIPI_VP_LIMIT) {
			huge = true;
		} else {
			banks |= 1ull << (vp / 64u);
			if (vp < HVIPI_FAST_VP_LIMIT)
				low |= 1ull << vp;
			else
				high = true;
		}
		cpu++;
	}
	s.low = low;
	s.banks = banks;
	s.any = any;
	s.unknown = unknown;
	s.high = high;
	s.huge = huge;
	return s;
}

/*
 * rank[k] = number of set bits of @banks below bit k: the index at which
 * bank k's word is stored in a compacted sparse set.  Returns the
 * number of set bits.
 */
/*@ requires \valid(rank + (0 .. 63));
  @ assigns rank[0 .. 63];
  @ ensures count: \result == popcount64(banks) && \result <= 64;
  @ ensures rank_def: \forall integer k; 0 <= k < 64 ==>
  @   rank[k] == bits_below(banks, k);
  @ ensures rank_fits: \forall integer k; 0 <= k < 64 && bit64(banks, k) ==>
  @   rank[k] < \result;
  @ ensures rank_injective: \forall integer k1, k2;
  @   0 <= k1 < 64 && 0 <= k2 < 64 && bit64(banks, k1) && bit64(banks, k2) &&
  @   rank[k1] == rank[k2] ==> k1 == k2;
  @*/
static uint32_t hvipi_rank(uint64_t banks, uint8_t rank[64])
{
	uint32_t k, r = 0;

	/*@ loop invariant 0 <= k <= 64;
	  @ loop invariant count: r == bits_below(banks, k) && r <= k;
	  @ loop invariant rank_def: \forall integer j; 0 <= j < k ==>
	  @   rank[j] == bits_below(banks, j);
	  @ loop invariant rank_fits: \forall integer j;
	  @   0 <= j < k && bit64(banks, j) ==> rank[j] < r;
	  @ loop invariant rank_increasing: \forall integer j1, j2;
	  @   0 <= j1 < j2 < k && bit64(banks, j1) ==> rank[j1] < rank[j2];
	  @ loop assigns k, r, rank[0 .. 63];
	  @ loop variant 64 - k;
	  @*/
	for (k = 0; k < 64u; k++) {
		rank[k] = (uint8_t)r;
		r += (uint32_t)((banks >> k) & 1u);
	}
	return r;
}

/*@ // Memory reads at a given label, with indexes from another state.
  @ logic integer u32_at{L}(uint32_t *p, integer i) = p[i];
  @ logic integer u8_at{L}(uint8_t *p, integer i) = p[i];
  @*/

/*@ // Bit i of compacted bank word j is owed to a target CPU below hi.
  @ predicate bank_bit{L}(unsigned long *m, integer nr, uint32_t *t,
  @                       integer self, integer excl, uint8_t *rank,
  @                       integer hi, integer j, integer i) =
  @   \exists integer c; 0 <= c < hi && target(m, nr, t, self, excl, c) &&
  @     t[c] < 4096 && rank[t[c] / 64] == j && t[c] % 64 == i;
  @*/

/* Second pass: OR each target VP into its compacted bank word. */
/*@ requires nbanks <= 64;
  @ requires \valid(bank_words + (0 .. nbanks - 1));
  @ requires \valid_read(rank + (0 .. 63));
  @ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires \separated(bank_words + (0 .. nbanks - 1), rank + (0 .. 63),
  @   mask + (0 .. mask_words(nr_cpu_ids) - 1), vp_index + (0 .. nr_cpu_ids - 1));
  @ requires rank_fits: \forall integer c; target(HVIPI_SEND, c) &&
  @   vp_index[c] < 4096 ==> rank[vp_index[c] / 64] < nbanks;
  @ assigns bank_words[0 .. nbanks - 1];
  @ ensures words: \forall integer j, i; 0 <= j < nbanks && 0 <= i < 64 ==>
  @   (bit64(bank_words[j], i) <==>
  @    bank_bit{Pre}(HVIPI_SEND, rank, nr_cpu_ids, j, i));
  @*/
static void hvipi_fill_banks(uint64_t *bank_words, uint32_t nbanks,
			     const uint8_t rank[64], const unsigned long *mask,
			     uint32_t nr_cpu_ids, const uint32_t *vp_index,
			     uint32_t self, bool exclude_self)
{
	uint32_t i, cpu = 0;

	/*@ loop invariant 0 <= i <= nbanks;
	  @ loop invariant \forall integer j; 0 <= j < i ==> bank_words[j] == 0;
	  @ loop assigns i, bank_words[0 .. nbanks - 1];
	  @ loop variant nbanks - i;
	  @*/
	for (i = 0; i < nbanks; i++)
		bank_words[i] = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant words: \forall integer j, i;
	  @   0 <= j < nbanks && 0 <= i < 64 ==>
	  @   (bit64(bank_words[j], i) <==>
	  @    bank_bit{Pre}(HVIPI_SEND, rank, cpu, j, i));
	  @ loop assigns cpu, bank_words[0 .. nbanks - 1];
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids) {
		unsigned long word = mask[cpu / 64u];
		uint32_t vp;

		if (cpu % 64u == 0 && word == 0) {
			uint32_t next = nr_cpu_ids - cpu <= 64u ? nr_cpu_ids : cpu + 64u;

			/*@ assert empty_word: \forall integer c;
			  @   cpu <= c < cpu + 64 ==> !cpu_in{Pre}(mask, c); */
			/*@ assert skip: \forall integer jj, ii;
			  @   bank_bit{Pre}(HVIPI_SEND, rank, next, jj, ii) <==>
			  @   bank_bit{Pre}(HVIPI_SEND, rank, cpu, jj, ii); */
			cpu = next;
			continue;
		}
		if (((word >> (cpu % 64u)) & 1u) != 0 &&
		    !(exclude_self && cpu == self)) {
			/*@ assert is_target: target{Pre}(HVIPI_SEND, cpu); */
			vp = vp_index[cpu];
			/*@ assert vp == u32_at{Pre}(vp_index, cpu); */
			if (vp < HVIPI_VP_LIMIT) {
				uint32_t j = rank[vp / 64u];
				uint64_t old = bank_words[j];

				/*@ assert j == u8_at{Pre}(rank, vp / 64) && j < nbanks; */
				/*@ assert step_in: \forall integer jj, ii;
				  @   bank_bit{Pre}(HVIPI_SEND, rank, cpu + 1, jj, ii) <==>
				  @   (bank_bit{Pre}(HVIPI_SEND, rank, cpu, jj, ii) ||
				  @    (jj == j && ii == vp % 64)); */
				bank_words[j] = old | (1ull << (vp % 64u));
				/*@ assert set_bit: \forall integer i; 0 <= i < 64 ==>
				  @   (bit64(bank_words[j], i) <==>
				  @    (bit64(old, i) || i == vp % 64)); */
				/*@ assert others: \forall integer k;
				  @   0 <= k < nbanks && k != j ==>
				  @   bank_words[k] == \at(bank_words[k], LoopCurrent); */
			} else {
				/*@ assert step_big: \forall integer jj, ii;
				  @   bank_bit{Pre}(HVIPI_SEND, rank, cpu + 1, jj, ii) <==>
				  @   bank_bit{Pre}(HVIPI_SEND, rank, cpu, jj, ii); */
			}
		} else {
			/*@ assert not_target: !target{Pre}(HVIPI_SEND, cpu); */
			/*@ assert step_none: \forall integer jj, ii;
			  @   bank_bit{Pre}(HVIPI_SEND, rank, cpu + 1, jj, ii) <==>
			  @   bank_bit{Pre}(HVIPI_SEND, rank, cpu, jj, ii); */
		}
		cpu++;
	}
}

/* Does the target set (self kept) equal the present set? */
/*@ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ assigns \nothing;
  @ ensures same: \result <==> same_cpus(mask, present, nr_cpu_ids);
  @*/
static bool hvipi_same_set(const unsigned long *mask,
			   const unsigned long *present, uint32_t nr_cpu_ids)
{
	uint32_t cpu = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant same: \forall integer c; 0 <= c < cpu ==>
	  @   (cpu_in(mask, c) <==> cpu_in(present, c));
	  @ loop assigns cpu;
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids) {
		unsigned long a = mask[cpu / 64u], p = present[cpu / 64u];

		if (cpu % 64u == 0 && a == p) {
			/*@ assert same_word: \forall integer c;
			  @   cpu <= c < cpu + 64 ==>
			  @   (cpu_in(mask, c) <==> cpu_in(present, c)); */
			cpu = nr_cpu_ids - cpu <= 64u ? nr_cpu_ids : cpu + 64u;
			continue;
		}
		if (((a >> (cpu % 64u)) & 1u) != ((p >> (cpu % 64u)) & 1u))
			return false;
		cpu++;
	}
	return true;
}

/*@ requires \valid(plan);
  @ requires reason != HVIPI_FB_NONE;
  @ assigns plan->kind, plan->reason;
  @ ensures plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == reason;
  @*/
static void hvipi_fallback(struct hvipi_plan *plan, uint32_t reason)
{
	plan->kind = HVIPI_PLAN_FALLBACK;
	plan->reason = reason;
}

/*@ requires \valid(plan);
  @ assigns *plan;
  @ ensures plan->kind == HVIPI_PLAN_NONE && plan->reason == HVIPI_FB_NONE &&
  @   plan->control == 0 && plan->rdx == 0 && plan->r8 == 0 &&
  @   plan->valid_bank_mask == 0 && plan->banks == 0 && plan->bytes == 0;
  @*/
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

/* A fast Send-IPI: vector in rdx, the VP mask in r8. */
/*@ requires \valid(plan);
  @ requires vector_ok(vector);
  @ assigns plan->kind, plan->control, plan->rdx, plan->r8;
  @ ensures plan->kind == HVIPI_PLAN_FAST;
  @ ensures ctl_is(plan->control, HVIPI_CALL_SEND_IPI, 1, 0);
  @ ensures plan->rdx == vector && plan->r8 == vp_mask;
  @*/
static void hvipi_encode_fast(struct hvipi_plan *plan, uint32_t vector,
			      uint64_t vp_mask)
{
	plan->kind = HVIPI_PLAN_FAST;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI, true, 0);
	plan->rdx = vector;
	plan->r8 = vp_mask;
}

/* An Ex send in the "all" format: a 24-byte header, no bank. */
/*@ requires \valid(plan) && \valid(page + (0 .. 2));
  @ requires \separated(plan, page + (0 .. 2));
  @ assigns plan->kind, plan->control, plan->bytes, page[0 .. 2];
  @ ensures plan->kind == HVIPI_PLAN_EX_ALL;
  @ ensures ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, 0);
  @ ensures ex_header(page, vector, HVIPI_FORMAT_ALL) && page[2] == 0;
  @ ensures plan->bytes == HVIPI_EX_HDR_BYTES;
  @*/
static void hvipi_encode_all(struct hvipi_plan *plan, uint64_t *page,
			     uint32_t vector)
{
	page[0] = vector;
	page[1] = HVIPI_FORMAT_ALL;
	page[2] = 0;
	plan->kind = HVIPI_PLAN_EX_ALL;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 0);
	plan->bytes = HVIPI_EX_HDR_BYTES;
}

/*
 * A sparse Ex send: the compacted banks of @banks (the non-empty banks of
 * the target set, all of whose VPs are below 4096) written to the page,
 * or a NO_PAGE fallback when the page cannot hold them.
 */
/*@ requires \valid(plan);
  @ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires \separated(plan, mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @   vp_index + (0 .. nr_cpu_ids - 1), page + (0 .. page_size / 8 - 1));
  @ requires \separated(page + (0 .. page_size / 8 - 1),
  @   mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @   vp_index + (0 .. nr_cpu_ids - 1));
  @ requires vector_ok(vector);
  @ requires banks_def: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(banks, k) <==> bank_used(HVIPI_SEND, k));
  @ requires all_known: \forall integer c; target(HVIPI_SEND, c) ==>
  @   vp_index[c] < 4096;
  @ requires plan->bytes == 0;
  @ assigns plan->kind, plan->reason, plan->control, plan->valid_bank_mask,
  @   plan->banks, plan->bytes, page[0 .. page_size / 8 - 1];
  @ ensures bank_set: plan->valid_bank_mask == banks;
  @ ensures bank_count: plan->banks == popcount64(plan->valid_bank_mask);
  @ ensures sparse_exact: page_holds(page, page_size,
  @     HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_EX_SPARSE && plan->reason == \old(plan->reason);
  @ ensures fallback_exact: !page_holds(page, page_size,
  @     HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE &&
  @   plan->bytes == 0;
  @ ensures well_formed: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, plan->banks) &&
  @   ex_header(page, vector, HVIPI_FORMAT_SPARSE) &&
  @   page[2] == plan->valid_bank_mask &&
  @   plan->bytes == HVIPI_EX_HDR_BYTES + 8 * plan->banks;
  @ ensures bit_coverage: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   \forall integer k; bit64(page[2], k) ==>
  @     bits_below(page[2], k) < plan->banks &&
  @     page[3 + bits_below(page[2], k)] != 0;
  @ ensures bit_coverage: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   \forall integer v; 0 <= v < 4096 && bit64(page[2], v / 64) ==>
  @     (bit64(page[3 + bits_below(page[2], v / 64)], v % 64) <==>
  @      vp_target(HVIPI_SEND, v));
  @ ensures no_vp_lost: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   \forall integer c; target(HVIPI_SEND, c) ==>
  @     sparse_reads(page, vp_index[c]);
  @ ensures no_spurious_vp: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   \forall integer v; sparse_reads(page, v) ==> vp_target(HVIPI_SEND, v);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @*/
static void hvipi_encode_sparse(struct hvipi_plan *plan, uint64_t *page,
				uint32_t page_size, uint32_t vector,
				uint64_t banks, const unsigned long *mask,
				uint32_t nr_cpu_ids, const uint32_t *vp_index,
				uint32_t self, bool exclude_self)
{
	uint8_t rank[64];
	uint32_t nbanks = hvipi_rank(banks, rank);

	plan->valid_bank_mask = banks;
	plan->banks = nbanks;
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u * nbanks) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		return;
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = banks;
	/*@ assert rank_fits: \forall integer c; target(HVIPI_SEND, c) &&
	  @   vp_index[c] < 4096 ==> rank[vp_index[c] / 64] < nbanks; */
	/*@ ghost Fill: ; */
	hvipi_fill_banks(page + HVIPI_EX_HDR_WORDS, nbanks, rank, mask,
			 nr_cpu_ids, vp_index, self, exclude_self);
	/* What the fill left alone: the header, the mask, the table, rank. */
	/*@ assert header: page[0] == vector && page[1] == HVIPI_FORMAT_SPARSE &&
	  @   page[2] == banks; */
	/*@ assert frame_mask: \forall integer w; 0 <= w < mask_words(nr_cpu_ids) ==>
	  @   mask[w] == \at(mask[w], Fill); */
	/*@ assert frame_table: \forall integer c; 0 <= c < nr_cpu_ids ==>
	  @   vp_index[c] == \at(vp_index[c], Fill); */
	/*@ assert frame_rank: \forall integer k; 0 <= k < 64 ==>
	  @   rank[k] == \at(rank[k], Fill); */
	/*@ assert frame_target: \forall integer c;
	  @   target(HVIPI_SEND, c) <==> target{Fill}(HVIPI_SEND, c); */
	/*@ assert filled: \forall integer j, i; 0 <= j < nbanks && 0 <= i < 64 ==>
	  @   (bit64(page[3 + j], i) <==>
	  @    bank_bit{Fill}(HVIPI_SEND, &rank[0], nr_cpu_ids, j, i)); */
	/*@ assert words: \forall integer j, i; 0 <= j < nbanks && 0 <= i < 64 ==>
	  @   (bit64(page[3 + j], i) <==>
	  @    bank_bit(HVIPI_SEND, &rank[0], nr_cpu_ids, j, i)); */
	/*@ assert index: \forall integer k; 0 <= k < 64 && bit64(page[2], k) ==>
	  @   bits_below(page[2], k) == rank[k] && rank[k] < nbanks; */
	/*@ assert lost: \forall integer c; target(HVIPI_SEND, c) ==>
	  @   bit64(page[2], vp_index[c] / 64) &&
	  @   bit64(page[3 + rank[vp_index[c] / 64]], vp_index[c] % 64); */
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, nbanks);
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u * nbanks;
}

void hvipi_plan_mask(struct hvipi_plan *plan, const unsigned long *mask,
		     const unsigned long *present, uint32_t nr_cpu_ids,
		     const uint32_t *vp_index, uint32_t self, bool exclude_self,
		     uint32_t vector, uint32_t hints, uint64_t *page,
		     uint32_t page_size)
{
	struct hvipi_scan s;

	hvipi_plan_clear(plan);
	s = hvipi_scan(mask, nr_cpu_ids, vp_index, self, exclude_self);

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
		hvipi_encode_fast(plan, vector, s.low);
		return;
	}
	if ((hints & HVIPI_HINT_EX_MASKS) && present && !exclude_self &&
	    hvipi_same_set(mask, present, nr_cpu_ids)) {
		if (!page || page_size < HVIPI_EX_HDR_BYTES)
			hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		else
			hvipi_encode_all(plan, page, vector);
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
	hvipi_encode_sparse(plan, page, page_size, vector, s.banks, mask,
			    nr_cpu_ids, vp_index, self, exclude_self);
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
		hvipi_encode_fast(plan, vector, 1ull << vp);
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
	/*
	 * Ghost induction: a one-bit word has no set bit below its bit and
	 * exactly one at or above it, so the bank's compacted index is 0 and
	 * the popcount is 1.
	 */
	/*@ ghost
	  @ int k;
	  @ /@ loop invariant 0 <= k <= 64;
	  @    loop invariant \forall integer j; 0 <= j <= k ==>
	  @      bits_below(plan->valid_bank_mask, j) == (j > vp / 64 ? 1 : 0);
	  @    loop assigns k;
	  @    loop variant 64 - k;
	  @ @/
	  @ for (k = 0; k < 64; k++)
	  @   ;
	  @*/
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		return;
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = plan->valid_bank_mask;
	page[3] = 1ull << (vp % 64u);
	/*@ assert one_bank: bit64(page[2], vp / 64) &&
	  @   bits_below(page[2], vp / 64) == 0; */
	/*@ assert one_vp: bit64(page[3], vp % 64); */
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 1);
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u;
}
