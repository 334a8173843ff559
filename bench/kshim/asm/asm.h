/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* bench/kshim: ASM_CALL_CONSTRAINT, from kernel-glue/usertest/shim.h. */
#ifndef KBENCH_SHIM_ASM_ASM_H
#define KBENCH_SHIM_ASM_ASM_H
#include "kbench_kernel.h"
#include "../../../kernel-glue/usertest/shim.h"
#endif
