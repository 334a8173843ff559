/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* bench/kshim: smp_processor_id() is kref_kernel.h's (one load). */
#ifndef KBENCH_SHIM_LINUX_SMP_H
#define KBENCH_SHIM_LINUX_SMP_H
#include "kbench_kernel.h"
#endif
