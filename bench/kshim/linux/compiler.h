/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* bench/kshim: READ_ONCE is in kbench_kernel.h. */
#ifndef KBENCH_SHIM_LINUX_COMPILER_H
#define KBENCH_SHIM_LINUX_COMPILER_H
#include "kbench_kernel.h"
#endif
