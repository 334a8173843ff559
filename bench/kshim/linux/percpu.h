/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: per-CPU variables of one CPU are plain variables;
 * this_cpu_inc() is one add to memory (the kernel's is one incq %gs:...).
 * this_cpu_ptr() is kref_kernel.h's.
 */
#ifndef KBENCH_SHIM_LINUX_PERCPU_H
#define KBENCH_SHIM_LINUX_PERCPU_H
#include "kbench_kernel.h"
#define DEFINE_PER_CPU(type, name)	type name
#define DECLARE_PER_CPU(type, name)	extern type name
#define this_cpu_inc(var)		((void)((var)++))
#endif
