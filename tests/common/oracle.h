/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * oracle: the expected plan of hvipi_plan_mask(), computed the plain way,
 * from sets of CPUs and VPs (arrays of flags), from the selection rules in
 * the README / hvipi.h, not from the code of src/.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#define OR_NR_VPS	4096u

/* What the oracle learns about the target set. */
struct or_sets {
	uint32_t ntargets;		/* CPUs in the target set */
	bool any_inval;			/* a target VP is 0xffffffff */
	bool any_ge64;			/* a target VP is >= 64 (not INVAL) */
	bool any_ge4096;		/* a target VP is in 4096..0xfffffffe */
	bool have_present;		/* a present mask was given */
	bool mask_is_present;		/* mask == present over 0..nr-1 */
	bool exclude_self;
	uint32_t nvps;			/* distinct target VPs < 4096 */
	uint32_t nbanks;		/* distinct banks of those */
	uint32_t max_target_vp;		/* largest valid target VP < 4096 */
	bool vp[OR_NR_VPS];		/* target VPs < 4096 */
	uint16_t list[OR_NR_VPS];	/* the same, as a list of nvps */
};

/* Expected plan; kinds and reasons use the hvipi.h numbering. */
struct or_expect {
	uint32_t kind;
	uint32_t reason;
	uint32_t nbanks;		/* EX_SPARSE, EX_XMM: banks */
	uint32_t bytes;			/* Ex: page bytes (0 for EX_XMM) */
};

/* @s must be zeroed once before the first use (it is reused cheaply). */
void or_sets(struct or_sets *s, const unsigned long *mask,
	     const unsigned long *present, uint32_t nr_cpu_ids,
	     const uint32_t *vp_index, uint32_t self, bool exclude_self);

void or_expect(struct or_expect *e, const struct or_sets *s, uint32_t vector,
	       uint32_t hints, bool have_page, uint32_t page_size);

bool or_in_mask(const unsigned long *m, uint32_t cpu);

#endif /* ORACLE_H */
