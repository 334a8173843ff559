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

  // The byte steps of the passes over a bank mask (hvipi_rank(),
  // hvipi_put_banks()): a clear low byte of w >> k means bits k .. k + 7
  // of w are clear.  In an axiomatic block of their own, so that WP gives
  // these lemmas only to the goals that use low_byte_clear or
  // shifted_bits: as hypotheses of every bit64 goal they slowed others
  // past their timeout (hvipi_plan_mask's dense_banks: CVC5 21.6 s
  // without them, a timeout at 30 s with them, measured).
  axiomatic ByteSteps {
    predicate low_byte_clear(integer x) = (x & 255) == 0;

    // ANDing two words: bit b of the result is set iff it is in both.
    lemma bit64_and:
      \forall integer m, w, b; u64(m) && u64(w) && 0 <= b < 64 ==>
        (bit64(m & w, b) <==> (bit64(m, b) && bit64(w, b)));

    // Bits 0 .. 7 of 255 are set (WP's Range tactic: one case per bit,
    // each evaluated by Qed).
    lemma bit64_255:
      \forall integer d; 0 <= d < 8 ==> ((255 >> d) & 1) == 1;

    // A word whose low byte is 0 has none of bits 0 .. 7 set ...
    lemma byte_clear:
      \forall integer x, d; u64(x) && (x & 255) == 0 && 0 <= d < 8 ==>
        !bit64(x, d);

    // ... and bit d of w >> i is bit i + d of w.
    lemma bit64_shift:
      \forall integer w, i, d; u64(w) && 0 <= i && 0 <= d && i + d < 64 ==>
        (bit64(w >> i, d) <==> bit64(w, i + d));
    // The bits of x are those of w from bit k on (x is w >> k): the
    // invariant of the passes over a bank mask's set bits (hvipi_rank(),
    // hvipi_put_banks()).
    predicate shifted_bits(integer w, integer k, integer x) =
      \forall integer j; k <= j < 64 ==> (bit64(w, j) <==> bit64(x, j - k));
    lemma shift_bits:
      \forall integer w, k; u64(w) && 0 <= k ==> shifted_bits(w, k, w >> k);
  }

  // Two words that differ differ in a bit (hvipi_diff_bit(), ghost): the
  // bits of their XOR, keyed as FlipBit is.
  axiomatic DiffBit {
    predicate xor_of(integer x, integer y, integer d) = d == (x ^ y);

    lemma xor_bits:
      \forall integer x, y, d, b; xor_of(x, y, d) && u64(x) && u64(y) &&
        0 <= b < 64 ==> (bit64(d, b) <==> !(bit64(x, b) <==> bit64(y, b)));

    lemma xor_zero:
      \forall integer x, y, d; xor_of(x, y, d) && u64(x) && u64(y) &&
        d == 0 ==> x == y;
  }

  // Clearing a set bit with an XOR (hvipi_own_word() drops an excluded
  // self so).  In their own block, keyed on flipped, so that only the
  // goals that flip a bit see them: as hypotheses of every bit64 goal
  // they slowed hvipi_encode_flush_ex's bit_coverage past its timeout.
  axiomatic FlipBit {
    // x is w with bit j flipped.
    predicate flipped(integer w, integer j, integer x) = x == (w ^ (1 << j));

    // XORing two words: bit b is set iff it is set in one only ...
    lemma flip_xor:
      \forall integer w, j, x, b; flipped(w, j, x) && u64(w) &&
        0 <= j < 64 && 0 <= b < 64 ==>
        (bit64(x, b) <==> (bit64(w, b) <==> !bit64(1 << j, b)));

    // ... and 1 << j has bit j alone.
    lemma flip_one:
      \forall integer w, j, x, b; flipped(w, j, x) && 0 <= j < 64 &&
        0 <= b < 64 ==> (bit64(1 << j, b) <==> b == j);
  }
  // A non-zero word has a set bit: the witness the word path of
  // hvipi_collect_word() needs, found by a ghost binary search over the
  // number w >> n (hvipi_set_bit(), never compiled).  The provers know
  // >> 1 as / 2 and that shifts add up; the lemmas below give them the
  // larger constant shifts as divisions, and the low bit of an odd
  // number.  In an axiomatic block of their own (see ByteSteps): only
  // the goals that name at_shift get them.
  axiomatic SetBitWitness {
    // x is w >> n: the search's cursor.
    predicate at_shift(integer w, integer n, integer x) =
      u64(w) && 0 <= n < 64 && x == (w >> n) && u64(x);
    // An equation Qed leaves as it is, so that the term it names reaches
    // the provers (the trigger of their axiom a & b == 0 ==> a + b == a | b).
    predicate zero_term(integer v) = v == 0;
    lemma shr_by_2:
      \forall integer x; u64(x) ==> (x >> 1) >> 1 == x / 4 && x >> 2 == x / 4;
    lemma shr_by_4:
      \forall integer x; u64(x) ==> (x >> 2) >> 2 == x / 16 && x >> 4 == x / 16;
    lemma shr_by_8:
      \forall integer x; u64(x) ==> (x >> 4) >> 4 == x / 256 && x >> 8 == x / 256;
    lemma shr_by_16:
      \forall integer x; u64(x) ==>
        (x >> 8) >> 8 == x / 65536 && x >> 16 == x / 65536;
    lemma shr_by_32:
      \forall integer x; u64(x) ==>
        (x >> 16) >> 16 == x / 4294967296 && x >> 32 == x / 4294967296;
    // An odd number is 1 | 2q, whose bit 0 is set.
    lemma odd_bit0:
      \forall integer x, q; u64(x) && q == x / 2 && x == 2 * q + 1 ==>
        (q << 1) == 2 * q && zero_term(1 & (q << 1)) &&
        x == (1 | (q << 1)) && bit64(x, 0);
    // So bit n of w is set when w >> n is odd.
    lemma odd_at:
      \forall integer w, n, x; at_shift(w, n, x) && x == 2 * (x / 2) + 1 ==>
        bit64(x, 0) && bit64(w, n);
  }
*/

#endif /* HVIPI_SPEC_LEMMAS_H */
