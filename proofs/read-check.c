// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The entry points' types as the read check wants them (proofs/read-check.sh):
 * every cpumask and VP-table parameter is __hvipi_shared, so that nothing
 * the core is handed can be read but through the loads' models.  sparse
 * refuses these initialisers if a parameter lost its mark.
 */
#include "hvipi.h"

typedef void plan_mask_fn(struct hvipi_plan *,
			  const unsigned long __hvipi_shared *,
			  const unsigned long __hvipi_shared *, uint32_t,
			  const uint32_t __hvipi_shared *, uint32_t, uint32_t,
			  bool, uint32_t, uint32_t, uint64_t *, uint32_t);
typedef void plan_one_fn(struct hvipi_plan *, uint32_t, uint32_t,
			 const uint32_t __hvipi_shared *, uint32_t, uint32_t,
			 uint64_t *, uint32_t);
typedef uint64_t fast_one_fn(uint32_t, uint32_t,
			     const uint32_t __hvipi_shared *, uint32_t,
			     uint32_t);
typedef uint32_t vp_ident_fn(const uint32_t __hvipi_shared *, uint32_t);
typedef void plan_flush_fn(struct hvipi_flush_plan *,
			   const unsigned long __hvipi_shared *,
			   const unsigned long __hvipi_shared *, uint32_t,
			   const uint32_t __hvipi_shared *, uint32_t, uint64_t,
			   uint64_t, uint64_t, uint32_t, uint32_t, uint64_t *,
			   uint32_t);

plan_mask_fn *const hvipi_rc_plan_mask = hvipi_plan_mask;
plan_one_fn *const hvipi_rc_plan_one = hvipi_plan_one;
fast_one_fn *const hvipi_rc_fast_one = hvipi_fast_one;
vp_ident_fn *const hvipi_rc_vp_ident = hvipi_vp_ident;
plan_flush_fn *const hvipi_rc_plan_flush = hvipi_plan_flush;
