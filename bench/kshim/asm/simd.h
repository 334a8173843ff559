/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* bench/kshim: may_use_simd() calls irq_fpu_usable(), as on x86 (kbench_glue.c). */
#ifndef KBENCH_SHIM_ASM_SIMD_H
#define KBENCH_SHIM_ASM_SIMD_H
#include "kbench_kernel.h"
bool irq_fpu_usable(void);
#define may_use_simd()	irq_fpu_usable()
#endif
