/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvmr_check: an hvipi plan through KVM 6.1 and the receiver model
 * (kvmr_check.h); the kvm_ref and exhaustive suites.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gen.h"
#include "kvmr_check.h"

unsigned int kvmr_reports, kvmr_max_reports = 10;
static uint32_t kvmr_free_vps[KVMR_MAX_VCPUS];

/*
 * The VM: a vCPU for each present CPU whose VP KVM can hold (first one
 * per VP, then the duplicates, then the CPUs with VP_INVAL, which get a
 * VP no vCPU has), up to KVMR_MAX_VCPUS, numbered in CPU order.
 */
void kvmr_make_vm(struct kvmr_case *k)
{
	static bool used[KVMR_MAX_VCPUS];
	static bool pick[KVMR_NR_MAX];
	uint32_t c, n = 0, nfree = 0, pass, v;

	memset(used, 0, sizeof(used));
	memset(pick, 0, sizeof(pick));
	for (pass = 0; pass < 3; pass++) {
		for (c = 0; c < k->nr && n < KVMR_MAX_VCPUS; c++) {
			v = k->vp[c];
			if (!gen_test_bit(k->present, c) || pick[c])
				continue;
			if (pass == 0 ? v < KVMR_MAX_VCPUS && !used[v] :
			    pass == 1 ? v < KVMR_MAX_VCPUS : v == GEN_INVAL) {
				if (v < KVMR_MAX_VCPUS)
					used[v] = true;
				pick[c] = true;
				n++;
			}
		}
		if (pass == 1)
			for (v = KVMR_MAX_VCPUS; v-- > 0;)
				if (!used[v])
					kvmr_free_vps[nfree++] = v;
	}
	k->nvcpu = 0;
	for (c = 0; c < k->nr; c++) {
		k->cpu_vcpu[c] = KVMR_NO_VCPU;
		if (!pick[c])
			continue;
		v = k->vp[c];
		if (v == GEN_INVAL)
			v = kvmr_free_vps[--nfree];	/* the lowest free VPs first */
		k->cpu_vcpu[c] = k->nvcpu;
		k->vm_cpu[k->nvcpu] = c;
		k->vm_vp[k->nvcpu] = v;
		k->nvcpu++;
	}
}

/* ---- reporting ---- */

void kvmr_report(const struct kvmr_case *k, const char *what,
		   const struct hvipi_plan *p, const struct rx_result *rr,
		   const struct kvmr_result *kr)
{
	uint32_t c, shown = 0;

	if (kvmr_reports++ >= kvmr_max_reports)
		return;
	fprintf(stderr, "FAIL: %s\n  form=%s beyond=%d nr=%u self=%u cpu=%u excl=%d vector=%#x hints=%#x page=%s enforce=%d present=%s vcpus=%u mismatched=%d\n",
		what, k->form_name, k->beyond, k->nr, k->self, k->cpu,
		k->excl, k->vector, k->hints, k->page ? "4096" : "NULL",
		k->enforce, k->hv_present ? "yes" : "NULL", k->nvcpu,
		kvmr_mismatched());
	fprintf(stderr, "  targets (cpu:vp/vcpu):");
	for (c = 0; c < k->nr && shown < 24; c++) {
		if (gen_test_bit(k->mask, c) && !(k->excl && c == k->self)) {
			fprintf(stderr, " %u:%#x/%d", c, k->vp[c],
				k->cpu_vcpu[c] == KVMR_NO_VCPU ? -1 : (int)k->cpu_vcpu[c]);
			shown++;
		}
	}
	fprintf(stderr, "%s\n", shown >= 24 ? " ..." : "");
	if (p)
		fprintf(stderr, "  plan: kind=%s reason=%u control=%#" PRIx64 " rdx=%#" PRIx64 " r8=%#" PRIx64 " vbm=%#" PRIx64 " banks=%u bytes=%u\n",
			ck_kind_name(p->kind), p->reason,
			p->control, p->rdx, p->r8, p->valid_bank_mask,
			p->banks, p->bytes);
	if (rr)
		fprintf(stderr, "  receiver: status=%u why=%s delivered=%d all=%d nr_vps=%u vector=%#x read=%zu\n",
			rr->status, rr->why, rr->delivered, rr->all,
			rr->nr_vps, rr->vector, rr->bytes_read);
	if (kr)
		fprintf(stderr, "  KVM: ret=%d rax=%s%#" PRIx64 " ud=%d irqs=%u dup=%u bad=%u vector=%#x xmm_read=%d reads=%u faults=%u read_end=%" PRIu64 " unexpected=%u (%s)\n",
			kr->ret, kr->rax_written ? "" : "(not written)",
			kr->rax, kr->ud, kr->nr_irqs, kr->dup_irqs,
			kr->bad_irqs, kr->vector, kr->xmm_read, kr->reads,
			kr->read_faults, kr->read_end, kr->unexpected,
			kr->unexpected_what ? kr->unexpected_what : "-");
}

/* ---- one call to both receivers ---- */

int kvmr_rx_run(const struct kvmr_xcall *c, struct rx_result *r)
{
	const struct kvmr_call *kc = &c->kvm;

	return ck_decode(r, kc->rcx, kc->rdx, kc->r8, c->has_xmm ? kc->xmm : NULL,
			 kc->mem, kc->mem ? kc->mem_len : 0, false);
}

/* KVM interrupted exactly the vCPUs the receiver's result names. */
bool kvmr_same_vcpus(const struct kvmr_case *k, const struct rx_result *rr,
		       const struct kvmr_result *kr)
{
	uint32_t i;

	if (kr->dup_irqs || kr->bad_irqs)
		return false;
	for (i = 0; i < k->nvcpu; i++) {
		bool want = rr->delivered &&
			    (rr->all || rx_vp_test(rr, k->vm_vp[i]));

		if (kvmr_vcpu_bit(kr->vcpus, i) != want)
			return false;
	}
	return kr->nr_irqs == 0 || kr->vector == rr->vector;
}

/* The two receivers agree: the status in rax, the vCPUs, the vector. */
bool kvmr_agree(const struct kvmr_case *k, const struct rx_result *rr,
		  const struct kvmr_result *kr)
{
	return !kr->unexpected && !kr->ud && kr->ret == 1 && kr->skips == 1 &&
	       kr->rax_written && kr->rax == rr->status &&
	       (rr->status != RX_ST_SUCCESS ? kr->nr_irqs == 0 :
		kvmr_same_vcpus(k, rr, kr));
}

/* ---- the plan's own call ---- */

void kvmr_plan_call(const struct kvmr_case *k, const struct hvipi_plan *p,
		      struct kvmr_xcall *c)
{
	uint32_t sender = k->cpu_vcpu[k->self], i;

	memset(c, 0, sizeof(*c));
	c->kvm.vcpu = sender == KVMR_NO_VCPU ? 0 : sender;
	c->kvm.rcx = p->control;
	c->kvm.cluster_ipi = k->hints & HVIPI_HINT_CLUSTER_IPI;
	c->kvm.ex_masks = k->hints & HVIPI_HINT_EX_MASKS;
	c->kvm.xmm_input = k->hints & HVIPI_HINT_XMM_INPUT;
	c->kvm.enforce = k->enforce;
	for (i = 0; i < 12u; i++)	/* what the XMM registers hold anyway */
		c->kvm.xmm[i] = gen_rnd();
	if (p->kind == HVIPI_PLAN_FAST || p->kind == HVIPI_PLAN_EX_XMM) {
		c->kvm.rdx = p->rdx;
		c->kvm.r8 = p->r8;
		if (p->kind == HVIPI_PLAN_EX_XMM) {
			c->has_xmm = true;
			for (i = 0; i < 12u; i++)
				c->kvm.xmm[i] = p->input[2 + i];
		}
	} else {
		c->kvm.rdx = k->gpa;	/* the glue passes the page's GPA */
		c->kvm.r8 = 0;
		c->kvm.mem = k->hv_page;
		c->kvm.mem_len = KVMR_PAGE_BYTES;
		c->kvm.mem_gpa = k->gpa;
	}
}

/* The plan's call: receiver and KVM, checked against the oracle's set. */
bool kvmr_check_plan(const struct kvmr_case *k, const struct hvipi_plan *p,
		     const struct or_sets *sets, struct kvmr_plan_stats *st)
{
	struct rx_result rr;
	struct kvmr_result kr;
	struct kvmr_xcall c;
	uint32_t i, want_read;
	bool ex = p->kind == HVIPI_PLAN_EX_SPARSE || p->kind == HVIPI_PLAN_EX_ALL;

	kvmr_plan_call(k, p, &c);
	/* the receiver, on exactly the bytes the plan sends (as tests/common) */
	{
		struct kvmr_xcall rc = c;

		if (ex)
			rc.kvm.mem_len = p->bytes;
		if (kvmr_rx_run(&rc, &rr) || !rr.delivered || rr.vector != k->vector ||
		    !ck_rx_targets(&rr, p->kind, sets)) {
			kvmr_report(k, "receiver: the plan is rejected or reads another set", p, &rr, NULL);
			return false;
		}
	}
	kvmr_hypercall(&c.kvm, k->vector, &kr);
	st->irqs += kr.nr_irqs;
	if (!kvmr_agree(k, &rr, &kr) || kr.rax != kvmr_status_success) {
		kvmr_report(k, "KVM: the plan is not accepted, or other vCPUs / another vector", p, &rr, &kr);
		return false;
	}
	if (kr.xmm_read != (p->kind == HVIPI_PLAN_EX_XMM)) {
		kvmr_report(k, "KVM: XMM registers read for a plan that is not EX_XMM, or not read for EX_XMM", p, &rr, &kr);
		return false;
	}
	/* the vCPUs of the target CPUs: all interrupted (all vCPUs for "all") */
	for (i = 0; i < k->nvcpu; i++) {
		uint32_t c2 = k->vm_cpu[i];
		bool target = gen_test_bit(k->mask, c2) && !(k->excl && c2 == k->self);

		if ((target || p->kind == HVIPI_PLAN_EX_ALL) &&
		    !kvmr_vcpu_bit(kr.vcpus, i)) {
			kvmr_report(k, "KVM: a target CPU's vCPU is not interrupted", p, &rr, &kr);
			return false;
		}
		if (p->kind == HVIPI_PLAN_EX_ALL && !target) {
			kvmr_report(k, "\"all\" format while a vCPU is not a target", p, &rr, &kr);
			return false;
		}
	}
	/* input bytes: the receiver reads the whole set, KVM 16 banks at most */
	if (ex) {
		want_read = p->kind == HVIPI_PLAN_EX_ALL ? 24u :
			    24u + 8u * (p->banks < kvmr_sparse_banks ?
					p->banks : kvmr_sparse_banks);
		if (kr.read_end != want_read || rr.bytes_read != p->bytes ||
		    (p->banks <= kvmr_sparse_banks && kr.read_end != rr.bytes_read)) {
			kvmr_report(k, "KVM and the receiver read other input bytes", p, &rr, &kr);
			return false;
		}
		if (p->banks > kvmr_sparse_banks)
			st->banks_gt16++;
	} else if (kr.reads) {
		kvmr_report(k, "KVM read guest memory for a fast call", p, &rr, &kr);
		return false;
	}
	/* VPs KVM cannot have: in the receiver's set, no vCPU interrupted */
	if (!rr.all) {
		uint32_t dropped = 0;

		/* the receiver's VP bits from KVMR_MAX_VCPUS up, a word at a time */
		for (i = KVMR_MAX_VCPUS / 64u; i < RX_VP_WORDS; i++)
			dropped += (uint32_t)__builtin_popcountll(rr.vps[i]);
		if (dropped) {
			st->dropped_cases++;
			st->dropped_vps += dropped;
		}
	}
	st->xmm_sent += p->kind == HVIPI_PLAN_EX_XMM;
	st->enforce_sent += k->enforce;
	return true;
}
