/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen.h"
#include "hvipi.h"

uint64_t gen_state;

uint64_t gen_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t gen_rnd(void)
{
	return gen_splitmix(&gen_state);
}

uint32_t gen_below(uint32_t n)
{
	return n ? (uint32_t)(gen_rnd() % n) : 0;
}

bool gen_chance(uint32_t num, uint32_t den)
{
	return gen_below(den) < num;
}

bool gen_arg(int argc, char **argv, int pos, const char *name, uint64_t *v)
{
	const char *e = getenv(name);

	if (pos >= 1 && argc > pos) {
		*v = strtoull(argv[pos], NULL, 0);
		return true;
	}
	if (e && *e) {
		*v = strtoull(e, NULL, 0);
		return true;
	}
	return false;
}

void gen_args(int argc, char **argv, uint64_t *seed, uint64_t *ncases)
{
	gen_arg(argc, argv, 1, "HVIPI_SEED", seed);
	gen_arg(argc, argv, 2, "HVIPI_CASES", ncases);
}

void gen_banner(const char *suite, uint64_t seed, uint64_t ncases,
		uint32_t nr_max)
{
	printf("%s: seed %#" PRIx64 " (rerun: HVIPI_SEED=%#" PRIx64 "), %" PRIu64 " cases",
	       suite, seed, seed, ncases);
	if (nr_max)
		printf(", nr_cpu_ids 1..%u", nr_max);
	printf("\n");
	fflush(stdout);
}

uint64_t gen_time_seed(void)
{
	return (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
}

void *gen_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

uint32_t gen_nr(const struct gen_nr_mix *x)
{
	uint32_t r = gen_below(100), lo = 1, i;

	for (i = 0; i < 3u && r >= x->cut[i]; i++)
		lo = x->top[i] + 1u;
	return lo + gen_below(x->top[i] - lo + 1u);
}

void gen_identity(uint32_t *vp, uint32_t nr)
{
	uint32_t c;

	for (c = 0; c < nr; c++)
		vp[c] = c;
}

void gen_shuffle(uint32_t *vp, uint32_t from, uint32_t nr)
{
	uint32_t c;

	for (c = nr - 1u; c > from && c < nr; c--) {
		uint32_t j = from + gen_below(c - from + 1u), t = vp[c];

		vp[c] = vp[j];
		vp[j] = t;
	}
}

void gen_swaps(uint32_t *vp, uint32_t nr, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++) {
		uint32_t a = gen_below(nr), b = gen_below(nr), t = vp[a];

		vp[a] = vp[b];
		vp[b] = t;
	}
}

void gen_stride(uint32_t *vp, uint32_t nr, uint32_t spread)
{
	uint32_t c;

	for (c = 0; c < nr; c++)
		vp[c] = c * spread;
}

void gen_table(uint32_t *vp, uint32_t nr, uint32_t lim,
	       const struct gen_table_mix *x)
{
	uint32_t c, r = gen_below(100);

	if (r < x->identity ||
	    (x->fit && r >= x->strided && r < x->high && nr + 128u > lim)) {
		gen_identity(vp, nr);
	} else if (r < x->permuted) {
		gen_identity(vp, nr);
		gen_shuffle(vp, 0, nr);
	} else if (r < x->strided) {
		gen_stride(vp, nr, 1u + gen_below(x->fit ? (lim - 1u) / nr :
						  nr > lim ? 2u : lim / nr + 1u));
	} else if (r < x->high) {
		uint32_t off = 64u * (1u + gen_below(x->fit ? (lim - nr) / 64u - 1u :
						      lim / 64u - 2u));

		for (c = 0; c < nr; c++)
			vp[c] = off + c;
	} else if (r < x->random) {
		uint32_t l = gen_below(3) == 0 ? 64u : x->fit || gen_below(2) ?
			     lim : 2u * lim;

		for (c = 0; c < nr; c++)
			vp[c] = gen_below(l);
	} else {
		gen_identity(vp, nr);
		gen_swaps(vp, nr, 1u + nr / 16u);
	}
	if (gen_below(8) == 0)				/* unknown VPs */
		for (c = 0; c < 1u + gen_below(3); c++)
			vp[gen_below(nr)] = GEN_INVAL;
	if (gen_below(x->huge_in) == 0)			/* beyond the sparse range */
		vp[gen_below(nr)] = 4096u + gen_below(100000);
	if (gen_below(10) == 0 && lim > 64u)		/* a high VP on the last CPU */
		vp[nr - 1u] = 64u + gen_below(lim - 64u);
}

const struct gen_mask_mix gen_mask_mix_random = {
	.empty = 5, .one = 20, .few = 45, .dense = 70, .range = 80, .copy = 92
};

enum gen_mask_kind gen_mask(unsigned long *m, uint32_t words, uint32_t nr,
			    uint32_t self, const unsigned long *copy,
			    const struct gen_mask_mix *x)
{
	uint32_t r = gen_below(100), c, k;

	memset(m, 0, words * sizeof(*m));
	if (r < x->empty)
		return GEN_MASK_EMPTY;
	if (r < x->one) {
		gen_set_bit(m, gen_below(3) == 0 && self < nr ? self : gen_below(nr));
		return GEN_MASK_ONE;
	}
	if (r < x->few) {
		for (k = 1u + gen_below(12); k; k--)
			gen_set_bit(m, gen_below(nr));
		return GEN_MASK_FEW;
	}
	if (r < x->dense) {
		uint32_t p = 1u + gen_below(99);

		for (c = 0; c < nr; c++)
			if (gen_below(100) < p)
				gen_set_bit(m, c);
		return GEN_MASK_DENSE;
	}
	if (r < x->range) {
		uint32_t a = gen_below(nr), b = a + gen_below(nr - a);

		for (c = a; c <= b; c++)
			gen_set_bit(m, c);
		return GEN_MASK_RANGE;
	}
	if (r < x->copy && copy) {
		memcpy(m, copy, words * sizeof(*m));
		return GEN_MASK_COPY;
	}
	for (c = 0; c < nr; c++)
		gen_set_bit(m, c);
	return GEN_MASK_ALL;
}

void gen_garbage(unsigned long *m, uint32_t words, uint32_t nr,
		 uint32_t one_in)
{
	if (nr % GEN_LONG_BITS && gen_below(one_in) == 0)
		m[words - 1u] |= ~0ul << (nr % GEN_LONG_BITS);
}

void gen_present(unsigned long *pr, uint32_t words, uint32_t nr, uint32_t r,
		 bool top_bit)
{
	uint32_t c;

	memset(pr, 0, words * sizeof(*pr));
	for (c = 0; c < nr; c++)
		if (r < 75u || gen_below(8))
			gen_set_bit(pr, c);
	if (top_bit && nr % GEN_LONG_BITS && gen_below(4) == 0)
		pr[words - 1u] |= 1ul << (GEN_LONG_BITS - 1u);
}

const struct gen_vector_mix gen_vector_mix_random = {
	.valid = 88, .edge = 90, .low = 95, .over = 98, .over_span = 2
};

uint32_t gen_vector(const struct gen_vector_mix *x)
{
	uint32_t r = gen_below(100);

	if (r < x->valid)
		return 0x10u + gen_below(0xf0);
	if (r < x->edge)
		return gen_below(2) ? 0x10u : 0xffu;
	if (r < x->low)
		return gen_below(0x10);
	if (r < x->over)
		return 0x100u + gen_below(x->over_span);
	return 0x100u + gen_below(0x10000);
}

uint32_t gen_hints(void)
{
	if (gen_below(5) == 0)
		return gen_below(8);
	return HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS |
	       (gen_below(2) ? HVIPI_HINT_XMM_INPUT : 0u);
}
