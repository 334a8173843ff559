// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_xmm.c - self-test: XMM-fast Ex (HVIPI_PLAN_EX_XMM): at most
 * 11 banks go in registers, more through the page; no page is needed.
 */
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "hvipi_glue.h"
#include "hvipi_test.h"

/* An XMM-fast plan carries its input in registers: no page needed. */
void test_xmm_needs_no_page(void)
{
	struct hvipi_case c = {
		.vp = hvipi_st.table[T_HIGH], .vector = 0xf0, .cpu = -1,
		.hints = H_ALL, .xmm = true, .no_page = true,
		.mask = hvipi_st.masks[0],
	};

	c.op = OP_SELF;
	CHECK(hvipi_run_case(&c) == HVIPI_PLAN_EX_XMM &&
	      hvipi_seen.kind == HVIPI_PLAN_EX_XMM && hvipi_seen.banks == 1,
	      "self: plan %u banks %u", hvipi_seen.kind, hvipi_seen.banks);
	c.op = OP_ONE;
	c.cpu = 0;
	CHECK(hvipi_run_case(&c) == HVIPI_PLAN_EX_XMM &&
	      hvipi_seen.kind == HVIPI_PLAN_EX_XMM,
	      "one: plan %u", hvipi_seen.kind);
	if (num_online_cpus() > 1 && nr_cpu_ids <= 11u * 64u - 64u) {
		c.op = OP_MASK_ABS;
		CHECK(hvipi_run_case(&c) == HVIPI_PLAN_EX_XMM &&
		      hvipi_seen.kind == HVIPI_PLAN_EX_XMM,
		      "mask_allbutself: plan %u", hvipi_seen.kind);
	}
}

/* More than 11 banks cannot go XMM-fast: the memory form is used. */
void test_xmm_over_11_banks_uses_memory(void)
{
	struct hvipi_case c = {
		.vector = 0xf4, .hints = H_ALL, .xmm = true, .op = OP_MASK,
	};
	u32 *t;
	cpumask_var_t m;
	unsigned int cpu, n;

	t = kmalloc_array(nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	if (!t || !zalloc_cpumask_var(&m, GFP_KERNEL)) {
		kfree(t);
		CHECK(0, "no memory");
		return;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		t[cpu] = 64u * (cpu % 64u) + cpu / 64u;	/* own bank */
	c.vp = t;
	c.mask = m;
	if (nr_cpu_ids < 12)
		pr_info("    # only %u banks reachable with %u CPUs: the 12-bank case needs 12\n",
			nr_cpu_ids, nr_cpu_ids);
	for (n = 1; n <= nr_cpu_ids && n <= 14; n++) {
		cpumask_set_cpu(n - 1, m);
		hvipi_run_case(&c);	/* checks XMM iff banks <= 11 */
	}
	free_cpumask_var(m);
	kfree(t);
}
