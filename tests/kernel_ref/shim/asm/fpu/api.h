/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* kernel_ref shim: what mmu.c of 6.1 needs of <asm/fpu/api.h> is in kref_kernel.h. */
#ifndef KREF_SHIM_ASM_FPU_API_H
#define KREF_SHIM_ASM_FPU_API_H
#include "kref_kernel.h"
#endif
