/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * fixes_ref: the four fixes of the head of kernel-glue/intree/series/ on Linux 6.1's
 * own code.  arch/x86/hyperv/hv_apic.c and mmu.c are compiled twice
 * against shim/: as extracted (the "pristine" build) and with the four
 * patches applied by patch -p1 (the "fixed" build); each build's two entry
 * points are renamed (kfix_<build>_hv_apic_init,
 * kfix_<build>_hyperv_setup_mmu_ops: tests/Makefile), so that both live in
 * this program.  A scenario installs one build's ops (over kflush_setup(),
 * which sets the environment, kref_env.c) and sends an IPI through
 * apic->send_IPI*() or a flush through pv_ops (kflush_multi()); the
 * hypercall it issues is decoded by the receiver models
 * (receiver/rx.c for the IPI calls, receiver/rx_flush.c with the TLFS
 * reading for the flushes).
 *
 * Each bug's scenario runs on both builds and makes at least two checks:
 * "pristine shows the bug", which tests the reproduction itself, and
 * "fixed does not".
 *
 *  1. NMI: an outer send fills the per-CPU input page; the hypercall hook
 *     (kref_hcall_hook), just before the outer call is issued, sends an IPI
 *     with in_nmi() true to a CPU whose VP is >= 64 (or to this CPU, VP >=
 *     64: irq_work_queue() in an NMI).  Pristine: the outer call issues the
 *     NMI's vector and VP set.  Fixed: the nested send takes the native
 *     op, the outer call its own input.  The outer send is an Ex IPI, then
 *     a non-Ex remote flush (whose header the NMI's input replaces).
 *  2. "All": the present mask is every CPU, but the firmware listed more
 *     processors (disabled_cpus > 0, as with nr_cpus=; or num_processors
 *     above the present CPUs, as with possible_cpus=).  Pristine: the Ex
 *     IPI uses HV_GENERIC_SET_ALL and the flush HV_FLUSH_ALL_PROCESSORS,
 *     which reach the partition's other VPs.  Fixed: the exact sets.  With
 *     no processor left out both builds keep the "all" forms.
 *  3. GVA list: a range of 509 units of 16 MiB and one page (non-Ex), and
 *     of 506 units and one page after two banks (Ex).  Pristine: an entry
 *     at byte 4096 of the 4 KiB input page, in the guard after it.  Fixed:
 *     the guard intact, a whole-space flush.  Ranges of exactly the
 *     capacity: a list on both.
 *  4. hv_max_vp_index = 4096 and a flush to a CPU whose VP is >= 64 with
 *     the Ex hint.  Pristine: an Ex flush with valid_bank_mask 0 (the
 *     receiver: success, no VP flushed).  Fixed: the native flush.
 *
 * Writes HVIPI_COUNTS ("PASSED FAILED", one per check) and, when
 * HVIPI_FAILS names a file, the failed checks to it (the file is removed
 * first, and written only when a check fails).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counts.h"
#include "kflush.h"
#include "kref.h"
#include "kref_version.h"
#include "rx.h"
#include "rx_flush.h"

/* The two builds' entry points (tests/Makefile renames them). */
void kfix_pristine_hv_apic_init(void);
void kfix_pristine_hyperv_setup_mmu_ops(void);
void kfix_fixed_hv_apic_init(void);
void kfix_fixed_hyperv_setup_mmu_ops(void);

struct build {
	const char *name;
	bool fixed;
	void (*apic_init)(void);
	void (*mmu_init)(void);
};

static const struct build builds[2] = {
	{ "pristine", false, kfix_pristine_hv_apic_init,
	  kfix_pristine_hyperv_setup_mmu_ops },
	{ "fixed", true, kfix_fixed_hv_apic_init,
	  kfix_fixed_hyperv_setup_mmu_ops },
};

#define PAGE		4096u
#define GUARD		4096u
#define GUARD_BYTE	0xa5u
#define UNIT		(4096ul * PAGE)		/* HV_TLB_FLUSH_UNIT */
#define GPA		0x100000ull		/* where the receiver sees the page */
#define NR_MAX		8u
#define VEC_OUTER	0xfbu			/* CALL_FUNCTION_SINGLE_VECTOR */
#define VEC_NMI		0xf6u			/* IRQ_WORK_VECTOR */
#define VEC_ALL		0xfcu			/* CALL_FUNCTION_VECTOR */
#define RANGE_START	0x7f0000000000ul	/* page-aligned, user space */

/* The input page and the guard after it, which no call may write. */
static uint8_t page_buf[PAGE + GUARD] __attribute__((aligned(4096)));

static uint64_t passed, failed;
static const char *fails_path;		/* HVIPI_FAILS: written on a failure */
static FILE *fails_file;

static void check(bool ok, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	printf("fixes_ref: %s %s\n", ok ? "ok  " : "FAIL", what);
	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (fails_path && !fails_file) {
		fails_file = fopen(fails_path, "w");
		if (!fails_file) {
			perror(fails_path);
			exit(2);
		}
	}
	if (fails_file)
		fprintf(fails_file, "fixes_ref: FAIL %s\n", what);
}

/* One guest: nr CPUs, all present and online, and the partition's VPs. */
struct guest {
	uint32_t nr;
	uint32_t vp[NR_MAX];
	uint32_t max_vp;		/* hv_max_vp_index */
	bool ex_hint;
	uint32_t extra_vps[NR_MAX];	/* VPs of processors the kernel left out */
	uint32_t nr_extra;
	unsigned int nproc, ndisabled;	/* num_processors, disabled_cpus */
};

static struct cpumask present_mask;
static uint64_t partition[RX_VP_WORDS];

static void mask_set(struct cpumask *m, const uint32_t *cpus, uint32_t n)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < n; i++)
		m->bits[cpus[i] / 64] |= 1ul << (cpus[i] % 64);
}

static void vps_set(uint64_t *set, const uint32_t *vps, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		set[vps[i] / 64] |= 1ull << (vps[i] % 64);
}

/* Install build @b's ops on guest @g, with the input page reset. */
static void setup(const struct build *b, struct guest *g)
{
	struct kref_env e;
	uint32_t i;

	memset(&present_mask, 0, sizeof(present_mask));
	for (i = 0; i < g->nr; i++)
		present_mask.bits[i / 64] |= 1ul << (i % 64);
	memset(partition, 0, sizeof(partition));
	vps_set(partition, g->vp, g->nr);
	vps_set(partition, g->extra_vps, g->nr_extra);

	memset(&e, 0, sizeof(e));
	e.nr_cpu_ids = g->nr;
	e.vp_index = g->vp;
	e.max_vp_index = g->max_vp;
	e.cluster_hint = true;
	e.ex_hint = g->ex_hint;
	e.present = &present_mask;
	e.online = &present_mask;
	e.input_page = page_buf;
	e.self = 0;
	/*
	 * The environment and the remote-flush hint, with the ops of the
	 * unchanged files that kref_env_set() and kflush_setup() install
	 * (kernel_ref.obj/hv_apic.o, kflush_mmu.o); then this build's ops
	 * over them, from the native ones.
	 */
	kflush_setup(&e);
	*apic = kref_native_apic;
	b->apic_init();
	b->mmu_init();
	kref_in_nmi = false;
	kref_hcall_hook = NULL;
	num_processors = g->nproc ? g->nproc : g->nr;
	disabled_cpus = g->ndisabled;
	memset(page_buf, 0, PAGE);
	memset(page_buf + PAGE, GUARD_BYTE, GUARD);
}

static bool guard_intact(void)
{
	uint32_t i;

	for (i = PAGE; i < PAGE + GUARD; i++)
		if (page_buf[i] != GUARD_BYTE)
			return false;
	return true;
}

/* The last IPI hypercall, decoded from the page (KVM's rules). */
static void decode_ipi(struct rx_result *r)
{
	struct rx_call c;

	memset(&c, 0, sizeof(c));
	c.control = kref_rec.control;
	c.rdx = kref_rec.rdx;
	c.r8 = kref_rec.r8;
	if (!kref_rec.fast) {
		c.page = page_buf;
		c.page_size = PAGE;
	}
	rx_decode(&c, r);
}

/* A flush hypercall, decoded from the page (TLFS reading). */
static void decode_flush(uint64_t control, struct rxf_result *r)
{
	struct rxf_call c;

	memset(&c, 0, sizeof(c));
	c.control = control;
	c.rdx = GPA;
	c.mem = page_buf;
	c.mem_len = PAGE;
	c.mem_gpa = GPA;
	c.vps = partition;
	c.hints = RXF_HINT_REMOTE_FLUSH | RXF_HINT_EX;
	c.rules = RXF_TLFS;
	rxf_decode(&c, r);
}

static bool vps_equal(const uint64_t *a, const uint32_t *vps, uint32_t n)
{
	uint64_t want[RX_VP_WORDS];

	memset(want, 0, sizeof(want));
	vps_set(want, vps, n);
	return memcmp(a, want, sizeof(want)) == 0;
}

/* ------------------------------------------------------------------ */
/* 1. NMI reuse of the input page */

enum nmi_send { NMI_TO_CPU3, NMI_TO_SELF };

static enum nmi_send nmi_send;
static struct kref_rec nmi_rec;		/* what the NMI's send did */
static unsigned int nmi_runs;

/*
 * The hook: the outer call is about to be issued, its input in the page.
 * An NMI comes in and sends an IPI; its hypercall (or native op) is
 * recorded apart, and the outer call's record is left as it was.
 */
static void nmi_hook(uint64_t control, void *input)
{
	struct kref_rec outer = kref_rec;

	(void)control;
	(void)input;
	kref_hcall_hook = NULL;
	nmi_runs++;
	memset(&kref_rec, 0, sizeof(kref_rec));
	kref_in_nmi = true;
	if (nmi_send == NMI_TO_CPU3)
		apic->send_IPI(3, VEC_NMI);
	else
		apic->send_IPI_self(VEC_NMI);
	kref_in_nmi = false;
	nmi_rec = kref_rec;
	kref_rec = outer;
}

/*
 * CPU 0 (self) VP 150, CPU 1 VP 1, CPU 2 VP 130, CPU 3 VP 140: the outer
 * IPI to CPU 2 and the NMI's to CPU 3 or to CPU 0 all take three banks,
 * so that the outer call's control word fits the NMI's input (the
 * receiver then accepts it, as a hypervisor would).
 */
static struct guest nmi_guest(void)
{
	struct guest g = {
		.nr = 4, .vp = { 150, 1, 130, 140 }, .max_vp = 150,
		.ex_hint = true,
	};

	return g;
}

static void nmi_ipi(const struct build *b, enum nmi_send how)
{
	static const uint32_t cpu2 = 2;
	const uint32_t nmi_vp = how == NMI_TO_CPU3 ? 140 : 150;
	const char *nmi_what = how == NMI_TO_CPU3 ? "send_IPI(3) (VP 140)" :
				"send_IPI_self (VP 150)";
	struct guest g = nmi_guest();
	struct cpumask m;
	struct rx_result r;
	bool own, nmi_native;

	setup(b, &g);
	mask_set(&m, &cpu2, 1);
	memset(&kref_rec, 0, sizeof(kref_rec));
	memset(&nmi_rec, 0, sizeof(nmi_rec));
	nmi_send = how;
	nmi_runs = 0;
	kref_hcall_hook = nmi_hook;
	apic->send_IPI_mask(&m, VEC_OUTER);
	kref_hcall_hook = NULL;
	decode_ipi(&r);
	own = r.status == RX_ST_SUCCESS && r.delivered && r.vector == VEC_OUTER &&
	      !r.all && vps_equal(r.vps, (const uint32_t[]){ 130 }, 1);
	nmi_native = nmi_rec.nr_hcalls == 0 && nmi_rec.nr_native == 1 &&
		     nmi_rec.op == (how == NMI_TO_CPU3 ? KREF_OP_IPI : KREF_OP_SELF) &&
		     nmi_rec.op_vector == (int)VEC_NMI &&
		     (how != NMI_TO_CPU3 || nmi_rec.op_cpu == 3);
	if (!b->fixed) {
		check(nmi_runs == 1 && kref_rec.nr_hcalls == 1 &&
		      kref_rec.nr_native == 0 && nmi_rec.nr_hcalls == 1 &&
		      r.status == RX_ST_SUCCESS && r.vector == VEC_NMI && !r.all &&
		      vps_equal(r.vps, &nmi_vp, 1),
		      "1 nmi: pristine: an NMI's %s during an Ex IPI to CPU 2 (VP 130): the outer call is issued with the NMI's input (vector %#x, VPs {%u}: status %u, vector %#x) and VP 130 is never sent vector %#x",
		      nmi_what, VEC_NMI, nmi_vp, r.status, r.vector, VEC_OUTER);
	} else {
		check(nmi_runs == 1 && kref_rec.nr_hcalls == 1 &&
		      kref_rec.nr_native == 0 && own,
		      "1 nmi: fixed: an NMI's %s during an Ex IPI to CPU 2 (VP 130): the outer call is issued with its own input (status %u, vector %#x, VPs {130})",
		      nmi_what, r.status, r.vector);
		check(nmi_native,
		      "1 nmi: fixed: the NMI's %s takes the native op (%u hypercalls, %u native, op %d cpu %d vector %#x)",
		      nmi_what, nmi_rec.nr_hcalls, nmi_rec.nr_native,
		      (int)nmi_rec.op, nmi_rec.op_cpu, (unsigned int)nmi_rec.op_vector);
	}
}

static void nmi_flush(const struct build *b)
{
	static const uint32_t cpu1 = 1;
	const uint64_t page = (RANGE_START >> 12) + 1;
	struct guest g = nmi_guest();
	struct cpumask m;
	struct kflush_call out;
	struct rxf_result r;
	bool own;

	setup(b, &g);
	mask_set(&m, &cpu1, 1);
	memset(&nmi_rec, 0, sizeof(nmi_rec));
	nmi_send = NMI_TO_CPU3;
	nmi_runs = 0;
	kref_hcall_hook = nmi_hook;
	kflush_multi(&m, true, (page << 12), (page << 12) + PAGE, &out);
	kref_hcall_hook = NULL;
	decode_flush(out.control, &r);
	own = r.status == RX_ST_SUCCESS && !r.ud && !r.all &&
	      vps_equal(r.vps, &g.vp[1], 1) &&
	      r.address_space == kflush_mm_space() && rxf_page_flushed(&r, page);
	if (!b->fixed) {
		check(nmi_runs == 1 && out.nr_hcalls == 1 && out.nr_native == 0 &&
		      nmi_rec.nr_hcalls == 1 && r.status == RX_ST_SUCCESS &&
		      r.address_space == VEC_NMI && !rxf_page_flushed(&r, page),
		      "1 nmi: pristine: an NMI's send_IPI(3) (VP 140) during a flush of one page on CPU 1 (VP 1): the flush is issued with the NMI's input (status %u, address space %#" PRIx64 " for %#" PRIx64 ", flags %#" PRIx64 ") and the page is not flushed",
		      r.status, r.address_space, kflush_mm_space(), r.flags);
	} else {
		check(nmi_runs == 1 && out.nr_hcalls == 1 && out.nr_native == 0 && own,
		      "1 nmi: fixed: an NMI's send_IPI(3) (VP 140) during a flush of one page on CPU 1 (VP 1): the flush is issued with its own input (status %u, address space %#" PRIx64 ", page flushed on VP 1 only)",
		      r.status, r.address_space);
		check(nmi_rec.nr_hcalls == 0 && nmi_rec.nr_native == 1 &&
		      nmi_rec.op == KREF_OP_IPI && nmi_rec.op_cpu == 3,
		      "1 nmi: fixed: the NMI's send_IPI(3) during the flush takes the native op (%u hypercalls, %u native)",
		      nmi_rec.nr_hcalls, nmi_rec.nr_native);
	}
}

/* ------------------------------------------------------------------ */
/* 2. "all" forms with processors left out */

struct all_case {
	const char *what;
	unsigned int nproc, ndisabled;
	bool left_out;			/* the firmware listed more than present */
};

static void all_ipi(const struct build *b, const struct all_case *k)
{
	/* CPU 3's VP is 70: the IPI takes the Ex path. */
	struct guest g = {
		.nr = 4, .vp = { 0, 1, 2, 70 }, .max_vp = 70, .ex_hint = true,
		.extra_vps = { 3, 4, 5, 6 }, .nr_extra = k->left_out ? 4 : 0,
		.nproc = k->nproc, .ndisabled = k->ndisabled,
	};
	struct rx_result r;
	bool exact, all;

	setup(b, &g);
	memset(&kref_rec, 0, sizeof(kref_rec));
	apic->send_IPI_all(VEC_ALL);
	decode_ipi(&r);
	exact = kref_rec.nr_hcalls == 1 && r.status == RX_ST_SUCCESS &&
		r.vector == VEC_ALL && !r.all && vps_equal(r.vps, g.vp, g.nr);
	all = kref_rec.nr_hcalls == 1 && r.status == RX_ST_SUCCESS &&
	      r.vector == VEC_ALL && r.all;
	if (!k->left_out)
		check(all, "2 all: %s: %s: send_IPI_all with no processor left out keeps HV_GENERIC_SET_ALL (status %u, all %d)",
		      b->name, k->what, r.status, r.all);
	else if (!b->fixed)
		check(all, "2 all: pristine: %s: send_IPI_all uses HV_GENERIC_SET_ALL (all %d), which reaches the partition's VPs 3..6 too",
		      k->what, r.all);
	else
		check(exact, "2 all: fixed: %s: send_IPI_all names VPs {0,1,2,70} (status %u, all %d, %u VPs)",
		      k->what, r.status, r.all, r.nr_vps);
}

static void all_flush(const struct build *b, const struct all_case *k, bool ex)
{
	struct guest g = {
		.nr = 4, .vp = { 0, 1, 2, ex ? 70 : 3 }, .max_vp = ex ? 70 : 3,
		.ex_hint = true, .extra_vps = { 4, 5, 6, ex ? 3 : 7 },
		.nr_extra = k->left_out ? 4 : 0,
		.nproc = k->nproc, .ndisabled = k->ndisabled,
	};
	const uint64_t page = RANGE_START >> 12;
	struct kflush_call out;
	struct rxf_result r;
	bool exact, all;

	setup(b, &g);
	kflush_multi(&present_mask, true, page << 12, (page << 12) + PAGE, &out);
	decode_flush(out.control, &r);
	exact = out.nr_hcalls == 1 && r.status == RX_ST_SUCCESS && !r.ud &&
		!r.all && !(r.flags & RXF_F_ALL_PROCESSORS) &&
		vps_equal(r.vps, g.vp, g.nr) && rxf_page_flushed(&r, page);
	all = out.nr_hcalls == 1 && r.status == RX_ST_SUCCESS && !r.ud && r.all &&
	      (r.flags & RXF_F_ALL_PROCESSORS) && rxf_page_flushed(&r, page);
	if (!k->left_out)
		check(all, "2 all: %s: %s: a %s flush of the present CPUs with no processor left out keeps HV_FLUSH_ALL_PROCESSORS (status %u, all %d)",
		      b->name, k->what, ex ? "VP 70 (Ex)" : "non-Ex", r.status, r.all);
	else if (!b->fixed)
		check(all, "2 all: pristine: %s: a %s flush of the present CPUs uses HV_FLUSH_ALL_PROCESSORS (all %d), which flushes the partition's other VPs too",
		      k->what, ex ? "VP 70 (Ex)" : "non-Ex", r.all);
	else
		check(exact, "2 all: fixed: %s: a %s flush of the present CPUs names VPs {0,1,2,%u} (code %#" PRIx64 ", status %u, all %d, %u VPs)",
		      k->what, ex ? "VP 70 (Ex)" : "non-Ex", g.vp[3],
		      out.control & 0xffffu, r.status, r.all, r.nr_vps);
}

static const struct all_case all_cases[] = {
	/* nr_cpus=4 on 8 processors: 4 refused, counted in disabled_cpus */
	{ "4 present CPUs, disabled_cpus 4 (nr_cpus=4 of 8 processors)", 4, 4, true },
	/* possible_cpus=4 on 8: all registered, nr_cpu_ids lowered to 4 */
	{ "4 present CPUs, num_processors 8 (possible_cpus=4 of 8 processors)", 8, 0, true },
	{ "4 present CPUs, 4 processors", 4, 0, false },
};

/* ------------------------------------------------------------------ */
/* 3. the GVA list past the page */

static void gva(const struct build *b, bool ex, unsigned long units, bool plus_page)
{
	/* Ex: CPU 1's VP 100 is in bank 1: two banks, 506 entries fit. */
	struct guest g = {
		.nr = 2, .vp = { 0, ex ? 100 : 1 }, .max_vp = ex ? 100 : 1,
		.ex_hint = true,
	};
	const uint32_t cap = ex ? 506 : 509;
	const unsigned long start = RANGE_START;
	const unsigned long end = start + units * UNIT + (plus_page ? PAGE : 0);
	const uint64_t list = ex ? KFLUSH_LIST_EX : KFLUSH_LIST;
	const uint64_t space = ex ? KFLUSH_SPACE_EX : KFLUSH_SPACE;
	static const uint32_t cpu1 = 1;
	struct kflush_call out;
	struct cpumask m;
	struct rxf_result r;
	uint64_t code, reps;
	bool guard, range_flushed;

	setup(b, &g);
	mask_set(&m, &cpu1, 1);
	kflush_multi(&m, true, start, end, &out);
	guard = guard_intact();
	decode_flush(out.control, &r);
	code = out.control & 0xffffu;
	reps = (out.control >> 32) & 0xfffu;
	range_flushed = r.status == RX_ST_SUCCESS && !r.ud &&
			vps_equal(r.vps, &g.vp[1], 1) &&
			r.address_space == kflush_mm_space() &&
			rxf_page_flushed(&r, start >> 12) &&
			rxf_page_flushed(&r, (end - 1) >> 12);
	if (!plus_page) {
		check(guard && code == list && reps == cap && range_flushed,
		      "3 gva: %s: %s, %lu units of 16 MiB (capacity): a list of %u entries, the guard intact (code %#" PRIx64 ", %" PRIu64 " entries, status %u)",
		      b->name, ex ? "Ex after two banks" : "non-Ex", units, cap,
		      code, reps, r.status);
	} else if (!b->fixed) {
		check(!guard && code == list && reps == cap + 1u &&
		      r.status != RX_ST_SUCCESS,
		      "3 gva: pristine: %s, %lu units of 16 MiB and a page: %u entries, the last at byte 4096, in the guard past the page (guard %s; %" PRIu64 " entries; the receiver refuses the input, status %u)",
		      ex ? "Ex after two banks" : "non-Ex", units, cap + 1u,
		      guard ? "intact" : "written", reps, r.status);
	} else {
		check(guard && code == space && out.nr_native == 0 && range_flushed &&
		      r.whole_space,
		      "3 gva: fixed: %s, %lu units of 16 MiB and a page: the guard intact and a whole-space flush (code %#" PRIx64 ", status %u)",
		      ex ? "Ex after two banks" : "non-Ex", units, code, r.status);
	}
}

/* ------------------------------------------------------------------ */
/* 4. an empty Ex VP set with hv_max_vp_index >= 4096 */

static void empty_set(const struct build *b, bool all_space)
{
	struct guest g = {
		.nr = 2, .vp = { 0, 100 }, .max_vp = 4096, .ex_hint = true,
	};
	static const uint32_t cpu1 = 1;
	const unsigned long start = RANGE_START;
	const unsigned long end = all_space ? ~0ul : start + PAGE;
	const char *what = all_space ? "TLB_FLUSH_ALL" : "one page";
	struct kflush_call out;
	struct cpumask m;
	struct rxf_result r;

	setup(b, &g);
	mask_set(&m, &cpu1, 1);
	kflush_multi(&m, true, start, end, &out);
	if (!b->fixed) {
		decode_flush(out.control, &r);
		check(out.nr_hcalls == 1 && out.nr_native == 0 &&
		      ((out.control & 0xffffu) == KFLUSH_LIST_EX ||
		       (out.control & 0xffffu) == KFLUSH_SPACE_EX) &&
		      r.status == RX_ST_SUCCESS && !r.ud && r.valid_bank_mask == 0 &&
		      r.empty_set && r.nr_vps == 0,
		      "4 empty: pristine: hv_max_vp_index 4096, a flush (%s) to CPU 1 (VP 100): an Ex flush with valid_bank_mask %#" PRIx64 " (code %#" PRIx64 ", status %u, empty set %d: nothing flushed), no native flush",
		      what, r.valid_bank_mask, out.control & 0xffffu, r.status,
		      r.empty_set);
	} else {
		check(out.nr_hcalls == 0 && out.nr_native == 1,
		      "4 empty: fixed: hv_max_vp_index 4096, a flush (%s) to CPU 1 (VP 100): the native flush (%u hypercalls, %u native)",
		      what, out.nr_hcalls, out.nr_native);
	}
}

/* The IPI path already fell back on 0 banks: on both builds. */
static void empty_set_ipi(const struct build *b)
{
	struct guest g = {
		.nr = 2, .vp = { 0, 100 }, .max_vp = 4096, .ex_hint = true,
	};

	setup(b, &g);
	memset(&kref_rec, 0, sizeof(kref_rec));
	apic->send_IPI(1, VEC_OUTER);
	check(kref_rec.nr_hcalls == 0 && kref_rec.nr_native == 1 &&
	      kref_rec.op == KREF_OP_IPI && kref_rec.op_cpu == 1,
	      "4 empty: %s: hv_max_vp_index 4096, send_IPI(1) (VP 100) takes the native op, as before (%u hypercalls, %u native)",
	      b->name, kref_rec.nr_hcalls, kref_rec.nr_native);
}

int main(void)
{
	const char *fails = getenv("HVIPI_FAILS");
	clock_t t0 = clock();
	unsigned int i, k;

	if (fails && *fails) {
		fails_path = fails;
		remove(fails);
	}
	printf("fixes_ref: Linux side: %s, arch/x86/hyperv/hv_apic.c and mmu.c compiled twice: unchanged (pristine) and with the fixes at the head of kernel-glue/intree/series/ (fixed)\n",
	       KREF_PKG_VERSION);
	for (i = 0; i < 2; i++) {
		const struct build *b = &builds[i];

		nmi_ipi(b, NMI_TO_CPU3);
		nmi_ipi(b, NMI_TO_SELF);
		nmi_flush(b);
		for (k = 0; k < sizeof(all_cases) / sizeof(all_cases[0]); k++) {
			all_ipi(b, &all_cases[k]);
			all_flush(b, &all_cases[k], false);
			all_flush(b, &all_cases[k], true);
		}
		gva(b, false, 509, true);
		gva(b, false, 509, false);
		gva(b, true, 506, true);
		gva(b, true, 506, false);
		empty_set(b, false);
		empty_set(b, true);
		empty_set_ipi(b);
	}
	printf("fixes_ref: %s, %" PRIu64 " checks passed, %" PRIu64 " failed, %.2f s\n",
	       KREF_PKG_VERSION, passed, failed,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	if (fails_file)
		fclose(fails_file);
	ck_write_counts(passed, failed);
	return failed ? 1 : 0;
}
