// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_rx.c - the receiver model (see hvipi_rx.h): decodes one Send-IPI
 * call as a strict hypervisor would, from the TLFS rules of facts
 * section 4.  Shared by the self-test and the test hypervisor.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/kernel.h>

#include "hvipi_rx.h"

u32 hvipi_rx_decode_regs(const struct hvipi_rx_regs *r, const u64 *mem,
			 u32 mem_words, struct hvipi_rx *rx)
{
	u64 ctl = r->rcx;
	u32 code = ctl & 0xffffu;
	u32 varhdr = (ctl >> HVIPI_CTL_VARHDR_SHIFT) & HVIPI_CTL_VARHDR_MAX;
	u64 words[2 + HVIPI_XMM_WORDS];
	const u64 *w;
	u32 nwords, i, k, idx;
	u64 vbm, format;

	rx->fast = (ctl >> HVIPI_CTL_FAST_SHIFT) & 1u;
	rx->all = false;
	rx->code = code;
	rx->banks = varhdr;
	rx->vector = 0;
	bitmap_zero(rx->vps, RX_VP_BITS);

	/* Reserved control bits 31:27, 47:44, 63:60. */
	if (ctl & (GENMASK_ULL(31, 27) | GENMASK_ULL(47, 44) |
		   GENMASK_ULL(63, 60)))
		return RX_INVALID_INPUT;
	if (code != HVIPI_CALL_SEND_IPI && code != HVIPI_CALL_SEND_IPI_EX)
		return RX_INVALID_CODE;
	/* Rep count 43:32, rep start 59:48. */
	if (ctl & (GENMASK_ULL(43, 32) | GENMASK_ULL(59, 48)))
		return RX_INVALID_INPUT;

	if (rx->fast) {
		words[0] = r->rdx;
		words[1] = r->r8;
		for (i = 0; i < HVIPI_XMM_WORDS; i++)
			words[2 + i] = r->xmm[i];
		w = words;
		nwords = ARRAY_SIZE(words);
	} else {
		if (!mem || (r->rdx & 7u))
			return RX_BAD_GPA;
		w = mem;
		nwords = mem_words;
		if (nwords < 2u)
			return RX_INVALID_INPUT;
	}

	if (code == HVIPI_CALL_SEND_IPI) {
		if (varhdr)
			return RX_INVALID_INPUT;
		if (rx->fast && (r->rdx >> 32))
			return RX_INVALID_INPUT;
		if (w[0] >> 32)		/* target_vtl, reserved: Xen */
			return RX_INVALID_PARAMETER;
		rx->vector = (u32)w[0];
		if (!rx_vector_ok(rx->vector))
			return RX_INVALID_INPUT;
		for (i = 0; i < 64u; i++)
			if ((w[1] >> i) & 1u)
				__set_bit(i, rx->vps);
		return RX_OK;
	}

	/* SendSyntheticClusterIpiEx */
	if (nwords < 3u)
		return RX_INVALID_INPUT;
	if (w[0] >> 32)
		return RX_INVALID_PARAMETER;
	rx->vector = (u32)w[0];
	format = w[1];
	vbm = w[2];
	if (varhdr != (u32)hweight64(vbm))
		return RX_INVALID_INPUT;
	if (format == HVIPI_FORMAT_ALL) {
		if (!rx_vector_ok(rx->vector))
			return RX_INVALID_INPUT;
		rx->all = true;
		return RX_OK;
	}
	if (format != HVIPI_FORMAT_SPARSE)
		return RX_INVALID_PARAMETER;
	if (rx->fast && varhdr > HVIPI_XMM_BANKS_MAX)
		return RX_INVALID_INPUT;
	if (3u + varhdr > nwords)
		return RX_INVALID_INPUT;
	if (!vbm)
		return RX_OK;
	if (!rx_vector_ok(rx->vector))
		return RX_INVALID_INPUT;
	for (k = 0; k < 64u; k++) {
		if (!((vbm >> k) & 1u))
			continue;
		idx = (u32)hweight64(vbm & (BIT_ULL(k) - 1u));
		for (i = 0; i < 64u; i++)
			if ((w[3 + idx] >> i) & 1u)
				__set_bit(64u * k + i, rx->vps);
	}
	return RX_OK;
}
