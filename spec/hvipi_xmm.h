/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: the logic that needs the plan's layout (the XMM input and
 * the pinned fields), so src/hvipi.h includes it after struct hvipi_plan.
 *
 * An XMM-fast Ex plan carries its input in plan.input[0 .. 13] (rdx, r8,
 * the halves of xmm0 .. xmm5) in the page's layout, and the contracts read
 * it with the receiver's own sparse_reads (spec/hvipi_receiver.h).  This
 * lemma spells that reading out word by word on the plan's field: proved,
 * it lets the provers go from the words the code writes to the
 * predicate the contracts state without unfolding the pointer to the
 * array's first element inside a large goal.
 */
#ifndef HVIPI_SPEC_XMM_H
#define HVIPI_SPEC_XMM_H

#include "hvipi_receiver.h"

/*@
  lemma xmm_input_reads{L}:
    \forall struct hvipi_plan *p, integer v;
      sparse_reads(&p->input[0], v) <==>
      (0 <= v < 4096 && bit64(p->input[2], v / 64) &&
       bit64(p->input[3 + bits_below(p->input[2], v / 64)], v % 64));
*/

/*
 * A sparse Ex plan carries its VP set in one of two places: an EX_XMM plan
 * in plan.input[0 .. 13], an EX_SPARSE plan in the page, in the same
 * layout.  The claims on that set (bit_coverage, no_vp_lost,
 * no_spurious_vp, and hvipi_encode_sparse()'s reads) are stated once,
 * over the input of the plan's kind:
 *
 *   HVIPI_SPARSE_KIND(p)        the plan is a sparse Ex call
 *   HVIPI_SPARSE_INPUT(p, page) where its input is: &p->input[0] for
 *                               EX_XMM, else the page
 *
 * Macros, not an ACSL predicate and logic function: WP's simplifier then
 * resolves the choice on each path, where the plan's kind is known, and
 * the provers see the one pointer of that path.  As a logic function it
 * stays folded, and six goals of hvipi_encode_sparse time out at 30 s
 * (measured).
 */
#define HVIPI_SPARSE_KIND(p) \
	((p)->kind == HVIPI_PLAN_EX_SPARSE || (p)->kind == HVIPI_PLAN_EX_XMM)
#define HVIPI_SPARSE_INPUT(p, page) \
	((p)->kind == HVIPI_PLAN_EX_XMM ? &(p)->input[0] : (page))

/*
 * The plan fields a kind does not use, pinned to the values struct
 * hvipi_plan documents (src/hvipi.h), so that no glue can read a stale or
 * stray value from them: shared by every entry point's `pinned_*`
 * postconditions.
 */
/*@
  // rdx and r8 carry input only for FAST and EX_XMM plans.
  predicate plan_regs_pinned(struct hvipi_plan *p) =
    p->kind != HVIPI_PLAN_FAST && p->kind != HVIPI_PLAN_EX_XMM ==>
      p->rdx == 0 && p->r8 == 0;

  // No hypercall, no control word.
  predicate plan_control_pinned(struct hvipi_plan *p) =
    p->kind == HVIPI_PLAN_NONE || p->kind == HVIPI_PLAN_FALLBACK ==>
      p->control == 0;

  // Only the sparse rule (EX_SPARSE, EX_XMM, its NO_PAGE fallback) sets
  // the bank fields.
  predicate plan_banks_pinned(struct hvipi_plan *p) =
    p->kind != HVIPI_PLAN_EX_SPARSE && p->kind != HVIPI_PLAN_EX_XMM &&
    p->reason != HVIPI_FB_NO_PAGE ==>
      p->valid_bank_mask == 0 && p->banks == 0;

  // Only EX_XMM plans write input[].
  predicate plan_input_pinned{L1, L2}(struct hvipi_plan *p) =
    \at(p->kind, L2) != HVIPI_PLAN_EX_XMM ==>
      \forall integer i; 0 <= i < HVIPI_XMM_INPUT_WORDS ==>
        \at(p->input[i], L2) == \at(p->input[i], L1);
*/

#endif /* HVIPI_SPEC_XMM_H */
