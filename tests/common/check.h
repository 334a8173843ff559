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
#include <stddef.h>
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

/*
 * ck_run(), and then the plan it checked in *@out and its input page in
 * *@page (NULL: no page; the page is ck_run's own, valid until the next
 * ck_* call); either may be NULL.
 */
struct hvipi_plan;
bool ck_run_plan(const struct ck_case *c, const struct or_sets *s,
		 struct ck_stats *st, bool vs_linux, struct hvipi_plan *out,
		 const uint64_t **page);

/*
 * Plan a send as the kernel glue does (kernel_ref, kvm_ref): with @one,
 * hvipi_plan_one(@cpu, ...), else hvipi_plan_mask(..., vp_ident =
 * hvipi_vp_ident(@vp, @nr), ...).  First @p is filled with 0x5a bytes and,
 * with a @page, its first @fill bytes with CK_FILL.
 */
void ck_plan_glue(struct hvipi_plan *p, bool one, uint32_t cpu,
		  const unsigned long *mask, const unsigned long *present,
		  uint32_t nr, const uint32_t *vp, uint32_t self, bool excl,
		  uint32_t vector, uint32_t hints, uint64_t *page,
		  uint32_t page_size, uint32_t fill);

/* hvipi_plan_one(cpu) against plan_mask({cpu}) expectations. */
bool ck_run_one(uint32_t cpu, uint32_t nr, const uint32_t *vp,
		uint32_t vector, uint32_t hints, bool have_page,
		uint32_t page_size, struct ck_stats *st);
/* ck_run_one(), then its plan and page as ck_run_plan() gives them. */
bool ck_run_one_plan(uint32_t cpu, uint32_t nr, const uint32_t *vp,
		     uint32_t vector, uint32_t hints, bool have_page,
		     uint32_t page_size, struct ck_stats *st,
		     struct hvipi_plan *out, const uint64_t **page);

/* The receiver's set equals the oracle's target VP set (not "all"). */
struct rx_result;
bool ck_same_set(const struct rx_result *r, const struct or_sets *s);

/*
 * The receiver's reading @r of a plan of kind @kind interrupts the targets
 * of @s: their VPs, or "all" for an EX_ALL plan whose targets are the
 * present CPUs, self included.
 */
bool ck_rx_targets(const struct rx_result *r, uint32_t kind,
		   const struct or_sets *s);

/*
 * Decode a call with the receiver model (@xen: Xen's rules, else KVM's):
 * the registers, XMM input @xmm (12 words, xmm0..xmm5 low half first; NULL:
 * no XMM input) and the input page's bytes [0, @bytes) (@page NULL: none).
 * Returns rx_decode()'s status.
 */
int ck_decode(struct rx_result *r, uint64_t control, uint64_t rdx, uint64_t r8,
	      const uint64_t *xmm, const void *page, size_t bytes, bool xen);

/*
 * Decode plan @p's hypercall: FAST from rdx and r8, EX_XMM from rdx, r8
 * and input[2..13], the page kinds from @page's first p->bytes bytes.
 */
int ck_decode_plan(struct rx_result *r, const struct hvipi_plan *p,
		   const uint64_t *page, bool xen);

/* The page bytes [from, to) still hold CK_FILL, the fill before the call. */
#define CK_FILL		0xa5u
bool ck_untouched(const uint64_t *page, uint32_t from, uint32_t to);

/* Whether a plan kind (hvipi.h) or a Linux kind (LR_*) makes a hypercall. */
bool ck_hv_sends(uint32_t kind);
bool ck_lr_sends(uint32_t lk);

/*
 * The hvipi/Linux comparison classes of struct ck_stats, for one case in
 * which hvipi planned @p and Linux did @lk: @why, its LR_WHY_* reason when
 * it falls back; @last_cpu_ex, its Ex (or fallback from Ex) comes from its
 * last-CPU look; @beyond, it wrote page bytes beyond those it sent.
 */
void ck_count_linux(struct ck_stats *st, const struct hvipi_plan *p,
		    uint32_t lk, uint32_t why, bool last_cpu_ex, bool beyond);

/*
 * When both send: count the case, and compare the VP sets of hvipi's
 * reading @hr and Linux's @lr (either may be "all"); @lr_bytes: Linux's
 * input bytes.  Returns false if they interrupt different VP sets.
 */
bool ck_both_sent(struct ck_stats *st, const struct hvipi_plan *p,
		  const struct rx_result *hr, uint32_t lk,
		  const struct rx_result *lr, uint32_t lr_bytes);

/* Names of plan kinds, fallback reasons and LR_WHY_* reasons ("?" if out of range). */
const char *ck_kind_name(uint32_t kind);
const char *ck_reason_name(uint32_t reason);
const char *ck_lr_why_name(uint32_t why);

/* For a failure report: "  targets (cpu:vp):" and up to 24 of them ("p": present). */
void ck_print_targets(const unsigned long *mask, const unsigned long *present,
		      uint32_t nr, const uint32_t *vp);

void ck_print_kinds(const char *suite, const struct ck_stats *st);
void ck_print_linux(const char *suite, const struct ck_stats *st);

#endif /* CHECK_H */
