/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * check: run one case through hvipi_plan_mask() with vp_ident =
 * hvipi_vp_ident() (when that is >= 64, also with 0 and with a shorter
 * prefix, which must give the same plan and page bytes), compare with the
 * oracle, decode with the receiver model (KVM and Xen rules), check the
 * page guard bytes, and optionally compare with the Linux reference.
 */
#ifndef CHECK_H
#define CHECK_H

#include "counts.h"

#include <stdbool.h>
#include <stdint.h>

#include "oracle.h"
#include "linux_ref.h"

struct ck_case {
	const unsigned long *mask;
	const unsigned long *present;
	uint32_t nr;
	const uint32_t *vp;
	uint32_t self;
	bool excl;
	uint32_t vector;
	uint32_t hints;
	bool have_page;
	uint32_t page_size;	/* <= CK_PAGE_MAX */
};

#define CK_PAGE_MAX	4096u

struct ck_stats {
	uint64_t cases;
	uint64_t failures;	/* failed cases */
	uint64_t ident_cases;	/* re-planned with a shorter vp_ident */
	uint64_t kind[6];	/* hvipi plan kinds */
	uint64_t reason[7];	/* hvipi fallback reasons */
	/* Linux reference comparison */
	uint64_t lr_cases;
	uint64_t matrix[6][5];		/* [hvipi kind][linux kind] */
	uint64_t hv_send_lr_fb[LR_WHY_COUNT]; /* hvipi sends, Linux falls back */
	uint64_t lr_send_hv_fb[7];	/* Linux sends, hvipi falls back */
	uint64_t both_sent;		/* same VP set checked */
	uint64_t all_vs_sparse;		/* one "all", the other a set */
	uint64_t both_sparse, sparse_bytes_differ; /* hvipi EX_SPARSE or EX_XMM */
	uint64_t xmm_sparse;		/* ... of which hvipi EX_XMM */
	uint64_t hv_sparse_bytes, lr_sparse_bytes; /* sums over both_sparse */
	uint64_t lr_ex_hv_fast;		/* Linux Ex where hvipi is fast */
	uint64_t lr_last_cpu_ex;	/* ... because of the last-CPU look */
	uint64_t lr_written_beyond;	/* Linux wrote page bytes beyond sent */
};

/* Quiet after this many failure reports. */
extern unsigned int ck_max_reports;

/*
 * Check one case.  @s: the oracle sets for (mask, present, nr, vp, self,
 * excl), or NULL to compute them here.  Returns true if the case passed.
 */
bool ck_run(const struct ck_case *c, const struct or_sets *s,
	    struct ck_stats *st, bool vs_linux);

/* hvipi_plan_one(cpu) against plan_mask({cpu}) expectations. */
bool ck_run_one(uint32_t cpu, uint32_t nr, const uint32_t *vp,
		uint32_t vector, uint32_t hints, bool have_page,
		uint32_t page_size, struct ck_stats *st);

/* The receiver's set equals the oracle's target VP set (not "all"). */
struct rx_result;
bool ck_same_set(const struct rx_result *r, const struct or_sets *s);

void ck_print_kinds(const char *suite, const struct ck_stats *st);
void ck_print_linux(const char *suite, const struct ck_stats *st);

#endif /* CHECK_H */
