/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* kernel_ref shim: what mmu.c of 6.1 needs of <asm/msr.h> is in kref_kernel.h. */
#ifndef KREF_SHIM_ASM_MSR_H
#define KREF_SHIM_ASM_MSR_H
#include "kref_kernel.h"
#endif
