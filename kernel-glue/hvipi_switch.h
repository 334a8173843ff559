/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_switch.h - deciding on and doing the APIC IPI ops switch
 * (hvipi_switch.c).  Used by the module (hvipi_main.c) and by its tests
 * (hvipi_test_live.c, hvipi_testhv.c), which never call hvipi_main.c.
 */
#ifndef HVIPI_SWITCH_H
#define HVIPI_SWITCH_H

#include <linux/cpumask.h>
#include <linux/types.h>

#include "hvipi_glue.h"

/* NULL when writing struct apic switches the IPI ops, else why not. */
const char *hvipi_static_call_blocker(void);
/* Is the page holding @addr mapped writable in the kernel page tables? */
bool hvipi_kernel_writable(const void *addr);
/* present_partition, decided (and logged) once. */
bool hvipi_present_is_partition(void);
/* The present mask for a live context: cpu_present_mask or NULL. */
const struct cpumask *hvipi_live_present(void);
/* NULL when the switch on a Hyper-V guest can be done, else why not. */
const char *hvipi_switch_blocker(void);
/* NULL when the live ops may be switched for a test here, else why not. */
const char *hvipi_test_switch_blocker(void);
/* HVIPI_HINT_* from ms_hyperv. */
u32 hvipi_hv_hints(void);
/* The six ops of struct apic. */
void hvipi_read_ops(struct hvipi_ops *ops);
void hvipi_write_ops(const struct hvipi_ops *ops);

#endif /* HVIPI_SWITCH_H */
