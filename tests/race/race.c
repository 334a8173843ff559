/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * race: hvipi_plan_mask() while its masks change under it.
 *
 * The kernel's masks (cpu_online_mask and co.) may change while a send
 * runs.  The core is built with -DHVIPI_RACE_HOOK: it calls
 * hvipi_race_hook() once per mask word w it reads, right after reading
 * mask[w] (value m) and present[w] (value p, 0 without a present mask).
 * The hook defined here
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
#include "hvipi.h"
#include "oracle.h"
#include "rx.h"

/* Defined here, called by the core built with -DHVIPI_RACE_HOOK. */
void hvipi_race_hook(const unsigned long *mask, const unsigned long *present,
		     uint32_t w, unsigned long m, unsigned long p);

#define NR_MAX		8192u
#define WORDS_MAX	HVIPI_MASK_WORDS(NR_MAX)
#define LONG_BITS	64u
#define INVAL		0xffffffffu
#define SEED_DEFAULT	0x7261636568767069ull	/* "racehvpi" */
#define MAX_REPORTS	10u

_Static_assert(sizeof(unsigned long) == 8, "64-bit unsigned long");

/* ---- random numbers: splitmix64, one stream per case ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n), 0 when n == 0 */
static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool chance(uint32_t num, uint32_t den)
{
	return below(den) < num;
}

static void bit_set(unsigned long *m, uint32_t b)
{
	m[b / LONG_BITS] |= 1ul << (b % LONG_BITS);
}

/* ---- the racing state the hook works on ---- */

static struct {
	bool armed;			/* racing call in progress */
	unsigned long *mask, *present;	/* the case's masks (the hook writes) */
	uint32_t nr, words, self;
	const uint32_t *vp;
	uint32_t rate;			/* flip chance per read, of 1024 */
	uint32_t calls;			/* hook calls this case */
	int32_t last_w;			/* highest word read so far, -1 */
	uint8_t reads[WORDS_MAX];	/* reads of each word */
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

	switch (below(8)) {
	case 0:			/* in a word already read (or the current one) */
		cpu = below(w + 1u) * LONG_BITS + below(LONG_BITS);
		break;
	case 1:			/* in a word not read yet */
		if (w + 1u < rc.words) {
			cpu = (w + 1u + below(rc.words - w - 1u)) * LONG_BITS +
			      below(LONG_BITS);
			break;
		}
		cpu = below(nr);
		break;
	case 2:			/* near the top, far from the words read */
		cpu = nr - 1u - below(nr < 64u ? nr : 64u);
		break;
	case 3:			/* self */
		cpu = rc.self < nr ? rc.self : below(nr);
		break;
	case 4:			/* a CPU with a high, huge or unknown VP */
		for (tries = 0, cpu = below(nr); tries < 8u && rc.vp[cpu] < 64u;
		     tries++)
			cpu = below(nr);
		break;
	default:
		cpu = below(nr);
		break;
	}
	return cpu < nr ? cpu : below(nr);
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

	if (rc.rate == 0 || below(1024) >= rc.rate)
		return;
	n = 1u + (chance(1, 4) ? below(8) : 0);
	for (k = 0; k < n; k++) {
		uint32_t cpu = flip_cpu(w), op = below(3);
		uint32_t where = rc.present ? below(4) : 0;

		/* 0, 1: mask; 2: present; 3: both (a CPU comes or goes) */
		if (where == 3) {
			op = below(2);
			if (flip_bit(rc.mask, cpu, op))
				rc_note_change(cpu, w);
			if (flip_bit(rc.present, cpu, op))
				rc_note_change(cpu, w);
		} else if (flip_bit(where == 2 ? rc.present : rc.mask, cpu, op)) {
			rc_note_change(cpu, w);
		}
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
	if (m != mask[w] || p != (present ? present[w] : 0ul))
		rc_violation("hook: word %u: the values passed are not the words in memory",
			     w, 0);
	if (!rc.reads[w]) {
		rc.snap_mask[w] = m;
		rc.snap_present[w] = p;
	}
	if (rc.reads[w] < 255u)
		rc.reads[w]++;
	if ((int32_t)w > rc.last_w)
		rc.last_w = (int32_t)w;
	race_flip(w);
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
	uint32_t r = below(100);

	if (r < 20)
		return edges[below(sizeof(edges) / sizeof(edges[0]))];
	if (r < 45)
		return 1u + below(64);
	if (r < 65)
		return 65u + below(448);
	if (r < 75) {		/* a multiple of 64, give or take one */
		uint32_t nr = (1u + below(NR_MAX / 64u)) * 64u - 1u + below(3);

		return nr > NR_MAX ? NR_MAX : nr;
	}
	if (r < 92)
		return 513u + below(4096u - 512u);
	return 4097u + below(NR_MAX - 4096u);
}

/* A VP table; returns a vp_ident to pass (<= hvipi_vp_ident()). */
static uint32_t make_table(uint32_t *vp, uint32_t nr)
{
	uint32_t c, r = below(100), start, id;

	if (r < 25) {				/* identity */
		for (c = 0; c < nr; c++)
			vp[c] = c;
	} else if (r < 45) {			/* identity prefix, then permuted */
		start = below(nr + 1u);
		for (c = 0; c < nr; c++)
			vp[c] = c;
		for (c = nr - 1u; c > start; c--) {
			uint32_t j = start + below(c - start + 1u), t = vp[c];

			vp[c] = vp[j];
			vp[j] = t;
		}
	} else if (r < 55) {			/* permutation */
		for (c = 0; c < nr; c++)
			vp[c] = c;
		for (c = nr - 1u; c > 0; c--) {
			uint32_t j = below(c + 1u), t = vp[c];

			vp[c] = vp[j];
			vp[j] = t;
		}
	} else if (r < 70) {			/* identity prefix, then sparse high */
		start = below(nr + 1u);
		for (c = 0; c < nr; c++)
			vp[c] = c < start ? c : below(4096);
	} else if (r < 80) {			/* stride: sparse VPs */
		uint32_t spread = 1u + below(nr >= 4096u ? 1u : 4096u / nr);

		for (c = 0; c < nr; c++)
			vp[c] = c * spread;
	} else if (r < 90) {			/* random, few banks or many */
		uint32_t lim = chance(1, 3) ? 64u : chance(1, 2) ? 1024u : 4096u;

		for (c = 0; c < nr; c++)
			vp[c] = below(lim);
	} else {				/* identity with local swaps */
		for (c = 0; c < nr; c++)
			vp[c] = c;
		for (c = 0; c < 1u + nr / 32u; c++) {
			uint32_t a = below(nr), b = below(nr), t = vp[a];

			vp[a] = vp[b];
			vp[b] = t;
		}
	}
	if (chance(1, 8))
		for (c = 1u + below(3); c; c--)
			vp[below(nr)] = INVAL;
	if (chance(1, 16))
		vp[below(nr)] = 4096u + below(100000);
	if (chance(1, 30))
		vp[below(nr)] = 0xfffffffeu;
	if (chance(1, 8))
		vp[nr - 1u] = 64u + below(4032);
	id = hvipi_vp_ident(vp, nr);
	r = below(100);
	return r < 60 ? id : r < 75 ? 0 : below(id + 1u);
}

static void make_present(unsigned long *pr, uint32_t words, uint32_t nr)
{
	uint32_t c, holes;

	memset(pr, 0, words * sizeof(*pr));
	for (c = 0; c < nr; c++)
		bit_set(pr, c);
	if (chance(1, 2))
		for (holes = below(4); holes; holes--)
			pr[below(nr) / LONG_BITS] &= ~(1ul << below(LONG_BITS));
	if (nr % LONG_BITS && chance(1, 6))	/* garbage beyond nr */
		pr[words - 1u] |= ~0ul << (nr % LONG_BITS);
}

static void make_mask(unsigned long *m, uint32_t words, uint32_t nr,
		      uint32_t self, const unsigned long *pr)
{
	uint32_t r = below(100), c, k;

	memset(m, 0, words * sizeof(*m));
	if (r < 4) {
		/* empty */
	} else if (r < 14) {			/* one CPU, often self */
		bit_set(m, chance(1, 3) && self < nr ? self : below(nr));
	} else if (r < 34) {			/* a few */
		for (k = 1u + below(12); k; k--)
			bit_set(m, below(nr));
	} else if (r < 54) {			/* dense */
		uint32_t p = 1u + below(99);

		for (c = 0; c < nr; c++)
			if (below(100) < p)
				bit_set(m, c);
	} else if (r < 62) {			/* a range */
		uint32_t a = below(nr), b = a + below(nr - a);

		for (c = a; c <= b; c++)
			bit_set(m, c);
	} else if (r < 85 && pr) {		/* present, or nearly */
		memcpy(m, pr, words * sizeof(*m));
		if (chance(1, 3))
			m[below(words)] ^= 1ul << below(LONG_BITS);
	} else {				/* all */
		for (c = 0; c < nr; c++)
			bit_set(m, c);
	}
	if (nr % LONG_BITS && chance(1, 5))	/* garbage beyond nr */
		m[words - 1u] |= ~0ul << (nr % LONG_BITS);
}

static uint8_t canary(uint32_t i)
{
	return (uint8_t)(0xa7u ^ (i * 0x3bu));
}

/* ---- checks ---- */

static const char *const kind_name[6] = {
	"NONE", "FAST", "EX_SPARSE", "EX_ALL", "FALLBACK", "EX_XMM"
};

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
			p->kind < 6 ? kind_name[p->kind] : "?", p->reason,
			p->banks, p->bytes, p->valid_bank_mask);
}

/* The racing plan against the oracle on the snapshot, decoded. */
static bool check_oracle(const struct rcase *c, const struct hvipi_plan *p,
			 const uint64_t *page, const struct or_sets *s)
{
	struct or_expect e;
	struct rx_call call;
	struct rx_result r;
	uint32_t i;

	or_expect(&e, s, c->vector, c->hints, c->have_page, c->page_size);
	if (p->kind != e.kind || p->reason != e.reason) {
		report(c, p, "kind/reason differs from the oracle on the snapshot");
		fprintf(stderr, "  expected kind=%s reason=%u\n",
			kind_name[e.kind], e.reason);
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
	memset(&call, 0, sizeof(call));
	call.control = p->control;
	call.rdx = p->rdx;
	call.r8 = p->r8;
	if (p->kind == HVIPI_PLAN_EX_XMM) {
		call.has_xmm = true;
		for (i = 0; i < 12u; i++)
			call.xmm[i] = p->input[2u + i];
	} else if (p->kind != HVIPI_PLAN_FAST) {
		call.page = (const uint8_t *)page;
		call.page_size = p->bytes;
	}
	if (rx_decode(&call, &r) || !r.delivered || r.vector != c->vector) {
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
	uint64_t hook_calls, flipped, ahead, behind, both, unread;
	uint64_t fail_hook, fail_mem, fail_ident, fail_oracle, fail_ck;
};

static struct or_sets sets;	/* big: static, zeroed once */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

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

	rng = seed ^ (index * 0xd1342543de82ef95ull);
	rnd();
	memset(&c, 0, sizeof(c));
	c.index = index;
	c.nr = nr = pick_nr();
	c.words = words = HVIPI_MASK_WORDS(nr);
	wbytes = words * sizeof(unsigned long);

	/* every object on its own, of its exact size */
	mask = xmalloc(wbytes);
	m0 = xmalloc(wbytes);
	p0 = xmalloc(wbytes);
	sm = xmalloc(wbytes);
	vp = xmalloc(nr * sizeof(*vp));
	plan = xmalloc(sizeof(*plan));
	plan2 = xmalloc(sizeof(*plan2));

	c.vp = vp;
	c.vp_ident = make_table(vp, nr);
	c.self = chance(1, 16) ? nr + below(4) : below(nr);
	c.excl = chance(1, 2);
	r = below(100);
	if (r >= 30) {
		present = xmalloc(wbytes);
		sp = xmalloc(wbytes);
		make_present(present, words, nr);
		c.have_present = true;
	}
	make_mask(mask, words, nr, c.self, present);
	if (present && chance(1, 4)) {		/* present = mask (all format) */
		memcpy(present, mask, wbytes);
		if (chance(1, 3))
			present[below(words)] ^= 1ul << below(LONG_BITS);
	}
	r = below(100);
	c.vector = r < 95 ? 0x10u + below(0xf0) : r < 97 ? below(0x10) :
		   0x100u + below(0x100);
	c.hints = chance(1, 10) ? below(8) :
		  HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS |
		  (chance(1, 2) ? HVIPI_HINT_XMM_INPUT : 0u);
	r = below(100);
	c.have_page = r >= 8;
	c.page_size = r < 8 ? 0 : r < 65 ? 4096u : r < 85 ? below(600) :
		      below(4097);
	if (c.have_page) {
		page = xmalloc(c.page_size);
		page2 = xmalloc(c.page_size);
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
	r = below(100);
	rc.rate = r < 15 ? 0 : r < 40 ? 1024u : r < 70 ? 1u + below(256) :
		  1u + below(2048u / words + 1u);
	rc.calls = 0;
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
			sp[i] = rc.reads[i] ? rc.snap_present[i] : p0[i];
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
			plan2->kind < 6 ? kind_name[plan2->kind] : "?",
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
	const char *es = getenv("HVIPI_SEED"), *ec = getenv("HVIPI_CASES");
	const char *ef = getenv("HVIPI_FIRST");
	uint64_t seed = SEED_DEFAULT, ncases = 1000000, first = 0, i;
	struct totals t;
	struct ck_stats ck;
	struct timespec t0, t1;
	double secs;

	if (argc > 1)
		seed = strtoull(argv[1], NULL, 0);
	else if (es && *es)
		seed = strtoull(es, NULL, 0);
	if (argc > 2)
		ncases = strtoull(argv[2], NULL, 0);
	else if (ec && *ec)
		ncases = strtoull(ec, NULL, 0);
	if (ef && *ef)
		first = strtoull(ef, NULL, 0);
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
	printf("race: hook calls %" PRIu64 "; cases with a bit flipped during the call %" PRIu64
	       " (a word changed before the core read it: %" PRIu64 ", after: %" PRIu64 ", both: %" PRIu64 ")"
	       "; cases with a word never read %" PRIu64 "\n",
	       t.hook_calls, t.flipped, t.ahead, t.behind, t.both, t.unread);
	printf("race: failed checks: hook %" PRIu64 ", memory %" PRIu64 ", identity %" PRIu64 ", oracle/receiver %" PRIu64 ", ck_run %" PRIu64 "\n",
	       t.fail_hook, t.fail_mem, t.fail_ident, t.fail_oracle, t.fail_ck);
	printf("race: seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failed, %.1f s\n",
	       seed, t.cases, t.failures, secs);
	ck_write_counts(t.cases - t.failures, t.failures);
	return t.failures ? 1 : 0;
}
