/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_rx.h - the receiver model: how a hypervisor decodes one
 * HvCallSendSyntheticClusterIpi(Ex) call (facts section 4: KVM's checks,
 * plus Xen's stricter ones).  One decoder, used by the self-test (on what
 * the fake hypercall page recorded) and by the test hypervisor
 * (hvipi_testhv.c, on the registers of each live hypercall).
 *
 * Written from the TLFS rules; no real hypervisor is involved.
 */
#ifndef HVIPI_RX_H
#define HVIPI_RX_H

#include <linux/types.h>

#include "hvipi.h"
#include "hvipi_hcall.h"

/* Statuses (TLFS), and one the model alone uses. */
#define RX_OK			0x0u
#define RX_INVALID_CODE		0x2u	/* HV_STATUS_INVALID_HYPERCALL_CODE */
#define RX_INVALID_INPUT	0x3u	/* HV_STATUS_INVALID_HYPERCALL_INPUT */
#define RX_INVALID_ALIGNMENT	0x4u	/* HV_STATUS_INVALID_ALIGNMENT */
#define RX_INVALID_PARAMETER	0x5u	/* HV_STATUS_INVALID_PARAMETER */
#define RX_BAD_GPA		0xffffu	/* model only: not the page we gave */

#define RX_VP_BITS		4096u

/* What a hypercall hands over in registers. */
struct hvipi_rx_regs {
	u64 rcx;			/* control word */
	u64 rdx;			/* 1st fast input, or input GPA */
	u64 r8;				/* 2nd fast input, or output GPA */
	u64 xmm[HVIPI_XMM_WORDS];	/* xmm0 low, xmm0 high, xmm1 low, ... */
};

/* The decoded call. */
struct hvipi_rx {
	bool all;		/* format "all" */
	bool fast;		/* fast bit (XMM for Ex) */
	u32 code;		/* call code, bits 15:0 of the control word */
	u32 vector;
	u32 banks;		/* variable-header size */
	unsigned long *vps;	/* RX_VP_BITS bits, owned by the caller */
};

static inline bool rx_vector_ok(u32 v)
{
	return v >= HVIPI_VECTOR_MIN && v <= HVIPI_VECTOR_MAX;
}

/*
 * Decode one call.  @mem is the memory input the GPA in rdx names, already
 * resolved by the caller (NULL: the GPA is not acceptable; the decoder
 * then returns RX_BAD_GPA for a memory-input call, after the control-word
 * checks), with @mem_words readable words from it to the end of its page.
 * Returns the status a strict receiver returns; on RX_OK, @rx holds the
 * vector and the VP set (or rx->all).
 */
u32 hvipi_rx_decode_regs(const struct hvipi_rx_regs *r, const u64 *mem,
			 u32 mem_words, struct hvipi_rx *rx);

#endif /* HVIPI_RX_H */
