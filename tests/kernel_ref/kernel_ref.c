/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref: hvipi against the real Linux guest code.  Linux 6.1's
 * arch/x86/hyperv/hv_apic.c and include/asm-generic/mshyperv.h, from
 * Debian's linux-source-6.1 package (extracted into the build directory by
 * extract.sh, compiled unchanged against shim/), are called through the
 * apic ops that their hv_apic_init() installs, on the same random cases as
 * hvipi_plan_mask() / hvipi_plan_one():
 *
 *   form              Linux op                      hvipi
 *   mask              apic->send_IPI_mask           plan_mask(mask)
 *   mask-allbutself   apic->send_IPI_mask_allbutself plan_mask(mask, self out)
 *   allbutself        apic->send_IPI_allbutself     plan_mask(online, self out)
 *   all               apic->send_IPI_all            plan_mask(online)
 *   one               apic->send_IPI(cpu)           plan_one(cpu)
 *   self              apic->send_IPI_self           plan_one(self)
 *
 * The hypercalls Linux makes and the native APIC ops it falls back to are
 * recorded (kref_env.c).  Both sides' hypercalls are decoded by the
 * receiver model (KVM's rules); each must interrupt exactly the target
 * set (or all VPs, for the "all" format when its rule holds), with the
 * case's vector, and whenever both send, the two VP sets must be equal
 * unless one side uses "all".  Every other difference is counted in the
 * classes of tests/random's comparison with tests/linux_ref (struct
 * ck_stats, printed by ck_print_linux()); a Linux fallback must be put
 * down to one of the linux_ref reasons (LR_WHY_*) by the marks the shims
 * leave (struct kref_rec) and the case's inputs, else the case fails.
 * The Linux side and the comparison are kref_check.c's (shared with the
 * exhaustive suite), which also holds the model tests/linux_ref to what
 * 6.1 did on each send.  hvipi's plan is also checked against the oracle
 * (kind and reason).
 *
 * Inputs are kept to what a kernel can pass: nr_cpu_ids 1..4096, the
 * sending CPU below nr_cpu_ids, a 4 KiB input page or none (for both),
 * VPs below 2^31 or VP_INVAL (6.1 keeps VPs in an int: a VP of 2^31 or
 * more would be a negative bit number).
 *
 * Usage: kernel_ref [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gen.h"
#include "hvipi.h"
#include "kref.h"
#include "kref_check.h"
#include "kref_version.h"
#include "rx.h"

#define NR_MAX		4096u
#define PAGE_BYTES	4096u

/* nr_cpu_ids: 35 % 1..64, 30 % 65..512, 35 % 513..4096 */
static const struct gen_nr_mix nr_mix = {
	{ 35, 65, 100 }, { 64, 512, NR_MAX }
};
/*
 * VP tables: identity, permuted, strided, sparse-high (all >= 64), random,
 * identity with local swaps; then, beside gen_table()'s unknown, huge and
 * high VPs, one table in 20 with an unknown VP on the last CPU.
 */
static const struct gen_table_mix table_mix = {
	.identity = 25, .permuted = 45, .strided = 60, .high = 72, .random = 85,
	.fit = false, .huge_in = 10
};

static uint64_t hv_page[PAGE_BYTES / 8];
static struct or_sets sets;

static void make_table(uint32_t *vp, uint32_t nr)
{
	gen_table(vp, nr, 4096u, &table_mix);
	if (gen_below(20) == 0)
		vp[nr - 1] = GEN_INVAL;
}

/* Decode hvipi's plan with the receiver model: the target set, the vector. */
static bool hv_decode(const struct kref_case *k, const struct hvipi_plan *p,
		      struct rx_result *r)
{
	if (ck_decode_plan(r, p, hv_page, false) || !r->delivered ||
	    r->vector != k->vector)
		return false;
	return ck_rx_targets(r, p->kind, &sets);
}

static bool run_case(const struct kref_case *k, struct ck_stats *st,
		     struct kref_stats *ks)
{
	bool one = k->form == KREF_F_ONE || k->form == KREF_F_SELF;
	uint32_t size = k->page ? PAGE_BYTES : 0, hk;
	struct rx_result hr;
	struct hvipi_plan p;
	struct or_expect e;
	struct kref_linux l;

	/* hvipi, as the glue calls it */
	or_sets(&sets, k->tmask, one ? NULL : k->hv_present, k->nr, k->vp,
		k->self, k->excl);
	or_expect(&e, &sets, k->vector, k->hints, k->page, size);
	ck_plan_glue(&p, one, k->cpu, k->mask, k->hv_present, k->nr, k->vp,
		     k->self, k->excl, k->vector, k->hints,
		     k->page ? hv_page : NULL, size, KREF_CHECK_LEN);
	st->cases++;
	ks->form[k->form]++;
	hk = p.kind;
	if (hk > HVIPI_PLAN_EX_XMM || p.reason > HVIPI_FB_NO_PAGE) {
		kref_report(k, "hvipi: plan kind or reason out of range", &p);
		return false;
	}
	st->kind[hk]++;
	st->reason[p.reason]++;
	if (hk != e.kind || p.reason != e.reason) {
		kref_report(k, "hvipi: kind/reason differs from the oracle", &p);
		return false;
	}
	memset(&hr, 0, sizeof(hr));
	if (ck_hv_sends(hk) && !hv_decode(k, &p, &hr)) {
		kref_report(k, "hvipi: the receiver rejects the plan or reads another set", &p);
		return false;
	}

	/* Linux 6.1, through the ops hv_apic_init() installed */
	if (!kref_linux_run(k, &sets, &p, &l, ks))
		return false;
	return kref_compare(k, &p, &hr, &l, st, ks);
}

static void make_case(struct kref_case *k, unsigned long *mask,
		      unsigned long *present, unsigned long *onebit,
		      uint32_t *vp, uint32_t nr)
{
	uint32_t words = HVIPI_MASK_WORDS(nr), r;

	memset(k, 0, sizeof(*k));
	k->nr = nr;
	k->vp = vp;
	make_table(vp, nr);
	k->max_vp = kref_max_vp(vp, nr);
	k->self = gen_below(nr);
	gen_present(present, words, nr, gen_below(100), true);
	k->present = present;
	k->hv_present = gen_below(10) < 7 ? present : NULL;
	r = gen_below(100);
	k->form = r < 30 ? KREF_F_MASK : r < 55 ? KREF_F_MASK_ALLBUTSELF :
		  r < 65 ? KREF_F_ALLBUTSELF : r < 75 ? KREF_F_ALL : r < 95 ? KREF_F_ONE :
		  KREF_F_SELF;
	if ((k->form == KREF_F_ALL || k->form == KREF_F_ALLBUTSELF) && gen_below(2)) {
		memcpy(mask, present, words * sizeof(*mask));
	} else {	/* as tests/random; garbage beyond nr_cpu_ids */
		gen_mask(mask, words, nr, k->self, present, &gen_mask_mix_random);
		gen_garbage(mask, words, nr, 4);
	}
	k->mask = mask;
	k->excl = k->form == KREF_F_MASK_ALLBUTSELF || k->form == KREF_F_ALLBUTSELF;
	if (k->form == KREF_F_ONE || k->form == KREF_F_SELF) {
		k->cpu = k->form == KREF_F_SELF || gen_below(3) == 0 ? k->self :
			 gen_below(nr);
		memset(onebit, 0, words * sizeof(*onebit));
		gen_set_bit(onebit, k->cpu);
		k->tmask = onebit;
	} else {
		k->cpu = k->self;
		k->tmask = mask;
	}
	k->vector = gen_vector(&gen_vector_mix_random);
	k->hints = gen_hints();
	k->page = gen_below(10) != 0;
	if (gen_below(16) == 0) {			/* a failing hypercall */
		k->status = gen_below(2) ? 5u : gen_rnd();	/* 5: invalid parameter */
		if (!(k->status & 0xffffu))
			k->status |= 3u;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = gen_time_seed(), ncases = 100000, i;
	struct ck_stats st;
	struct kref_stats ks;
	clock_t t0 = clock();
	int w;

	gen_args(argc, argv, &seed, &ncases);
	printf("kernel_ref: Linux side: %s, arch/x86/hyperv/hv_apic.c and include/asm-generic/mshyperv.h compiled unchanged\n",
	       KREF_PKG_VERSION);
	gen_banner("kernel_ref", seed, ncases, NR_MAX);
	gen_state = seed;
	memset(&st, 0, sizeof(st));
	memset(&ks, 0, sizeof(ks));
	memset(&sets, 0, sizeof(sets));

	for (i = 0; i < ncases; i++) {
		uint32_t nr = gen_nr(&nr_mix), words = HVIPI_MASK_WORDS(nr);
		unsigned long *mask = gen_xmalloc(words * sizeof(*mask));
		unsigned long *present = gen_xmalloc(words * sizeof(*present));
		unsigned long *onebit = gen_xmalloc(words * sizeof(*onebit));
		uint32_t *vp = gen_xmalloc(nr * sizeof(*vp));
		struct kref_case k;

		make_case(&k, mask, present, onebit, vp, nr);
		if (!run_case(&k, &st, &ks))
			st.failures++;
		free(mask);
		free(present);
		free(onebit);
		free(vp);
	}

	printf("kernel_ref: forms:");
	for (w = 0; w < KREF_F_COUNT; w++)
		printf(" %s=%" PRIu64, kref_form_name[w], ks.form[w]);
	printf("\n");
	ck_print_kinds("kernel_ref", &st);
	printf("kernel_ref: the Linux columns below are the real code of %s (not tests/linux_ref)\n",
	       KREF_PKG_VERSION);
	kref_print("kernel_ref", &st, &ks);
	printf("kernel_ref: %s, seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       KREF_PKG_VERSION, seed, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
