/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: the GVA list of a Hyper-V remote TLB flush
 * (HvCallFlushVirtualAddressList 0x0003 and its Ex form 0x0014).
 *
 * An entry (TLFS, HV_GVA_RANGE) names a page by its number in bits 63:12
 * and a count of *additional* pages in bits 11:0: it covers 1..4096
 * pages.  A range [start, end) of guest virtual addresses touches the
 * pages gva_first(start) .. gva_last(end).  Definitions only; the facts
 * the contracts need are the lemmas below, proved like every goal.
 * spec/FLUSH_RULES.md, section 3, has the rules and their sources.
 */
#ifndef HVIPI_SPEC_FLUSH_H
#define HVIPI_SPEC_FLUSH_H

#include "hvipi_receiver.h"

/*@
  // The first and the last page number a range [start, end) touches.
  logic integer gva_first(integer start) = start / 4096;
  logic integer gva_last(integer end) = (end - 1) / 4096;

  // How many entries of at most 4096 pages cover those pages: the fewest
  // there can be.  An empty range (end <= start) needs none.
  logic integer gva_entries(integer start, integer end) =
    end <= start ? 0 : (gva_last(end) - gva_first(start)) / 4096 + 1;

  // A receiver's reading of an entry e: it covers page p when p lies
  // from its page number to its page number plus its additional pages.
  predicate gva_covers(integer e, integer p) =
    e / 4096 <= p <= e / 4096 + e % 4096;

  // Entry j of the list for the pages first .. last: 4096 pages from
  // page first + 4096 j, the last entry what is left.
  logic integer gva_more(integer first, integer last, integer j) =
    last - first - 4096 * j < 4095 ? last - first - 4096 * j : 4095;
  logic integer gva_entry(integer first, integer last, integer j) =
    (first + 4096 * j) * 4096 + gva_more(first, last, j);

  // A page number and an additional-page count pack into one entry, and
  // read back.
  lemma gva_split:
    \forall integer a, b; 0 <= a && 0 <= b < 4096 ==>
      (4096 * a + b) / 4096 == a && (4096 * a + b) % 4096 == b;

  // Entry j of the list names page first + 4096 j and a count that fits.
  lemma gva_entry_fields:
    \forall integer first, last, j;
      0 <= first <= last && 0 <= j <= (last - first) / 4096 ==>
        gva_entry(first, last, j) / 4096 == first + 4096 * j &&
        gva_entry(first, last, j) % 4096 == gva_more(first, last, j) &&
        0 <= gva_more(first, last, j) < 4096;

  // Every page of first .. last is covered by the entry (p - first)/4096.
  lemma gva_entry_covers:
    \forall integer first, last, p; 0 <= first <= p <= last ==>
      0 <= (p - first) / 4096 <= (last - first) / 4096 &&
      gva_covers(gva_entry(first, last, (p - first) / 4096), p);

  // An entry of the list covers no page outside first .. last.
  lemma gva_entry_inside:
    \forall integer first, last, j, p;
      0 <= first <= last && 0 <= j <= (last - first) / 4096 &&
      gva_covers(gva_entry(first, last, j), p) ==> first <= p <= last;

  // The list's entries are 64-bit words.
  lemma gva_entry_u64:
    \forall integer first, last, j;
      0 <= first <= last < 4503599627370496 &&
      0 <= j <= (last - first) / 4096 ==>
        0 <= gva_entry(first, last, j) <= 18446744073709551615;
*/

/*@
  axiomatic RepControl {
    // A rep call's control word (TLFS): the given code, variable-header
    // size, rep count and rep start; fast bit and reserved bits zero.
    predicate ctl_rep_is(integer c, integer code, integer varhdr,
                         integer count, integer start) =
      0 <= c &&
      ctl_code(c) == code && ctl_fast(c) == 0 && ctl_varhdr(c) == varhdr &&
      ctl_rsvd_31_27(c) == 0 && ctl_rep_count(c) == count &&
      ctl_rsvd_47_44(c) == 0 && ctl_rep_start(c) == start &&
      ctl_rsvd_63_60(c) == 0;

    // A result value's reps-completed field (bits 43:32) and its status
    // (bits 15:0).
    logic integer res_reps(integer r) = (r / 4294967296) % 4096;
    logic integer res_status(integer r) = r % 65536;

    // The fields of a control word, summed in their places.
    logic integer ctl_rep_make(integer code, integer varhdr, integer count,
                               integer start) =
      code + 131072 * varhdr + 4294967296 * count + 281474976710656 * start;

    // Decoding what ctl_rep_make built gives the fields back.
    lemma ctl_rep_make_decodes:
      \forall integer code, varhdr, count, start;
        0 <= code < 65536 && 0 <= varhdr < 1024 && 0 <= count < 4096 &&
        0 <= start < 4096 ==>
          ctl_rep_is(ctl_rep_make(code, varhdr, count, start),
                     code, varhdr, count, start);

    // Every well-formed rep control word is the sum of its fields.
    lemma ctl_rep_is_make:
      \forall integer c, code, varhdr, count, start;
        ctl_rep_is(c, code, varhdr, count, start) ==>
          c == ctl_rep_make(code, varhdr, count, start);
  }
*/

#endif /* HVIPI_SPEC_FLUSH_H */
