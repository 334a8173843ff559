/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * libFuzzer harness: arbitrary mask, VP table, self, flags, vector and page
 * size through hvipi_plan_mask() and hvipi_plan_one(), checked against the
 * oracle, the receiver model and the Linux reference (common/check.c).
 *
 * Input layout (missing bytes read as zero):
 *   0-1  nr_cpu_ids (LE) % 8193
 *   2    flags: bit0 exclude_self, bit1 present given, bit2 page given,
 *        bit3 present = mask, bit4 dense (mask bytes repeated)
 *   3    hints (low 3 bits)
 *   4-5  self (LE)
 *   6-7  vector (LE)
 *   8-9  page size (LE) % 4097
 *   10   mask length n (bytes)
 *   then n mask bytes, then VP entries as LE u16:
 *        >= 0xfff0: VP_INVAL; bit 15 set: 4096 + low 15 bits; else low 13
 *        bits (0..8191).  CPUs without an entry get VP = CPU.
 *
 * The flush pieces read the first 26 bytes again as their own input:
 *   0-7 start, 8-15 end (LE; byte 2 bit 5 set: end = start + bytes 8-11,
 *   a short range), 16-17 capacity % 513 (the GVA list, against an
 *   independent structural check), 18-25 a rep control word (reserved bits
 *   and the fast bit cleared, rep start capped at the rep count) and bytes
 *   8-15 its result (hvipi_rep_next, against the rule written with shifts);
 *   the flush planner takes the mask, present mask, VP table and page of
 *   the IPI input, start and end, byte 26 as its options and byte 3 as its
 *   hints (bit 3, the remote-flush hint, inverted: set unless byte 3 sets it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hvipi.h"

static struct ck_stats st;

static uint32_t get(const uint8_t *d, size_t n, size_t off, int len)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < len; i++)
		if (off + i < n)
			v |= (uint32_t)d[off + i] << (8 * i);
	return v;
}

static uint64_t get64(const uint8_t *d, size_t n, size_t off)
{
	return (uint64_t)get(d, n, off, 4) | (uint64_t)get(d, n, off + 4, 4) << 32;
}

/*
 * hvipi_gva_list against the list's structure: the entries start at the
 * page of start, each begins right after the previous one ends, each
 * covers 1..4096 pages and all but the last exactly 4096, the last ends
 * at the page of end - 1; nothing written past the count; 0 and nothing
 * written for an empty range or when more than cap entries are needed.
 */
static void fuzz_gva(uint64_t start, uint64_t end, uint32_t cap)
{
	static uint64_t list[513 + 8];
	uint64_t first = start >> 12, last, need, page;
	uint32_t n, j;

	for (j = 0; j < 513 + 8; j++)
		list[j] = 0xa5a5a5a5a5a5a5a5ull ^ j;
	n = hvipi_gva_list(list, cap, start, end);
	need = 0;
	last = 0;
	if (end > start) {
		last = (end - 1) >> 12;
		need = (last - first) / 4096 + 1;
	}
	if (need == 0 || need > cap) {
		if (n != 0)
			abort();
	} else if (n != need) {
		abort();
	}
	page = first;
	for (j = 0; j < n; j++) {
		uint64_t e = list[j], more = e & 0xfff;

		if (e >> 12 != page || (j + 1 < n && more != 4095) ||
		    (j + 1 == n && page + more != last))
			abort();
		page += more + 1;
	}
	for (j = n; j < 513 + 8; j++)
		if (list[j] != (0xa5a5a5a5a5a5a5a5ull ^ j))
			abort();
}

/* hvipi_rep_next against the continuation rule written with shifts. */
static void fuzz_rep(uint64_t ctl, uint64_t res)
{
	uint64_t count, start, done, next = 0, want_next;
	enum hvipi_rep_step want, got;

	ctl &= 0x0fff0fff07feffffull;	/* reserved bits and fast bit cleared */
	count = ctl >> 32 & 0xfff;
	start = ctl >> 48 & 0xfff;
	if (start > count)
		ctl = (ctl & ~(0xfffull << 48)) | count << 48, start = count;
	done = res >> 32 & 0xfff;
	want_next = ctl;
	if (res & 0xffff)
		want = HVIPI_REP_FAILED;
	else if (count == 0 || done == count)
		want = HVIPI_REP_DONE;
	else if (done <= start || done > count)
		want = HVIPI_REP_BAD;
	else
		want = HVIPI_REP_AGAIN, want_next = (ctl & ~(0xfffull << 48)) | done << 48;
	got = hvipi_rep_next(ctl, res, &next);
	if (got != want || next != want_next)
		abort();
}

/*
 * hvipi_plan_flush against the flush rules read from the words it wrote:
 * kind and reason in range and consistent; nothing written past
 * plan.bytes (nothing at all without a call); the control word's fields;
 * the flags; the VP set, read back from the processor mask or the compact
 * banks, exactly the target VPs (ALL_PROCESSORS only when the mask is the
 * present mask); the GVA list one run of the range's pages.
 */
#define FZ_PAGE_WORDS	(4096u / 8u + 8u)

static void fuzz_flush(const unsigned long *mask, const unsigned long *present,
		       uint32_t nr, const uint32_t *vp, uint64_t start,
		       uint64_t end, uint32_t opts, uint32_t hints,
		       bool have_page, uint32_t page_size)
{
	static uint64_t page[FZ_PAGE_WORDS], want[64];
	struct hvipi_flush_plan p;
	uint64_t flags, w, vbm, pg;
	uint32_t c, i, j, hdr, nb, k, rank;
	bool any = false, same = present != NULL, ex;

	for (i = 0; i < FZ_PAGE_WORDS; i++)
		page[i] = 0xa5a5a5a5a5a5a5a5ull ^ i;
	memset(want, 0, sizeof(want));
	for (c = 0; c < nr; c++) {
		bool in = (mask[c / 64] >> (c % 64)) & 1;

		if (present && in != ((present[c / 64] >> (c % 64)) & 1))
			same = false;
		if (in) {
			any = true;
			if (vp[c] < 4096)
				want[vp[c] / 64] |= 1ull << (vp[c] % 64);
		}
	}
	hvipi_plan_flush(&p, mask, present, nr, vp, 0, 0x5000, start, end,
			 opts, hints, have_page ? page : NULL, page_size);
	if (p.kind > HVIPI_FLUSH_FALLBACK || p.reason > HVIPI_FB_NO_PAGE ||
	    (p.kind == HVIPI_FLUSH_FALLBACK) != (p.reason != HVIPI_FB_NONE) ||
	    p.bytes > page_size)
		abort();
	for (i = HVIPI_FLUSH_CALL(&p) ? p.bytes / 8 : 0; i < FZ_PAGE_WORDS; i++)
		if (page[i] != (0xa5a5a5a5a5a5a5a5ull ^ i))
			abort();
	if ((!any || (!(opts & HVIPI_FLUSH_OPT_WHOLE) && end <= start)) !=
	    (p.kind == HVIPI_FLUSH_NONE))
		abort();
	if (!HVIPI_FLUSH_CALL(&p))
		return;
	ex = HVIPI_FLUSH_IS_EX(&p);
	nb = ex ? p.banks : 0;
	hdr = ex ? 4 + nb : 3;
	/* control: code, varhdr, rep count; fast, rep start, reserved zero */
	if ((p.control & 0xffff) != (ex ? 0x13u : 0x2u) + (p.gvas != 0) ||
	    (p.control >> 16 & 1) || (p.control >> 17 & 0x3ff) != nb ||
	    (p.control >> 27 & 0x1f) || (p.control >> 32 & 0xfff) != p.gvas ||
	    (p.control >> 44) != 0 || p.bytes != 8 * (hdr + p.gvas))
		abort();
	flags = (ex || !same ? 0 : 1) | (opts & 1 ? 2 : 0) |
		((opts & 2) && !(opts & 4) ? 4 : 0);
	if (page[0] != (opts & 1 ? 0 : 0x5000) || page[1] != flags || p.flags != flags)
		abort();
	if (!ex && same) {
		if (page[2] != 0)
			abort();
	} else if (!ex) {
		if (page[2] != want[0])
			abort();
		for (k = 1; k < 64; k++)
			if (want[k])
				abort();
	} else {
		vbm = page[3];
		if (page[2] != 0 || vbm != p.valid_bank_mask)
			abort();
		for (k = 0, rank = 0; k < 64; k++) {
			w = (vbm >> k & 1) ? page[4 + rank++] : 0;
			if (w != want[k] || ((vbm >> k & 1) && !w))
				abort();
		}
		if (rank != nb)
			abort();
	}
	/* the list: the pages start / 4096 .. (end - 1) / 4096, in order */
	if (p.gvas) {
		if ((opts & 2) || end <= start)
			abort();
		pg = start >> 12;
		for (j = 0; j < p.gvas; j++) {
			uint64_t e = page[hdr + j], more = e & 0xfff;

			if (e >> 12 != pg || (j + 1 < p.gvas && more != 4095))
				abort();
			pg += more + 1;
		}
		if (pg - 1 != (end - 1) >> 12)
			abort();
	} else if (!(opts & 2) && ((end - 1) >> 12) - (start >> 12) < 4096ull * 8) {
		/* a whole space for a short range only when the list cannot fit */
		uint64_t need = (((end - 1) >> 12) - (start >> 12)) / 4096 + 1;

		if (need <= page_size / 8 - hdr)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t nr = get(data, size, 0, 2) % 8193u;
	uint32_t flags = get(data, size, 2, 1);
	uint32_t words, mlen, c, i;
	unsigned long *mask, *present;
	uint32_t *vp;
	struct ck_case k;
	size_t off;

	if (nr == 0)
		nr = 1;
	words = HVIPI_MASK_WORDS(nr);
	mask = calloc(words, sizeof(*mask));
	present = calloc(words, sizeof(*present));
	vp = malloc(nr * sizeof(*vp));
	if (!mask || !present || !vp)
		abort();
	mlen = get(data, size, 10, 1);
	off = 11;
	for (i = 0; i < words * sizeof(*mask); i++) {
		uint8_t b = 0;

		if (i < mlen)
			b = (uint8_t)get(data, size, off + i, 1);
		else if ((flags & 16) && mlen)
			b = (uint8_t)get(data, size, off + i % mlen, 1);
		((uint8_t *)mask)[i] = b;
	}
	off += mlen;
	for (c = 0; c < nr; c++) {
		if (off + 2 * c + 1 < size) {
			uint32_t e = get(data, size, off + 2 * c, 2);

			vp[c] = e >= 0xfff0u ? 0xffffffffu :
				(e & 0x8000u) ? 4096u + (e & 0x7fffu) : e & 0x1fffu;
		} else {
			vp[c] = c;
		}
	}
	if (flags & 8)
		memcpy(present, mask, words * sizeof(*mask));
	else
		for (c = 0; c < nr; c++)
			present[c / 64] |= 1ul << (c % 64);

	memset(&k, 0, sizeof(k));
	k.mask = mask;
	k.present = (flags & 2) ? present : NULL;
	k.nr = nr;
	k.vp = vp;
	k.self = get(data, size, 4, 2);
	k.excl = flags & 1;
	k.vector = get(data, size, 6, 2);
	k.hints = get(data, size, 3, 1) & 7u;
	k.have_page = flags & 4;
	k.page_size = k.have_page ? get(data, size, 8, 2) % 4097u : 0;
	if (!ck_run(&k, NULL, &st, true))
		abort();
	if (!ck_run_one(k.self, nr, vp, k.vector, k.hints, k.have_page,
			k.page_size, &st))
		abort();
	{
		uint64_t start = get64(data, size, 0);
		uint64_t end = (flags & 32) ? start + get(data, size, 8, 4) :
			       get64(data, size, 8);

		fuzz_gva(start, end, get(data, size, 16, 2) % 513u);
		fuzz_rep(get64(data, size, 18), get64(data, size, 8));
		fuzz_flush(mask, k.present, nr, vp, start, end,
			   get(data, size, 26, 1) & 7u,
			   (get(data, size, 3, 1) & 0xfu) ^ HVIPI_HINT_REMOTE_FLUSH,
			   k.have_page, k.page_size);
	}
	free(mask);
	free(present);
	free(vp);
	return 0;
}
