/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_test_hooks.h - the module's test hooks, in one place.
 *
 * The arrows run one way: the module (hvipi_main.c) calls the tests only
 * through the entry points below; the tests use the module's send path
 * (hvipi_glue.h), its switch helpers (hvipi_switch.h) and the test entry
 * of hvipi_apic.c below, and never call hvipi_main.c.  The other test hooks
 * are the two TEST ONLY fields of struct hvipi_ctx (hvipi_glue.h), which
 * only the self-test's own contexts set.
 */
#ifndef HVIPI_TEST_HOOKS_H
#define HVIPI_TEST_HOOKS_H

#include <linux/types.h>

#include "hvipi_glue.h"

/* Entry points the module calls. */

/* The KTAP self-test (hvipi_selftest.c): returns the number of failures. */
int hvipi_selftest(void);

/*
 * The test hypervisor (hvipi_testhv.c, TEST ONLY, needs rodata=off, never
 * on Hyper-V): requested by the test_hv= parameter; start switches the
 * live ops to the glue with the test hypervisor as the hypercall page (0
 * or -errno); stop (a no-op when not started) restores the ops and prints
 * the report (KTAP and counts).
 */
bool hvipi_testhv_requested(void);
int hvipi_testhv_start(bool xmm);
void hvipi_testhv_stop(void);

/* Hook the tests call in the module (hvipi_apic.c). */

/*
 * hvipi_issue() on an arbitrary plan, with interrupts disabled around it:
 * the self-test checks an unknown plan kind fails closed (a failing
 * status, so the caller falls back).
 */
u64 hvipi_test_issue(const struct hvipi_ctx *ctx,
		     const struct hvipi_plan *plan, u64 *page);

#endif /* HVIPI_TEST_HOOKS_H */
