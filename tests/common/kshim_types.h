/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The kernel basics both kernel shims take from here: the kernel's
 * integer types, bit macros, attributes and page size, as the Linux 6.1
 * files compiled unchanged by tests/kernel_ref (hv_apic.c,
 * asm-generic/mshyperv.h) and tests/kvm_ref (arch/x86/kvm/hyperv.c), and
 * the TLFS headers they include, use them.  Included first by
 * kernel_ref/shim/kref_kernel.h and kvm_ref/shim/kvmr_kernel.h, which add
 * what their files need beyond these; written for hvipi's tests, with the
 * kernel's names.
 */
#ifndef KSHIM_TYPES_H
#define KSHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)

#define CONFIG_X86_64		1
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
#define __percpu
#define __init
#define __read_mostly
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)

/* Printing: nothing.  WARN_ON_ONCE() is each shim's own (it records). */
#define pr_info(...)		((void)0)
#define pr_warn(...)		((void)0)
#define WARN_ON(cond)		WARN_ON_ONCE(cond)

#endif /* KSHIM_TYPES_H */
