// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * hvipi: planning and encoding of one Hyper-V PV IPI send.
 *
 * One pass over the target mask (hvipi_collect).  It reads each mask word
 * exactly once and in order, with the present word of the same index while
 * the two masks have agreed so far (hvipi_read_words), mask words alone
 * after that (passing over empty words in a tight loop), and folds the
 * word's target CPUs into a set on the stack: one dense 64-bit word per
 * bank of 64 VPs (VPs 0..4095), the non-empty banks, and whether any VP is
 * unknown, >= 64 or >= 4096, and whether the mask equals the present mask.
 * Everything after the pass reads only that set.  The kernel's masks (cpu_online_mask)
 * may change while a send runs: whatever another CPU writes, the plan and
 * every word written come from the one value read of each word, so the
 * sizes decided and the words written always agree (no write beyond
 * plan.bytes, none beyond plan.input[]).
 *
 * From the set the plan is decided without writing anything; only then a
 * writer fills the plan and, for a sparse Ex plan, copies the non-empty
 * dense words to their compacted places (hvipi_put_banks), in the page, or
 * in plan.input[] for an XMM-fast Ex plan (at most 11 banks with XMM input:
 * rdx, r8 and xmm0..xmm5 in the page's layout; the page is not touched).
 *
 * The caller says how many leading CPUs are their own VPs (vp_ident, from
 * hvipi_vp_ident(), computed once by the glue; 0 is always allowed).  A
 * mask word whose 64 CPUs all lie below vp_ident and 4096 and hold no
 * excluded self is the dense word of its bank as it stands, so it is ORed
 * in whole without reading the table (the word path).  Every other word is
 * read CPU by CPU.  The postconditions do not mention vp_ident: the plan
 * is the one the per-CPU reading gives, whatever prefix the caller passes.
 */
#include "hvipi.h"

/*
 * The set on the stack is written in full before any read
 * (EVA: no uninitialized read), so a kernel built to clear every automatic
 * variable (CONFIG_INIT_STACK_ALL_ZERO) need not clear it at each call.
 */
#ifdef __KERNEL__
#define HVIPI_WRITTEN_FIRST	__uninitialized
#else
#define HVIPI_WRITTEN_FIRST
#endif

uint64_t hvipi_control(uint32_t code, bool fast, uint32_t var_hdr)
{
	/*
	 * The fields do not overlap, so + and * place them as | and << would;
	 * WP reasons about + and * natively.
	 */
	return (uint64_t)code +
	       (uint64_t)fast * (1ull << HVIPI_CTL_FAST_SHIFT) +
	       (uint64_t)var_hdr * (1ull << HVIPI_CTL_VARHDR_SHIFT);
}

bool hvipi_status_ok(uint64_t status)
{
	/* Bits 15:0 are status % 2^16 (the compiler emits the same AND). */
	return status % 0x10000u == 0;
}

uint32_t hvipi_ipi_gate(uint32_t vector, bool table_ok, bool hcall_page,
			bool nmi)
{
	if (!table_ok)
		return HVIPI_FB_OFF;
	if (!hcall_page)
		return HVIPI_FB_NO_HCALL;
	if (vector < HVIPI_VECTOR_MIN || vector > HVIPI_VECTOR_MAX)
		return HVIPI_FB_BAD_VECTOR;
	if (nmi)
		return HVIPI_FB_NMI;
	return HVIPI_FB_NONE;
}

uint32_t hvipi_flush_gate(bool table_ok, bool hcall_page, bool nmi)
{
	if (!table_ok)
		return HVIPI_FB_OFF;
	if (!hcall_page)
		return HVIPI_FB_NO_HCALL;
	if (nmi)
		return HVIPI_FB_NMI;
	return HVIPI_FB_NONE;
}

bool hvipi_page_ok(bool irqs_off, bool nmi)
{
	return irqs_off && !nmi;
}

uint32_t hvipi_ipi_path(uint32_t kind, bool hcall_page, bool input_page,
			bool irqs_off, bool nmi, bool fpu)
{
	switch (kind) {
	case HVIPI_PLAN_NONE:
		return HVIPI_PATH_DONE;
	case HVIPI_PLAN_FAST:
		return hcall_page ? HVIPI_PATH_FAST : HVIPI_PATH_NATIVE;
	case HVIPI_PLAN_EX_XMM:
		return hcall_page && fpu && !nmi ? HVIPI_PATH_XMM :
		       HVIPI_PATH_NATIVE;
	case HVIPI_PLAN_EX_SPARSE:
	case HVIPI_PLAN_EX_ALL:
		return hcall_page && input_page && hvipi_page_ok(irqs_off, nmi) ?
		       HVIPI_PATH_MEM : HVIPI_PATH_NATIVE;
	default:
		/* FALLBACK, or a kind no planner writes: fail closed */
		return HVIPI_PATH_NATIVE;
	}
}

uint32_t hvipi_flush_path(uint32_t kind, bool hcall_page, bool input_page,
			  bool irqs_off, bool nmi)
{
	if (kind == HVIPI_FLUSH_NONE)
		return HVIPI_PATH_DONE;
	/* FALLBACK (above the four calls), or a kind no planner writes */
	if (kind > HVIPI_FLUSH_LIST_EX)
		return HVIPI_PATH_NATIVE;
	return hcall_page && input_page && hvipi_page_ok(irqs_off, nmi) ?
	       HVIPI_PATH_MEM : HVIPI_PATH_NATIVE;
}

bool hvipi_path_done(uint32_t path, uint64_t status)
{
	if (path == HVIPI_PATH_DONE)
		return true;
	if (path < HVIPI_PATH_FAST || path > HVIPI_PATH_MEM)
		return false;
	return hvipi_status_ok(status);
}

uint64_t hvipi_rep_control(uint32_t code, uint32_t var_hdr, uint32_t rep_count)
{
	/* hvipi_control()'s word, not fast, with the rep count above it. */
	return hvipi_control(code, false, var_hdr) +
	       (uint64_t)rep_count * (1ull << HVIPI_CTL_REP_COUNT_SHIFT);
}

enum hvipi_rep_step hvipi_rep_next(uint64_t control, uint64_t result,
				   uint64_t *next)
{
	/* Bits 43:32 and 59:48 (the compiler emits shifts and masks). */
	uint64_t count = control / (1ull << HVIPI_CTL_REP_COUNT_SHIFT) % 4096u;
	uint64_t start = control / (1ull << HVIPI_CTL_REP_START_SHIFT) % 4096u;
	uint64_t done = result / (1ull << HVIPI_CTL_REP_COUNT_SHIFT) % 4096u;

	*next = control;
	if (!hvipi_status_ok(result))
		return HVIPI_REP_FAILED;
	if (count == 0 || done == count)
		return HVIPI_REP_DONE;
	if (done <= start || done > count)
		return HVIPI_REP_BAD;
	/* The rep start field replaced: it is below done, so no wrap. */
	*next = control + (done - start) * (1ull << HVIPI_CTL_REP_START_SHIFT);
	/*@ assert restart: ctl_rep_is(*next, ctl_code(control),
	  @   ctl_varhdr(control), count, done); */
	return HVIPI_REP_AGAIN;
}

/*
 * The page numbers a non-empty range [start, end) spans beyond its first:
 * last - first.  Counted from the distance end - 1 - start, which cannot
 * wrap, so that EVA sees no wrap either (/ 4096 and % 4096 are the >> 12
 * and & 0xfff the compiler emits).
 */
/*@ requires range: start < end;
  @ assigns \nothing;
  @ ensures span: \result == gva_last(end) - gva_first(start);
  @*/
static uint64_t hvipi_gva_span(uint64_t start, uint64_t end)
{
	uint64_t d = end - 1 - start;

	return d / 4096u + (start % 4096u + d % 4096u) / 4096u;
}

uint32_t hvipi_gva_list(uint64_t *list, uint32_t capacity, uint64_t start,
			uint64_t end)
{
	uint64_t first, last, span, n, page;
	uint32_t i;

	if (end <= start)
		return 0;
	/* Page numbers (/ 4096 is the >> 12 the compiler emits). */
	first = start / 4096u;
	span = hvipi_gva_span(start, end);
	last = first + span;
	/*@ assert last_page: last == (end - 1) / 4096; */
	n = span / HVIPI_GVA_PAGES_MAX + 1;
	if (n > capacity)
		return 0;
	page = first;
	/*
	 * One entry per 4096 pages; the loop ends after entry n - 1, the
	 * first whose 4096 pages reach past last (the test on page, not on
	 * i, lets EVA see that page <= last in the body).
	 */
	/*@ loop invariant count: 0 <= i <= n;
	  @ loop invariant at_page: page == first + 4096 * i;
	  @ loop invariant written: \forall integer j; 0 <= j < i ==>
	  @   list[j] == gva_entry(first, last, j);
	  @ loop assigns i, page, list[0 .. n - 1];
	  @ loop variant n - i;
	  @*/
	for (i = 0; page <= last; i++) {
		uint64_t more = last - page;

		/*
		 * page * 4096 has bits 11:0 clear, so + places the count of
		 * additional pages as | would.
		 */
		list[i] = page * 4096u + (more < 4095u ? more : 4095u);
		page += HVIPI_GVA_PAGES_MAX;
	}
	return (uint32_t)n;
}

/*
 * The target set as the single pass reads it: dense bank words, one per
 * bank of 64 VPs (bit i of word[k]: VP 64k + i is a target), and flags.
 * It lives on the caller's stack (512 bytes of words): the mask is read
 * once into it, and everything after the pass reads only it.
 */
struct hvipi_set {
	uint64_t word[64];	/* dense bank words, VPs 0..4095 */
	uint64_t banks;		/* bit k: a target VP lies in bank k */
	bool any;		/* the target set is not empty */
	bool unknown;		/* a target VP is HVIPI_VP_INVAL */
	bool high;		/* a target VP is in 64..4095 */
	bool huge;		/* a target VP is in 4096..HVIPI_VP_INVAL-1 */
	bool same;		/* present given, and equal to mask on 0..nr-1 */
};

/* One mask word and the present word of the same index. */
struct hvipi_words {
	unsigned long m;
	unsigned long p;	/* 0 when there is no present mask */
};

/* The first non-empty mask word from some index on, or the last word. */
struct hvipi_found {
	size_t w;
	unsigned long m;
};

/*
 * What hvipi_compare() read: mask words 0 .. kept - 1, kept in the set's
 * words, of which 0 .. same - 1 equal their present words.
 */
struct hvipi_prefix {
	uint32_t same;
	uint32_t kept;
	bool all;	/* every word agreed, the last holds a target: "all" */
};

/*@ ghost uint32_t hvipi_words_next; */
/*@ ghost uint32_t hvipi_present_next; */
/*@ ghost uint32_t hvipi_vp_next; */

#ifdef HVIPI_RACE_HOOK
/*
 * Test builds only (tests/race): called after each read of mask word @w
 * and present word @w (@p is 0 when @present is NULL), before the core
 * uses them; it may change the caller's masks, as another CPU may.
 * hvipi_race_hook_mask() is the same after a read of mask word @w alone
 * (hvipi_collect()'s pass over empty words: present word @w is not read).
 */
void hvipi_race_hook(const unsigned long __hvipi_shared *mask,
		     const unsigned long __hvipi_shared *present, uint32_t w,
		     unsigned long m, unsigned long p);
void hvipi_race_hook_mask(const unsigned long __hvipi_shared *mask, uint32_t w,
			  unsigned long m);
#define HVIPI_AFTER_READ(mask, present, w, r) \
	hvipi_race_hook(mask, present, w, (r).m, (r).p)
#define HVIPI_AFTER_READ_MASK(mask, w, m) hvipi_race_hook_mask(mask, w, m)
#else
#define HVIPI_AFTER_READ(mask, present, w, r) do { } while (0)
#define HVIPI_AFTER_READ_MASK(mask, w, m) do { } while (0)
#endif

/*
 * Word @w of @mask and of @present, read together while the two masks
 * agree (hvipi_collect()).  The loads move their cursors past @w, so every
 * later read in the same send is of a higher index (read_once, see
 * hvipi_load_mask()).  The kernel may change the masks meanwhile: what the
 * core decides and writes comes from the values returned here, never from
 * a second look.
 */
/*@ requires \valid_read(mask + w);
  @ requires index: w < 67108864;
  @ requires present == \null || \valid_read(present + w);
  @ requires read_once: hvipi_words_next <= w;
  @ requires present_once: hvipi_present_next <= hvipi_words_next;
  @ assigns hvipi_words_next, hvipi_present_next;
  @ ensures read_once: hvipi_words_next == w + 1;
  @ ensures present_once: hvipi_present_next <= hvipi_words_next;
  @ ensures mask_word: \result.m == mask[w];
  @ ensures present_word: \result.p == (present == \null ? 0 : present[w]);
  @*/
static struct hvipi_words
hvipi_read_words(const unsigned long __hvipi_shared *mask,
		 const unsigned long __hvipi_shared *present, uint32_t w)
{
	struct hvipi_words r;

	r.m = hvipi_load_mask(mask, w);
	r.p = present ? hvipi_load_present(present, w) : 0;
	HVIPI_AFTER_READ(mask, present, w, r);
	return r;
}

/*
 * Mask words @w .. @last, read alone in order until the first non-empty one
 * (or @last, which is returned whatever it holds).  Four words per bound
 * test: a sparse mask of thousands of CPUs is mostly empty words.
 */
/*@ requires \valid_read(mask + (w .. last));
  @ requires index: w <= last < 67108864;
  @ requires read_once: hvipi_words_next <= w;
  @ assigns hvipi_words_next;
  @ ensures found: w <= \result.w <= last;
  @ ensures skipped: \forall integer j; w <= j < \result.w ==> mask[j] == 0;
  @ ensures word: \result.m == mask[\result.w];
  @ ensures first: \result.m != 0 || \result.w == last;
  @ ensures read_once: hvipi_words_next == \result.w + 1;
  @*/
static struct hvipi_found
hvipi_skip_empty(const unsigned long __hvipi_shared *mask, size_t w,
		 size_t last)
{
	struct hvipi_found f;

	/*@ loop invariant \at(w, Pre) <= w <= last;
	  @ loop invariant skipped: \forall integer j;
	  @   \at(w, Pre) <= j < w ==> mask[j] == 0;
	  @ loop invariant read_once: hvipi_words_next <= w;
	  @ loop assigns w, f.m, hvipi_words_next;
	  @ loop variant last - w;
	  @*/
	while (w + 3u < last) {
		f.m = hvipi_load_mask(mask, w);
		HVIPI_AFTER_READ_MASK(mask, (uint32_t)w, f.m);
		if (f.m != 0)
			goto out;
		f.m = hvipi_load_mask(mask, w + 1u);
		HVIPI_AFTER_READ_MASK(mask, (uint32_t)(w + 1u), f.m);
		if (f.m != 0) {
			w += 1u;
			goto out;
		}
		f.m = hvipi_load_mask(mask, w + 2u);
		HVIPI_AFTER_READ_MASK(mask, (uint32_t)(w + 2u), f.m);
		if (f.m != 0) {
			w += 2u;
			goto out;
		}
		f.m = hvipi_load_mask(mask, w + 3u);
		HVIPI_AFTER_READ_MASK(mask, (uint32_t)(w + 3u), f.m);
		if (f.m != 0) {
			w += 3u;
			goto out;
		}
		w += 4u;
	}
	/*@ loop invariant \at(w, Pre) <= w <= last;
	  @ loop invariant skipped: \forall integer j;
	  @   \at(w, Pre) <= j < w ==> mask[j] == 0;
	  @ loop invariant read_once: hvipi_words_next <= w;
	  @ loop assigns w, f.m, hvipi_words_next;
	  @ loop variant last - w;
	  @*/
	for (;;) {
		f.m = hvipi_load_mask(mask, w);
		HVIPI_AFTER_READ_MASK(mask, (uint32_t)w, f.m);
		if (f.m != 0 || w == last)
			break;
		w++;
	}
out:
	f.w = w;
	return f;
}

/*
 * A set bit of a non-zero @w: the witness that a word of the word path
 * holds a target CPU.  A ghost binary search (never compiled), so the
 * word path pays nothing for it: the number x = w >> n keeps a set bit in
 * its low 2h bits while h halves from 32 to 1, and then x is odd
 * (lemmas SetBitWitness).  One function per step keeps the paths apart.
 */
/*@ ghost
  @ /@ requires at: at_shift(w, n, x) && n + 64 <= 64;
  @    requires low: x % 18446744073709551616 != 0;
  @    assigns \nothing;
  @    ensures step: \result == n || \result == n + 32;
  @    ensures low: (w >> \result) % 4294967296 != 0;
  @ @/
  @ static uint32_t hvipi_set_bit32(uint64_t w, uint32_t n, uint64_t x)
  @ {
  @   if (x % 4294967296ull != 0)
  @     return n;
  @   /@ assert next: (w >> (n + 32)) == (x >> 32) && (x >> 32) == x / 4294967296; @/
  @   return n + 32u;
  @ }
  @
  @ /@ requires at: at_shift(w, n, x) && n + 32 <= 64;
  @    requires low: x % 4294967296 != 0;
  @    assigns \nothing;
  @    ensures step: \result == n || \result == n + 16;
  @    ensures low: (w >> \result) % 65536 != 0;
  @ @/
  @ static uint32_t hvipi_set_bit16(uint64_t w, uint32_t n, uint64_t x)
  @ {
  @   if (x % 65536ull != 0)
  @     return n;
  @   /@ assert next: (w >> (n + 16)) == (x >> 16) && (x >> 16) == x / 65536; @/
  @   return n + 16u;
  @ }
  @
  @ /@ requires at: at_shift(w, n, x) && n + 16 <= 64;
  @    requires low: x % 65536 != 0;
  @    assigns \nothing;
  @    ensures step: \result == n || \result == n + 8;
  @    ensures low: (w >> \result) % 256 != 0;
  @ @/
  @ static uint32_t hvipi_set_bit8(uint64_t w, uint32_t n, uint64_t x)
  @ {
  @   if (x % 256ull != 0)
  @     return n;
  @   /@ assert next: (w >> (n + 8)) == (x >> 8) && (x >> 8) == x / 256; @/
  @   return n + 8u;
  @ }
  @
  @ /@ requires at: at_shift(w, n, x) && n + 8 <= 64;
  @    requires low: x % 256 != 0;
  @    assigns \nothing;
  @    ensures step: \result == n || \result == n + 4;
  @    ensures low: (w >> \result) % 16 != 0;
  @ @/
  @ static uint32_t hvipi_set_bit4(uint64_t w, uint32_t n, uint64_t x)
  @ {
  @   if (x % 16ull != 0)
  @     return n;
  @   /@ assert next: (w >> (n + 4)) == (x >> 4) && (x >> 4) == x / 16; @/
  @   return n + 4u;
  @ }
  @
  @ /@ requires at: at_shift(w, n, x) && n + 4 <= 64;
  @    requires low: x % 16 != 0;
  @    assigns \nothing;
  @    ensures step: \result == n || \result == n + 2;
  @    ensures low: (w >> \result) % 4 != 0;
  @ @/
  @ static uint32_t hvipi_set_bit2(uint64_t w, uint32_t n, uint64_t x)
  @ {
  @   if (x % 4ull != 0)
  @     return n;
  @   /@ assert next: (w >> (n + 2)) == (x >> 2) && (x >> 2) == x / 4; @/
  @   return n + 2u;
  @ }
  @
  @ /@ requires at: at_shift(w, n, x) && n + 2 <= 64;
  @    requires low: x % 4 != 0;
  @    assigns \nothing;
  @    ensures step: \result == n || \result == n + 1;
  @    ensures low: (w >> \result) % 2 != 0;
  @ @/
  @ static uint32_t hvipi_set_bit1(uint64_t w, uint32_t n, uint64_t x)
  @ {
  @   if (x % 2ull != 0)
  @     return n;
  @   /@ assert next: (w >> (n + 1)) == (x >> 1) && (x >> 1) == x / 2; @/
  @   return n + 1u;
  @ }
  @
  @ /@ requires nonzero: w != 0;
  @    assigns \nothing;
  @    ensures witness: 0 <= \result < 64 && bit64(w, \result);
  @ @/
  @ static uint32_t hvipi_set_bit(uint64_t w)
  @ {
  @   uint32_t n = 0;
  @   n = hvipi_set_bit32(w, n, w);
  @   n = hvipi_set_bit16(w, n, w >> n);
  @   n = hvipi_set_bit8(w, n, w >> n);
  @   n = hvipi_set_bit4(w, n, w >> n);
  @   n = hvipi_set_bit2(w, n, w >> n);
  @   n = hvipi_set_bit1(w, n, w >> n);
  @   /@ assert odd: at_shift(w, n, w >> n) && (w >> n) % 2 != 0; @/
  @   return n;
  @ }
  @*/

/*@ ghost
  @ /@ requires differ: x != y;
  @    assigns \nothing;
  @    ensures witness: 0 <= \result < 64 &&
  @      !(bit64(x, \result) <==> bit64(y, \result));
  @ @/
  @ static uint32_t hvipi_diff_bit(uint64_t x, uint64_t y)
  @ {
  @   /@ assert xor: !xor_of(x, y, 0); @/
  @   return hvipi_set_bit(x ^ y);
  @ }
  @*/

/*@ // A mask word at a given label, with an index from another state.
  @ logic integer ulong_at{L}(unsigned long *p, integer i) = p[i];
  @*/

/*
 * Add the VP @vp of one target CPU to @s: its bit in the dense word of its
 * bank when below 4096, else the flag that says why it cannot be sent.
 */
/*@ requires \valid(s);
  @ assigns s->word[0 .. 63], s->banks, s->unknown, s->high, s->huge;
  @ ensures words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
  @   (bit64(s->word[k], i) <==> (bit64(\old(s->word[k]), i) ||
  @    vp == 64 * k + i));
  @ ensures banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> (bit64(\old(s->banks), k) ||
  @    (vp < 4096 && vp / 64 == k)));
  @ ensures unknown: s->unknown <==> (\old(s->unknown) || vp == HVIPI_VP_INVAL);
  @ ensures high: s->high <==> (\old(s->high) || 64 <= vp < 4096);
  @ ensures huge: s->huge <==> (\old(s->huge) || 4096 <= vp < HVIPI_VP_INVAL);
  @*/
static void hvipi_add_vp(struct hvipi_set *s, uint32_t vp)
{
	if (vp < HVIPI_VP_LIMIT) {
		uint32_t k = vp / 64u;
		uint64_t old = s->word[k];

		/*@ assert split: vp == 64 * k + vp % 64 && 0 <= k < 64; */
		/*@ assert only: \forall integer kk, i; 0 <= kk < 64 && 0 <= i < 64 ==>
		  @   (vp == 64 * kk + i <==> (kk == k && i == vp % 64)); */
		s->word[k] = old | (1ull << (vp % 64u));
		/*@ assert set_bit: \forall integer i; 0 <= i < 64 ==>
		  @   (bit64(s->word[k], i) <==> (bit64(old, i) || i == vp % 64)); */
		s->banks |= 1ull << k;
		if (vp >= HVIPI_FAST_VP_LIMIT)
			s->high = true;
	} else if (vp == HVIPI_VP_INVAL) {
		s->unknown = true;
	} else {
		s->huge = true;
	}
}

/*
 * OR the mask word @word of 64 CPUs that are their own VPs into the dense
 * word of their bank @k (the word path).
 */
/*@ requires \valid(s);
  @ requires k < 64;
  @ assigns s->word[k], s->banks, s->high;
  @ ensures words: \forall integer kk, i; 0 <= kk < 64 && 0 <= i < 64 ==>
  @   (bit64(s->word[kk], i) <==> (bit64(\old(s->word[kk]), i) ||
  @    (kk == k && bit64(word, i))));
  @ ensures banks: \forall integer kk; 0 <= kk < 64 ==>
  @   (bit64(s->banks, kk) <==> (bit64(\old(s->banks), kk) || kk == k));
  @ ensures high: s->high <==> (\old(s->high) || k != 0);
  @*/
static void hvipi_add_word(struct hvipi_set *s, uint32_t k, unsigned long word)
{
	uint64_t old = s->word[k];

	s->word[k] = old | word;
	/*@ assert or_word: \forall integer i; 0 <= i < 64 ==>
	  @   (bit64(s->word[k], i) <==> (bit64(old, i) || bit64(word, i))); */
	s->banks |= 1ull << k;
	if (k != 0)
		s->high = true;
}

/*
 * hvipi_collect_word()'s compound tests, each a function whose contract
 * is the test: the caller branches once per test, not once per operand,
 * which keeps WP's goals few (CONTRIBUTING.md, "Proof cost").
 */

/*
 * The word path applies to the word of CPUs @base .. @base + 63: they all
 * lie below @vp_ident (so are their own VPs) and below 4096, and none is
 * an excluded self.
 */
/*@ assigns \nothing;
  @ ensures rule: \result <==> (vp_ident >= base + 64 && base < 4096 &&
  @   !(exclude_self && self / 64 == base / 64));
  @*/
static bool hvipi_word_path(uint32_t base, uint32_t vp_ident, uint32_t self,
			    bool exclude_self)
{
	return vp_ident >= 64u && base <= vp_ident - 64u &&
	       base < HVIPI_VP_LIMIT && !(exclude_self && self / 64u == base / 64u);
}

/*
 * The target CPUs of the word of CPUs @base .. @base + 63: @word less the
 * bit of @self when it is excluded, so that the pass CPU by CPU tests one
 * bit per CPU.
 */
/*@ assigns \nothing;
  @ ensures own: \forall integer i; 0 <= i < 64 ==>
  @   (bit64(\result, i) <==> (bit64(word, i) &&
  @    (exclude_self == 0 || base + i != self)));
  @*/
static unsigned long hvipi_own_word(unsigned long word, uint32_t base,
				    uint32_t self, bool exclude_self)
{
	if (exclude_self && self >= base && self - base < 64u &&
	    ((word >> (self - base)) & 1u) != 0) {
		/*@ assert flip: flipped(word, self - base,
		  @   word ^ (1ul << (self - base))); */
		return word ^ (1ul << (self - base));
	}
	return word;
}

/* CPU @cpu's bit of @own, the word of CPUs @base .. @base + 63. */
/*@ requires base <= cpu < base + 64;
  @ assigns \nothing;
  @ ensures bit: \result <==> bit64(own, cpu - base);
  @*/
static bool hvipi_cpu_bit(unsigned long own, uint32_t base, uint32_t cpu)
{
	return ((own >> (cpu - base)) & 1u) != 0;
}

/*
 * Fold the targets of one mask word, @word (already read), into @s: the
 * CPUs @base .. @end - 1 (@base a multiple of 64) whose bit is set, less
 * @self when @exclude_self.  A word whose 64 CPUs all lie below @vp_ident
 * and 4096 and hold no excluded self is the bank word of its 64 VPs as it
 * stands, so it is ORed in whole without reading the table (the word
 * path); every other word is read CPU by CPU.
 */
/*@ requires \valid(s);
  @ requires \valid_read(vp_index + (0 .. end - 1));
  @ requires \separated(s, vp_index + (0 .. end - 1));
  @ requires base % 64 == 0 && base < end <= base + 64;
  @ requires nonzero: word != 0;
  @ requires ident: vp_ident >= base + 64 ==> end == base + 64 &&
  @   \forall integer c; base <= c < end ==> vp_index[c] == c;
  @ requires read_once: hvipi_vp_next <= base;
  @ assigns s->word[0 .. 63], s->banks, s->any, s->unknown, s->high, s->huge,
  @   hvipi_vp_next;
  @ ensures read_once: hvipi_vp_next <= end;
  @ ensures words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
  @   (bit64(s->word[k], i) <==> (bit64(\old(s->word[k]), i) ||
  @    word_vp(word, base, end, vp_index, self, exclude_self, 64 * k + i)));
  @ ensures banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> (bit64(\old(s->banks), k) ||
  @    word_bank(word, base, end, vp_index, self, exclude_self, k)));
  @ ensures any: s->any <==> (\old(s->any) ||
  @   \exists integer c; word_target(word, base, end, self, exclude_self, c));
  @ ensures unknown: s->unknown <==> (\old(s->unknown) ||
  @   \exists integer c; word_target(word, base, end, self, exclude_self, c) &&
  @     vp_index[c] == HVIPI_VP_INVAL);
  @ ensures high: s->high <==> (\old(s->high) ||
  @   \exists integer c; word_target(word, base, end, self, exclude_self, c) &&
  @     64 <= vp_index[c] < 4096);
  @ ensures huge: s->huge <==> (\old(s->huge) ||
  @   \exists integer c; word_target(word, base, end, self, exclude_self, c) &&
  @     4096 <= vp_index[c] < HVIPI_VP_INVAL);
  @*/
static void hvipi_collect_word(struct hvipi_set *s, unsigned long word,
			       uint32_t base, uint32_t end,
			       const uint32_t __hvipi_shared *vp_index,
			       uint32_t vp_ident, uint32_t self,
			       bool exclude_self)
{
	uint32_t cpu, vp;
	unsigned long own;

	if (hvipi_word_path(base, vp_ident, self, exclude_self)) {
		/*@ ghost uint32_t first = hvipi_set_bit(word); */
		/* Bank base / 64 holds exactly this word's CPUs. */
		uint32_t k = base / 64u;

		/*@ assert whole: end == base + 64 && 0 <= k < 64 && base == 64 * k; */
		/*@ assert word_targets: \forall integer c; base <= c < base + 64 ==>
		  @   (word_target(word, base, end, self, exclude_self, c) <==>
		  @    bit64(word, c - base)) && vp_index[c] == c; */
		/*@ assert witness: word_target(word, base, end, self, exclude_self,
		  @   base + first) && vp_index[base + first] == base + first; */
		/*@ assert word_in: \forall integer i; 0 <= i < 64 && bit64(word, i) ==>
		  @   word_target(word, base, end, self, exclude_self, base + i) &&
		  @   vp_index[base + i] == 64 * k + i; */
		/*@ assert word_out: \forall integer c;
		  @   word_target(word, base, end, self, exclude_self, c) ==>
		  @   vp_index[c] == 64 * k + (c - base) && 0 <= c - base < 64 &&
		  @   bit64(word, c - base); */
		/*@ assert word_vps: \forall integer kk, i; 0 <= kk < 64 && 0 <= i < 64 ==>
		  @   (word_vp(word, base, end, vp_index, self, exclude_self,
		  @      64 * kk + i) <==> (kk == k && bit64(word, i))); */
		/*@ assert word_bank: \forall integer kk; 0 <= kk < 64 ==>
		  @   (word_bank(word, base, end, vp_index, self, exclude_self, kk)
		  @    <==> kk == k); */
		/*@ assert word_high: (\exists integer c; word_target(word, base, end,
		  @   self, exclude_self, c) && 64 <= vp_index[c] < 4096) <==> k != 0; */
		/*@ assert word_known: \forall integer c;
		  @   word_target(word, base, end, self, exclude_self, c) ==>
		  @   vp_index[c] < 4096; */
		hvipi_add_word(s, k, word);
		s->any = true;
		return;
	}
	own = hvipi_own_word(word, base, self, exclude_self);
	/*@ assert own_targets: \forall integer c; base <= c < end ==>
	  @   (word_target(word, base, end, self, exclude_self, c) <==>
	  @    bit64(own, c - base)); */
	/*@ loop invariant base <= cpu <= end;
	  @ loop invariant words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
	  @   (bit64(s->word[k], i) <==> (bit64(\at(s->word[k], Pre), i) ||
	  @    word_vp(word, base, cpu, vp_index, self, exclude_self, 64 * k + i)));
	  @ loop invariant banks: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(s->banks, k) <==> (bit64(\at(s->banks, Pre), k) ||
	  @    word_bank(word, base, cpu, vp_index, self, exclude_self, k)));
	  @ loop invariant any: s->any <==> (\at(s->any, Pre) ||
	  @   \exists integer c; c < cpu &&
	  @     word_target(word, base, end, self, exclude_self, c));
	  @ loop invariant unknown: s->unknown <==> (\at(s->unknown, Pre) ||
	  @   \exists integer c; c < cpu &&
	  @     word_target(word, base, end, self, exclude_self, c) &&
	  @     vp_index[c] == HVIPI_VP_INVAL);
	  @ loop invariant high: s->high <==> (\at(s->high, Pre) ||
	  @   \exists integer c; c < cpu &&
	  @     word_target(word, base, end, self, exclude_self, c) &&
	  @     64 <= vp_index[c] < 4096);
	  @ loop invariant huge: s->huge <==> (\at(s->huge, Pre) ||
	  @   \exists integer c; c < cpu &&
	  @     word_target(word, base, end, self, exclude_self, c) &&
	  @     4096 <= vp_index[c] < HVIPI_VP_INVAL);
	  @ loop invariant read_once: hvipi_vp_next <= cpu;
	  @ loop assigns cpu, vp, s->word[0 .. 63], s->banks, s->any, s->unknown,
	  @   s->high, s->huge, hvipi_vp_next;
	  @ loop variant end - cpu;
	  @*/
	for (cpu = base; cpu < end; cpu++) {
		if (!hvipi_cpu_bit(own, base, cpu)) {
			/*@ assert not_target:
			  @   !word_target(word, base, end, self, exclude_self, cpu); */
			/*@ assert skip_step: \forall integer v;
			  @   word_vp(word, base, cpu + 1, vp_index, self, exclude_self, v)
			  @   <==> word_vp(word, base, cpu, vp_index, self, exclude_self, v); */
			/*@ assert skip_bank: \forall integer k;
			  @   word_bank(word, base, cpu + 1, vp_index, self, exclude_self, k)
			  @   <==> word_bank(word, base, cpu, vp_index, self, exclude_self, k); */
			continue;
		}
		/*@ assert is_target:
		  @   word_target(word, base, end, self, exclude_self, cpu); */
		/*@ assert vp_step: \forall integer v;
		  @   word_vp(word, base, cpu + 1, vp_index, self, exclude_self, v)
		  @   <==> (word_vp(word, base, cpu, vp_index, self, exclude_self, v) ||
		  @         vp_index[cpu] == v); */
		/*@ assert vp_bank: \forall integer k;
		  @   word_bank(word, base, cpu + 1, vp_index, self, exclude_self, k)
		  @   <==> (word_bank(word, base, cpu, vp_index, self, exclude_self, k) ||
		  @         (vp_index[cpu] < 4096 && vp_index[cpu] / 64 == k)); */
		s->any = true;
		vp = hvipi_load_vp(vp_index, cpu);
		hvipi_add_vp(s, vp);
	}
	/*@ assert done: cpu == end; */
}

/* The end of the mask word of CPUs @cpu ..: @cpu + 64, or @nr at the last. */
/*@ requires cpu < nr;
  @ assigns \nothing;
  @ ensures end: \result == (nr - cpu <= 64 ? nr : cpu + 64);
  @*/
static uint32_t hvipi_word_end(uint32_t cpu, uint32_t nr)
{
	/* 64 bits: no wrap, whatever cpu a caller's analysis allows */
	uint64_t end = (uint64_t)cpu + 64u;

	return end < nr ? (uint32_t)end : nr;
}

/*
 * @same, and bits 0 .. @n - 1 of @a and @p are the same: the running
 * same-set flag of hvipi_collect() after one more word (a function, so
 * that its caller does not branch on it).
 */
/*@ requires n <= 64;
  @ assigns \nothing;
  @ ensures same: \result <==> (same &&
  @   \forall integer i; 0 <= i < n ==> (bit64(a, i) <==> bit64(p, i)));
  @*/
static bool hvipi_same_word(bool same, unsigned long a, unsigned long p,
			    uint32_t n)
{
	uint32_t i;

	if (!same)
		return false;
	if (a == p)
		return true;
	/*@ loop invariant 0 <= i <= n;
	  @ loop invariant same: \forall integer j; 0 <= j < i ==>
	  @   (bit64(a, j) <==> bit64(p, j));
	  @ loop assigns i;
	  @ loop variant n - i;
	  @*/
	for (i = 0; i < n; i++)
		if (((a >> i) & 1u) != ((p >> i) & 1u))
			return false;
	return true;
}

/* The set's 64 words cleared: the set before any word is read. */
/*@ requires \valid(s);
  @ assigns s->word[0 .. 63];
  @ ensures zero: \forall integer k; 0 <= k < 64 ==> s->word[k] == 0;
  @*/
static void hvipi_clear_words(struct hvipi_set *s)
{
	uint32_t k;

	/*@ loop invariant 0 <= k <= 64;
	  @ loop invariant zero: \forall integer j; 0 <= j < k ==> s->word[j] == 0;
	  @ loop assigns k, s->word[0 .. 63];
	  @ loop variant 64 - k;
	  @*/
	for (k = 0; k < 64u; k++)
		s->word[k] = 0;
}

/*
 * One pair of hvipi_compare(): mask word @w, kept in @s, and whether
 * present word @w is the same.
 */
/*@ requires \valid(s);
  @ requires w < 64;
  @ requires \valid_read(mask + w) && \valid_read(present + w);
  @ requires \separated(s, mask + w) && \separated(s, present + w);
  @ requires read_once: hvipi_words_next <= w && hvipi_present_next <= w;
  @ assigns s->word[w], hvipi_words_next, hvipi_present_next;
  @ ensures kept: s->word[w] == mask[w];
  @ ensures same: \result <==> present[w] == mask[w];
  @ ensures differ_cpu: !\result ==> \exists integer c;
  @   64 * w <= c < 64 * w + 64 &&
  @   !(cpu_in(mask, c) <==> cpu_in(present, c));
  @ ensures read_once: hvipi_words_next == w + 1 &&
  @   hvipi_present_next == w + 1;
  @*/
static bool hvipi_compare_word(struct hvipi_set *s,
			       const unsigned long __hvipi_shared *mask,
			       const unsigned long __hvipi_shared *present,
			       uint32_t w)
{
	struct hvipi_words r;

	r.m = hvipi_load_mask(mask, w);
	r.p = hvipi_load_present(present, w);
	HVIPI_AFTER_READ(mask, present, w, r);
	s->word[w] = r.m;
	/*@ ghost
	  @ if (r.m != r.p) {
	  @   uint32_t d = hvipi_diff_bit(r.m, r.p);
	  @   /@ assert differ_at: 0 <= d < 64 &&
	  @      !(bit64(r.m, d) <==> bit64(r.p, d)) &&
	  @      (64 * w + d) / 64 == w && (64 * w + d) % 64 == d &&
	  @      !(cpu_in(mask, 64 * w + d) <==> cpu_in(present, 64 * w + d)); @/
	  @ }
	  @*/
	return r.m == r.p;
}

/*
 * Mask and present words read in pairs from word 0 while they agree, each
 * mask word kept in @s->word, the first pair that differs included: the
 * test for "every present CPU" that costs what a compare of the two masks
 * costs.  Only words of 64 CPUs that are their own VPs below 4096 are
 * read, so that a kept word is its bank's word as it stands.
 */
/*@ requires \valid(s);
  @ requires present != \null;
  @ requires \valid_read(mask + (0 .. vp_ident / 64 - 1));
  @ requires \valid_read(present + (0 .. vp_ident / 64 - 1));
  @ requires \separated(s, mask + (0 .. vp_ident / 64 - 1));
  @ requires \separated(s, present + (0 .. vp_ident / 64 - 1));
  @ requires read_once: hvipi_words_next == 0 && hvipi_present_next == 0;
  @ assigns s->word[0 .. 63], hvipi_words_next, hvipi_present_next;
  @ ensures bound: \result.same <= \result.kept <= 64 &&
  @   64 * \result.kept <= vp_ident;
  @ ensures kept: \forall integer j; 0 <= j < \result.kept ==>
  @   s->word[j] == mask[j];
  @ ensures same: \forall integer j; 0 <= j < \result.same ==>
  @   present[j] == mask[j];
  @ ensures differ: \result.same < \result.kept ==>
  @   \result.kept == \result.same + 1 &&
  @   present[\result.same] != mask[\result.same] &&
  @   \exists integer c; 64 * \result.same <= c < 64 * \result.same + 64 &&
  @     !(cpu_in(mask, c) <==> cpu_in(present, c));
  @ ensures rest: \forall integer j; \result.kept <= j < 64 ==>
  @   s->word[j] == \old(s->word[j]);
  @ ensures to_top: \result.same == \result.kept ==>
  @   \result.same == (vp_ident < 4096 ? vp_ident : 4096) / 64;
  @ ensures read_once: hvipi_words_next == \result.kept &&
  @   hvipi_present_next <= hvipi_words_next;
  @*/
static struct hvipi_prefix
hvipi_compare(struct hvipi_set *s, const unsigned long __hvipi_shared *mask,
	      const unsigned long __hvipi_shared *present, uint32_t vp_ident)
{
	struct hvipi_prefix pre;
	uint32_t w = 0, top;

	top = (vp_ident < HVIPI_VP_LIMIT ? vp_ident : HVIPI_VP_LIMIT) / 64u;
	/* Two words a bound test: a big machine's mask is 64 words. */
	/*@ loop invariant 0 <= w <= top;
	  @ loop invariant kept: \forall integer j; 0 <= j < w ==>
	  @   s->word[j] == mask[j] && present[j] == mask[j];
	  @ loop invariant rest: \forall integer j; w <= j < 64 ==>
	  @   s->word[j] == \at(s->word[j], Pre);
	  @ loop invariant read_once: hvipi_words_next == w &&
	  @   hvipi_present_next == w;
	  @ loop assigns w, s->word[0 .. 63], hvipi_words_next,
	  @   hvipi_present_next;
	  @ loop variant top - w;
	  @*/
	while (w + 1u < top) {
		if (!hvipi_compare_word(s, mask, present, w))
			goto differ;
		w++;
		if (!hvipi_compare_word(s, mask, present, w))
			goto differ;
		w++;
	}
	if (w < top) {
		if (!hvipi_compare_word(s, mask, present, w))
			goto differ;
		w++;
	}
	pre.same = w;
	pre.kept = w;
	pre.all = false;
	return pre;
differ:
	pre.same = w;
	pre.kept = w + 1u;
	pre.all = false;
	return pre;
}

/*
 * The set's banks and flags for its words 0 .. @kept - 1 as they stand
 * (mask words hvipi_compare() kept); the words above them are clear.
 */
/*@ requires \valid(s);
  @ requires kept <= 64;
  @ assigns s->banks, s->any, s->unknown, s->high, s->huge;
  @ ensures banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> (k < kept && \exists integer c;
  @    64 * k <= c < 64 * k + 64 && bit64(s->word[c / 64], c % 64)));
  @ ensures any: s->any <==> \exists integer c; 0 <= c < 64 * kept &&
  @   bit64(s->word[c / 64], c % 64);
  @ ensures high: s->high <==> \exists integer c; 64 <= c < 64 * kept &&
  @   bit64(s->word[c / 64], c % 64);
  @ ensures unknown: !s->unknown;
  @ ensures huge: !s->huge;
  @*/
static void hvipi_start_set(struct hvipi_set *s, uint32_t kept)
{
	uint32_t k;

	s->banks = 0;
	s->any = false;
	s->unknown = false;
	s->high = false;
	s->huge = false;
	/*@ loop invariant 0 <= k <= kept;
	  @ loop invariant banks: \forall integer j; 0 <= j < 64 ==>
	  @   (bit64(s->banks, j) <==> (j < k && \exists integer c;
	  @    64 * j <= c < 64 * j + 64 && bit64(s->word[c / 64], c % 64)));
	  @ loop invariant any: s->any <==> \exists integer c; 0 <= c < 64 * k &&
	  @   bit64(s->word[c / 64], c % 64);
	  @ loop invariant high: s->high <==> \exists integer c; 64 <= c < 64 * k &&
	  @   bit64(s->word[c / 64], c % 64);
	  @ loop assigns k, s->banks, s->any, s->high;
	  @ loop variant kept - k;
	  @*/
	for (k = 0; k < kept; k++) {
		if (s->word[k] == 0) {
			/*@ assert empty: \forall integer c; 64 * k <= c < 64 * k + 64 ==>
			  @   c / 64 == k && !bit64(s->word[c / 64], c % 64); */
			continue;
		}
		{
			/*@ ghost uint32_t i = hvipi_set_bit(s->word[k]); */
			/*@ assert witness: 0 <= i < 64 && bit64(s->word[k], i) &&
			  @   (64 * k + i) / 64 == k && (64 * k + i) % 64 == i; */
		}
		s->banks |= 1ull << k;
		s->any = true;
		s->high |= k != 0;
	}
}

/*
 * The single pass from CPU @cpu on: each word of @mask from @cpu / 64 on
 * is read once, in order, and folded into @s, which holds the targets of
 * CPUs 0 .. @cpu - 1.  While @present (when given) has agreed with @mask
 * so far, the two words of an index are read together
 * (hvipi_read_words()); from the first difference on, or with no
 * @present, mask words alone, the empty ones passed over in a tight loop.
 */
/*@ requires \valid(s);
  @ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires present == \null ||
  @   \valid_read(present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires \separated(s, mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @   vp_index + (0 .. nr_cpu_ids - 1));
  @ requires present == \null ||
  @   \separated(s, present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires ident: vp_ident <= nr_cpu_ids && vp_identity(vp_index, vp_ident);
  @ requires at: cpu <= nr_cpu_ids && (cpu % 64 == 0 || cpu == nr_cpu_ids);
  @ requires read_once: hvipi_words_next == mask_words(cpu) &&
  @   hvipi_present_next <= hvipi_words_next && hvipi_vp_next <= cpu;
  @ requires words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
  @   (bit64(s->word[k], i) <==> vp_seen(HVIPI_SEND, cpu, 64 * k + i));
  @ requires banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> bank_seen(HVIPI_SEND, cpu, k));
  @ requires any: s->any <==> \exists integer c; 0 <= c < cpu &&
  @   target(HVIPI_SEND, c);
  @ requires unknown: s->unknown <==> \exists integer c; 0 <= c < cpu &&
  @   target(HVIPI_SEND, c) && vp_index[c] == HVIPI_VP_INVAL;
  @ requires high: s->high <==> \exists integer c; 0 <= c < cpu &&
  @   target(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096;
  @ requires huge: s->huge <==> \exists integer c; 0 <= c < cpu &&
  @   target(HVIPI_SEND, c) && 4096 <= vp_index[c] < HVIPI_VP_INVAL;
  @ requires same: s->same <==> (present != \null &&
  @   \forall integer c; 0 <= c < cpu ==> (cpu_in(mask, c) <==> cpu_in(present, c)));
  @ assigns *s, hvipi_words_next, hvipi_present_next, hvipi_vp_next;
  @ ensures read_once: hvipi_words_next == mask_words(nr_cpu_ids);
  @ ensures words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
  @   (bit64(s->word[k], i) <==> vp_target{Pre}(HVIPI_SEND, 64 * k + i));
  @ ensures banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> bank_used{Pre}(HVIPI_SEND, k));
  @ ensures any: s->any <==> !no_target{Pre}(HVIPI_SEND);
  @ ensures unknown: s->unknown <==> some_vp_unknown{Pre}(HVIPI_SEND);
  @ ensures huge: s->huge <==> some_vp_too_big{Pre}(HVIPI_SEND);
  @ ensures high: s->high <==> \exists integer c;
  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096;
  @ ensures same: s->same <==>
  @   (present != \null && same_cpus{Pre}(mask, present, nr_cpu_ids));
  @ ensures dense_banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> \exists integer i; 0 <= i < 64 &&
  @     bit64(s->word[k], i));
  @*/
static void hvipi_collect(struct hvipi_set *s,
			  const unsigned long __hvipi_shared *mask,
			  const unsigned long __hvipi_shared *present,
			  uint32_t nr_cpu_ids,
			  const uint32_t __hvipi_shared *vp_index,
			  uint32_t vp_ident, uint32_t self, bool exclude_self,
			  uint32_t cpu)
{
	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant at_word: cpu % 64 == 0 || cpu == nr_cpu_ids;
	  @ loop invariant read_once: hvipi_words_next == mask_words(cpu);
	  @ loop invariant present_once: hvipi_present_next <= hvipi_words_next;
	  @ loop invariant vp_once: hvipi_vp_next <= cpu;
	  @ loop invariant words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
	  @   (bit64(s->word[k], i) <==> vp_seen{Pre}(HVIPI_SEND, cpu, 64 * k + i));
	  @ loop invariant banks: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(s->banks, k) <==> bank_seen{Pre}(HVIPI_SEND, cpu, k));
	  @ loop invariant any: s->any <==> \exists integer c; 0 <= c < cpu &&
	  @   target{Pre}(HVIPI_SEND, c);
	  @ loop invariant unknown: s->unknown <==> \exists integer c; 0 <= c < cpu &&
	  @   target{Pre}(HVIPI_SEND, c) && vp_index[c] == HVIPI_VP_INVAL;
	  @ loop invariant high: s->high <==> \exists integer c; 0 <= c < cpu &&
	  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096;
	  @ loop invariant huge: s->huge <==> \exists integer c; 0 <= c < cpu &&
	  @   target{Pre}(HVIPI_SEND, c) && 4096 <= vp_index[c] < HVIPI_VP_INVAL;
	  @ loop invariant same: s->same <==> (present != \null &&
	  @   \forall integer c; 0 <= c < cpu ==> (cpu_in{Pre}(mask, c) <==> cpu_in{Pre}(present, c)));
	  @ loop assigns cpu, *s, hvipi_words_next, hvipi_present_next,
	  @   hvipi_vp_next;
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids) {
		/* One mask word, m: CPUs cpu .. end - 1. */
		uint32_t end;
		unsigned long m;

		if (!s->same) {
			/*
			 * The present mask decides nothing more: read mask
			 * words alone and pass over the empty ones to the
			 * first non-empty one or the last.
			 */
			struct hvipi_found f;
			/*@ ghost uint32_t from = cpu; */

			f = hvipi_skip_empty(mask, cpu / 64u,
					     (nr_cpu_ids - 1u) / 64u);
			m = f.m;
			cpu = 64u * (uint32_t)f.w;
			/*@ assert skip_start: from == 64 * (from / 64); */
			/*@ assert skip_word: m == ulong_at{Pre}(mask, cpu / 64); */
			/*@ assert skip_empty: \forall integer c; from <= c < cpu ==>
			  @   from / 64 <= c / 64 < cpu / 64 &&
			  @   ulong_at{Pre}(mask, c / 64) == 0; */
			/*@ assert skip_targets: \forall integer c; from <= c < cpu ==>
			  @   !target{Pre}(HVIPI_SEND, c); */
			/*@ assert skip_words: \forall integer v;
			  @   vp_seen{Pre}(HVIPI_SEND, cpu, v) <==>
			  @   vp_seen{Pre}(HVIPI_SEND, from, v); */
			/*@ assert skip_banks: \forall integer k;
			  @   bank_seen{Pre}(HVIPI_SEND, cpu, k) <==>
			  @   bank_seen{Pre}(HVIPI_SEND, from, k); */
			/*@ assert skip_any: (\exists integer c; 0 <= c < cpu &&
			  @   target{Pre}(HVIPI_SEND, c)) <==>
			  @   (\exists integer c; 0 <= c < from && target{Pre}(HVIPI_SEND, c)); */
			/*@ assert skip_unknown: (\exists integer c; 0 <= c < cpu &&
			  @   target{Pre}(HVIPI_SEND, c) && vp_index[c] == HVIPI_VP_INVAL) <==>
			  @   (\exists integer c; 0 <= c < from && target{Pre}(HVIPI_SEND, c) &&
			  @     vp_index[c] == HVIPI_VP_INVAL); */
			/*@ assert skip_high: (\exists integer c; 0 <= c < cpu &&
			  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096) <==>
			  @   (\exists integer c; 0 <= c < from && target{Pre}(HVIPI_SEND, c) &&
			  @     64 <= vp_index[c] < 4096); */
			/*@ assert skip_huge: (\exists integer c; 0 <= c < cpu &&
			  @   target{Pre}(HVIPI_SEND, c) &&
			  @   4096 <= vp_index[c] < HVIPI_VP_INVAL) <==>
			  @   (\exists integer c; 0 <= c < from && target{Pre}(HVIPI_SEND, c) &&
			  @     4096 <= vp_index[c] < HVIPI_VP_INVAL); */
			/*@ assert skip_same: !(present != \null &&
			  @   \forall integer c; 0 <= c < cpu ==>
			  @     (cpu_in{Pre}(mask, c) <==> cpu_in{Pre}(present, c))); */
			end = hvipi_word_end(cpu, nr_cpu_ids);
		} else {
			struct hvipi_words r = hvipi_read_words(mask, present,
							       cpu / 64u);

			end = hvipi_word_end(cpu, nr_cpu_ids);
			/*@ assert same_pre: present != \null &&
			  @   r.m == ulong_at{Pre}(mask, cpu / 64) &&
			  @   r.p == ulong_at{Pre}(present, cpu / 64); */
			/*@ assert same_bits_c: \forall integer c; cpu <= c < end ==>
			  @   (cpu_in{Pre}(mask, c) <==> bit64(r.m, c - cpu)) &&
			  @   (cpu_in{Pre}(present, c) <==> bit64(r.p, c - cpu)); */
			/*@ assert same_bits: \forall integer i; 0 <= i < end - cpu ==>
			  @   (cpu_in{Pre}(mask, cpu + i) <==> bit64(r.m, i)) &&
			  @   (cpu_in{Pre}(present, cpu + i) <==> bit64(r.p, i)); */
			/*@ assert same_in:
			  @   (\forall integer i; 0 <= i < end - cpu ==>
			  @     (bit64(r.m, i) <==> bit64(r.p, i))) ==>
			  @   \forall integer c; cpu <= c < end ==>
			  @     (cpu_in{Pre}(mask, c) <==> cpu_in{Pre}(present, c)); */
			/*@ assert same_out:
			  @   (\forall integer c; cpu <= c < end ==>
			  @     (cpu_in{Pre}(mask, c) <==> cpu_in{Pre}(present, c))) ==>
			  @   \forall integer i; 0 <= i < end - cpu ==>
			  @     (bit64(r.m, i) <==> bit64(r.p, i)); */
			s->same = hvipi_same_word(true, r.m, r.p, end - cpu);
			m = r.m;
		}

		/*@ assert word_pre: m == ulong_at{Pre}(mask, cpu / 64); */
		/*@ assert word_cpus: \forall integer c; cpu <= c < end ==>
		  @   c / 64 == cpu / 64 && c % 64 == c - cpu; */
		/*@ assert word_bits: \forall integer c; cpu <= c < end ==>
		  @   (cpu_in{Pre}(mask, c) <==> bit64(m, c - cpu)); */
		/*@ assert word_targets: \forall integer c; cpu <= c < end ==>
		  @   (target{Pre}(HVIPI_SEND, c) <==>
		  @    word_target(m, cpu, end, self, exclude_self, c)); */
		/*@ assert next: mask_words(end) == cpu / 64 + 1; */
		/*@ assert any_step: (\exists integer c; 0 <= c < end &&
		  @   target{Pre}(HVIPI_SEND, c)) <==>
		  @   ((\exists integer c; 0 <= c < cpu && target{Pre}(HVIPI_SEND, c)) ||
		  @    \exists integer c;
		  @      word_target(m, cpu, end, self, exclude_self, c)); */
		/*@ assert unknown_step: (\exists integer c; 0 <= c < end &&
		  @   target{Pre}(HVIPI_SEND, c) && vp_index[c] == HVIPI_VP_INVAL) <==>
		  @   ((\exists integer c; 0 <= c < cpu && target{Pre}(HVIPI_SEND, c) &&
		  @     vp_index[c] == HVIPI_VP_INVAL) ||
		  @    \exists integer c;
		  @      word_target(m, cpu, end, self, exclude_self, c) &&
		  @      vp_index[c] == HVIPI_VP_INVAL); */
		/*@ assert high_step: (\exists integer c; 0 <= c < end &&
		  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096) <==>
		  @   ((\exists integer c; 0 <= c < cpu && target{Pre}(HVIPI_SEND, c) &&
		  @     64 <= vp_index[c] < 4096) ||
		  @    \exists integer c;
		  @      word_target(m, cpu, end, self, exclude_self, c) &&
		  @      64 <= vp_index[c] < 4096); */
		/*@ assert huge_step: (\exists integer c; 0 <= c < end &&
		  @   target{Pre}(HVIPI_SEND, c) && 4096 <= vp_index[c] < HVIPI_VP_INVAL) <==>
		  @   ((\exists integer c; 0 <= c < cpu && target{Pre}(HVIPI_SEND, c) &&
		  @     4096 <= vp_index[c] < HVIPI_VP_INVAL) ||
		  @    \exists integer c;
		  @      word_target(m, cpu, end, self, exclude_self, c) &&
		  @      4096 <= vp_index[c] < HVIPI_VP_INVAL); */
		/*@ assert banks_step: \forall integer k;
		  @   bank_seen{Pre}(HVIPI_SEND, end, k) <==>
		  @   (bank_seen{Pre}(HVIPI_SEND, cpu, k) ||
		  @    word_bank(m, cpu, end, vp_index, self, exclude_self, k)); */
		/*@ assert words_step: \forall integer v;
		  @   vp_seen{Pre}(HVIPI_SEND, end, v) <==>
		  @   (vp_seen{Pre}(HVIPI_SEND, cpu, v) ||
		  @    word_vp(m, cpu, end, vp_index, self, exclude_self, v)); */
		if (m != 0)
			hvipi_collect_word(s, m, cpu, end, vp_index, vp_ident,
					   self, exclude_self);
		else {
			/*@ assert empty_word: \forall integer c; cpu <= c < end ==>
			  @   !target{Pre}(HVIPI_SEND, c); */
		}
		cpu = end;
	}
	/*@ assert dense_vp: \forall integer v; 0 <= v < 4096 &&
	  @   vp_seen(HVIPI_SEND, cpu, v) ==> bank_seen(HVIPI_SEND, cpu, v / 64); */
	/*@ assert dense_if: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 &&
	  @   bit64(s->word[k], i) ==> 0 <= 64 * k + i < 4096 &&
	  @   (64 * k + i) / 64 == k && vp_seen(HVIPI_SEND, cpu, 64 * k + i); */
	/*@ assert dense_only: \forall integer k, c; 0 <= c < cpu &&
	  @   target(HVIPI_SEND, c) && vp_index[c] < 4096 && vp_index[c] / 64 == k ==>
	  @   0 <= vp_index[c] % 64 < 64 && 64 * k + vp_index[c] % 64 == vp_index[c] &&
	  @   bit64(s->word[k], vp_index[c] % 64); */
	/*@ assert dense_from: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 &&
	  @   bit64(s->word[k], i) ==> bit64(s->banks, k); */
	/*@ assert dense_to: \forall integer k; 0 <= k < 64 &&
	  @   bit64(s->banks, k) ==> bank_seen(HVIPI_SEND, cpu, k); */
	/*@ assert dense_some: \forall integer k; 0 <= k < 64 &&
	  @   bank_seen(HVIPI_SEND, cpu, k) ==>
	  @   \exists integer i; 0 <= i < 64 && bit64(s->word[k], i); */
}

/*
 * The set before the single pass, which starts at the CPU returned: mask
 * words 0 .. @kept - 1 were read already (hvipi_compare(), which found the
 * first @same equal to their present words) and are in @s as they stand,
 * their CPUs their own VPs and none excluded; every other word is clear.
 */
/*@ requires \valid(s);
  @ requires \valid_read(mask + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires present == \null ||
  @   \valid_read(present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires \valid_read(vp_index + (0 .. nr_cpu_ids - 1));
  @ requires \separated(s, mask + (0 .. mask_words(nr_cpu_ids) - 1),
  @   vp_index + (0 .. nr_cpu_ids - 1));
  @ requires present == \null ||
  @   \separated(s, present + (0 .. mask_words(nr_cpu_ids) - 1));
  @ requires ident: vp_ident <= nr_cpu_ids && vp_identity(vp_index, vp_ident);
  @ requires start: same <= kept <= 64 && 64 * kept <= vp_ident;
  @ requires start_all: kept != 0 ==> present != \null && exclude_self == 0;
  @ requires kept: \forall integer j; 0 <= j < kept ==> s->word[j] == mask[j];
  @ requires zero: \forall integer j; kept <= j < 64 ==> s->word[j] == 0;
  @ requires same: \forall integer j; 0 <= j < same ==> present[j] == mask[j];
  @ requires differ: same < kept ==> \exists integer c;
  @   64 * same <= c < 64 * same + 64 &&
  @   !(cpu_in(mask, c) <==> cpu_in(present, c));
  @ assigns *s;
  @ ensures cpu: \result == 64 * kept;
  @ ensures words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
  @   (bit64(s->word[k], i) <==> vp_seen{Pre}(HVIPI_SEND, \result, 64 * k + i));
  @ ensures banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> bank_seen{Pre}(HVIPI_SEND, \result, k));
  @ ensures any: s->any <==> \exists integer c; 0 <= c < \result &&
  @   target{Pre}(HVIPI_SEND, c);
  @ ensures unknown: s->unknown <==> \exists integer c; 0 <= c < \result &&
  @   target{Pre}(HVIPI_SEND, c) && vp_index[c] == HVIPI_VP_INVAL;
  @ ensures high: s->high <==> \exists integer c; 0 <= c < \result &&
  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096;
  @ ensures huge: s->huge <==> \exists integer c; 0 <= c < \result &&
  @   target{Pre}(HVIPI_SEND, c) && 4096 <= vp_index[c] < HVIPI_VP_INVAL;
  @ ensures same: s->same <==> (present != \null &&
  @   \forall integer c; 0 <= c < \result ==>
  @     (cpu_in{Pre}(mask, c) <==> cpu_in{Pre}(present, c)));
  @*/
static uint32_t hvipi_start(struct hvipi_set *s,
			    const unsigned long __hvipi_shared *mask,
			    const unsigned long __hvipi_shared *present,
			    uint32_t nr_cpu_ids,
			    const uint32_t __hvipi_shared *vp_index,
			    uint32_t vp_ident, uint32_t self, bool exclude_self,
			    uint32_t same, uint32_t kept)
{
	uint32_t cpu = 64u * kept;

	/* The send's description, for the contract: nothing to read here. */
	(void)mask;
	(void)nr_cpu_ids;
	(void)vp_index;
	(void)vp_ident;
	(void)self;
	(void)exclude_self;
	hvipi_start_set(s, kept);
	s->same = present != NULL && same == kept;
	/*@ assert not_same: same < kept ==> \exists integer c; 0 <= c < cpu &&
	  @   !(cpu_in{Pre}(mask, c) <==> cpu_in{Pre}(present, c)); */
	/*@ assert kept_cpus: \forall integer c; 0 <= c < cpu ==>
	  @   (target{Pre}(HVIPI_SEND, c) <==> bit64(s->word[c / 64], c % 64)) &&
	  @   vp_index[c] == c; */
	/*@ assert kept_vps: \forall integer v; vp_seen{Pre}(HVIPI_SEND, cpu, v) <==>
	  @   (0 <= v < cpu && bit64(s->word[v / 64], v % 64)); */
	/*@ assert kept_words: \forall integer k, i; 0 <= k < 64 && 0 <= i < 64 ==>
	  @   (bit64(s->word[k], i) <==> vp_seen{Pre}(HVIPI_SEND, cpu, 64 * k + i)); */
	/*@ assert kept_split: \forall integer k, i; 0 <= k < kept && 0 <= i < 64 ==>
	  @   (64 * k + i) / 64 == k && (64 * k + i) % 64 == i && 64 * k + i < cpu; */
	/*@ assert kept_banks: \forall integer k; 0 <= k < 64 ==>
	  @   (bank_seen{Pre}(HVIPI_SEND, cpu, k) <==> (k < kept && \exists integer c;
	  @    64 * k <= c < 64 * k + 64 && bit64(s->word[c / 64], c % 64))); */
	/*@ assert kept_high: (\exists integer c; 0 <= c < cpu &&
	  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096) <==>
	  @   (\exists integer c; 64 <= c < cpu && bit64(s->word[c / 64], c % 64)); */

	return cpu;
}

/*
 * The set bits of a bank mask are passed in order, a clear byte at a time
 * where one lies ahead and bit by bit otherwise, and the pass stops after
 * the last set bit: a few banks cost a few steps, not 64.  @rest is the
 * mask shifted right by @k, the next bit to look at.
 */

/* The low byte of @x is clear: the step over 8 bits at once. */
/*@ assigns \nothing;
  @ ensures rule: \result <==> low_byte_clear(x);
  @*/
static bool hvipi_byte_clear(uint64_t x)
{
	return (x & 0xffu) == 0;
}

/*
 * bits_below() does not change across the clear bits @k .. @end - 1 of
 * @w: the induction, as a ghost loop (never compiled).
 */
/*@ ghost
  @ /@ requires k <= end <= 64;
  @    requires clear: \forall integer j; k <= j < end ==> !bit64(w, j);
  @    assigns \nothing;
  @    ensures gap: \forall integer g; k <= g <= end ==>
  @      bits_below(w, g) == bits_below(w, k);
  @ @/
  @ static void hvipi_bits_gap(uint64_t w, uint32_t k, uint32_t end)
  @ {
  @   uint32_t g;
  @   /@ loop invariant k <= g <= end;
  @      loop invariant gap: \forall integer h; k <= h <= g ==>
  @        bits_below(w, h) == bits_below(w, k);
  @      loop assigns g;
  @      loop variant end - g;
  @   @/
  @   for (g = k; g < end; g++)
  @     ;
  @ }
  @*/

/*
 * The number of set bits of @banks: the number of banks of a sparse set.
 * Bank k's word is stored at the compacted index bits_below(banks, k),
 * which fits below that number and differs from bank to bank.
 */
/*@ assigns \nothing;
  @ ensures count: \result == popcount64(banks) && \result <= 64;
  @ ensures index_fits: \forall integer k; 0 <= k < 64 && bit64(banks, k) ==>
  @   0 <= bits_below(banks, k) < \result;
  @ ensures index_injective: \forall integer k1, k2;
  @   0 <= k1 < 64 && 0 <= k2 < 64 && bit64(banks, k1) && bit64(banks, k2) &&
  @   bits_below(banks, k1) == bits_below(banks, k2) ==> k1 == k2;
  @*/
static uint32_t hvipi_rank(uint64_t banks)
{
	uint64_t rest = banks;
	uint32_t k = 0, end, r = 0;

	/*@ loop invariant 0 <= k <= 64 && k % 8 == 0;
	  @ loop invariant rest: rest == banks >> k && shifted_bits(banks, k, rest);
	  @ loop invariant count: r == bits_below(banks, k) && r <= k;
	  @ loop invariant index_fits: \forall integer j;
	  @   0 <= j < k && bit64(banks, j) ==> 0 <= bits_below(banks, j) < r;
	  @ loop invariant increasing: \forall integer j1, j2;
	  @   0 <= j1 < j2 <= k && bit64(banks, j1) ==>
	  @   bits_below(banks, j1) < bits_below(banks, j2);
	  @ loop assigns k, end, r, rest;
	  @ loop variant 64 - k;
	  @*/
	while (k < 64u && rest != 0) {
		if (hvipi_byte_clear(rest)) {
			/*@ assert byte: \forall integer j; k <= j < k + 8 ==>
			  @   !bit64(rest, j - k) && !bit64(banks, j); */
			/*@ ghost hvipi_bits_gap(banks, k, k + 8u); */
			rest >>= 8;
			k += 8u;
			continue;
		}
		/*@ loop invariant \at(k, LoopCurrent) <= k <= end && end <= 64;
		  @ loop invariant rest: rest == banks >> k && shifted_bits(banks, k, rest);
		  @ loop invariant count: r == bits_below(banks, k) && r <= k;
		  @ loop invariant index_fits: \forall integer j;
		  @   0 <= j < k && bit64(banks, j) ==> 0 <= bits_below(banks, j) < r;
		  @ loop invariant increasing: \forall integer j1, j2;
		  @   0 <= j1 < j2 <= k && bit64(banks, j1) ==>
		  @   bits_below(banks, j1) < bits_below(banks, j2);
		  @ loop assigns k, r, rest;
		  @ loop variant end - k;
		  @*/
		for (end = k + 8u; k < end; k++) {
			/*@ assert bit: bit64(banks, k) <==> (rest & 1) == 1; */
			r += (uint32_t)(rest & 1u);
			rest >>= 1;
		}
	}
	/*@ assert rest_clear: \forall integer j; k <= j < 64 ==> !bit64(banks, j); */
	/*@ ghost hvipi_bits_gap(banks, k, 64); */
	return r;
}

/*
 * The Ex input of a sparse set, in the page's layout, to @out: the header
 * (vector, format, valid-bank mask) and bank k's dense word at its
 * compacted index bits_below(banks, k), for each bank of @s->banks, the
 * index counted as the banks are passed.  @out is the page or
 * plan.input, with room for 3 + @nbanks words, @nbanks the number of
 * banks.  Returns the bytes of input: 24 + 8 * @nbanks.
 */
/*@ requires nbanks <= 64;
  @ requires \valid_read(s);
  @ requires \valid(out + (0 .. 2 + nbanks));
  @ requires \separated(out + (0 .. 2 + nbanks), s);
  @ requires rank_fits: \forall integer k; 0 <= k < 64 && bit64(s->banks, k) ==>
  @   bits_below(s->banks, k) < nbanks;
  @ assigns out[0 .. 2 + nbanks];
  @ ensures bytes: \result == 24 + 8 * nbanks;
  @ ensures header: out[0] == vector && out[1] == HVIPI_FORMAT_SPARSE &&
  @   out[2] == s->banks;
  @ ensures words: \forall integer k; 0 <= k < 64 && bit64(s->banks, k) ==>
  @   out[3 + bits_below(s->banks, k)] == s->word[k];
  @*/
static uint32_t hvipi_put_banks(uint64_t *out, uint32_t nbanks,
				uint32_t vector, const struct hvipi_set *s)
{
	uint64_t banks = s->banks, rest = banks;
	uint32_t k = 0, end, r = 0;

	out[0] = vector;
	out[1] = HVIPI_FORMAT_SPARSE;
	out[2] = banks;
	/*@ loop invariant 0 <= k <= 64 && k % 8 == 0;
	  @ loop invariant rest: rest == banks >> k && shifted_bits(banks, k, rest);
	  @ loop invariant count: r == bits_below(banks, k) && r <= k;
	  @ loop invariant below: \forall integer j; 0 <= j < k && bit64(banks, j) ==>
	  @   bits_below(banks, j) < r;
	  @ loop invariant header: out[0] == vector &&
	  @   out[1] == HVIPI_FORMAT_SPARSE && out[2] == banks;
	  @ loop invariant words: \forall integer j; 0 <= j < k && bit64(banks, j) ==>
	  @   out[3 + bits_below(banks, j)] == s->word[j];
	  @ loop assigns k, end, r, rest, out[3 .. 2 + nbanks];
	  @ loop variant 64 - k;
	  @*/
	while (k < 64u && rest != 0) {
		if (hvipi_byte_clear(rest)) {
			/*@ assert byte: \forall integer j; k <= j < k + 8 ==>
			  @   !bit64(rest, j - k) && !bit64(banks, j); */
			/*@ ghost hvipi_bits_gap(banks, k, k + 8u); */
			rest >>= 8;
			k += 8u;
			continue;
		}
		/*@ loop invariant \at(k, LoopCurrent) <= k <= end && end <= 64;
		  @ loop invariant rest: rest == banks >> k && shifted_bits(banks, k, rest);
		  @ loop invariant count: r == bits_below(banks, k) && r <= k;
		  @ loop invariant below: \forall integer j;
		  @   0 <= j < k && bit64(banks, j) ==> bits_below(banks, j) < r;
		  @ loop invariant header: out[0] == vector &&
		  @   out[1] == HVIPI_FORMAT_SPARSE && out[2] == banks;
		  @ loop invariant words: \forall integer j;
		  @   0 <= j < k && bit64(banks, j) ==>
		  @   out[3 + bits_below(banks, j)] == s->word[j];
		  @ loop assigns k, r, rest, out[3 .. 2 + nbanks];
		  @ loop variant end - k;
		  @*/
		for (end = k + 8u; k < end; k++) {
			if (rest & 1u) {
				/*@ assert set: bit64(banks, k) &&
				  @   r == bits_below(banks, k); */
				out[HVIPI_EX_HDR_WORDS + r] = s->word[k];
				r++;
			} else {
				/*@ assert clear: !bit64(banks, k); */
			}
			rest >>= 1;
		}
	}
	/*@ assert rest_clear: \forall integer j; k <= j < 64 ==> !bit64(banks, j); */
	return HVIPI_EX_HDR_BYTES + 8u * nbanks;
}

/*
 * The plan writers.  Each one writes every field of the plan (and the
 * page, for Ex), and the callers call exactly one of them after deciding:
 * nothing is written before the decision, so the inputs a writer's
 * contract speaks of are the inputs of the entry point.
 */

/*@ requires \valid(plan);
  @ assigns *plan;
  @ ensures cleared: plan->kind == HVIPI_PLAN_NONE &&
  @   plan->reason == HVIPI_FB_NONE && plan->control == 0 && plan->rdx == 0 && plan->r8 == 0 &&
  @   plan->valid_bank_mask == 0 && plan->banks == 0 && plan->bytes == 0;
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @*/
static void hvipi_plan_clear(struct hvipi_plan *plan)
{
	plan->kind = HVIPI_PLAN_NONE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = 0;
	plan->rdx = 0;
	plan->r8 = 0;
	plan->valid_bank_mask = 0;
	plan->banks = 0;
	plan->bytes = 0;
}

/*@ requires \valid(plan);
  @ requires reason != HVIPI_FB_NONE;
  @ assigns *plan;
  @ ensures fallback_exact: plan->kind == HVIPI_PLAN_FALLBACK &&
  @   plan->reason == reason;
  @ ensures cleared: plan->control == 0 && plan->rdx == 0 && plan->r8 == 0 &&
  @   plan->valid_bank_mask == 0 && plan->banks == 0 && plan->bytes == 0;
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @*/
static void hvipi_fallback(struct hvipi_plan *plan, uint32_t reason)
{
	hvipi_plan_clear(plan);
	plan->kind = HVIPI_PLAN_FALLBACK;
	plan->reason = reason;
}

/* A fast Send-IPI: vector in rdx, the VP mask in r8. */
/*@ requires \valid(plan);
  @ requires vector_ok(vector);
  @ assigns *plan;
  @ ensures fast_exact: plan->kind == HVIPI_PLAN_FAST &&
  @   plan->reason == HVIPI_FB_NONE;
  @ ensures well_formed: ctl_is(plan->control, HVIPI_CALL_SEND_IPI, 1, 0);
  @ ensures regs: plan->rdx == vector && plan->r8 == vp_mask;
  @ ensures no_banks: plan->valid_bank_mask == 0 && plan->banks == 0 &&
  @   plan->bytes == 0;
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @*/
static void hvipi_encode_fast(struct hvipi_plan *plan, uint32_t vector,
			      uint64_t vp_mask)
{
	hvipi_plan_clear(plan);
	plan->kind = HVIPI_PLAN_FAST;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI, true, 0);
	plan->rdx = vector;
	plan->r8 = vp_mask;
}

/* An Ex send in the "all" format: a 24-byte header, no bank. */
/*@ requires \valid(plan) && \valid(page + (0 .. 2));
  @ requires \separated(plan, page + (0 .. 2));
  @ assigns *plan, page[0 .. 2];
  @ ensures all_exact: plan->kind == HVIPI_PLAN_EX_ALL &&
  @   plan->reason == HVIPI_FB_NONE;
  @ ensures well_formed: ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, 0);
  @ ensures header: ex_header(page, vector, HVIPI_FORMAT_ALL) && page[2] == 0;
  @ ensures no_banks: plan->rdx == 0 && plan->r8 == 0 && plan->valid_bank_mask == 0 &&
  @   plan->banks == 0 && plan->bytes == HVIPI_EX_HDR_BYTES;
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @*/
static void hvipi_encode_all(struct hvipi_plan *plan, uint64_t *page,
			     uint32_t vector)
{
	hvipi_plan_clear(plan);
	plan->kind = HVIPI_PLAN_EX_ALL;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 0);
	plan->bytes = HVIPI_EX_HDR_BYTES;
	page[0] = vector;
	page[1] = HVIPI_FORMAT_ALL;
	page[2] = 0;
}

/*
 * The selection rules' compound tests, each a function whose contract is
 * the rule (spec/hvipi_select.h): hvipi_plan_mask() branches once per
 * rule, not once per operand of && and ||, so WP splits each of its
 * postconditions into one goal per rule's outcome instead of one per
 * operand combination (CONTRIBUTING.md, "Proof cost").
 */

/* Rule 3's test: the vector is one a guest may send (0x10 .. 0xff). */
/*@ assigns \nothing;
  @ ensures rule: \result <==> vector_ok(vector);
  @*/
static bool hvipi_vector_ok(uint32_t vector)
{
	return vector >= HVIPI_VECTOR_MIN && vector <= HVIPI_VECTOR_MAX;
}

/* Rule 4's test: every target VP is known and below 64. */
/*@ requires \valid_read(s);
  @ assigns \nothing;
  @ ensures rule: \result <==> (!s->unknown && !s->high && !s->huge);
  @*/
static bool hvipi_fast_rule(const struct hvipi_set *s)
{
	return !s->unknown && !s->high && !s->huge;
}

/*
 * Rule 5's test: the EX hint, target set == present set with self kept,
 * and a page that holds the 24-byte "all" input.  Without such a page the
 * later rules decide (an XMM-fast sparse call can carry the same set).
 */
/*@ assigns \nothing;
  @ ensures rule: \result <==> (hint_ex(hints) && same && !exclude_self &&
  @   page_holds(page, page_size, HVIPI_EX_HDR_BYTES));
  @*/
static bool hvipi_all_rule(uint32_t hints, bool same, bool exclude_self,
			   const uint64_t *page, uint32_t page_size)
{
	return (hints & HVIPI_HINT_EX_MASKS) && same && !exclude_self &&
	       page && page_size >= HVIPI_EX_HDR_BYTES;
}

/*
 * The rules before level 5 cannot decide against the "all" format, which
 * then applies when the target set is the present set: the test that
 * lets hvipi_plan_mask() compare the two masks first.
 */
/*@ assigns \nothing;
  @ ensures rule: \result <==> (present != \null && hint_cluster(hints) &&
  @   vector_ok(vector) && hint_ex(hints) && !exclude_self &&
  @   page_holds(page, page_size, HVIPI_EX_HDR_BYTES));
  @*/
static bool hvipi_all_first(const unsigned long __hvipi_shared *present,
			    uint32_t vector, uint32_t hints, bool exclude_self,
			    const uint64_t *page, uint32_t page_size)
{
	return present && (hints & HVIPI_HINT_CLUSTER_IPI) &&
	       hvipi_vector_ok(vector) &&
	       hvipi_all_rule(hints, true, exclude_self, page, page_size);
}

/*
 * hvipi_compare() found every mask word equal to its present word, two or
 * more whole words, the last CPU the last of a word, and the last word
 * holds a target: a CPU above 63 that is its own VP.
 */
/*@ requires \valid_read(s);
  @ requires same <= 64;
  @ assigns \nothing;
  @ ensures rule: \result <==> (2 <= same && 64 * same == nr &&
  @   s->word[same - 1] != 0);
  @ ensures witness: \result ==> \exists integer i; 0 <= i < 64 &&
  @   bit64(s->word[same - 1], i);
  @*/
static bool hvipi_all_found(const struct hvipi_set *s, uint32_t same,
			    uint32_t nr)
{
	if (same < 2u || 64u * same != nr || s->word[same - 1u] == 0)
		return false;
	{
		/*@ ghost uint32_t i = hvipi_set_bit(s->word[same - 1u]); */
		/*@ assert witness: 0 <= i < 64 && bit64(s->word[same - 1], i); */
	}
	return true;
}

/*
 * The set's words cleared, then, when @first (the "all" form is the one
 * the rules would pick for target set == present set), the masks
 * compared from word 0 (hvipi_compare()): what was read, and whether it
 * already decides "all".
 */
/*@ requires \valid(s);
  @ requires first ==> present != \null;
  @ requires \valid_read(mask + (0 .. vp_ident / 64 - 1));
  @ requires present == \null ||
  @   \valid_read(present + (0 .. vp_ident / 64 - 1));
  @ requires \separated(s, mask + (0 .. vp_ident / 64 - 1));
  @ requires present == \null ||
  @   \separated(s, present + (0 .. vp_ident / 64 - 1));
  @ requires read_once: hvipi_words_next == 0 && hvipi_present_next == 0;
  @ assigns s->word[0 .. 63], hvipi_words_next, hvipi_present_next;
  @ ensures bound: \result.same <= \result.kept <= 64 &&
  @   64 * \result.kept <= vp_ident;
  @ ensures first: !first ==> \result.kept == 0 && !\result.all;
  @ ensures kept: \forall integer j; 0 <= j < \result.kept ==>
  @   s->word[j] == mask[j];
  @ ensures zero: \forall integer j; \result.kept <= j < 64 ==>
  @   s->word[j] == 0;
  @ ensures same: \forall integer j; 0 <= j < \result.same ==>
  @   present[j] == mask[j];
  @ ensures differ: \result.same < \result.kept ==>
  @   \exists integer c; 64 * \result.same <= c < 64 * \result.same + 64 &&
  @     !(cpu_in(mask, c) <==> cpu_in(present, c));
  @ ensures to_top: first && \result.same == \result.kept ==>
  @   \result.same == (vp_ident < 4096 ? vp_ident : 4096) / 64;
  @ ensures all: \result.all <==> (first && 2 <= \result.same &&
  @   64 * \result.same == nr && s->word[\result.same - 1] != 0);
  @ ensures witness: \result.all ==> \exists integer i; 0 <= i < 64 &&
  @   bit64(s->word[\result.same - 1], i);
  @ ensures read_once: hvipi_words_next == \result.kept &&
  @   hvipi_present_next <= hvipi_words_next;
  @*/
static inline struct hvipi_prefix
hvipi_first_words(struct hvipi_set *s, const unsigned long __hvipi_shared *mask,
		  const unsigned long __hvipi_shared *present,
		  uint32_t vp_ident, uint32_t nr, bool first)
{
	struct hvipi_prefix pre = { 0, 0, false };

	hvipi_clear_words(s);
	if (first) {
		pre = hvipi_compare(s, mask, present, vp_ident);
		pre.all = hvipi_all_found(s, pre.same, nr);
	}
	return pre;
}

/*
 * A sparse Ex send of the set @s (every target VP known and below 4096):
 * its compacted banks written to plan.input as an XMM-fast call when
 * @hints has XMM input and there are at most 11 of them; else to the page,
 * or a NO_PAGE fallback when the page cannot hold them.  Only @s is read:
 * the caller's masks were read once, by hvipi_collect().
 */
/*@ requires \valid(plan);
  @ requires \valid_read(s);
  @ requires page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires \separated(plan, s, page + (0 .. page_size / 8 - 1));
  @ requires \separated(s, page + (0 .. page_size / 8 - 1));
  @ requires vector_ok(vector);
  @ requires dense_banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> \exists integer i; 0 <= i < 64 &&
  @     bit64(s->word[k], i));
  @ assigns *plan, page[0 .. page_size / 8 - 1];
  @ ensures bank_set: plan->valid_bank_mask == \old(s->banks);
  @ ensures bank_count: plan->banks == popcount64(plan->valid_bank_mask);
  @ ensures xmm_exact: xmm_fits(hints, plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_EX_XMM && plan->reason == HVIPI_FB_NONE;
  @ ensures sparse_exact: !xmm_fits(hints, plan->banks) &&
  @   page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_EX_SPARSE && plan->reason == HVIPI_FB_NONE;
  @ ensures fallback_exact: !xmm_fits(hints, plan->banks) &&
  @   !page_holds(page, page_size, HVIPI_EX_HDR_BYTES + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_PLAN_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE &&
  @   plan->control == 0 && plan->bytes == 0;
  @ ensures well_formed: plan->kind == HVIPI_PLAN_EX_XMM ==>
  @   xmm_call(plan->control, plan->rdx, plan->r8, &plan->input[0], vector,
  @            plan->valid_bank_mask, plan->banks) && plan->bytes == 0;
  @ ensures well_formed: plan->kind == HVIPI_PLAN_EX_SPARSE ==>
  @   ctl_is(plan->control, HVIPI_CALL_SEND_IPI_EX, 0, plan->banks) &&
  @   ex_header(page, vector, HVIPI_FORMAT_SPARSE) &&
  @   page[2] == plan->valid_bank_mask &&
  @   plan->bytes == HVIPI_EX_HDR_BYTES + 8 * plan->banks;
  @ ensures bit_coverage: HVIPI_SPARSE_KIND(plan) ==>
  @   \let in = HVIPI_SPARSE_INPUT(plan, page);
  @   \forall integer k; bit64(in[2], k) ==>
  @     bits_below(in[2], k) < plan->banks &&
  @     in[3 + bits_below(in[2], k)] == \old(s->word[k]);
  @ ensures reads: HVIPI_SPARSE_KIND(plan) ==>
  @   \forall integer v; sparse_reads(HVIPI_SPARSE_INPUT(plan, page), v) <==>
  @     (0 <= v < 4096 && bit64(\old(s->word[v / 64]), v % 64));
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @ ensures pinned_regs: plan_regs_pinned(plan);
  @ ensures pinned_input: plan_input_pinned{Pre, Post}(plan);
  @*/
static void hvipi_encode_sparse(struct hvipi_plan *plan, uint64_t *page,
				uint32_t page_size, uint32_t vector,
				const struct hvipi_set *s, uint32_t hints)
{
	uint32_t bytes, nbanks = hvipi_rank(s->banks);

	if ((hints & HVIPI_HINT_XMM_INPUT) && nbanks <= HVIPI_XMM_BANKS_MAX) {
		/* XMM-fast: the same input, in the plan's 14 words. */
		uint32_t i;

		(void)hvipi_put_banks(plan->input, nbanks, vector, s);
		/*@ ghost XFilled: ; */
		/*@ loop invariant 3 + nbanks <= i <= 14;
		  @ loop invariant zeroed: \forall integer j; 3 + nbanks <= j < i ==>
		  @   plan->input[j] == 0;
		  @ loop invariant kept: \forall integer j; 0 <= j < 3 + nbanks ==>
		  @   plan->input[j] == \at(plan->input[j], XFilled);
		  @ loop assigns i, plan->input[3 + nbanks .. 13];
		  @ loop variant 14 - i;
		  @*/
		for (i = HVIPI_EX_HDR_WORDS + nbanks; i < HVIPI_XMM_INPUT_WORDS; i++)
			plan->input[i] = 0;
		/*@ ghost XZeroed: ; */
		plan->kind = HVIPI_PLAN_EX_XMM;
		plan->reason = HVIPI_FB_NONE;
		plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, true, nbanks);
		plan->rdx = vector;
		plan->r8 = HVIPI_FORMAT_SPARSE;
		plan->valid_bank_mask = s->banks;
		plan->banks = nbanks;
		plan->bytes = 0;
		/*@ assert xmm_kept: \forall integer j; 0 <= j < 14 ==>
		  @   plan->input[j] == \at(plan->input[j], XZeroed); */
		/*@ assert xmm_hdr: plan->input[0] == vector &&
		  @   plan->input[1] == HVIPI_FORMAT_SPARSE &&
		  @   plan->input[2] == s->banks; */
		/*@ assert xmm_words: \forall integer k; 0 <= k < 64 &&
		  @   bit64(s->banks, k) ==> bits_below(s->banks, k) < nbanks &&
		  @   plan->input[3 + bits_below(s->banks, k)] == s->word[k]; */
		return;
	}
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u * nbanks) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		plan->valid_bank_mask = s->banks;
		plan->banks = nbanks;
		return;
	}
	/*@ assert room: 3 + nbanks <= page_size / 8; */
	bytes = hvipi_put_banks(page, nbanks, vector, s);
	/*@ ghost Filled: ; */
	/*@ assert filled: \forall integer k; 0 <= k < 64 &&
	  @   bit64(\at(s->banks, Pre), k) ==>
	  @   bits_below(\at(s->banks, Pre), k) < nbanks &&
	  @   page[3 + bits_below(\at(s->banks, Pre), k)] == \at(s->word[k], Pre); */
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, nbanks);
	plan->rdx = 0;
	plan->r8 = 0;
	plan->valid_bank_mask = s->banks;
	plan->banks = nbanks;
	plan->bytes = bytes;
	/*@ assert page_kept: \forall integer j; 0 <= j < page_size / 8 ==>
	  @   page[j] == \at(page[j], Filled); */
	/*@ assert tail_kept: \forall integer j; 3 + nbanks <= j < page_size / 8 ==>
	  @   page[j] == \at(page[j], Pre); */
	/*@ assert hdr: page[0] == vector && page[1] == HVIPI_FORMAT_SPARSE &&
	  @   page[2] == \at(s->banks, Pre); */
	/*@ assert words: \forall integer k; 0 <= k < 64 &&
	  @   bit64(\at(s->banks, Pre), k) ==>
	  @   bits_below(\at(s->banks, Pre), k) < nbanks &&
	  @   page[3 + bits_below(\at(s->banks, Pre), k)] == \at(s->word[k], Pre); */
}

/*
 * The XMM input words of a send to the single VP @vp: vector, sparse
 * format, the valid-bank mask @bank (bit vp / 64 alone), the one bank
 * word, zero words after it.  @in is plan.input.
 */
/*@ requires \valid(in + (0 .. 13));
  @ requires vp_fits: vp < 4096;
  @ requires bank_bits: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(bank, k) <==> k == vp / 64);
  @ requires bank_rank: \forall integer j; 0 <= j <= 64 ==>
  @   bits_below(bank, j) == (j > vp / 64 ? 1 : 0);
  @ assigns in[0 .. 13];
  @ ensures words: ex_header(in, vector, HVIPI_FORMAT_SPARSE) &&
  @   in[2] == bank && \forall integer i; 4 <= i < 14 ==> in[i] == 0;
  @ ensures one_vp: \forall integer v; sparse_reads(in, v) <==> v == vp;
  @*/
static void hvipi_xmm_one_words(uint64_t *in, uint32_t vector, uint64_t bank,
				uint32_t vp)
{
	uint32_t i;

	in[0] = vector;
	in[1] = HVIPI_FORMAT_SPARSE;
	in[2] = bank;
	in[3] = 1ull << (vp % 64u);
	/*@ loop invariant 4 <= i <= 14;
	  @ loop invariant zeroed: \forall integer j; 4 <= j < i ==> in[j] == 0;
	  @ loop invariant kept: in[0] == vector &&
	  @   in[1] == HVIPI_FORMAT_SPARSE &&
	  @   in[2] == bank && in[3] == 1ull << (vp % 64);
	  @ loop assigns i, in[4 .. 13];
	  @ loop variant 14 - i;
	  @*/
	for (i = HVIPI_EX_HDR_WORDS + 1u; i < HVIPI_XMM_INPUT_WORDS; i++)
		in[i] = 0;
	/*@ assert one_word: \forall integer i; 0 <= i < 64 ==>
	  @   (bit64(in[3], i) <==> i == vp % 64); */
	/*@ assert one_bits: \forall integer v; 0 <= v < 4096 ==>
	  @   ((bit64(in[2], v / 64) &&
	  @     bit64(in[3 + bits_below(in[2], v / 64)], v % 64)) <==> v == vp); */
}

/*
 * An XMM-fast Ex send to the single VP @vp: the registers, then the input
 * words (hvipi_xmm_one_words).  Writes no page.
 */
/*@ requires \valid(plan);
  @ requires vp_fits: vp < 4096;
  @ requires bank_bits: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(bank, k) <==> k == vp / 64);
  @ requires bank_rank: \forall integer j; 0 <= j <= 64 ==>
  @   bits_below(bank, j) == (j > vp / 64 ? 1 : 0);
  @ assigns *plan;
  @ ensures xmm_exact: plan->kind == HVIPI_PLAN_EX_XMM &&
  @   plan->reason == HVIPI_FB_NONE;
  @ ensures well_formed: xmm_call(plan->control, plan->rdx, plan->r8,
  @   &plan->input[0], vector, bank, 1) && plan->bytes == 0;
  @ ensures bank_set: plan->valid_bank_mask == bank && plan->banks == 1;
  @ ensures one_vp: \forall integer v;
  @   sparse_reads(&plan->input[0], v) <==> v == vp;
  @*/
static void hvipi_encode_xmm_one(struct hvipi_plan *plan, uint32_t vector,
				 uint64_t bank, uint32_t vp)
{
	plan->kind = HVIPI_PLAN_EX_XMM;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, true, 1);
	plan->rdx = vector;
	plan->r8 = HVIPI_FORMAT_SPARSE;
	plan->valid_bank_mask = bank;
	plan->banks = 1;
	plan->bytes = 0;
	hvipi_xmm_one_words(plan->input, vector, bank, vp);
}

void hvipi_plan_mask(struct hvipi_plan *plan,
		     const unsigned long __hvipi_shared *mask,
		     const unsigned long __hvipi_shared *present,
		     uint32_t nr_cpu_ids,
		     const uint32_t __hvipi_shared *vp_index, uint32_t vp_ident,
		     uint32_t self, bool exclude_self, uint32_t vector,
		     uint32_t hints, uint64_t *page, uint32_t page_size)
{
	struct hvipi_set s HVIPI_WRITTEN_FIRST;
	struct hvipi_prefix pre;
	uint32_t cpu;

	/*
	 * fresh_send holds: the resets only restate it, so that EVA's
	 * octagons keep no relation between the cursors and the caller's
	 * variables (without them EVA loses the word path, measured).
	 */
	/*@ ghost hvipi_words_next = 0; */
	/*@ ghost hvipi_present_next = 0; */
	/*@ ghost hvipi_vp_next = 0; */
	pre = hvipi_first_words(&s, mask, present, vp_ident, nr_cpu_ids,
				hvipi_all_first(present, vector, hints,
						exclude_self, page, page_size));
	if (pre.all) {
		/*@ assert all_same: same_cpus{Pre}(mask, present, nr_cpu_ids); */
		/*@ assert all_cpus: \forall integer i; 0 <= i < 64 &&
		  @   bit64(s.word[pre.same - 1], i) ==>
		  @   target{Pre}(HVIPI_SEND, 64 * (pre.same - 1) + i) &&
		  @   64 <= vp_index[64 * (pre.same - 1) + i] < 4096; */
		/*@ assert all_high: \exists integer c;
		  @   target{Pre}(HVIPI_SEND, c) && 64 <= vp_index[c] < 4096; */
		hvipi_encode_all(plan, page, vector);
		return;
	}
	cpu = hvipi_start(&s, mask, present, nr_cpu_ids, vp_index, vp_ident,
			  self, exclude_self, pre.same, pre.kept);
	hvipi_collect(&s, mask, present, nr_cpu_ids, vp_index, vp_ident, self,
		      exclude_self, cpu);
	/*@ assert dense_v: \forall integer v; 0 <= v < 4096 ==>
	  @   (bit64(s.word[v / 64], v % 64) <==> vp_target{Pre}(HVIPI_SEND, v)); */
	/*@ assert dense_banks: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(s.banks, k) <==> \exists integer i; 0 <= i < 64 &&
	  @     bit64(s.word[k], i)); */
	if (!s.any) {
		hvipi_plan_clear(plan);
		return;
	}
	if (!(hints & HVIPI_HINT_CLUSTER_IPI)) {
		hvipi_fallback(plan, HVIPI_FB_NOT_RECOMMENDED);
		return;
	}
	if (!hvipi_vector_ok(vector)) {
		hvipi_fallback(plan, HVIPI_FB_BAD_VECTOR);
		return;
	}
	if (hvipi_fast_rule(&s)) {
		/*@ assert fast_word: \forall integer v; 0 <= v < 64 ==>
		  @   (bit64(s.word[0], v) <==> vp_target{Pre}(HVIPI_SEND, v)); */
		hvipi_encode_fast(plan, vector, s.word[0]);
		return;
	}
	if (hvipi_all_rule(hints, s.same, exclude_self, page, page_size)) {
		hvipi_encode_all(plan, page, vector);
		return;
	}
	if (s.unknown) {
		hvipi_fallback(plan, HVIPI_FB_VP_UNKNOWN);
		return;
	}
	if (!(hints & HVIPI_HINT_EX_MASKS)) {
		hvipi_fallback(plan, HVIPI_FB_EX_NOT_RECOMMENDED);
		return;
	}
	if (s.huge) {
		hvipi_fallback(plan, HVIPI_FB_VP_TOO_BIG);
		return;
	}
	/* As in hvipi_plan_flush(): no_vp_lost is then the writer's reading. */
	/*@ assert sparse_vps: \forall integer c; target{Pre}(HVIPI_SEND, c) ==>
	  @   0 <= vp_index[c] < 4096 &&
	  @   bit64(s.word[vp_index[c] / 64], vp_index[c] % 64); */
	hvipi_encode_sparse(plan, page, page_size, vector, &s, hints);
}

void hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu, uint32_t nr_cpu_ids,
		    const uint32_t __hvipi_shared *vp_index, uint32_t vector,
		    uint32_t hints, uint64_t *page, uint32_t page_size)
{
	uint32_t vp;
	uint64_t bank;

	if (cpu >= nr_cpu_ids) {
		hvipi_plan_clear(plan);
		return;
	}
	if (!(hints & HVIPI_HINT_CLUSTER_IPI)) {
		hvipi_fallback(plan, HVIPI_FB_NOT_RECOMMENDED);
		return;
	}
	/*
	 * Tested inline, not with hvipi_vector_ok(): with the call, Qed names
	 * the vector by the page word it is written to and both provers time
	 * out on two page_bounds/pinned_input goals of the EX_SPARSE path.
	 */
	if (vector < HVIPI_VECTOR_MIN || vector > HVIPI_VECTOR_MAX) {
		hvipi_fallback(plan, HVIPI_FB_BAD_VECTOR);
		return;
	}
	vp = hvipi_load_vp(vp_index, cpu);
	if (vp == HVIPI_VP_INVAL) {
		hvipi_fallback(plan, HVIPI_FB_VP_UNKNOWN);
		return;
	}
	if (vp < HVIPI_FAST_VP_LIMIT) {
		hvipi_encode_fast(plan, vector, 1ull << vp);
		return;
	}
	if (!(hints & HVIPI_HINT_EX_MASKS)) {
		hvipi_fallback(plan, HVIPI_FB_EX_NOT_RECOMMENDED);
		return;
	}
	if (vp >= HVIPI_VP_LIMIT) {
		hvipi_fallback(plan, HVIPI_FB_VP_TOO_BIG);
		return;
	}
	bank = 1ull << (vp / 64u);
	/*
	 * Ghost induction: a one-bit word has no set bit below its bit and
	 * exactly one at or above it, so the bank's compacted index is 0 and
	 * the popcount is 1.
	 */
	/*@ ghost
	  @ int k;
	  @ /@ loop invariant 0 <= k <= 64;
	  @    loop invariant \forall integer j; 0 <= j <= k ==>
	  @      bits_below(bank, j) == (j > vp / 64 ? 1 : 0);
	  @    loop assigns k;
	  @    loop variant 64 - k;
	  @ @/
	  @ for (k = 0; k < 64; k++)
	  @   ;
	  @*/
	/*@ assert bank_bits: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(bank, k) <==> k == vp / 64); */
	if (hints & HVIPI_HINT_XMM_INPUT) {
		hvipi_encode_xmm_one(plan, vector, bank, vp);
		return;
	}
	if (!page || page_size < HVIPI_EX_HDR_BYTES + 8u) {
		hvipi_fallback(plan, HVIPI_FB_NO_PAGE);
		plan->valid_bank_mask = bank;
		plan->banks = 1;
		return;
	}
	page[0] = vector;
	page[1] = HVIPI_FORMAT_SPARSE;
	page[2] = bank;
	page[3] = 1ull << (vp % 64u);
	/*@ ghost Written: ; */
	plan->kind = HVIPI_PLAN_EX_SPARSE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false, 1);
	plan->rdx = 0;
	plan->r8 = 0;
	plan->valid_bank_mask = bank;
	plan->banks = 1;
	plan->bytes = HVIPI_EX_HDR_BYTES + 8u;
	/*@ assert page_kept: \forall integer i; 0 <= i < page_size / 8 ==>
	  @   page[i] == \at(page[i], Written); */
	/*@ assert page_hdr: page[0] == vector &&
	  @   page[1] == HVIPI_FORMAT_SPARSE && page[2] == bank; */
	/*@ assert one_bank: bit64(page[2], vp / 64) &&
	  @   bits_below(page[2], vp / 64) == 0; */
	/*@ assert one_vp: bit64(page[3], vp % 64); */
}

uint32_t hvipi_vp_ident(const uint32_t __hvipi_shared *vp_index,
			uint32_t nr_cpu_ids)
{
	uint32_t cpu = 0;

	/*@ loop invariant 0 <= cpu <= nr_cpu_ids;
	  @ loop invariant ident: vp_identity(vp_index, cpu);
	  @ loop invariant read_once: hvipi_vp_next <= cpu;
	  @ loop assigns cpu, hvipi_vp_next;
	  @ loop variant nr_cpu_ids - cpu;
	  @*/
	while (cpu < nr_cpu_ids && hvipi_load_vp(vp_index, cpu) == cpu)
		cpu++;
	return cpu;
}

/*
 * The remote TLB flush (spec/FLUSH_RULES.md).  The same single pass
 * (hvipi_collect, self kept) gives the target set; the writers below fill
 * the plan and the page after the decision, as for IPIs.  The Ex input is
 * the IPI Ex input one word further on (word 0 the address space, then
 * the flags where an IPI has its vector word), so hvipi_put_banks() writes
 * its VP set and sparse_reads(page + 1, v) reads it.
 */

/*@ requires \valid(plan);
  @ assigns *plan;
  @ ensures cleared: plan->kind == HVIPI_FLUSH_NONE &&
  @   plan->reason == HVIPI_FB_NONE && plan->control == 0 &&
  @   plan->flags == 0 && plan->valid_bank_mask == 0 && plan->banks == 0 &&
  @   plan->gvas == 0 && plan->bytes == 0;
  @*/
static void hvipi_flush_clear(struct hvipi_flush_plan *plan)
{
	plan->kind = HVIPI_FLUSH_NONE;
	plan->reason = HVIPI_FB_NONE;
	plan->control = 0;
	plan->flags = 0;
	plan->valid_bank_mask = 0;
	plan->banks = 0;
	plan->gvas = 0;
	plan->bytes = 0;
}

/*@ requires \valid(plan);
  @ requires reason != HVIPI_FB_NONE;
  @ assigns *plan;
  @ ensures fallback_exact: plan->kind == HVIPI_FLUSH_FALLBACK &&
  @   plan->reason == reason;
  @ ensures cleared: plan->control == 0 && plan->flags == 0 &&
  @   plan->valid_bank_mask == 0 && plan->banks == 0 && plan->gvas == 0 &&
  @   plan->bytes == 0;
  @*/
static void hvipi_flush_fallback(struct hvipi_flush_plan *plan, uint32_t reason)
{
	hvipi_flush_clear(plan);
	plan->kind = HVIPI_FLUSH_FALLBACK;
	plan->reason = reason;
}

/* Rule 1's range test: an empty range, unless the whole space is asked. */
/*@ assigns \nothing;
  @ ensures rule: \result <==> flush_empty(start, end, opts);
  @*/
static bool hvipi_flush_empty(uint64_t start, uint64_t end, uint32_t opts)
{
	return !(opts & HVIPI_FLUSH_OPT_WHOLE) && end <= start;
}

/*
 * Rules 1 and 2 cannot decide against ALL_PROCESSORS, which then applies
 * when the target set is the present set: the test that lets
 * hvipi_plan_flush() compare the two masks first.
 */
/*@ assigns \nothing;
  @ ensures rule: \result <==> (present != \null && hint_flush(hints) &&
  @   !flush_empty(start, end, opts));
  @*/
static bool hvipi_flush_all_first(const unsigned long __hvipi_shared *present,
				  uint32_t hints, uint64_t start, uint64_t end,
				  uint32_t opts)
{
	return present && (hints & HVIPI_HINT_REMOTE_FLUSH) &&
	       !hvipi_flush_empty(start, end, opts);
}

/*
 * The HV_FLUSH_* flags of a call (spec/hvipi_flush.h, flush_flags), and
 * without all_cpus their bit 0 clear as the receiver reads it
 * (flush_reads): stated once here, hvipi_encode_flush_ex()'s reads goal
 * needs no arithmetic on the flags (2 s instead of 7 s).  The other
 * direction is not stated: as a hypothesis of hvipi_encode_flush()'s goals
 * it took Z3 from 0.1 to 7 s on two of its page writes' RTE goals.
 */
/*@ assigns \nothing;
  @ ensures flags_exact: \result == flush_flags(all_cpus, opts);
  @ ensures flags_exact: all_cpus == 0 ==> !flush_all_processors(\result);
  @*/
static uint64_t hvipi_flush_flags(uint32_t opts, bool all_cpus)
{
	uint64_t flags = 0;

	if (all_cpus)
		flags += HVIPI_HV_FLUSH_ALL_PROCESSORS;
	if (opts & HVIPI_FLUSH_OPT_ALL_SPACES)
		flags += HVIPI_HV_FLUSH_ALL_SPACES;
	if ((opts & HVIPI_FLUSH_OPT_WHOLE) && !(opts & HVIPI_FLUSH_OPT_GLOBAL))
		flags += HVIPI_HV_FLUSH_NON_GLOBAL_ONLY;
	return flags;
}

/*
 * The GVA list after a header of @hdr words: none for a whole-space flush,
 * else hvipi_gva_list() with the room the page leaves (at most the 12-bit
 * rep count).  Returns the entries written, 0 for a whole-space flush.
 */
/*@ requires \valid(page + (0 .. page_size / 8 - 1));
  @ requires hdr_fits: hdr <= page_size / 8;
  @ assigns page[hdr .. page_size / 8 - 1];
  @ ensures gva_count: \result == flush_gvas(start, end, opts,
  @   flush_room(page_size, hdr)) && \result <= HVIPI_CTL_REP_MAX &&
  @   hdr + \result <= page_size / 8;
  @ ensures list_exact: gva_list_exact(page + hdr, \result, start, end);
  @ ensures gva_coverage: \result > 0 ==>
  @   gva_list_covers(page + hdr, \result, start, end);
  @ ensures no_spurious_page: gva_list_inside(page + hdr, \result, start, end);
  @ ensures page_bounds: words_kept{Pre, Post}(page, hdr + \result, page_size / 8);
  @*/
static uint32_t hvipi_flush_gvas(uint64_t *page, uint32_t page_size,
				 uint32_t hdr, uint64_t start, uint64_t end,
				 uint32_t opts)
{
	uint32_t room = page_size / 8u;
	uint64_t n;

	if ((opts & HVIPI_FLUSH_OPT_WHOLE) || end <= start || room <= hdr)
		return 0;
	room -= hdr;
	if (room > HVIPI_CTL_REP_MAX)
		room = HVIPI_CTL_REP_MAX;
	n = hvipi_gva_span(start, end) / HVIPI_GVA_PAGES_MAX + 1;
	if (n > room)
		return 0;
	/* Room for exactly n entries: no word after them is handed over. */
	return hvipi_gva_list(page + hdr, (uint32_t)n, start, end);
}

/*
 * The plan of a call whose input is written: every field, the control
 * word from the code, the banks and the rep count.  The callers pick the
 * List kind and code as the Space ones plus one (0x0002/0x0003,
 * 0x0013/0x0014), without a branch.
 */
/*@ requires \valid(plan);
  @ requires code_fits: code < 65536;
  @ requires banks_fit: nb <= 64;
  @ requires gvas_fit: gvas <= HVIPI_CTL_REP_MAX;
  @ assigns *plan;
  @ ensures fields: plan->kind == kind && plan->reason == HVIPI_FB_NONE &&
  @   plan->flags == flags && plan->valid_bank_mask == vbm &&
  @   plan->banks == nb && plan->gvas == gvas && plan->bytes == bytes;
  @ ensures well_formed: ctl_rep_is(plan->control, code, nb, gvas, 0);
  @*/
static void hvipi_flush_call(struct hvipi_flush_plan *plan, uint32_t kind,
			     uint32_t code, uint64_t vbm, uint32_t nb,
			     uint32_t gvas, uint64_t flags, uint32_t bytes)
{
	plan->kind = kind;
	plan->reason = HVIPI_FB_NONE;
	plan->control = hvipi_rep_control(code, nb, gvas);
	plan->flags = flags;
	plan->valid_bank_mask = vbm;
	plan->banks = nb;
	plan->gvas = gvas;
	plan->bytes = bytes;
}

/*
 * A non-Ex flush: the header (address space, flags, processor mask
 * @vp_mask), then the GVA list from word 3, or a NO_PAGE fallback when the
 * page cannot hold the 24-byte header.  reads: the call as the hypervisor
 * reads it, the partition with @all_cpus (ALL_PROCESSORS), else the
 * processor mask.
 */
/*@ requires \valid(plan);
  @ requires page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires \separated(plan, page + (0 .. page_size / 8 - 1));
  @ assigns *plan, page[0 .. page_size / 8 - 1];
  @ ensures fallback_exact: !page_holds(page, page_size, 24) ==>
  @   plan->kind == HVIPI_FLUSH_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE &&
  @   plan->control == 0 && plan->flags == 0 && plan->valid_bank_mask == 0 &&
  @   plan->banks == 0 && plan->gvas == 0 && plan->bytes == 0;
  @ ensures call_exact: page_holds(page, page_size, 24) ==>
  @   (plan->kind == HVIPI_FLUSH_SPACE || plan->kind == HVIPI_FLUSH_LIST) &&
  @   plan->reason == HVIPI_FB_NONE && plan->valid_bank_mask == 0 &&
  @   plan->banks == 0;
  @ ensures header: HVIPI_FLUSH_CALL(plan) ==>
  @   page[0] == flush_space(space, opts) && page[1] == plan->flags &&
  @   plan->flags == flush_flags(all_cpus, opts) && page[2] == vp_mask;
  @ ensures reads: HVIPI_FLUSH_CALL(plan) ==> \forall integer v;
  @   flush_reads(plan->control, page, v) <==>
  @     (all_cpus != 0 ? all_reads(v) : fast_reads(vp_mask, v));
  @ ensures well_formed: HVIPI_FLUSH_CALL(plan) ==>
  @   ctl_rep_is(plan->control, HVIPI_FLUSH_CODE(plan), 0, plan->gvas, 0) &&
  @   plan->bytes == 8 * (3 + plan->gvas);
  @ ensures list_or_space: HVIPI_FLUSH_CALL(plan) ==>
  @   plan->gvas == flush_gvas(start, end, opts, flush_room(page_size, 3)) &&
  @   (HVIPI_FLUSH_IS_LIST(plan) <==> plan->gvas != 0);
  @ ensures list_exact: HVIPI_FLUSH_CALL(plan) ==>
  @   gva_list_exact(page + 3, plan->gvas, start, end);
  @ ensures gva_coverage: HVIPI_FLUSH_IS_LIST(plan) ==>
  @   gva_list_covers(page + 3, plan->gvas, start, end);
  @ ensures no_spurious_page: HVIPI_FLUSH_CALL(plan) ==>
  @   gva_list_inside(page + 3, plan->gvas, start, end);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @*/
static void hvipi_encode_flush(struct hvipi_flush_plan *plan, uint64_t *page,
			       uint32_t page_size, uint64_t space,
			       uint64_t start, uint64_t end, uint32_t opts,
			       bool all_cpus, uint64_t vp_mask)
{
	uint32_t gvas, list;
	uint64_t flags;

	if (!page || page_size < 8u * HVIPI_FLUSH_HDR_WORDS) {
		hvipi_flush_fallback(plan, HVIPI_FB_NO_PAGE);
		return;
	}
	flags = hvipi_flush_flags(opts, all_cpus);
	page[0] = (opts & HVIPI_FLUSH_OPT_ALL_SPACES) ? 0 : space;
	page[1] = flags;
	page[2] = vp_mask;
	gvas = hvipi_flush_gvas(page, page_size, HVIPI_FLUSH_HDR_WORDS, start,
				end, opts);
	list = gvas != 0;
	hvipi_flush_call(plan, HVIPI_FLUSH_SPACE + list,
			 HVIPI_CALL_FLUSH_SPACE + list, 0, 0, gvas, flags,
			 8u * (HVIPI_FLUSH_HDR_WORDS + gvas));
	/*
	 * The words the receiver reads (flush_reads), read back after the
	 * last write: without it the reads clause took both provers past 60 s
	 * on the ALL_SPACES path; with it, 0.1 s.
	 */
	/*@ assert read_back: flush_code_plain(ctl_code(plan->control)) &&
	  @   page[1] == flags && page[2] == vp_mask; */
}

/*
 * An Ex flush of the set @s (every target VP known and below 4096): the
 * address space, then the IPI path's sparse VP set with the flags in its
 * first word (hvipi_put_banks at word 1), then the GVA list after the
 * banks; or a NO_PAGE fallback when the page cannot hold 32 + 8 * banks
 * bytes.  Only @s is read.  The second reads clause is the call as the
 * hypervisor reads it: an Ex code, no ALL_PROCESSORS, format sparse, so
 * the set of the first.
 */
/*@ requires \valid(plan);
  @ requires \valid_read(s);
  @ requires page == \null || \valid(page + (0 .. page_size / 8 - 1));
  @ requires \separated(plan, s, page + (0 .. page_size / 8 - 1));
  @ requires \separated(s, page + (0 .. page_size / 8 - 1));
  @ requires dense_banks: \forall integer k; 0 <= k < 64 ==>
  @   (bit64(s->banks, k) <==> \exists integer i; 0 <= i < 64 &&
  @     bit64(s->word[k], i));
  @ assigns *plan, page[0 .. page_size / 8 - 1];
  @ ensures bank_set: plan->valid_bank_mask == \old(s->banks);
  @ ensures bank_count: plan->banks == popcount64(plan->valid_bank_mask);
  @ ensures fallback_exact: !page_holds(page, page_size, 32 + 8 * plan->banks) ==>
  @   plan->kind == HVIPI_FLUSH_FALLBACK && plan->reason == HVIPI_FB_NO_PAGE &&
  @   plan->control == 0 && plan->flags == 0 && plan->gvas == 0 &&
  @   plan->bytes == 0;
  @ ensures call_exact: page_holds(page, page_size, 32 + 8 * plan->banks) ==>
  @   (plan->kind == HVIPI_FLUSH_SPACE_EX || plan->kind == HVIPI_FLUSH_LIST_EX) &&
  @   plan->reason == HVIPI_FB_NONE;
  @ ensures header: HVIPI_FLUSH_CALL(plan) ==>
  @   page[0] == flush_space(space, opts) && page[1] == plan->flags &&
  @   plan->flags == flush_flags(0, opts) &&
  @   page[2] == HVIPI_FORMAT_SPARSE && page[3] == plan->valid_bank_mask;
  @ ensures well_formed: HVIPI_FLUSH_CALL(plan) ==>
  @   ctl_rep_is(plan->control, HVIPI_FLUSH_CODE(plan), plan->banks,
  @              plan->gvas, 0) &&
  @   plan->bytes == 8 * (4 + plan->banks + plan->gvas);
  @ ensures list_or_space: HVIPI_FLUSH_CALL(plan) ==>
  @   plan->gvas == flush_gvas(start, end, opts,
  @     flush_room(page_size, 4 + plan->banks)) &&
  @   (HVIPI_FLUSH_IS_LIST(plan) <==> plan->gvas != 0);
  @ ensures list_exact: HVIPI_FLUSH_CALL(plan) ==>
  @   gva_list_exact(page + (4 + plan->banks), plan->gvas, start, end);
  @ ensures gva_coverage: HVIPI_FLUSH_IS_LIST(plan) ==>
  @   gva_list_covers(page + (4 + plan->banks), plan->gvas, start, end);
  @ ensures no_spurious_page: HVIPI_FLUSH_CALL(plan) ==>
  @   gva_list_inside(page + (4 + plan->banks), plan->gvas, start, end);
  @ ensures bit_coverage: HVIPI_FLUSH_CALL(plan) ==>
  @   \forall integer k; bit64(page[3], k) ==>
  @     bits_below(page[3], k) < plan->banks &&
  @     page[4 + bits_below(page[3], k)] == \old(s->word[k]);
  @ ensures reads: HVIPI_FLUSH_CALL(plan) ==>
  @   \forall integer v; sparse_reads(page + 1, v) <==>
  @     (0 <= v < 4096 && bit64(\old(s->word[v / 64]), v % 64));
  @ ensures reads: HVIPI_FLUSH_CALL(plan) ==> \forall integer v;
  @   flush_reads(plan->control, page, v) <==> sparse_reads(page + 1, v);
  @ ensures page_bounds: plan->bytes <= page_size &&
  @   \forall integer i; plan->bytes / 8 <= i < page_size / 8 ==>
  @     page[i] == \old(page[i]);
  @*/
static void hvipi_encode_flush_ex(struct hvipi_flush_plan *plan,
				  uint64_t *page, uint32_t page_size,
				  uint64_t space, uint64_t start, uint64_t end,
				  uint32_t opts, const struct hvipi_set *s)
{
	uint32_t gvas, list, nb = hvipi_rank(s->banks);
	uint64_t flags;

	if (!page || page_size < 8u * (HVIPI_FLUSH_EX_HDR_WORDS + nb)) {
		hvipi_flush_fallback(plan, HVIPI_FB_NO_PAGE);
		plan->valid_bank_mask = s->banks;
		plan->banks = nb;
		return;
	}
	flags = hvipi_flush_flags(opts, false);
	page[0] = (opts & HVIPI_FLUSH_OPT_ALL_SPACES) ? 0 : space;
	/* The flags are below 8: they fit put_banks' 32-bit first word. */
	(void)hvipi_put_banks(page + 1, nb, (uint32_t)flags, s);
	/*@ assert words: \forall integer k; 0 <= k < 64 &&
	  @   bit64(\at(s->banks, Pre), k) ==>
	  @   bits_below(\at(s->banks, Pre), k) < nb &&
	  @   page[4 + bits_below(\at(s->banks, Pre), k)] == \at(s->word[k], Pre); */
	gvas = hvipi_flush_gvas(page, page_size, HVIPI_FLUSH_EX_HDR_WORDS + nb,
				start, end, opts);
	list = gvas != 0;
	hvipi_flush_call(plan, HVIPI_FLUSH_SPACE_EX + list,
			 HVIPI_CALL_FLUSH_SPACE_EX + list, s->banks, nb, gvas,
			 flags, 8u * (HVIPI_FLUSH_EX_HDR_WORDS + nb + gvas));
}

void hvipi_plan_flush(struct hvipi_flush_plan *plan,
		      const unsigned long __hvipi_shared *mask,
		      const unsigned long __hvipi_shared *present,
		      uint32_t nr_cpu_ids,
		      const uint32_t __hvipi_shared *vp_index,
		      uint32_t vp_ident, uint64_t space, uint64_t start,
		      uint64_t end, uint32_t opts, uint32_t hints,
		      uint64_t *page, uint32_t page_size)
{
	struct hvipi_set s HVIPI_WRITTEN_FIRST;
	struct hvipi_prefix pre;
	uint32_t cpu;

	/*
	 * fresh_send holds: the resets only restate it, so that EVA's
	 * octagons keep no relation between the cursors and the caller's
	 * variables (without them EVA loses the word path, measured).
	 */
	/*@ ghost hvipi_words_next = 0; */
	/*@ ghost hvipi_present_next = 0; */
	/*@ ghost hvipi_vp_next = 0; */
	pre = hvipi_first_words(&s, mask, present, vp_ident, nr_cpu_ids,
				hvipi_flush_all_first(present, hints, start,
						      end, opts));
	if (pre.all) {
		/*@ assert all_same: same_cpus{Pre}(mask, present, nr_cpu_ids); */
		/*@ assert all_cpus: \forall integer i; 0 <= i < 64 &&
		  @   bit64(s.word[pre.same - 1], i) ==>
		  @   target{Pre}(HVIPI_FLUSH_SET, 64 * (pre.same - 1) + i); */
		/*@ assert all_any: \exists integer c; target{Pre}(HVIPI_FLUSH_SET, c); */
		hvipi_encode_flush(plan, page, page_size, space, start, end,
				   opts, true, 0);
		return;
	}
	cpu = hvipi_start(&s, mask, present, nr_cpu_ids, vp_index, vp_ident,
			  0, false, pre.same, pre.kept);
	hvipi_collect(&s, mask, present, nr_cpu_ids, vp_index, vp_ident, 0,
		      false, cpu);
	/*@ assert dense_v: \forall integer v; 0 <= v < 4096 ==>
	  @   (bit64(s.word[v / 64], v % 64) <==> vp_target{Pre}(HVIPI_FLUSH_SET, v)); */
	/*@ assert dense_banks: \forall integer k; 0 <= k < 64 ==>
	  @   (bit64(s.banks, k) <==> \exists integer i; 0 <= i < 64 &&
	  @     bit64(s.word[k], i)); */
	if (!s.any || hvipi_flush_empty(start, end, opts)) {
		hvipi_flush_clear(plan);
		return;
	}
	if (!(hints & HVIPI_HINT_REMOTE_FLUSH)) {
		hvipi_flush_fallback(plan, HVIPI_FB_NOT_RECOMMENDED);
		return;
	}
	if (s.same) {
		/* Every present CPU: ALL_PROCESSORS, no VP number needed. */
		hvipi_encode_flush(plan, page, page_size, space, start, end,
				   opts, true, 0);
		return;
	}
	if (s.unknown) {
		hvipi_flush_fallback(plan, HVIPI_FB_VP_UNKNOWN);
		return;
	}
	if (hvipi_fast_rule(&s)) {
		/*@ assert fast_word: \forall integer v; 0 <= v < 64 ==>
		  @   (bit64(s.word[0], v) <==> vp_target{Pre}(HVIPI_FLUSH_SET, v)); */
		hvipi_encode_flush(plan, page, page_size, space, start, end,
				   opts, false, s.word[0]);
		return;
	}
	if (!(hints & HVIPI_HINT_EX_MASKS)) {
		hvipi_flush_fallback(plan, HVIPI_FB_EX_NOT_RECOMMENDED);
		return;
	}
	if (s.huge) {
		hvipi_flush_fallback(plan, HVIPI_FB_VP_TOO_BIG);
		return;
	}
	/*
	 * Every target's VP is a bit of the dense words: with it, no_vp_lost
	 * is the writer's reading of those words alone (stated after the
	 * call, the step timed out at 30 s with both provers).
	 */
	/*@ assert sparse_vps: \forall integer c; target{Pre}(HVIPI_FLUSH_SET, c) ==>
	  @   0 <= vp_index[c] < 4096 &&
	  @   bit64(s.word[vp_index[c] / 64], vp_index[c] % 64); */
	hvipi_encode_flush_ex(plan, page, page_size, space, start, end, opts,
			      &s);
}
