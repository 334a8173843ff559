/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: what the guest asks for.  The target CPUs of a send and the
 * VPs they map to, read from the caller's cpumask and VP index table.
 *
 *   m     cpumask words (unsigned long), CPU c is bit c % 64 of word c / 64
 *   nr    nr_cpu_ids: CPU ids are 0 .. nr-1
 *   t     VP index table, t[c] for c < nr, 0xffffffff = not known
 *   self  the sending CPU; excl != 0: self is left out
 * The contracts pass these five as HVIPI_SEND (src/hvipi.h).
 */
#ifndef HVIPI_SPEC_TARGETS_H
#define HVIPI_SPEC_TARGETS_H

#include "hvipi_bits.h"

/*@
  // The number of words of a cpumask of nr bits.
  logic integer mask_words(integer nr) = (nr + 63) / 64;

  predicate cpu_in{L}(unsigned long *m, integer c) =
    0 <= c && bit64(m[c / 64], c % 64);

  // CPU c is a target of the send.  (t is not read; every predicate
  // about a send takes the same five arguments, HVIPI_SEND in src/.)
  predicate target{L}(unsigned long *m, integer nr, uint32_t *t,
                      integer self, integer excl, integer c) =
    0 <= c < nr && cpu_in(m, c) && (excl == 0 || c != self);

  predicate no_target{L}(unsigned long *m, integer nr, uint32_t *t,
                         integer self, integer excl) =
    \forall integer c; !target(m, nr, t, self, excl, c);

  // VP v is the VP of some target CPU.
  predicate vp_target{L}(unsigned long *m, integer nr, uint32_t *t,
                         integer self, integer excl, integer v) =
    \exists integer c; target(m, nr, t, self, excl, c) && t[c] == v;

  // Every target VP is known and below 64: a fast Send-IPI can carry it.
  predicate all_vps_fast{L}(unsigned long *m, integer nr, uint32_t *t,
                            integer self, integer excl) =
    \forall integer c; target(m, nr, t, self, excl, c) ==> t[c] < 64;

  predicate some_vp_unknown{L}(unsigned long *m, integer nr, uint32_t *t,
                               integer self, integer excl) =
    vp_target(m, nr, t, self, excl, 0xffffffff);

  // A target VP that no sparse VP set can hold (4096 .. 0xfffffffe).
  predicate some_vp_too_big{L}(unsigned long *m, integer nr, uint32_t *t,
                               integer self, integer excl) =
    \exists integer c; target(m, nr, t, self, excl, c) &&
      4096 <= t[c] < 0xffffffff;

  // Bank k (VPs 64k .. 64k+63) holds a target VP.
  predicate bank_used{L}(unsigned long *m, integer nr, uint32_t *t,
                         integer self, integer excl, integer k) =
    \exists integer c; target(m, nr, t, self, excl, c) &&
      t[c] < 4096 && t[c] / 64 == k;

  // Bit i of the compacted bank word j of a sparse set with valid-bank
  // mask banks is owed to a target CPU below hi: the CPU's VP lies in a
  // bank k stored at index j = bits_below(banks, k), at bit i of it.
  predicate bank_bit{L}(unsigned long *m, integer nr, uint32_t *t,
                        integer self, integer excl, integer banks,
                        integer hi, integer j, integer i) =
    \exists integer c; 0 <= c < hi && target(m, nr, t, self, excl, c) &&
      t[c] < 4096 && bits_below(banks, t[c] / 64) == j && t[c] % 64 == i;

  // CPUs 0 .. n-1 are their own VPs: the word paths of the core may take
  // a mask word of them as a bank word (hvipi_plan_mask's vp_ident).
  predicate vp_identity{L}(uint32_t *t, integer n) =
    \forall integer c; 0 <= c < n ==> t[c] == c;

  // CPU c is a target held in one mask word, read as the value word: the
  // word of CPUs base .. base + 63, of which those below end exist.  When
  // word is the mask's word base / 64, word_target and target agree on
  // base .. end - 1 (the single pass reads each word once, as a value).
  predicate word_target(integer word, integer base, integer end,
                        integer self, integer excl, integer c) =
    base <= c < end && bit64(word, c - base) && (excl == 0 || c != self);

  // VP v is the VP of a target CPU below hi (vp_target, CPUs 0 .. hi-1).
  predicate vp_seen{L}(unsigned long *m, integer nr, uint32_t *t,
                       integer self, integer excl, integer hi, integer v) =
    \exists integer c; 0 <= c < hi && target(m, nr, t, self, excl, c) &&
      t[c] == v;

  // VP v is the VP of a CPU of the mask word word (CPUs base .. end-1).
  predicate word_vp{L}(integer word, integer base, integer end, uint32_t *t,
                       integer self, integer excl, integer v) =
    \exists integer c; word_target(word, base, end, self, excl, c) &&
      t[c] == v;

  // Bank k holds the VP of a target CPU below hi.
  predicate bank_seen{L}(unsigned long *m, integer nr, uint32_t *t,
                         integer self, integer excl, integer hi, integer k) =
    \exists integer c; 0 <= c < hi && target(m, nr, t, self, excl, c) &&
      t[c] < 4096 && t[c] / 64 == k;

  // Bank k holds the VP of a CPU of the mask word word (CPUs base .. end-1).
  predicate word_bank{L}(integer word, integer base, integer end,
                         uint32_t *t, integer self, integer excl, integer k) =
    \exists integer c; word_target(word, base, end, self, excl, c) &&
      t[c] < 4096 && t[c] / 64 == k;

  // No two CPUs below nr share a VP that a send can carry (below 4096).
  // The claims are stated per VP; with this the CPU-level claim follows
  // (lemma no_spurious_cpu): no CPU outside the target set is interrupted,
  // an excluded self included.  The glue checks it for the entries known
  // when it switches (proofs/ASSUMPTIONS.md).
  predicate vp_injective{L}(uint32_t *t, integer nr) =
    \forall integer c1, c2; 0 <= c1 < nr && 0 <= c2 < nr &&
      t[c1] == t[c2] && t[c1] < 4096 ==> c1 == c2;

  // Two cpumasks agree on CPUs 0 .. nr-1.
  predicate same_cpus{L}(unsigned long *a, unsigned long *b, integer nr) =
    \forall integer c; 0 <= c < nr ==> (cpu_in(a, c) <==> cpu_in(b, c));
*/

#endif /* HVIPI_SPEC_TARGETS_H */
