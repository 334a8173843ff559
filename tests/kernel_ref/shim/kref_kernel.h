/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The kernel basics that Linux 6.1's hv_apic.c and asm-generic/mshyperv.h
 * (and the TLFS headers they include) use, for a userspace build.  Every
 * header of shim/ includes this one.  Written for hvipi's tests; the names
 * are the kernel's so that the kernel files compile unchanged.
 */
#ifndef KREF_KERNEL_H
#define KREF_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kref.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int8_t __s8;
typedef int16_t __s16;
typedef int32_t __s32;
typedef int64_t __s64;

#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define CONFIG_HYPERV	1
#define CONFIG_X86_64	1
#define IS_ENABLED(option)	(option)

#define BITS_PER_LONG		64
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define GENMASK(h, l) \
	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	(((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (64 - 1 - (h))))

#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#undef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#define __percpu
#define __init
#define __read_mostly
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)

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

/* Printing, warnings, preemption: one CPU, never preemptible here. */
#define pr_info(...)		((void)0)
#define pr_warn(...)		((void)0)
#define WARN_ON_ONCE(cond)	({ bool __w = !!(cond); if (__w) kref_rec.warns++; __w; })
#define WARN_ON(cond)		WARN_ON_ONCE(cond)
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
