/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* bench/kshim: in_nmi(), the NMI bits of the preempt count (one load, one test). */
#ifndef KBENCH_SHIM_LINUX_HARDIRQ_H
#define KBENCH_SHIM_LINUX_HARDIRQ_H
#include "kbench_kernel.h"
#define in_nmi()	(kbench_preempt_count & KBENCH_NMI_MASK)
#endif
