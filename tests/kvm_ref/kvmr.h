/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvmr: what the kvm_ref harness and the KVM side share.  The KVM side is
 * Linux 6.1's arch/x86/kvm/hyperv.c (with its hyperv.h), compiled
 * unchanged against the headers of shim/, plus kvmr_env.c: one VM of up
 * to KVMR_MAX_VCPUS vCPUs whose Hyper-V state the real hyperv.c code
 * creates and sets up (kvm_hv_set_msr_common() for HV_X64_MSR_VP_INDEX,
 * kvm_hv_set_cpuid(), kvm_hv_set_enforce_cpuid()), the register file and
 * guest memory a hypercall reads, and the interrupt recorder.  Plain C
 * types only, so that the harness needs no kernel header.
 */
#ifndef KVMR_H
#define KVMR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* KVM_MAX_VCPUS of 6.1 on x86 (arch/x86/include/asm/kvm_host.h). */
#define KVMR_MAX_VCPUS		1024u
#define KVMR_VCPU_WORDS		(KVMR_MAX_VCPUS / 64u)

/*
 * Set up the VM: vCPUs 0 .. n - 1 online, vCPU i with VP index vp[i]
 * (< KVMR_MAX_VCPUS), written through KVM's own MSR path (host-initiated
 * HV_X64_MSR_VP_INDEX), so that KVM keeps its count of VP indexes that
 * differ from the vCPU index as it does; the vCPUs from n up get their
 * own index back.  Returns false if KVM refused a write.
 */
bool kvmr_vm_set(uint32_t n, const uint32_t *vp);

/* KVM's count of VP indexes that are not their vCPU index. */
int kvmr_mismatched(void);

/*
 * One hypercall, as the calling vCPU's registers and guest memory hold it,
 * and what that vCPU's CPUID says (set through kvm_hv_set_cpuid() and
 * kvm_hv_set_enforce_cpuid() before the call).
 */
struct kvmr_call {
	uint32_t vcpu;			/* the calling vCPU */
	bool cluster_ipi;		/* HV_X64_CLUSTER_IPI_RECOMMENDED */
	bool ex_masks;			/* HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED */
	bool xmm_input;			/* HV_X64_HYPERCALL_XMM_INPUT_AVAILABLE */
	bool remote_flush;		/* HV_X64_REMOTE_TLB_FLUSH_RECOMMENDED */
	bool enforce;			/* KVM_CAP_HYPERV_ENFORCE_CPUID */
	uint64_t rcx, rdx, r8;		/* control, input, output (64-bit ABI) */
	uint64_t xmm[12];		/* xmm0..xmm5, low half first */
	const void *mem;		/* guest memory: mem_len bytes ... */
	size_t mem_len;
	uint64_t mem_gpa;		/* ... at this guest-physical address */
};

/* What it did. */
struct kvmr_result {
	int ret;			/* kvm_hv_hypercall()'s return */
	bool rax_written;
	uint64_t rax;			/* the result KVM wrote to rax */
	bool ud;			/* #UD queued instead */
	unsigned int skips;		/* kvm_skip_emulated_instruction() */
	bool xmm_read;			/* the XMM registers were read */
	/* kvm_apic_set_irq() calls */
	unsigned int nr_irqs;
	unsigned int dup_irqs;		/* a vCPU interrupted twice */
	unsigned int bad_irqs;		/* not fixed mode, or another vector */
	uint32_t vector;		/* the first call's vector */
	uint64_t vcpus[KVMR_VCPU_WORDS];/* bit i: vCPU i interrupted */
	/* guest memory reads (kvm_read_guest) */
	unsigned int reads, read_faults;
	uint64_t read_end;		/* highest byte offset read + 1, from mem_gpa */
	/*
	 * TLB flush requests (KVM_REQ_TLB_FLUSH_GUEST) made through
	 * kvm_make_all_cpus_request() / kvm_make_vcpus_request_mask(), as
	 * those do it: every online vCPU, or each online vCPU of the mask
	 */
	unsigned int flush_calls;	/* request calls (all or mask) */
	unsigned int flush_all;		/* ... of which for all vCPUs */
	unsigned int flush_dup;		/* a vCPU asked twice */
	unsigned int flush_offline;	/* mask bits of no online vCPU (skipped) */
	uint64_t flushed[KVMR_VCPU_WORDS];/* bit i: vCPU i asked to flush */
	/*
	 * What KVM read of the call's VP set, from its own trace points
	 * (trace_kvm_hv_send_ipi*, trace_kvm_hv_flush_tlb*; the last one
	 * reached): none when it rejected the call before reading the set.
	 */
	unsigned int traces;		/* VP-set trace points reached */
	bool tr_ex;			/* an Ex call: format and valid-bank mask */
	uint64_t tr_format;		/* Ex: the set's format */
	uint64_t tr_vbm;		/* Ex: valid_bank_mask; else 0 */
	uint64_t tr_mask;		/* non-Ex: the processor mask; else 0 */
	uint64_t tr_flags;		/* flush: the flags word; else 0 */
	uint32_t tr_vector;		/* IPI: the vector; else 0 */
	unsigned int unexpected;	/* a shim that the IPI path must not reach */
	const char *unexpected_what;
};

/*
 * Issue @c on the VM through KVM's kvm_hv_hypercall(); @expect_vector is
 * the vector every interrupt must carry (bad_irqs counts the others).
 */
void kvmr_hypercall(const struct kvmr_call *c, uint32_t expect_vector,
		    struct kvmr_result *r);

/* The 6.1 constants the harness checks against (from the TLFS headers). */
extern const uint16_t kvmr_status_success, kvmr_status_invalid_input,
	kvmr_status_invalid_code, kvmr_status_access_denied;
extern const uint32_t kvmr_sparse_banks;	/* KVM_HV_MAX_SPARSE_VCPU_SET_BITS */
extern const uint64_t kvmr_format_sparse, kvmr_format_all;	/* HV_GENERIC_SET_* */

#endif /* KVMR_H */
