/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * rx: hypervisor-side decoder of the Hyper-V IPI hypercalls (see rx.h).
 * Order of checks as in KVM (facts §4); with call->xen, Xen's stricter
 * rules and status 5 for every rejected input.
 */
#include <string.h>

#include "rx.h"

/* Control word fields (TLFS), as byte-independent masks. */
#define RX_CODE_MASK		0x000000000000ffffull
#define RX_FAST_BIT		0x0000000000010000ull
#define RX_VARHDR_MASK		0x0000000007fe0000ull	/* bits 26:17 */
#define RX_VARHDR_SHIFT		17
#define RX_REPCNT_MASK		0x00000fff00000000ull	/* bits 43:32 */
#define RX_REPIDX_MASK		0x0fff000000000000ull	/* bits 59:48 */
#define RX_RSVD_MASK		0xf000f000f8000000ull	/* 63:60, 47:44, 31:27 */

#define RX_CODE_IPI		0x000bu
#define RX_CODE_IPI_EX		0x0015u

/* Input layout, byte offsets. */
#define RX_OFF_VECTOR		0	/* u32 */
#define RX_OFF_VTL		4	/* u8 */
#define RX_OFF_RSVD		5	/* u8[3] */
#define RX_OFF_MASK		8	/* u64, Send-IPI */
#define RX_OFF_FORMAT		8	/* u64, Ex */
#define RX_OFF_VBM		16	/* u64, Ex */
#define RX_OFF_BANKS		24	/* u64[], Ex */

#define RX_FMT_SPARSE		0u
#define RX_FMT_ALL		1u

#define RX_VEC_LO		0x10u
#define RX_VEC_HI		0xffu

#define RX_XMM_MAX_BANKS	11u

/* The input byte stream: the page, or the fast registers. */
struct rx_in {
	const uint8_t *p;
	size_t n;
	size_t hi;	/* bytes_read */
};

static bool rx_get(struct rx_in *in, size_t off, size_t len, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	if (!in->p || off > in->n || len > in->n - off)
		return false;
	for (i = 0; i < len; i++)
		v |= (uint64_t)in->p[off + i] << (8u * i);
	if (off + len > in->hi)
		in->hi = off + len;
	*val = v;
	return true;
}

static void rx_put_le(uint8_t *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static int rx_weight(uint64_t w)
{
	int n = 0;

	while (w) {
		w &= w - 1;
		n++;
	}
	return n;
}

static int rx_fail(const struct rx_call *call, struct rx_result *out,
		   uint16_t kvm_status, const char *why)
{
	out->status = call->xen ? RX_ST_INVALID_PARAM : kvm_status;
	out->why = why;
	return out->status;
}

static void rx_set(struct rx_result *out, uint32_t vp)
{
	if (vp >= RX_NR_VPS)
		return;
	if (!(out->vps[vp / 64u] & (1ull << (vp % 64u)))) {
		out->vps[vp / 64u] |= 1ull << (vp % 64u);
		out->nr_vps++;
	}
}

bool rx_vp_test(const struct rx_result *r, uint32_t vp)
{
	if (vp >= RX_NR_VPS)
		return false;
	return (r->vps[vp / 64u] >> (vp % 64u)) & 1u;
}

/* Xen: target_vtl and the three reserved bytes must be zero. */
static bool rx_xen_hdr_ok(struct rx_in *in)
{
	uint64_t v;

	if (!rx_get(in, RX_OFF_VTL, 4, &v))
		return false;
	return v == 0;
}

int rx_decode(const struct rx_call *call, struct rx_result *out)
{
	uint8_t regs[16 + 96];
	struct rx_in in;
	uint64_t ctl = call->control;
	uint64_t vector, mask, format, vbm, word;
	bool fast;
	uint32_t code, varhdr;
	int nbanks, i, k;

	memset(out, 0, sizeof(*out));
	out->why = "ok";
	code = (uint32_t)(ctl & RX_CODE_MASK);
	out->code = (uint16_t)code;
	fast = (ctl & RX_FAST_BIT) != 0;
	varhdr = (uint32_t)((ctl & RX_VARHDR_MASK) >> RX_VARHDR_SHIFT);

	if (ctl & RX_RSVD_MASK)
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "reserved control bits");
	if (code != RX_CODE_IPI && code != RX_CODE_IPI_EX) {
		out->status = RX_ST_INVALID_CODE;
		out->why = "unknown call code";
		return out->status;
	}
	if (code == RX_CODE_IPI && varhdr != 0)
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "variable header on Send-IPI");
	if (ctl & (RX_REPCNT_MASK | RX_REPIDX_MASK))
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "rep count/start");

	if (fast) {
		if (code == RX_CODE_IPI && (call->rdx >> 32) != 0)
			return rx_fail(call, out, RX_ST_INVALID_INPUT, "rdx bits 63:32");
		if (code == RX_CODE_IPI_EX && call->xen)
			return rx_fail(call, out, RX_ST_INVALID_PARAM, "fast Ex (Xen)");
		if (code == RX_CODE_IPI_EX && !call->has_xmm)
			return rx_fail(call, out, RX_ST_INVALID_INPUT, "fast Ex without XMM");
		rx_put_le(regs, call->rdx);
		rx_put_le(regs + 8, call->r8);
		for (i = 0; i < 12; i++)
			rx_put_le(regs + 16 + 8 * i, call->xmm[i]);
		in.p = regs;
		in.n = (code == RX_CODE_IPI_EX) ? sizeof(regs) : 16u;
	} else {
		if (call->page && ((uintptr_t)call->page & 7u))
			return rx_fail(call, out, RX_ST_INVALID_ALIGN, "input not 8-byte aligned");
		in.p = call->page;
		in.n = call->page ? call->page_size : 0;
	}
	in.hi = 0;

	if (code == RX_CODE_IPI) {
		if (!rx_get(&in, RX_OFF_VECTOR, 4, &vector) ||
		    !rx_get(&in, RX_OFF_MASK, 8, &mask)) {
			out->bytes_read = in.hi;
			return rx_fail(call, out, RX_ST_INVALID_INPUT, "input unreadable");
		}
		if (call->xen && !rx_xen_hdr_ok(&in)) {
			out->bytes_read = in.hi;
			return rx_fail(call, out, RX_ST_INVALID_PARAM, "vtl/reserved bytes (Xen)");
		}
		out->bytes_read = in.hi;
		if (vector < RX_VEC_LO || vector > RX_VEC_HI)
			return rx_fail(call, out, RX_ST_INVALID_INPUT, "vector out of range");
		out->vector = (uint32_t)vector;
		out->delivered = true;
		for (k = 0; k < 64; k++)
			if ((mask >> k) & 1u)
				rx_set(out, (uint32_t)k);
		return RX_ST_SUCCESS;
	}

	/* HvCallSendSyntheticClusterIpiEx */
	if (!rx_get(&in, RX_OFF_VECTOR, 4, &vector) ||
	    !rx_get(&in, RX_OFF_FORMAT, 8, &format) ||
	    !rx_get(&in, RX_OFF_VBM, 8, &vbm)) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "input unreadable");
	}
	if (call->xen && !rx_xen_hdr_ok(&in)) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_PARAM, "vtl/reserved bytes (Xen)");
	}
	if (call->xen && format != RX_FMT_SPARSE && format != RX_FMT_ALL) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_PARAM, "format (Xen)");
	}
	nbanks = rx_weight(vbm);
	if ((uint32_t)nbanks != varhdr) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_INPUT,
			       "variable header != popcount(valid_bank_mask)");
	}
	if (format == RX_FMT_ALL) {
		out->bytes_read = in.hi;
		if (vector < RX_VEC_LO || vector > RX_VEC_HI)
			return rx_fail(call, out, RX_ST_INVALID_INPUT, "vector out of range");
		out->vector = (uint32_t)vector;
		out->delivered = true;
		out->all = true;
		memset(out->vps, 0xff, sizeof(out->vps));
		out->nr_vps = RX_NR_VPS;
		return RX_ST_SUCCESS;
	}
	/* Any other format is read as sparse (KVM). */
	if (vbm == 0) {
		/* Empty set: success before the vector is looked at. */
		out->bytes_read = in.hi;
		out->why = "empty set";
		return RX_ST_SUCCESS;
	}
	if (fast && (uint32_t)nbanks > RX_XMM_MAX_BANKS) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "too many banks for XMM");
	}
	/* Check the whole set can be read before interrupting anyone. */
	if (!rx_get(&in, RX_OFF_BANKS + 8u * (size_t)(nbanks - 1), 8, &word)) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "input unreadable");
	}
	if (vector < RX_VEC_LO || vector > RX_VEC_HI) {
		out->bytes_read = in.hi;
		return rx_fail(call, out, RX_ST_INVALID_INPUT, "vector out of range");
	}
	out->vector = (uint32_t)vector;
	out->delivered = true;
	i = 0;	/* compacted index of bank k */
	for (k = 0; k < 64; k++) {
		int b;

		if (!((vbm >> k) & 1u))
			continue;
		rx_get(&in, RX_OFF_BANKS + 8u * (size_t)i, 8, &word);
		for (b = 0; b < 64; b++)
			if ((word >> b) & 1u)
				rx_set(out, (uint32_t)(64 * k + b));
		i++;
	}
	out->bytes_read = in.hi;
	return RX_ST_SUCCESS;
}
