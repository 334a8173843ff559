/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi: planning and encoding of one Hyper-V PV IPI send.
 *
 * Two passes over the target mask.  The first (hvipi_scan) reads the VP of
 * every target CPU and summarises the set: the VPs below 64, the non-empty
 * banks, and whether any VP is unknown, >= 64 or >= 4096.  That decides
 * the plan without writing anything.  Only for a sparse Ex plan, once the
 * page is known to be large enough, the second pass (hvipi_fill_banks)
 * writes the compacted bank words.  When XMM input is available and the
 * set has at most 11 banks, the same pass writes the same input words
 * into the plan instead (plan.input[], rdx, r8 and xmm0..xmm5 in the
 * page's layout) and the page is not touched: an XMM-fast Ex plan.
 *
 * Both passes go a mask word (64 CPUs) at a time where they can.  The
 * caller says how many leading CPUs are their own VPs (vp_ident, from
 * hvipi_vp_ident(), computed once by the glue; 0 is always allowed).  A
 * word whose 64 CPUs all lie below vp_ident and 4096 and hold no excluded
 * self is the bank word of its 64 VPs as it stands, so it is taken whole
 * without reading the table (the word path).  Every other word is read CPU
 * by CPU.  The postconditions do not mention vp_ident: the plan is the one
 * the per-CPU reading gives, whatever prefix the caller passes.
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

/*
 * The lowest set bit of @word, 64 when none is set.  A word path uses it as
 * the witness that a non-zero mask word holds a target CPU.
 */
/*@ assigns \nothing;
  @ ensures range: 0 <= \result <= 64;
  @ ensures below_clear: \forall integer i; 0 <= i < \result ==> !bit64(word, i);
  @ ensures found: \result < 64 ==> bit64(word, \result);
  @*/
static uint32_t hvipi_first_bit(uint64_t word)
{
	uint32_t i = 0;

	/*@ loop invariant 0 <= i <= 64;
	  @ loop invariant below_clear: \forall integer j; 0 <= j < i ==>
	  @   !bit64(word, j);
	  @ loop assigns i;
	  @ loop variant 64 - i;
	  @*/
	while (i < 64u && ((word >> i) & 1u) == 0)
		i++;
	return i;
}

/*
 * First pass.  A mask word whose 64 CPUs are all below vp_ident and 4096
 * and do not hold an excluded self is taken whole: it is bank word cpu / 64
 * as it stands (the word path).  Every other target CPU is read one at a
 * time; the current mask word stays in a register.
 */
/*@ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires ident: vp_ident <= nr_cpu_ids && vp_identity(vp_index, vp_ident);
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
				    const uint32_t *vp_index, uint32_t vp_ident,
				    uint32_t self, bool exclude_self)
{
	struct hvipi_scan s;
	uint64_t low = 0, banks = 0;
	bool any = false, unknown = false, high = false, huge = false;
	uint32_t cpu = 0, skip = exclude_self ? self : nr_cpu_ids;
	unsigned long word = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant word_cur: cpu % 64 != 0 ==> word == mask[cpu / 64];
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
	  @ loop assigns cpu, word, low, banks, any, unknown, high, huge;
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids) {
		uint32_t vp, first;

		if (cpu % 64u == 0) {
			word = mask[cpu / 64u];
			if (word == 0) {
				/* A whole empty word: none of its CPUs is a target. */
				/*@ assert empty_word: \forall integer c;
				  @   cpu <= c < cpu + 64 ==> !cpu_in(mask, c); */
				cpu = nr_cpu_ids - cpu <= 64u ? nr_cpu_ids : cpu + 64u;
				continue;
			}
			if (vp_ident >= 64u && cpu <= vp_ident - 64u &&
			    cpu < HVIPI_VP_LIMIT &&
			    !(exclude_self && self / 64u == cpu / 64u) &&
			    (first = hvipi_first_bit(word)) < 64u) {
				/*@ assert word_targets: \forall integer c;
				  @   cpu <= c < cpu + 64 ==>
				  @   (target(HVIPI_SEND, c) <==> bit64(word, c - cpu)) &&
				  @   vp_index[c] == c; */
				/*@ assert witness: target(HVIPI_SEND, cpu + first) &&
				  @   vp_index[cpu + first] == cpu + first; */
				/*@ assert word_bank: \forall integer k; 0 <= k < 64 ==>
				  @   ((\exists integer c; cpu <= c < cpu + 64 &&
				  @     target(HVIPI_SEND, c) && vp_index[c] < 4096 &&
				  @     vp_index[c] / 64 == k) <==> k == cpu / 64); */
				any = true;
				if (cpu == 0) {
					low = word;
					banks |= 1u;
				} else {
					/*@ assert 0 < cpu / 64 < 64; */
					banks |= 1ull << (cpu / 64u);
					/*@ assert banks_set: \forall integer k; 0 <= k < 64 ==>
					  @   (bit64(banks, k) <==>
					  @    (bit64(\at(banks, LoopCurrent), k) || k == cpu / 64)); */
					high = true;
				}
				cpu += 64u;
				continue;
			}
		}
		if (((word >> (cpu % 64u)) & 1u) == 0 || cpu == skip) {
			/*@ assert not_target: !target(HVIPI_SEND, cpu); */
			cpu++;
			continue;
		}
		/*@ assert is_target: target(HVIPI_SEND, cpu); */
		any = true;
		vp = vp_index[cpu];
		if (vp < HVIPI_FAST_VP_LIMIT) {
			low |= 1ull << vp;
			banks |= 1u;
		} else if (vp < HVIPI_VP_LIMIT) {
			banks |= 1ull << (vp / 64u);
			high = true;
		} else if (vp == HVIPI_VP_INVAL) {
			unknown = true;
		} else {
			huge = true;
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
  @ ensures index_fits: \forall integer k; 0 <= k < 64 && bit64(banks, k) ==>
  @   0 <= bits_below(banks, k) < \result;
  @ ensures index_injective: \forall integer k1, k2;
  @   0 <= k1 < 64 && 0 <= k2 < 64 && bit64(banks, k1) && bit64(banks, k2) &&
  @   bits_below(banks, k1) == bits_below(banks, k2) ==> k1 == k2;
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

/*@ // A memory read at a given label, with an index from another state.
  @ logic integer u32_at{L}(uint32_t *p, integer i) = p[i];
  @ logic integer ulong_at{L}(unsigned long *p, integer i) = p[i];
  @*/

/*
 * Second pass: write the Ex input of a sparse set to @page: the header
 * (vector, format, valid-bank mask @banks), then each target VP ORed into
 * its compacted bank word, page[3 + rank[bank]].  A whole mask word of
 * CPUs below @vp_ident (their own VPs) is ORed into its bank word at once;
 * the other words are read CPU by CPU (the inner loop).
 */
/*@ requires nbanks <= 64;
  @ requires \valid(page + (0 .. 2 + nbanks));
  @ requires \valid_read(rank + (0 .. 63));
  @ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires \separated(page + (0 .. 2 + nbanks), rank + (0 .. 63),
  @   mask + (0 .. mask_words(nr_cpu_ids) - 1), vp_index + (0 .. nr_cpu_ids - 1));
  @ requires rank_def: \forall integer k; 0 <= k < 64 ==>
  @   rank[k] == bits_below(banks, k);
  @ requires rank_fits: \forall integer c; target(HVIPI_SEND, c) &&
  @   vp_index[c] < 4096 ==> bits_below(banks, vp_index[c] / 64) < nbanks;
  @ requires ident: vp_ident <= nr_cpu_ids && vp_identity(vp_index, vp_ident);
  @ assigns page[0 .. 2 + nbanks];
  @ ensures header: page[0] == vector && page[1] == HVIPI_FORMAT_SPARSE &&
  @   page[2] == banks;
  @ ensures words: \forall integer j, i; 0 <= j < nbanks && 0 <= i < 64 ==>
  @   (bit64(page[3 + j], i) <==>
  @    bank_bit{Pre}(HVIPI_SEND, banks, nr_cpu_ids, j, i));
  @*/
static void hvipi_fill_banks(uint64_t *page, uint32_t nbanks, uint32_t vector,
			     uint64_t banks, const uint8_t rank[64],
			     const unsigned long *mask, uint32_t nr_cpu_ids,
			     const uint32_t *vp_index, uint32_t vp_ident,
			     uint32_t self, bool exclude_self)
{
	uint32_t i, cpu = 0, skip = exclude_self ? self : nr_cpu_ids;

	/*@ loop invariant 3 <= i <= 3 + nbanks;
	  @ loop invariant zeroed: \forall integer j; 3 <= j < i ==> page[j] == 0;
	  @ loop assigns i, page[3 .. 2 + nbanks];
	  @ loop variant 3 + nbanks - i;
	  @*/
	for (i = HVIPI_EX_HDR_WORDS; i < HVIPI_EX_HDR_WORDS + nbanks; i++)
		page[i] = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant at_word: cpu % 64 == 0 || cpu == nr_cpu_ids;
	  @ loop invariant words: \forall integer j, i;
	  @   0 <= j < nbanks && 0 <= i < 64 ==>
	  @   (bit64(page[3 + j], i) <==>
	  @    bank_bit{Pre}(HVIPI_SEND, banks, cpu, j, i));
	  @ loop assigns cpu, page[3 .. 2 + nbanks];
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids) {
		/* One mask word: CPUs cpu .. end - 1. */
		uint32_t end = nr_cpu_ids - cpu <= 64u ? nr_cpu_ids : cpu + 64u;
		unsigned long word = mask[cpu / 64u];
		uint32_t first;

		/*@ assert word == ulong_at{Pre}(mask, cpu / 64); */
		if (word == 0) {
			/*@ assert empty_word: \forall integer c;
			  @   cpu <= c < cpu + 64 ==> !cpu_in{Pre}(mask, c); */
			/*@ assert skip: \forall integer jj, ii;
			  @   bank_bit{Pre}(HVIPI_SEND, banks, end, jj, ii) <==>
			  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu, jj, ii); */
			cpu = end;
			continue;
		}
		if (vp_ident >= 64u && cpu <= vp_ident - 64u &&
		    cpu < HVIPI_VP_LIMIT &&
		    !(exclude_self && self / 64u == cpu / 64u) &&
		    (first = hvipi_first_bit(word)) < 64u) {
			/* The word is bank cpu / 64's word: OR it in whole. */
			uint32_t j = rank[cpu / 64u];
			uint64_t old;

			/*@ assert word_cpus: \forall integer c; cpu <= c < cpu + 64 ==>
			  @   c / 64 == cpu / 64 && c % 64 == c - cpu; */
			/*@ assert word_targets: \forall integer c;
			  @   cpu <= c < cpu + 64 ==>
			  @   (target{Pre}(HVIPI_SEND, c) <==> bit64(word, c - cpu)) &&
			  @   \at(vp_index[c], Pre) == c; */
			/*@ assert word_bits: \forall integer ii; bit64(word, ii) ==>
			  @   target{Pre}(HVIPI_SEND, cpu + ii) &&
			  @   u32_at{Pre}(vp_index, cpu + ii) == cpu + ii &&
			  @   (cpu + ii) / 64 == cpu / 64 && (cpu + ii) % 64 == ii; */
			/*@ assert witness: target{Pre}(HVIPI_SEND, cpu + first) &&
			  @   u32_at{Pre}(vp_index, cpu + first) == cpu + first; */
			/*@ assert j == bits_below(banks, cpu / 64) && j < nbanks; */
			/*@ assert word_step_in: \forall integer ii; bit64(word, ii) ==>
			  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu + 64, j, ii); */
			/*@ assert word_step_old: \forall integer jj, ii;
			  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu + 64, jj, ii) ==>
			  @   (bank_bit{Pre}(HVIPI_SEND, banks, cpu, jj, ii) ||
			  @    (jj == j && bit64(word, ii))); */
			/*@ assert word_step: \forall integer jj, ii;
			  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu + 64, jj, ii) <==>
			  @   (bank_bit{Pre}(HVIPI_SEND, banks, cpu, jj, ii) ||
			  @    (jj == j && bit64(word, ii))); */
			old = page[HVIPI_EX_HDR_WORDS + j];
			page[HVIPI_EX_HDR_WORDS + j] = old | word;
			/*@ assert or_word: \forall integer i; 0 <= i < 64 ==>
			  @   (bit64(page[3 + j], i) <==>
			  @    (bit64(old, i) || bit64(word, i))); */
			/*@ assert others: \forall integer k;
			  @   0 <= k < nbanks && k != j ==>
			  @   page[3 + k] == \at(page[3 + k], LoopCurrent); */
			cpu = end;
			continue;
		}
		/*@ loop invariant in_word: \at(cpu, LoopEntry) <= cpu <= end;
		  @ loop invariant words: \forall integer j, i;
		  @   0 <= j < nbanks && 0 <= i < 64 ==>
		  @   (bit64(page[3 + j], i) <==>
		  @    bank_bit{Pre}(HVIPI_SEND, banks, cpu, j, i));
		  @ loop assigns cpu, page[3 .. 2 + nbanks];
		  @ loop variant end - cpu;
		  @*/
		while (cpu < end) {
			uint32_t vp;

			/*@ assert cpu / 64 == \at(cpu, LoopEntry) / 64; */
			if (((word >> (cpu % 64u)) & 1u) != 0 && cpu != skip) {
				/*@ assert is_target: target{Pre}(HVIPI_SEND, cpu); */
				vp = vp_index[cpu];
				/*@ assert vp == u32_at{Pre}(vp_index, cpu); */
				if (vp < HVIPI_VP_LIMIT) {
					uint32_t j = rank[vp / 64u];
					uint64_t old = page[HVIPI_EX_HDR_WORDS + j];

					/*@ assert j == bits_below(banks, vp / 64) && j < nbanks; */
					/*@ assert step_in: \forall integer jj, ii;
					  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu + 1, jj, ii) <==>
					  @   (bank_bit{Pre}(HVIPI_SEND, banks, cpu, jj, ii) ||
					  @    (jj == j && ii == vp % 64)); */
					page[HVIPI_EX_HDR_WORDS + j] = old | (1ull << (vp % 64u));
					/*@ assert set_bit: \forall integer i; 0 <= i < 64 ==>
					  @   (bit64(page[3 + j], i) <==>
					  @    (bit64(old, i) || i == vp % 64)); */
					/*@ assert others: \forall integer k;
					  @   0 <= k < nbanks && k != j ==>
					  @   page[3 + k] == \at(page[3 + k], LoopCurrent); */
				} else {
					/*@ assert step_big: \forall integer jj, ii;
					  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu + 1, jj, ii) <==>
					  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu, jj, ii); */
				}
			} else {
				/*@ assert not_target: !target{Pre}(HVIPI_SEND, cpu); */
				/*@ assert step_none: \forall integer jj, ii;
				  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu + 1, jj, ii) <==>
				  @   bank_bit{Pre}(HVIPI_SEND, banks, cpu, jj, ii); */
			}
			cpu++;
		}
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = banks;
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

/*
 * The plan writers.  Each one writes every field of the plan (and the
 * page, for Ex), and the callers call exactly one of them after deciding:
 * nothing is written before the decision, so the inputs a writer's
 * contract speaks of are the inputs of the entry point.
 */

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

/*@ requires \valid(plan);
  @ requires reason != HVIPI_FB_NONE;
  @ assigns *plan;
  @ ensures plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == reason;
  @ ensures plan->control == 0 && plan->rdx == 0 && plan->r8 == 0 &&
  @   plan->valid_bank_mask == 0 && plan->banks == 0 && plan->bytes == 0;
  @*/
static void hvipi_fallback(struct hvipi_plan *plan, uint32_t reason)
{
	hvipi_plan_clear(plan);
	plan->kind = HVIPI_PLAN_FALLBACK;
	plan->reason = reason;
}

/* A fast Send-IPI: vector in rdx, the VP mask in r8. */
/*@ requires \valid(plan);
  @ requires vector_ok(vector);
  @ assigns *plan;
  @ ensures plan->kind == HVIPI_PLAN_FAST && plan->reason == HVIPI_FB_NONE;
  @ ensures ctl_is(plan->control, HVIPI_CALL_SEND_IPI, 1, 0);
  @ ensures plan->rdx == vector && plan->r8 == vp_mask;
  @ ensures plan->valid_bank_mask == 0 && plan->banks == 0 && plan->bytes == 0;
  @*/
static void hvipi_encode_fast(struct hvipi_plan *plan, uint32_t vector,
			      uint64_t vp_mask)
{
	hvipi_plan_clear(plan);
	plan->kind = HVIPI_PLAN_FAST;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI, true, 0);
	plan->rdx = vector;
	plan->r8 = vp_mask;
}

/* An Ex send in the "all" format: a 24-byte header, no bank. */
/*@ requires \valid(plan) && \valid(page + (0 .. 2));
  @ requires \separated(plan, page + (0 .. 2));
  @ assigns *plan, page[0 .. 2];
  @ ensures plan->kind == HVIPI_PLAN_EX_ALL && plan->reason == HVIPI_FB_NONE;
  @ ensures ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, 0);
  @ ensures ex_header(page, vector, HVIPI_FORMAT_ALL) && page[2] == 0;
  @ ensures plan->rdx == 0 && plan->r8 == 0 && plan->valid_bank_mask == 0 &&
  @   plan->banks == 0 && plan->bytes == HVIPI_EX_HDR_BYTES;
  @*/
static void hvipi_encode_all(struct hvipi_plan *plan, uint64_t *page,
			     uint32_t vector)
{
	hvipi_plan_clear(plan);
	plan->kind = HVIPI_PLAN_EX_ALL;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 0);
	plan->bytes = HVIPI_EX_HDR_BYTES;
	page[0] = vector;
	page[1] = HVIPI_FORMAT_ALL;
	page[2] = 0;
}

/*
 * A sparse Ex send: the compacted banks of @banks (the non-empty banks of
 * the target set, all of whose VPs are below 4096) written to plan.input
 * as an XMM-fast call when @hints has XMM input and there are at most 11
 * of them; else to the page, or a NO_PAGE fallback when the page cannot
 * hold them.  The target set is the one at entry (label Pre).
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
  @ requires ident: vp_ident <= nr_cpu_ids && vp_identity(vp_index, vp_ident);
  @ assigns *plan, page[0 .. page_size / 8 - 1];
  @ ensures bank_set: plan->valid_bank_mask == banks;
  @ ensures bank_count: plan->banks == popcount64(plan->valid_bank_mask);
  @ ensures zero_regs: plan->kind != HVIPI_PLAN_EX_XMM ==>
  @   plan->rdx == 0 && plan->r8 == 0;
  @ ensures xmm_exact: xmm_fits(hints, plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_EX_XMM && plan->reason == HVIPI_FB_NONE;
  @ ensures sparse_exact: !xmm_fits(hints, plan->banks) &&
  @   page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_EX_SPARSE && plan->reason == HVIPI_FB_NONE;
  @ ensures fallback_exact: !xmm_fits(hints, plan->banks) &&
  @   !page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE &&
  @   plan->control == 0 && plan->bytes == 0;
  @ ensures well_formed: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @   xmm_call(plan->control, plan->rdx, plan->r8, &plan->input[0], vector,
  @            plan->valid_bank_mask, plan->banks) && plan->bytes == 0;
  @ ensures bit_coverage: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @   \forall integer k; bit64(plan->input[2], k) ==>
  @     bits_below(plan->input[2], k) < plan->banks &&
  @     plan->input[3 + bits_below(plan->input[2], k)] != 0;
  @ ensures bit_coverage: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @   \forall integer v; 0 <= v < 4096 && bit64(plan->input[2], v / 64) ==>
  @     (bit64(plan->input[3 + bits_below(plan->input[2], v / 64)], v % 64)
  @      <==> vp_target{Pre}(HVIPI_SEND, v));
  @ ensures no_vp_lost: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @   \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
  @     sparse_reads(&plan->input[0], \old(vp_index[c]));
  @ ensures no_spurious_vp: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @   \forall integer v; sparse_reads(&plan->input[0], v) ==>
  @     vp_target{Pre}(HVIPI_SEND, v);
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
  @      vp_target{Pre}(HVIPI_SEND, v));
  @ ensures no_vp_lost: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
  @     sparse_reads(page, \old(vp_index[c]));
  @ ensures no_spurious_vp: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   \forall integer v; sparse_reads(page, v) ==>
  @     vp_target{Pre}(HVIPI_SEND, v);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @*/
static void hvipi_encode_sparse(struct hvipi_plan *plan, uint64_t *page,
				uint32_t page_size, uint32_t vector,
				uint64_t banks, const unsigned long *mask,
				uint32_t nr_cpu_ids, const uint32_t *vp_index,
				uint32_t vp_ident, uint32_t self,
				bool exclude_self, uint32_t hints)
{
	uint8_t rank[64];
	uint32_t nbanks = hvipi_rank(banks, rank);

	/* The reading of a compacted set, before anything is written. */
	/*@ assert fits_v: \forall integer v; 0 <= v < 4096 && bit64(banks, v / 64) ==>
	  @   0 <= bits_below(banks, v / 64) < nbanks; */
	/*@ assert lost: \forall integer c; target(HVIPI_SEND, c) ==>
	  @   vp_index[c] < 4096 && bit64(banks, vp_index[c] / 64) &&
	  @   bits_below(banks, vp_index[c] / 64) < nbanks &&
	  @   bank_bit(HVIPI_SEND, banks, nr_cpu_ids,
	  @            bits_below(banks, vp_index[c] / 64), vp_index[c] % 64); */
	/*@ assert spurious: \forall integer v;
	  @   0 <= v < 4096 && bit64(banks, v / 64) &&
	  @   bank_bit(HVIPI_SEND, banks, nr_cpu_ids, bits_below(banks, v / 64),
	  @            v % 64) ==> vp_target(HVIPI_SEND, v); */
	/*@ assert nonempty: \forall integer k; 0 <= k < 64 && bit64(banks, k) ==>
	  @   \exists integer i; 0 <= i < 64 &&
	  @   bank_bit(HVIPI_SEND, banks, nr_cpu_ids, bits_below(banks, k), i); */
	/*@ assert lost_v: \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
	  @   \at(vp_index[c], Pre) < 4096 &&
	  @   bit64(banks, \at(vp_index[c], Pre) / 64) &&
	  @   vp_target{Pre}(HVIPI_SEND, \at(vp_index[c], Pre)); */
	if ((hints & HVIPI_HINT_XMM_INPUT) && nbanks <= HVIPI_XMM_BANKS_MAX) {
		/* XMM-fast: the same input, in the plan's 14 words. */
		uint32_t i;

		hvipi_fill_banks(plan->input, nbanks, vector, banks, rank, mask,
				 nr_cpu_ids, vp_index, vp_ident, self,
				 exclude_self);
		/*@ ghost XFilled: ; */
		/*@ assert xmm_page_kept: \forall integer j; 0 <= j < page_size / 8 ==>
		  @   page[j] == \at(page[j], Pre); */
		/*@ loop invariant 3 + nbanks <= i <= 14;
		  @ loop invariant zeroed: \forall integer j; 3 + nbanks <= j < i ==>
		  @   plan->input[j] == 0;
		  @ loop invariant kept: \forall integer j; 0 <= j < 3 + nbanks ==>
		  @   plan->input[j] == \at(plan->input[j], XFilled);
		  @ loop invariant page_kept: \forall integer j;
		  @   0 <= j < page_size / 8 ==> page[j] == \at(page[j], Pre);
		  @ loop assigns i, plan->input[3 + nbanks .. 13];
		  @ loop variant 14 - i;
		  @*/
		for (i = HVIPI_EX_HDR_WORDS + nbanks; i < HVIPI_XMM_INPUT_WORDS; i++)
			plan->input[i] = 0;
		/*@ ghost XZeroed: ; */
		plan->kind = HVIPI_PLAN_EX_XMM;
		plan->reason = HVIPI_FB_NONE;
		plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, true, nbanks);
		plan->rdx = vector;
		plan->r8 = HVIPI_FORMAT_SPARSE;
		plan->valid_bank_mask = banks;
		plan->banks = nbanks;
		plan->bytes = 0;
		/*@ assert xmm_kept: \forall integer j; 0 <= j < 14 ==>
		  @   plan->input[j] == \at(plan->input[j], XZeroed); */
		/*@ assert xmm_page_untouched: \forall integer j;
		  @   0 <= j < page_size / 8 ==> page[j] == \at(page[j], XZeroed); */
		/*@ assert xmm_hdr: plan->input[0] == vector &&
		  @   plan->input[1] == HVIPI_FORMAT_SPARSE && plan->input[2] == banks; */
		/*@ assert xmm_words: \forall integer j, i;
		  @   0 <= j < nbanks && 0 <= i < 64 ==>
		  @   (bit64(plan->input[3 + j], i) <==>
		  @    bank_bit{Pre}(HVIPI_SEND, banks, nr_cpu_ids, j, i)); */
		/*@ assert xmm_nonzero: \forall integer k;
		  @   0 <= k < 64 && bit64(banks, k) ==>
		  @   bits_below(banks, k) < nbanks &&
		  @   plan->input[3 + bits_below(banks, k)] != 0; */
		/*@ assert xmm_cover: \forall integer v;
		  @   0 <= v < 4096 && bit64(banks, v / 64) ==>
		  @   (bit64(plan->input[3 + bits_below(banks, v / 64)], v % 64) <==>
		  @    vp_target{Pre}(HVIPI_SEND, v)); */
		/*@ assert xmm_lost: \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
		  @   0 <= u32_at{Pre}(vp_index, c) < 4096 &&
		  @   bit64(plan->input[2], u32_at{Pre}(vp_index, c) / 64) &&
		  @   bit64(plan->input[3 + bits_below(plan->input[2],
		  @                                   u32_at{Pre}(vp_index, c) / 64)],
		  @         u32_at{Pre}(vp_index, c) % 64); */
		return;
	}
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u * nbanks) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		plan->valid_bank_mask = banks;
		plan->banks = nbanks;
		return;
	}
	/*@ assert room: 3 + nbanks <= page_size / 8; */
	hvipi_fill_banks(page, nbanks, vector, banks, rank, mask, nr_cpu_ids,
			 vp_index, vp_ident, self, exclude_self);
	/*@ ghost Filled: ; */
	/*@ assert untouched: \forall integer i; 3 + nbanks <= i < page_size / 8 ==>
	  @   page[i] == \at(page[i], Pre); */
	/*@ assert filled: \forall integer j, i; 0 <= j < nbanks && 0 <= i < 64 ==>
	  @   (bit64(page[3 + j], i) <==>
	  @    bank_bit{Pre}(HVIPI_SEND, banks, nr_cpu_ids, j, i)); */
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, nbanks);
	plan->rdx = 0;
	plan->r8 = 0;
	plan->valid_bank_mask = banks;
	plan->banks = nbanks;
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u * nbanks;
	/*@ assert words_kept: \forall integer j; 0 <= j < 3 + nbanks ==>
	  @   page[j] == \at(page[j], Filled); */
	/*@ assert page_kept: \forall integer j; 0 <= j < page_size / 8 ==>
	  @   page[j] == \at(page[j], Filled); */
	/*@ assert tail_kept: \forall integer j; 3 + nbanks <= j < page_size / 8 ==>
	  @   page[j] == \at(page[j], Pre); */

	/*@ assert hdr: page[0] == vector && page[1] == HVIPI_FORMAT_SPARSE &&
	  @   page[2] == banks; */
	/*@ assert bytes: plan->bytes / 8 == 3 + nbanks &&
	  @   plan->bytes <= page_size && plan->banks == nbanks; */

	/*@ assert words: \forall integer j, i; 0 <= j < nbanks && 0 <= i < 64 ==>
	  @   (bit64(page[3 + j], i) <==>
	  @    bank_bit{Pre}(HVIPI_SEND, banks, nr_cpu_ids, j, i)); */
	/*@ assert words_nonzero: \forall integer k; 0 <= k < 64 && bit64(banks, k) ==>
	  @   bits_below(banks, k) < nbanks &&
	  @   page[3 + bits_below(banks, k)] != 0; */
	/*@ assert words_v: \forall integer v; 0 <= v < 4096 && bit64(banks, v / 64) ==>
	  @   0 <= bits_below(banks, v / 64) < nbanks &&
	  @   (bit64(page[3 + bits_below(banks, v / 64)], v % 64) <==>
	  @    bank_bit{Pre}(HVIPI_SEND, banks, nr_cpu_ids,
	  @                  bits_below(banks, v / 64), v % 64)); */
	/*@ assert cover_v: \forall integer v; 0 <= v < 4096 && bit64(banks, v / 64) ==>
	  @   (bit64(page[3 + bits_below(banks, v / 64)], v % 64) <==>
	  @    vp_target{Pre}(HVIPI_SEND, v)); */
}

/*
 * The XMM input words of a send to the single VP @vp: vector, sparse
 * format, the valid-bank mask @bank (bit vp / 64 alone), the one bank
 * word, zero words after it.  @in is plan.input.
 */
/*@ requires \valid(in + (0 .. 13));
  @ requires vp_fits: vp < 4096;
  @ requires bank_bits: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(bank, k) <==> k == vp / 64);
  @ requires bank_rank: \forall integer j; 0 <= j <= 64 ==>
  @   bits_below(bank, j) == (j > vp / 64 ? 1 : 0);
  @ assigns in[0 .. 13];
  @ ensures words: ex_header(in, vector, HVIPI_FORMAT_SPARSE) &&
  @   in[2] == bank && \forall integer i; 4 <= i < 14 ==> in[i] == 0;
  @ ensures one_vp: \forall integer v; sparse_reads(in, v) <==> v == vp;
  @*/
static void hvipi_xmm_one_words(uint64_t *in, uint32_t vector, uint64_t bank,
				uint32_t vp)
{
	uint32_t i;

	in[0] = vector;
	in[1] = HVIPI_FORMAT_SPARSE;
	in[2] = bank;
	in[3] = 1ull << (vp % 64u);
	/*@ loop invariant 4 <= i <= 14;
	  @ loop invariant zeroed: \forall integer j; 4 <= j < i ==> in[j] == 0;
	  @ loop invariant kept: in[0] == vector &&
	  @   in[1] == HVIPI_FORMAT_SPARSE &&
	  @   in[2] == bank && in[3] == 1ull << (vp % 64);
	  @ loop assigns i, in[4 .. 13];
	  @ loop variant 14 - i;
	  @*/
	for (i = HVIPI_EX_HDR_WORDS + 1u; i < HVIPI_XMM_INPUT_WORDS; i++)
		in[i] = 0;
	/*@ assert one_word: \forall integer i; 0 <= i < 64 ==>
	  @   (bit64(in[3], i) <==> i == vp % 64); */
	/*@ assert one_bits: \forall integer v; 0 <= v < 4096 ==>
	  @   ((bit64(in[2], v / 64) &&
	  @     bit64(in[3 + bits_below(in[2], v / 64)], v % 64)) <==> v == vp); */
}

/*
 * An XMM-fast Ex send to the single VP @vp: the registers, then the input
 * words (hvipi_xmm_one_words).  Writes no page.
 */
/*@ requires \valid(plan);
  @ requires vp_fits: vp < 4096;
  @ requires bank_bits: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(bank, k) <==> k == vp / 64);
  @ requires bank_rank: \forall integer j; 0 <= j <= 64 ==>
  @   bits_below(bank, j) == (j > vp / 64 ? 1 : 0);
  @ assigns *plan;
  @ ensures xmm_exact: plan->kind == HVIPI_PLAN_EX_XMM &&
  @   plan->reason == HVIPI_FB_NONE;
  @ ensures well_formed: xmm_call(plan->control, plan->rdx, plan->r8,
  @   &plan->input[0], vector, bank, 1) && plan->bytes == 0;
  @ ensures bank_set: plan->valid_bank_mask == bank && plan->banks == 1;
  @ ensures one_vp: \forall integer v;
  @   sparse_reads(&plan->input[0], v) <==> v == vp;
  @*/
static void hvipi_encode_xmm_one(struct hvipi_plan *plan, uint32_t vector,
				 uint64_t bank, uint32_t vp)
{
	plan->kind = HVIPI_PLAN_EX_XMM;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, true, 1);
	plan->rdx = vector;
	plan->r8 = HVIPI_FORMAT_SPARSE;
	plan->valid_bank_mask = bank;
	plan->banks = 1;
	plan->bytes = 0;
	hvipi_xmm_one_words(plan->input, vector, bank, vp);
}

void hvipi_plan_mask(struct hvipi_plan *plan, const unsigned long *mask,
		     const unsigned long *present, uint32_t nr_cpu_ids,
		     const uint32_t *vp_index, uint32_t vp_ident, uint32_t self,
		     bool exclude_self, uint32_t vector, uint32_t hints,
		     uint64_t *page, uint32_t page_size)
{
	struct hvipi_scan s = hvipi_scan(mask, nr_cpu_ids, vp_index, vp_ident,
					 self, exclude_self);

	if (!s.any) {
		hvipi_plan_clear(plan);
		return;
	}
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
			    nr_cpu_ids, vp_index, vp_ident, self, exclude_self,
			    hints);
}

void hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu, uint32_t nr_cpu_ids,
		    const uint32_t *vp_index, uint32_t vector, uint32_t hints,
		    uint64_t *page, uint32_t page_size)
{
	uint32_t vp;
	uint64_t bank;

	if (cpu >= nr_cpu_ids) {
		hvipi_plan_clear(plan);
		return;
	}
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
	bank = 1ull << (vp / 64u);
	/*
	 * Ghost induction: a one-bit word has no set bit below its bit and
	 * exactly one at or above it, so the bank's compacted index is 0 and
	 * the popcount is 1.
	 */
	/*@ ghost
	  @ int k;
	  @ /@ loop invariant 0 <= k <= 64;
	  @    loop invariant \forall integer j; 0 <= j <= k ==>
	  @      bits_below(bank, j) == (j > vp / 64 ? 1 : 0);
	  @    loop assigns k;
	  @    loop variant 64 - k;
	  @ @/
	  @ for (k = 0; k < 64; k++)
	  @   ;
	  @*/
	/*@ assert bank_bits: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(bank, k) <==> k == vp / 64); */
	if (hints & HVIPI_HINT_XMM_INPUT) {
		hvipi_encode_xmm_one(plan, vector, bank, vp);
		return;
	}
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		plan->valid_bank_mask = bank;
		plan->banks = 1;
		return;
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = bank;
	page[3] = 1ull << (vp % 64u);
	/*@ ghost Written: ; */
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 1);
	plan->rdx = 0;
	plan->r8 = 0;
	plan->valid_bank_mask = bank;
	plan->banks = 1;
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u;
	/*@ assert page_kept: \forall integer i; 0 <= i < page_size / 8 ==>
	  @   page[i] == \at(page[i], Written); */
	/*@ assert page_hdr: page[0] == vector &&
	  @   page[1] == HVIPI_FORMAT_SPARSE && page[2] == bank; */
	/*@ assert one_bank: bit64(page[2], vp / 64) &&
	  @   bits_below(page[2], vp / 64) == 0; */
	/*@ assert one_vp: bit64(page[3], vp % 64); */
}

uint32_t hvipi_vp_ident(const uint32_t *vp_index, uint32_t nr_cpu_ids)
{
	uint32_t cpu = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant ident: vp_identity(vp_index, cpu);
	  @ loop assigns cpu;
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids && vp_index[cpu] == cpu)
		cpu++;
	return cpu;
}
