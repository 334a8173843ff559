/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench/kshim: a trace event is an inline function of one nop: a disabled
 * tracepoint in the kernel is a static branch, one patched-out 5-byte
 * jump, and its arguments are only evaluated behind it.  Linux's two IPI
 * trace points get the same (asm/trace/hyperv.h here).
 */
#ifndef KBENCH_SHIM_LINUX_TRACEPOINT_H
#define KBENCH_SHIM_LINUX_TRACEPOINT_H
#include "kbench_kernel.h"
#define TP_PROTO(...)	__VA_ARGS__
#define TP_ARGS(...)	__VA_ARGS__
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)	\
	static inline void trace_##name(proto)			\
	{							\
		asm volatile("nop");				\
	}
#endif
