/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * rx_flush: a model of the hypervisor side of the four Hyper-V remote TLB
 * flush hypercalls (HvCallFlushVirtualAddressSpace 0x0002, ...List 0x0003,
 * ...SpaceEx 0x0013, ...ListEx 0x0014), written from the TLFS and from how
 * KVM 6.1 decodes them (spec/FLUSH_RULES.md sections 1, 3 and 4).  Like
 * rx.c it shares no code, header or constant with the hvipi core: the
 * input is read as bytes, little-endian, at its own offsets.
 *
 * Where KVM 6.1 and the TLFS part, the caller picks the reading, rule by
 * rule (rxf_call.rules), as rx.c picks KVM's or Xen's; either way the decoder
 * marks in rxf_result.dev every such rule the call met (RXF_DEV_*), so
 * that a difference between the readings, or between this model and a
 * real receiver, can be put down to a named rule.
 *
 * Two results, kept apart:
 *  - what is flushed where: the status (and #UD), the result word with its
 *    reps completed, and the set of VPs whose TLB is flushed;
 *  - the TLFS reading of what is flushed on them: address space, flags
 *    and every GVA list entry decoded to its page range (bits 63:12 page
 *    number, bits 11:0 additional pages: gva_covers of spec/hvipi_flush.h).
 *    KVM 6.1 ignores all of it and flushes the whole TLB of each target
 *    (whole_tlb); under RXF_KVM the fields are still decoded when the
 *    input holds them, for information.
 */
#ifndef RX_FLUSH_H
#define RX_FLUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rx.h"		/* RX_ST_*, RX_NR_VPS, RX_VP_WORDS */

#define RXF_ST_ACCESS_DENIED	0x0006u

#define RXF_CODE_SPACE		0x0002u
#define RXF_CODE_LIST		0x0003u
#define RXF_CODE_SPACE_EX	0x0013u
#define RXF_CODE_LIST_EX	0x0014u

/* HV_FLUSH_* (flags word, bits) */
#define RXF_F_ALL_PROCESSORS	0x1ull
#define RXF_F_ALL_SPACES	0x2ull
#define RXF_F_NON_GLOBAL	0x4ull
#define RXF_F_EXT_RANGE		0x8ull

/* Hints the guest was given (CPUID), and that a receiver may enforce. */
#define RXF_HINT_REMOTE_FLUSH	0x1u	/* 0x40000004 EAX bit 2 */
#define RXF_HINT_EX		0x2u	/* 0x40000004 EAX bit 11 */
#define RXF_HINT_XMM		0x4u	/* 0x40000003 EDX bit 4 */

/* Most list entries a 4 KiB input can hold (non-Ex: (4096 - 24) / 8). */
#define RXF_MAX_GVAS		509u

/*
 * The rules on which the two readings part (rxf_result.dev): set when the
 * call meets the rule, whichever reading is followed.
 *  MASK0      non-Ex ProcessorMask 0 without ALL_PROCESSORS: KVM all VPs
 *             (its Windows Server 2012 workaround); TLFS an empty set.
 *  FORMAT     Ex Format other than 0 and 1: KVM all VPs; TLFS status 5.
 *  EX_ALLPROC ALL_PROCESSORS on an Ex call: KVM ignores it (reads the
 *             set); TLFS reading all VPs (the flag's non-Ex meaning; the
 *             Ex pages only say "similar": unverified).
 *  FLAGS      flag bits 4..63: KVM ignores them; TLFS status 5 (reserved
 *             must be zero; the code is unverified).
 *  NONGLOBAL  NON_GLOBAL_MAPPINGS_ONLY on a List call: KVM ignores it;
 *             TLFS status 5 ("invalid option"; code unverified).
 *  REP_START  List call with 0 < rep start < rep count: KVM status 3;
 *             TLFS a continuation, entries from the start index on.
 *  ALIGN      slow input GPA not 8-aligned: KVM reads it; TLFS status 4.
 *  PAGE       slow input (header, banks, whole list) crosses a page or is
 *             not all in guest memory: TLFS status 4; KVM reads only the
 *             header and banks (status 3 when those fail), never the list.
 *  BANKS16    Ex sparse set with banks 16 and up (VPs >= 1024): KVM reads
 *             at most 16 bank words and ignores valid_bank_mask bits 16+;
 *             TLFS reads every bank.
 *  NOXMM      fast call without the XMM-input hint: KVM #UD when it
 *             enforces CPUID, else it reads the XMM registers; TLFS
 *             status 3 (no XMM input: the input does not fit in rdx/r8).
 *  XMM_SIZE   fast call whose TLFS input (header, banks, list) exceeds the
 *             112 bytes of rdx, r8, xmm0..5: TLFS status 3; KVM only
 *             limits the banks (10) and never reads a list.
 *  HINT       a hint missing: KVM status 6 only when it enforces CPUID,
 *             for any of the four calls without REMOTE_FLUSH and the Ex
 *             calls without EX; TLFS reading: the Ex calls need EX (status
 *             6 as KVM's; unverified), REMOTE_FLUSH is a recommendation.
 *  WHOLE_TLB  what is flushed on a target: KVM the whole TLB (every
 *             address space, every page, global ones too); TLFS the pages
 *             of the list, or of the address space (all with
 *             ALL_VIRTUAL_ADDRESS_SPACES), global ones kept with
 *             NON_GLOBAL_MAPPINGS_ONLY.  Met by every call but a Space
 *             call with ALL_VIRTUAL_ADDRESS_SPACES and without NON_GLOBAL;
 *             never changes the status or the VP set.
 */
#define RXF_DEV_MASK0		0x0001u
#define RXF_DEV_FORMAT		0x0002u
#define RXF_DEV_EX_ALLPROC	0x0004u
#define RXF_DEV_FLAGS		0x0008u
#define RXF_DEV_NONGLOBAL	0x0010u
#define RXF_DEV_REP_START	0x0020u
#define RXF_DEV_ALIGN		0x0040u
#define RXF_DEV_PAGE		0x0080u
#define RXF_DEV_BANKS16		0x0100u
#define RXF_DEV_NOXMM		0x0200u
#define RXF_DEV_XMM_SIZE	0x0400u
#define RXF_DEV_HINT		0x0800u
#define RXF_DEV_WHOLE_TLB	0x1000u
#define RXF_DEV_COUNT		13
#define RXF_DEV_ALL		0x1fffu

/*
 * The reading (rxf_call.rules): the RXF_DEV_* rules on which KVM 6.1's
 * reading is followed, the TLFS's on the others.  RXF_TLFS and RXF_KVM
 * are the two pure readings; any mix is allowed, so that a difference
 * between them can be put down to the rules that make it.
 */
#define RXF_TLFS		0u
#define RXF_KVM			RXF_DEV_ALL

/* KVM 6.1: banks it reads at most (KVM_MAX_VCPUS 1024 / 64). */
#define RXF_KVM_BANKS		16u

/*
 * One flush call as the hypervisor sees it.  Guest memory: mem_len bytes
 * at guest-physical mem_gpa (nothing else mapped); a slow call's input is
 * read at GPA rdx.  Pages are 4 KiB, aligned on GPA multiples of 4096.
 * vps: the partition's VPs (bit v: VP v exists), RX_VP_WORDS words.
 */
struct rxf_call {
	uint64_t control;	/* rcx */
	uint64_t rdx;		/* input GPA, or AddressSpace (fast) */
	uint64_t r8;		/* output GPA, or Flags (fast) */
	uint64_t xmm[12];	/* xmm0..xmm5, low half first */
	const uint8_t *mem;
	size_t mem_len;
	uint64_t mem_gpa;
	const uint64_t *vps;
	uint32_t hints;		/* RXF_HINT_* */
	bool enforce;		/* the hints are enforced (KVM_CAP_HYPERV_ENFORCE_CPUID) */
	uint32_t rules;		/* RXF_TLFS, RXF_KVM, or the RXF_DEV_* rules read as KVM does */
};

struct rxf_result {
	bool ud;		/* #UD raised: no status */
	uint16_t status;	/* RX_ST_* or RXF_ST_ACCESS_DENIED */
	uint64_t rax;		/* status | reps completed << 32 */
	uint32_t reps_done;	/* reps completed (bits 43:32) */
	uint16_t code;
	uint32_t dev;		/* RXF_DEV_* met */
	const char *why;	/* reason of a failure, or "ok" */
	/* where: on success, the VPs whose TLB is flushed */
	bool all;		/* every VP of the partition */
	uint32_t nr_vps;
	uint64_t vps[RX_VP_WORDS];
	bool empty_set;		/* success with no VP named (no flush at all) */
	/* what: the TLFS reading (decoded when the input holds it) */
	bool header_read;	/* address_space, flags valid */
	uint64_t address_space, flags;
	uint64_t format, valid_bank_mask;	/* Ex */
	bool whole_tlb;		/* KVM's WHOLE_TLB: the whole TLB of each target */
	bool whole_space;	/* Space call (flags say which spaces) */
	bool list_read;		/* gvas[] valid */
	uint32_t gva_start;	/* rep start: entries gva_start .. nr_gvas - 1 processed */
	uint32_t nr_gvas;	/* entries in the list (the rep count) */
	uint64_t gvas[RXF_MAX_GVAS];
	size_t bytes;		/* slow: the input size the TLFS reading requires */
};

/* Decode and "execute" one call; returns out->status (0 with out->ud). */
int rxf_decode(const struct rxf_call *call, struct rxf_result *out);

/* Is VP @vp flushed? */
bool rxf_vp_test(const struct rxf_result *r, uint32_t vp);

/* An entry's page range: pages rxf_gva_first(e) .. + rxf_gva_pages(e) - 1. */
static inline uint64_t rxf_gva_first(uint64_t e)
{
	return e >> 12;
}

static inline uint32_t rxf_gva_pages(uint64_t e)
{
	return (uint32_t)(e & 0xfffu) + 1u;
}

/* gva_covers: entry @e covers page number @page (spec/hvipi_flush.h). */
static inline bool rxf_gva_covers(uint64_t e, uint64_t page)
{
	return (e >> 12) <= page && page - (e >> 12) <= (e & 0xfffu);
}

/*
 * The TLFS reading of a successful call: is page number @page (GVA >> 12)
 * of the address space flushed on the target VPs?  True for every page
 * of a Space call; for a List call, when an entry from gva_start on
 * covers it.
 */
bool rxf_page_flushed(const struct rxf_result *r, uint64_t page);

/* Name of an RXF_DEV_* bit (its index 0 .. RXF_DEV_COUNT - 1). */
const char *rxf_dev_name(unsigned int i);

#endif /* RX_FLUSH_H */
