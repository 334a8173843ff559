/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_rep.h - a rep hypercall issued until every rep is done.
 *
 * The flush list calls (HvCallFlushVirtualAddressList[Ex]) are rep calls:
 * the hypervisor may return with success before every rep is done, the
 * number done in bits 43:32 of its result, and the caller issues the call
 * again from there.  The decision after each call is the core's
 * hvipi_rep_next(), proven (its contract in src/hvipi.h): its precondition
 * rep_call holds for the first control word because hvipi_rep_control()
 * built it (well_formed), and for every later one because it is the
 * rep_restart word of the previous step.  rep_progress makes the rep start
 * grow with every AGAIN, so the loop below issues at most rep-count calls
 * (one for a rep count of 0), whatever the hypervisor returns.
 *
 * Call with interrupts off and the input page filled (the page must not
 * change between the calls: the hypervisor reads reps from it by index).
 */
#ifndef HVIPI_REP_H
#define HVIPI_REP_H

#include <linux/nmi.h>
#include <linux/types.h>

#include "hvipi.h"
#include "hvipi_hcall.h"

/*
 * Returns the last result on DONE and FAILED.  On BAD (a success without
 * progress, or more reps than asked) returns @bad_status, which the caller
 * chooses as a failing status, so that it falls back as on a failure.
 * *@calls counts the hypercalls issued.
 */
static inline u64 hvipi_rep_call(void *hcall_pg, u64 control, u64 input_gpa,
				 u64 bad_status, unsigned int *calls)
{
	u64 result, next;

	*calls = 0;
	for (;;) {
		result = hvipi_hcall_mem(hcall_pg, control, input_gpa);
		(*calls)++;
		switch (hvipi_rep_next(control, result, &next)) {
		case HVIPI_REP_AGAIN:
			control = next;
			/* as Linux does between continuations */
			touch_nmi_watchdog();
			continue;
		case HVIPI_REP_DONE:
		case HVIPI_REP_FAILED:
			return result;
		default:
			return bad_status;
		}
	}
}

#endif /* HVIPI_REP_H */
