/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kref_env: the kernel side's environment, compiled against shim/ and the
 * real 6.1 headers like hv_apic.c: the globals that the kernel defines
 * elsewhere (hv_common.c, hv_init.c, the APIC and cpumask code), the
 * hypercall recorders and the native APIC recorders (the orig_apic ops
 * that hv_apic.c falls back to).
 */
#include <string.h>

#include <asm/mshyperv.h>
#include <asm/apic.h>

/* what asm-generic/mshyperv.h declares */
struct ms_hyperv_info ms_hyperv;
void * __percpu *hyperv_pcpu_input_arg;
u32 *hv_vp_index;
u32 hv_max_vp_index;

/* what the x86 code declares */
void *hv_hypercall_pg;
struct hv_vp_assist_page **hv_vp_assist_page;

/* cpumask */
unsigned int nr_cpu_ids;
const struct cpumask *cpu_present_mask;
const struct cpumask *cpu_online_mask;
struct cpumask kref_cpu_mask;
unsigned int kref_cpu_mask_word;

int kref_self;
struct kref_rec kref_rec;
void (*kref_hcall_hook)(u64 control, void *input);

/* in_nmi(), and the processor counts of <asm/smp.h> (kref.h) */
bool kref_in_nmi;
unsigned int num_processors;
unsigned int disabled_cpus;

const int kref_ipi_low_vector = HV_IPI_LOW_VECTOR;
const int kref_ipi_high_vector = HV_IPI_HIGH_VECTOR;
const uint32_t kref_vp_inval = VP_INVAL;

static void *kref_input_slot;		/* this CPU's input page pointer */
static u64 kref_status;
static char kref_hcall_page;		/* hv_hypercall_pg: any non-NULL */

/* A slow call's input size: 24 bytes and 8 per variable-header word. */
__attribute__((noinline))
u64 kref_hcall_slow(u64 control, void *input, void *output)
{
	u32 varhead = (u32)((control & HV_HYPERCALL_VARHEAD_MASK) >>
			    HV_HYPERCALL_VARHEAD_OFFSET);
	u32 bytes = 24u + 8u * varhead;

	(void)output;
	if (kref_hcall_hook)
		kref_hcall_hook(control, input);
	if (kref_rec.nr_hcalls++ == 0) {
		kref_rec.control = control;
		kref_rec.fast = false;
		kref_rec.rdx = 0;
		kref_rec.r8 = 0;
		if (bytes > KREF_INPUT_MAX)
			bytes = KREF_INPUT_MAX;
		kref_rec.bytes = input ? bytes : 0;
		if (input)
			memcpy(kref_rec.input, input, bytes);
	}
	return kref_status;
}

__attribute__((noinline))
u64 kref_hcall_fast(u64 control, u64 input1, u64 input2)
{
	if (kref_rec.nr_hcalls++ == 0) {
		kref_rec.control = control;
		kref_rec.fast = true;
		kref_rec.rdx = input1;
		kref_rec.r8 = input2;
		kref_rec.bytes = 0;
	}
	return kref_status;
}

static void kref_native(enum kref_op op, const struct cpumask *mask, int cpu,
			int vector)
{
	if (kref_rec.nr_native++ == 0) {
		kref_rec.op = op;
		kref_rec.op_mask = mask;
		kref_rec.op_cpu = cpu;
		kref_rec.op_vector = vector;
	}
}

static void native_send_IPI(int cpu, int vector)
{
	kref_native(KREF_OP_IPI, NULL, cpu, vector);
}

static void native_send_IPI_mask(const struct cpumask *mask, int vector)
{
	kref_native(KREF_OP_MASK, mask, -1, vector);
}

static void native_send_IPI_mask_allbutself(const struct cpumask *mask,
					    int vector)
{
	kref_native(KREF_OP_MASK_ALLBUTSELF, mask, -1, vector);
}

static void native_send_IPI_allbutself(int vector)
{
	kref_native(KREF_OP_ALLBUTSELF, NULL, -1, vector);
}

static void native_send_IPI_all(int vector)
{
	kref_native(KREF_OP_ALL, NULL, -1, vector);
}

static void native_send_IPI_self(int vector)
{
	kref_native(KREF_OP_SELF, NULL, -1, vector);
}

static u32 native_read(u32 reg)
{
	(void)reg;
	return 0;
}

static void native_write(u32 reg, u32 val)
{
	(void)reg;
	(void)val;
}

static u64 native_icr_read(void)
{
	return 0;
}

static void native_icr_write(u32 low, u32 high)
{
	(void)low;
	(void)high;
}

const struct apic kref_native_apic = {
	.send_IPI = native_send_IPI,
	.send_IPI_mask = native_send_IPI_mask,
	.send_IPI_mask_allbutself = native_send_IPI_mask_allbutself,
	.send_IPI_allbutself = native_send_IPI_allbutself,
	.send_IPI_all = native_send_IPI_all,
	.send_IPI_self = native_send_IPI_self,
	.read = native_read,
	.write = native_write,
	.icr_read = native_icr_read,
	.icr_write = native_icr_write,
};

static struct apic kref_live_apic;
struct apic *apic = &kref_live_apic;

bool kref_env_set(const struct kref_env *e)
{
	nr_cpu_ids = e->nr_cpu_ids;
	hv_vp_index = e->vp_index;
	hv_max_vp_index = e->max_vp_index;
	ms_hyperv.hints = (e->cluster_hint ? HV_X64_CLUSTER_IPI_RECOMMENDED : 0) |
			  (e->ex_hint ? HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED : 0);
	cpu_present_mask = e->present;
	cpu_online_mask = e->online;
	kref_input_slot = e->input_page;
	hyperv_pcpu_input_arg = &kref_input_slot;
	hv_hypercall_pg = &kref_hcall_page;
	kref_self = e->self;
	kref_status = e->status;
	kref_live_apic = kref_native_apic;
	hv_apic_init();
	return apic->send_IPI_mask != kref_native_apic.send_IPI_mask;
}
