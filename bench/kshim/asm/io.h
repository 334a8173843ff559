/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: virt_to_phys() is the address itself, as in kernel_ref's
 * hv_do_hypercall() shim, which passes the input pointer: the kernel's
 * address translation is counted on neither side.
 */
#ifndef KBENCH_SHIM_ASM_IO_H
#define KBENCH_SHIM_ASM_IO_H
#include "kbench_kernel.h"
#define virt_to_phys(p)	((u64)(uintptr_t)(p))
#endif
