/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_test.h - shared by the self-test's files only (not by the module
 * proper): the harness (hvipi_test_harness.c: fake hypercall page record,
 * counting "original" ops, trace probe, the receiver model on a record,
 * the selection model, one case run through the glue), the test state, and
 * the tests of each file, which the runner (hvipi_selftest.c) lists.
 */
#ifndef HVIPI_TEST_H
#define HVIPI_TEST_H

#include <linux/cpumask.h>
#include <linux/prandom.h>
#include <linux/printk.h>
#include <linux/types.h>

#include "hvipi_glue.h"
#include "hvipi_hcall.h"
#include "hvipi_rx.h"

/* ---- the fake hypercall page (hvipi_fake_hcall.S) -------------------- */

/* What it recorded of the last call (offsets fixed by the .S). */
struct hvipi_fake_rec {
	u64 rcx;
	u64 rdx;
	u64 r8;
	u64 xmm[HVIPI_XMM_WORDS];	/* xmm0 low, xmm0 high, xmm1 low, ... */
	u64 calls;
	u64 status;			/* returned in rax */
	u64 step;			/* added to status after each call */
};

extern struct hvipi_fake_rec hvipi_fake_rec;

void hvipi_fake_hcall(void);
void hvipi_fake_set_status(u64 status);
void hvipi_fake_reset(u64 status);

/* The receiver model (hvipi_rx.c) on a record; @page: the page handed out. */
u32 hvipi_rx_decode_rec(const struct hvipi_fake_rec *r, const u64 *page,
			struct hvipi_rx *rx);

/* ---- the six ops; the counting fake "original" ops ------------------- */

enum { OP_ONE, OP_MASK, OP_MASK_ABS, OP_ABS, OP_ALL, OP_SELF, OP_N };

extern const char * const hvipi_op_name[OP_N];
extern unsigned int hvipi_orig_calls[OP_N];
extern int hvipi_orig_vector;
extern int hvipi_orig_cpu;

/* What the trace probe saw of the last send. */
struct hvipi_seen {
	unsigned int events;
	unsigned int ncpus;
	int vector;
	u32 kind;
	u32 reason;
	u32 banks;
	u64 status;
};

extern struct hvipi_seen hvipi_seen;

/* ---- test state ------------------------------------------------------- */

enum { T_IDENT, T_PERM, T_HIGH, T_SPREAD, T_HUGE, T_INVAL, T_NONMONO, T_N };

extern const char * const hvipi_table_name[T_N];

/* The self-test's state (hvipi_test_harness.c). */
struct hvipi_st {
	u32 *table[T_N];
	void * __percpu *pages;		/* per-CPU input page pointers */
	struct hvipi_ctx ctx;
	cpumask_var_t tgt;		/* the targets a case calls for */
	cpumask_var_t masks[16];
	unsigned int nmasks;
	unsigned long *want_vps;
	struct hvipi_rx rx;
	struct rnd_state rnd;
	unsigned int fails;		/* failed checks in the current test */
	unsigned int diags;		/* diagnostics printed in it */
	const char *skip;		/* the current test was skipped */
	u64 *self_page;
	u64 *copy_page;			/* the nested-NMI test's page copy */
};

extern struct hvipi_st hvipi_st;


#define DIAG_MAX 8

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			hvipi_st.fails++;					\
			if (hvipi_st.diags++ < DIAG_MAX)			\
				pr_info("    # %s:%d: " fmt "\n", __func__, \
					__LINE__, ##__VA_ARGS__);	\
		}							\
	} while (0)

/* ---- one case ---------------------------------------------------------- */

struct hvipi_case {
	int op;
	const struct cpumask *mask;	/* OP_MASK, OP_MASK_ABS */
	int cpu;			/* OP_ONE */
	int vector;
	u32 hints;
	bool xmm;
	const u32 *vp;
	u64 status;			/* the fake hypercall returns it */
	bool no_page;			/* no per-CPU input pages */
	bool no_hcall;			/* no hypercall page */
};

#define H_ALL	(HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS | HVIPI_HINT_XMM_INPUT)
#define H_NOEX	(HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_XMM_INPUT)


/* Plan kinds the VP-table tests reached (bit per kind). */
extern unsigned int hvipi_kinds_seen;

void hvipi_call_op_on(const struct hvipi_ctx *ctx, const struct hvipi_case *c);
void hvipi_call_op(const struct hvipi_case *c);
void hvipi_set_ctx(struct hvipi_ctx *ctx, const struct hvipi_case *c);
/* Run one case through the glue and check it; returns the expected kind. */
u32 hvipi_run_case(const struct hvipi_case *c);
/* The same on a context of the caller's, which must send as @c says. */
u32 hvipi_run_case_on(const struct hvipi_ctx *ctx, const struct hvipi_case *c);

int hvipi_test_setup(void);
void hvipi_test_teardown(bool probe);

/* ---- the tests, by concern ------------------------------------------- */

/* hvipi_test_asm.c: the asm forms, the receiver model, issue fails closed */
void test_hcall_asm_forms(void);
void test_rep_call_loop(void);
void test_receiver_model_rejects(void);
void test_unknown_plan_kind_fails_closed(void);

/* hvipi_test_flush.c: the remote TLB flush op */
void test_flush_on_fake_page(void);
void test_flush_ex_on_fake_page(void);

/* hvipi_test_select.c: plan selection and fallback, NMI */
void test_table_identity(void);
void test_table_permuted(void);
void test_table_high(void);
void test_table_spread(void);
void test_table_huge(void);
void test_table_inval(void);
void test_table_nonmono(void);
void test_nmi_never_fetches_page(void);
void test_bad_vectors_fall_back(void);
void test_fallback_not_recommended(void);
void test_fallback_vp_unknown(void);
void test_fallback_ex_not_recommended(void);
void test_present_is_target(void);
void test_fallback_vp_too_big(void);
void test_fallback_no_page(void);
void test_fallback_no_hypercall_page(void);
void test_failing_status_falls_back(void);
void test_status_high_bits_are_success(void);
void test_allbutself_only_self_is_noop(void);
void test_tracepoint_fields(void);
void test_nmi_nested_send_keeps_outer_page(void);
void test_nmi_fallback_keeps_outer_page(void);

/* hvipi_test_xmm.c: XMM-fast Ex */
void test_xmm_over_11_banks_uses_memory(void);
void test_xmm_needs_no_page(void);

/* hvipi_test_assume.c: the assumptions the glue discharges */
void test_vp_injective_checker(void);
void test_madt_count_fake_tables(void);

/* hvipi_test_live.c: the live kernel (test_switch=1) */
void test_live_switch(void);
void test_live_hotplug(void);
int hvipi_live_switch_test(const char **skip);
int hvipi_live_hotplug_test(const char **skip);

#endif /* HVIPI_TEST_H */
