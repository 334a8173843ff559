/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvm_ref: every hypercall hvipi plans, executed by the real KVM code.
 * Linux 6.1's arch/x86/kvm/hyperv.c, from Debian's linux-source-6.1
 * package (extracted into the build directory by
 * tests/kernel_ref/extract.sh, compiled unchanged against shim/), is the
 * second receiver beside tests/receiver (which also holds Xen's rules).
 *
 * Each random case is a guest (nr_cpu_ids, a VP table, present CPUs) and
 * the KVM VM it runs in: one vCPU for each present CPU, whose VP index is
 * the CPU's VP, set through KVM's own MSR path (kvmr_env.c).  A present
 * CPU whose VP the guest does not know yet (VP_INVAL) gets a VP no other
 * vCPU has.  KVM 6.1 allows VP indexes below KVM_MAX_VCPUS (1024) only:
 * most cases keep every VP below it; the "beyond" cases (about 1 in 7)
 * have VPs up to 4095 and up to 4096 CPUs, and the CPUs whose VP is 1024
 * or more have no vCPU.  Cases are planned with hvipi_plan_mask() or
 * hvipi_plan_one() as the glue calls them (identity, permuted, strided,
 * sparse-high, random and locally swapped tables; masks of present CPUs;
 * the present mask, which allows the "all" format, or none; XMM-input
 * hint on and off; an input page or none), and checked against the
 * oracle.  Every plan that makes a hypercall (FAST, EX_SPARSE, EX_ALL,
 * EX_XMM; never NONE or FALLBACK) is then
 *  - decoded by tests/receiver (KVM's rules): the oracle's VP set (or
 *    "all" when the target set is the present set) with the case's vector;
 *  - issued on the sending CPU's vCPU through kvm_hv_hypercall(): rcx the
 *    plan's control word, rdx and r8 the plan's registers (rdx the input
 *    page's GPA for a page plan; the page is guest memory there, 4 KiB),
 *    xmm0..xmm5 the plan's input[2..13] for EX_XMM (garbage otherwise,
 *    which KVM must not read), the vCPU's CPUID the case's hints, KVM's
 *    CPUID enforcement on or off.  KVM must return HV_STATUS_SUCCESS
 *    (rax = 0), interrupt exactly the vCPUs whose VP index the receiver
 *    decoded (all vCPUs for "all"), each once, in fixed mode with the
 *    plan's vector, read XMM registers only for EX_XMM, and read the input
 *    bytes the receiver read (up to the 16 banks KVM reads).
 * Then one malformed variant of the same call (a negative check, chosen
 * at random among those that apply: reserved control bits, variable
 * header one too many or too few, a bank added to or removed from
 * valid_bank_mask, rep count or start, vector out of range, unknown call
 * code, input cut short, other format values, misaligned input, 12 banks
 * as XMM input, XMM input not advertised, a hint withdrawn under CPUID
 * enforcement, rdx bits 63:32 in a fast Send-IPI, an empty sparse set,
 * and the fast Send-IPI as a page call) goes to both receivers: the same
 * status, and on success the same vCPUs and vector.  Where KVM 6.1 and
 * tests/receiver disagree in a known way the difference is counted under
 * its class and printed (findings); any other disagreement fails the case.
 *
 * Usage: kvm_ref [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "counts.h"
#include "gen.h"
#include "hvipi.h"
#include "kref_version.h"
#include "kvmr.h"
#include "kvmr_check.h"
#include "oracle.h"
#include "rx.h"

/* TLFS control word fields, as the receiver (not hvipi) numbers them. */
#define CTL_CODE	0x000000000000ffffull
#define CTL_FAST	(1ull << 16)
#define CTL_VARHDR_SHIFT 17
#define CTL_VARHDR	(0x3ffull << CTL_VARHDR_SHIFT)
#define CTL_REPCNT_SHIFT 32
#define CTL_REPIDX_SHIFT 48
#define CODE_IPI	0x000bu
#define CODE_IPI_EX	0x0015u

enum form { F_MASK, F_MASK_ALLBUTSELF, F_PRESENT, F_PRESENT_ALLBUTSELF, F_ONE, F_COUNT };
static const char *const form_name[F_COUNT] = {
	"mask", "mask-allbutself", "present", "present-allbutself", "one"
};

/* The negative checks (malformed variants of a planned call). */
enum mut {
	M_RSVD, M_VARHDR_UP, M_VARHDR_DOWN, M_BANKMASK, M_REP, M_VECTOR,
	M_CODE, M_TRUNCATE, M_FORMAT, M_MISALIGN, M_XMM12, M_NOXMM,
	M_HINT_OFF, M_FAST_RDX_HIGH, M_EMPTY_SET, M_SLOW_SEND_IPI, M_COUNT
};
static const char *const mut_name[M_COUNT] = {
	"reserved control bit", "var_hdr + 1", "var_hdr - 1",
	"valid_bank_mask != var_hdr", "rep count/start", "vector out of range",
	"unknown call code", "input cut short", "format 2..", "misaligned input",
	"12 banks as XMM input", "XMM input not advertised",
	"hint withdrawn (CPUID)", "fast Send-IPI, rdx bits 63:32",
	"empty sparse set", "Send-IPI through the page"
};

/* The known ways KVM 6.1 and tests/receiver differ. */
enum cls {
	C_ALIGN,	/* receiver: misaligned input is status 4; KVM does not check */
	C_16BANKS,	/* KVM reads at most 16 banks: a set cut short beyond them passes */
	C_NOXMM,	/* receiver: fast Ex without XMM input is status 3; KVM: #UD
			 * under CPUID enforcement, else it reads the registers anyway */
	C_ACCESS,	/* KVM with CPUID enforcement: status 6 for a call not advertised */
	C_COUNT
};
static const char *const cls_name[C_COUNT] = {
	"misaligned input: receiver status 4 (TLFS), KVM 6.1 reads it (no alignment check on this path)",
	"input cut short after bank 16: receiver status 3, KVM 6.1 success (reads at most 16 banks, KVM_MAX_VCPUS 1024)",
	"fast Ex without XMM input advertised: receiver status 3; KVM 6.1 #UD with CPUID enforcement, else reads the XMM registers (success)",
	"hint withdrawn with CPUID enforcement: KVM 6.1 status 6 (access denied), receiver does not model CPUID"
};

struct stats {
	uint64_t cases, failures, sent, not_run;
	uint64_t form[F_COUNT], kind[6], beyond, identity_path, mismatch_path;
	struct kvmr_plan_stats ps;	/* the plans' own calls */
	uint64_t mut_tried[M_COUNT], mut_agree[M_COUNT], mut_failed[M_COUNT];
	uint64_t cls[C_COUNT];
	uint64_t status_seen[16];	/* negative checks: KVM status (low 4 bits) */
	uint64_t ud_seen;
};

static uint64_t hv_page[KVMR_PAGE_BYTES / 8];
static uint64_t mut_page[KVMR_PAGE_BYTES / 8 + 1];
static struct or_sets sets;

static unsigned int popcount64(uint64_t w)
{
	return (unsigned int)__builtin_popcountll(w);
}

/* ---- case generation ---- */

/*
 * nr_cpu_ids: 35 % 1..64, 30 % 65..512, 35 % 513..KVM_MAX_VCPUS; beyond
 * KVM_MAX_VCPUS: 65..4096.
 */
static const struct gen_nr_mix nr_mix = {
	{ 35, 65, 100 }, { 64, 512, KVMR_MAX_VCPUS }
};
static const struct gen_nr_mix nr_mix_beyond = {
	{ 0, 100 }, { 64, KVMR_NR_MAX }
};
/*
 * VP tables below lim: identity, permuted, strided, sparse-high (all >= 64,
 * when nr + 128 <= lim; identity otherwise), random, identity with local
 * swaps.
 */
static const struct gen_table_mix table_mix = {
	.identity = 25, .permuted = 45, .strided = 60, .high = 72, .random = 85,
	.fit = true, .huge_in = 20
};
/* Masks: empty, one CPU, a few, dense, a range, all (of the present CPUs). */
static const struct gen_mask_mix mask_mix = {
	.empty = 5, .one = 20, .few = 45, .dense = 70, .range = 80, .copy = 80
};
/* Vectors: 0x10..0xff, 0x10 or 0xff, 0..0xf, 0x100..0x100ff. */
static const struct gen_vector_mix vector_mix = {
	.valid = 88, .edge = 92, .low = 96, .over = 96, .over_span = 0
};

static void make_mask(unsigned long *m, uint32_t words, uint32_t nr,
		      uint32_t self, const unsigned long *present)
{
	uint32_t c;

	gen_mask(m, words, nr, self, NULL, &mask_mix);
	for (c = 0; c < words; c++)		/* a cpumask holds present CPUs */
		m[c] &= present[c];
	gen_garbage(m, words, nr, 4);		/* garbage beyond nr_cpu_ids */
}

static void make_case(struct kvmr_case *k)
{
	uint32_t words, r, lim;

	k->beyond = gen_below(7) == 0;
	k->nr = gen_nr(k->beyond ? &nr_mix_beyond : &nr_mix);
	lim = k->beyond ? 4096u : KVMR_MAX_VCPUS;
	words = HVIPI_MASK_WORDS(k->nr);
	gen_table(k->vp, k->nr, lim, &table_mix);
	gen_present(k->present, words, k->nr, gen_below(100), false);
	k->self = gen_below(k->nr);
	gen_set_bit(k->present, k->self);		/* the sender is present */
	k->hv_present = gen_below(10) < 7 ? k->present : NULL;
	r = gen_below(100);
	k->form = r < 35 ? F_MASK : r < 55 ? F_MASK_ALLBUTSELF :
		  r < 65 ? F_PRESENT : r < 75 ? F_PRESENT_ALLBUTSELF : F_ONE;
	if (k->form == F_PRESENT || k->form == F_PRESENT_ALLBUTSELF)
		memcpy(k->mask, k->present, words * sizeof(*k->mask));
	else
		make_mask(k->mask, words, k->nr, k->self, k->present);
	k->excl = k->form == F_MASK_ALLBUTSELF || k->form == F_PRESENT_ALLBUTSELF;
	if (k->form == F_ONE) {
		do
			k->cpu = gen_below(3) == 0 ? k->self : gen_below(k->nr);
		while (!gen_test_bit(k->present, k->cpu));
		memset(k->mask, 0, words * sizeof(*k->mask));
		gen_set_bit(k->mask, k->cpu);
	} else {
		k->cpu = k->self;
	}
	k->vector = gen_vector(&vector_mix);
	k->hints = gen_hints();
	k->page = gen_below(10) != 0;
	k->enforce = gen_below(2);
	k->gpa = (uint64_t)(1 + gen_below(1u << 20)) << 12;
	k->form_name = form_name[k->form];
	kvmr_make_vm(k);
}


/* ---- negative checks ---- */

static bool mut_applies(enum mut m, const struct hvipi_plan *p)
{
	bool page = p->kind == HVIPI_PLAN_EX_SPARSE || p->kind == HVIPI_PLAN_EX_ALL;
	bool sparse = p->kind == HVIPI_PLAN_EX_SPARSE || p->kind == HVIPI_PLAN_EX_XMM;

	switch (m) {
	case M_VARHDR_DOWN:
	case M_BANKMASK:
	case M_EMPTY_SET:
		return sparse;
	case M_TRUNCATE:
		return p->kind == HVIPI_PLAN_EX_SPARSE;
	case M_FORMAT:
		return p->kind != HVIPI_PLAN_FAST;
	case M_MISALIGN:
		return page;
	case M_NOXMM:
		return p->kind == HVIPI_PLAN_EX_XMM;
	case M_FAST_RDX_HIGH:
	case M_SLOW_SEND_IPI:
		return p->kind == HVIPI_PLAN_FAST;
	default:
		return true;
	}
}

static void put_word(struct kvmr_xcall *c, uint32_t word, uint64_t v)
{
	/* word 0: vector (+ vtl, reserved), 1: format, 2: valid_bank_mask, ... */
	if (c->kvm.mem) {
		memcpy((uint8_t *)mut_page + 8u * word, &v, 8);
	} else if (word == 0) {
		c->kvm.rdx = v;
	} else if (word == 1) {
		c->kvm.r8 = v;
	} else if (word - 2u < 12u) {
		c->kvm.xmm[word - 2u] = v;
	}
}

static uint64_t get_word(const struct kvmr_xcall *c, uint32_t word)
{
	uint64_t v = 0;

	if (c->kvm.mem)
		memcpy(&v, (const uint8_t *)mut_page + 8u * word, 8);
	else if (word == 0)
		v = c->kvm.rdx;
	else if (word == 1)
		v = c->kvm.r8;
	else if (word - 2u < 12u)
		v = c->kvm.xmm[word - 2u];
	return v;
}

static uint64_t bad_vector(void)
{
	return gen_below(2) ? gen_below(0x10) : 0x100 + gen_below(0xffff00);
}

/* Build the malformed call @m from the plan's call; the expected class. */
static void mutate(enum mut m, const struct kvmr_case *k,
		   const struct hvipi_plan *p, struct kvmr_xcall *c)
{
	uint32_t vh = (uint32_t)((c->kvm.rcx & CTL_VARHDR) >> CTL_VARHDR_SHIFT);
	uint64_t vbm;

	if (c->kvm.mem) {
		memcpy(mut_page, hv_page, KVMR_PAGE_BYTES);
		c->kvm.mem = mut_page;
	}
	switch (m) {
	case M_RSVD: {
		static const uint8_t bits[] = { 27, 28, 29, 30, 31, 44, 45, 46,
						47, 60, 61, 62, 63 };

		c->kvm.rcx |= 1ull << bits[gen_below(sizeof(bits))];
		break;
	}
	case M_VARHDR_UP:
		c->kvm.rcx = (c->kvm.rcx & ~CTL_VARHDR) |
			     ((uint64_t)((vh + 1 + gen_below(3)) & 0x3ff) << CTL_VARHDR_SHIFT);
		break;
	case M_VARHDR_DOWN:
		c->kvm.rcx = (c->kvm.rcx & ~CTL_VARHDR) |
			     ((uint64_t)(vh - 1) << CTL_VARHDR_SHIFT);
		break;
	case M_BANKMASK:
		vbm = get_word(c, 2);
		put_word(c, 2, vbm ^ (1ull << gen_below(64)));
		break;
	case M_REP:
		c->kvm.rcx |= gen_below(2) ?
			(uint64_t)(1 + gen_below(0xfff)) << CTL_REPCNT_SHIFT :
			(uint64_t)(1 + gen_below(0xfff)) << CTL_REPIDX_SHIFT;
		break;
	case M_VECTOR:
		if (p->kind == HVIPI_PLAN_FAST || c->kvm.mem)
			put_word(c, 0, (get_word(c, 0) & ~0xffffffffull) |
				 (bad_vector() & 0xffffffffull));
		else		/* XMM: rdx is the vector, bits 63:32 ignored */
			c->kvm.rdx = bad_vector() | ((uint64_t)gen_rnd() << 32);
		break;
	case M_CODE: {
		/* none is a call KVM 6.1 implements */
		static const uint16_t codes[] = { 0x0000, 0x000a, 0x000c,
						  0x0016, 0x0046, 0x00ff,
						  0x4321, 0xffff };

		c->kvm.rcx = (c->kvm.rcx & ~CTL_CODE) | codes[gen_below(sizeof(codes) / 2)];
		break;
	}
	case M_TRUNCATE:
		c->kvm.mem_len = p->bytes - 8u * (1 + gen_below(p->banks));
		break;
	case M_FORMAT:
		put_word(c, 1, 2 + (gen_below(2) ? gen_below(16) : gen_rnd() >> 1));
		break;
	case M_MISALIGN: {
		uint32_t off = 1 + gen_below(7);

		memmove((uint8_t *)mut_page + off, hv_page, KVMR_PAGE_BYTES);
		c->kvm.mem = (uint8_t *)mut_page + off;
		c->kvm.mem_gpa += off;
		c->kvm.rdx = c->kvm.mem_gpa;
		break;
	}
	case M_XMM12: {
		uint32_t i;

		c->kvm.rcx = (uint64_t)CODE_IPI_EX | CTL_FAST |
			     (12ull << CTL_VARHDR_SHIFT);
		c->kvm.rdx = k->vector;
		c->kvm.r8 = 0;
		c->kvm.mem = NULL;
		c->kvm.mem_len = 0;
		vbm = 0;
		while (popcount64(vbm) < 12)
			vbm |= 1ull << gen_below(64);
		c->kvm.xmm[0] = vbm;
		for (i = 1; i < 12; i++)
			c->kvm.xmm[i] = gen_rnd();
		c->has_xmm = true;
		/* advertised: the check is the bank count, not the CPUID */
		c->kvm.cluster_ipi = c->kvm.ex_masks = c->kvm.xmm_input = true;
		break;
	}
	case M_NOXMM:
		c->kvm.xmm_input = false;
		c->has_xmm = false;
		break;
	case M_HINT_OFF:
		if ((c->kvm.rcx & CTL_CODE) == CODE_IPI_EX && gen_below(2))
			c->kvm.ex_masks = false;
		else
			c->kvm.cluster_ipi = false;
		break;
	case M_FAST_RDX_HIGH:
		c->kvm.rdx |= (uint64_t)(1 + gen_below(0xffffffffu)) << 32;
		break;
	case M_EMPTY_SET:
		c->kvm.rcx &= ~CTL_VARHDR;
		put_word(c, 2, 0);
		if (gen_below(2))
			put_word(c, 0, bad_vector());
		break;
	case M_SLOW_SEND_IPI:
		/* the same Send-IPI with its 16 input bytes in the page */
		mut_page[0] = c->kvm.rdx;
		mut_page[1] = c->kvm.r8;
		c->kvm.rcx &= ~CTL_FAST;
		c->kvm.mem = mut_page;
		c->kvm.mem_len = KVMR_PAGE_BYTES;
		c->kvm.mem_gpa = k->gpa;
		c->kvm.rdx = k->gpa;
		c->kvm.r8 = 0;
		break;
	default:
		break;
	}
}

/*
 * The receiver's reading of the call as KVM takes it, for the variants
 * that KVM accepts where the receiver does not: the input aligned
 * (M_MISALIGN), whole (M_TRUNCATE), with XMM input (M_NOXMM).
 */
static void relaxed(enum mut m, const struct kvmr_case *k,
		    const struct hvipi_plan *p, const struct kvmr_xcall *c,
		    const struct rx_result *rr, struct rx_result *ref)
{
	struct kvmr_xcall rc;

	if (m != M_MISALIGN && m != M_TRUNCATE && m != M_NOXMM) {
		*ref = *rr;
		return;
	}
	kvmr_plan_call(k, p, &rc);
	if (m == M_NOXMM)
		rc = *c, rc.has_xmm = true;
	kvmr_rx_run(&rc, ref);
}

/* Put a disagreement down to its class; C_COUNT if none explains it. */
static enum cls classify(enum mut m, const struct kvmr_case *k,
			 const struct hvipi_plan *p, const struct kvmr_xcall *c,
			 const struct rx_result *rr, const struct rx_result *ref,
			 const struct kvmr_result *kr)
{
	/* KVM: success, and the vCPUs of the relaxed reading */
	bool kvm_ok = !kr->ud && kr->ret == 1 && kr->skips == 1 &&
		      kr->rax_written && kr->rax == kvmr_status_success &&
		      ref->status == RX_ST_SUCCESS && kvmr_same_vcpus(k, ref, kr);

	if (kr->unexpected || kr->dup_irqs || kr->bad_irqs)
		return C_COUNT;
	switch (m) {
	case M_MISALIGN:
		if (rr->status == RX_ST_INVALID_ALIGN && kvm_ok)
			return C_ALIGN;
		break;
	case M_TRUNCATE:
		if (rr->status == RX_ST_INVALID_INPUT && p->banks > kvmr_sparse_banks &&
		    c->kvm.mem_len >= 24u + 8u * kvmr_sparse_banks && kvm_ok)
			return C_16BANKS;
		break;
	case M_NOXMM:
		if (rr->status == RX_ST_INVALID_INPUT &&
		    (c->kvm.enforce ? kr->ud && !kr->rax_written && kr->nr_irqs == 0 &&
				      kr->skips == 0 :
		     kvm_ok && kr->xmm_read))
			return C_NOXMM;
		break;
	case M_HINT_OFF:
		if (c->kvm.enforce && rr->status == RX_ST_SUCCESS && !kr->ud &&
		    kr->ret == 1 && kr->rax_written &&
		    kr->rax == kvmr_status_access_denied && kr->nr_irqs == 0)
			return C_ACCESS;
		break;
	default:
		break;
	}
	return C_COUNT;
}

static bool check_mutation(const struct kvmr_case *k, const struct hvipi_plan *p,
			   struct stats *st)
{
	struct rx_result rr, ref;
	struct kvmr_result kr;
	struct kvmr_xcall c;
	enum mut m;
	enum cls cl;

	do
		m = (enum mut)gen_below(M_COUNT);
	while (!mut_applies(m, p));
	kvmr_plan_call(k, p, &c);
	mutate(m, k, p, &c);
	st->mut_tried[m]++;
	kvmr_rx_run(&c, &rr);
	relaxed(m, k, p, &c, &rr, &ref);
	kvmr_hypercall(&c.kvm, ref.vector, &kr);
	if (kr.ud)
		st->ud_seen++;
	else if (kr.rax_written)
		st->status_seen[kr.rax & 15u]++;
	if (kvmr_agree(k, &rr, &kr)) {
		st->mut_agree[m]++;
		return true;
	}
	cl = classify(m, k, p, &c, &rr, &ref, &kr);
	if (cl != C_COUNT) {
		st->cls[cl]++;
		return true;
	}
	st->mut_failed[m]++;
	{
		char what[160];

		snprintf(what, sizeof(what),
			 "negative check \"%s\": KVM and the receiver disagree (unclassified)",
			 mut_name[m]);
		kvmr_report(k, what, p, &rr, &kr);
		if (kvmr_reports <= kvmr_max_reports)
			fprintf(stderr, "  call: control=%#" PRIx64 " rdx=%#" PRIx64 " r8=%#" PRIx64 " mem_len=%zu gpa=%#" PRIx64 " cpuid cluster=%d ex=%d xmm=%d enforce=%d\n",
				c.kvm.rcx, c.kvm.rdx, c.kvm.r8,
				c.kvm.mem ? c.kvm.mem_len : 0, c.kvm.mem_gpa,
				c.kvm.cluster_ipi, c.kvm.ex_masks,
				c.kvm.xmm_input, c.kvm.enforce);
	}
	return false;
}

/* ---- one case ---- */

static bool run_case(struct kvmr_case *k, struct stats *st)
{
	struct hvipi_plan p;
	struct or_expect e;
	bool one = k->form == F_ONE;
	uint32_t size = k->page ? KVMR_PAGE_BYTES : 0;

	or_sets(&sets, k->mask, one ? NULL : k->hv_present, k->nr, k->vp,
		one ? k->cpu : k->self, one ? false : k->excl);
	or_expect(&e, &sets, k->vector, k->hints, k->page, size);
	ck_plan_glue(&p, one, k->cpu, k->mask, k->hv_present, k->nr, k->vp,
		     k->self, k->excl, k->vector, k->hints,
		     k->page ? hv_page : NULL, size, sizeof(hv_page));
	st->cases++;
	st->form[k->form]++;
	st->beyond += k->beyond;
	if (p.kind > HVIPI_PLAN_EX_XMM || p.kind != e.kind || p.reason != e.reason) {
		kvmr_report(k, "hvipi: kind/reason differs from the oracle", &p, NULL, NULL);
		return false;
	}
	st->kind[p.kind]++;
	if (p.kind == HVIPI_PLAN_NONE || p.kind == HVIPI_PLAN_FALLBACK)
		return true;		/* nothing is sent */
	if (!k->nvcpu) {
		st->not_run++;		/* no vCPU to run the call on */
		return true;
	}
	if (!kvmr_vm_set(k->nvcpu, k->vm_vp)) {
		kvmr_report(k, "KVM refused the VM's VP indexes", &p, NULL, NULL);
		return false;
	}
	if (kvmr_mismatched())
		st->mismatch_path++;
	else
		st->identity_path++;
	st->sent++;
	return kvmr_check_plan(k, &p, &sets, &st->ps) && check_mutation(k, &p, st);
}

int main(int argc, char **argv)
{
	uint32_t words = HVIPI_MASK_WORDS(KVMR_NR_MAX);
	uint64_t seed = gen_time_seed(), ncases = 200000, i;
	uint64_t agreed = 0, classified = 0, failed = 0;
	struct stats st;
	struct kvmr_case k;
	clock_t t0 = clock();
	int w;

	gen_args(argc, argv, &seed, &ncases);
	printf("kvm_ref: KVM side: %s, arch/x86/kvm/hyperv.c compiled unchanged (KVM_MAX_VCPUS %u, %u sparse banks)\n",
	       KREF_PKG_VERSION, KVMR_MAX_VCPUS, kvmr_sparse_banks);
	gen_banner("kvm_ref", seed, ncases, 0);
	gen_state = seed;
	memset(&st, 0, sizeof(st));
	memset(&sets, 0, sizeof(sets));
	memset(&k, 0, sizeof(k));
	k.vp = gen_xmalloc(KVMR_NR_MAX * sizeof(*k.vp));
	k.mask = gen_xmalloc(words * sizeof(*k.mask));
	k.present = gen_xmalloc(words * sizeof(*k.present));
	k.vm_cpu = gen_xmalloc(KVMR_MAX_VCPUS * sizeof(*k.vm_cpu));
	k.vm_vp = gen_xmalloc(KVMR_MAX_VCPUS * sizeof(*k.vm_vp));
	k.cpu_vcpu = gen_xmalloc(KVMR_NR_MAX * sizeof(*k.cpu_vcpu));
	k.hv_page = hv_page;
	if (!kvmr_vm_set(0, NULL)) {
		fprintf(stderr, "kvm_ref: the VM could not be created\n");
		ck_write_counts(0, 1);
		return 1;
	}

	for (i = 0; i < ncases; i++) {
		make_case(&k);
		if (!run_case(&k, &st))
			st.failures++;
	}

	printf("kvm_ref: forms:");
	for (w = 0; w < F_COUNT; w++)
		printf(" %s=%" PRIu64, form_name[w], st.form[w]);
	printf(" (beyond KVM_MAX_VCPUS: %" PRIu64 ")\nkvm_ref: plans:", st.beyond);
	for (w = 0; w < 6; w++)
		printf(" %s=%" PRIu64, ck_kind_name(w), st.kind[w]);
	printf("\nkvm_ref: sent to KVM: %" PRIu64 " (EX_XMM %" PRIu64 ", CPUID enforced %" PRIu64
	       "; KVM's identity path %" PRIu64 ", VP-index lookup path %" PRIu64
	       "), %" PRIu64 " vCPU interrupts; not run (no vCPU): %" PRIu64 "\n",
	       st.sent, st.ps.xmm_sent, st.ps.enforce_sent, st.identity_path,
	       st.mismatch_path, st.ps.irqs, st.not_run);
	printf("kvm_ref: every sent plan: KVM status 0, the receiver's VP set, the case's vector\n");
	printf("kvm_ref: negative checks (one malformed variant per sent plan): agree / classified / FAILED\n");
	for (w = 0; w < M_COUNT; w++) {
		printf("  %-32s %8" PRIu64 " tried %8" PRIu64 " agree %8" PRIu64 " failed\n",
		       mut_name[w], st.mut_tried[w], st.mut_agree[w],
		       st.mut_failed[w]);
		agreed += st.mut_agree[w];
		failed += st.mut_failed[w];
	}
	printf("  KVM results seen:");
	for (w = 0; w < 16; w++)
		if (st.status_seen[w])
			printf(" status %d: %" PRIu64, w, st.status_seen[w]);
	printf(", #UD: %" PRIu64 "\n", st.ud_seen);
	printf("kvm_ref: findings, KVM 6.1 vs tests/receiver (classified differences, not failures):\n");
	for (w = 0; w < C_COUNT; w++) {
		printf("  %8" PRIu64 "  %s\n", st.cls[w], cls_name[w]);
		classified += st.cls[w];
	}
	printf("  %8" PRIu64 "  sets with VPs >= 1024 (%" PRIu64 " VPs): receiver interrupts them, KVM 6.1 has no such VP (ignores banks >= 16)\n",
	       st.ps.dropped_cases, st.ps.dropped_vps);
	printf("  %8" PRIu64 "  page plans with > 16 banks: KVM 6.1 reads 16 of them, the receiver all\n",
	       st.ps.banks_gt16);
	printf("kvm_ref: negative checks: %" PRIu64 " agree, %" PRIu64 " classified, %" PRIu64 " unclassified\n",
	       agreed, classified, failed);
	printf("kvm_ref: %s, seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       KREF_PKG_VERSION, seed, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(k.vp);
	free(k.mask);
	free(k.present);
	free(k.vm_cpu);
	free(k.vm_vp);
	free(k.cpu_vcpu);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
