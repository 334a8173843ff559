/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim: in_nmi(), true while a harness simulates NMI context
 * (kref_in_nmi, kref.h).  bench/kshim has its own <linux/hardirq.h>,
 * found first in the benchmark's builds.
 */
#ifndef KREF_SHIM_LINUX_HARDIRQ_H
#define KREF_SHIM_LINUX_HARDIRQ_H
#include "kref_kernel.h"
#define in_nmi()	kref_in_nmi
#endif
