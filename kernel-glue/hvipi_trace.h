/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_trace.h - one trace event per IPI send through the hvipi glue.
 *
 * ncpus is the number of target CPUs (the mask weight less the sender when
 * it is excluded, 1 for a one-CPU send); it is computed only when the event
 * is enabled.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hvipi

#if !defined(_HVIPI_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _HVIPI_TRACE_H

#include <linux/cpumask.h>
#include <linux/tracepoint.h>

TRACE_EVENT(hvipi_send,
	TP_PROTO(const struct cpumask *mask, int cpu, int self,
		 bool exclude_self, int vector, u32 kind, u32 reason,
		 u32 banks, u64 status),
	TP_ARGS(mask, cpu, self, exclude_self, vector, kind, reason, banks,
		status),

	TP_STRUCT__entry(
		__field(unsigned int, ncpus)
		__field(int, vector)
		__field(u32, kind)
		__field(u32, reason)
		__field(u32, banks)
		__field(u64, status)
	),

	TP_fast_assign(
		if (mask) {
			__entry->ncpus = cpumask_weight(mask);
			if (exclude_self && self >= 0 &&
			    cpumask_test_cpu(self, mask))
				__entry->ncpus--;
		} else {
			__entry->ncpus = 1;
		}
		__entry->vector = vector;
		__entry->kind = kind;
		__entry->reason = reason;
		__entry->banks = banks;
		__entry->status = status;
	),

	TP_printk("ncpus=%u vector=0x%x plan=%s reason=%u banks=%u status=0x%llx",
		  __entry->ncpus, __entry->vector,
		  __print_symbolic(__entry->kind,
				   { 0, "none" }, { 1, "fast" },
				   { 2, "ex-sparse" }, { 3, "ex-all" },
				   { 4, "fallback" }, { 5, "ex-xmm" }),
		  __entry->reason, __entry->banks,
		  (unsigned long long)__entry->status)
);

#endif /* _HVIPI_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hvipi_trace
#include <trace/define_trace.h>
