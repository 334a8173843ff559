/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: lemmas.  Each is a goal that WP sends to the provers
 * (typed_lemma_*); none is assumed.  Loops need them to keep bit facts
 * across one-bit updates.
 */
#ifndef HVIPI_SPEC_LEMMAS_H
#define HVIPI_SPEC_LEMMAS_H

#include "hvipi_bits.h"
#include "hvipi_targets.h"

/*@
  // Setting bit v: bit b of the result is set iff it was, or b == v.
  lemma bit64_set:
    \forall integer m, v, b; u64(m) && 0 <= v < 64 && 0 <= b < 64 ==>
      (bit64(m | (1 << v), b) <==> (bit64(m, b) || b == v));

  // Setting bit 0 (the bank of VPs 0..63) with | 1.
  lemma bit64_set0:
    \forall integer m, b; u64(m) && 0 <= b < 64 ==>
      (bit64(m | 1, b) <==> (bit64(m, b) || b == 0));

  // ORing two words: bit b of the result is set iff it is in either.
  lemma bit64_or:
    \forall integer m, w, b; u64(m) && u64(w) && 0 <= b < 64 ==>
      (bit64(m | w, b) <==> (bit64(m, b) || bit64(w, b)));

  // A one-bit word fits in 64 bits.
  lemma shift1_u64:
    \forall integer k; 0 <= k < 64 ==> 1 <= (1 << k) <= 9223372036854775808;

  // A bit of a word is 0 or 1.
  lemma bit_is_0_or_1:
    \forall integer m, k; u64(m) && 0 <= k < 64 ==>
      (((m >> k) & 1) == 0 || ((m >> k) & 1) == 1);

  // No bit of 0 is set.
  lemma bit64_zero:
    \forall integer b; !bit64(0, b);

  // A CPU or VP number splits into a word (bank) index and a bit.
  lemma split64:
    \forall integer w, b; 0 <= w && 0 <= b < 64 ==>
      (64 * w + b) / 64 == w && (64 * w + b) % 64 == b;

  // The C computation of the mask word count is mask_words.
  lemma mask_words_c:
    \forall integer nr; 0 <= nr ==>
      nr / 64 + (nr % 64 != 0 ? 1 : 0) == mask_words(nr);

  // Every CPU id below nr lies in a word below mask_words(nr) ...
  lemma mask_words_cover:
    \forall integer nr; 0 <= nr ==> 64 * mask_words(nr) >= nr;

  // ... and each such word starts below nr.
  lemma mask_words_start:
    \forall integer nr, w; 0 <= w < mask_words(nr) ==> 64 * w < nr;

  // With an injective table a CPU whose VP is a target VP is a target:
  // what no_spurious_vp says of VPs then holds of CPUs (no CPU outside
  // the target set, an excluded self included, is interrupted).
  lemma no_spurious_cpu{L}:
    \forall unsigned long *m, integer nr, uint32_t *t, integer self, excl, c;
      vp_injective(t, nr) && 0 <= c < nr && t[c] < 4096 &&
      vp_target(m, nr, t, self, excl, t[c]) ==>
      target(m, nr, t, self, excl, c);

  lemma join64:
    \forall integer a, b; 0 <= a && 0 <= b ==>
      a / 64 == b / 64 && a % 64 == b % 64 ==> a == b;
*/

#endif /* HVIPI_SPEC_LEMMAS_H */
