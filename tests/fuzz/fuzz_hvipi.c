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
	free(mask);
	free(present);
	free(vp);
	return 0;
}
