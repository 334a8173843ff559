/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvmr_env: the VM around Linux 6.1's arch/x86/kvm/hyperv.c (compiled
 * unchanged against shim/): its vCPUs, the calling vCPU's registers and
 * XMM registers, guest memory, and the recorders of what a hypercall does
 * (interrupts, result, #UD, guest reads).  Compiled with the shim headers
 * and the real hyperv.h, so that the structures are the ones hyperv.c was
 * compiled with.
 */
#include "kvmr_kernel.h"
#include "hyperv.h"	/* the real arch/x86/kvm/hyperv.h */

bool enable_apicv = true;
static const struct kvm_x86_nested_ops kvmr_nested_ops;	/* no eVMCS */
struct kvm_x86_ops kvm_x86_ops = { .nested_ops = &kvmr_nested_ops };

const uint16_t kvmr_status_success = HV_STATUS_SUCCESS;
const uint16_t kvmr_status_invalid_input = HV_STATUS_INVALID_HYPERCALL_INPUT;
const uint16_t kvmr_status_invalid_code = HV_STATUS_INVALID_HYPERCALL_CODE;
const uint16_t kvmr_status_access_denied = HV_STATUS_ACCESS_DENIED;
/* hyperv.c's KVM_HV_MAX_SPARSE_VCPU_SET_BITS: banks that can hold a vCPU. */
const uint32_t kvmr_sparse_banks = DIV_ROUND_UP(KVM_MAX_VCPUS, 64);
const uint64_t kvmr_format_sparse = HV_GENERIC_SET_SPARSE_4K;
const uint64_t kvmr_format_all = HV_GENERIC_SET_ALL;

static struct kvm vm;
static struct kvm_vcpu vcpus[KVM_MAX_VCPUS];
static struct kvm_vcpu *vcpu_ptrs[KVM_MAX_VCPUS];
static struct kvm_run run;
static struct kvm_lapic lapic;
static uint32_t dirty;		/* vCPUs from here up have their own VP index */
static bool ready;

static const struct kvmr_call *cur;	/* the call in progress, or NULL */
static struct kvmr_result *res;
static uint32_t cur_vector;
static unsigned int setup_unexpected;

void kvmr_unexpected(const char *what)
{
	if (res) {
		if (!res->unexpected++)
			res->unexpected_what = what;
	} else {
		setup_unexpected++;
	}
}

static bool vm_init(void)
{
	uint32_t i;

	vm.vcpus = vcpu_ptrs;
	kvm_hv_init_vm(&vm);
	for (i = 0; i < KVM_MAX_VCPUS; i++) {
		vcpus[i].kvm = &vm;
		vcpus[i].vcpu_id = (int)i;
		vcpus[i].vcpu_idx = (int)i;
		vcpus[i].run = &run;
		vcpus[i].arch.apic = &lapic;
		vcpus[i].arch.cpuid[0].function = HYPERV_CPUID_FEATURES;
		vcpus[i].arch.cpuid[1].function = HYPERV_CPUID_ENLIGHTMENT_INFO;
		vcpu_ptrs[i] = &vcpus[i];
	}
	atomic_set(&vm.online_vcpus, (int)KVM_MAX_VCPUS);
	/* KVM's vCPU creation: the Hyper-V state, VP index = vCPU index */
	for (i = 0; i < KVM_MAX_VCPUS; i++)
		if (kvm_hv_vcpu_init(&vcpus[i]) ||
		    kvm_hv_get_vpindex(&vcpus[i]) != i)
			return false;
	ready = true;
	return setup_unexpected == 0;
}

bool kvmr_vm_set(uint32_t n, const uint32_t *vp)
{
	uint32_t i;

	if (!ready && !vm_init())
		return false;
	if (n > KVM_MAX_VCPUS)
		return false;
	atomic_set(&vm.online_vcpus, (int)KVM_MAX_VCPUS);
	for (i = 0; i < n; i++)
		if (kvm_hv_set_msr_common(&vcpus[i], HV_X64_MSR_VP_INDEX,
					  vp[i], true))
			return false;
	for (; i < dirty; i++)
		if (kvm_hv_set_msr_common(&vcpus[i], HV_X64_MSR_VP_INDEX, i,
					  true))
			return false;
	dirty = n;
	atomic_set(&vm.online_vcpus, (int)n);
	for (i = 0; i < n; i++)
		if (kvm_hv_get_vpindex(&vcpus[i]) != vp[i])
			return false;
	return setup_unexpected == 0;
}

int kvmr_mismatched(void)
{
	return atomic_read(&to_kvm_hv(&vm)->num_mismatched_vp_indexes);
}

/* ---- the services hyperv.c calls on the hypercall path ---- */

u64 kvmr_reg(struct kvm_vcpu *vcpu, int which)
{
	(void)vcpu;
	if (!cur)
		return KVMR_NOT_HERE(0);
	switch (which) {
	case KVMR_RCX:
		return cur->rcx;
	case KVMR_RDX:
		return cur->rdx;
	case KVMR_R8:
		return cur->r8;
	default:	/* the 32-bit convention's registers */
		return KVMR_NOT_HERE(0);
	}
}

void kvmr_set_result(struct kvm_vcpu *vcpu, u64 rax)
{
	(void)vcpu;
	if (!res)
		return;
	res->rax_written = true;
	res->rax = rax;
}

void kvm_queue_exception(struct kvm_vcpu *vcpu, unsigned int nr)
{
	(void)vcpu;
	if (res && nr == UD_VECTOR)
		res->ud = true;
	else
		kvmr_unexpected(__func__);
}

int kvm_skip_emulated_instruction(struct kvm_vcpu *vcpu)
{
	(void)vcpu;
	if (res)
		res->skips++;
	return 1;
}

struct kvm_cpuid_entry2 *kvm_find_cpuid_entry(struct kvm_vcpu *vcpu,
					      u32 function)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vcpu->arch.cpuid); i++)
		if (vcpu->arch.cpuid[i].function == function)
			return &vcpu->arch.cpuid[i];
	return NULL;
}

/* Guest memory: cur->mem_len bytes at cur->mem_gpa; nothing else mapped. */
int kvm_read_guest(struct kvm *kvm, gpa_t gpa, void *data, unsigned long len)
{
	u64 off;

	(void)kvm;
	if (!cur || !res)
		return KVMR_NOT_HERE(-EFAULT);
	res->reads++;
	off = gpa - cur->mem_gpa;
	if (!cur->mem || gpa < cur->mem_gpa || off > cur->mem_len ||
	    len > cur->mem_len - off) {
		res->read_faults++;
		return -EFAULT;
	}
	memcpy(data, (const u8 *)cur->mem + off, len);
	if (off + len > res->read_end)
		res->read_end = off + len;
	return 0;
}

void kvm_fpu_get(void)
{
}

void kvm_fpu_put(void)
{
}

void _kvm_read_sse_reg(int reg, sse128_t *data)
{
	if (!cur || reg < 0 || reg >= 6) {
		kvmr_unexpected(__func__);
		data->lo = data->hi = 0;
		return;
	}
	res->xmm_read = true;
	data->lo = cur->xmm[2 * reg];
	data->hi = cur->xmm[2 * reg + 1];
}

/* The interrupt recorder (lapic.c's kvm_apic_set_irq in the kernel). */
int kvm_apic_set_irq(struct kvm_vcpu *vcpu, struct kvm_lapic_irq *irq,
		     void *dest_map)
{
	uint32_t i = (uint32_t)vcpu->vcpu_idx;

	if (!res || dest_map || i >= KVM_MAX_VCPUS) {
		kvmr_unexpected(__func__);
		return 0;
	}
	if (!res->nr_irqs)
		res->vector = irq->vector;
	res->nr_irqs++;
	if (irq->delivery_mode != APIC_DM_FIXED || irq->vector != cur_vector)
		res->bad_irqs++;
	if ((res->vcpus[i / 64u] >> (i % 64u)) & 1u)
		res->dup_irqs++;
	res->vcpus[i / 64u] |= 1ull << (i % 64u);
	return 1;
}

/*
 * The flush requests (kvm_main.c in the kernel): KVM_REQ_TLB_FLUSH_GUEST to
 * every online vCPU, or to each online vCPU whose bit is set (the kernel
 * skips bits kvm_get_vcpu() has no vCPU for); recorded, nothing else.
 */
static void kvmr_flush_vcpu(uint32_t i)
{
	if ((res->flushed[i / 64u] >> (i % 64u)) & 1u)
		res->flush_dup++;
	res->flushed[i / 64u] |= 1ull << (i % 64u);
}

bool kvm_make_all_cpus_request(struct kvm *kvm, unsigned int req)
{
	uint32_t i, n = (uint32_t)atomic_read(&kvm->online_vcpus);

	if (!res || req != KVM_REQ_TLB_FLUSH_GUEST) {
		kvmr_unexpected(__func__);
		return false;
	}
	res->flush_calls++;
	res->flush_all++;
	for (i = 0; i < n; i++)
		kvmr_flush_vcpu(i);
	return true;
}

bool kvm_make_vcpus_request_mask(struct kvm *kvm, unsigned int req,
				 unsigned long *vcpu_bitmap)
{
	uint32_t i, n = (uint32_t)atomic_read(&kvm->online_vcpus);

	if (!res || req != KVM_REQ_TLB_FLUSH_GUEST) {
		kvmr_unexpected(__func__);
		return false;
	}
	res->flush_calls++;
	for (i = 0; i < KVM_MAX_VCPUS; i++) {
		if (!((vcpu_bitmap[i / BITS_PER_LONG] >> (i % BITS_PER_LONG)) & 1ul))
			continue;
		if (i < n)
			kvmr_flush_vcpu(i);
		else
			res->flush_offline++;
	}
	return true;
}

/*
 * The VP-set trace points (shim/kvmr_kernel.h): what KVM read of the
 * call's set, as it read it; recorded only during a call.
 */
static void kvmr_trace(bool ex, u64 format, u64 vbm, u64 mask, u64 flags,
		       u32 vector)
{
	if (!res)
		return;
	res->traces++;
	res->tr_ex = ex;
	res->tr_format = format;
	res->tr_vbm = vbm;
	res->tr_mask = mask;
	res->tr_flags = flags;
	res->tr_vector = vector;
}

void kvmr_trace_send_ipi(u32 vector, u64 processor_mask)
{
	kvmr_trace(false, 0, 0, processor_mask, 0, vector);
}

void kvmr_trace_send_ipi_ex(u32 vector, u64 format, u64 valid_bank_mask)
{
	kvmr_trace(true, format, valid_bank_mask, 0, 0, vector);
}

void kvmr_trace_flush_tlb(u64 processor_mask, u64 address_space, u64 flags)
{
	(void)address_space;
	kvmr_trace(false, 0, 0, processor_mask, flags, 0);
}

void kvmr_trace_flush_tlb_ex(u64 valid_bank_mask, u64 format,
			     u64 address_space, u64 flags)
{
	(void)address_space;
	kvmr_trace(true, format, valid_bank_mask, 0, flags, 0);
}

void kvmr_hypercall(const struct kvmr_call *c, uint32_t expect_vector,
		    struct kvmr_result *r)
{
	struct kvm_vcpu *vcpu;

	memset(r, 0, sizeof(*r));
	if (!ready || c->vcpu >= (uint32_t)atomic_read(&vm.online_vcpus)) {
		r->unexpected = 1;
		r->unexpected_what = "no such vCPU";
		return;
	}
	vcpu = &vcpus[c->vcpu];
	/* the calling vCPU's CPUID, as userspace would set it */
	vcpu->arch.cpuid[0].edx = c->xmm_input ?
		HV_X64_HYPERCALL_XMM_INPUT_AVAILABLE : 0;
	vcpu->arch.cpuid[1].eax =
		(c->cluster_ipi ? HV_X64_CLUSTER_IPI_RECOMMENDED : 0) |
		(c->ex_masks ? HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED : 0) |
		(c->remote_flush ? HV_X64_REMOTE_TLB_FLUSH_RECOMMENDED : 0);
	kvm_hv_set_cpuid(vcpu, true);
	if (kvm_hv_set_enforce_cpuid(vcpu, c->enforce)) {
		r->unexpected = 1;
		r->unexpected_what = "kvm_hv_set_enforce_cpuid";
		return;
	}
	cur = c;
	res = r;
	cur_vector = expect_vector;
	r->ret = kvm_hv_hypercall(vcpu);
	cur = NULL;
	res = NULL;
}
