/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: how a hypervisor reads a plan, written from the TLFS and the
 * receiver rules (README "Receiver rules"), independently of the code.
 *
 * The control word (rcx), field by field, as a receiver extracts it; the
 * VP set of a fast Send-IPI (r8); the VP set of a sparse Ex input in the
 * page (compacted banks); the VPs a remote TLB flush call flushes.
 */
#ifndef HVIPI_SPEC_RECEIVER_H
#define HVIPI_SPEC_RECEIVER_H

#include "hvipi_bits.h"

/*@
  // Control word fields (bits 15:0, 16, 26:17, 31:27, 43:32, 47:44,
  // 59:48, 63:60).
  logic integer ctl_code(integer c)      = c % 65536;
  logic integer ctl_fast(integer c)      = (c / 65536) % 2;
  logic integer ctl_varhdr(integer c)    = (c / 131072) % 1024;
  logic integer ctl_rsvd_31_27(integer c) = (c / 134217728) % 32;
  logic integer ctl_rep_count(integer c) = (c / 4294967296) % 4096;
  logic integer ctl_rsvd_47_44(integer c) = (c / 17592186044416) % 16;
  logic integer ctl_rep_start(integer c) = (c / 281474976710656) % 4096;
  logic integer ctl_rsvd_63_60(integer c) = c / 1152921504606846976;

  // A control word that sets the given call code, fast bit and
  // variable-header size, and nothing else.
  predicate ctl_is(integer c, integer code, integer fast, integer varhdr) =
    0 <= c &&
    ctl_code(c) == code && ctl_fast(c) == fast && ctl_varhdr(c) == varhdr &&
    ctl_rsvd_31_27(c) == 0 && ctl_rep_count(c) == 0 &&
    ctl_rsvd_47_44(c) == 0 && ctl_rep_start(c) == 0 &&
    ctl_rsvd_63_60(c) == 0;

  // The control word hvipi builds: the fields summed in their places.
  logic integer ctl_make(integer code, integer fast, integer varhdr) =
    code + 65536 * fast + 131072 * varhdr;

  // Fast HvCallSendSyntheticClusterIpi: VP v is interrupted iff bit v of
  // the processor mask (r8) is set.
  predicate fast_reads(integer r8, integer v) = 0 <= v < 64 && bit64(r8, v);

  // The whole fast call as issued: a fast HvCallSendSyntheticClusterIpi
  // control word with no other field set, the vector alone in rdx (bits
  // 31:0, as a receiver reads it) and a processor mask in r8 that names
  // a VP.
  predicate fast_call(integer control, integer rdx, integer r8,
                      integer vector) =
    ctl_is(control, 0x000b, 1, 0) && rdx == vector &&
    0 <= rdx < 4294967296 && r8 != 0;

  // HvCallSendSyntheticClusterIpiEx, sparse format, input in the page
  // (u64 words: 0 vector/vtl/reserved, 1 format, 2 valid_bank_mask,
  // 3.. bank words): VP v is interrupted iff its bank v/64 is valid and
  // bit v%64 of that bank's word, stored at the compacted index
  // popcount(valid_bank_mask below v/64), is set.
  predicate sparse_reads{L}(uint64_t *page, integer v) =
    0 <= v < 4096 && bit64(page[2], v / 64) &&
    bit64(page[3 + bits_below(page[2], v / 64)], v % 64);

  // HvCallSendSyntheticClusterIpiEx, format "all" (1): the hypervisor
  // interrupts every VP of the partition.  The partition is no C object:
  // its VPs are the predicate partition_vp, declared here with no
  // definition and no axiom, so nothing is assumed of it.  What ties it to
  // the guest's data is hvipi_plan_mask()'s precondition present_partition
  // (spec/hvipi_select.h), which the glue discharges (proofs/ASSUMPTIONS.md).
  axiomatic Partition {
    predicate partition_vp(integer v);
  }
  predicate all_reads(integer v) = partition_vp(v);

  // The remote TLB flush calls (spec/FLUSH_RULES.md, sections 1, 4 and 8),
  // all memory-based: the VPs one issued call flushes, as the TLFS reads
  // them from the control word (its call code says Ex or not) and the
  // input page (u64 words: 0 address space, 1 flags, the VP set from 2).
  // HV_FLUSH_ALL_PROCESSORS, bit 0 of the flags, flushes every VP of the
  // partition in either form (the TLFS leaves the Ex case open; section 8
  // reads it so).  Otherwise a non-Ex call (0x0002, 0x0003) flushes the
  // VPs of its processor mask, word 2, and an Ex call (0x0013, 0x0014)
  // those of its VP set: format 0, the sparse set read as Send-IPI-Ex
  // reads its own one word earlier (valid-bank mask at word 3, compacted
  // banks from word 4); format 1, the partition; any other format is
  // refused.  The flag is read as arithmetic, as ctl_code reads the
  // control word.  Whether the call is accepted (control word, sizes) is
  // the well_formed claim's, not this predicate's.
  predicate flush_code_plain(integer code) = code == 0x0002 || code == 0x0003;
  predicate flush_code_ex(integer code) = code == 0x0013 || code == 0x0014;
  predicate flush_all_processors(integer flags) = flags % 2 == 1;
  predicate flush_reads{L}(integer control, uint64_t *page, integer v) =
    (flush_code_plain(ctl_code(control)) &&
     (flush_all_processors(page[1]) ? all_reads(v) : fast_reads(page[2], v))) ||
    (flush_code_ex(ctl_code(control)) &&
     (flush_all_processors(page[1]) || page[2] == 1 ? all_reads(v) :
      page[2] == 0 && sparse_reads(page + 1, v)));

  // Word 0 of an Ex input: u32 vector, u8 target_vtl = 0, 3 reserved
  // bytes = 0, as one little-endian word.
  predicate ex_header{L}(uint64_t *page, integer vector, integer format) =
    page[0] == vector && page[1] == format;

  // An XMM-fast HvCallSendSyntheticClusterIpiEx (facts 1, 4), sparse
  // format: the control word sets the fast bit and the variable-header
  // size banks (at most 11); the input words in[0 .. 13] are rdx, r8 and
  // the halves of xmm0 .. xmm5, laid out as the Ex input in a page (so
  // sparse_reads reads them): vector, format, valid-bank mask vbm, the
  // banks words, and zero after them.
  predicate xmm_call{L}(integer control, integer rdx, integer r8,
                        uint64_t *in, integer vector, integer vbm,
                        integer banks) =
    ctl_is(control, 0x0015, 1, banks) && 0 <= banks <= 11 &&
    rdx == in[0] && r8 == in[1] && ex_header(in, vector, 0) &&
    in[2] == vbm &&
    \forall integer i; 3 + banks <= i < 14 ==> in[i] == 0;
*/

#endif /* HVIPI_SPEC_RECEIVER_H */
