/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * flush_kvm_ref: the receiver model of the remote TLB flush calls
 * (tests/receiver/rx_flush.c) against the real KVM 6.1 code, on the
 * flushes the real Linux 6.1 guest code makes and on crafted ones.
 *
 *  - Linux: arch/x86/hyperv/mmu.c's hyperv_flush_tlb_multi(), run through
 *    kernel_ref/kflush_mmu.c on random cpumasks over random VP tables
 *    (VPs >= 64, gaps between banks, VPs up to 4095 and beyond, VP_INVAL),
 *    random ranges (TLB_FLUSH_ALL, small, large, unaligned, empty, just
 *    over the list's capacity), with and without an mm, the EX hint on and
 *    off.  Its hypercall (control word, input page) is the call.
 *  - KVM: arch/x86/kvm/hyperv.c's kvm_hv_hypercall() (kvmr_env.c), in a VM
 *    of one vCPU per present CPU whose VP KVM can hold; the flush requests
 *    it makes (KVM_REQ_TLB_FLUSH_GUEST, kvm_make_all_cpus_request /
 *    kvm_make_vcpus_request_mask) are recorded per vCPU.
 *  - the model, twice: RXF_KVM (must give exactly KVM's #UD, result word
 *    and flushed vCPUs: anything else fails) and RXF_TLFS (every
 *    difference from KVM must be put down to an RXF_DEV_* rule the call
 *    met; counted per rule; an unexplained one fails).
 *  - Linux's calls are also held to what they must do: a successful call
 *    flushes the vCPU of every CPU of the mask (or the miss is Linux's
 *    empty Ex set for VPs >= 4096, spec/FLUSH_RULES.md 5.1: counted), and
 *    under the TLFS reading its list covers the pages of its range.
 *  - hvipi_plan_flush() plans the same flush on the same guest (its own
 *    page); its call goes to the three receivers too, and must be
 *    accepted by KVM, flush exactly the target CPUs' vCPUs, and list the
 *    range's pages and no other (or flush the whole space).
 *  - each Linux call is then mutated (crafted, malformed), and calls are
 *    also made up from scratch, and the three receivers compared again.
 *
 * Usage: flush_kvm_ref [SEED [CASES]]   or env HVIPI_SEED, HVIPI_CASES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counts.h"
#include "gen.h"
#include "hvipi.h"
#include "kflush.h"
#include "kref_version.h"
#include "kvmr.h"
#include "kvmr_check.h"
#include "rx_flush.h"

#define PAGE_WORDS	512u
#define GUARD_WORDS	16u
#define XW		(PAGE_WORDS + GUARD_WORDS)
#define GMEM_BYTES	(3u * 4096u)
#define GPA_BASE	0x7654000ull
#define UNIT		(4096ull * 4096ull)
#define TOP		(~0ull)
#define FILLB		0xa5u

/* ---- the crafted-call description ---- */

struct xc {
	uint64_t control;
	uint64_t w[XW];		/* input words */
	uint32_t nw;		/* words written (slow) */
	uint32_t off;		/* slow: byte offset of the input from GPA_BASE */
	uint32_t mapped;	/* slow: bytes mapped from GPA_BASE */
	uint32_t hints;		/* RXF_HINT_* */
	bool enforce;
	uint32_t vcpu;
};

enum mut {
	M_NONE, M_RSVD, M_VARHDR_UP, M_VARHDR_DOWN, M_REP0, M_REP_SPACE,
	M_REP_START, M_REP_START_HIGH, M_FAST, M_BANKMASK, M_EMPTY, M_FORMAT1,
	M_FORMAT2, M_ALLPROC_EX, M_FLAGS_RSVD, M_NONGLOBAL, M_EXT_RANGE,
	M_CODE, M_CROSS, M_TRUNCATE, M_MISALIGN, M_HINT, M_HIGH_BANKS,
	M_SYNTH, M_COUNT
};
static const char *const mut_name[M_COUNT] = {
	"linux (as sent)", "reserved control bit", "var_hdr + 1", "var_hdr - 1",
	"rep count 0 (List)", "rep count/start on Space", "0 < rep start < count",
	"rep start >= count", "fast (XMM) form", "valid_bank_mask != var_hdr",
	"empty set", "format 1 (all)", "format 2..", "ALL_PROCESSORS on Ex",
	"flag bits 4..63", "NON_GLOBAL on List", "EXTENDED_RANGE flag",
	"another call code", "input crosses into the next page",
	"input cut short (unmapped)", "misaligned GPA", "hint withdrawn",
	"banks >= 16 (VPs >= 1024)", "made up from scratch"
};

/* ---- state ---- */

static uint32_t vp[KVMR_NR_MAX], vm_cpu[KVMR_MAX_VCPUS], vm_vp[KVMR_MAX_VCPUS],
	cpu_vcpu[KVMR_NR_MAX];
static struct cpumask present, cpus;
static uint64_t lpage[XW] __attribute__((aligned(4096)));
static uint64_t hpage[XW] __attribute__((aligned(4096)));	/* hvipi's */
static uint8_t gmem[GMEM_BYTES] __attribute__((aligned(4096)));
static uint64_t part_vps[RX_VP_WORDS];
static struct kvmr_case kc;

struct stats {
	uint64_t cases, failures;
	uint64_t linux_cases, linux_native, linux_noop, linux_code[0x15];
	uint64_t linux_empty_ex, linux_band, linux_end_page_missed, linux_pages_checked;
	uint64_t linux_ok, vm_empty;
	uint64_t mut_tried[M_COUNT], mut_tlfs_differ[M_COUNT];
	uint64_t dev_met[RXF_DEV_COUNT], dev_sole[RXF_DEV_COUNT], dev_combined;
	uint64_t kvm_status[8], kvm_ud;
	uint64_t flushed_vcpus, flush_all_reqs, offline_bits;
	/* hvipi_plan_flush() on the same guest and flush */
	uint64_t hv_cases, hv_none, hv_fallback, hv_code[0x15], hv_ok;
	uint64_t hv_all, hv_partition, hv_pages_checked;
};
static struct stats st;
static unsigned int reports;

/* ---- calls ---- */

static uint32_t ctl_code(uint64_t c) { return (uint32_t)(c & 0xffff); }
static uint32_t ctl_varhdr(uint64_t c) { return (uint32_t)(c >> 17) & 0x3ffu; }
static uint32_t ctl_repcnt(uint64_t c) { return (uint32_t)(c >> 32) & 0xfffu; }
static bool is_ex(uint32_t code) { return code == RXF_CODE_SPACE_EX || code == RXF_CODE_LIST_EX; }
static bool is_list(uint32_t code) { return code == RXF_CODE_LIST || code == RXF_CODE_LIST_EX; }

static uint64_t with_varhdr(uint64_t c, uint32_t v)
{
	return (c & ~(0x3ffull << 17)) | ((uint64_t)(v & 0x3ffu) << 17);
}

static uint64_t with_reps(uint64_t c, uint32_t cnt, uint32_t start)
{
	return (c & ~((0xfffull << 32) | (0xfffull << 48))) |
	       ((uint64_t)(cnt & 0xfffu) << 32) | ((uint64_t)(start & 0xfffu) << 48);
}

/* Input words the call's layout has: header, banks, list. */
static uint32_t layout_words(uint64_t c)
{
	uint32_t code = ctl_code(c);

	return (is_ex(code) ? 4u + ctl_varhdr(c) : 3u) +
	       (is_list(code) ? ctl_repcnt(c) : 0u);
}

static void to_calls(const struct xc *x, uint32_t rules, struct rxf_call *rc,
		     struct kvmr_call *kcall)
{
	bool fast = (x->control >> 16) & 1u;
	uint32_t i;

	memset(gmem, FILLB, sizeof(gmem));
	if (!fast) {
		uint32_t n = x->nw;

		if (x->off + 8u * n > GMEM_BYTES)
			n = (GMEM_BYTES - x->off) / 8u;
		memcpy(gmem + x->off, x->w, 8u * n);
	}
	memset(rc, 0, sizeof(*rc));
	rc->control = x->control;
	rc->rdx = fast ? x->w[0] : GPA_BASE + x->off;
	rc->r8 = fast ? x->w[1] : 0;
	for (i = 0; i < 12u; i++)
		rc->xmm[i] = fast ? x->w[2 + i] : 0x5a5a5a5a00000000ull + i;
	rc->mem = gmem;
	rc->mem_len = x->mapped;
	rc->mem_gpa = GPA_BASE;
	rc->vps = part_vps;
	rc->hints = x->hints;
	rc->enforce = x->enforce;
	rc->rules = rules;
	if (!kcall)
		return;
	memset(kcall, 0, sizeof(*kcall));
	kcall->vcpu = x->vcpu;
	kcall->remote_flush = x->hints & RXF_HINT_REMOTE_FLUSH;
	kcall->ex_masks = x->hints & RXF_HINT_EX;
	kcall->xmm_input = x->hints & RXF_HINT_XMM;
	kcall->enforce = x->enforce;
	kcall->rcx = rc->control;
	kcall->rdx = rc->rdx;
	kcall->r8 = rc->r8;
	memcpy(kcall->xmm, rc->xmm, sizeof(kcall->xmm));
	kcall->mem = gmem;
	kcall->mem_len = x->mapped;
	kcall->mem_gpa = GPA_BASE;
}

/* The model's result and KVM's are the same; else *why says how not. */
static bool same(const struct rxf_result *m, const struct kvmr_result *kr,
		 const char **why)
{
	uint32_t i;

	*why = "?";
	if (kr->unexpected) {
		*why = kr->unexpected_what ? kr->unexpected_what : "KVM reached a stub";
		return false;
	}
	if (kr->flush_dup) {
		*why = "KVM asked a vCPU twice";
		return false;
	}
	if (m->ud || kr->ud) {
		*why = "#UD on one side only";
		return m->ud && kr->ud && !kr->rax_written && !kr->flush_calls;
	}
	if (kr->ret != 1 || kr->skips != 1 || !kr->rax_written) {
		*why = "KVM did not complete the hypercall";
		return false;
	}
	if (kr->rax != m->rax) {
		*why = "result word (status / reps completed)";
		return false;
	}
	for (i = 0; i < kc.nvcpu; i++) {
		bool want = m->status == RX_ST_SUCCESS && rxf_vp_test(m, vm_vp[i]);

		if (kvmr_vcpu_bit(kr->flushed, i) != want) {
			*why = "flushed vCPUs";
			return false;
		}
	}
	return true;
}

static void report(const char *what, const char *why, const struct xc *x,
		   const struct rxf_result *m, const struct kvmr_result *kr)
{
	if (reports++ >= 12)
		return;
	fprintf(stderr, "FAIL: %s: %s\n  control=%#" PRIx64 " words=%u off=%u mapped=%u hints=%#x enforce=%d vcpu=%u nvcpu=%u mismatched=%d w0..4=%#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64 "\n",
		what, why, x->control, x->nw, x->off, x->mapped, x->hints,
		x->enforce, x->vcpu, kc.nvcpu, kvmr_mismatched(), x->w[0],
		x->w[1], x->w[2], x->w[3], x->w[4]);
	if (m)
		fprintf(stderr, "  model: ud=%d status=%u rax=%#" PRIx64 " why=%s all=%d nr_vps=%u empty=%d dev=%#x\n",
			m->ud, m->status, m->rax, m->why, m->all, m->nr_vps,
			m->empty_set, m->dev);
	if (kr)
		fprintf(stderr, "  KVM: ret=%d ud=%d rax=%s%#" PRIx64 " flush_calls=%u all=%u dup=%u offline=%u xmm_read=%d reads=%u faults=%u unexpected=%u\n",
			kr->ret, kr->ud, kr->rax_written ? "" : "(not written)",
			kr->rax, kr->flush_calls, kr->flush_all, kr->flush_dup,
			kr->flush_offline, kr->xmm_read, kr->reads,
			kr->read_faults, kr->unexpected);
}

/*
 * One call to the three receivers.  Returns false (reported) on a
 * disagreement of the KVM reading with KVM, or an unexplained one of the
 * TLFS reading; *mk, *mt, *kr: the results.
 */
static bool run3(const struct xc *x, enum mut mu, struct rxf_result *mk,
		 struct rxf_result *mt, struct kvmr_result *kr)
{
	struct rxf_call rc;
	struct kvmr_call kcall;
	const char *why;
	uint32_t d;
	bool fast = (x->control >> 16) & 1u;

	to_calls(x, RXF_KVM, &rc, &kcall);
	rxf_decode(&rc, mk);
	rc.rules = RXF_TLFS;
	rxf_decode(&rc, mt);
	kvmr_hypercall(&kcall, 0, kr);
	st.mut_tried[mu]++;
	if (kr->ud)
		st.kvm_ud++;
	else if (kr->rax_written)
		st.kvm_status[(kr->rax & 0xffff) < 8 ? (kr->rax & 0xffff) : 7]++;
	st.flush_all_reqs += kr->flush_all;
	st.offline_bits += kr->flush_offline;
	if (!same(mk, kr, &why)) {
		report(mut_name[mu], why, x, mk, kr);
		return false;
	}
	if (kr->xmm_read != (fast && !kr->ud && (ctl_code(x->control) == RXF_CODE_SPACE ||
		ctl_code(x->control) == RXF_CODE_LIST || is_ex(ctl_code(x->control))) &&
		!(x->control & 0xf000f000f8000000ull) &&
		!(x->enforce && (!(x->hints & RXF_HINT_REMOTE_FLUSH) ||
				 (is_ex(ctl_code(x->control)) && !(x->hints & RXF_HINT_EX)))))) {
		report(mut_name[mu], "KVM read the XMM registers for a slow call, or not for a fast one", x, mk, kr);
		return false;
	}
	if (!same(mt, kr, &why)) {
		struct rxf_result mx;
		unsigned int i, it, sole = 0;

		/*
		 * The TLFS reading with KVM's on the rules the call met must be
		 * KVM's result (the rules met can grow as the path changes)
		 */
		d = mt->dev | mk->dev;
		for (it = 0; it < 4; it++) {
			rc.rules = d;
			rxf_decode(&rc, &mx);
			if ((mx.dev | d) == d)
				break;
			d |= mx.dev;
		}
		if (!d || !same(&mx, kr, &why)) {
			report(mut_name[mu], "TLFS reading differs from KVM, and KVM's reading of the rules met does not explain it", x, mt, kr);
			return false;
		}
		st.mut_tlfs_differ[mu]++;
		/* the rules that alone explain it */
		for (i = 0; i < RXF_DEV_COUNT; i++) {
			if (!(d >> i & 1u))
				continue;
			st.dev_met[i]++;
			rc.rules = 1u << i;
			rxf_decode(&rc, &mx);
			if (same(&mx, kr, &why)) {
				st.dev_sole[i]++;
				sole++;
			}
		}
		if (!sole)
			st.dev_combined++;
	}
	return true;
}

/* ---- the guest and its VM ---- */

static const struct gen_nr_mix nr_mix = { { 35, 65, 100 }, { 64, 512, KVMR_MAX_VCPUS } };
static const struct gen_nr_mix nr_mix_beyond = { { 0, 100 }, { 64, KVMR_NR_MAX } };
static const struct gen_table_mix table_mix = {
	.identity = 25, .permuted = 45, .strided = 60, .high = 72, .random = 85,
	.fit = true, .huge_in = 20
};
static const struct gen_mask_mix mask_mix = {
	.empty = 5, .one = 20, .few = 45, .dense = 70, .range = 80, .copy = 80
};

static bool make_guest(bool *ex_hint, uint32_t *maxvp)
{
	uint32_t words, c, i, m = 0;
	bool beyond = gen_below(7) == 0;

	kc.nr = gen_nr(beyond ? &nr_mix_beyond : &nr_mix);
	words = (kc.nr + 63u) / 64u;
	gen_table(vp, kc.nr, beyond ? 4096u : KVMR_MAX_VCPUS, &table_mix);
	/* VPs read as int by 6.1: keep them below 2^31 (or VP_INVAL) */
	for (c = 0; c < kc.nr; c++) {
		if (vp[c] != GEN_INVAL && vp[c] >= 0x80000000u)
			vp[c] &= 0x7fffffffu;
		if (vp[c] != GEN_INVAL && vp[c] > m)
			m = vp[c];
	}
	*maxvp = m;
	memset(&present, 0, sizeof(present));
	memset(&cpus, 0, sizeof(cpus));
	gen_present(present.bits, words, kc.nr, gen_below(100), false);
	kc.self = gen_below(kc.nr);
	gen_set_bit(present.bits, kc.self);
	if (gen_below(100) < 15) {
		memcpy(cpus.bits, present.bits, words * 8u);
	} else {
		gen_mask(cpus.bits, words, kc.nr, kc.self, NULL, &mask_mix);
		for (i = 0; i < words; i++)
			cpus.bits[i] &= present.bits[i];
	}
	*ex_hint = gen_below(8) != 0;
	kc.vp = vp;
	kc.present = present.bits;
	kc.cpu_vcpu = cpu_vcpu;
	kc.vm_cpu = vm_cpu;
	kc.vm_vp = vm_vp;
	kvmr_make_vm(&kc);
	if (!kc.nvcpu) {	/* every present CPU's VP >= 1024: no VM */
		st.vm_empty++;
		return false;
	}
	if (!kvmr_vm_set(kc.nvcpu, kc.vm_vp)) {
		st.cases++;
		st.failures++;
		fprintf(stderr, "FAIL: KVM refused a VP index of the VM (%u vCPUs)\n", kc.nvcpu);
		return false;
	}
	memset(part_vps, 0, sizeof(part_vps));
	for (i = 0; i < kc.nvcpu; i++)
		part_vps[vm_vp[i] / 64u] |= 1ull << (vm_vp[i] % 64u);
	return true;
}

static void make_range(uint64_t *start, uint64_t *end, bool *mm)
{
	uint32_t r = gen_below(100);
	uint64_t s = (gen_rnd() >> (gen_below(20) + 17)) & ~0xfffull;

	*mm = gen_below(3) != 0;
	if (r < 30) {
		*start = 0;
		*end = TOP;		/* TLB_FLUSH_ALL */
		return;
	}
	if (gen_below(4) == 0)
		s += gen_below(4096);	/* unaligned start */
	*start = s;
	if (r < 65)
		*end = s + 4096ull * (1 + gen_below(33)) - (gen_below(3) ? 0 : gen_below(4096));
	else if (r < 80)
		*end = s + 4096ull * (1 + gen_below(8 * 4096));
	else if (r < 88)	/* just over the list's capacity, or beyond */
		*end = s + (uint64_t)(440 + gen_below(80)) * UNIT + gen_below(1u << 24);
	else if (r < 94)
		*end = s;		/* empty */
	else
		*end = s + (gen_rnd() >> gen_below(64));
}

/* ---- Linux's call, checked ---- */

/*
 * Pages @first .. @first + @nl - 1 are flushed by the TLFS reading @mt of
 * a List call: every page when @nl <= 64, else a random sample of about
 * 32 (counted in *@checked).
 */
static bool pages_listed(const struct rxf_result *mt, uint64_t first,
			 uint32_t nl, uint64_t *checked)
{
	uint32_t i;

	for (i = 0; i < nl; i += (nl > 64 ? 1u + gen_below(nl / 32u) : 1u)) {
		(*checked)++;
		if (!rxf_page_flushed(mt, first + i))
			return false;
	}
	return true;
}


static bool check_linux_call(const struct xc *x, uint64_t start, uint64_t end)
{
	struct rxf_result mk, mt;
	struct kvmr_result kr;
	uint32_t c, nl;
	bool empty_ex;

	if (!run3(x, M_NONE, &mk, &mt, &kr))
		return false;
	if (kr.ud || kr.rax_written == false || (kr.rax & 0xffff) != 0) {
		report("linux", "KVM rejected Linux's call", x, &mk, &kr);
		return false;
	}
	/* every CPU of the mask with a vCPU is flushed */
	empty_ex = is_ex(ctl_code(x->control)) && x->w[3] == 0;
	for (c = 0; c < kc.nr; c++) {
		if (!gen_test_bit(cpus.bits, c) || cpu_vcpu[c] == KVMR_NO_VCPU)
			continue;
		if (!kvmr_vcpu_bit(kr.flushed, cpu_vcpu[c])) {
			if (empty_ex)
				break;	/* counted below */
			report("linux", "a vCPU of the mask is not flushed", x, &mk, &kr);
			return false;
		}
	}
	if (empty_ex) {	/* empty set, but no vCPU to miss */
		st.linux_empty_ex++;
		mt.empty_set = false;	/* the list is still checked below */
	}
	/* the TLFS reading: the list covers the pages of the range */
	if (is_list(ctl_code(x->control))) {
		if (mt.status == RX_ST_INVALID_ALIGN && (mt.dev & RXF_DEV_PAGE)) {
			st.linux_band++;	/* the list one entry past the page */
			return true;
		}
		if (mt.status != RX_ST_SUCCESS || !mt.list_read) {
			report("linux", "TLFS reading rejects Linux's List call", x, &mt, &kr);
			return false;
		}
		nl = end > start ? (uint32_t)((end - start + 4095) / 4096) : 1u;
		if (!pages_listed(&mt, start >> 12, nl, &st.linux_pages_checked)) {
			report("linux", "a page of the range is not in the list (TLFS reading)", x, &mt, &kr);
			return false;
		}
		if (!rxf_page_flushed(&mt, (start >> 12) + nl - 1) ||
		    (nl > 1 && rxf_page_flushed(&mt, (start >> 12) + nl)) ||
		    rxf_page_flushed(&mt, (start >> 12) - 1)) {
			report("linux", "the list covers pages outside the range", x, &mt, &kr);
			return false;
		}
		if (end > start && ((end - 1) >> 12) != (start >> 12) + nl - 1)
			st.linux_end_page_missed++;	/* unaligned start: the page of end - 1 */
	} else if (mt.status != RX_ST_SUCCESS) {
		report("linux", "TLFS reading rejects Linux's Space call", x, &mt, &kr);
		return false;
	}
	st.linux_ok++;
	return true;
}

/* ---- hvipi's call, checked ---- */

/*
 * hvipi_plan_flush() on the guest and flush Linux was given: the same
 * mask, VP table, range, mm (its address space) and hints, its own page.
 * The present mask goes to the core only when present_partition holds
 * here: every present CPU has a vCPU with the CPU's own VP (not a CPU
 * whose VP is unknown, given a free VP by kvmr_make_vm()), so the present
 * CPUs' VPs are the VM's (the VM is made of them); else NULL, as the glue
 * passes it when it cannot show the partition is the present set.  Its
 * call goes to the three receivers (run3: the KVM reading must be KVM's
 * result exactly, every TLFS difference explained by a rule), and must
 * then be accepted by the real KVM, flush exactly the vCPUs of the target
 * CPUs, and, read by the TLFS, list the pages of the range and no other
 * (sampled as for Linux's calls) or flush the whole space.
 */
static bool check_hvipi_call(uint64_t start, uint64_t end, bool mm,
			     bool ex_hint, uint64_t space)
{
	static uint64_t tvps[KVMR_MAX_VCPUS / 64u];
	struct hvipi_flush_plan p;
	struct rxf_result mk, mt;
	struct kvmr_result kr;
	struct xc x;
	uint32_t c, i, nl, code, opts;
	bool part = true;

	for (c = 0; c < kc.nr; c++)
		if (gen_test_bit(present.bits, c) &&
		    (cpu_vcpu[c] == KVMR_NO_VCPU || vm_vp[cpu_vcpu[c]] != vp[c]))
			part = false;
	opts = (mm ? 0 : HVIPI_FLUSH_OPT_ALL_SPACES) |
	       (end == TOP ? HVIPI_FLUSH_OPT_WHOLE : 0);
	for (i = 0; i < XW; i++)
		hpage[i] = 0x5a5a5a5a5a5a5a5aull;
	hvipi_plan_flush(&p, cpus.bits, part ? present.bits : NULL, kc.nr, vp,
			 gen_below(2) ? hvipi_vp_ident(vp, kc.nr) : 0, space,
			 start, end, opts,
			 HVIPI_HINT_REMOTE_FLUSH | (ex_hint ? HVIPI_HINT_EX_MASKS : 0),
			 hpage, 4096);
	st.hv_cases++;
	st.hv_partition += part;
	if (p.kind == HVIPI_FLUSH_NONE) {
		st.hv_none++;
		return true;
	}
	if (p.kind == HVIPI_FLUSH_FALLBACK) {
		st.hv_fallback++;
		return true;
	}
	memset(&x, 0, sizeof(x));
	x.control = p.control;
	memcpy(x.w, hpage, sizeof(x.w));
	x.nw = p.bytes / 8u;
	x.mapped = 2u * 4096u;
	x.hints = RXF_HINT_REMOTE_FLUSH | (ex_hint ? RXF_HINT_EX : 0);
	x.enforce = gen_below(2);
	x.vcpu = cpu_vcpu[kc.self] == KVMR_NO_VCPU ? 0 : cpu_vcpu[kc.self];
	code = ctl_code(p.control);
	st.hv_code[code < 0x15 ? code : 0]++;
	st.cases++;
	if (x.nw != layout_words(p.control)) {
		report("hvipi", "plan.bytes is not the call's layout", &x, NULL, NULL);
		return false;
	}
	if (!run3(&x, M_NONE, &mk, &mt, &kr))
		return false;
	if (kr.ud || !kr.rax_written || (kr.rax & 0xffff) != 0) {
		report("hvipi", "KVM rejected hvipi's call", &x, &mk, &kr);
		return false;
	}
	/* exactly the vCPUs of the target CPUs (a vCPU's VP is below 1024) */
	memset(tvps, 0, sizeof(tvps));
	for (c = 0; c < kc.nr; c++)
		if (gen_test_bit(cpus.bits, c) && vp[c] < KVMR_MAX_VCPUS)
			tvps[vp[c] / 64u] |= 1ull << (vp[c] % 64u);
	for (i = 0; i < kc.nvcpu; i++) {
		bool want = (tvps[vm_vp[i] / 64u] >> (vm_vp[i] % 64u)) & 1u;

		if (kvmr_vcpu_bit(kr.flushed, i) != want) {
			report("hvipi", want ? "a vCPU of the mask is not flushed" :
			       "a vCPU outside the mask is flushed", &x, &mk, &kr);
			return false;
		}
	}
	st.hv_all += kr.flush_all != 0;
	/* the TLFS reading: the pages of the range, or the whole space */
	if (mt.status != RX_ST_SUCCESS) {
		report("hvipi", "TLFS reading rejects hvipi's call", &x, &mt, &kr);
		return false;
	}
	if (is_list(code)) {
		if (!mt.list_read || end <= start || end == TOP) {
			report("hvipi", "a List call for no range", &x, &mt, &kr);
			return false;
		}
		nl = (uint32_t)(((end - 1) >> 12) - (start >> 12) + 1);
		if (!pages_listed(&mt, start >> 12, nl, &st.hv_pages_checked)) {
			report("hvipi", "a page of the range is not in the list (TLFS reading)", &x, &mt, &kr);
			return false;
		}
		if (!rxf_page_flushed(&mt, (start >> 12) + nl - 1) ||
		    rxf_page_flushed(&mt, (start >> 12) + nl) ||
		    ((start >> 12) && rxf_page_flushed(&mt, (start >> 12) - 1))) {
			report("hvipi", "the list covers pages outside the range", &x, &mt, &kr);
			return false;
		}
	} else if (!mt.whole_space) {
		report("hvipi", "a Space call not read as the whole space", &x, &mt, &kr);
		return false;
	}
	st.hv_ok++;
	return true;
}

/* ---- crafted calls ---- */

static void put_list(struct xc *x)
{
	uint32_t code = ctl_code(x->control);
	uint32_t hdr = is_ex(code) ? 4u + ctl_varhdr(x->control) : 3u, i;

	for (i = hdr; i < XW; i++)
		x->w[i] = (gen_rnd() & ~0xfffull) | gen_below(gen_below(2) ? 4096 : 16);
	x->nw = layout_words(x->control);
	if (x->nw > XW)
		x->nw = XW;
}

/* A call made up from scratch. */
static void synth(struct xc *x)
{
	static const uint32_t codes[] = { RXF_CODE_SPACE, RXF_CODE_LIST,
					  RXF_CODE_SPACE_EX, RXF_CODE_LIST_EX };
	uint32_t code = codes[gen_below(4)], nb = 0, i, k;
	uint64_t vbm = 0;

	x->w[0] = gen_below(2) ? 0 : gen_rnd() & 0x000ffffffffff000ull;
	x->w[1] = gen_below(8) ? gen_below(16) : gen_rnd();
	if (is_ex(code)) {
		x->w[2] = gen_below(6) ? 0 : gen_below(3);
		for (k = 0; k < (gen_below(4) ? 16u : 64u); k++)
			if (gen_below(4) == 0)
				vbm |= 1ull << k;
		if (gen_below(10) == 0)
			vbm = 0;
		x->w[3] = vbm;
		nb = (uint32_t)__builtin_popcountll(vbm);
		for (i = 0; i < nb; i++)
			x->w[4 + i] = gen_below(4) ? gen_rnd() & gen_rnd() : 0;
	} else {
		x->w[2] = gen_below(6) ? gen_rnd() & gen_rnd() : 0;
	}
	x->control = code | ((uint64_t)(gen_below(10) ? nb : gen_below(66)) << 17);
	if (is_list(code))
		x->control = with_reps(x->control, gen_below(12) ? 1 + gen_below(gen_below(2) ? 10 : 600) : 0,
				       gen_below(10) ? 0 : gen_below(8));
	put_list(x);
	if (gen_below(3) == 0)
		x->control |= 1ull << 16;	/* fast */
}

static bool mut_applies(enum mut m, const struct xc *x)
{
	uint32_t code = ctl_code(x->control);
	bool fast = (x->control >> 16) & 1u;

	switch (m) {
	case M_VARHDR_DOWN:
	case M_BANKMASK:
	case M_FORMAT1:
	case M_FORMAT2:
	case M_ALLPROC_EX:
	case M_HIGH_BANKS:
		return is_ex(code);
	case M_REP0:
	case M_REP_START:
	case M_REP_START_HIGH:
	case M_NONGLOBAL:
	case M_EXT_RANGE:
		return is_list(code);
	case M_REP_SPACE:
		return !is_list(code);
	case M_CROSS:
	case M_TRUNCATE:
	case M_MISALIGN:
		return !fast;
	default:
		return true;
	}
}

static void mutate(enum mut m, struct xc *x)
{
	static const uint8_t rsvd[] = { 27, 28, 29, 30, 31, 44, 45, 46, 47, 60, 61, 62, 63 };
	static const uint32_t other[] = { 0x0001, 0x0004, 0x0012, 0x0016, 0x0002,
					  0x0003, 0x0013, 0x0014 };
	uint64_t c = x->control;
	uint32_t code = ctl_code(c), vh = ctl_varhdr(c), cnt = ctl_repcnt(c), i, n, k;

	switch (m) {
	case M_NONE:
		break;
	case M_RSVD:
		x->control |= 1ull << rsvd[gen_below(sizeof(rsvd))];
		break;
	case M_VARHDR_UP:
		x->control = with_varhdr(c, vh + 1 + (gen_below(4) ? 0 : gen_below(70)));
		break;
	case M_VARHDR_DOWN:
		x->control = with_varhdr(c, vh ? vh - 1 : 0x3ff);
		break;
	case M_REP0:
		x->control = with_reps(c, 0, 0);
		break;
	case M_REP_SPACE:
		x->control = gen_below(2) ? with_reps(c, 1 + gen_below(4), 0) : with_reps(c, 0, 1 + gen_below(4));
		break;
	case M_REP_START:
		if (cnt < 2) {
			cnt = 2 + gen_below(6);
			x->control = with_reps(c, cnt, 0);
			put_list(x);
		}
		x->control = with_reps(x->control, cnt, 1 + gen_below(cnt - 1));
		break;
	case M_REP_START_HIGH:
		x->control = with_reps(c, cnt, cnt + gen_below(4));
		break;
	case M_FAST:
		x->control |= 1ull << 16;
		break;
	case M_BANKMASK:
		x->w[3] ^= 1ull << gen_below(gen_below(2) ? 16 : 64);
		break;
	case M_EMPTY:
		if (is_ex(code)) {
			if (gen_below(2)) {	/* no bank at all */
				x->w[3] = 0;
				x->control = with_varhdr(c, 0);
				memmove(x->w + 4, x->w + 4 + vh, 8u * (XW - 4 - vh));
				x->nw = layout_words(x->control);
			} else {		/* banks, all zero */
				for (i = 0; i < vh; i++)
					x->w[4 + i] = 0;
			}
		} else {
			x->w[1] &= ~RXF_F_ALL_PROCESSORS;
			x->w[2] = 0;
		}
		break;
	case M_FORMAT1:
		x->w[2] = 1;
		break;
	case M_FORMAT2:
		x->w[2] = gen_below(2) ? 2 + gen_below(6) : gen_rnd() | 2;
		break;
	case M_ALLPROC_EX:
		x->w[1] |= RXF_F_ALL_PROCESSORS;
		break;
	case M_FLAGS_RSVD:
		x->w[1] |= 1ull << (4 + gen_below(60));
		break;
	case M_NONGLOBAL:
		x->w[1] |= RXF_F_NON_GLOBAL;
		break;
	case M_EXT_RANGE:
		x->w[1] |= RXF_F_EXT_RANGE;
		break;
	case M_CODE:
		do
			k = other[gen_below(sizeof(other) / sizeof(other[0]))];
		while (k == code);
		x->control = (c & ~0xffffull) | k;
		break;
	case M_CROSS:	/* start near the end of the page, the next page mapped */
		n = x->nw < 64 ? x->nw : 64;
		x->off = 4096u - 8u * (1 + gen_below(n));
		x->mapped = GMEM_BYTES;
		break;
	case M_TRUNCATE:	/* mapped only up to somewhere in the input */
		x->mapped = x->off + 8u * gen_below(x->nw < 40 ? x->nw : 40) + gen_below(8);
		break;
	case M_MISALIGN:
		x->off += 1 + gen_below(7);
		break;
	case M_HINT:
		if (gen_below(2))
			x->hints &= ~RXF_HINT_REMOTE_FLUSH;
		else
			x->hints &= ~RXF_HINT_EX;
		break;
	case M_HIGH_BANKS: {	/* 17..40 banks from bank 10 on, all VPs set */
		uint64_t vbm = 0;

		n = 17 + gen_below(24);
		for (k = 10; k < 10 + n; k++)
			vbm |= 1ull << k;
		x->w[3] = vbm;
		x->control = with_varhdr(c, n);
		for (i = 0; i < n; i++)
			x->w[4 + i] = gen_below(2) ? ~0ull : gen_rnd();
		put_list(x);
		if (gen_below(2))	/* cut short after bank 16 */
			x->mapped = 8u * (4 + 16) + 8u * gen_below(n - 16);
		break;
	}
	case M_SYNTH:
		synth(x);
		break;
	case M_COUNT:
		break;
	}
	if (m != M_SYNTH && m != M_REP_START && m != M_HIGH_BANKS && m != M_EMPTY &&
	    x->nw < layout_words(x->control)) {
		/* the layout grew (var_hdr, rep count): garbage words after */
		for (i = x->nw; i < XW && i < layout_words(x->control); i++)
			x->w[i] = gen_rnd();
		x->nw = layout_words(x->control) < XW ? layout_words(x->control) : XW;
	}
	if (gen_below(5) == 0)
		x->hints ^= RXF_HINT_XMM;
	if (gen_below(5) == 0)
		x->enforce = !x->enforce;
}

/* ---- one case ---- */

static void one_case(void)
{
	struct kref_env e;
	struct kflush_call k;
	struct xc x, y;
	uint64_t start, end;
	uint32_t maxvp, code, i, nmut;
	bool ex_hint, mm;

	if (!make_guest(&ex_hint, &maxvp))
		return;
	make_range(&start, &end, &mm);
	memset(&x, 0, sizeof(x));
	memset(&e, 0, sizeof(e));
	e.nr_cpu_ids = kc.nr;
	e.vp_index = vp;
	e.max_vp_index = maxvp;
	e.ex_hint = ex_hint;
	e.present = &present;
	e.online = &present;
	e.input_page = lpage;
	e.self = (int)kc.self;
	for (i = 0; i < XW; i++)
		lpage[i] = 0x5a5a5a5a5a5a5a5aull;
	if (!kflush_setup(&e)) {
		st.cases++;
		st.failures++;
		report("linux", "hyperv_setup_mmu_ops() did not install its op", &x, NULL, NULL);
		return;
	}
	kflush_multi(&cpus, mm, start, end, &k);
	/* hvipi on the same guest and flush (its own stats and checks) */
	if (!check_hvipi_call(start, end, mm, ex_hint, mm ? kflush_mm_space() : 0))
		st.failures++;
	st.linux_cases++;
	if (k.nr_native) {
		st.linux_native++;
		return;
	}
	if (!k.nr_hcalls) {
		st.linux_noop++;
		return;
	}
	x.control = k.control;
	memcpy(x.w, lpage, sizeof(x.w));
	x.nw = layout_words(k.control) < XW ? layout_words(k.control) : XW;
	x.off = 0;
	x.mapped = 2u * 4096u;		/* the input page and the next */
	x.hints = RXF_HINT_REMOTE_FLUSH | (ex_hint ? RXF_HINT_EX : 0) |
		  (gen_below(2) ? RXF_HINT_XMM : 0);
	x.enforce = gen_below(2);
	x.vcpu = cpu_vcpu[kc.self] == KVMR_NO_VCPU ? 0 : cpu_vcpu[kc.self];
	code = ctl_code(k.control);
	st.linux_code[code < 0x15 ? code : 0]++;
	st.cases++;
	if (!check_linux_call(&x, start, end))
		st.failures++;
	/* crafted variants */
	nmut = 1 + gen_below(3);
	for (i = 0; i < nmut; i++) {
		struct rxf_result mk, mt;
		struct kvmr_result kr;
		enum mut m;

		do
			m = (enum mut)(1 + gen_below(M_COUNT - 1));
		while (!mut_applies(m, &x));
		y = x;
		mutate(m, &y);
		st.cases++;
		if (!run3(&y, m, &mk, &mt, &kr))
			st.failures++;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = gen_time_seed(), ncases = 100000, n;
	clock_t t0 = clock();
	unsigned int i;

	gen_args(argc, argv, &seed, &ncases);
	printf("flush_kvm_ref: Linux side: %s arch/x86/hyperv/mmu.c hyperv_flush_tlb_multi; "
	       "KVM side: arch/x86/kvm/hyperv.c kvm_hv_hypercall -> kvm_hv_flush_tlb; "
	       "model: tests/receiver/rx_flush.c (RXF_KVM, RXF_TLFS)\n", KREF_PKG_VERSION);
	gen_banner("flush_kvm_ref", seed, ncases, KVMR_NR_MAX);
	gen_state = seed;
	for (n = 0; n < ncases; n++)
		one_case();

	printf("flush_kvm_ref: Linux flushes %" PRIu64 ": hypercalls %" PRIu64
	       " (0x0002 %" PRIu64 ", 0x0003 %" PRIu64 ", 0x0013 %" PRIu64 ", 0x0014 %" PRIu64
	       "), native fallbacks %" PRIu64 ", no call (empty mask) %" PRIu64 "; guests without a vCPU (all VPs >= 1024, skipped) %" PRIu64 "\n",
	       st.linux_cases, st.linux_code[2] + st.linux_code[3] + st.linux_code[0x13] + st.linux_code[0x14],
	       st.linux_code[2], st.linux_code[3], st.linux_code[0x13], st.linux_code[0x14],
	       st.linux_native, st.linux_noop, st.vm_empty);
	printf("flush_kvm_ref: Linux calls fully right %" PRIu64 "; findings: empty Ex set (a VP >= 4096, FLUSH_RULES 5.1) %" PRIu64
	       ", list one entry past the page (TLFS status 4, KVM success) %" PRIu64
	       ", page of end - 1 not listed (unaligned start) %" PRIu64 "; pages checked %" PRIu64 "\n",
	       st.linux_ok, st.linux_empty_ex, st.linux_band, st.linux_end_page_missed,
	       st.linux_pages_checked);
	printf("flush_kvm_ref: hvipi flushes %" PRIu64 " (present passed %" PRIu64 "): calls %" PRIu64
	       " (0x0002 %" PRIu64 ", 0x0003 %" PRIu64 ", 0x0013 %" PRIu64 ", 0x0014 %" PRIu64
	       "), fallbacks %" PRIu64 ", nothing to flush %" PRIu64 "; accepted by KVM, exactly the target vCPUs, the range's pages: %" PRIu64
	       " (KVM's all-vCPU request %" PRIu64 "); pages checked %" PRIu64 "\n",
	       st.hv_cases, st.hv_partition,
	       st.hv_code[2] + st.hv_code[3] + st.hv_code[0x13] + st.hv_code[0x14],
	       st.hv_code[2], st.hv_code[3], st.hv_code[0x13], st.hv_code[0x14],
	       st.hv_fallback, st.hv_none, st.hv_ok, st.hv_all, st.hv_pages_checked);
	printf("flush_kvm_ref: KVM results: status 0 %" PRIu64 ", 2 %" PRIu64 ", 3 %" PRIu64 ", 6 %" PRIu64
	       ", other %" PRIu64 ", #UD %" PRIu64 "; all-vCPU requests %" PRIu64 ", mask bits of no vCPU %" PRIu64 "\n",
	       st.kvm_status[0], st.kvm_status[2], st.kvm_status[3], st.kvm_status[6],
	       st.kvm_status[1] + st.kvm_status[4] + st.kvm_status[5] + st.kvm_status[7],
	       st.kvm_ud, st.flush_all_reqs, st.offline_bits);
	printf("flush_kvm_ref: %-40s %10s %14s\n", "call (model RXF_KVM == KVM on all)", "tried", "TLFS != KVM");
	for (i = 0; i < M_COUNT; i++)
		printf("flush_kvm_ref: %-40s %10" PRIu64 " %14" PRIu64 "\n", mut_name[i],
		       st.mut_tried[i], st.mut_tlfs_differ[i]);
	printf("flush_kvm_ref: TLFS reading != KVM, each made KVM's by reading the rules it met as KVM does; per rule:\n"
	       "flush_kvm_ref:   %10s %10s  %s\n", "met", "alone", "rule (KVM reading; TLFS reading)");
	for (i = 0; i < RXF_DEV_COUNT; i++)
		printf("flush_kvm_ref:   %10" PRIu64 " %10" PRIu64 "  %s\n", st.dev_met[i],
		       st.dev_sole[i], rxf_dev_name(i));
	printf("flush_kvm_ref:   %10" PRIu64 " differences explained by no single rule (only by several together)\n",
	       st.dev_combined);
	printf("flush_kvm_ref: %s, seed %#" PRIx64 ", %" PRIu64 " cases, %" PRIu64 " failures, %.1f s\n",
	       KREF_PKG_VERSION, seed, st.cases, st.failures,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	ck_write_counts(st.cases - st.failures, st.failures);
	return st.failures ? 1 : 0;
}
