/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: the one piece of logic that needs the plan's layout, so
 * src/hvipi.h includes it after struct hvipi_plan.
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

#endif /* HVIPI_SPEC_XMM_H */
