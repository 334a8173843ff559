/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: the selection rules, in their order of precedence.
 * Each level assumes that no earlier level applies; the contract of
 * hvipi_plan_mask has one behavior per level (complete and disjoint).
 *
 *   1 no target CPU                       -> NONE (success, whatever the vector)
 *   2 cluster-IPI hint not set            -> FALLBACK NOT_RECOMMENDED
 *   3 vector outside 0x10..0xff           -> FALLBACK BAD_VECTOR
 *   4 every target VP known and < 64      -> FAST
 *   5 EX hint, present mask given, self
 *     kept, target set == present set,
 *     the page holds 24 bytes             -> EX_ALL (without such a page,
 *                                            the levels below decide: an
 *                                            XMM-fast sparse call can
 *                                            carry the same set)
 *   6 a target VP is unknown              -> FALLBACK VP_UNKNOWN
 *   7 EX hint not set                     -> FALLBACK EX_NOT_RECOMMENDED
 *   8 a target VP is >= 4096              -> FALLBACK VP_TOO_BIG
 *   9 otherwise                           -> EX_XMM when the XMM hint is set
 *                                            and banks <= 11; else EX_SPARSE
 *                                            (FALLBACK NO_PAGE if the page
 *                                            cannot hold 24 + 8*banks)
 */
#ifndef HVIPI_SPEC_SELECT_H
#define HVIPI_SPEC_SELECT_H

#include "hvipi_targets.h"
#include "hvipi_receiver.h"

/*@
  predicate vector_ok(integer vector) = 0x10 <= vector <= 0xff;

  predicate hint_cluster(integer hints) = (hints & 1) != 0;
  predicate hint_ex(integer hints) = (hints & 2) != 0;
  predicate hint_xmm(integer hints) = (hints & 4) != 0;

  // A sparse set of this many banks goes XMM-fast (rule 9): XMM input is
  // available and valid_bank_mask plus the banks fit in xmm0 .. xmm5.
  predicate xmm_fits(integer hints, integer banks) =
    hint_xmm(hints) && banks <= 11;

  // Levels 1..3 do not apply: a hypercall will be considered.
  predicate sel_gate{L}(unsigned long *m, integer nr, uint32_t *t,
                        integer self, integer excl, integer vector,
                        integer hints) =
    !no_target(m, nr, t, self, excl) && hint_cluster(hints) &&
    vector_ok(vector);

  // The page can hold n bytes of input.
  predicate page_holds(uint64_t *page, integer size, integer n) =
    page != \null && size >= n;

  // Level 5's condition: the "all" format applies and the page can hold
  // its 24-byte input.
  predicate all_format_ok{L}(unsigned long *m, unsigned long *p, integer nr,
                             integer excl, integer hints, uint64_t *page,
                             integer size) =
    hint_ex(hints) && p != \null && excl == 0 && same_cpus(m, p, nr) &&
    page_holds(page, size, 24);

  // Levels 1..5 do not apply: the set needs the sparse Ex form.
  predicate sel_sparse{L}(unsigned long *m, unsigned long *p, integer nr,
                          uint32_t *t, integer self, integer excl,
                          integer vector, integer hints, uint64_t *page,
                          integer size) =
    sel_gate(m, nr, t, self, excl, vector, hints) &&
    !all_vps_fast(m, nr, t, self, excl) &&
    !all_format_ok(m, p, nr, excl, hints, page, size);

  // The environment's half of the "all" format: the present CPUs' VPs are
  // exactly the partition's VPs (no VP of the partition without a present
  // CPU below nr, no present CPU outside the partition).
  predicate present_is_partition{L}(unsigned long *p, integer nr, uint32_t *t) =
    \forall integer v; partition_vp(v) <==>
      \exists integer c; 0 <= c < nr && cpu_in(p, c) && t[c] == v;

*/

#endif /* HVIPI_SPEC_SELECT_H */
