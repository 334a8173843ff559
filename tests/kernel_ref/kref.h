/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kref: what the kernel_ref harness and the kernel side share.  The kernel
 * side is Linux 6.1's arch/x86/hyperv/hv_apic.c and asm-generic/mshyperv.h,
 * compiled unchanged against the headers of shim/, plus kref_env.c (the
 * globals those files use and the recorders).  Plain C types only, so that
 * the harness needs no kernel header.
 */
#ifndef KREF_H
#define KREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KREF_NR_CPUS	8192u	/* CONFIG_NR_CPUS of Debian's amd64 kernels */
#define KREF_INPUT_MAX	(24u + 8u * 64u)	/* the largest Ex input */

/* The kernel's struct cpumask (the harness casts its own mask words). */
struct cpumask {
	unsigned long bits[KREF_NR_CPUS / 64u];
};

/* The members of the kernel's struct apic that hv_apic.c reads or sets. */
struct apic {
	void (*send_IPI)(int cpu, int vector);
	void (*send_IPI_mask)(const struct cpumask *mask, int vector);
	void (*send_IPI_mask_allbutself)(const struct cpumask *mask, int vector);
	void (*send_IPI_allbutself)(int vector);
	void (*send_IPI_all)(int vector);
	void (*send_IPI_self)(int vector);
	uint32_t (*read)(uint32_t reg);
	void (*write)(uint32_t reg, uint32_t val);
	uint64_t (*icr_read)(void);
	void (*icr_write)(uint32_t low, uint32_t high);
};

extern struct apic *apic;		/* the live ops (kref_env.c) */
void hv_apic_init(void);		/* hv_apic.c */

/* The native APIC op a send fell back to (the recorded orig_apic call). */
enum kref_op {
	KREF_OP_NONE = 0,
	KREF_OP_IPI,			/* send_IPI(cpu, vector) */
	KREF_OP_MASK,			/* send_IPI_mask(mask, vector) */
	KREF_OP_MASK_ALLBUTSELF,	/* send_IPI_mask_allbutself(mask, vector) */
	KREF_OP_ALLBUTSELF,		/* send_IPI_allbutself(vector) */
	KREF_OP_ALL,			/* send_IPI_all(vector) */
	KREF_OP_SELF,			/* send_IPI_self(vector) */
	KREF_OP_COUNT
};

/*
 * What one call did, as the hypervisor and the native APIC would see it,
 * and marks left by the shims (the harness resets it before each call):
 * which kernel helpers ran, in the order hv_apic.c of 6.1 calls them, so
 * that a fallback can be put down to the check that caused it.
 */
struct kref_rec {
	/* hypercalls (the first one recorded; the count of all) */
	unsigned int nr_hcalls;
	uint64_t control;		/* rcx as the call issues it */
	bool fast;			/* hv_do_fast_hypercall16 */
	uint64_t rdx, r8;		/* fast: the two input registers */
	uint32_t bytes;			/* slow: input bytes (24 + 8 * var. header) */
	uint64_t input[KREF_INPUT_MAX / 8u]; /* slow: a copy of those bytes */
	/* native fallbacks (the first one recorded; the count of all) */
	unsigned int nr_native;
	enum kref_op op;
	const struct cpumask *op_mask;
	int op_cpu, op_vector;
	/* marks */
	unsigned int trace_mask;	/* trace_hyperv_send_ipi_mask: __send_ipi_mask entered */
	unsigned int trace_one;		/* trace_hyperv_send_ipi_one: __send_ipi_one entered */
	unsigned int last_look;		/* cpumask_last: the "last CPU" look */
	unsigned int irq_save;		/* local_irq_save: __send_ipi_mask_ex past its hint check */
	unsigned int equal;		/* cpumask_equal: ... and it has an input page */
	unsigned int iters;		/* for_each_cpu iterations, all loops */
	unsigned int iters_at_irq;	/* ... before local_irq_save */
	unsigned int iters_at_equal;	/* ... before cpumask_equal */
	int iter_cpu;			/* the CPU of the last iteration */
	unsigned int warns;		/* WARN_ON_ONCE conditions that held */
};

extern struct kref_rec kref_rec;

/*
 * Run by the slow-call recorder (kref_env.c) first, before it records the
 * call: a harness that sets it sees the call about to be issued, with its
 * input, and may run code there (fixes_ref.c runs a send in simulated NMI
 * context).  NULL: nothing runs.
 */
extern void (*kref_hcall_hook)(uint64_t control, void *input);

/*
 * What Linux 6.1 keeps elsewhere and the unchanged files do not read, but
 * the files with the fixes of the head of kernel-glue/intree/series/ do (fixes_ref.c):
 * in_nmi() (shim/linux/hardirq.h) and the processor counts of
 * <asm/smp.h>, set by generic_processor_info() and acpi_register_lapic():
 * the processors registered and those the firmware listed but the kernel
 * left out.  All 0 unless a harness sets them.
 */
extern bool kref_in_nmi;
extern unsigned int num_processors;
extern unsigned int disabled_cpus;

/* One send's environment, as the kernel keeps it. */
struct kref_env {
	uint32_t nr_cpu_ids;
	uint32_t *vp_index;		/* hv_vp_index */
	uint32_t max_vp_index;		/* hv_max_vp_index */
	bool cluster_hint;		/* HV_X64_CLUSTER_IPI_RECOMMENDED */
	bool ex_hint;			/* HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED */
	const struct cpumask *present;	/* cpu_present_mask */
	const struct cpumask *online;	/* cpu_online_mask */
	void *input_page;		/* this CPU's hyperv_pcpu_input_arg, or NULL */
	int self;			/* smp_processor_id() */
	uint64_t status;		/* what every hypercall returns */
};

/*
 * Install @e; the apic ops are reset to the native recorders and
 * hv_apic_init() runs (it installs the hv_send_ipi* ops only with the
 * cluster hint).  Returns whether it installed them.
 */
bool kref_env_set(const struct kref_env *e);

/* The native recorders, to tell them from the installed ops. */
extern const struct apic kref_native_apic;

/* The real HV_IPI_LOW_VECTOR / HV_IPI_HIGH_VECTOR and VP_INVAL of 6.1. */
extern const int kref_ipi_low_vector, kref_ipi_high_vector;
extern const uint32_t kref_vp_inval;

#endif /* KREF_H */
