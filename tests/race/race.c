/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * race: hvipi_plan_mask() while its masks change under it.
 *
 * The kernel's masks (cpu_online_mask and co.) may change while a send
 * runs.  The core is built with -DHVIPI_RACE_HOOK: it calls
 * hvipi_race_hook() once per mask word w it reads, right after reading
 * mask[w] (value m) and present[w] (value p, 0 without a present mask),
 * and hvipi_race_hook_mask() when it reads mask[w] alone (once the
 * present mask decides nothing more; present[w] then keeps its value at
 * entry in the snapshot).  The hooks defined here
 *  - checks the read: w < mask_words(nr), never read before in this call,
 *    above every word read before, m and p the words in memory, the
 *    pointers the ones the case passed;
 *  - records the snapshot: snap_mask[w] = m, snap_present[w] = p;
 *  - then, with the case's probability, flips random bits below
 *    nr_cpu_ids of the caller's mask and present words, words already
 *    read and words not read yet alike (CPUs near the top, self, CPUs
 *    with high or unknown VPs, the same CPU in both masks).
 *
 * After the racing call, each case checks
 *  1. memory: the page is a heap object of exactly page_size bytes and
 *     the plan one of exactly sizeof(struct hvipi_plan) (ASan sees any
 *     overrun); plan.bytes <= page_size; the page bytes at and beyond
 *     plan.bytes keep their canary;
 *  2. the snapshot: the masks as the core read them (words it did not
 *     read: their values at entry); at least one word read;
 *  3. identity: hvipi_plan_mask() called without racing on the snapshot
 *     (same vp_ident, page and plan filled the same way) gives the same
 *     plan, byte for byte, and the same page, byte for byte: the racing
 *     call behaved exactly like a sequential call on the snapshot;
 *  4. the racing plan against the oracle on the snapshot (kind, reason,
 *     banks, bytes) and, when it sends, decoded by the receiver model
 *     (FAST from r8, EX_SPARSE and EX_ALL from the page, EX_XMM from
 *     plan.input): the VPs interrupted are the snapshot's target VPs;
 *  5. ck_run() (tests/common/check.c) on the snapshot case: the sequential
 *     plan against the oracle and the KVM and Xen receivers, with other
 *     vp_ident values too.
 *
 * Usage: race [SEED [CASES]]  or env HVIPI_SEED, HVIPI_CASES (default
 * 1000000); HVIPI_FIRST: index of the first case (each case has its own
 * generator, from the seed and its index, so one case can be rerun alone:
 * HVIPI_SEED=s HVIPI_FIRST=i HVIPI_CASES=1).  Writes $HVIPI_COUNTS.
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

/* Defined here, called by the core built with -DHVIPI_RACE_HOOK. */
void hvipi_race_hook(const unsigned long *mask, const unsigned long *present,
		     uint32_t w, unsigned long m, unsigned long p);
void hvipi_race_hook_mask(const unsigned long *mask, uint32_t w,
			  unsigned long m);

#define NR_MAX		8192u
#define WORDS_MAX	HVIPI_MASK_WORDS(NR_MAX)
#define LONG_BITS	GEN_LONG_BITS
#define SEED_DEFAULT	0x7261636568767069ull	/* "racehvpi" */
#define MAX_REPORTS	10u

/* ---- the racing state the hook works on ---- */

static struct {
	bool armed;			/* racing call in progress */
	unsigned long *mask, *present;	/* the case's masks (the hook writes) */
	uint32_t nr, words, self;
	const uint32_t *vp;
	uint32_t rate;			/* flip chance per read, of 1024 */
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

/*
 * One read of mask word w (and of present word w when with_present):
 * the checks and the snapshot of hvipi_race_hook() and
 * hvipi_race_hook_mask().  A present word read without a present mask
 * is p == 0.
 */
static void race_read(const unsigned long *present, uint32_t w,
		      unsigned long m, unsigned long p, bool with_present)
{
	const unsigned long *mask = rc.mask;


	if (w >= rc.words) {
		rc_violation("hook: word %u read, beyond mask_words(nr) = %u",
			     w, rc.words);
		return;
	}
	if (rc.reads[w])
		rc_violation("hook: word %u read twice (reads so far %u)", w,
			     rc.reads[w]);
	else if ((int32_t)w <= rc.last_w)
		rc_violation("hook: word %u read after word %u (not increasing)",
			     w, (uint32_t)rc.last_w);
	if (m != mask[w] ||
	    (with_present && p != (present ? present[w] : 0ul)))
		rc_violation("hook: word %u: the values passed are not the words in memory",
			     w, 0);
	if (!rc.reads[w]) {
		rc.snap_mask[w] = m;
		rc.snap_present[w] = p;
		rc.present_read[w] = with_present;
	}
	if (rc.reads[w] < 255u)
		rc.reads[w]++;
	if ((int32_t)w > rc.last_w)
		rc.last_w = (int32_t)w;
	race_flip(w);
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
	race_read(present, w, m, p, true);
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
	race_read(rc.present, w, m, 0, false);
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

/* ---- checks ---- */

struct rcase {
	uint64_t index;
	uint32_t nr, words, vp_ident, self, vector, hints, page_size;
	bool excl, have_page, have_present;
	const uint32_t *vp;
};

static unsigned int reports;

static void report(const struct rcase *c, const struct hvipi_plan *p,
		   const char *what)
{
	if (reports++ >= MAX_REPORTS)
		return;
	fprintf(stderr, "FAIL case %" PRIu64 ": %s\n  nr=%u vp_ident=%u self=%u excl=%d vector=%#x hints=%#x page=%s/%u present=%s rate=%u/1024 hook calls=%u bits changed=%u\n",
		c->index, what, c->nr, c->vp_ident, c->self, c->excl,
		c->vector, c->hints, c->have_page ? "yes" : "NULL",
		c->page_size, c->have_present ? "yes" : "NULL", rc.rate,
		rc.calls, rc.bits_changed);
	if (p)
		fprintf(stderr, "  racing plan: kind=%s reason=%u banks=%u bytes=%u vbm=%#" PRIx64 "\n",
			ck_kind_name(p->kind), p->reason,
			p->banks, p->bytes, p->valid_bank_mask);
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

/* ---- main ---- */

struct totals {
	uint64_t cases, failures, kind[6], reason[7];
	uint64_t hook_calls, mask_alone, flipped, ahead, behind, both, unread;
	uint64_t fail_hook, fail_mem, fail_ident, fail_oracle, fail_ck;
};

static struct or_sets sets;	/* big: static, zeroed once */

static bool run_case(uint64_t seed, uint64_t index, struct totals *t,
		     struct ck_stats *ck)
{
	struct rcase c;
	uint32_t nr, words, i, r;
	size_t wbytes;
	unsigned long *mask, *present = NULL, *m0, *p0, *sm, *sp = NULL;
	uint32_t *vp;
	uint64_t *page = NULL, *page2 = NULL;
	struct hvipi_plan *plan, *plan2;
	struct ck_case ckc;
	bool ok = true;

	gen_state = seed ^ (index * 0xd1342543de82ef95ull);
	gen_rnd();
	memset(&c, 0, sizeof(c));
	c.index = index;
	c.nr = nr = pick_nr();
	c.words = words = HVIPI_MASK_WORDS(nr);
	wbytes = words * sizeof(unsigned long);

	/* every object on its own, of its exact size */
	mask = gen_xmalloc(wbytes);
	m0 = gen_xmalloc(wbytes);
	p0 = gen_xmalloc(wbytes);
	sm = gen_xmalloc(wbytes);
	vp = gen_xmalloc(nr * sizeof(*vp));
	plan = gen_xmalloc(sizeof(*plan));
	plan2 = gen_xmalloc(sizeof(*plan2));

	c.vp = vp;
	c.vp_ident = make_table(vp, nr);
	c.self = gen_chance(1, 16) ? nr + gen_below(4) : gen_below(nr);
	c.excl = gen_chance(1, 2);
	r = gen_below(100);
	if (r >= 30) {
		present = gen_xmalloc(wbytes);
		sp = gen_xmalloc(wbytes);
		make_present(present, words, nr);
		c.have_present = true;
	}
	make_mask(mask, words, nr, c.self, present);
	if (present && gen_chance(1, 4)) {		/* present = mask (all format) */
		memcpy(present, mask, wbytes);
		if (gen_chance(1, 3))
			present[gen_below(words)] ^= 1ul << gen_below(LONG_BITS);
	}
	c.vector = gen_vector(&vector_mix);
	c.hints = gen_chance(1, 10) ? gen_below(8) :
		  HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS |
		  (gen_chance(1, 2) ? HVIPI_HINT_XMM_INPUT : 0u);
	r = gen_below(100);
	c.have_page = r >= 8;
	c.page_size = r < 8 ? 0 : r < 65 ? 4096u : r < 85 ? gen_below(600) :
		      gen_below(4097);
	if (c.have_page) {
		page = gen_xmalloc(c.page_size);
		page2 = gen_xmalloc(c.page_size);
		for (i = 0; i < c.page_size; i++)
			((uint8_t *)page)[i] = ((uint8_t *)page2)[i] = canary(i);
	}
	memset(plan, 0x5a, sizeof(*plan));
	memset(plan2, 0x5a, sizeof(*plan2));
	memcpy(m0, mask, wbytes);
	if (present)
		memcpy(p0, present, wbytes);

	/* the racing call */
	memset(rc.reads, 0, words);
	rc.mask = mask;
	rc.present = present;
	rc.nr = nr;
	rc.words = words;
	rc.self = c.self;
	rc.vp = vp;
	r = gen_below(100);
	rc.rate = r < 15 ? 0 : r < 40 ? 1024u : r < 70 ? 1u + gen_below(256) :
		  1u + gen_below(2048u / words + 1u);
	rc.calls = 0;
	rc.mask_alone = 0;
	rc.last_w = -1;
	rc.changed_ahead = rc.changed_behind = false;
	rc.bits_changed = 0;
	rc.bad = 0;
	rc.armed = true;
	hvipi_plan_mask(plan, mask, present, nr, vp, c.vp_ident, c.self, c.excl,
			c.vector, c.hints, page, c.page_size);
	rc.armed = false;

	t->cases++;
	t->hook_calls += rc.calls;
	t->mask_alone += rc.mask_alone;
	if (plan->kind < 6)
		t->kind[plan->kind]++;
	if (plan->reason < 7)
		t->reason[plan->reason]++;
	if (rc.bits_changed) {
		t->flipped++;
		t->ahead += rc.changed_ahead;
		t->behind += rc.changed_behind;
		t->both += rc.changed_ahead && rc.changed_behind;
	}

	/* 1. the hook saw well-formed reads; 2. the snapshot */
	if (rc.bad) {
		report(&c, plan, rc.why);
		t->fail_hook++;
		ok = false;
	} else if (rc.calls == 0) {
		report(&c, plan, "no mask word read (core built without the race hook?)");
		t->fail_hook++;
		ok = false;
	}
	for (i = 0; i < words; i++) {
		sm[i] = rc.reads[i] ? rc.snap_mask[i] : m0[i];
		if (sp)
			sp[i] = rc.reads[i] && rc.present_read[i] ?
				rc.snap_present[i] : p0[i];
	}
	for (i = 0; i < words && rc.reads[i]; i++)
		;
	t->unread += i < words;

	/* 1. memory */
	if (plan->bytes > c.page_size) {
		report(&c, plan, "plan.bytes > page_size");
		t->fail_mem++;
		ok = false;
	} else if (c.have_page) {
		for (i = plan->bytes; i < c.page_size; i++) {
			if (((uint8_t *)page)[i] != canary(i)) {
				report(&c, plan, "page byte at or beyond plan.bytes changed");
				fprintf(stderr, "  first changed byte %u\n", i);
				t->fail_mem++;
				ok = false;
				break;
			}
		}
	}

	/* 3. identity with a sequential call on the snapshot */
	hvipi_plan_mask(plan2, sm, sp, nr, vp, c.vp_ident, c.self, c.excl,
			c.vector, c.hints, page2, c.page_size);
	if (memcmp(plan, plan2, sizeof(*plan)) ||
	    (c.have_page && memcmp(page, page2, c.page_size))) {
		report(&c, plan, "racing plan/page differ from the sequential call on the snapshot");
		fprintf(stderr, "  sequential plan: kind=%s reason=%u banks=%u bytes=%u vbm=%#" PRIx64 "\n",
			ck_kind_name(plan2->kind),
			plan2->reason, plan2->banks, plan2->bytes,
			plan2->valid_bank_mask);
		t->fail_ident++;
		ok = false;
	}

	/* 4. the racing plan against the oracle and the receiver */
	or_sets(&sets, sm, sp, nr, vp, c.self, c.excl);
	if (!check_oracle(&c, plan, page, &sets)) {
		t->fail_oracle++;
		ok = false;
	}

	/* 5. the full checker on the snapshot case */
	memset(&ckc, 0, sizeof(ckc));
	ckc.mask = sm;
	ckc.present = sp;
	ckc.nr = nr;
	ckc.vp = vp;
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
	free(mask);
	free(present);
	free(m0);
	free(p0);
	free(sm);
	free(sp);
	free(vp);
	free(page);
	free(page2);
	free(plan);
	free(plan2);
	return ok;
}

int main(int argc, char **argv)
{
	uint64_t seed = SEED_DEFAULT, ncases = 1000000, first = 0, i;
	struct totals t;
	struct ck_stats ck;
	struct timespec t0, t1;
	double secs;

	gen_args(argc, argv, &seed, &ncases);
	gen_arg(argc, argv, 0, "HVIPI_FIRST", &first);
	printf("race: seed %#" PRIx64 " (rerun: HVIPI_SEED=%#" PRIx64 "), cases %" PRIu64 " .. %" PRIu64 ", nr_cpu_ids 1..%u\n",
	       seed, seed, first, first + ncases - 1u, NR_MAX);
	fflush(stdout);
	memset(&t, 0, sizeof(t));
	memset(&ck, 0, sizeof(ck));
	ck_max_reports = MAX_REPORTS;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = first; i < first + ncases; i++)
		run_case(seed, i, &t, &ck);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

	printf("race: racing plans: NONE=%" PRIu64 " FAST=%" PRIu64 " EX_SPARSE=%" PRIu64 " EX_ALL=%" PRIu64 " FALLBACK=%" PRIu64 " EX_XMM=%" PRIu64 "\n",
	       t.kind[0], t.kind[1], t.kind[2], t.kind[3], t.kind[4], t.kind[5]);
	printf("race: fallback reasons: NOT_RECOMMENDED=%" PRIu64 " BAD_VECTOR=%" PRIu64 " VP_UNKNOWN=%" PRIu64 " EX_NOT_RECOMMENDED=%" PRIu64 " VP_TOO_BIG=%" PRIu64 " NO_PAGE=%" PRIu64 "\n",
	       t.reason[1], t.reason[2], t.reason[3], t.reason[4], t.reason[5],
	       t.reason[6]);
	printf("race: hook calls %" PRIu64 " (mask word alone %" PRIu64 "); cases with a bit flipped during the call %" PRIu64
	       " (a word changed before the core read it: %" PRIu64 ", after: %" PRIu64 ", both: %" PRIu64 ")"
	       "; cases with a word never read %" PRIu64 "\n",
	       t.hook_calls, t.mask_alone, t.flipped, t.ahead, t.behind, t.both, t.unread);
	printf("race: failed checks: hook %" PRIu64 ", memory %" PRIu64 ", identity %" PRIu64 ", oracle/receiver %" PRIu64 ", ck_run %" PRIu64 "\n",
	       t.fail_hook, t.fail_mem, t.fail_ident, t.fail_oracle, t.fail_ck);
	printf("race: seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failed, %.1f s\n",
	       seed, t.cases, t.failures, secs);
	ck_write_counts(t.cases - t.failures, t.failures);
	return t.failures ? 1 : 0;
}
