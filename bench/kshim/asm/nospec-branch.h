/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: CALL_NOSPEC and THUNK_TARGET, from kernel-glue/usertest/shim.h:
 * a plain indirect call (the kernel's retpoline thunk is not counted).
 */
#ifndef KBENCH_SHIM_ASM_NOSPEC_BRANCH_H
#define KBENCH_SHIM_ASM_NOSPEC_BRANCH_H
#include "kbench_kernel.h"
#include "../../../kernel-glue/usertest/shim.h"
#endif
