/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hv_ipi_hvipi.h - the Hyper-V PV IPI send path on the verified hvipi core,
 * for arch/x86/hyperv/hv_apic.c.
 *
 * Both functions return true when the IPI was sent (or there was nothing
 * to send) and false when the caller must use the native APIC op.
 */
#ifndef _HV_IPI_HVIPI_H
#define _HV_IPI_HVIPI_H

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/types.h>

/*
 * Call from hv_apic_init() before installing the IPI ops; install them only
 * when it returns true.  It checks hv_vp_index can be indexed up to
 * nr_cpu_ids and that no two CPUs share a VP (vp_injective), and decides
 * whether the core may use the Ex "all" format (present_partition); until
 * it has returned true both send functions return false.
 */
bool __init hv_hvipi_init(void);
bool hv_hvipi_send_mask(const struct cpumask *mask, int vector,
			bool exclude_self);
bool hv_hvipi_send_one(int cpu, int vector);
/*
 * The remote TLB flush (arch/x86/hyperv/mmu.c's hyperv_flush_tlb_multi()):
 * true when flushed by hypercall (or nothing to flush), false when the
 * caller must use native_flush_tlb_multi().
 */
struct flush_tlb_info;
bool hv_hvipi_flush_tlb_multi(const struct cpumask *cpus,
			      const struct flush_tlb_info *info);
/* Call after an hv_vp_index entry is set (hv_cpu_init): recomputes the
 * identity prefix the verified core packs a mask word at a time. */
void hv_hvipi_vp_index_changed(void);

#endif /* _HV_IPI_HVIPI_H */
