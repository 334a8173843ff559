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

  // Two cpumasks agree on CPUs 0 .. nr-1.
  predicate same_cpus{L}(unsigned long *a, unsigned long *b, integer nr) =
    \forall integer c; 0 <= c < nr ==> (cpu_in(a, c) <==> cpu_in(b, c));
*/

#endif /* HVIPI_SPEC_TARGETS_H */
