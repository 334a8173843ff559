/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim for x86's <asm/mshyperv.h>: what hv_apic.c and
 * asm-generic/mshyperv.h take from it, then, as the x86 header does, the
 * real <asm/hyperv-tlfs.h> and <asm-generic/mshyperv.h> (extracted from
 * linux-source-6.1).  The two hypercall entry points that 6.1 inlines as
 * asm (hv_do_hypercall, hv_do_fast_hypercall16) are recorders here: they
 * pass the registers the asm would load to kref_env.c, which records them
 * (and, for a slow call, the input bytes) and returns the configured status.
 */
#ifndef KREF_SHIM_ASM_MSHYPERV_H
#define KREF_SHIM_ASM_MSHYPERV_H

#include "kref_kernel.h"
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <asm/hyperv-tlfs.h>

extern void *hv_hypercall_pg;
extern struct hv_vp_assist_page **hv_vp_assist_page;

u64 kref_hcall_slow(u64 control, void *input, void *output);
u64 kref_hcall_fast(u64 control, u64 input1, u64 input2);

/* rcx = control, rdx = input GPA, r8 = output GPA (x86_64 asm of 6.1) */
static inline u64 hv_do_hypercall(u64 control, void *input, void *output)
{
	if (!hv_hypercall_pg)
		return U64_MAX;
	return kref_hcall_slow(control, input, output);
}

/* rcx = code | fast bit, rdx = input1, r8 = input2 */
static inline u64 hv_do_fast_hypercall16(u16 code, u64 input1, u64 input2)
{
	return kref_hcall_fast((u64)code | HV_HYPERCALL_FAST_BIT, input1, input2);
}

static inline void hv_set_register(unsigned int reg, u64 value)
{
	(void)reg;
	(void)value;
}

void __init hv_apic_init(void);

#include <asm-generic/mshyperv.h>

#endif /* KREF_SHIM_ASM_MSHYPERV_H */
