/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: the kernel basics that hvipi's APIC glue
 * (kernel-glue/hvipi_apic.c) and the core built as the module builds it
 * (src/hvipi.c with __KERNEL__) use beyond those of tests/kernel_ref/shim,
 * for the benchmark's userspace build.  This directory comes first in the
 * include path, tests/kernel_ref/shim second: both sides (the real Linux
 * 6.1 hv_apic.c and hvipi's glue) get the same primitives from
 * kref_kernel.h (smp_processor_id(), local_irq_save/restore(),
 * this_cpu_ptr(), likely()).  Written for hvipi's benchmark; the names are
 * the kernel's so that the files compile unchanged.  See bench/README.md
 * for what each costs against the kernel's own.
 */
#ifndef KBENCH_KERNEL_H
#define KBENCH_KERNEL_H

#include <limits.h>

#include "kref_kernel.h"

/* READ_ONCE: a volatile load, as the kernel's for a scalar (every kernel
 * header brings linux/compiler.h; so do these). */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

/* The kernel's compiler_attributes.h: a variable the auto-init leaves alone. */
#define __uninitialized	__attribute__((__uninitialized__))

/* The preempt count (NMI bits 20..23, as in the kernel); 0 here. */
extern unsigned int kbench_preempt_count;
#define KBENCH_NMI_MASK		0x00f00000u

/*
 * Primitives that tests/kernel_ref's kref_kernel.h makes free, given here
 * the instructions the kernel's take, for both sides alike (the glue pays
 * them on every send, Linux on its Ex path only):
 *
 * local_irq_save(): x86's is "pushf; pop" (the flags) and "cli"; cli is
 * privileged, so a store to kbench_irqs_off stands for it.
 * local_irq_restore(): "sti" (the store here) when the saved flags had IF
 * (bit 9) set, as user-space flags always have.  The asm has the kernel's
 * "memory" clobber.
 */
extern unsigned char kbench_irqs_off;

static __always_inline unsigned long kbench_irq_save(void)
{
	unsigned long flags;

	asm volatile("pushf ; pop %0" : "=rm" (flags) : : "memory");
	asm volatile("movb $1, %0" : "=m" (kbench_irqs_off) : : "memory");
	return flags;
}

static __always_inline void kbench_irq_restore(unsigned long flags)
{
	if (flags & 0x200UL)
		asm volatile("movb $0, %0" : "=m" (kbench_irqs_off) : : "memory");
}

/*
 * irqs_disabled(): x86's is "pushf; pop" and a test of IF; user-space
 * flags always have IF set, so the value is kbench_irqs_off's, at the
 * cost of the kernel's instructions.
 */
static __always_inline bool kbench_irqs_disabled(void)
{
	unsigned long flags;

	asm volatile("pushf ; pop %0" : "=rm" (flags) : : "memory");
	(void)flags;
	return kbench_irqs_off;
}

#define irqs_disabled()	kbench_irqs_disabled()

#undef local_irq_save
#undef local_irq_restore
#define local_irq_save(flags)	do { (flags) = kbench_irq_save(); } while (0)
#define local_irq_restore(flags)	kbench_irq_restore(flags)

/*
 * this_cpu_ptr(): the kernel adds this CPU's per-CPU offset
 * ("add %gs:this_cpu_off, reg"); here the offset is a global, 0.
 */
extern unsigned long kbench_this_cpu_off;
#undef this_cpu_ptr
#define this_cpu_ptr(ptr) \
	((__typeof__(ptr))((uintptr_t)(ptr) + kbench_this_cpu_off))

#endif /* KBENCH_KERNEL_H */
