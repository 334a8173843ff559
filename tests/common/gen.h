/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * gen: the random-case generation the randomized suites share (random,
 * race, kernel_ref, kvm_ref): the splitmix64 generator, the seed and case
 * count arguments, mask bits, and nr_cpu_ids values, VP tables, CPU masks,
 * present masks and vectors drawn from a suite's own mix.  A mix gives
 * the share of each kind as cumulative percent bounds (r = below(100):
 * the first kind whose bound is above r), so each suite keeps its own
 * distribution.  Every function draws its numbers in a fixed order: a
 * suite's cases for a seed depend only on its mixes and its own draws.
 */
#ifndef GEN_H
#define GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GEN_INVAL	0xffffffffu	/* VP_INVAL: an unknown VP */
#define GEN_LONG_BITS	64u

_Static_assert(sizeof(unsigned long) * 8u == GEN_LONG_BITS, "64-bit unsigned long");

/* ---- random numbers: splitmix64 ---- */

/* The state gen_rnd() draws from: the seed, or a case's own start. */
extern uint64_t gen_state;

/* The next number of the splitmix64 stream @state. */
uint64_t gen_splitmix(uint64_t *state);

/* The next number of gen_state's stream. */
uint64_t gen_rnd(void);

/* Uniform in [0, n); 0 when n == 0. */
uint32_t gen_below(uint32_t n);

/* True with probability num / den (gen_below(den) < num). */
bool gen_chance(uint32_t num, uint32_t den);

/* ---- arguments, memory ---- */

/*
 * Usage: SUITE [SEED [CASES]], or env HVIPI_SEED, HVIPI_CASES: *@seed and
 * *@ncases from argv[1] and argv[2], else from those variables; each
 * keeps the value passed in (the suite's default) when neither is given.
 */
void gen_args(int argc, char **argv, uint64_t *seed, uint64_t *ncases);

/*
 * Print "SUITE: seed S (rerun: HVIPI_SEED=S), N cases" and, if @nr_max,
 * ", nr_cpu_ids 1..NR_MAX"; flush.
 */
void gen_banner(const char *suite, uint64_t seed, uint64_t ncases,
		uint32_t nr_max);

/* argv[@pos] (@pos >= 1), else env @name: true and *@v if one is given. */
bool gen_arg(int argc, char **argv, int pos, const char *name, uint64_t *v);

/* A seed from the clock, for runs that name none. */
uint64_t gen_time_seed(void);

/* malloc(@n), at least 1 byte; exits with status 2 when it fails. */
void *gen_xmalloc(size_t n);

/* ---- mask bits (unsigned long words, bit b in word b / 64) ---- */

static inline void gen_set_bit(unsigned long *m, uint32_t b)
{
	m[b / GEN_LONG_BITS] |= 1ul << (b % GEN_LONG_BITS);
}

static inline bool gen_test_bit(const unsigned long *m, uint32_t b)
{
	return (m[b / GEN_LONG_BITS] >> (b % GEN_LONG_BITS)) & 1ul;
}

/* ---- nr_cpu_ids ---- */

/*
 * Tiers of nr_cpu_ids: tier i, from top[i - 1] + 1 (1 for the first) to
 * top[i], when r < cut[i]; the tier whose cut is 100 is the last.
 */
struct gen_nr_mix {
	uint8_t cut[4];
	uint32_t top[4];
};

uint32_t gen_nr(const struct gen_nr_mix *x);

/* ---- VP tables ---- */

/* vp[c] = c, for c < nr. */
void gen_identity(uint32_t *vp, uint32_t nr);

/* Fisher-Yates shuffle of vp[from .. nr - 1] (from <= nr). */
void gen_shuffle(uint32_t *vp, uint32_t from, uint32_t nr);

/* @n swaps of two random entries. */
void gen_swaps(uint32_t *vp, uint32_t nr, uint32_t n);

/* vp[c] = c * spread. */
void gen_stride(uint32_t *vp, uint32_t nr, uint32_t spread);

/*
 * The kinds of gen_table(), in this order: identity; a permutation of
 * 0..nr-1; a stride (sparse VPs); "high", consecutive VPs from a multiple
 * of 64 up (all >= 64); random VPs (duplicates allowed); identity with
 * local swaps (the rest).
 */
struct gen_table_mix {
	uint8_t identity, permuted, strided, high, random;
	/*
	 * fit: every VP of the strided, high and random tables below lim (a
	 * high table only when nr + 128 <= lim, identity otherwise); else
	 * they reach beyond lim (strides up to lim / nr + 1, high tables from
	 * up to lim - 128, random VPs below 64, lim or 2 * lim).
	 */
	bool fit;
	uint32_t huge_in;	/* a VP in 4096..104095: one table in huge_in */
};

/*
 * A table of one of @x's kinds, with VPs around @lim, then sprinkled: one
 * in 8 with 1..3 unknown VPs (GEN_INVAL), one in huge_in with a VP beyond
 * the sparse range, one in 10 with a VP in 64..lim-1 on the last CPU.
 */
void gen_table(uint32_t *vp, uint32_t nr, uint32_t lim,
	       const struct gen_table_mix *x);

/* ---- masks ---- */

enum gen_mask_kind {
	GEN_MASK_EMPTY, GEN_MASK_ONE, GEN_MASK_FEW, GEN_MASK_DENSE,
	GEN_MASK_RANGE, GEN_MASK_COPY, GEN_MASK_ALL
};

/*
 * The kinds of gen_mask(), in this order: empty; one CPU (self one time
 * in three, when self < nr); 1..12 random CPUs; dense (each CPU with a
 * random probability); a range; a copy of a given mask; all CPUs (the
 * rest).
 */
struct gen_mask_mix {
	uint8_t empty, one, few, dense, range, copy;
};

/*
 * Mask @m (@words words, zeroed first) over CPUs below @nr, of one of
 * @x's kinds (GEN_MASK_COPY: @copy's words; with @copy NULL, all CPUs
 * instead).  Returns the kind.
 */
/*
 * tests/random's masks (kernel_ref's too): 5 % empty, 15 % one CPU, 25 % a
 * few, 25 % dense, 10 % a range, 12 % the present mask, 8 % all.
 */
extern const struct gen_mask_mix gen_mask_mix_random;

enum gen_mask_kind gen_mask(unsigned long *m, uint32_t words, uint32_t nr,
			    uint32_t self, const unsigned long *copy,
			    const struct gen_mask_mix *x);

/* One time in @one_in (if nr is not a multiple of 64), garbage: every
 * bit of the last word from nr up set. */
void gen_garbage(unsigned long *m, uint32_t words, uint32_t nr,
		 uint32_t one_in);

/*
 * Present mask @pr (zeroed first): every CPU below @nr when @r < 75, else
 * each with probability 7/8; with @top_bit, one time in four (if nr is not
 * a multiple of 64), bit 63 of the last word set, beyond nr.
 */
void gen_present(unsigned long *pr, uint32_t words, uint32_t nr, uint32_t r,
		 bool top_bit);

/* ---- vectors, hints ---- */

/*
 * Vectors, r < valid: 0x10..0xff; < edge: 0x10 or 0xff; < low: 0..0xf;
 * < over: 0x100 + below(over_span); else 0x100 + below(0x10000).
 */
struct gen_vector_mix {
	uint8_t valid, edge, low, over;
	uint32_t over_span;
};

/*
 * tests/random's vectors (kernel_ref's too): 88 % 0x10..0xff, 2 % 0x10 or
 * 0xff, 5 % 0..0xf, 3 % 0x100 or 0x101, 2 % 0x100..0x100ff.
 */
extern const struct gen_vector_mix gen_vector_mix_random;

uint32_t gen_vector(const struct gen_vector_mix *x);

/*
 * Hints: one time in five any HVIPI_HINT_* set, else the cluster and Ex
 * hints, and the XMM-input hint half the time.
 */
uint32_t gen_hints(void);

#endif /* GEN_H */
