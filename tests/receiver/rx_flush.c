/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * rx_flush: hypervisor-side decoder of the Hyper-V remote TLB flush calls
 * (see rx_flush.h).  The order of the checks is KVM 6.1's
 * (kvm_hv_hypercall, then kvm_hv_flush_tlb); the TLFS reading keeps that
 * order and departs only at the RXF_DEV_* rules.
 */
#include <string.h>

#include "rx_flush.h"

/* Control word fields (TLFS), as masks. */
#define F_CODE_MASK		0x000000000000ffffull
#define F_FAST_BIT		0x0000000000010000ull
#define F_VARHDR_SHIFT		17
#define F_VARHDR_MASK		0x3ffu
#define F_REPCNT_SHIFT		32
#define F_REPIDX_SHIFT		48
#define F_REP_MASK		0xfffu
#define F_RSVD_MASK		0xf000f000f8000000ull	/* 63:60, 47:44, 31:27 */

#define F_FMT_SPARSE		0u
#define F_FMT_ALL		1u
#define F_FLAGS_KNOWN		0xfull		/* bits 0..3 */

#define F_PAGE			4096u
#define F_XMM_WORDS		14u	/* rdx, r8, xmm0..xmm5 halves */
#define F_KVM_XMM_BANKS		10u	/* 12 halves - 2 for Format, ValidBanksMask */

static const char *const dev_names[RXF_DEV_COUNT] = {
	"MASK0 (non-Ex mask 0: KVM all VPs, TLFS none)",
	"FORMAT (Ex format > 1: KVM all VPs, TLFS status 5)",
	"EX_ALLPROC (ALL_PROCESSORS on Ex: KVM ignores it, TLFS all VPs)",
	"FLAGS (flag bits 4..63: KVM ignores them, TLFS status 5)",
	"NONGLOBAL (NON_GLOBAL on a List call: KVM ignores it, TLFS status 5)",
	"REP_START (0 < rep start < rep count: KVM status 3, TLFS continuation)",
	"ALIGN (input GPA not 8-aligned: KVM reads it, TLFS status 4)",
	"PAGE (input crosses the page / not all mapped: TLFS status 4, KVM never reads the list)",
	"BANKS16 (Ex banks >= 16: KVM reads 16 words and ignores the rest)",
	"NOXMM (fast without the XMM hint: KVM #UD if enforcing else reads XMM, TLFS status 3)",
	"XMM_SIZE (fast input over 112 bytes: TLFS status 3, KVM limits only the banks)",
	"HINT (a hint missing: KVM status 6 only when enforcing; TLFS Ex needs EX)",
	"WHOLE_TLB (KVM flushes the whole TLB; TLFS the space / listed pages)",
};

const char *rxf_dev_name(unsigned int i)
{
	return i < RXF_DEV_COUNT ? dev_names[i] : "?";
}

/* The input: slow from guest memory at GPA rdx, fast from the registers. */
struct rxf_in {
	const struct rxf_call *c;
	bool fast;
	uint64_t regs[F_XMM_WORDS];
};

/* Guest memory [gpa, gpa + len) all mapped. */
static bool rxf_mapped(const struct rxf_call *c, uint64_t gpa, uint64_t len)
{
	uint64_t off;

	if (!c->mem || gpa < c->mem_gpa)
		return false;
	off = gpa - c->mem_gpa;
	return off <= c->mem_len && len <= c->mem_len - off;
}

/* Input words first .. first + n - 1 into w[]; false if not all readable. */
static bool rxf_words(const struct rxf_in *in, uint32_t first, uint32_t n,
		      uint64_t *w)
{
	uint32_t i, b;

	if (in->fast) {
		if (first > F_XMM_WORDS || n > F_XMM_WORDS - first)
			return false;
		memcpy(w, in->regs + first, 8u * n);
		return true;
	}
	if (!rxf_mapped(in->c, in->c->rdx + 8ull * first, 8ull * n) ||
	    in->c->rdx + 8ull * first < in->c->rdx)
		return false;
	for (i = 0; i < n; i++) {
		const uint8_t *p = in->c->mem +
			(in->c->rdx + 8ull * (first + i) - in->c->mem_gpa);

		w[i] = 0;
		for (b = 0; b < 8; b++)
			w[i] |= (uint64_t)p[b] << (8 * b);
	}
	return true;
}

static int rxf_fail(struct rxf_result *out, uint16_t status, const char *why)
{
	out->status = status;
	out->rax = status;
	out->why = why;
	return status;
}

static void rxf_set(struct rxf_result *out, const struct rxf_call *c, uint32_t vp)
{
	uint64_t bit = 1ull << (vp % 64u);

	if (vp >= RX_NR_VPS || !c->vps || !(c->vps[vp / 64u] & bit) ||
	    (out->vps[vp / 64u] & bit))
		return;
	out->vps[vp / 64u] |= bit;
	out->nr_vps++;
}

static void rxf_set_all(struct rxf_result *out, const struct rxf_call *c)
{
	uint32_t v;

	out->all = true;
	for (v = 0; v < RX_NR_VPS; v++)
		rxf_set(out, c, v);
}

bool rxf_vp_test(const struct rxf_result *r, uint32_t vp)
{
	return vp < RX_NR_VPS && ((r->vps[vp / 64u] >> (vp % 64u)) & 1u);
}

bool rxf_page_flushed(const struct rxf_result *r, uint64_t page)
{
	uint32_t i;

	if (r->ud || r->status != RX_ST_SUCCESS || r->empty_set)
		return false;
	if (r->whole_tlb || r->whole_space)
		return true;
	if (!r->list_read)
		return false;
	for (i = r->gva_start; i < r->nr_gvas; i++)
		if (rxf_gva_covers(r->gvas[i], page))
			return true;
	return false;
}

static uint32_t rxf_weight(uint64_t w)
{
	return (uint32_t)__builtin_popcountll(w);
}

/*
 * The VPs of an Ex sparse set: bank k of out->valid_bank_mask is the
 * bank word banks[i], i the index of bit k among the mask's set bits (the
 * banks are compacted).  Banks 16 and up are left out when BANKS16 is
 * read as KVM does.
 */
static void rxf_set_banks(struct rxf_result *out, const struct rxf_call *c,
			  const uint64_t *banks, uint32_t kvm)
{
	uint32_t i = 0, k, b;	/* i: compacted index of bank k */

	for (k = 0; k < ((kvm & RXF_DEV_BANKS16) ? RXF_KVM_BANKS : 64u); k++) {
		if (!((out->valid_bank_mask >> k) & 1u))
			continue;
		for (b = 0; b < 64u; b++)
			if ((banks[i] >> b) & 1u)
				rxf_set(out, c, 64u * k + b);
		i++;
	}
}

int rxf_decode(const struct rxf_call *c, struct rxf_result *out)
{
	const uint32_t kvm = c->rules;	/* rules read as KVM does */
	const uint64_t ctl = c->control;
	uint32_t code, varhdr, repcnt, repidx, hdr, nb = 0, k, nread, words;
	bool fast, ex, list, known, kvm_denied, tlfs_denied, all = false;
	uint64_t w[4], banks[64], mask = 0;
	struct rxf_in in;

	memset(out, 0, sizeof(*out));
	out->why = "ok";
	code = (uint32_t)(ctl & F_CODE_MASK);
	fast = (ctl & F_FAST_BIT) != 0;
	varhdr = (uint32_t)(ctl >> F_VARHDR_SHIFT) & F_VARHDR_MASK;
	repcnt = (uint32_t)(ctl >> F_REPCNT_SHIFT) & F_REP_MASK;
	repidx = (uint32_t)(ctl >> F_REPIDX_SHIFT) & F_REP_MASK;
	out->code = (uint16_t)code;
	known = code == RXF_CODE_SPACE || code == RXF_CODE_LIST ||
		code == RXF_CODE_SPACE_EX || code == RXF_CODE_LIST_EX;
	ex = code == RXF_CODE_SPACE_EX || code == RXF_CODE_LIST_EX;
	list = code == RXF_CODE_LIST || code == RXF_CODE_LIST_EX;

	/* 1. the hints (KVM: hv_check_hypercall_access, with enforce_cpuid) */
	if (known) {
		kvm_denied = c->enforce && (!(c->hints & RXF_HINT_REMOTE_FLUSH) ||
					    (ex && !(c->hints & RXF_HINT_EX)));
		tlfs_denied = ex && !(c->hints & RXF_HINT_EX);
		if (kvm_denied != tlfs_denied)
			out->dev |= RXF_DEV_HINT;
		if ((kvm & RXF_DEV_HINT) ? kvm_denied : tlfs_denied)
			return rxf_fail(out, RXF_ST_ACCESS_DENIED, "hint not given");
	}
	/* 2. reserved control bits */
	if (ctl & F_RSVD_MASK)
		return rxf_fail(out, RX_ST_INVALID_INPUT, "reserved control bits");
	/* 3. fast: XMM input */
	if (known && fast && !(c->hints & RXF_HINT_XMM)) {
		out->dev |= RXF_DEV_NOXMM;
		if (!(kvm & RXF_DEV_NOXMM))
			return rxf_fail(out, RX_ST_INVALID_INPUT, "fast call without XMM input");
		if (c->enforce) {
			out->ud = true;
			out->why = "#UD: fast call, XMM input not advertised";
			return 0;
		}
	}
	/* 4. the code's control rules */
	if (!known)
		return rxf_fail(out, RX_ST_INVALID_CODE, "unknown call code");
	if (!ex && varhdr)
		return rxf_fail(out, RX_ST_INVALID_INPUT, "variable header on a non-Ex call");
	if (list) {
		if (repcnt == 0)
			return rxf_fail(out, RX_ST_INVALID_INPUT, "rep count 0 on a List call");
		if (repidx >= repcnt)
			return rxf_fail(out, RX_ST_INVALID_INPUT, "rep start >= rep count");
		if (repidx) {
			out->dev |= RXF_DEV_REP_START;
			if (kvm & RXF_DEV_REP_START)
				return rxf_fail(out, RX_ST_INVALID_INPUT, "rep start != 0 (KVM)");
		}
	} else if (repcnt || repidx) {
		return rxf_fail(out, RX_ST_INVALID_INPUT, "rep count/start on a Space call");
	}

	/* 5. the input: where it is, how big the TLFS says it is */
	memset(&in, 0, sizeof(in));
	in.c = c;
	in.fast = fast;
	hdr = ex ? 4u : 3u;
	nb = ex ? varhdr : 0u;
	words = hdr + nb + (list ? repcnt : 0u);
	if (fast) {
		in.regs[0] = c->rdx;
		in.regs[1] = c->r8;
		memcpy(in.regs + 2, c->xmm, sizeof(c->xmm));
		if (words > F_XMM_WORDS) {
			out->dev |= RXF_DEV_XMM_SIZE;
			if (!(kvm & RXF_DEV_XMM_SIZE))
				return rxf_fail(out, RX_ST_INVALID_INPUT,
						"input over 112 bytes of XMM input");
		}
	} else {
		out->bytes = 8u * (size_t)words;
		if (c->rdx & 7u) {
			out->dev |= RXF_DEV_ALIGN;
			if (!(kvm & RXF_DEV_ALIGN))
				return rxf_fail(out, RX_ST_INVALID_ALIGN,
						"input GPA not 8-aligned");
		}
		if ((c->rdx & (F_PAGE - 1u)) + out->bytes > F_PAGE ||
		    !rxf_mapped(c, c->rdx, out->bytes)) {
			out->dev |= RXF_DEV_PAGE;
			if (!(kvm & RXF_DEV_PAGE))
				return rxf_fail(out, RX_ST_INVALID_ALIGN,
						"input crosses its page or is not mapped");
		}
	}
	if (!rxf_words(&in, 0, hdr, w))
		return rxf_fail(out, RX_ST_INVALID_INPUT, "input header unreadable");
	out->header_read = true;
	out->address_space = w[0];
	out->flags = w[1];
	if (out->flags & ~F_FLAGS_KNOWN) {
		out->dev |= RXF_DEV_FLAGS;
		if (!(kvm & RXF_DEV_FLAGS))
			return rxf_fail(out, RX_ST_INVALID_PARAM, "reserved flag bits");
	}
	if (list && (out->flags & RXF_F_NON_GLOBAL)) {
		out->dev |= RXF_DEV_NONGLOBAL;
		if (!(kvm & RXF_DEV_NONGLOBAL))
			return rxf_fail(out, RX_ST_INVALID_PARAM,
					"NON_GLOBAL_MAPPINGS_ONLY on a List call");
	}

	/* 6. the VP set */
	if (!ex) {
		mask = w[2];
		if (out->flags & RXF_F_ALL_PROCESSORS) {
			all = true;
		} else if (mask == 0) {
			out->dev |= RXF_DEV_MASK0;
			all = (kvm & RXF_DEV_MASK0) != 0;
			out->empty_set = !all;
		}
	} else {
		out->format = w[2];
		out->valid_bank_mask = w[3];
		if (varhdr != rxf_weight(out->valid_bank_mask))
			return rxf_fail(out, RX_ST_INVALID_INPUT,
					"variable header != popcount(valid_bank_mask)");
		if (out->format != F_FMT_SPARSE && out->format != F_FMT_ALL) {
			out->dev |= RXF_DEV_FORMAT;
			if (!(kvm & RXF_DEV_FORMAT))
				return rxf_fail(out, RX_ST_INVALID_PARAM,
						"format neither sparse nor all");
		}
		if (out->flags & RXF_F_ALL_PROCESSORS)
			out->dev |= RXF_DEV_EX_ALLPROC;
		if (out->format != F_FMT_SPARSE) {
			all = true;
		} else if (nb == 0) {
			if (!(kvm & RXF_DEV_EX_ALLPROC) && (out->flags & RXF_F_ALL_PROCESSORS))
				all = true;
			else
				out->empty_set = true;
		} else {
			if (fast && nb > F_KVM_XMM_BANKS)
				return rxf_fail(out, RX_ST_INVALID_INPUT,
						"more than 10 banks as XMM input");
			nread = nb;
			if (nb > RXF_KVM_BANKS || (out->valid_bank_mask >> RXF_KVM_BANKS)) {
				out->dev |= RXF_DEV_BANKS16;
				if ((kvm & RXF_DEV_BANKS16) && nread > RXF_KVM_BANKS)
					nread = RXF_KVM_BANKS;
			}
			if (!rxf_words(&in, 4u, nread, banks))
				return rxf_fail(out, RX_ST_INVALID_INPUT, "bank words unreadable");
			if (!(kvm & RXF_DEV_EX_ALLPROC) && (out->flags & RXF_F_ALL_PROCESSORS))
				all = true;
			else
				rxf_set_banks(out, c, banks, kvm);
		}
	}
	if (all)
		rxf_set_all(out, c);
	else if (!ex && !out->empty_set)
		for (k = 0; k < 64u; k++)
			if ((mask >> k) & 1u)
				rxf_set(out, c, k);

	/* 7. what is flushed on them: the TLFS reading of the list */
	if (list || !(out->flags & RXF_F_ALL_SPACES) || (out->flags & RXF_F_NON_GLOBAL))
		out->dev |= RXF_DEV_WHOLE_TLB;
	out->whole_tlb = (kvm & RXF_DEV_WHOLE_TLB) != 0;
	out->whole_space = !list;
	if (list && !(out->flags & RXF_F_EXT_RANGE) && repcnt <= RXF_MAX_GVAS &&
	    rxf_words(&in, hdr + nb, repcnt, out->gvas)) {
		out->list_read = true;
		out->nr_gvas = repcnt;
		out->gva_start = repidx;
	}

	/* 8. done: every rep completed, counted from the list's start */
	out->reps_done = repcnt;
	out->status = RX_ST_SUCCESS;
	out->rax = (uint64_t)repcnt << F_REPCNT_SHIFT;
	return RX_ST_SUCCESS;
}
