/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * rx: a model of the hypervisor side of the two Hyper-V IPI hypercalls
 * (HvCallSendSyntheticClusterIpi and ...Ex), written from the TLFS and from
 * how KVM and Xen decode them.  It shares no code, header or constant with
 * the hvipi core: it reads the input as bytes, little-endian, at its own
 * offsets.  Used as the independent judge of what a plan makes a hypervisor
 * do.
 */
#ifndef RX_H
#define RX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hypercall status values (bits 15:0 of rax). */
#define RX_ST_SUCCESS		0x0000u
#define RX_ST_INVALID_CODE	0x0002u
#define RX_ST_INVALID_INPUT	0x0003u
#define RX_ST_INVALID_ALIGN	0x0004u
#define RX_ST_INVALID_PARAM	0x0005u

#define RX_NR_VPS		4096u
#define RX_VP_WORDS		(RX_NR_VPS / 64u)

/*
 * One hypercall as the hypervisor sees it.
 * xmm[] holds the 128-bit registers xmm0..xmm5 as 64-bit halves, low half
 * first (xmm[0] = xmm0 bits 63:0, xmm[1] = xmm0 bits 127:64, ...); they
 * are input only when the call is fast and has_xmm is set.  The fast bit
 * is taken from control bit 16.  page/page_size: the guest input page
 * (bytes), for slow calls.
 */
struct rx_call {
	uint64_t control;	/* rcx */
	uint64_t rdx;		/* input GPA, or first fast parameter */
	uint64_t r8;		/* output GPA, or second fast parameter */
	bool has_xmm;		/* XMM fast input in use */
	uint64_t xmm[12];
	const uint8_t *page;
	size_t page_size;
	bool xen;		/* Xen's rules instead of KVM's */
};

struct rx_result {
	uint16_t status;	/* RX_ST_* */
	uint16_t code;		/* call code seen */
	uint32_t vector;	/* vector delivered (valid on success) */
	bool delivered;		/* an interrupt was sent (success, vector checked) */
	bool all;		/* format "all": every VP */
	uint32_t nr_vps;	/* VPs interrupted (RX_NR_VPS when all) */
	uint64_t vps[RX_VP_WORDS]; /* bit v: VP v interrupted */
	size_t bytes_read;	/* highest input byte offset read + 1 */
	const char *why;	/* short reason for a failure, or "ok" */
};

/* Decode and "execute" one call; returns out->status. */
int rx_decode(const struct rx_call *call, struct rx_result *out);

/* Is VP @vp in the interrupted set? */
bool rx_vp_test(const struct rx_result *r, uint32_t vp);

#endif /* RX_H */
