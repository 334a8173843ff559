/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* kvm_ref shim: what 6.1's hyperv.c needs of linux/bits.h is in kvmr_kernel.h. */
#ifndef KVMR_SHIM_LINUX_BITS_H
#define KVMR_SHIM_LINUX_BITS_H
#include "kvmr_kernel.h"
#endif
