/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The kernel basics that Linux 6.1's hv_apic.c and asm-generic/mshyperv.h
 * (and the TLFS headers they include) use, for a userspace build, beyond
 * those both shims take from tests/common/kshim_types.h.  Every header of
 * shim/ includes this one.  Written for hvipi's tests; the names are the
 * kernel's so that the kernel files compile unchanged.
 */
#ifndef KREF_KERNEL_H
#define KREF_KERNEL_H

#include "../../common/kshim_types.h"
#include "kref.h"

#define CONFIG_HYPERV	1

#define PAGE_MASK		(~(PAGE_SIZE - 1))

#undef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))

/*
 * Marks for the harness (kref.h, struct kref_rec).  -DKREF_NO_MARKS
 * compiles them out (for an instruction count of the kernel code alone).
 */
#ifdef KREF_NO_MARKS
#define KREF_MARK(field)		((void)0)
#define KREF_MARK_ITER(cpu)		((void)0)
#define KREF_MARK_AT(field, at)		((void)0)
#else
#define KREF_MARK(field)		((void)kref_rec.field++)
#define KREF_MARK_ITER(cpu)		((void)(kref_rec.iters++, kref_rec.iter_cpu = (int)(cpu)))
#define KREF_MARK_AT(field, at)		((void)(kref_rec.field++, kref_rec.at = kref_rec.iters))
#endif

/* Warnings, preemption: one CPU, never preemptible here. */
#define WARN_ON_ONCE(cond)	({ bool __w = !!(cond); if (__w) kref_rec.warns++; __w; })
#define preemptible()		0

/* The sending CPU (kref_env.c). */
extern int kref_self;
#define smp_processor_id()	kref_self

/*
 * Interrupt flags: nothing to do in userspace; local_irq_save() marks
 * where 6.1's __send_ipi_mask_ex() has passed its EX-hint check.
 */
#define local_irq_save(flags) \
	do { (flags) = 0; KREF_MARK_AT(irq_save, iters_at_irq); } while (0)
#define local_irq_restore(flags)	((void)(flags))

/* Per-CPU data: one CPU, so a per-CPU pointer is the pointer. */
#define this_cpu_ptr(ptr)	(ptr)

#define xchg(ptr, v)		__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)
#define cmpxchg(ptr, old, new) ({					\
	__typeof__(*(ptr)) __old = (old);				\
	__atomic_compare_exchange_n((ptr), &__old, (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
	__old;								\
})

static inline void touch_nmi_watchdog(void)
{
}

struct pt_regs;
struct device;

#endif /* KREF_KERNEL_H */
