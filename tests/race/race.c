/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * race: hvipi_plan_mask() and hvipi_plan_flush() while their masks change
 * and their VP table fills in under them.
 *
 * The kernel's masks (cpu_online_mask and co.) may change while a send or
 * a flush runs, and hv_vp_index[] fills in as CPUs come up.  The core is
 * built with -DHVIPI_RACE_HOOK: it calls hvipi_race_hook() once per mask
 * word w it reads, right after reading mask[w] (value m) and present[w]
 * (value p, 0 without a present mask), and hvipi_race_hook_mask() when it
 * reads mask[w] alone (once the present mask decides nothing more;
 * present[w] then keeps its value at entry in the snapshot).  Both
 * planners read their masks through the same hvipi_collect(), so the same
 * hooks run inside either.  The hooks defined here
 *  - check the read: w < mask_words(nr), never read before in this call,
 *    above every word read before, m and p the words in memory, the
 *    pointers the ones the case passed;
 *  - record the snapshot: snap_mask[w] = m, snap_present[w] = p;
 *  - then, with the case's probability, flip random bits below nr_cpu_ids
 *    of the caller's mask and present words, words already read and words
 *    not read yet alike (CPUs near the top, self, CPUs with high or
 *    unknown VPs, the same CPU in both masks);
 *  - then, with the case's fill probability, fill in VP table entries:
 *    an entry that is HVIPI_VP_INVAL at entry and "pending" takes its
 *    final VP (never back, never another value), as hv_vp_index[] does
 *    when a CPU comes up; the entries are picked in the word just read,
 *    in words already read, in words not read yet, the lowest pending one
 *    (CPUs come up in order) or any; half of the cases then also set the
 *    CPU's bit in the mask (and present mask) now and then (a CPU that is
 *    up joins cpu_online_mask after its VP is known);
 *  - last, record the table snapshot of word w (below).
 *
 * The table snapshot.  In src/hvipi.c the planners read vp_index[] in one
 * place only, hvipi_collect_word(), which hvipi_collect() calls on a mask
 * word right after reading it, hence after that word's hook has returned
 * and before the next mask word is read, i.e. before the next hook call:
 * entry c of a target CPU is read once, between hook(c / 64) and
 * hook(c / 64 + 1).  The table changes only inside the hook, so the value
 * the core reads for c is exactly the value entry c holds when
 * hook(c / 64) returns.  snap_vp[c] is that value: each hook call copies
 * the entries of its word w after its fills (words never read, of which
 * there are none with the current core, keep their values at entry).  A
 * word taken whole by the word path (all its CPUs below vp_ident) reads no
 * entry; those entries are their own VPs at entry, are never pending, and
 * do not change.  hvipi_vp_ident() is not called inside the planners: the
 * case passes a vp_ident no larger than hvipi_vp_ident() of the table at
 * entry, which stays valid as the table fills.  The comparison is thus
 * exact: the sequential call is made on one table, snap_vp, not on a set
 * of tables consistent with the fill.  This pins the order of the reads:
 * a core that read a word's entries before that word's hook would fail
 * the identity check whenever one of them filled in between (README.md,
 * the negative controls).
 *
 * After the racing call, each case checks
 *  1. memory: the page is a heap object of exactly page_size bytes and
 *     the plan one of exactly its size (ASan sees any overrun);
 *     plan.bytes <= page_size; the page bytes at and beyond plan.bytes
 *     keep their canary;
 *  2. the snapshot: the masks as the core read them (words it did not
 *     read: their values at entry); at least one word read; the table as
 *     the core read it (above); the fill kept its own rule (every entry,
 *     at the end and in the snapshot, is its value at entry or its final
 *     VP, an entry at entry is HVIPI_VP_INVAL or final, and an entry seen
 *     final in the snapshot is final at the end: the "table" check, on
 *     the harness itself);
 *  3. identity: the planner called without racing on the snapshot (masks
 *     and table; same vp_ident, page and plan filled the same way) gives
 *     the same plan, byte for byte, and the same page, byte for byte: the
 *     racing call behaved exactly like a sequential call on the snapshot;
 *  4. hvipi_plan_mask: the racing plan against the oracle on the snapshot
 *     (kind, reason, banks, bytes) and, when it sends, decoded by the
 *     receiver model (FAST from r8, EX_SPARSE and EX_ALL from the page,
 *     EX_XMM from plan.input): the VPs interrupted are the snapshot's
 *     target VPs.  hvipi_plan_flush: kind and reason against the flush
 *     rules (hvipi.h) on the snapshot, banks of an Ex call; a call decoded
 *     by the flush receiver model (receiver/rx_flush.c, TLFS reading,
 *     every VP 0..4095 in the partition so that none is filtered out):
 *     success, input size == plan.bytes, the VPs flushed exactly the
 *     snapshot's target VPs (processor mask for non-Ex, sparse set for Ex)
 *     or, with HV_FLUSH_ALL_PROCESSORS, every VP of the partition while
 *     the snapshot's mask equals its present mask (the partition is the
 *     present CPUs' VPs: hvipi.h, present_partition), the flags and the
 *     address space, List exactly when the range's entries fit after the
 *     header (their number), the entries one run over the range's pages;
 *  5. hvipi_plan_mask: ck_run() (tests/common/check.c) on the snapshot
 *     case: the sequential plan against the oracle and the KVM and Xen
 *     receivers, with other vp_ident values too.
 *
 * Each case index i runs one hvipi_plan_mask case and, when i is a
 * multiple of FLUSH_EVERY (2), one hvipi_plan_flush case, each with its
 * own generator (a flush case costs about 2/3 of a hvipi_plan_mask case,
 * about as much under ASan: one for every index would add 2/3 or more to
 * the suite's time, see README.md).
 *
 * Usage: race [SEED [CASES]]  or env HVIPI_SEED, HVIPI_CASES (default
 * 1000000); HVIPI_FIRST: index of the first case (each case has its own
 * generator, from the seed and its index, so one case can be rerun alone:
 * HVIPI_SEED=s HVIPI_FIRST=i HVIPI_CASES=1).  Writes $HVIPI_COUNTS: every
 * case of both planners.
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "counts.h"
#include "gen.h"
#include "hvipi.h"
#include "oracle.h"
#include "rx.h"
#include "rx_flush.h"

/* Defined here, called by the core built with -DHVIPI_RACE_HOOK. */
void hvipi_race_hook(const unsigned long *mask, const unsigned long *present,
		     uint32_t w, unsigned long m, unsigned long p);
void hvipi_race_hook_mask(const unsigned long *mask, uint32_t w,
			  unsigned long m);

#define NR_MAX		8192u
#define WORDS_MAX	HVIPI_MASK_WORDS(NR_MAX)
#define LONG_BITS	GEN_LONG_BITS
#define SEED_DEFAULT	0x7261636568767069ull	/* "racehvpi" */
#define FLUSH_SALT	0x666c7573685f7263ull	/* the flush cases' generators */
#define MAX_REPORTS	10u
#define FLUSH_EVERY	2u	/* indices i % FLUSH_EVERY == 0 run a flush case too */
#define PEND_NONE	0xffffffffu
#define FLUSH_GPA	0x100000ull		/* where the receiver sees the page */

/* ---- the racing state the hook works on ---- */

static struct {
	bool armed;			/* racing call in progress */
	unsigned long *mask, *present;	/* the case's masks (the hook writes) */
	uint32_t nr, words, self;
	uint32_t *vp;			/* the case's table (the hook fills it) */
	const uint32_t *vp_entry;	/* its entries at entry */
	const uint32_t *vp_final;	/* the VP each entry ends at */
	uint32_t *snap_vp;		/* the table as the core read it */
	uint32_t rate;			/* flip chance per read, of 1024 */
	uint32_t fill_rate;		/* fill chance per read, of 1024 */
	uint32_t pace;			/* entries a fill picks, 0: 1 to 8 */
	uint32_t word_first;		/* of 3: a fill takes word w's entries */
	bool up_bits;			/* a filled CPU may join the masks */
	uint32_t npend;			/* pending entries (pend[]) */
	uint32_t low;			/* no pending entry below it */
	bool dirty;			/* the table changed in this call */
	uint32_t filled;		/* entries filled this call */
	uint32_t calls;			/* hook calls this case */
	uint32_t mask_alone;		/* of which mask word alone */
	int32_t last_w;			/* highest word read so far, -1 */
	uint8_t reads[WORDS_MAX];	/* reads of each word */
	bool present_read[WORDS_MAX];	/* its present word read with it */
	unsigned long snap_mask[WORDS_MAX], snap_present[WORDS_MAX];
	bool changed_ahead;		/* a word changed before the core read it */
	bool changed_behind;		/* a word changed after the core read it */
	uint32_t bits_changed;
	uint32_t bad;			/* hook violations this case */
	char why[160];			/* the first one */
} rc;

/* The pending entries, and where each CPU is in pend[] (or PEND_NONE). */
static uint32_t pend[NR_MAX], pend_pos[NR_MAX];

static void rc_violation(const char *fmt, uint32_t a, uint32_t b)
{
	if (rc.bad++ == 0)
		snprintf(rc.why, sizeof(rc.why), fmt, a, b);
}

/* A CPU below nr to flip, chosen by one of several rules. */
static uint32_t flip_cpu(uint32_t w)
{
	uint32_t nr = rc.nr, cpu, tries;

	switch (gen_below(8)) {
	case 0:			/* in a word already read (or the current one) */
		cpu = gen_below(w + 1u) * LONG_BITS + gen_below(LONG_BITS);
		break;
	case 1:			/* in a word not read yet */
		if (w + 1u < rc.words) {
			cpu = (w + 1u + gen_below(rc.words - w - 1u)) * LONG_BITS +
			      gen_below(LONG_BITS);
			break;
		}
		cpu = gen_below(nr);
		break;
	case 2:			/* near the top, far from the words read */
		cpu = nr - 1u - gen_below(nr < 64u ? nr : 64u);
		break;
	case 3:			/* self */
		cpu = rc.self < nr ? rc.self : gen_below(nr);
		break;
	case 4:			/* a CPU with a high, huge or unknown VP */
		for (tries = 0, cpu = gen_below(nr); tries < 8u && rc.vp[cpu] < 64u;
		     tries++)
			cpu = gen_below(nr);
		break;
	default:
		cpu = gen_below(nr);
		break;
	}
	return cpu < nr ? cpu : gen_below(nr);
}

/* Change bit @cpu of @m: set, clear or toggle; returns whether it changed. */
static bool flip_bit(unsigned long *m, uint32_t cpu, uint32_t op)
{
	unsigned long old = m[cpu / LONG_BITS], bit = 1ul << (cpu % LONG_BITS);

	if (op == 0)
		m[cpu / LONG_BITS] = old | bit;
	else if (op == 1)
		m[cpu / LONG_BITS] = old & ~bit;
	else
		m[cpu / LONG_BITS] = old ^ bit;
	return m[cpu / LONG_BITS] != old;
}

static void rc_note_change(uint32_t cpu, uint32_t w)
{
	rc.bits_changed++;
	if (cpu / LONG_BITS <= w)
		rc.changed_behind = true;
	else
		rc.changed_ahead = true;
}

/* After the read of word w: maybe change some bits of the masks. */
static void race_flip(uint32_t w)
{
	uint32_t n, k;

	if (rc.rate == 0 || gen_below(1024) >= rc.rate)
		return;
	n = 1u + (gen_chance(1, 4) ? gen_below(8) : 0);
	for (k = 0; k < n; k++) {
		uint32_t cpu = flip_cpu(w), op = gen_below(3);
		uint32_t where = rc.present ? gen_below(4) : 0;

		/* 0, 1: mask; 2: present; 3: both (a CPU comes or goes) */
		if (where == 3) {
			op = gen_below(2);
			if (flip_bit(rc.mask, cpu, op))
				rc_note_change(cpu, w);
			if (flip_bit(rc.present, cpu, op))
				rc_note_change(cpu, w);
		} else if (flip_bit(where == 2 ? rc.present : rc.mask, cpu, op)) {
			rc_note_change(cpu, w);
		}
	}
}

/* ---- the VP table filling in ---- */

static bool pending(uint32_t cpu)
{
	return pend_pos[cpu] != PEND_NONE;
}

/* Entry @cpu is HVIPI_VP_INVAL at entry and fills in during the call. */
static void make_pending(uint32_t *vp, const uint32_t *fin, uint32_t cpu)
{
	if (fin[cpu] == GEN_INVAL || pending(cpu))
		return;
	vp[cpu] = GEN_INVAL;
	pend_pos[cpu] = rc.npend;
	pend[rc.npend++] = cpu;
}

static void pend_del(uint32_t cpu)
{
	uint32_t i = pend_pos[cpu], last = pend[--rc.npend];

	pend[i] = last;
	pend_pos[last] = i;
	pend_pos[cpu] = PEND_NONE;
}

/* A pending entry to fill after the read of word w. */
static uint32_t pick_pending(uint32_t w)
{
	uint32_t lo = 0, hi = 0, t, cpu, base = w * LONG_BITS;

	switch (gen_below(5)) {
	case 0:			/* in a word already read: the core has read it */
		hi = base;
		break;
	case 1:			/* in a word not read yet */
		lo = base + LONG_BITS;
		hi = rc.nr;
		break;
	case 2:			/* the lowest: CPUs come up in order */
		while (!pending(rc.low))
			rc.low++;
		return rc.low;
	default:
		break;
	}
	for (t = 0; lo < hi && t < 8u; t++) {
		cpu = lo + gen_below(hi - lo);
		if (pending(cpu))
			return cpu;
	}
	return pend[gen_below(rc.npend)];
}

/* Entry @cpu takes its final VP; the CPU may then join the masks. */
static void fill_one(uint32_t cpu, uint32_t w)
{
	pend_del(cpu);
	rc.vp[cpu] = rc.vp_final[cpu];
	rc.filled++;
	rc.dirty = true;
	if (rc.up_bits && gen_chance(1, 4)) {
		if (flip_bit(rc.mask, cpu, 0))
			rc_note_change(cpu, w);
		if (rc.present && flip_bit(rc.present, cpu, 0))
			rc_note_change(cpu, w);
	}
}

/*
 * After the read of word w (and the flips): maybe fill some entries.  With
 * the case's chance (always, or one time in three), every pending entry
 * of word w itself (the core reads them next: it sees them filled, though
 * they were HVIPI_VP_INVAL when it read the mask word); else rc.pace
 * entries picked by pick_pending(), or 1 to 8 when the pace is 0.
 */
static void race_fill(uint32_t w)
{
	uint32_t n, cpu, base = w * LONG_BITS;
	uint32_t end = rc.nr - base <= LONG_BITS ? rc.nr : base + LONG_BITS;

	if (rc.npend == 0 || gen_below(1024) >= rc.fill_rate)
		return;
	if (gen_below(3) < rc.word_first) {
		for (cpu = base; cpu < end; cpu++)
			if (pending(cpu))
				fill_one(cpu, w);
		return;
	}
	n = rc.pace ? rc.pace : 1u + (gen_chance(1, 4) ? gen_below(8) : 0);
	while (n-- && rc.npend)
		fill_one(pick_pending(w), w);
}

/*
 * One read of mask word w (and of present word w when with_present) of
 * the case's masks (the hooks check the pointers): the checks and the
 * snapshot of hvipi_race_hook() and hvipi_race_hook_mask().  A present
 * word read without a present mask is p == 0.  After the flips and the
 * fills, the table snapshot of word w: the core reads the entries of its
 * CPUs after this call returns and before the next read of a mask word.
 */
static void race_read(uint32_t w, unsigned long m, unsigned long p,
		      bool with_present)
{
	const unsigned long *mask = rc.mask, *present = rc.present;
	bool first;

	if (w >= rc.words) {
		rc_violation("hook: word %u read, beyond mask_words(nr) = %u",
			     w, rc.words);
		return;
	}
	first = !rc.reads[w];
	if (!first)
		rc_violation("hook: word %u read twice (reads so far %u)", w,
			     rc.reads[w]);
	else if ((int32_t)w <= rc.last_w)
		rc_violation("hook: word %u read after word %u (not increasing)",
			     w, (uint32_t)rc.last_w);
	if (m != mask[w] ||
	    (with_present && p != (present ? present[w] : 0ul)))
		rc_violation("hook: word %u: the values passed are not the words in memory",
			     w, 0);
	if (first) {
		rc.snap_mask[w] = m;
		rc.snap_present[w] = p;
		rc.present_read[w] = with_present;
	}
	if (rc.reads[w] < 255u)
		rc.reads[w]++;
	if ((int32_t)w > rc.last_w)
		rc.last_w = (int32_t)w;
	race_flip(w);
	race_fill(w);
	if (first && rc.dirty) {	/* else snap_vp holds the entry values */
		uint32_t base = w * LONG_BITS;
		uint32_t end = rc.nr - base <= LONG_BITS ? rc.nr : base + LONG_BITS;

		memcpy(rc.snap_vp + base, rc.vp + base,
		       (end - base) * sizeof(*rc.vp));
	}
}

void hvipi_race_hook(const unsigned long *mask, const unsigned long *present,
		     uint32_t w, unsigned long m, unsigned long p)
{
	if (!rc.armed)
		return;
	rc.calls++;
	if (mask != rc.mask || present != rc.present) {
		rc_violation("hook: masks other than the caller's (word %u)", w, 0);
		return;
	}
	race_read(w, m, p, true);
}

/*
 * Mask word w read alone (hvipi_collect()'s pass over empty words: the
 * present mask no longer decides anything, so present word w is not read,
 * and the snapshot keeps its value at entry).
 */
void hvipi_race_hook_mask(const unsigned long *mask, uint32_t w,
			  unsigned long m)
{
	if (!rc.armed)
		return;
	rc.calls++;
	if (mask != rc.mask) {
		rc_violation("hook: a mask other than the caller's (word %u)", w, 0);
		return;
	}
	rc.mask_alone++;
	race_read(w, m, 0, false);
}

/* ---- case generation ---- */

static uint32_t pick_nr(void)
{
	static const uint32_t edges[] = {
		1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 255, 256, 257,
		511, 512, 513, 704, 705, 767, 768, 769, 1000, 1023, 1024,
		1025, 2047, 2048, 2049, 4031, 4032, 4033, 4095, 4096, 4097,
		4159, 4160, 6000, 8191, 8192
	};
	uint32_t r = gen_below(100);

	if (r < 20)
		return edges[gen_below(sizeof(edges) / sizeof(edges[0]))];
	if (r < 45)
		return 1u + gen_below(64);
	if (r < 65)
		return 65u + gen_below(448);
	if (r < 75) {		/* a multiple of 64, give or take one */
		uint32_t nr = (1u + gen_below(NR_MAX / 64u)) * 64u - 1u + gen_below(3);

		return nr > NR_MAX ? NR_MAX : nr;
	}
	if (r < 92)
		return 513u + gen_below(4096u - 512u);
	return 4097u + gen_below(NR_MAX - 4096u);
}

/* A VP table; returns a vp_ident to pass (<= hvipi_vp_ident()). */
static uint32_t make_table(uint32_t *vp, uint32_t nr)
{
	uint32_t c, r = gen_below(100), start, id;

	if (r < 25) {				/* identity */
		gen_identity(vp, nr);
	} else if (r < 45) {			/* identity prefix, then permuted */
		start = gen_below(nr + 1u);
		gen_identity(vp, nr);
		gen_shuffle(vp, start, nr);
	} else if (r < 55) {			/* permutation */
		gen_identity(vp, nr);
		gen_shuffle(vp, 0, nr);
	} else if (r < 70) {			/* identity prefix, then sparse high */
		start = gen_below(nr + 1u);
		for (c = 0; c < nr; c++)
			vp[c] = c < start ? c : gen_below(4096);
	} else if (r < 80) {			/* stride: sparse VPs */
		gen_stride(vp, nr, 1u + gen_below(nr >= 4096u ? 1u : 4096u / nr));
	} else if (r < 90) {			/* random, few banks or many */
		uint32_t lim = gen_chance(1, 3) ? 64u : gen_chance(1, 2) ? 1024u : 4096u;

		for (c = 0; c < nr; c++)
			vp[c] = gen_below(lim);
	} else {				/* identity with local swaps */
		gen_identity(vp, nr);
		gen_swaps(vp, nr, 1u + nr / 32u);
	}
	if (gen_chance(1, 8))
		for (c = 1u + gen_below(3); c; c--)
			vp[gen_below(nr)] = GEN_INVAL;
	if (gen_chance(1, 16))
		vp[gen_below(nr)] = 4096u + gen_below(100000);
	if (gen_chance(1, 30))
		vp[gen_below(nr)] = 0xfffffffeu;
	if (gen_chance(1, 8))
		vp[nr - 1u] = 64u + gen_below(4032);
	id = hvipi_vp_ident(vp, nr);
	r = gen_below(100);
	return r < 60 ? id : r < 75 ? 0 : gen_below(id + 1u);
}

static void make_present(unsigned long *pr, uint32_t words, uint32_t nr)
{
	uint32_t c, holes;

	memset(pr, 0, words * sizeof(*pr));
	for (c = 0; c < nr; c++)
		gen_set_bit(pr, c);
	if (gen_chance(1, 2))
		for (holes = gen_below(4); holes; holes--)
			pr[gen_below(nr) / LONG_BITS] &= ~(1ul << gen_below(LONG_BITS));
	if (nr % LONG_BITS && gen_chance(1, 6))	/* garbage beyond nr */
		pr[words - 1u] |= ~0ul << (nr % LONG_BITS);
}

/*
 * Masks: empty, one CPU (often self), a few, dense, a range, present (or
 * nearly: one bit in three flipped), all; garbage beyond nr one time in 5.
 */
static const struct gen_mask_mix mask_mix = {
	.empty = 4, .one = 14, .few = 34, .dense = 54, .range = 62, .copy = 85
};

static void make_mask(unsigned long *m, uint32_t words, uint32_t nr,
		      uint32_t self, const unsigned long *pr)
{
	if (gen_mask(m, words, nr, self, pr, &mask_mix) == GEN_MASK_COPY &&
	    gen_chance(1, 3))
		m[gen_below(words)] ^= 1ul << gen_below(LONG_BITS);
	gen_garbage(m, words, nr, 5);
}

/* Vectors: 0x10..0xff, 0..0xf, 0x100..0x1ff. */
static const struct gen_vector_mix vector_mix = {
	.valid = 95, .edge = 95, .low = 97, .over = 100, .over_span = 0x100
};

static uint8_t canary(uint32_t i)
{
	return (uint8_t)(0xa7u ^ (i * 0x3bu));
}

/* canary(0 .. 4095), made once: pages are filled and checked with it */
static uint8_t canary_page[4096];

/* The first CPU at or after @c (wrapping) in @m below nr, else @c. */
static uint32_t next_set(const unsigned long *m, uint32_t nr, uint32_t c)
{
	uint32_t i, d;

	for (i = 0; i < nr; i++) {
		d = c + i < nr ? c + i : c + i - nr;
		if (gen_test_bit(m, d))
			return d;
	}
	return c;
}

/*
 * The fill of the case: which entries of the table (@vp, at its final
 * values @fin) are still HVIPI_VP_INVAL at entry and fill in during the
 * call, and how fast.  None (60 %); a few CPUs, half of them in the mask
 * (12 %); the last 1 to 256 CPUs, as while CPUs come up at boot (9 %);
 * a random eighth or 64th of the CPUs (5 %); every CPU of the mask
 * (14 %).  An entry whose final value is HVIPI_VP_INVAL never fills.  The
 * chance of a fill per mask-word read: every read (80 %), 1..256 of 1024
 * (10 %), or about 1 to 2 fills per call (10 %); the entries a fill
 * picks (race_fill()): 1 to 8 (half of the cases), or enough for every
 * pending entry to fill over one pass of the mask; whether a fill takes
 * the pending entries of the word just read instead: always (three cases
 * in four), or one time in three.  A target entry still pending when the
 * core reads it makes the plan a VP_UNKNOWN fallback (or leaves it
 * NONE, EX_ALL or ALL_PROCESSORS); with these rates VP_UNKNOWN is about
 * 7 points more of the plans than without a fill (README.md).
 */
static void make_fill(uint32_t *vp, const uint32_t *fin, uint32_t nr,
		      uint32_t words, const unsigned long *mask)
{
	uint32_t c, n, den, r = gen_below(100);

	while (rc.npend)		/* the last case's, left pending */
		pend_pos[pend[--rc.npend]] = PEND_NONE;
	rc.low = 0;
	if (r < 60) {
		;
	} else if (r < 72) {
		for (n = 1u + gen_below(8); n; n--) {
			c = gen_below(nr);
			make_pending(vp, fin, gen_chance(1, 2) ? next_set(mask, nr, c) : c);
		}
	} else if (r < 81) {
		for (c = nr - 1u - gen_below(nr < 256u ? nr : 256u); c < nr; c++)
			make_pending(vp, fin, c);
	} else if (r < 86) {
		den = gen_chance(1, 2) ? 8u : 64u;
		for (c = 0; c < nr; c++)
			if (gen_below(den) == 0)
				make_pending(vp, fin, c);
	} else {
		for (c = 0; c < nr; c++)
			if (gen_test_bit(mask, c))
				make_pending(vp, fin, c);
	}
	r = gen_below(100);
	rc.fill_rate = r < 80 ? 1024u : r < 90 ? 1u + gen_below(256) :
		       1u + gen_below(2048u / words + 1u);
	rc.pace = gen_chance(1, 2) ? 0u : 1u + rc.npend / words;
	rc.word_first = gen_chance(3, 4) ? 3u : 1u;
	rc.up_bits = gen_chance(1, 2);
}

#define GVA_UNIT	(4096ull * 4096ull)	/* one GVA list entry: 16 MiB */
#define TLB_FLUSH_ALL	(~0ull)

/*
 * The address space, range and options of a flush (as flush_plan_ref's):
 * the whole space (25 %), 1..40 pages, an unaligned range, around
 * multiples of 16 MiB (the List/Space boundary of every page size), an
 * empty range, or any length; one mm or all of them; global or not.
 */
static void make_range(uint64_t *space, uint64_t *start, uint64_t *end,
		       uint32_t *opts)
{
	uint32_t r = gen_below(100);
	uint64_t len;

	/* one draw a statement: the same cases whatever the compiler's order */
	*opts = gen_chance(1, 3) ? HVIPI_FLUSH_OPT_ALL_SPACES : 0u;
	*opts |= gen_chance(1, 4) ? HVIPI_FLUSH_OPT_GLOBAL : 0u;
	*space = gen_rnd() & 0x7ffffffffffff000ull;	/* cr3_space: bits 11:0 and 63 clear */
	*start = gen_rnd();
	*start = (*start >> (gen_below(20) + 17)) & ~0xfffull;
	if (r < 25) {
		*opts |= HVIPI_FLUSH_OPT_WHOLE;
		*end = TLB_FLUSH_ALL;
		return;
	}
	if (r < 65) {
		len = (1u + gen_below(40)) * 4096ull;
	} else if (r < 75) {
		*start += 1u + gen_below(4095);
		len = 1u + gen_rnd() % (64u * 4096ull);
	} else if (r < 90) {
		len = (1u + gen_below(512)) * GVA_UNIT - 0x2000u;
		len += gen_rnd() % 0x4000u;
	} else if (r < 95) {
		*end = *start - (gen_chance(1, 2) ? 4096u : 0u);
		return;
	} else {
		len = gen_rnd();
		len >>= gen_below(40);
	}
	if (len - 1u > TLB_FLUSH_ALL - 1u - *start)
		len = TLB_FLUSH_ALL - 1u - *start;
	*end = *start + len;
}

/* ---- checks ---- */

struct rcase {
	uint64_t index;
	bool flush;			/* a hvipi_plan_flush case */
	uint32_t nr, words, vp_ident, self, vector, hints, page_size;
	bool excl, have_page, have_present;
	uint64_t space, start, end;	/* flush */
	uint32_t opts;			/* flush */
	const uint32_t *vp;
};

static unsigned int reports;

static void report(const struct rcase *c, const void *plan, const char *what)
{
	if (reports++ >= MAX_REPORTS)
		return;
	if (c->flush)
		fprintf(stderr, "FAIL case %" PRIu64 " (flush): %s\n  nr=%u vp_ident=%u space=%#" PRIx64 " start=%#" PRIx64 " end=%#" PRIx64 " opts=%#x hints=%#x page=%s/%u present=%s rate=%u/1024 fill=%u/1024 hook calls=%u bits changed=%u entries filled=%u\n",
			c->index, what, c->nr, c->vp_ident, c->space, c->start,
			c->end, c->opts, c->hints, c->have_page ? "yes" : "NULL",
			c->page_size, c->have_present ? "yes" : "NULL", rc.rate,
			rc.fill_rate, rc.calls, rc.bits_changed, rc.filled);
	else
		fprintf(stderr, "FAIL case %" PRIu64 ": %s\n  nr=%u vp_ident=%u self=%u excl=%d vector=%#x hints=%#x page=%s/%u present=%s rate=%u/1024 fill=%u/1024 hook calls=%u bits changed=%u entries filled=%u\n",
			c->index, what, c->nr, c->vp_ident, c->self, c->excl,
			c->vector, c->hints, c->have_page ? "yes" : "NULL",
			c->page_size, c->have_present ? "yes" : "NULL", rc.rate,
			rc.fill_rate, rc.calls, rc.bits_changed, rc.filled);
	if (plan && c->flush) {
		const struct hvipi_flush_plan *p = plan;

		fprintf(stderr, "  racing plan: kind=%u reason=%u control=%#" PRIx64 " flags=%#" PRIx64 " banks=%u gvas=%u bytes=%u vbm=%#" PRIx64 "\n",
			p->kind, p->reason, p->control, p->flags, p->banks,
			p->gvas, p->bytes, p->valid_bank_mask);
	} else if (plan) {
		const struct hvipi_plan *p = plan;

		fprintf(stderr, "  racing plan: kind=%s reason=%u banks=%u bytes=%u vbm=%#" PRIx64 "\n",
			ck_kind_name(p->kind), p->reason,
			p->banks, p->bytes, p->valid_bank_mask);
	}
}

/* The racing plan against the oracle on the snapshot, decoded. */
static bool check_oracle(const struct rcase *c, const struct hvipi_plan *p,
			 const uint64_t *page, const struct or_sets *s)
{
	struct or_expect e;
	struct rx_result r;

	or_expect(&e, s, c->vector, c->hints, c->have_page, c->page_size);
	if (p->kind != e.kind || p->reason != e.reason) {
		report(c, p, "kind/reason differs from the oracle on the snapshot");
		fprintf(stderr, "  expected kind=%s reason=%u\n",
			ck_kind_name(e.kind), e.reason);
		return false;
	}
	if ((p->kind == HVIPI_PLAN_EX_SPARSE || p->kind == HVIPI_PLAN_EX_XMM) &&
	    p->banks != e.nbanks) {
		report(c, p, "banks differ from the oracle on the snapshot");
		return false;
	}
	if (p->kind == HVIPI_PLAN_NONE || p->kind == HVIPI_PLAN_FALLBACK) {
		if (p->bytes == 0)
			return true;
		report(c, p, "plan.bytes set without an Ex plan");
		return false;
	}
	if (p->bytes != e.bytes) {
		report(c, p, "bytes differ from the oracle on the snapshot");
		return false;
	}
	if (ck_decode_plan(&r, p, page, false) || !r.delivered ||
	    r.vector != c->vector) {
		report(c, p, "the receiver rejects the racing plan");
		fprintf(stderr, "  rx: status=%u why=%s\n", r.status, r.why);
		return false;
	}
	if (p->kind == HVIPI_PLAN_EX_ALL ?
	    !(r.all && s->mask_is_present && !s->exclude_self) :
	    !ck_same_set(&r, s)) {
		report(c, p, "the receiver's VP set is not the snapshot's targets");
		fprintf(stderr, "  rx: all=%d nr_vps=%u, snapshot VPs %u\n",
			r.all, r.nr_vps, s->nvps);
		return false;
	}
	return true;
}

/*
 * The target set of a flush (every CPU of the mask below nr, self kept),
 * as the rules see it, computed here word by word from the snapshot.
 */
struct fsets {
	uint32_t ntargets, nbanks;
	bool inval, ge64, ge4096;	/* a target VP unknown, in 64..4095, >= 4096 */
	bool same;			/* present given, and mask == present below nr */
	uint64_t vps[RX_VP_WORDS];	/* the target VPs below 4096 */
};

static void flush_sets(struct fsets *f, const unsigned long *mask,
		       const unsigned long *present, uint32_t nr,
		       const uint32_t *vp)
{
	uint32_t w, words = HVIPI_MASK_WORDS(nr), c, v;

	memset(f, 0, sizeof(*f));
	f->same = present != NULL;
	for (w = 0; w < words; w++) {
		unsigned long keep = w + 1u == words && nr % LONG_BITS ?
				     (1ul << (nr % LONG_BITS)) - 1u : ~0ul;
		unsigned long m = mask[w] & keep;

		if (present && m != (present[w] & keep))
			f->same = false;
		for (; m; m &= m - 1u) {
			c = w * LONG_BITS + (uint32_t)__builtin_ctzl(m);
			v = vp[c];
			f->ntargets++;
			if (v == GEN_INVAL) {
				f->inval = true;
			} else if (v >= 4096u) {
				f->ge4096 = true;
			} else {
				f->ge64 |= v >= 64u;
				f->vps[v / 64u] |= 1ull << (v % 64u);
			}
		}
	}
	for (w = 0; w < RX_VP_WORDS; w++)
		f->nbanks += f->vps[w] != 0;
}

static uint64_t every_vp[RX_VP_WORDS];	/* the partition the receiver sees */
static struct rxf_result rxf;		/* big: static */

/*
 * The racing flush plan against the rules of hvipi_plan_flush() (hvipi.h,
 * spec/FLUSH_RULES.md section 9) on the snapshot's target set @s, and its
 * call decoded by the flush receiver model.
 */
static bool check_flush(const struct rcase *c, const struct hvipi_flush_plan *p,
			const uint64_t *page, const struct fsets *s)
{
	struct rxf_call call;
	bool whole = c->opts & HVIPI_FLUSH_OPT_WHOLE, all = false, ex = false;
	bool kind_ok, list_want;
	uint32_t kind = HVIPI_FLUSH_NONE, reason = HVIPI_FB_NONE, need_bytes = 0;
	uint32_t hdr, cap, i;
	uint64_t flags, need = 0, lo, hi;

	if (s->ntargets == 0 || (!whole && c->end <= c->start))
		kind = HVIPI_FLUSH_NONE;
	else if (!(c->hints & HVIPI_HINT_REMOTE_FLUSH))
		reason = HVIPI_FB_NOT_RECOMMENDED;
	else if (s->same) {
		all = true;
		need_bytes = 24;
	} else if (s->inval)
		reason = HVIPI_FB_VP_UNKNOWN;
	else if (!s->ge64 && !s->ge4096)
		need_bytes = 24;
	else if (!(c->hints & HVIPI_HINT_EX_MASKS))
		reason = HVIPI_FB_EX_NOT_RECOMMENDED;
	else if (s->ge4096)
		reason = HVIPI_FB_VP_TOO_BIG;
	else {
		ex = true;
		need_bytes = 32u + 8u * s->nbanks;
	}
	if (need_bytes && (!c->have_page || c->page_size < need_bytes))
		reason = HVIPI_FB_NO_PAGE;
	if (reason != HVIPI_FB_NONE)
		kind = HVIPI_FLUSH_FALLBACK;
	else if (need_bytes)
		kind = ex ? HVIPI_FLUSH_SPACE_EX : HVIPI_FLUSH_SPACE;
	kind_ok = kind == HVIPI_FLUSH_SPACE ?
		  p->kind == HVIPI_FLUSH_SPACE || p->kind == HVIPI_FLUSH_LIST :
		  kind == HVIPI_FLUSH_SPACE_EX ?
		  p->kind == HVIPI_FLUSH_SPACE_EX || p->kind == HVIPI_FLUSH_LIST_EX :
		  p->kind == kind;
	if (!kind_ok || p->reason != reason) {
		report(c, p, "kind/reason differs from the flush rules on the snapshot");
		fprintf(stderr, "  expected kind=%u (or its List) reason=%u\n",
			kind, reason);
		return false;
	}
	if (HVIPI_FLUSH_IS_EX(p) && p->banks != s->nbanks) {
		report(c, p, "banks differ from the snapshot's target banks");
		return false;
	}
	if (!HVIPI_FLUSH_CALL(p)) {
		if (p->bytes == 0)
			return true;
		report(c, p, "plan.bytes set without a call");
		return false;
	}

	memset(&call, 0, sizeof(call));
	call.control = p->control;
	call.rdx = FLUSH_GPA;
	call.mem = (const uint8_t *)page;
	call.mem_len = c->page_size;
	call.mem_gpa = FLUSH_GPA;
	call.vps = every_vp;
	call.hints = RXF_HINT_REMOTE_FLUSH | RXF_HINT_EX;
	call.rules = RXF_TLFS;
	rxf_decode(&call, &rxf);
	if (rxf.ud || rxf.status != RX_ST_SUCCESS || rxf.empty_set) {
		report(c, p, "the flush receiver refuses the racing plan");
		fprintf(stderr, "  rxf: status=%u why=%s\n", rxf.status, rxf.why);
		return false;
	}
	if (rxf.bytes != p->bytes) {
		report(c, p, "the receiver's input size is not plan.bytes");
		return false;
	}
	/* the VPs flushed: the snapshot's targets */
	if (all ? !rxf.all :
	    rxf.all || memcmp(rxf.vps, s->vps, sizeof(s->vps)) != 0) {
		report(c, p, "the receiver's VP set is not the snapshot's targets");
		fprintf(stderr, "  rxf: all=%d nr_vps=%u; snapshot: mask is present %d\n",
			rxf.all, rxf.nr_vps, s->same);
		return false;
	}
	flags = (all ? RXF_F_ALL_PROCESSORS : 0) |
		((c->opts & HVIPI_FLUSH_OPT_ALL_SPACES) ? RXF_F_ALL_SPACES : 0) |
		(whole && !(c->opts & HVIPI_FLUSH_OPT_GLOBAL) ? RXF_F_NON_GLOBAL : 0);
	if (rxf.flags != flags || rxf.address_space !=
	    ((c->opts & HVIPI_FLUSH_OPT_ALL_SPACES) ? 0 : c->space)) {
		report(c, p, "flags or address space");
		return false;
	}
	/* List exactly when the range's entries fit after the header */
	hdr = ex ? 4u + p->banks : 3u;
	cap = c->page_size / 8u - hdr < 4095u ? c->page_size / 8u - hdr : 4095u;
	if (!whole)
		need = ((c->end - 1u) / 4096u - c->start / 4096u) / 4096u + 1u;
	list_want = !whole && need <= cap;
	if (list_want != HVIPI_FLUSH_IS_LIST(p) || (list_want && p->gvas != need)) {
		report(c, p, "List/Space choice or entry count");
		return false;
	}
	if (!list_want) {
		if (rxf.whole_space)
			return true;
		report(c, p, "Space call not read as a whole space");
		return false;
	}
	/* the entries: one run of the pages start / 4096 .. (end - 1) / 4096 */
	if (!rxf.list_read || rxf.gva_start != 0 || rxf.nr_gvas != need) {
		report(c, p, "the receiver did not read the list");
		return false;
	}
	lo = rxf_gva_first(rxf.gvas[0]);
	hi = lo + rxf_gva_pages(rxf.gvas[0]) - 1u;
	for (i = 1; i < rxf.nr_gvas && rxf_gva_first(rxf.gvas[i]) == hi + 1u; i++)
		hi = rxf_gva_first(rxf.gvas[i]) + rxf_gva_pages(rxf.gvas[i]) - 1u;
	if (i != rxf.nr_gvas || lo != c->start / 4096u ||
	    hi != (c->end - 1u) / 4096u) {
		report(c, p, "the entries are not the pages of the range");
		return false;
	}
	return true;
}

/* ---- the racing call, either planner ---- */

/* The counts of one planner's cases. */
struct part {
	uint64_t cases, failures, kind[6], reason[7];
	uint64_t hook_calls, mask_alone, flipped, ahead, behind, both, unread;
	uint64_t fill_cases, filled, read_filled, filled_after;
	uint64_t fail_hook, fail_table, fail_mem, fail_ident, fail_oracle, fail_ck;
};

/*
 * The buffers of one case.  What a planner reads or writes (the masks,
 * the table, their snapshots, the pages) is a heap object of its exact
 * size; the harness's own copies (the masks and table at entry, the
 * final table) are static.
 */
static unsigned long m0_buf[WORDS_MAX], p0_buf[WORDS_MAX];
static uint32_t vfin_buf[NR_MAX], v0_buf[NR_MAX];

struct bufs {
	unsigned long *mask, *present, *m0, *p0, *sm, *sp;
	uint32_t *vp, *vfin, *v0, *svp;
	uint64_t *page, *page2;
};

static void bufs_alloc(struct bufs *b, uint32_t nr, bool present)
{
	size_t wbytes = HVIPI_MASK_WORDS(nr) * sizeof(unsigned long);

	memset(b, 0, sizeof(*b));
	b->mask = gen_xmalloc(wbytes);
	b->m0 = m0_buf;
	b->p0 = p0_buf;
	b->sm = gen_xmalloc(wbytes);
	b->vp = gen_xmalloc(nr * sizeof(*b->vp));
	b->vfin = vfin_buf;
	b->v0 = v0_buf;
	b->svp = gen_xmalloc(nr * sizeof(*b->vp));
	if (present) {
		b->present = gen_xmalloc(wbytes);
		b->sp = gen_xmalloc(wbytes);
	}
}

static void bufs_page(struct bufs *b, struct rcase *c)
{
	uint32_t r = gen_below(100);

	c->have_page = r >= 8;
	c->page_size = r < 8 ? 0 : r < 65 ? 4096u : r < 85 ? gen_below(600) :
		       gen_below(4097);
	if (c->have_page) {
		b->page = gen_xmalloc(c->page_size);
		b->page2 = gen_xmalloc(c->page_size);
		memcpy(b->page, canary_page, c->page_size);
		memcpy(b->page2, canary_page, c->page_size);
	}
}

static void bufs_free(struct bufs *b)
{
	free(b->mask);
	free(b->present);
	free(b->sm);
	free(b->sp);
	free(b->vp);
	free(b->svp);
	free(b->page);
	free(b->page2);
}

/*
 * Before the racing call, after the case is drawn (the table in b->vp at
 * its final values, copied to b->vfin): the hook's state, the flip rate,
 * the fill (entries set to HVIPI_VP_INVAL in b->vp), vp_ident cut to the
 * identity prefix of the table at entry, the entry copies.
 */
static void race_arm(struct rcase *c, struct bufs *b)
{
	uint32_t r, id;
	size_t wbytes = c->words * sizeof(unsigned long);

	memcpy(b->m0, b->mask, wbytes);
	if (b->present)
		memcpy(b->p0, b->present, wbytes);
	memset(rc.reads, 0, c->words);
	rc.mask = b->mask;
	rc.present = b->present;
	rc.nr = c->nr;
	rc.words = c->words;
	rc.self = c->self;
	rc.vp = b->vp;
	r = gen_below(100);
	rc.rate = r < 15 ? 0 : r < 40 ? 1024u : r < 70 ? 1u + gen_below(256) :
		  1u + gen_below(2048u / c->words + 1u);
	make_fill(b->vp, b->vfin, c->nr, c->words, b->mask);
	id = hvipi_vp_ident(b->vp, c->nr);
	if (c->vp_ident > id)
		c->vp_ident = id;
	memcpy(b->v0, b->vp, c->nr * sizeof(*b->vp));
	memcpy(b->svp, b->vp, c->nr * sizeof(*b->vp));
	rc.vp_entry = b->v0;
	rc.vp_final = b->vfin;
	rc.snap_vp = b->svp;
	rc.dirty = false;
	rc.filled = 0;
	rc.calls = 0;
	rc.mask_alone = 0;
	rc.last_w = -1;
	rc.changed_ahead = rc.changed_behind = false;
	rc.bits_changed = 0;
	rc.bad = 0;
	rc.armed = true;
}

/*
 * After the racing call: the counts, the hook's checks, the snapshot of
 * the masks (b->sm, b->sp) and of the table (b->svp, made by the hook),
 * the fill's own rule (the "table" check), the page's canary.
 */
static bool race_after(const struct rcase *c, struct bufs *b, const void *plan,
		       uint32_t kind, uint32_t reason, uint32_t bytes,
		       struct part *t)
{
	uint32_t i, words = c->words, nr = c->nr;
	bool ok = true, read_filled = false, filled_after = false;

	rc.armed = false;
	t->cases++;
	t->hook_calls += rc.calls;
	t->mask_alone += rc.mask_alone;
	if (kind < 6)
		t->kind[kind]++;
	if (reason < 7)
		t->reason[reason]++;
	if (rc.bits_changed) {
		t->flipped++;
		t->ahead += rc.changed_ahead;
		t->behind += rc.changed_behind;
		t->both += rc.changed_ahead && rc.changed_behind;
	}

	/* 1. the hook saw well-formed reads; 2. the snapshot */
	if (rc.bad) {
		report(c, plan, rc.why);
		t->fail_hook++;
		ok = false;
	} else if (rc.calls == 0) {
		report(c, plan, "no mask word read (core built without the race hook?)");
		t->fail_hook++;
		ok = false;
	}
	for (i = 0; i < words; i++) {
		b->sm[i] = rc.reads[i] ? rc.snap_mask[i] : b->m0[i];
		if (b->sp)
			b->sp[i] = rc.reads[i] && rc.present_read[i] ?
				   rc.snap_present[i] : b->p0[i];
	}
	for (i = 0; i < words && rc.reads[i]; i++)
		;
	t->unread += i < words;

	/*
	 * the fill kept its rule; where it fell against the core's reads
	 * (nothing to see when neither the table nor its snapshot moved)
	 */
	for (i = memcmp(b->vp, b->v0, nr * sizeof(*b->vp)) ||
		 memcmp(b->svp, b->v0, nr * sizeof(*b->vp)) ? 0 : nr; i < nr; i++) {
		uint32_t e = b->v0[i], x = b->vp[i], s = b->svp[i], f;

		if (x == e && s == e)		/* not filled */
			continue;
		f = b->vfin[i];
		if ((e != f && e != GEN_INVAL) || (x != e && x != f) ||
		    (s != e && s != f) || (s == f && x != f)) {
			report(c, plan, "table: an entry left the fill's rule (harness)");
			fprintf(stderr, "  cpu %u: at entry %#x, final %#x, read %#x, at the end %#x\n",
				i, e, f, s, x);
			t->fail_table++;
			ok = false;
			break;
		}
		if (!gen_test_bit(b->sm, i))
			continue;
		read_filled |= s != e;		/* filled before the core read it */
		filled_after |= x != s;		/* filled after the core read it */
	}
	if (rc.filled) {
		t->fill_cases++;
		t->filled += rc.filled;
		t->read_filled += read_filled;
		t->filled_after += filled_after;
	}

	/* 1. memory */
	if (bytes > c->page_size) {
		report(c, plan, "plan.bytes > page_size");
		t->fail_mem++;
		ok = false;
	} else if (c->have_page &&
		   memcmp((uint8_t *)b->page + bytes, canary_page + bytes,
			  c->page_size - bytes)) {
		for (i = bytes; i < c->page_size; i++) {
			if (((uint8_t *)b->page)[i] != canary(i)) {
				report(c, plan, "page byte at or beyond plan.bytes changed");
				fprintf(stderr, "  first changed byte %u\n", i);
				t->fail_mem++;
				ok = false;
				break;
			}
		}
	}
	return ok;
}

/* ---- the cases ---- */

static struct or_sets sets;	/* big: static, zeroed once */
static struct fsets fsets;

/*
 * The start of every case, IPI or flush: the generator seeded from the
 * case's index (and @seed, which a flush case salts), its size, buffers
 * and VP table (the final table kept in b->vfin).
 */
static void case_begin(struct rcase *c, struct bufs *b, uint64_t seed,
		       uint64_t index)
{
	gen_state = seed ^ (index * 0xd1342543de82ef95ull);
	gen_rnd();
	memset(c, 0, sizeof(*c));
	c->index = index;
	c->nr = pick_nr();
	c->words = HVIPI_MASK_WORDS(c->nr);
	bufs_alloc(b, c->nr, true);
	c->vp = b->vp;
	c->vp_ident = make_table(b->vp, c->nr);
	memcpy(b->vfin, b->vp, c->nr * sizeof(*b->vp));
}

/*
 * The masks of a case, IPI or flush, after c->self: a present mask on 70 %
 * of cases (else none), the mask, and on a quarter of those with a present
 * mask, present = mask (the "all" format, ALL_PROCESSORS), one bit in
 * three times flipped again.
 */
static void case_masks(struct rcase *c, struct bufs *b)
{
	uint32_t w;

	if (gen_below(100) >= 30) {
		make_present(b->present, c->words, c->nr);
		c->have_present = true;
	} else {
		free(b->present);
		free(b->sp);
		b->present = b->sp = NULL;
	}
	make_mask(b->mask, c->words, c->nr, c->self, b->present);
	if (b->present && gen_chance(1, 4)) {
		memcpy(b->present, b->mask, c->words * sizeof(unsigned long));
		if (gen_chance(1, 3)) {
			w = gen_below(c->words);
			b->present[w] ^= 1ul << gen_below(LONG_BITS);
		}
	}
}

static bool run_case(uint64_t seed, uint64_t index, struct part *t,
		     struct ck_stats *ck)
{
	struct rcase c;
	struct bufs b;
	uint32_t nr;
	struct hvipi_plan *plan, *plan2;
	struct ck_case ckc;
	bool ok = true;

	case_begin(&c, &b, seed, index);
	nr = c.nr;
	plan = gen_xmalloc(sizeof(*plan));
	plan2 = gen_xmalloc(sizeof(*plan2));
	c.self = gen_chance(1, 16) ? nr + gen_below(4) : gen_below(nr);
	c.excl = gen_chance(1, 2);
	case_masks(&c, &b);
	c.vector = gen_vector(&vector_mix);
	c.hints = gen_chance(1, 10) ? gen_below(8) :
		  HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS |
		  (gen_chance(1, 2) ? HVIPI_HINT_XMM_INPUT : 0u);
	bufs_page(&b, &c);
	memset(plan, 0x5a, sizeof(*plan));
	memset(plan2, 0x5a, sizeof(*plan2));

	/* the racing call */
	race_arm(&c, &b);
	hvipi_plan_mask(plan, b.mask, b.present, nr, b.vp, c.vp_ident, c.self,
			c.excl, c.vector, c.hints, b.page, c.page_size);
	ok = race_after(&c, &b, plan, plan->kind, plan->reason, plan->bytes, t);

	/* 3. identity with a sequential call on the snapshot */
	hvipi_plan_mask(plan2, b.sm, b.sp, nr, b.svp, c.vp_ident, c.self, c.excl,
			c.vector, c.hints, b.page2, c.page_size);
	if (memcmp(plan, plan2, sizeof(*plan)) ||
	    (c.have_page && memcmp(b.page, b.page2, c.page_size))) {
		report(&c, plan, "racing plan/page differ from the sequential call on the snapshot");
		fprintf(stderr, "  sequential plan: kind=%s reason=%u banks=%u bytes=%u vbm=%#" PRIx64 "\n",
			ck_kind_name(plan2->kind),
			plan2->reason, plan2->banks, plan2->bytes,
			plan2->valid_bank_mask);
		t->fail_ident++;
		ok = false;
	}

	/* 4. the racing plan against the oracle and the receiver */
	or_sets(&sets, b.sm, b.sp, nr, b.svp, c.self, c.excl);
	if (!check_oracle(&c, plan, b.page, &sets)) {
		t->fail_oracle++;
		ok = false;
	}

	/* 5. the full checker on the snapshot case */
	memset(&ckc, 0, sizeof(ckc));
	ckc.mask = b.sm;
	ckc.present = b.sp;
	ckc.nr = nr;
	ckc.vp = b.svp;
	ckc.self = c.self;
	ckc.excl = c.excl;
	ckc.vector = c.vector;
	ckc.hints = c.hints;
	ckc.have_page = c.have_page;
	ckc.page_size = c.page_size;
	if (!ck_run(&ckc, &sets, ck, false)) {
		fprintf(stderr, "  (ck_run on the snapshot of case %" PRIu64 ")\n",
			index);
		t->fail_ck++;
		ok = false;
	}

	if (!ok)
		t->failures++;
	bufs_free(&b);
	free(plan);
	free(plan2);
	return ok;
}

/*
 * A hvipi_plan_flush case: drawn as a hvipi_plan_mask case is (nr_cpu_ids,
 * table, present mask, mask, page), with a random CPU for the flips'
 * "self" (a flush keeps every CPU of the mask); then the flush's hints
 * (remote flush and Ex mostly, remote flush alone, or any), address
 * space, range and options.
 */
static bool run_flush_case(uint64_t seed, uint64_t index, struct part *t)
{
	struct rcase c;
	struct bufs b;
	uint32_t nr, r;
	struct hvipi_flush_plan *plan, *plan2;
	bool ok = true;

	case_begin(&c, &b, seed ^ FLUSH_SALT, index);
	c.flush = true;
	nr = c.nr;
	plan = gen_xmalloc(sizeof(*plan));
	plan2 = gen_xmalloc(sizeof(*plan2));
	c.self = gen_below(nr);
	case_masks(&c, &b);
	r = gen_below(100);
	c.hints = r < 8 ? gen_below(16) : r < 18 ? HVIPI_HINT_REMOTE_FLUSH :
		  HVIPI_HINT_REMOTE_FLUSH | HVIPI_HINT_EX_MASKS;
	make_range(&c.space, &c.start, &c.end, &c.opts);
	bufs_page(&b, &c);
	memset(plan, 0x5a, sizeof(*plan));
	memset(plan2, 0x5a, sizeof(*plan2));

	/* the racing call */
	race_arm(&c, &b);
	hvipi_plan_flush(plan, b.mask, b.present, nr, b.vp, c.vp_ident, c.space,
			 c.start, c.end, c.opts, c.hints, b.page, c.page_size);
	ok = race_after(&c, &b, plan, plan->kind, plan->reason, plan->bytes, t);

	/* 3. identity with a sequential call on the snapshot */
	hvipi_plan_flush(plan2, b.sm, b.sp, nr, b.svp, c.vp_ident, c.space,
			 c.start, c.end, c.opts, c.hints, b.page2, c.page_size);
	if (memcmp(plan, plan2, sizeof(*plan)) ||
	    (c.have_page && memcmp(b.page, b.page2, c.page_size))) {
		report(&c, plan, "racing plan/page differ from the sequential call on the snapshot");
		fprintf(stderr, "  sequential plan: kind=%u reason=%u banks=%u gvas=%u bytes=%u vbm=%#" PRIx64 "\n",
			plan2->kind, plan2->reason, plan2->banks, plan2->gvas,
			plan2->bytes, plan2->valid_bank_mask);
		t->fail_ident++;
		ok = false;
	}

	/* 4. the rules and the flush receiver on the snapshot */
	flush_sets(&fsets, b.sm, b.sp, nr, b.svp);
	if (!check_flush(&c, plan, b.page, &fsets)) {
		t->fail_oracle++;
		ok = false;
	}

	if (!ok)
		t->failures++;
	bufs_free(&b);
	free(plan);
	free(plan2);
	return ok;
}

/* ---- main ---- */

static void print_part(const char *name, const struct part *t)
{
	printf("race: %s: hook calls %" PRIu64 " (mask word alone %" PRIu64 "); cases with a bit flipped during the call %" PRIu64
	       " (a word changed before the core read it: %" PRIu64 ", after: %" PRIu64 ", both: %" PRIu64 ")"
	       "; cases with a word never read %" PRIu64 "\n",
	       name, t->hook_calls, t->mask_alone, t->flipped, t->ahead,
	       t->behind, t->both, t->unread);
	printf("race: %s: VP table: cases with entries filled during the call %" PRIu64 " (entries %" PRIu64
	       "); of which a target's entry filled before the core read it %" PRIu64 ", after %" PRIu64 "\n",
	       name, t->fill_cases, t->filled, t->read_filled, t->filled_after);
	printf("race: %s: failed checks: hook %" PRIu64 ", table %" PRIu64 ", memory %" PRIu64 ", identity %" PRIu64 ", oracle/receiver %" PRIu64 ", ck_run %" PRIu64 "\n",
	       name, t->fail_hook, t->fail_table, t->fail_mem, t->fail_ident,
	       t->fail_oracle, t->fail_ck);
}

int main(int argc, char **argv)
{
	uint64_t seed = SEED_DEFAULT, ncases = 1000000, first = 0, i;
	struct part tm, tf;
	struct ck_stats ck;
	struct timespec t0, t1;
	double secs;

	gen_args(argc, argv, &seed, &ncases);
	gen_arg(argc, argv, 0, "HVIPI_FIRST", &first);
	printf("race: seed %#" PRIx64 " (rerun: HVIPI_SEED=%#" PRIx64 "), cases %" PRIu64 " .. %" PRIu64 " (each a hvipi_plan_mask case; those that are multiples of %u also a hvipi_plan_flush case), nr_cpu_ids 1..%u\n",
	       seed, seed, first, first + ncases - 1u, FLUSH_EVERY, NR_MAX);
	fflush(stdout);
	memset(&tm, 0, sizeof(tm));
	memset(&tf, 0, sizeof(tf));
	memset(&ck, 0, sizeof(ck));
	memset(every_vp, 0xff, sizeof(every_vp));
	for (i = 0; i < NR_MAX; i++)
		pend_pos[i] = PEND_NONE;
	for (i = 0; i < sizeof(canary_page); i++)
		canary_page[i] = canary((uint32_t)i);
	ck_max_reports = MAX_REPORTS;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = first; i < first + ncases; i++) {
		run_case(seed, i, &tm, &ck);
		if (i % FLUSH_EVERY == 0)
			run_flush_case(seed, i, &tf);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

	printf("race: plan_mask: racing plans: NONE=%" PRIu64 " FAST=%" PRIu64 " EX_SPARSE=%" PRIu64 " EX_ALL=%" PRIu64 " FALLBACK=%" PRIu64 " EX_XMM=%" PRIu64 "\n",
	       tm.kind[0], tm.kind[1], tm.kind[2], tm.kind[3], tm.kind[4], tm.kind[5]);
	printf("race: plan_mask: fallback reasons: NOT_RECOMMENDED=%" PRIu64 " BAD_VECTOR=%" PRIu64 " VP_UNKNOWN=%" PRIu64 " EX_NOT_RECOMMENDED=%" PRIu64 " VP_TOO_BIG=%" PRIu64 " NO_PAGE=%" PRIu64 "\n",
	       tm.reason[1], tm.reason[2], tm.reason[3], tm.reason[4], tm.reason[5],
	       tm.reason[6]);
	print_part("plan_mask", &tm);
	printf("race: plan_flush: racing plans: NONE=%" PRIu64 " SPACE=%" PRIu64 " LIST=%" PRIu64 " SPACE_EX=%" PRIu64 " LIST_EX=%" PRIu64 " FALLBACK=%" PRIu64 "\n",
	       tf.kind[0], tf.kind[1], tf.kind[2], tf.kind[3], tf.kind[4], tf.kind[5]);
	printf("race: plan_flush: fallback reasons: NOT_RECOMMENDED=%" PRIu64 " VP_UNKNOWN=%" PRIu64 " EX_NOT_RECOMMENDED=%" PRIu64 " VP_TOO_BIG=%" PRIu64 " NO_PAGE=%" PRIu64 "\n",
	       tf.reason[1], tf.reason[3], tf.reason[4], tf.reason[5], tf.reason[6]);
	print_part("plan_flush", &tf);
	printf("race: seed %#" PRIx64 ", %" PRIu64 " cases (plan_mask %" PRIu64 ", plan_flush %" PRIu64 "), %" PRIu64 " failed (plan_mask %" PRIu64 ", plan_flush %" PRIu64 "), %.1f s\n",
	       seed, tm.cases + tf.cases, tm.cases, tf.cases,
	       tm.failures + tf.failures, tm.failures, tf.failures, secs);
	ck_write_counts(tm.cases + tf.cases - tm.failures - tf.failures,
			tm.failures + tf.failures);
	return tm.failures + tf.failures ? 1 : 0;
}
