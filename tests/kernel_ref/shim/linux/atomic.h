/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* kernel_ref shim: what the 6.1 files need of <linux/atomic.h> is in kref_kernel.h. */
#ifndef KREF_SHIM_LINUX_ATOMIC_H
#define KREF_SHIM_LINUX_ATOMIC_H
#include "kref_kernel.h"
#endif
