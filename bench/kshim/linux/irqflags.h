/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: local_irq_save/restore() are kref_kernel.h's (free, on both
 * sides); lockdep's assertion is empty without CONFIG_PROVE_LOCKING, as in
 * Debian's kernels.
 */
#ifndef KBENCH_SHIM_LINUX_IRQFLAGS_H
#define KBENCH_SHIM_LINUX_IRQFLAGS_H
#include "kbench_kernel.h"
#define lockdep_assert_irqs_disabled()	do { } while (0)
#endif
