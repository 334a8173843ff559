/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shim.h - the few kernel definitions hvipi_hcall.h uses, for userspace.
 *
 * CALL_NOSPEC becomes a plain indirect call (no retpoline thunk here; the
 * register constraints are the kernel's: the target in any register),
 * ASM_CALL_CONSTRAINT ties the asm to the stack pointer like the kernel's.
 * The caller must be built with -mno-red-zone, as the kernel is: the call
 * pushes a return address below the stack pointer.
 */
#ifndef HVIPI_USER_SHIM_H
#define HVIPI_USER_SHIM_H

#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

register unsigned long current_stack_pointer asm("rsp");
#define ASM_CALL_CONSTRAINT "+r" (current_stack_pointer)

#define CALL_NOSPEC "call *%[thunk_target]\n"
#define THUNK_TARGET(addr) [thunk_target] "r" (addr)

#endif /* HVIPI_USER_SHIM_H */
