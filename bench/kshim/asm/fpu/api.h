/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: kernel_fpu_begin/end() are functions (kbench_glue.c) that
 * do the kernel's bookkeeping (preempt count, the in-use flag) but not its
 * save of the task's FPU registers (see bench/README.md).
 */
#ifndef KBENCH_SHIM_ASM_FPU_API_H
#define KBENCH_SHIM_ASM_FPU_API_H
#include "kbench_kernel.h"
void kernel_fpu_begin(void);
void kernel_fpu_end(void);
#endif
