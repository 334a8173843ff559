/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi: the verified core of the Hyper-V paravirtual IPI send path.
 *
 * The core decides how one IPI is sent and encodes it; it never issues the
 * hypercall itself.  Its result is a plan (struct hvipi_plan):
 *
 *   HVIPI_PLAN_NONE      nothing to do; the send succeeded (empty target set)
 *   HVIPI_PLAN_FAST      fast HvCallSendSyntheticClusterIpi: control, rdx, r8
 *   HVIPI_PLAN_EX_SPARSE HvCallSendSyntheticClusterIpiEx, sparse VP set written
 *                        to the input page, bytes [0, plan.bytes)
 *   HVIPI_PLAN_EX_ALL    HvCallSendSyntheticClusterIpiEx, format "all",
 *                        bytes [0, 24) of the input page
 *   HVIPI_PLAN_EX_XMM    HvCallSendSyntheticClusterIpiEx as an XMM-fast call,
 *                        sparse VP set of at most 11 banks carried whole in
 *                        plan.input[] (rdx, r8, xmm0..xmm5); the page is not
 *                        touched
 *   HVIPI_PLAN_FALLBACK  use the native APIC; plan.reason says why
 *
 * Each declaration below carries its ACSL contract: what WP proves of it.
 * The logic it uses (targets, the receiver's reading, selection rules) is
 * defined in spec/; a claim's name is the label of its ensures clause.
 * The target set is the one the caller passed, as the core read it: the
 * postconditions evaluate the predicates over mask and vp_index at label
 * Pre (target{Pre}, \old(vp_index[c])), and the page and plan at exit.
 * Each cell of those is loaded at most once, by hvipi_load_*() below, so
 * the state at Pre stands for the values the loads returned.
 */
#ifndef HVIPI_H
#define HVIPI_H

#include "hvipi_types.h"

#ifdef __KERNEL__
#include <linux/compiler.h>
#endif

/*
 * One load of a word another CPU may change: in a kernel the compiler may
 * neither repeat nor tear it (READ_ONCE).  Under Frama-C the load is
 * volatile, so WP assumes nothing of the value: only the hvipi_load_*()
 * models below tie a load to the cell it reads.  The models' own proof
 * (proofs/prove.sh, HVIPI_PLAIN_LOADS) and every other build read plainly.
 */
#ifdef __KERNEL__
#define HVIPI_READ_ONCE(x)	READ_ONCE(x)
#elif defined(__FRAMAC__) && !defined(HVIPI_PLAIN_LOADS)
#define HVIPI_READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#else
#define HVIPI_READ_ONCE(x)	(x)
#endif

/*
 * __hvipi_shared marks what another CPU may change: the cpumasks and the
 * VP table.  Only the hvipi_load_*() models below read through such a
 * pointer, with __hvipi_force.  In the read check (proofs/read-check.sh)
 * sparse refuses any other access; every build but that one sees nothing.
 */
#ifdef HVIPI_READ_CHECK
#define __hvipi_shared	__attribute__((noderef, address_space(__hvipi)))
#define __hvipi_force	__attribute__((force))
#else
#define __hvipi_shared
#define __hvipi_force
#endif

#if defined(__FRAMAC__) || defined(HVIPI_WITH_SPEC)
#include "../spec/hvipi_spec.h"
#endif

/* Hypercall codes and control-word fields (TLFS). */
#define HVIPI_CALL_SEND_IPI	0x000bu	/* HvCallSendSyntheticClusterIpi */
#define HVIPI_CALL_SEND_IPI_EX	0x0015u	/* HvCallSendSyntheticClusterIpiEx */
#define HVIPI_CTL_FAST_SHIFT	16
#define HVIPI_CTL_VARHDR_SHIFT	17
#define HVIPI_CTL_VARHDR_MAX	1023u	/* 10-bit field */
#define HVIPI_CTL_REP_COUNT_SHIFT	32	/* also reps completed in a result */
#define HVIPI_CTL_REP_START_SHIFT	48

/* Ex input formats. */
#define HVIPI_FORMAT_SPARSE	0u
#define HVIPI_FORMAT_ALL	1u

/* VP numbers. */
#define HVIPI_VP_INVAL		0xffffffffu	/* table entry not known yet */
#define HVIPI_VP_LIMIT		4096u	/* sparse sets hold VPs 0..4095 */
#define HVIPI_FAST_VP_LIMIT	64u	/* fast Send-IPI holds VPs 0..63 */

/* Vectors a synthetic cluster IPI may carry. */
#define HVIPI_VECTOR_MIN	0x10u
#define HVIPI_VECTOR_MAX	0xffu

/* Ex input: u32 vector, u8 vtl, u8 rsvd[3], u64 format, u64 valid_bank_mask. */
#define HVIPI_EX_HDR_WORDS	3u
#define HVIPI_EX_HDR_BYTES	24u

/* Hints, from CPUID 0x40000004 EAX (bits 10, 11) and 0x40000003 EDX bit 4. */
#define HVIPI_HINT_CLUSTER_IPI	(1u << 0)
#define HVIPI_HINT_EX_MASKS	(1u << 1)
#define HVIPI_HINT_XMM_INPUT	(1u << 2)

enum hvipi_kind {
	HVIPI_PLAN_NONE = 0,
	HVIPI_PLAN_FAST = 1,
	HVIPI_PLAN_EX_SPARSE = 2,
	HVIPI_PLAN_EX_ALL = 3,
	HVIPI_PLAN_FALLBACK = 4,
	HVIPI_PLAN_EX_XMM = 5,
};

/*
 * XMM-fast input: rdx, r8, then xmm0..xmm5 as 64-bit halves, low half
 * first: 14 words, the first 14 words of the Ex input.  valid_bank_mask
 * is word 2 (xmm0 bits 63:0), so at most 11 bank words fit.
 */
#define HVIPI_XMM_INPUT_WORDS	14u
#define HVIPI_XMM_BANKS_MAX	11u

/*
 * Why a plan falls back to the native APIC.  When several hold, the first
 * in this order wins (see README "Selection rules"):
 *   NOT_RECOMMENDED   the cluster-IPI hint is not set
 *   BAD_VECTOR        vector outside 0x10..0xff (NMI, vector 2, lands here)
 *   VP_UNKNOWN        a target CPU's VP is HVIPI_VP_INVAL
 *   EX_NOT_RECOMMENDED a target VP is >= 64 and the EX hint is not set
 *   VP_TOO_BIG        a target VP is in 4096..0xfffffffe
 *   NO_PAGE           no input page, or too small for the Ex input
 * The planners give no other reason.  The glue's gate (hvipi_ipi_gate(),
 * hvipi_flush_gate()) sends natively before any plan, for one of:
 *   NO_HCALL          no hypercall page (after hyperv_cleanup(), during
 *                     hv_suspend())
 *   NMI               NMI context: a plan could reuse the input page that
 *                     the interrupted code is filling
 *   OFF               the VP table is not valid (not set up, or switched off)
 */
enum hvipi_reason {
	HVIPI_FB_NONE = 0,
	HVIPI_FB_NOT_RECOMMENDED = 1,
	HVIPI_FB_BAD_VECTOR = 2,
	HVIPI_FB_VP_UNKNOWN = 3,
	HVIPI_FB_EX_NOT_RECOMMENDED = 4,
	HVIPI_FB_VP_TOO_BIG = 5,
	HVIPI_FB_NO_PAGE = 6,
	HVIPI_FB_NO_HCALL = 7,
	HVIPI_FB_NMI = 8,
	HVIPI_FB_OFF = 9,
};

struct hvipi_plan {
	uint32_t kind;		/* enum hvipi_kind */
	uint32_t reason;	/* enum hvipi_reason, HVIPI_FB_NONE unless FALLBACK */
	uint64_t control;	/* hypercall control word (rcx); 0 for NONE
				 * and FALLBACK */
	uint64_t rdx;		/* FAST, EX_XMM: vector; otherwise 0 (for
				 * EX_SPARSE and EX_ALL the glue puts the
				 * page GPA) */
	uint64_t r8;		/* FAST: VP mask; EX_XMM: format; otherwise 0 */
	uint64_t valid_bank_mask; /* sparse rule: the non-empty banks (also set
				   * when it falls back for NO_PAGE); 0 for
				   * every other plan */
	uint32_t banks;		/* sparse rule: their number, the variable-header
				 * size (also set on that NO_PAGE fallback);
				 * 0 for every other plan */
	uint32_t bytes;		/* Ex: input bytes written to the page (0 for
				 * EX_XMM, which writes no page) */
	/*
	 * EX_XMM only (other plans leave it as it was): the Ex input in the
	 * page's layout, input[0] = rdx (vector), input[1] = r8 (format),
	 * input[2 + 2i], input[3 + 2i] = xmm<i> bits 63:0, 127:64;
	 * input[2] = valid_bank_mask, input[3 ..] = the compacted bank words,
	 * the words after the last bank zero.
	 */
	uint64_t input[HVIPI_XMM_INPUT_WORDS];
};

#if defined(__FRAMAC__) || defined(HVIPI_WITH_SPEC)
#include "../spec/hvipi_xmm.h"
#endif

/*
 * Ghost cursor of the mask reads of one hvipi_plan_mask() call: the lowest
 * mask word index a read may still use (src/hvipi.c, hvipi_read_words()).
 * Proof only; no build but Frama-C's sees it.
 */
/*@ ghost extern uint32_t hvipi_words_next; */

/*
 * Ghost cursors of the present-mask and VP-table reads of one call, as
 * hvipi_words_next is of the mask's: the lowest index a load may still use.
 * A send starts with all three at 0 (fresh_send, required by each entry
 * point); only the loads move them, so an entry point called after a load
 * of the same send, which would load a cell again, cannot meet it.
 */
/*@ ghost extern uint32_t hvipi_present_next; */
/*@ ghost extern uint32_t hvipi_vp_next; */

/*
 * The core's only loads of what another CPU may change: mask word @w,
 * present word @w and VP table entry @cpu.  Each requires its index at or
 * above its cursor and moves the cursor past it, so a call never loads a
 * cell twice (read_once, proven at every call).  No other code reads
 * the masks or the VP table (proofs/read-check.sh).  The volatile
 * load tells WP nothing, so first_read is proven of these bodies with
 * plain loads (HVIPI_PLAIN_LOADS); what stays assumed is that the one
 * load returns the cell's value (proofs/ASSUMPTIONS.md, the loads).
 */
/*@ requires \valid_read(mask + w);
  @ requires index: w < 67108864;
  @ requires read_once: hvipi_words_next <= w;
  @ assigns hvipi_words_next;
  @ ensures cursor: hvipi_words_next == w + 1;
  @ ensures first_read: \result == mask[w];
  @*/
static inline unsigned long
hvipi_load_mask(const unsigned long __hvipi_shared *mask, size_t w)
{
	const unsigned long *p = (const unsigned long __hvipi_force *)mask;

	/*@ ghost hvipi_words_next = (uint32_t)(w + 1); */
	return HVIPI_READ_ONCE(p[w]);
}

/*@ requires \valid_read(present + w);
  @ requires index: w < 67108864;
  @ requires read_once: hvipi_present_next <= w;
  @ assigns hvipi_present_next;
  @ ensures cursor: hvipi_present_next == w + 1;
  @ ensures first_read: \result == present[w];
  @*/
static inline unsigned long
hvipi_load_present(const unsigned long __hvipi_shared *present, size_t w)
{
	const unsigned long *p = (const unsigned long __hvipi_force *)present;

	/*@ ghost hvipi_present_next = (uint32_t)(w + 1); */
	return HVIPI_READ_ONCE(p[w]);
}

/*@ requires \valid_read(vp_index + cpu);
  @ requires index: cpu < 4294967295;
  @ requires read_once: hvipi_vp_next <= cpu;
  @ assigns hvipi_vp_next;
  @ ensures cursor: hvipi_vp_next == cpu + 1;
  @ ensures first_read: \result == vp_index[cpu];
  @*/
static inline uint32_t hvipi_load_vp(const uint32_t __hvipi_shared *vp_index,
				     uint32_t cpu)
{
	const uint32_t *p = (const uint32_t __hvipi_force *)vp_index;

	/*@ ghost hvipi_vp_next = cpu + 1; */
	return HVIPI_READ_ONCE(p[cpu]);
}

/* The target set of a send, as the spec's predicates take it. */
#define HVIPI_SEND mask, nr_cpu_ids, vp_index, self, exclude_self

/* Number of unsigned longs in a cpumask of nr_cpu_ids bits. */
#define HVIPI_MASK_WORDS(nr)	(((nr) / 64u) + (((nr) % 64u) != 0u))

/*
 * hvipi_plan_mask - plan one IPI to a set of CPUs.
 * @plan:         where the plan goes
 * @mask:         target cpumask, HVIPI_MASK_WORDS(nr_cpu_ids) words
 *                (cpumask_bits()); bits at or beyond nr_cpu_ids are ignored
 * @present:      the present-CPU mask, or NULL; the "all" format is used
 *                only when the target set equals it and self is not
 *                excluded.  Pass it only when the present CPUs' VPs are the
 *                partition's VPs (present_partition): the "all" format
 *                interrupts every VP of the partition
 * @nr_cpu_ids:   number of CPU ids; no table entry at or beyond it is read
 * @vp_index:     VP of each CPU, HVIPI_VP_INVAL when not known
 * @vp_ident:     CPUs 0 .. vp_ident - 1 are their own VPs (vp_index[c] == c):
 *                hvipi_vp_ident()'s result, or any smaller number (0 says
 *                nothing).  Only the speed depends on it: whole mask words
 *                of such CPUs are packed 64 at a time, without reading the
 *                table; the plan is the same for every allowed value
 * @self:         the sending CPU
 * @exclude_self: leave @self out of the target set (all-but-self)
 * @vector:       the interrupt vector
 * @hints:        HVIPI_HINT_* flags
 * @page:         the per-CPU input page (8-byte aligned) or NULL
 * @page_size:    its size in bytes (4096 in a kernel)
 *
 * Writes only *plan, and page bytes [0, plan->bytes) when the plan is Ex.
 */
/*@ // The five arguments that describe the target set, for the predicates.
  @ requires plan_valid: \valid(plan);
  @ requires mask_valid:
  @   \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires present_valid: present == \null ||
  @   \valid_read(present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires table_valid: \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires ident_prefix: vp_ident <= nr_cpu_ids &&
  @   vp_identity(vp_index, vp_ident);
  @ requires page_valid: page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires separated: \separated(plan,
  @   mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @   vp_index + (0 .. nr_cpu_ids - 1), page + (0 .. page_size / 8 - 1));
  @ requires present_partition: present == \null ||
  @   present_is_partition(present, nr_cpu_ids, vp_index);
  @ requires separated_present: present == \null ||
  @   \separated(present + (0 .. mask_words(nr_cpu_ids) - 1),
  @               mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @               vp_index + (0 .. nr_cpu_ids - 1),
  @               plan, page + (0 .. page_size / 8 - 1));
  @ requires fresh_send: hvipi_words_next == 0 &&
  @   hvipi_present_next == 0 && hvipi_vp_next == 0;
  @ assigns *plan, page[0 .. page_size / 8 - 1], hvipi_words_next,
  @   hvipi_present_next, hvipi_vp_next;
  @
  @ ensures read_once: hvipi_words_next == mask_words(nr_cpu_ids);
  @ ensures reason_iff_fallback:
  @   (plan->reason == HVIPI_FB_NONE) <==> (plan->kind != HVIPI_PLAN_FALLBACK);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @ ensures no_input: plan->kind == HVIPI_PLAN_NONE ||
  @   plan->kind == HVIPI_PLAN_FALLBACK ==> plan->bytes == 0;
  @ ensures pinned_regs: plan_regs_pinned(plan);
  @ ensures pinned_control: plan_control_pinned(plan);
  @ ensures pinned_banks: plan_banks_pinned(plan);
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @ ensures all_cpus: plan->kind == HVIPI_PLAN_EX_ALL ==>
  @   exclude_self == 0 && same_cpus{Pre}(mask, present, nr_cpu_ids);
  @ ensures no_vp_lost: plan->kind == HVIPI_PLAN_EX_ALL ==>
  @   \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
  @     all_reads(\old(vp_index[c]));
  @ ensures no_spurious_vp: plan->kind == HVIPI_PLAN_EX_ALL ==>
  @   \forall integer v; all_reads(v) ==> vp_target{Pre}(HVIPI_SEND, v);
  @
  @ behavior nothing_to_do:
  @   assumes no_target(HVIPI_SEND);
  @   ensures kind: plan->kind == HVIPI_PLAN_NONE && plan->bytes == 0;
  @ behavior not_recommended:
  @   assumes !no_target(HVIPI_SEND) && !hint_cluster(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_NOT_RECOMMENDED;
  @ behavior bad_vector:
  @   assumes !no_target(HVIPI_SEND) && hint_cluster(hints) &&
  @     !vector_ok(vector);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_BAD_VECTOR;
  @ behavior fast:
  @   assumes sel_gate(HVIPI_SEND, vector, hints) &&
  @     all_vps_fast(HVIPI_SEND);
  @   ensures fast_exact: plan->kind == HVIPI_PLAN_FAST;
  @   ensures well_formed:
  @     ctl_is(plan->control, HVIPI_CALL_SEND_IPI, 1, 0) &&
  @     plan->rdx == vector && 0 <= plan->rdx < 4294967296 && plan->bytes == 0;
  @   ensures bit_coverage: \forall integer v; 0 <= v < 64 ==>
  @     (bit64(plan->r8, v) <==> vp_target{Pre}(HVIPI_SEND, v));
  @   ensures no_vp_lost: \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
  @     fast_reads(plan->r8, \old(vp_index[c]));
  @   ensures no_spurious_vp: \forall integer v; fast_reads(plan->r8, v) ==>
  @     vp_target{Pre}(HVIPI_SEND, v);
  @ behavior all_format:
  @   assumes sel_gate(HVIPI_SEND, vector, hints) &&
  @     !all_vps_fast(HVIPI_SEND) &&
  @     all_format_ok(mask, present, nr_cpu_ids, exclude_self, hints, page,
  @       page_size);
  @   ensures all_exact: plan->kind == HVIPI_PLAN_EX_ALL;
  @   ensures well_formed:
  @     ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, 0) &&
  @     ex_header(page, vector, HVIPI_FORMAT_ALL) && page[2] == 0 &&
  @     plan->bytes == HVIPI_EX_HDR_BYTES;
  @ behavior vp_unknown:
  @   assumes sel_sparse(mask, present, nr_cpu_ids, vp_index, self,
  @     exclude_self, vector, hints, page, page_size) && some_vp_unknown(HVIPI_SEND);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_VP_UNKNOWN;
  @ behavior ex_not_recommended:
  @   assumes sel_sparse(mask, present, nr_cpu_ids, vp_index, self,
  @     exclude_self, vector, hints, page, page_size) && !some_vp_unknown(HVIPI_SEND) &&
  @     !hint_ex(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_EX_NOT_RECOMMENDED;
  @ behavior vp_too_big:
  @   assumes sel_sparse(mask, present, nr_cpu_ids, vp_index, self,
  @     exclude_self, vector, hints, page, page_size) && !some_vp_unknown(HVIPI_SEND) &&
  @     hint_ex(hints) && some_vp_too_big(HVIPI_SEND);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_VP_TOO_BIG;
  @ behavior sparse:
  @   assumes sel_sparse(mask, present, nr_cpu_ids, vp_index, self,
  @     exclude_self, vector, hints, page, page_size) && !some_vp_unknown(HVIPI_SEND) &&
  @     hint_ex(hints) && !some_vp_too_big(HVIPI_SEND);
  @   ensures bank_set: \forall integer k; 0 <= k < 64 ==>
  @     (bit64(plan->valid_bank_mask, k) <==> bank_used{Pre}(HVIPI_SEND, k));
  @   ensures bank_count: plan->banks == popcount64(plan->valid_bank_mask);
  @   ensures xmm_exact: xmm_fits(hints, plan->banks) ==>
  @     plan->kind == HVIPI_PLAN_EX_XMM;
  @   ensures sparse_exact: !xmm_fits(hints, plan->banks) &&
  @     page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @     plan->kind == HVIPI_PLAN_EX_SPARSE;
  @   ensures fallback_exact: !xmm_fits(hints, plan->banks) &&
  @     !page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @     plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE;
  @   ensures well_formed: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @     ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, plan->banks) &&
  @     ex_header(page, vector, HVIPI_FORMAT_SPARSE) &&
  @     page[2] == plan->valid_bank_mask &&
  @     plan->bytes == HVIPI_EX_HDR_BYTES + 8 * plan->banks;
  @   ensures well_formed: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @     xmm_call(plan->control, plan->rdx, plan->r8, &plan->input[0], vector,
  @              plan->valid_bank_mask, plan->banks) && plan->bytes == 0;
  @   // The VP set of either sparse kind (spec/hvipi_xmm.h).
  @   ensures bit_coverage: HVIPI_SPARSE_KIND(plan) ==>
  @     \let in = HVIPI_SPARSE_INPUT(plan, page);
  @     \forall integer k; bit64(in[2], k) ==>
  @       bits_below(in[2], k) < plan->banks &&
  @       in[3 + bits_below(in[2], k)] != 0;
  @   ensures bit_coverage: HVIPI_SPARSE_KIND(plan) ==>
  @     \let in = HVIPI_SPARSE_INPUT(plan, page);
  @     \forall integer v; 0 <= v < 4096 && bit64(in[2], v / 64) ==>
  @       (bit64(in[3 + bits_below(in[2], v / 64)], v % 64) <==>
  @        vp_target{Pre}(HVIPI_SEND, v));
  @   ensures no_vp_lost: HVIPI_SPARSE_KIND(plan) ==>
  @     \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
  @       sparse_reads(HVIPI_SPARSE_INPUT(plan, page), \old(vp_index[c]));
  @   ensures no_spurious_vp: HVIPI_SPARSE_KIND(plan) ==>
  @     \forall integer v; sparse_reads(HVIPI_SPARSE_INPUT(plan, page), v) ==>
  @       vp_target{Pre}(HVIPI_SEND, v);
  @ complete behaviors;
  @ disjoint behaviors;
  @*/
void hvipi_plan_mask(struct hvipi_plan *plan,
		     const unsigned long __hvipi_shared *mask,
		     const unsigned long __hvipi_shared *present,
		     uint32_t nr_cpu_ids,
		     const uint32_t __hvipi_shared *vp_index, uint32_t vp_ident,
		     uint32_t self, bool exclude_self, uint32_t vector,
		     uint32_t hints, uint64_t *page, uint32_t page_size);

/*
 * hvipi_vp_ident - the number of leading CPUs that are their own VPs: the
 * largest n <= @nr_cpu_ids with vp_index[c] == c for every c < n.  The
 * glue computes it once (a table entry only ever changes from
 * HVIPI_VP_INVAL to the CPU's VP, so a prefix once found stays valid) and
 * passes it as hvipi_plan_mask()'s @vp_ident.
 */
/*@ requires table_valid: \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires fresh_send: hvipi_vp_next == 0;
  @ assigns hvipi_vp_next;
  @ ensures bound: \result <= nr_cpu_ids;
  @ ensures ident_prefix: vp_identity(vp_index, \result);
  @ ensures longest: \result < nr_cpu_ids ==> vp_index[\result] != \result;
  @*/
uint32_t hvipi_vp_ident(const uint32_t __hvipi_shared *vp_index,
			uint32_t nr_cpu_ids);

/*
 * hvipi_plan_one - plan one IPI to one CPU: the same plan as
 * hvipi_plan_mask() with the mask {cpu}, no present mask and self kept.
 * A @cpu at or beyond @nr_cpu_ids is no CPU: the plan is NONE.
 */
/*@ requires plan_valid: \valid(plan);
  @ requires table_valid: \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires page_valid: page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires separated: \separated(plan, vp_index + (0 .. nr_cpu_ids - 1),
  @   page + (0 .. page_size / 8 - 1));
  @ requires fresh_send: hvipi_vp_next == 0;
  @ assigns *plan, page[0 .. page_size / 8 - 1], hvipi_vp_next;
  @
  @ ensures reason_iff_fallback:
  @   (plan->reason == HVIPI_FB_NONE) <==> (plan->kind != HVIPI_PLAN_FALLBACK);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @ ensures no_input: plan->kind == HVIPI_PLAN_NONE ||
  @   plan->kind == HVIPI_PLAN_FALLBACK ==> plan->bytes == 0;
  @ ensures pinned_regs: plan_regs_pinned(plan);
  @ ensures pinned_control: plan_control_pinned(plan);
  @ ensures pinned_banks: plan_banks_pinned(plan);
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @
  @ behavior nothing_to_do:
  @   assumes cpu >= nr_cpu_ids;
  @   ensures kind: plan->kind == HVIPI_PLAN_NONE && plan->bytes == 0;
  @ behavior not_recommended:
  @   assumes cpu < nr_cpu_ids && !hint_cluster(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_NOT_RECOMMENDED;
  @ behavior bad_vector:
  @   assumes cpu < nr_cpu_ids && hint_cluster(hints) && !vector_ok(vector);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_BAD_VECTOR;
  @ behavior vp_unknown:
  @   assumes cpu < nr_cpu_ids && hint_cluster(hints) && vector_ok(vector) &&
  @     vp_index[cpu] == HVIPI_VP_INVAL;
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_VP_UNKNOWN;
  @ behavior fast:
  @   assumes cpu < nr_cpu_ids && hint_cluster(hints) && vector_ok(vector) &&
  @     vp_index[cpu] < 64;
  @   ensures fast_exact: plan->kind == HVIPI_PLAN_FAST;
  @   ensures well_formed:
  @     ctl_is(plan->control, HVIPI_CALL_SEND_IPI, 1, 0) &&
  @     plan->rdx == vector && 0 <= plan->rdx < 4294967296 && plan->bytes == 0;
  @   ensures no_vp_lost: fast_reads(plan->r8, \old(vp_index[cpu]));
  @   ensures no_spurious_vp: \forall integer v; fast_reads(plan->r8, v) ==>
  @     v == \old(vp_index[cpu]);
  @ behavior ex_not_recommended:
  @   assumes cpu < nr_cpu_ids && hint_cluster(hints) && vector_ok(vector) &&
  @     64 <= vp_index[cpu] < HVIPI_VP_INVAL && !hint_ex(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_EX_NOT_RECOMMENDED;
  @ behavior vp_too_big:
  @   assumes cpu < nr_cpu_ids && hint_cluster(hints) && vector_ok(vector) &&
  @     4096 <= vp_index[cpu] < HVIPI_VP_INVAL && hint_ex(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @     plan->reason == HVIPI_FB_VP_TOO_BIG;
  @ behavior sparse:
  @   assumes cpu < nr_cpu_ids && hint_cluster(hints) && vector_ok(vector) &&
  @     64 <= vp_index[cpu] < 4096 && hint_ex(hints);
  @   ensures bank_set: \forall integer k; 0 <= k < 64 ==>
  @     (bit64(plan->valid_bank_mask, k) <==> k == \old(vp_index[cpu]) / 64);
  @   ensures bank_count: plan->banks == 1;
  @   ensures xmm_exact: hint_xmm(hints) ==> plan->kind == HVIPI_PLAN_EX_XMM;
  @   ensures sparse_exact: !hint_xmm(hints) &&
  @     page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8) ==>
  @     plan->kind == HVIPI_PLAN_EX_SPARSE;
  @   ensures fallback_exact: !hint_xmm(hints) &&
  @     !page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8) ==>
  @     plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE;
  @   ensures well_formed: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @     ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, 1) &&
  @     ex_header(page, vector, HVIPI_FORMAT_SPARSE) &&
  @     page[2] == plan->valid_bank_mask && popcount64(page[2]) == 1 &&
  @     plan->bytes == HVIPI_EX_HDR_BYTES + 8;
  @   ensures well_formed: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @     xmm_call(plan->control, plan->rdx, plan->r8, &plan->input[0], vector,
  @              plan->valid_bank_mask, 1) && plan->bytes == 0;
  @   ensures no_vp_lost: HVIPI_SPARSE_KIND(plan) ==>
  @     sparse_reads(HVIPI_SPARSE_INPUT(plan, page), \old(vp_index[cpu]));
  @   ensures no_spurious_vp: HVIPI_SPARSE_KIND(plan) ==>
  @     \forall integer v; sparse_reads(HVIPI_SPARSE_INPUT(plan, page), v) ==>
  @       v == \old(vp_index[cpu]);
  @ complete behaviors;
  @ disjoint behaviors;
  @*/
void hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu, uint32_t nr_cpu_ids,
		    const uint32_t __hvipi_shared *vp_index, uint32_t vector,
		    uint32_t hints, uint64_t *page, uint32_t page_size);

/*
 * hvipi_fast_one - the FAST plan of hvipi_plan_one() alone, for the
 * commonest IPI (one CPU whose VP is below 64): its processor mask, the
 * call's r8, when hvipi_plan_one() would plan FAST for these arguments,
 * else 0 (a FAST mask is never 0) and the caller asks hvipi_plan_one().
 * The call is HVIPI_CTL_FAST_SEND_IPI with the vector in rdx.  No plan is
 * written, so the sender needs no 152-byte frame on this path; inline, so
 * the send path saves the call.
 */
#define HVIPI_CTL_FAST_SEND_IPI	0x1000bull	/* SEND_IPI, fast, no var header */

/*@ requires table_valid: \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires fresh_send: hvipi_vp_next == 0;
  @ assigns hvipi_vp_next;
  @ ensures well_formed: \result != 0 ==>
  @   fast_call(HVIPI_CTL_FAST_SEND_IPI, vector, \result, vector);
  @ ensures fast_exact: \result != 0 <==> (cpu < nr_cpu_ids &&
  @   hint_cluster(hints) && vector_ok(vector) && vp_index[cpu] < 64);
  @ ensures no_vp_lost: \result != 0 ==> fast_reads(\result, vp_index[cpu]);
  @ ensures no_spurious_vp: \forall integer v; fast_reads(\result, v) ==>
  @   v == vp_index[cpu];
  @*/
static inline uint64_t hvipi_fast_one(uint32_t cpu, uint32_t nr_cpu_ids,
				      const uint32_t __hvipi_shared *vp_index,
				      uint32_t vector, uint32_t hints)
{
	uint32_t vp;

	if (cpu >= nr_cpu_ids || !(hints & HVIPI_HINT_CLUSTER_IPI) ||
	    vector < HVIPI_VECTOR_MIN || vector > HVIPI_VECTOR_MAX)
		return 0;
	vp = hvipi_load_vp(vp_index, cpu);
	if (vp >= HVIPI_FAST_VP_LIMIT)
		return 0;
	/*@ assert one_bit: \forall integer v; 0 <= v < 64 ==>
	  @   (bit64(1ull << vp, v) <==> v == vp); */
	return 1ull << vp;
}

/*
 * The GVA list of a remote TLB flush (HvCallFlushVirtualAddressList and
 * its Ex form) for the addresses [start, end): entries of at most 4096
 * pages (TLFS HV_GVA_RANGE: page number in bits 63:12, additional pages
 * in bits 11:0), the fewest that cover every page the range touches, in
 * address order, written to list[0 .. n-1].  Returns n, the rep count of
 * the call.  Returns 0 and writes nothing when the range is empty
 * (end <= start) or needs more than capacity entries: the caller then
 * flushes nothing or the whole address space (spec/FLUSH_RULES.md).
 * The flush planner places list at its word in the input page, with
 * capacity the words left before the page's end.
 */
#define HVIPI_GVA_PAGES_MAX	4096u	/* pages one entry covers, at most */

/*@ requires list_valid: \valid(list + (0 .. capacity - 1));
  @ assigns list[0 .. capacity - 1];
  @ ensures gva_count: \result == (gva_entries(start, end) <= capacity ?
  @   gva_entries(start, end) : 0);
  @ ensures list_exact: gva_list_exact(list, \result, start, end);
  @ ensures gva_coverage: \result > 0 ==>
  @   gva_list_covers(list, \result, start, end);
  @ ensures no_spurious_page: gva_list_inside(list, \result, start, end);
  @ ensures page_bounds: words_kept{Pre, Post}(list, \result, capacity);
  @*/
uint32_t hvipi_gva_list(uint64_t *list, uint32_t capacity, uint64_t start,
			uint64_t end);

/*
 * Rep hypercalls (the GVA list flushes): the hypervisor may return before
 * every rep is done, with success and the number of reps completed in bits
 * 43:32 of its result; the caller then issues the call again with the rep
 * start index set to that number (TLFS, "hypercall continuation").
 */
#define HVIPI_CTL_REP_MAX	4095u	/* 12-bit rep count and rep start */

/* A rep call's control word: code, variable-header size, rep count, rep
 * start 0, not fast, reserved bits zero. */
/*@ requires code_fits: code < 65536;
  @ requires varhdr_fits: var_hdr <= HVIPI_CTL_VARHDR_MAX;
  @ requires count_fits: rep_count <= HVIPI_CTL_REP_MAX;
  @ assigns \nothing;
  @ ensures encodes: \result == ctl_rep_make(code, var_hdr, rep_count, 0);
  @ ensures well_formed: ctl_rep_is(\result, code, var_hdr, rep_count, 0);
  @*/
uint64_t hvipi_rep_control(uint32_t code, uint32_t var_hdr, uint32_t rep_count);

enum hvipi_rep_step {
	HVIPI_REP_DONE = 0,	/* every rep done: the call succeeded */
	HVIPI_REP_AGAIN = 1,	/* issue *next: the reps left */
	HVIPI_REP_FAILED = 2,	/* the status says the call failed */
	HVIPI_REP_BAD = 3,	/* success, but reps completed made no progress or
				 * exceed the rep count: not to be trusted */
};

/*
 * What to do after a rep call issued with control returned result.  A
 * call with rep count 0 (the Space flushes) is done on success.  Else:
 * done when the reps completed reach the rep count; again, from the reps
 * completed, when they lie strictly between the rep start and the rep
 * count; a success whose reps completed is at or below the rep start
 * (no progress) or above the rep count is BAD, so that a caller's loop
 * ends within rep-count calls whatever the hypervisor returns (the glue
 * then flushes natively, as on FAILED).  *next is control except on AGAIN.
 */
/*@ requires next_valid: \valid(next);
  @ requires rep_call: \exists integer code, varhdr, count, start;
  @   ctl_rep_is(control, code, varhdr, count, start) && start <= count;
  @ assigns *next;
  @ behavior failed:
  @   assumes res_status(result) != 0;
  @   ensures rep_failed: \result == HVIPI_REP_FAILED && *next == control;
  @ behavior done:
  @   assumes res_status(result) == 0;
  @   assumes ctl_rep_count(control) == 0 ||
  @     res_reps(result) == ctl_rep_count(control);
  @   ensures rep_done: \result == HVIPI_REP_DONE && *next == control;
  @ behavior no_progress:
  @   assumes res_status(result) == 0 && ctl_rep_count(control) != 0;
  @   assumes res_reps(result) <= ctl_rep_start(control) ||
  @     res_reps(result) > ctl_rep_count(control);
  @   assumes res_reps(result) != ctl_rep_count(control);
  @   ensures rep_bad: \result == HVIPI_REP_BAD && *next == control;
  @ behavior again:
  @   assumes res_status(result) == 0 && ctl_rep_count(control) != 0;
  @   assumes ctl_rep_start(control) < res_reps(result) < ctl_rep_count(control);
  @   ensures rep_again: \result == HVIPI_REP_AGAIN;
  @   ensures rep_restart: ctl_rep_is(*next, ctl_code(control),
  @     ctl_varhdr(control), ctl_rep_count(control), res_reps(result));
  @   ensures rep_progress: ctl_rep_start(control) < ctl_rep_start(*next) <
  @     ctl_rep_count(*next);
  @ complete behaviors;
  @ disjoint behaviors;
  @*/
enum hvipi_rep_step hvipi_rep_next(uint64_t control, uint64_t result,
				   uint64_t *next);

/*
 * The remote TLB flush (spec/FLUSH_RULES.md): HvCallFlushVirtualAddressSpace
 * and HvCallFlushVirtualAddressList, and their Ex forms with the sparse VP
 * set of the IPI path.  Every call is memory-based: the input goes to the
 * page, and the glue issues it with hvipi_rep_next()'s loop.
 */
#define HVIPI_CALL_FLUSH_SPACE		0x0002u
#define HVIPI_CALL_FLUSH_LIST		0x0003u
#define HVIPI_CALL_FLUSH_SPACE_EX	0x0013u
#define HVIPI_CALL_FLUSH_LIST_EX	0x0014u

/* HV_FLUSH_* flags, input word 1 (TLFS). */
#define HVIPI_HV_FLUSH_ALL_PROCESSORS		0x1u
#define HVIPI_HV_FLUSH_ALL_SPACES		0x2u	/* ALL_VIRTUAL_ADDRESS_SPACES */
#define HVIPI_HV_FLUSH_NON_GLOBAL_ONLY		0x4u	/* NON_GLOBAL_MAPPINGS_ONLY */

/* Hint: CPUID 0x40000004 EAX bit 2, remote TLB flush recommended. */
#define HVIPI_HINT_REMOTE_FLUSH	(1u << 3)

/* What the caller asks for (hvipi_plan_flush()'s @opts). */
#define HVIPI_FLUSH_OPT_ALL_SPACES	(1u << 0)	/* no mm: every address space */
#define HVIPI_FLUSH_OPT_WHOLE		(1u << 1)	/* the whole space (TLB_FLUSH_ALL) */
#define HVIPI_FLUSH_OPT_GLOBAL		(1u << 2)	/* global mappings must go too */

/* Input header: address space, flags, then the processor mask (non-Ex)
 * or the VP set's format and valid-bank mask (Ex), u64 words. */
#define HVIPI_FLUSH_HDR_WORDS		3u
#define HVIPI_FLUSH_EX_HDR_WORDS	4u

enum hvipi_flush_kind {
	HVIPI_FLUSH_NONE = 0,		/* nothing to flush: success */
	HVIPI_FLUSH_SPACE = 1,		/* 0x0002, 24 bytes */
	HVIPI_FLUSH_LIST = 2,		/* 0x0003, 24 + 8 gvas bytes */
	HVIPI_FLUSH_SPACE_EX = 3,	/* 0x0013, 32 + 8 banks bytes */
	HVIPI_FLUSH_LIST_EX = 4,	/* 0x0014, 32 + 8 (banks + gvas) bytes */
	HVIPI_FLUSH_FALLBACK = 5,	/* flush natively: reason says why */
};

/*
 * A flush plan.  For the four call kinds the input is page bytes
 * [0, bytes): word 0 the address space, word 1 the flags; non-Ex: word 2
 * the processor mask, the GVA list from word 3; Ex: word 2 the format
 * (sparse), word 3 the valid-bank mask, the compacted bank words from
 * word 4, the GVA list after them.
 */
struct hvipi_flush_plan {
	uint32_t kind;		/* enum hvipi_flush_kind */
	uint32_t reason;	/* enum hvipi_reason, HVIPI_FB_NONE unless FALLBACK */
	uint64_t control;	/* hypercall control word; 0 for NONE, FALLBACK */
	uint64_t flags;		/* the HV_FLUSH_* flags written to word 1 */
	uint64_t valid_bank_mask; /* Ex kinds (and their NO_PAGE fallback) */
	uint32_t banks;		/* their number, the variable-header size */
	uint32_t gvas;		/* GVA entries, the rep count; 0 for SPACE* */
	uint32_t bytes;		/* input bytes written to the page */
};

/* The plan's call, by kind: is it one, is it Ex, its header words, its code. */
#define HVIPI_FLUSH_CALL(p) \
	((p)->kind >= HVIPI_FLUSH_SPACE && (p)->kind <= HVIPI_FLUSH_LIST_EX)
#define HVIPI_FLUSH_IS_EX(p) \
	((p)->kind == HVIPI_FLUSH_SPACE_EX || (p)->kind == HVIPI_FLUSH_LIST_EX)
#define HVIPI_FLUSH_IS_LIST(p) \
	((p)->kind == HVIPI_FLUSH_LIST || (p)->kind == HVIPI_FLUSH_LIST_EX)
#define HVIPI_FLUSH_HDR(p) \
	(HVIPI_FLUSH_IS_EX(p) ? HVIPI_FLUSH_EX_HDR_WORDS + (p)->banks : \
	 HVIPI_FLUSH_HDR_WORDS)
#define HVIPI_FLUSH_CODE(p) \
	((p)->kind == HVIPI_FLUSH_SPACE ? HVIPI_CALL_FLUSH_SPACE : \
	 (p)->kind == HVIPI_FLUSH_LIST ? HVIPI_CALL_FLUSH_LIST : \
	 (p)->kind == HVIPI_FLUSH_SPACE_EX ? HVIPI_CALL_FLUSH_SPACE_EX : \
	 HVIPI_CALL_FLUSH_LIST_EX)

/*
 * The VPs a flush plan reaches: none when it makes no call (NONE,
 * FALLBACK: the glue issues none), else those the hypervisor reads from
 * the plan's control word and the input page (flush_reads,
 * spec/hvipi_receiver.h).  A macro, as HVIPI_SPARSE_INPUT: WP's simplifier
 * then resolves the kind test on each path.  ACSL only.
 */
#define HVIPI_FLUSH_REACHES(p, page, v) \
	(HVIPI_FLUSH_CALL(p) && flush_reads((p)->control, (page), (v)))

/* The target set of a flush: every CPU of the mask, self included. */
#define HVIPI_FLUSH_SET mask, nr_cpu_ids, vp_index, 0, 0

/*
 * hvipi_plan_flush - plan one remote TLB flush.
 * @plan:       where the plan goes
 * @mask, @present, @nr_cpu_ids, @vp_index, @vp_ident: as for
 *              hvipi_plan_mask(); the calling CPU is a target when its bit
 *              is set (a flush never leaves self out)
 * @space:      the address space (CR3 value of the mm's page table: bits
 *              11:0 and 63 clear), used unless @opts has
 *              HVIPI_FLUSH_OPT_ALL_SPACES (then 0 is the value to pass)
 * @start, @end: the range [start, end) of guest virtual addresses, unless
 *              @opts has HVIPI_FLUSH_OPT_WHOLE
 * @opts:       HVIPI_FLUSH_OPT_* flags
 * @hints:      HVIPI_HINT_REMOTE_FLUSH, HVIPI_HINT_EX_MASKS
 * @page, @page_size: the per-CPU input page, as for hvipi_plan_mask()
 *
 * The rules, first that applies wins (spec/FLUSH_RULES.md, section 9):
 *   1 no target CPU, or an empty range   -> NONE
 *   2 no remote-flush hint               -> FALLBACK NOT_RECOMMENDED
 *   3 targets == present CPUs            -> SPACE/LIST, ALL_PROCESSORS,
 *                                           processor mask 0, no VP read
 *   4 a target VP unknown                -> FALLBACK VP_UNKNOWN
 *   5 every target VP below 64           -> SPACE/LIST, the VP mask
 *   6 no EX hint                         -> FALLBACK EX_NOT_RECOMMENDED
 *   7 a target VP >= 4096                -> FALLBACK VP_TOO_BIG
 *   8 otherwise                          -> SPACE_EX/LIST_EX, sparse set
 * A call kind whose header does not fit the page is FALLBACK NO_PAGE.  A
 * call is a LIST when a range was asked for and its GVA list fits after
 * the header, else a whole-space SPACE.
 * Writes only *plan, and page bytes [0, plan->bytes).
 *
 * The VP-set claims read the call as the hypervisor does
 * (HVIPI_FLUSH_REACHES): no_spurious_vp holds of every plan (NONE and
 * FALLBACK reach nothing; ALL_PROCESSORS in the flags word reaches the
 * whole partition).  no_vp_lost, in the three behaviors that make a call,
 * is guarded by the page test that makes the plan a call (call_exact,
 * fallback_exact), not by its kind, so that a plan that makes no call
 * where it should fails it.
 */
/*@ requires plan_valid: \valid(plan);
  @ requires mask_valid:
  @   \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires present_valid: present == \null ||
  @   \valid_read(present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires table_valid: \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires ident_prefix: vp_ident <= nr_cpu_ids &&
  @   vp_identity(vp_index, vp_ident);
  @ requires page_valid: page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires separated: \separated(plan,
  @   mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @   vp_index + (0 .. nr_cpu_ids - 1), page + (0 .. page_size / 8 - 1));
  @ requires present_partition: present == \null ||
  @   present_is_partition(present, nr_cpu_ids, vp_index);
  @ requires separated_present: present == \null ||
  @   \separated(present + (0 .. mask_words(nr_cpu_ids) - 1),
  @               mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @               vp_index + (0 .. nr_cpu_ids - 1),
  @               plan, page + (0 .. page_size / 8 - 1));
  @ requires fresh_send: hvipi_words_next == 0 &&
  @   hvipi_present_next == 0 && hvipi_vp_next == 0;
  @ requires space_cr3: cr3_space(space);
  @ assigns *plan, page[0 .. page_size / 8 - 1], hvipi_words_next,
  @   hvipi_present_next, hvipi_vp_next;
  @
  @ ensures read_once: hvipi_words_next == mask_words(nr_cpu_ids);
  @ ensures reason_iff_fallback:
  @   (plan->reason == HVIPI_FB_NONE) <==> (plan->kind != HVIPI_FLUSH_FALLBACK);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @ ensures no_spurious_vp: \forall integer v;
  @   HVIPI_FLUSH_REACHES(plan, page, v) ==> vp_target{Pre}(HVIPI_FLUSH_SET, v);
  @ ensures no_input: !HVIPI_FLUSH_CALL(plan) ==>
  @   plan->bytes == 0 && plan->control == 0 && plan->flags == 0 &&
  @   plan->gvas == 0;
  @ ensures pinned_banks: !HVIPI_FLUSH_IS_EX(plan) &&
  @   plan->reason != HVIPI_FB_NO_PAGE ==>
  @     plan->valid_bank_mask == 0 && plan->banks == 0;
  @ ensures well_formed: HVIPI_FLUSH_CALL(plan) ==>
  @   ctl_rep_is(plan->control, HVIPI_FLUSH_CODE(plan), plan->banks,
  @              plan->gvas, 0) &&
  @   plan->bytes == 8 * (HVIPI_FLUSH_HDR(plan) + plan->gvas);
  @ ensures address_space: HVIPI_FLUSH_CALL(plan) ==>
  @   page[0] == flush_space(space, opts) && cr3_space(page[0]);
  @ ensures flags_word: HVIPI_FLUSH_CALL(plan) ==> page[1] == plan->flags;
  @ ensures ex_header: HVIPI_FLUSH_IS_EX(plan) ==>
  @   page[2] == HVIPI_FORMAT_SPARSE && page[3] == plan->valid_bank_mask;
  @ ensures list_or_space: HVIPI_FLUSH_CALL(plan) ==>
  @   plan->gvas == flush_gvas(start, end, opts,
  @     flush_room(page_size, HVIPI_FLUSH_HDR(plan))) &&
  @   (HVIPI_FLUSH_IS_LIST(plan) <==> plan->gvas != 0);
  @ ensures list_exact: HVIPI_FLUSH_CALL(plan) ==>
  @   gva_list_exact(page + HVIPI_FLUSH_HDR(plan), plan->gvas, start, end);
  @ ensures gva_coverage: HVIPI_FLUSH_IS_LIST(plan) ==>
  @   gva_list_covers(page + HVIPI_FLUSH_HDR(plan), plan->gvas, start, end);
  @ ensures no_spurious_page: HVIPI_FLUSH_CALL(plan) ==>
  @   gva_list_inside(page + HVIPI_FLUSH_HDR(plan), plan->gvas, start, end);
  @
  @ behavior nothing_to_do:
  @   assumes no_target(HVIPI_FLUSH_SET) || flush_empty(start, end, opts);
  @   ensures kind: plan->kind == HVIPI_FLUSH_NONE;
  @ behavior not_recommended:
  @   assumes !no_target(HVIPI_FLUSH_SET) && !flush_empty(start, end, opts) &&
  @     !hint_flush(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_FLUSH_FALLBACK &&
  @     plan->reason == HVIPI_FB_NOT_RECOMMENDED;
  @ behavior all_cpus:
  @   assumes flush_gate(mask, nr_cpu_ids, vp_index, start, end, opts, hints) &&
  @     present != \null && same_cpus(mask, present, nr_cpu_ids);
  @   ensures call_exact: page_holds(page, page_size, 24) ==>
  @     plan->kind == HVIPI_FLUSH_SPACE || plan->kind == HVIPI_FLUSH_LIST;
  @   ensures fallback_exact: !page_holds(page, page_size, 24) ==>
  @     plan->kind == HVIPI_FLUSH_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE;
  @   ensures flags_exact: HVIPI_FLUSH_CALL(plan) ==>
  @     plan->flags == flush_flags(1, opts) && page[2] == 0;
  @   ensures no_vp_lost: page_holds(page, page_size, 24) ==>
  @     \forall integer c; target{Pre}(HVIPI_FLUSH_SET, c) ==>
  @       HVIPI_FLUSH_REACHES(plan, page, \old(vp_index[c]));
  @ behavior vp_unknown:
  @   assumes flush_gate(mask, nr_cpu_ids, vp_index, start, end, opts, hints) &&
  @     !(present != \null && same_cpus(mask, present, nr_cpu_ids)) &&
  @     some_vp_unknown(HVIPI_FLUSH_SET);
  @   ensures fallback_exact: plan->kind == HVIPI_FLUSH_FALLBACK &&
  @     plan->reason == HVIPI_FB_VP_UNKNOWN;
  @ behavior fast:
  @   assumes flush_gate(mask, nr_cpu_ids, vp_index, start, end, opts, hints) &&
  @     !(present != \null && same_cpus(mask, present, nr_cpu_ids)) &&
  @     all_vps_fast(HVIPI_FLUSH_SET);
  @   ensures call_exact: page_holds(page, page_size, 24) ==>
  @     plan->kind == HVIPI_FLUSH_SPACE || plan->kind == HVIPI_FLUSH_LIST;
  @   ensures fallback_exact: !page_holds(page, page_size, 24) ==>
  @     plan->kind == HVIPI_FLUSH_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE;
  @   ensures flags_exact: HVIPI_FLUSH_CALL(plan) ==>
  @     plan->flags == flush_flags(0, opts);
  @   ensures bit_coverage: HVIPI_FLUSH_CALL(plan) ==>
  @     \forall integer v; 0 <= v < 64 ==>
  @       (bit64(page[2], v) <==> vp_target{Pre}(HVIPI_FLUSH_SET, v));
  @   ensures no_vp_lost: page_holds(page, page_size, 24) ==>
  @     \forall integer c; target{Pre}(HVIPI_FLUSH_SET, c) ==>
  @       HVIPI_FLUSH_REACHES(plan, page, \old(vp_index[c]));
  @ behavior ex_not_recommended:
  @   assumes flush_gate(mask, nr_cpu_ids, vp_index, start, end, opts, hints) &&
  @     !(present != \null && same_cpus(mask, present, nr_cpu_ids)) &&
  @     !some_vp_unknown(HVIPI_FLUSH_SET) && !all_vps_fast(HVIPI_FLUSH_SET) &&
  @     !hint_ex(hints);
  @   ensures fallback_exact: plan->kind == HVIPI_FLUSH_FALLBACK &&
  @     plan->reason == HVIPI_FB_EX_NOT_RECOMMENDED;
  @ behavior vp_too_big:
  @   assumes flush_gate(mask, nr_cpu_ids, vp_index, start, end, opts, hints) &&
  @     !(present != \null && same_cpus(mask, present, nr_cpu_ids)) &&
  @     !some_vp_unknown(HVIPI_FLUSH_SET) && !all_vps_fast(HVIPI_FLUSH_SET) &&
  @     hint_ex(hints) && some_vp_too_big(HVIPI_FLUSH_SET);
  @   ensures fallback_exact: plan->kind == HVIPI_FLUSH_FALLBACK &&
  @     plan->reason == HVIPI_FB_VP_TOO_BIG;
  @ behavior sparse:
  @   assumes flush_gate(mask, nr_cpu_ids, vp_index, start, end, opts, hints) &&
  @     !(present != \null && same_cpus(mask, present, nr_cpu_ids)) &&
  @     !some_vp_unknown(HVIPI_FLUSH_SET) && !all_vps_fast(HVIPI_FLUSH_SET) &&
  @     hint_ex(hints) && !some_vp_too_big(HVIPI_FLUSH_SET);
  @   ensures bank_set: \forall integer k; 0 <= k < 64 ==>
  @     (bit64(plan->valid_bank_mask, k) <==> bank_used{Pre}(HVIPI_FLUSH_SET, k));
  @   ensures bank_count: plan->banks == popcount64(plan->valid_bank_mask);
  @   ensures call_exact: page_holds(page, page_size, 32 + 8 * plan->banks) ==>
  @     plan->kind == HVIPI_FLUSH_SPACE_EX || plan->kind == HVIPI_FLUSH_LIST_EX;
  @   ensures fallback_exact: !page_holds(page, page_size, 32 + 8 * plan->banks) ==>
  @     plan->kind == HVIPI_FLUSH_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE;
  @   ensures flags_exact: HVIPI_FLUSH_CALL(plan) ==>
  @     plan->flags == flush_flags(0, opts);
  @   ensures bit_coverage: HVIPI_FLUSH_CALL(plan) ==>
  @     \forall integer v; 0 <= v < 4096 && bit64(page[3], v / 64) ==>
  @       (bit64(page[4 + bits_below(page[3], v / 64)], v % 64) <==>
  @        vp_target{Pre}(HVIPI_FLUSH_SET, v));
  @   ensures no_vp_lost: page_holds(page, page_size, 32 + 8 * plan->banks) ==>
  @     \forall integer c; target{Pre}(HVIPI_FLUSH_SET, c) ==>
  @       HVIPI_FLUSH_REACHES(plan, page, \old(vp_index[c]));
  @ complete behaviors;
  @ disjoint behaviors;
  @*/
void hvipi_plan_flush(struct hvipi_flush_plan *plan,
		      const unsigned long __hvipi_shared *mask,
		      const unsigned long __hvipi_shared *present,
		      uint32_t nr_cpu_ids,
		      const uint32_t __hvipi_shared *vp_index,
		      uint32_t vp_ident, uint64_t space, uint64_t start,
		      uint64_t end, uint32_t opts, uint32_t hints,
		      uint64_t *page, uint32_t page_size);

/* The control word: call code, fast bit, variable-header size; rest zero. */
/*@ requires code_fits: code < 65536;
  @ requires varhdr_fits: var_hdr <= HVIPI_CTL_VARHDR_MAX;
  @ assigns \nothing;
  @ ensures encodes: \result == ctl_make(code, fast, var_hdr);
  @ ensures well_formed: ctl_is(\result, code, fast, var_hdr);
  @*/
uint64_t hvipi_control(uint32_t code, bool fast, uint32_t var_hdr);

/* A hypercall status means success when its bits 15:0 are zero. */
/*@ assigns \nothing;
  @ ensures success_bits: \result <==> status % 65536 == 0;
  @*/
bool hvipi_status_ok(uint64_t status);

/*
 * The glue's decisions (spec/hvipi_path.h).  The glue binds the kernel's
 * facts to the flags, and follows the answers: whether a send is planned
 * at all, whether the planner may write the input page, and which entry
 * issues the plan.  Only that binding and the asm are trusted
 * (proofs/ASSUMPTIONS.md, the glue).
 */
enum hvipi_path {
	HVIPI_PATH_DONE = 0,	/* nothing to send: done, no call */
	HVIPI_PATH_NATIVE = 1,	/* the native op sends it */
	HVIPI_PATH_FAST = 2,	/* the fast call: registers only */
	HVIPI_PATH_XMM = 3,	/* the XMM-fast call, inside kernel_fpu_begin() */
	HVIPI_PATH_MEM = 4,	/* the call with this CPU's input page */
};

/*
 * Before an IPI is planned, and before its mask is read: HVIPI_FB_NONE when
 * it may be planned, else why it goes native.  @table_ok: the VP table is
 * valid; @hcall_page: a hypercall page is mapped; @nmi: NMI context, where
 * no plan is made (the one-CPU fast send, which needs neither a plan nor
 * the page, is the caller's to try first).
 */
/*@ assigns \nothing;
  @ behavior off:
  @   assumes !table_ok;
  @   ensures gate_first: \result == HVIPI_FB_OFF;
  @ behavior no_hcall:
  @   assumes table_ok && !hcall_page;
  @   ensures no_hcall_without_page: \result == HVIPI_FB_NO_HCALL;
  @ behavior bad_vector:
  @   assumes table_ok && hcall_page && !vector_ok(vector);
  @   ensures gate_first: \result == HVIPI_FB_BAD_VECTOR;
  @ behavior nmi:
  @   assumes table_ok && hcall_page && vector_ok(vector) && nmi;
  @   ensures page_context: \result == HVIPI_FB_NMI;
  @ behavior plan:
  @   assumes table_ok && hcall_page && vector_ok(vector) && !nmi;
  @   ensures gate_first: \result == HVIPI_FB_NONE;
  @ complete behaviors;
  @ disjoint behaviors;
  @*/
uint32_t hvipi_ipi_gate(uint32_t vector, bool table_ok, bool hcall_page,
			bool nmi);

/* The same before a remote TLB flush is planned (there is no vector). */
/*@ assigns \nothing;
  @ behavior off:
  @   assumes !table_ok;
  @   ensures gate_first: \result == HVIPI_FB_OFF;
  @ behavior no_hcall:
  @   assumes table_ok && !hcall_page;
  @   ensures no_hcall_without_page: \result == HVIPI_FB_NO_HCALL;
  @ behavior nmi:
  @   assumes table_ok && hcall_page && nmi;
  @   ensures page_context: \result == HVIPI_FB_NMI;
  @ behavior plan:
  @   assumes table_ok && hcall_page && !nmi;
  @   ensures gate_first: \result == HVIPI_FB_NONE;
  @ complete behaviors;
  @ disjoint behaviors;
  @*/
uint32_t hvipi_flush_gate(bool table_ok, bool hcall_page, bool nmi);

/* Whether the planner may be given this CPU's input page to write. */
/*@ assigns \nothing;
  @ ensures page_context: \result <==> page_context(irqs_off, nmi);
  @*/
bool hvipi_page_ok(bool irqs_off, bool nmi);

/*
 * The entry that issues an IPI plan of kind @kind: @input_page, the
 * planner was given the input page; @fpu, kernel_fpu_begin() may be used
 * here.  Any kind that is not a call the context allows goes native.
 */
/*@ assigns \nothing;
  @ ensures one_path: \result == ipi_path(kind, hcall_page, input_page,
  @                                       irqs_off, nmi, fpu);
  @ ensures no_hcall_without_page: !hcall_page ==>
  @   \result == HVIPI_PATH_DONE || \result == HVIPI_PATH_NATIVE;
  @ ensures page_context: \result == HVIPI_PATH_MEM ==>
  @   input_page && page_context(irqs_off, nmi) && ipi_mem_kind(kind);
  @ ensures fpu_context: \result == HVIPI_PATH_XMM ==>
  @   fpu && !nmi && kind == HVIPI_PLAN_EX_XMM;
  @ ensures one_path: \result == HVIPI_PATH_DONE <==> kind == HVIPI_PLAN_NONE;
  @ ensures one_path: \result == HVIPI_PATH_FAST ==> kind == HVIPI_PLAN_FAST;
  @*/
uint32_t hvipi_ipi_path(uint32_t kind, bool hcall_page, bool input_page,
			bool irqs_off, bool nmi, bool fpu);

/* The same for a remote TLB flush plan: every flush call uses the page. */
/*@ assigns \nothing;
  @ ensures one_path: \result == flush_path(kind, hcall_page, input_page,
  @                                         irqs_off, nmi);
  @ ensures no_hcall_without_page: !hcall_page ==>
  @   \result == HVIPI_PATH_DONE || \result == HVIPI_PATH_NATIVE;
  @ ensures page_context: \result == HVIPI_PATH_MEM ==>
  @   input_page && page_context(irqs_off, nmi) && flush_call_kind(kind);
  @ ensures one_path: \result == HVIPI_PATH_DONE <==>
  @   kind == HVIPI_FLUSH_NONE;
  @ ensures one_path: \result == HVIPI_PATH_DONE ||
  @   \result == HVIPI_PATH_NATIVE || \result == HVIPI_PATH_MEM;
  @*/
uint32_t hvipi_flush_path(uint32_t kind, bool hcall_page, bool input_page,
			  bool irqs_off, bool nmi);

/*
 * Whether a send that took @path is done (true), or must still be sent by
 * the native op (false): a call is done exactly when its @status is
 * success, and a failed call falls back.
 */
/*@ assigns \nothing;
  @ ensures failed_falls_back: path_call(path) ==>
  @   (\result <==> status % 65536 == 0);
  @ ensures one_path: path == HVIPI_PATH_DONE ==> \result;
  @ ensures one_path: !path_call(path) && path != HVIPI_PATH_DONE ==>
  @   !\result;
  @*/
bool hvipi_path_done(uint32_t path, uint64_t status);

#endif /* HVIPI_H */
