/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvmr_check: an hvipi plan's hypercall issued to KVM 6.1's own
 * kvm_hv_hypercall() (kvmr_env.c) and to the receiver model, as the
 * kvm_ref suite does it; shared by kvm_ref.c (random cases, negative
 * checks) and the exhaustive suite (every small case).
 *
 * kvmr_make_vm() turns a guest (nr_cpu_ids, VP table, present CPUs) into
 * the VM it runs in: a vCPU for each present CPU whose VP KVM can hold
 * (below KVMR_MAX_VCPUS), duplicates included, and for each present CPU
 * whose VP the guest does not know (VP_INVAL), with a VP no other vCPU
 * has.  kvmr_check_plan() issues a plan that makes a hypercall on the
 * sender's vCPU (vCPU 0 if it has none): KVM must return status 0,
 * interrupt exactly the vCPUs whose VP index the receiver model decoded
 * (every vCPU for "all"), each once, in fixed mode with the case's
 * vector, read XMM registers only for EX_XMM, and the input bytes the
 * receiver read (up to the 16 banks KVM reads).
 */
#ifndef KVMR_CHECK_H
#define KVMR_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "hvipi.h"
#include "kvmr.h"
#include "oracle.h"
#include "rx.h"

#define KVMR_NR_MAX		4096u	/* nr_cpu_ids at most */
#define KVMR_PAGE_BYTES		4096u
#define KVMR_NO_VCPU		0xffffffffu

/* A guest, its send, and the VM it runs in. */
struct kvmr_case {
	int form;			/* the harness's form */
	const char *form_name;
	bool beyond;			/* VPs up to 4095, nr up to 4096 */
	uint32_t nr;
	uint32_t *vp;
	unsigned long *mask;		/* the mask sent (F_ONE: {cpu}) */
	unsigned long *present;		/* the VM: a vCPU per present CPU */
	const unsigned long *hv_present;/* present or NULL */
	uint32_t self, cpu;
	bool excl;
	uint32_t vector;
	uint32_t hints;
	bool page;
	bool enforce;
	/* the VM */
	uint32_t nvcpu;
	uint32_t *vm_cpu;		/* vCPU -> CPU */
	uint32_t *vm_vp;		/* vCPU -> VP index */
	uint32_t *cpu_vcpu;		/* CPU -> vCPU or KVMR_NO_VCPU */
	uint64_t gpa;			/* the input page's GPA */
	const uint64_t *hv_page;	/* hvipi's input page (KVMR_PAGE_BYTES) */
};

/* A call: as KVM gets it (registers, guest memory, CPUID), and for the receiver. */
struct kvmr_xcall {
	struct kvmr_call kvm;
	bool has_xmm;			/* receiver: XMM input in use */
};

/* What kvmr_check_plan() counts. */
struct kvmr_plan_stats {
	uint64_t irqs;			/* vCPU interrupts */
	uint64_t xmm_sent, enforce_sent;
	uint64_t dropped_cases, dropped_vps;	/* VPs >= 1024 in the receiver's set */
	uint64_t banks_gt16;		/* page plans with > 16 banks (KVM reads 16) */
};

/* Failure reports to stderr; quiet after kvmr_max_reports. */
extern unsigned int kvmr_reports, kvmr_max_reports;
void kvmr_report(const struct kvmr_case *k, const char *what,
		 const struct hvipi_plan *p, const struct rx_result *rr,
		 const struct kvmr_result *kr);

static inline bool kvmr_vcpu_bit(const uint64_t *v, uint32_t i)
{
	return (v[i / 64u] >> (i % 64u)) & 1u;
}

/* Fill k's VM (nvcpu, vm_cpu, vm_vp, cpu_vcpu) from nr, vp and present. */
void kvmr_make_vm(struct kvmr_case *k);

/* The receiver model's reading of @c (KVM's rules). */
int kvmr_rx_run(const struct kvmr_xcall *c, struct rx_result *r);

/* KVM interrupted exactly the vCPUs the receiver's result names. */
bool kvmr_same_vcpus(const struct kvmr_case *k, const struct rx_result *rr,
		     const struct kvmr_result *kr);

/* The two receivers agree: the status in rax, the vCPUs, the vector. */
bool kvmr_agree(const struct kvmr_case *k, const struct rx_result *rr,
		const struct kvmr_result *kr);

/* The call of plan @p as the glue makes it (XMM registers: random). */
void kvmr_plan_call(const struct kvmr_case *k, const struct hvipi_plan *p,
		    struct kvmr_xcall *c);

/*
 * Issue plan @p (one that makes a hypercall) on the VM, which must be set
 * (kvmr_vm_set() with k's vm_vp), and to the receiver model; @sets: the
 * oracle's sets of the case.  Returns false (reported) on a disagreement.
 */
bool kvmr_check_plan(const struct kvmr_case *k, const struct hvipi_plan *p,
		     const struct or_sets *sets, struct kvmr_plan_stats *st);

#endif /* KVMR_CHECK_H */
