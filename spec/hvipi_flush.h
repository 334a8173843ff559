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
#include "hvipi_targets.h"

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

/*@
  // The flush planner (hvipi_plan_flush, src/hvipi.h).  Its options and
  // the remote-flush hint, as the bits src/hvipi.h defines.
  predicate opt_all_spaces(integer o) = (o & 1) != 0;
  predicate opt_whole(integer o) = (o & 2) != 0;
  predicate opt_global(integer o) = (o & 4) != 0;
  predicate hint_flush(integer hints) = (hints & 8) != 0;

  // Nothing to flush in the range: it is empty and not the whole space.
  predicate flush_empty(integer start, integer end, integer o) =
    !opt_whole(o) && end <= start;

  // The HV_FLUSH_* flags (TLFS; FLUSH_RULES.md section 2): ALL_PROCESSORS
  // (1) when the targets are the present CPUs, ALL_VIRTUAL_ADDRESS_SPACES
  // (2) when there is no address space, NON_GLOBAL_MAPPINGS_ONLY (4) when
  // the whole space was asked for and global mappings may stay.  A list
  // that does not fit becomes a whole-space flush without it.
  logic integer flush_flags(integer all_cpus, integer o) =
    (all_cpus != 0 ? 1 : 0) + ((o & 1) != 0 ? 2 : 0) +
    ((o & 2) != 0 && (o & 4) == 0 ? 4 : 0);

  // Word 0 of the input: the address space, 0 with ALL_VIRTUAL_ADDRESS_SPACES.
  logic integer flush_space(integer space, integer o) =
    (o & 1) != 0 ? 0 : space;

  // An address space as the call takes it (FLUSH_RULES.md sections 2 and
  // 6): a CR3 value without PCID bits (11:0) and without the NOFLUSH bit
  // (63), as Linux's __pa(mm->pgd) & CR3_ADDR_MASK is.  Arithmetic, not
  // bits, as the other fields.
  predicate cr3_space(integer s) =
    0 <= s < 9223372036854775808 && s % 4096 == 0;

  // The GVA entries the page holds after a header of hdr words: the words
  // left, at most the 12-bit rep count.
  logic integer flush_room(integer size, integer hdr) =
    size / 8 - hdr < 4095 ? size / 8 - hdr : 4095;

  // The rep count of a flush: the list when it is asked for and fits,
  // else none (the whole space).
  logic integer flush_gvas(integer start, integer end, integer o,
                           integer room) =
    (o & 2) != 0 ? 0 :
    gva_entries(start, end) <= room ? gva_entries(start, end) : 0;

  // Levels 1 and 2 of the flush rules do not apply: a hypercall will be
  // considered.
  predicate flush_gate{L}(unsigned long *m, integer nr, uint32_t *t,
                          integer start, integer end, integer o,
                          integer hints) =
    !no_target(m, nr, t, 0, 0) && !flush_empty(start, end, o) &&
    hint_flush(hints);

  // A GVA list of n entries at list, as a receiver reads it: entry j is
  // gva_entry j of the range's pages (exact), every page of the range is
  // covered by the entry (p - first) / 4096 (covers), and no entry covers
  // a page outside the range (inside).
  predicate gva_list_exact{L}(uint64_t *list, integer n, integer start,
                              integer end) =
    \forall integer j; 0 <= j < n ==>
      list[j] == gva_entry(gva_first(start), gva_last(end), j);
  predicate gva_list_covers{L}(uint64_t *list, integer n, integer start,
                               integer end) =
    \forall integer p; gva_first(start) <= p <= gva_last(end) ==>
      (p - gva_first(start)) / 4096 < n &&
      gva_covers(list[(p - gva_first(start)) / 4096], p);
  predicate gva_list_inside{L}(uint64_t *list, integer n, integer start,
                               integer end) =
    \forall integer j, p; 0 <= j < n && gva_covers(list[j], p) ==>
      gva_first(start) <= p <= gva_last(end);

  // Words a .. b-1 of p hold at L2 what they held at L1.
  predicate words_kept{L1, L2}(uint64_t *p, integer a, integer b) =
    \forall integer j; a <= j < b ==> \at(p[j], L1) == \at(p[j], L2);

*/

#endif /* HVIPI_SPEC_FLUSH_H */
