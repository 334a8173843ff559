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

/*
 * What Linux's Hyper-V code has set up, from which the live context is
 * made: the switch passes Linux's globals, the self-test fakes.
 */
struct hvipi_hv {
	void *hcall_pg;			/* hv_hypercall_pg */
	const u32 *vp_index;		/* hv_vp_index */
	/*
	 * hyperv_pcpu_input_arg: Linux's per-CPU input pages, which its
	 * hv_send_ipi*() ops, the module's fallback, write (from NMI context
	 * too).  hvipi_ctx_fill() never hands them to the glue.
	 */
	void * __percpu *linux_input;
	const struct cpumask *present;	/* hvipi_live_present() */
	u32 hints;			/* hvipi_hv_hints() */
};

/*
 * Fill @ctx to send on @hv, falling back to @orig: with input pages of the
 * module's own, one per possible CPU (0 or -ENOMEM).  Free them with
 * hvipi_ctx_free_pages() once no CPU can be running an op on @ctx.
 */
int hvipi_ctx_fill(struct hvipi_ctx *ctx, const struct hvipi_hv *hv,
		   const struct hvipi_ops *orig, bool xmm);
void hvipi_ctx_free_pages(struct hvipi_ctx *ctx);

#endif /* HVIPI_SWITCH_H */
