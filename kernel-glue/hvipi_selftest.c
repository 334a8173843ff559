// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_selftest.c - the KTAP self-test run at module load: the list of
 * tests (by concern: hvipi_test_asm.c, hvipi_test_select.c,
 * hvipi_test_xmm.c, hvipi_test_assume.c, hvipi_test_live.c) and the runner.
 *
 * The glue is run, with its real inline asm, against a FAKE hypercall page
 * (hvipi_fake_hcall, hvipi_fake_hcall.S) that records rcx, rdx, r8 and
 * xmm0..xmm5 and returns a status the test chose.  What it recorded is then
 * decoded by an independent receiver model (hvipi_rx.c, the rules of facts
 * section 4: the checks KVM and Xen make), and the VP set it names is
 * compared with the set the cpumask and the synthetic VP table call for.
 * The "original" APIC ops are fakes that count calls, so every fallback is
 * seen (hvipi_test_harness.c).
 *
 * No hypervisor is involved: nothing here shows a real Hyper-V accepts
 * the calls, only that they are what the TLFS rules say.
 */
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include "hvipi_test.h"
#include "hvipi_test_hooks.h"

struct hvipi_test {
	const char *name;
	void (*fn)(void);
};

static const struct hvipi_test hvipi_tests[] = {
	{ "hcall_asm_forms_on_fake_page", test_hcall_asm_forms },
	{ "rep_call_loop_on_fake_page", test_rep_call_loop },
	{ "flush_on_fake_page", test_flush_on_fake_page },
	{ "flush_ex_on_fake_page", test_flush_ex_on_fake_page },
	{ "receiver_model_rejects_malformed", test_receiver_model_rejects },
	{ "glue_vp_table_identity", test_table_identity },
	{ "glue_vp_table_permuted", test_table_permuted },
	{ "glue_vp_table_ge_64", test_table_high },
	{ "glue_vp_table_up_to_4095", test_table_spread },
	{ "glue_vp_table_ge_4096", test_table_huge },
	{ "glue_vp_table_vp_inval", test_table_inval },
	{ "glue_vp_table_non_monotonic", test_table_nonmono },
	{ "nmi_never_fetches_input_page", test_nmi_never_fetches_page },
	{ "bad_vectors_fall_back", test_bad_vectors_fall_back },
	{ "fallback_not_recommended", test_fallback_not_recommended },
	{ "fallback_vp_unknown", test_fallback_vp_unknown },
	{ "fallback_ex_not_recommended", test_fallback_ex_not_recommended },
	{ "present_mask_as_target_is_not_all", test_present_is_target },
	{ "fallback_vp_too_big", test_fallback_vp_too_big },
	{ "fallback_no_input_page", test_fallback_no_page },
	{ "fallback_no_hypercall_page", test_fallback_no_hypercall_page },
	{ "failing_status_reaches_original_op", test_failing_status_falls_back },
	{ "status_bits_above_15_are_success", test_status_high_bits_are_success },
	{ "allbutself_of_only_self_is_noop", test_allbutself_only_self_is_noop },
	{ "xmm_fast_only_up_to_11_banks", test_xmm_over_11_banks_uses_memory },
	{ "xmm_fast_needs_no_page", test_xmm_needs_no_page },
	{ "tracepoint_fields", test_tracepoint_fields },
	{ "nmi_nested_send_keeps_outer_page", test_nmi_nested_send_keeps_outer_page },
	{ "nmi_fallback_keeps_outer_page", test_nmi_fallback_keeps_outer_page },
	{ "unknown_plan_kind_fails_closed", test_unknown_plan_kind_fails_closed },
	{ "vp_injective_checker", test_vp_injective_checker },
	{ "madt_processor_count_fake_tables", test_madt_count_fake_tables },
	{ "live_apic_switch_every_ipi_falls_back", test_live_switch },
	{ "live_switch_ipis_during_cpu_hotplug", test_live_hotplug },
};

int hvipi_selftest(void)
{
	unsigned int i, pass = 0, fail = 0, skip = 0;
	int err;

	printk(KERN_INFO "KTAP version 1\n");
	printk(KERN_INFO "1..%zu\n", ARRAY_SIZE(hvipi_tests));
	err = hvipi_test_setup();
	if (err) {
		printk(KERN_INFO "# hvipi: setup failed (%d)\n", err);
		for (i = 0; i < ARRAY_SIZE(hvipi_tests); i++)
			printk(KERN_INFO "not ok %u - %s\n", i + 1,
			       hvipi_tests[i].name);
		printk(KERN_INFO "# hvipi: pass:0 fail:%zu\n",
		       ARRAY_SIZE(hvipi_tests));
		hvipi_test_teardown(false);
		return ARRAY_SIZE(hvipi_tests);
	}
	printk(KERN_INFO "# hvipi: nr_cpu_ids=%u online=%u present=%u\n",
	       nr_cpu_ids, num_online_cpus(), num_present_cpus());

	for (i = 0; i < ARRAY_SIZE(hvipi_tests); i++) {
		hvipi_st.fails = 0;
		hvipi_st.diags = 0;
		hvipi_st.skip = NULL;
		hvipi_tests[i].fn();
		if (hvipi_st.skip && !hvipi_st.fails) {
			printk(KERN_INFO "ok %u - %s # SKIP %s\n", i + 1,
			       hvipi_tests[i].name, hvipi_st.skip);
			skip++;
		} else if (hvipi_st.fails) {
			printk(KERN_INFO "    # %u failed checks\n", hvipi_st.fails);
			printk(KERN_INFO "not ok %u - %s\n", i + 1,
			       hvipi_tests[i].name);
			fail++;
		} else {
			printk(KERN_INFO "ok %u - %s\n", i + 1,
			       hvipi_tests[i].name);
			pass++;
		}
	}
	printk(KERN_INFO "# hvipi: plan kinds reached: none=%d fast=%d ex-sparse=%d ex-all=%d fallback=%d ex-xmm=%d\n",
	       !!(hvipi_kinds_seen & BIT(0)), !!(hvipi_kinds_seen & BIT(1)),
	       !!(hvipi_kinds_seen & BIT(2)), !!(hvipi_kinds_seen & BIT(3)),
	       !!(hvipi_kinds_seen & BIT(4)), !!(hvipi_kinds_seen & BIT(5)));
	if (skip)
		printk(KERN_INFO "# hvipi: skip:%u\n", skip);
	printk(KERN_INFO "# hvipi: pass:%u fail:%u\n", pass, fail);
	hvipi_test_teardown(true);
	return fail;
}

