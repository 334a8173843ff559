/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * exhaustive: every target mask over nr_cpu_ids = 1..NR_MAX (default 10)
 * CPUs, a family of VP tables, every self CPU (and one that is no CPU),
 * with and without exclude_self, three present masks (none, all CPUs, the
 * target mask itself), vectors 2/0x0f/0x10/0xff/0x100, the 8 hint
 * combinations and page sizes NULL/16/24/4096.  Each case is checked
 * against the oracle and decoded by the receiver model (common/check.c).
 * Also hvipi_plan_one() for every CPU.
 *
 * Built with -DHVIPI_EXH_REF (the plain build, `make run-exhaustive`),
 * every case is also held against the real code of Linux 6.1 (Debian's
 * linux-source-6.1, extracted at build time, compiled unchanged; the
 * package version is printed):
 *  - the guest: hv_apic.c's send_IPI_mask / send_IPI_mask_allbutself (and
 *    send_IPI / send_IPI_self for the one-CPU sends) through
 *    tests/kernel_ref/kref_check.c: the same no-op, the same VP set
 *    whenever both send unless one uses "all", every other difference
 *    counted in the classes of the kernel_ref suite, every Linux fallback
 *    explained by one reason; the model tests/linux_ref is held to what
 *    6.1 did on each of those sends;
 *  - the host: every plan that makes a hypercall is issued to KVM's
 *    kvm_hv_hypercall() (arch/x86/kvm/hyperv.c) through
 *    tests/kvm_ref/kvmr_check.c, in a VM of one vCPU per present CPU (all
 *    CPUs without a present mask): accepted (status 0), exactly the vCPUs
 *    of the VP set the receiver model decodes, the case's vector.
 * What the real code cannot take is left out of that comparison and
 * counted in the output: Linux has no CPU "self == nr_cpu_ids" (the
 * sender is a CPU) and no one-CPU send to CPU nr_cpu_ids, and its input
 * page is 4 KiB or none (page sizes 16 and 24 are hvipi's only); Linux's
 * cpu_present_mask is never NULL: where hvipi gets none, Linux gets all
 * CPUs.  KVM 6.1 holds VP indexes below 1024 only: a CPU with a larger VP
 * has no vCPU (the receiver's set then names VPs no vCPU has; counted), a
 * case with no vCPU at all is not sent.  The all / allbutself ops are
 * send_IPI_mask(_allbutself) on cpu_online_mask in 6.1; the kernel_ref
 * suite calls them.  Linux ignores the XMM-input hint, so each of its
 * sends serves the two cases that differ only in that hint (the result
 * is kept for the current mask, present mask, exclude_self and self).
 *
 * Usage: exhaustive [NR_MAX]   (env HVIPI_EXH_NR_MAX too)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "hvipi.h"
#ifdef HVIPI_EXH_REF
#include "kref_check.h"
#include "kref_version.h"
#include "kvmr_check.h"
#include "rx.h"
#endif

#define NR_LIMIT	10u
#define INVAL		0xffffffffu
#define NTABLES		9

static const char *const table_name[NTABLES] = {
	"identity", "reversed", "nonmonotonic", "inval", "spread-banks",
	"too-big", "duplicates", "mixed", "last-high"
};

static void make_table(uint32_t *vp, int t, uint32_t nr)
{
	uint32_t c;

	for (c = 0; c < nr; c++) {
		switch (t) {
		case 0:	/* identity */
			vp[c] = c;
			break;
		case 1:	/* reversed */
			vp[c] = nr - 1u - c;
			break;
		case 2:	/* non-monotonic: CPU 0 high, the last CPU low (bug 5) */
			vp[c] = c == 0 ? 100u : c;
			break;
		case 3:	/* some CPUs without a VP yet */
			vp[c] = c % 3u == 1u ? INVAL : c;
			break;
		case 4:	/* one CPU per bank, banks 0..9 (compact vs dense) */
			vp[c] = 65u * c * (c % 2u ? 1u : 6u) % 4096u;
			break;
		case 5:	/* a VP beyond the 4096 of a sparse set */
			vp[c] = c == nr / 2u ? 4096u + c : (c == nr - 1u ? 4095u : c);
			break;
		case 6:	/* duplicates across the 64 boundary */
			vp[c] = 62u + c / 2u;
			break;
		case 7:	/* a bit of everything */
			vp[c] = c % 4u == 0 ? 4095u - c : c % 4u == 1 ? c :
				c % 4u == 2 ? 128u + c : (c == 3 ? INVAL : 70000u);
			break;
		default: /* only the last CPU high (bug 6 when it is self) */
			vp[c] = c == nr - 1u ? 200u : c;
			break;
		}
	}
}

static const uint32_t vectors[] = { 2u, 0x0fu, 0x10u, 0xffu, 0x100u };
static const uint32_t pages[] = { 0u, 16u, 24u, 4096u };	/* 0: NULL */

#ifdef HVIPI_EXH_REF
/* The comparison with the real Linux and KVM code (see the top). */
struct ref {
	struct kref_stats ks;		/* Linux: kref_check.c's counts */
	struct kvmr_plan_stats ps;	/* KVM: kvmr_check.c's counts */
	uint64_t lin_cmp, lin_runs, lin_fail;
	uint64_t lin_no_cpu;		/* not for Linux: self or the target is no CPU */
	uint64_t lin_page;		/* not for Linux: a 16- or 24-byte page */
	uint64_t kvm_sent, kvm_fail, kvm_vms;
	uint64_t kvm_no_vcpu;		/* not for KVM: no CPU has a vCPU */
	/* the current VP table and VM */
	uint32_t nr, max_vp;
	const uint32_t *vp;
	unsigned long all[1];		/* every CPU below nr */
	struct kvmr_case km;
	uint32_t vm_cpu[NR_LIMIT], vm_vp[NR_LIMIT], cpu_vcpu[NR_LIMIT + 1];
	bool vm_ready;
	/*
	 * Linux's sends for the current mask, present mask, exclude_self and
	 * self (one generation), by vector, cluster and Ex hints, page.
	 */
	struct kref_linux lin[5][4][2];
	uint32_t lin_gen[5][4][2], gen;
};
static struct ref R;
static const struct rx_result no_rx;	/* hvipi's reading when it does not send */

static void ref_table(const uint32_t *vp, uint32_t nr)
{
	R.nr = nr;
	R.vp = vp;
	R.max_vp = kref_max_vp(vp, nr);
	R.all[0] = nr >= 64u ? ~0ul : (1ul << nr) - 1ul;
}

/* The VM of the present CPUs @present (NULL: all CPUs); set when first used. */
static void ref_vm(unsigned long *present)
{
	memset(&R.km, 0, sizeof(R.km));
	R.km.nr = R.nr;
	R.km.vp = (uint32_t *)R.vp;
	R.km.present = present ? present : R.all;
	R.km.vm_cpu = R.vm_cpu;
	R.km.vm_vp = R.vm_vp;
	R.km.cpu_vcpu = R.cpu_vcpu;
	kvmr_make_vm(&R.km);
	R.cpu_vcpu[R.nr] = KVMR_NO_VCPU;	/* self == nr: sent from vCPU 0 */
	R.vm_ready = false;
}

/* A plan that makes a hypercall (checked by ck_run), through KVM 6.1. */
static bool ref_kvm(const struct hvipi_plan *p, const uint64_t *page,
		    const struct ck_case *c, unsigned long *tmask,
		    const struct or_sets *s, const char *form, bool enforce)
{
	if (!ck_hv_sends(p->kind))
		return true;
	if (!R.km.nvcpu) {
		R.kvm_no_vcpu++;
		return true;
	}
	R.km.form_name = form;
	R.km.mask = tmask;
	R.km.hv_present = c->present;
	R.km.self = R.km.cpu = c->self;
	R.km.excl = c->excl;
	R.km.vector = c->vector;
	R.km.hints = c->hints;
	R.km.page = c->have_page;
	R.km.enforce = enforce;
	R.km.gpa = 0x7654000ull;
	R.km.hv_page = page;
	if (!R.vm_ready) {
		if (!kvmr_vm_set(R.km.nvcpu, R.km.vm_vp)) {
			kvmr_report(&R.km, "KVM refused the VM's VP indexes", p, NULL, NULL);
			R.kvm_fail++;
			return false;
		}
		R.vm_ready = true;
		R.kvm_vms++;
	}
	R.kvm_sent++;
	if (!kvmr_check_plan(&R.km, p, s, &R.ps)) {
		R.kvm_fail++;
		return false;
	}
	return true;
}

/*
 * Case @c (planned @p, page @page) against Linux 6.1's op @form, the
 * target mask @tmask ({cpu} for the one-CPU ops); @vi: the vector's index.
 */
static bool ref_linux(const struct ck_case *c, const struct or_sets *s,
		      const struct hvipi_plan *p, const uint64_t *page,
		      enum kref_form form, uint32_t cpu,
		      const unsigned long *tmask, uint32_t vi,
		      struct ck_stats *st)
{
	uint32_t h = c->hints & (HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS);
	uint32_t pg = c->have_page;
	struct rx_result hr;
	const struct rx_result *hrp = &no_rx;
	struct kref_linux *l = &R.lin[vi][h][pg];
	struct kref_case k;
	bool one = form == KREF_F_ONE || form == KREF_F_SELF;

	if (c->self >= c->nr || cpu >= c->nr) {
		R.lin_no_cpu++;
		return true;
	}
	if (c->have_page && c->page_size != KREF_PAGE_BYTES) {
		R.lin_page++;
		return true;
	}
	memset(&k, 0, sizeof(k));
	k.form = form;
	k.nr = c->nr;
	k.vp = (uint32_t *)c->vp;
	k.max_vp = R.max_vp;
	k.self = c->self;
	k.cpu = cpu;
	k.mask = one ? R.all : c->mask;	/* the one-CPU ops: all online */
	k.present = c->present ? c->present : R.all;
	k.hv_present = c->present;
	k.tmask = tmask;
	k.excl = c->excl;
	k.vector = c->vector;
	k.hints = c->hints;
	k.page = c->have_page;
	if (R.lin_gen[vi][h][pg] != R.gen) {
		R.lin_gen[vi][h][pg] = R.gen;
		R.lin_runs++;
		kref_linux_run(&k, s, p, l, &R.ks);
	}
	if (ck_hv_sends(p->kind)) {
		ck_decode_plan(&hr, p, page, false);	/* ck_run checked it */
		hrp = &hr;
	}
	R.lin_cmp++;
	R.ks.form[form]++;
	if (!kref_compare(&k, p, hrp, l, st, &R.ks)) {
		R.lin_fail++;
		return false;
	}
	return true;
}

static void ref_print(const struct ck_stats *st)
{
	printf("exhaustive: vs the real Linux of %s (hv_apic.c, compiled unchanged): %" PRIu64
	       " cases compared, %" PRIu64 " Linux sends (one per case up to the XMM-input hint, which 6.1 ignores), %" PRIu64 " failures\n",
	       KREF_PKG_VERSION, R.lin_cmp, R.lin_runs, R.lin_fail);
	printf("exhaustive: not for Linux (the real code cannot take them): self or the target CPU is no CPU (nr_cpu_ids) %" PRIu64
	       ", a 16- or 24-byte input page (Linux's is 4 KiB or none) %" PRIu64 "\n",
	       R.lin_no_cpu, R.lin_page);
	printf("exhaustive: Linux ops:");
	for (int w = 0; w < KREF_F_COUNT; w++)
		if (R.ks.form[w])
			printf(" %s=%" PRIu64, kref_form_name[w], R.ks.form[w]);
	printf(" (hvipi without a present mask: Linux's cpu_present_mask all CPUs)\n");
	kref_print("exhaustive", st, &R.ks);
	printf("exhaustive: through the real KVM of %s (arch/x86/kvm/hyperv.c, compiled unchanged): %" PRIu64
	       " hvipi hypercalls, %" PRIu64 " failures (status 0, the receiver's VP set, the vector); %" PRIu64
	       " VMs; %" PRIu64 " vCPU interrupts; EX_XMM %" PRIu64 ", CPUID enforced %" PRIu64 "\n",
	       KREF_PKG_VERSION, R.kvm_sent, R.kvm_fail, R.kvm_vms, R.ps.irqs,
	       R.ps.xmm_sent, R.ps.enforce_sent);
	printf("exhaustive: not for KVM: no CPU with a vCPU (every VP >= KVM_MAX_VCPUS 1024, or none present) %" PRIu64
	       "; sets with VPs >= 1024 (no vCPU can have them, KVM ignores them) %" PRIu64 " (%" PRIu64 " VPs)\n",
	       R.kvm_no_vcpu, R.ps.dropped_cases, R.ps.dropped_vps);
}
#endif /* HVIPI_EXH_REF */

/* One mask case: ck_run(), then (HVIPI_EXH_REF) the real Linux and KVM. */
static void mask_case(const struct ck_case *c, const struct or_sets *s,
		      struct ck_stats *st, uint32_t vi, uint32_t pi)
{
#ifdef HVIPI_EXH_REF
	struct hvipi_plan p;
	const uint64_t *page;
	bool ok;

	if (!ck_run_plan(c, s, st, false, &p, &page))
		return;		/* counted */
	ok = ref_linux(c, s, &p, page, c->excl ? KREF_F_MASK_ALLBUTSELF :
		       KREF_F_MASK, c->self, c->mask, vi, st);
	ok = ref_kvm(&p, page, c, (unsigned long *)c->mask, s,
		     c->excl ? "mask-allbutself" : "mask", (vi + pi) & 1u) && ok;
	if (!ok)
		st->failures++;
#else
	(void)vi;
	(void)pi;
	ck_run(c, s, st, false);
#endif
}

/* One one-CPU case: ck_run_one(), then the real Linux and KVM. */
static void one_case(uint32_t cpu, uint32_t nr, const uint32_t *vp,
		     uint32_t vi, uint32_t h, uint32_t pi, struct ck_stats *st)
{
#ifdef HVIPI_EXH_REF
	static struct or_sets s1;
	unsigned long onebit[1] = { 1ul << cpu };
	struct hvipi_plan p;
	const uint64_t *page;
	struct ck_case c;
	bool ok;

	if (!ck_run_one_plan(cpu, nr, vp, vectors[vi], h, pages[pi] != 0,
			     pages[pi], st, &p, &page))
		return;		/* counted */
	memset(&c, 0, sizeof(c));
	c.mask = onebit;
	c.nr = nr;
	c.vp = vp;
	c.self = cpu;
	c.vector = vectors[vi];
	c.hints = h;
	c.have_page = pages[pi] != 0;
	c.page_size = pages[pi];
	or_sets(&s1, onebit, NULL, nr, vp, cpu, false);
	/* send_IPI(cpu) and, from that CPU, send_IPI_self: the same path */
	ok = ref_linux(&c, &s1, &p, page, vi & 1u ? KREF_F_SELF : KREF_F_ONE,
		       cpu, onebit, vi, st);
	ok = ref_kvm(&p, page, &c, onebit, &s1, "one", (vi + pi) & 1u) && ok;
	if (!ok)
		st->failures++;
#else
	ck_run_one(cpu, nr, vp, vectors[vi], h, pages[pi] != 0, pages[pi], st);
#endif
}

int main(int argc, char **argv)
{
	static struct or_sets s;	/* zeroed once, reused */
	struct ck_stats st;
	uint32_t nr_max = NR_LIMIT, nr, m, self, vi, h, pi, cpu;
	uint32_t vp[NR_LIMIT];
	unsigned long mask[1], present[3][1];
	const char *env = getenv("HVIPI_EXH_NR_MAX");
	uint64_t table_cases[NTABLES];
	clock_t t0 = clock();
	int t, ex, pr;

	if (argc > 1)
		nr_max = (uint32_t)strtoul(argv[1], NULL, 0);
	else if (env && *env)
		nr_max = (uint32_t)strtoul(env, NULL, 0);
	if (nr_max < 1 || nr_max > NR_LIMIT)
		nr_max = NR_LIMIT;
	memset(&st, 0, sizeof(st));
	memset(table_cases, 0, sizeof(table_cases));
#ifdef HVIPI_EXH_REF
	printf("exhaustive: also against the real code of %s (Linux hv_apic.c, KVM hyperv.c)\n",
	       KREF_PKG_VERSION);
	fflush(stdout);
	if (!kvmr_vm_set(0, NULL)) {
		fprintf(stderr, "exhaustive: the KVM VM could not be created\n");
		ck_write_counts(0, 1);
		return 1;
	}
#endif

	for (nr = 1; nr <= nr_max; nr++) {
		for (t = 0; t < NTABLES; t++) {
			uint64_t before = st.cases;

			make_table(vp, t, nr);
#ifdef HVIPI_EXH_REF
			ref_table(vp, nr);
#endif
			for (m = 0; m < (1u << nr); m++) {
				/* garbage beyond nr_cpu_ids on odd masks */
				mask[0] = m | ((m & 1u) ? ~0ul << nr : 0ul);
				present[0][0] = 0;
				present[1][0] = ((1ul << nr) - 1ul) |
						((m & 2u) ? 1ul << 63 : 0ul);
				present[2][0] = m | ((m & 1u) ? 0ul : 3ul << 62);
				for (pr = 0; pr < 3; pr++) {
#ifdef HVIPI_EXH_REF
				ref_vm(pr ? present[pr] : NULL);
#endif
				for (ex = 0; ex < 2; ex++)
				for (self = 0; self <= nr; self++) {
					struct ck_case c;

#ifdef HVIPI_EXH_REF
					R.gen++;	/* Linux's sends: new inputs */
#endif

					c.mask = mask;
					c.present = pr ? present[pr] : NULL;
					c.nr = nr;
					c.vp = vp;
					c.self = self;
					c.excl = ex;
					or_sets(&s, c.mask, c.present, nr, vp,
						self, c.excl);
					for (vi = 0; vi < 5; vi++)
					for (h = 0; h < 8; h++)
					for (pi = 0; pi < 4; pi++) {
						c.vector = vectors[vi];
						c.hints = h;
						c.have_page = pages[pi] != 0;
						c.page_size = pages[pi];
						mask_case(&c, &s, &st, vi, pi);
					}
				}
				}
			}
#ifdef HVIPI_EXH_REF
			ref_vm(NULL);
#endif
			for (cpu = 0; cpu <= nr; cpu++) {
#ifdef HVIPI_EXH_REF
				R.gen++;
#endif
				for (vi = 0; vi < 5; vi++)
					for (h = 0; h < 8; h++)
						for (pi = 0; pi < 4; pi++)
							one_case(cpu, nr, vp, vi, h, pi, &st);
			}
			table_cases[t] += st.cases - before;
		}
	}
	ck_print_kinds("exhaustive", &st);
#ifdef HVIPI_EXH_REF
	ref_print(&st);
#endif
	printf("exhaustive: cases per VP table:");
	for (t = 0; t < NTABLES; t++)
		printf(" %s=%" PRIu64, table_name[t], table_cases[t]);
	printf("\nexhaustive: nr_cpu_ids 1..%u, %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       nr_max, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
