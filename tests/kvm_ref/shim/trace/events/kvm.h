/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* kvm_ref shim: what 6.1's hyperv.c needs of trace/events/kvm.h is in kvmr_kernel.h. */
#ifndef KVMR_SHIM_TRACE_EVENTS_KVM_H
#define KVMR_SHIM_TRACE_EVENTS_KVM_H
#include "kvmr_kernel.h"
#endif
