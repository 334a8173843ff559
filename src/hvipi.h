/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi: the verified core of the Hyper-V paravirtual IPI send path.
 *
 * The core decides how one IPI is sent and encodes it; it never issues the
 * hypercall itself.  Its result is a plan (struct hvipi_plan):
 *
 *   HVIPI_PLAN_NONE      nothing to do; the send succeeded (empty target set)
 *   HVIPI_PLAN_FAST      fast HvCallSendSyntheticClusterIpi: control, rdx, r8
 *   HVIPI_PLAN_EX_SPARSE HvCallSendSyntheticClusterIpiEx, sparse VP set written
 *                        to the input page, bytes [0, plan.bytes)
 *   HVIPI_PLAN_EX_ALL    HvCallSendSyntheticClusterIpiEx, format "all",
 *                        bytes [0, 24) of the input page
 *   HVIPI_PLAN_FALLBACK  use the native APIC; plan.reason says why
 *
 * The ACSL contracts that say exactly what each function guarantees are in
 * the headers under spec/ (hvipi_contracts.h), next to these declarations.
 */
#ifndef HVIPI_H
#define HVIPI_H

#include "hvipi_types.h"

/* Hypercall codes and control-word fields (TLFS). */
#define HVIPI_CALL_SEND_IPI	0x000bu	/* HvCallSendSyntheticClusterIpi */
#define HVIPI_CALL_SEND_IPI_EX	0x0015u	/* HvCallSendSyntheticClusterIpiEx */
#define HVIPI_CTL_FAST_SHIFT	16
#define HVIPI_CTL_VARHDR_SHIFT	17
#define HVIPI_CTL_VARHDR_MAX	1023u	/* 10-bit field */

/* Ex input formats. */
#define HVIPI_FORMAT_SPARSE	0u
#define HVIPI_FORMAT_ALL	1u

/* VP numbers. */
#define HVIPI_VP_INVAL		0xffffffffu	/* table entry not known yet */
#define HVIPI_VP_LIMIT		4096u	/* sparse sets hold VPs 0..4095 */
#define HVIPI_FAST_VP_LIMIT	64u	/* fast Send-IPI holds VPs 0..63 */

/* Vectors a synthetic cluster IPI may carry. */
#define HVIPI_VECTOR_MIN	0x10u
#define HVIPI_VECTOR_MAX	0xffu

/* Ex input: u32 vector, u8 vtl, u8 rsvd[3], u64 format, u64 valid_bank_mask. */
#define HVIPI_EX_HDR_WORDS	3u
#define HVIPI_EX_HDR_BYTES	24u

/* Hints, from CPUID 0x40000004 EAX (bits 10, 11) and 0x40000003 EDX bit 4. */
#define HVIPI_HINT_CLUSTER_IPI	(1u << 0)
#define HVIPI_HINT_EX_MASKS	(1u << 1)
#define HVIPI_HINT_XMM_INPUT	(1u << 2)

enum hvipi_kind {
	HVIPI_PLAN_NONE = 0,
	HVIPI_PLAN_FAST = 1,
	HVIPI_PLAN_EX_SPARSE = 2,
	HVIPI_PLAN_EX_ALL = 3,
	HVIPI_PLAN_FALLBACK = 4,
};

/*
 * Why a plan falls back to the native APIC.  When several hold, the first
 * in this order wins (see README "Selection rules"):
 *   NOT_RECOMMENDED   the cluster-IPI hint is not set
 *   BAD_VECTOR        vector outside 0x10..0xff (NMI, vector 2, lands here)
 *   VP_UNKNOWN        a target CPU's VP is HVIPI_VP_INVAL
 *   EX_NOT_RECOMMENDED a target VP is >= 64 and the EX hint is not set
 *   VP_TOO_BIG        a target VP is in 4096..0xfffffffe
 *   NO_PAGE           no input page, or too small for the Ex input
 */
enum hvipi_reason {
	HVIPI_FB_NONE = 0,
	HVIPI_FB_NOT_RECOMMENDED = 1,
	HVIPI_FB_BAD_VECTOR = 2,
	HVIPI_FB_VP_UNKNOWN = 3,
	HVIPI_FB_EX_NOT_RECOMMENDED = 4,
	HVIPI_FB_VP_TOO_BIG = 5,
	HVIPI_FB_NO_PAGE = 6,
};

struct hvipi_plan {
	uint32_t kind;		/* enum hvipi_kind */
	uint32_t reason;	/* enum hvipi_reason, HVIPI_FB_NONE unless FALLBACK */
	uint64_t control;	/* hypercall control word (rcx) */
	uint64_t rdx;		/* FAST: vector; Ex: 0, the glue puts the page GPA */
	uint64_t r8;		/* FAST: VP mask; otherwise 0 */
	uint64_t valid_bank_mask; /* EX_SPARSE: the banks sent */
	uint32_t banks;		/* EX_SPARSE: bank words sent (variable header) */
	uint32_t bytes;		/* Ex: input bytes written to the page */
};

/* Number of unsigned longs in a cpumask of nr_cpu_ids bits. */
#define HVIPI_MASK_WORDS(nr)	(((nr) / 64u) + (((nr) % 64u) != 0u))

/*
 * hvipi_plan_mask - plan one IPI to a set of CPUs.
 * @plan:         where the plan goes
 * @mask:         target cpumask, HVIPI_MASK_WORDS(nr_cpu_ids) words
 *                (cpumask_bits()); bits at or beyond nr_cpu_ids are ignored
 * @present:      the present-CPU mask, or NULL; the "all" format is used
 *                only when the target set equals it and self is not excluded
 * @nr_cpu_ids:   number of CPU ids; no table entry at or beyond it is read
 * @vp_index:     VP of each CPU, HVIPI_VP_INVAL when not known
 * @self:         the sending CPU
 * @exclude_self: leave @self out of the target set (all-but-self)
 * @vector:       the interrupt vector
 * @hints:        HVIPI_HINT_* flags
 * @page:         the per-CPU input page (8-byte aligned) or NULL
 * @page_size:    its size in bytes (4096 in a kernel)
 *
 * Writes only *plan, and page bytes [0, plan->bytes) when the plan is Ex.
 */
void hvipi_plan_mask(struct hvipi_plan *plan, const unsigned long *mask,
		     const unsigned long *present, uint32_t nr_cpu_ids,
		     const uint32_t *vp_index, uint32_t self, bool exclude_self,
		     uint32_t vector, uint32_t hints, uint64_t *page,
		     uint32_t page_size);

/*
 * hvipi_plan_one - plan one IPI to one CPU: the same plan as
 * hvipi_plan_mask() with the mask {cpu}, no present mask and self kept.
 * A @cpu at or beyond @nr_cpu_ids is no CPU: the plan is NONE.
 */
void hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu, uint32_t nr_cpu_ids,
		    const uint32_t *vp_index, uint32_t vector, uint32_t hints,
		    uint64_t *page, uint32_t page_size);

/* The control word: call code, fast bit, variable-header size; rest zero. */
uint64_t hvipi_control(uint32_t code, bool fast, uint32_t var_hdr);

/* A hypercall status means success when its bits 15:0 are zero. */
bool hvipi_status_ok(uint64_t status);

#endif /* HVIPI_H */
