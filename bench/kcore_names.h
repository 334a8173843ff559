/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The core as the module builds it (src/hvipi.c with __KERNEL__ and the
 * kernel-side flags) is linked into the bench beside the userspace build:
 * its public names get a prefix, in it and in the glue that calls it
 * (gcc -include).  The names also keep callgrind's --toggle-collect on
 * hvipi_plan_mask/hvipi_plan_one (the core-only column) from firing inside
 * a glue send, and hvipi_gva_list's (the flush rows' core-only column)
 * apart from the module build's hvipi_k_gva_list; likewise
 * hvipi_plan_flush's (the flush planner rows' core column) from the glue's
 * flush op, which calls hvipi_k_plan_flush.
 */
#define hvipi_control	hvipi_k_control
#define hvipi_status_ok	hvipi_k_status_ok
#define hvipi_plan_mask	hvipi_k_plan_mask
#define hvipi_plan_one	hvipi_k_plan_one
#define hvipi_vp_ident	hvipi_k_vp_ident
#define hvipi_gva_list	hvipi_k_gva_list
#define hvipi_plan_flush	hvipi_k_plan_flush
#define hvipi_rep_control	hvipi_k_rep_control
#define hvipi_rep_next	hvipi_k_rep_next
#define hvipi_ipi_gate	hvipi_k_ipi_gate
#define hvipi_flush_gate	hvipi_k_flush_gate
#define hvipi_page_ok	hvipi_k_page_ok
#define hvipi_ipi_path	hvipi_k_ipi_path
#define hvipi_flush_path	hvipi_k_flush_path
#define hvipi_path_done	hvipi_k_path_done
