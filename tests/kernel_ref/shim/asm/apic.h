/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim: struct apic (kref.h) and the APIC helpers hv_apic.c
 * names.  The register accessors are never reached here (the harness does
 * not set HV_X64_APIC_ACCESS_RECOMMENDED); they only have to compile.
 */
#ifndef KREF_SHIM_ASM_APIC_H
#define KREF_SHIM_ASM_APIC_H

#include "kref_kernel.h"

#define APIC_TASKPRI		0x80
#define APIC_EOI		0xB0
#define SET_XAPIC_DEST_FIELD(x)	((x) << 24)

#define rdmsr(msr, low, high)	do { (void)(msr); (low) = 0; (high) = 0; } while (0)
#define rdmsrl(msr, val)	do { (void)(msr); (val) = 0; } while (0)
#define wrmsr(msr, low, high)	do { (void)(msr); (void)(low); (void)(high); } while (0)
#define wrmsrl(msr, val)	do { (void)(msr); (void)(val); } while (0)

static inline u32 native_apic_mem_read(u32 reg)
{
	(void)reg;
	return 0;
}

static inline void native_apic_mem_write(u32 reg, u32 v)
{
	(void)reg;
	(void)v;
}

static inline void apic_set_eoi_write(void (*eoi_write)(u32 reg, u32 v))
{
	(void)eoi_write;
}

static inline int x2apic_enabled(void)
{
	return 1;
}

#endif /* KREF_SHIM_ASM_APIC_H */
