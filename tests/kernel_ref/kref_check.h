/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kref_check: one send through Linux 6.1's hv_apic.c (kref_env.c, the
 * real code compiled unchanged) and its comparison with hvipi's plan, as
 * the kernel_ref suite does it; shared by kernel_ref.c (random sends) and
 * the exhaustive suite (every small case).
 *
 * kref_linux_run() sends the case through the op hv_apic_init() installed
 * (or the native op it left), and checks Linux on its own: at most one
 * hypercall and one native call, no warning, a native op that covers the
 * form's CPUs with the case's vector, a hypercall the receiver model
 * (KVM's rules) accepts with the target set (or "all" when the target set
 * is the present set, self kept), a native op after it exactly when it
 * failed, a fallback that one LR_WHY_* reason explains by the marks the
 * shims leave.  It also runs the model tests/linux_ref on the same inputs,
 * which must do what 6.1 did (kind, reason, the call's registers and
 * input bytes, the page bytes written), but for the one known difference
 * counted in struct kref_stats.
 *
 * kref_compare() compares that result with hvipi's plan @p (and its
 * reading @hr by the receiver model): the same no-op, the same VP set
 * whenever both send unless one uses "all"; every other difference is
 * counted in struct ck_stats's classes (ck_count_linux()).
 */
#ifndef KREF_CHECK_H
#define KREF_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "hvipi.h"
#include "kref.h"
#include "oracle.h"
#include "rx.h"

#define KREF_PAGE_BYTES		4096u
#define KREF_CHECK_LEN		1024u	/* page bytes filled and checked (Ex input <= 536) */

enum kref_form {
	KREF_F_MASK, KREF_F_MASK_ALLBUTSELF, KREF_F_ALLBUTSELF, KREF_F_ALL,
	KREF_F_ONE, KREF_F_SELF, KREF_F_COUNT
};

extern const char *const kref_form_name[KREF_F_COUNT];

/* One send. */
struct kref_case {
	enum kref_form form;
	uint32_t nr;
	uint32_t *vp;
	uint32_t max_vp;		/* hv_max_vp_index */
	uint32_t self;			/* < nr: smp_processor_id() */
	uint32_t cpu;			/* one, self: the target CPU */
	const unsigned long *mask;	/* the mask sent (online for all forms) */
	const unsigned long *present;	/* Linux's cpu_present_mask */
	const unsigned long *hv_present;/* hvipi's: present or NULL */
	const unsigned long *tmask;	/* the target mask: mask, or {cpu} */
	bool excl;
	uint32_t vector;
	uint32_t hints;
	bool page;			/* Linux's input page: 4 KiB or none */
	uint64_t status;		/* what every hypercall returns */
};

/* Counts beyond struct ck_stats. */
struct kref_stats {
	uint64_t form[KREF_F_COUNT];
	uint64_t lr_why[LR_WHY_COUNT];	/* every Linux fallback, by reason */
	uint64_t empty_native;		/* no target, ops not installed: native op */
	uint64_t hcall_failed;		/* failed hypercall, then the native op */
	uint64_t native_other_op;	/* fell back through another op, same set */
	uint64_t lr_all;		/* Linux sent the "all" format */
	/* the model tests/linux_ref against the real code */
	uint64_t model_runs;		/* Linux sends the model also made */
	uint64_t model_same;		/* ... with the same result, bytes included */
	uint64_t model_empty_nohint;	/* the known difference (see kref_check.c) */
};

/* What Linux did with one case (kref_linux_run()). */
struct kref_linux {
	bool ok;			/* Linux's own checks passed */
	bool installed;			/* hv_apic_init() installed the hv ops */
	uint32_t lk;			/* LR_NOOP .. LR_FALLBACK */
	uint32_t why;			/* LR_FALLBACK: its LR_WHY_* reason */
	bool last_cpu_ex;		/* its Ex (or fallback from Ex) came from the last-CPU look */
	bool beyond;			/* page bytes written beyond those sent */
	bool hcall_failed, native_other_op;
	uint32_t bytes;			/* slow call: input bytes */
	struct rx_result lr;		/* the receiver's reading of its call */
};

/* Failure reports to stderr; quiet after kref_max_reports. */
extern unsigned int kref_reports, kref_max_reports;
void kref_report(const struct kref_case *k, const char *what,
		 const struct hvipi_plan *p);

/* hv_max_vp_index of @vp: the largest VP other than VP_INVAL (0 if none). */
uint32_t kref_max_vp(const uint32_t *vp, uint32_t nr);

/*
 * Send @k through Linux 6.1 and check it on its own (@s: the oracle's
 * sets of the case's targets; @p: hvipi's plan for reports, or NULL).
 * Counts the model comparison in @ks.  Returns l->ok.
 */
bool kref_linux_run(const struct kref_case *k, const struct or_sets *s,
		    const struct hvipi_plan *p, struct kref_linux *l,
		    struct kref_stats *ks);

/*
 * Compare Linux's @l for @k with hvipi's plan @p (@hr: its reading by the
 * receiver model when it sends): counts the case in @st and @ks.  Returns
 * false (reported) if they differ in a way no class explains, or if @l
 * failed its own checks.
 */
bool kref_compare(const struct kref_case *k, const struct hvipi_plan *p,
		  const struct rx_result *hr, const struct kref_linux *l,
		  struct ck_stats *st, struct kref_stats *ks);

/* The Linux columns and kref_stats, after ck_print_linux()'s matrix. */
void kref_print(const char *suite, const struct ck_stats *st,
		const struct kref_stats *ks);

#endif /* KREF_CHECK_H */
