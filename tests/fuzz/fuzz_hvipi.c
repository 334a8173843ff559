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
 *   8-15 its result (hvipi_rep_next, against the rule written with shifts).
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
	}
	free(mask);
	free(present);
	free(vp);
	return 0;
}
