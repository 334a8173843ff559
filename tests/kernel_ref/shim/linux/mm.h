/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim: what the 6.1 files need of <linux/mm.h> is in
 * kref_kernel.h, and in_nmi() in <linux/hardirq.h>, which the kernel's
 * <linux/mm.h> brings in too (the fixed hv_apic.c calls it).
 */
#ifndef KREF_SHIM_LINUX_MM_H
#define KREF_SHIM_LINUX_MM_H
#include "kref_kernel.h"
#include <linux/hardirq.h>
#endif
