/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Unit tests of the receiver model, from the TLFS examples and the KVM /
 * Xen rules (facts §1, §2, §4).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "counts.h"

#include "rx.h"

/* The flush receiver's group (test_rx_flush.c); returns its failures. */
int rxf_run_tests(int *total);

#define CTL_FAST	(1ull << 16)
#define VARHDR(n)	((uint64_t)(n) << 17)

static uint64_t page[512];

static void put32(uint8_t *b, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* Build an Ex input in the page, byte by byte; returns its size. */
static size_t ex_input(uint32_t vector, uint64_t format, uint64_t vbm,
		       const uint64_t *banks, int nbanks)
{
	uint8_t *b = (uint8_t *)page;
	int i;

	memset(page, 0, sizeof(page));
	put32(b, vector);
	put64(b + 8, format);
	put64(b + 16, vbm);
	for (i = 0; i < nbanks; i++)
		put64(b + 24 + 8 * i, banks[i]);
	return 24u + 8u * (size_t)nbanks;
}

static int slow(uint64_t control, size_t size, bool xen, struct rx_result *r)
{
	struct rx_call c;

	memset(&c, 0, sizeof(c));
	c.control = control;
	c.page = (const uint8_t *)page;
	c.page_size = size;
	c.xen = xen;
	return rx_decode(&c, r);
}

static int fast(uint64_t control, uint64_t rdx, uint64_t r8, bool xen,
		struct rx_result *r)
{
	struct rx_call c;

	memset(&c, 0, sizeof(c));
	c.control = control | CTL_FAST;
	c.rdx = rdx;
	c.r8 = r8;
	c.xen = xen;
	return rx_decode(&c, r);
}

/* TLFS-style example: VP 2 and VP 65, vector 0xfe, sparse set. */
static void test_ex_vp2_vp65(void **state)
{
	uint64_t banks[2] = { 1ull << 2, 1ull << 1 };
	struct rx_result r;
	size_t n = ex_input(0xfe, 0, 3, banks, 2);
	uint32_t v;

	(void)state;
	assert_int_equal(slow(0x15 | VARHDR(2), n, false, &r), 0);
	assert_true(r.delivered);
	assert_int_equal(r.vector, 0xfe);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rx_vp_test(&r, 2));
	assert_true(rx_vp_test(&r, 65));
	for (v = 0; v < 4096; v++)
		if (v != 2 && v != 65)
			assert_false(rx_vp_test(&r, v));
	assert_int_equal(r.bytes_read, 40);
	assert_int_equal(slow(0x15 | VARHDR(2), n, true, &r), 0);
	assert_int_equal(r.nr_vps, 2);
}

/* Compacted indexing: banks 1 and 63 only, stored at words 0 and 1. */
static void test_ex_compacted(void **state)
{
	uint64_t banks[2] = { 1ull << 1, 1ull << 63 };
	struct rx_result r;
	size_t n = ex_input(0x20, 0, (1ull << 1) | (1ull << 63), banks, 2);

	(void)state;
	assert_int_equal(slow(0x15 | VARHDR(2), n, false, &r), 0);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rx_vp_test(&r, 65));
	assert_true(rx_vp_test(&r, 4095));
}

static void test_fast_send_ipi(void **state)
{
	struct rx_result r;

	(void)state;
	assert_int_equal(fast(0x0b, 0xfe, (1ull << 2) | (1ull << 63), false, &r), 0);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rx_vp_test(&r, 2));
	assert_true(rx_vp_test(&r, 63));
	assert_int_equal(fast(0x0b, 0xfe, 4, true, &r), 0);
}

static void test_slow_send_ipi(void **state)
{
	uint8_t *b = (uint8_t *)page;
	struct rx_result r;

	(void)state;
	memset(page, 0, sizeof(page));
	put32(b, 0x30);
	put64(b + 8, 1ull << 7);
	assert_int_equal(slow(0x0b, 16, false, &r), 0);
	assert_int_equal(r.vector, 0x30);
	assert_true(rx_vp_test(&r, 7));
	assert_int_equal(r.nr_vps, 1);
	/* target_vtl / reserved bytes: KVM ignores, Xen rejects with 5 */
	b[4] = 1;
	assert_int_equal(slow(0x0b, 16, false, &r), 0);
	assert_int_equal(slow(0x0b, 16, true, &r), 5);
	b[4] = 0;
	b[7] = 0x80;
	assert_int_equal(slow(0x0b, 16, true, &r), 5);
	/* input too short */
	b[7] = 0;
	assert_int_equal(slow(0x0b, 15, false, &r), 3);
}

static void test_all_format_zero_banks(void **state)
{
	struct rx_result r;
	size_t n = ex_input(0xfe, 1, 0, NULL, 0);

	(void)state;
	assert_int_equal(slow(0x15, n, false, &r), 0);
	assert_true(r.all);
	assert_int_equal(r.nr_vps, 4096);
	assert_true(rx_vp_test(&r, 4095));
	assert_int_equal(slow(0x15, n, true, &r), 0);
	assert_true(r.all);
}

/* "all" still needs var-hdr == popcount(valid_bank_mask) (KVM). */
static void test_all_format_varhdr_checked(void **state)
{
	uint64_t bank = 1;
	struct rx_result r;
	size_t n = ex_input(0xfe, 1, 1, &bank, 1);

	(void)state;
	assert_int_equal(slow(0x15, n, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(1), n, false, &r), 0);
	assert_true(r.all);
}

static void test_bad_varhdr(void **state)
{
	uint64_t banks[2] = { 4, 2 };
	struct rx_result r;
	size_t n = ex_input(0xfe, 0, 3, banks, 2);

	(void)state;
	assert_int_equal(slow(0x15 | VARHDR(1), n, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(3), 4096, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(0), n, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(1), n, true, &r), 5);
	/* Send-IPI takes no variable header */
	assert_int_equal(fast(0x0b | VARHDR(1), 0xfe, 1, false, &r), 3);
}

static void test_reserved_control_bits(void **state)
{
	static const int bits[] = { 27, 28, 31, 44, 47, 60, 63 };
	struct rx_result r;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		assert_int_equal(fast(0x0b | (1ull << bits[i]), 0xfe, 1, false, &r), 3);
		assert_int_equal(fast(0x0b | (1ull << bits[i]), 0xfe, 1, true, &r), 5);
	}
}

static void test_rep_count_and_start(void **state)
{
	uint64_t bank = 4;
	struct rx_result r;
	size_t n;

	(void)state;
	assert_int_equal(fast(0x0b | (1ull << 32), 0xfe, 1, false, &r), 3);
	assert_int_equal(fast(0x0b | (1ull << 48), 0xfe, 1, false, &r), 3);
	n = ex_input(0xfe, 0, 1, &bank, 1);
	assert_int_equal(slow(0x15 | VARHDR(1) | (1ull << 43), n, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(1) | (1ull << 59), n, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(1), n, false, &r), 0);
}

static void test_rdx_upper_bits(void **state)
{
	struct rx_result r;

	(void)state;
	assert_int_equal(fast(0x0b, (1ull << 32) | 0xfe, 1, false, &r), 3);
	assert_int_equal(fast(0x0b, (1ull << 63) | 0xfe, 1, false, &r), 3);
	assert_int_equal(fast(0x0b, (1ull << 32) | 0xfe, 1, true, &r), 5);
}

static void test_vector_range(void **state)
{
	uint64_t bank = 1;
	struct rx_result r;

	(void)state;
	assert_int_equal(fast(0x0b, 0x0f, 1, false, &r), 3);
	assert_int_equal(fast(0x0b, 0x10, 1, false, &r), 0);
	assert_int_equal(fast(0x0b, 0xff, 1, false, &r), 0);
	assert_int_equal(fast(0x0b, 0x100, 1, false, &r), 3);
	assert_int_equal(fast(0x0b, 2, 1, false, &r), 3);
	assert_int_equal(fast(0x0b, 2, 1, true, &r), 5);
	ex_input(0x100, 0, 1, &bank, 1);
	assert_int_equal(slow(0x15 | VARHDR(1), 32, false, &r), 3);
	ex_input(0x0f, 1, 0, NULL, 0);
	assert_int_equal(slow(0x15, 24, false, &r), 3);
}

/* An empty sparse set succeeds before the vector is looked at (KVM). */
static void test_empty_sparse_before_vector(void **state)
{
	struct rx_result r;

	(void)state;
	ex_input(0, 0, 0, NULL, 0);
	assert_int_equal(slow(0x15, 24, false, &r), 0);
	assert_false(r.delivered);
	assert_int_equal(r.nr_vps, 0);
	/* any format other than 1 is sparse for KVM; Xen rejects it */
	ex_input(0x30, 7, 0, NULL, 0);
	assert_int_equal(slow(0x15, 24, false, &r), 0);
	assert_int_equal(slow(0x15, 24, true, &r), 5);
}

static void test_fast_ex_xmm(void **state)
{
	struct rx_call c;
	struct rx_result r;
	int i;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.control = 0x15 | CTL_FAST | VARHDR(11);
	c.rdx = 0x40;
	c.r8 = 0;		/* format sparse */
	c.has_xmm = true;
	c.xmm[0] = 0x7ff;	/* banks 0..10 */
	for (i = 0; i < 11; i++)
		c.xmm[1 + i] = 1ull << i;
	assert_int_equal(rx_decode(&c, &r), 0);
	assert_int_equal(r.nr_vps, 11);
	assert_true(rx_vp_test(&r, 64 * 10 + 10));
	c.control = 0x15 | CTL_FAST | VARHDR(12);
	c.xmm[0] = 0xfff;
	assert_int_equal(rx_decode(&c, &r), 3);
	c.control = 0x15 | CTL_FAST | VARHDR(11);
	c.xmm[0] = 0x7ff;
	c.xen = true;
	assert_int_equal(rx_decode(&c, &r), 5);	/* no fast Ex in Xen */
	c.xen = false;
	c.has_xmm = false;
	assert_int_equal(rx_decode(&c, &r), 3);
}

static void test_unknown_code(void **state)
{
	struct rx_result r;

	(void)state;
	assert_int_equal(fast(0x0c, 0xfe, 1, false, &r), 2);
	assert_int_equal(fast(0x02, 0xfe, 1, true, &r), 2);
}

static void test_input_bounds(void **state)
{
	uint64_t banks[3] = { 1, 1, 1 };
	struct rx_result r;
	size_t n = ex_input(0x40, 0, 7, banks, 3);
	struct rx_call c;

	(void)state;
	assert_int_equal(slow(0x15 | VARHDR(3), n - 1, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(3), 23, false, &r), 3);
	assert_int_equal(slow(0x15 | VARHDR(3), n, false, &r), 0);
	assert_int_equal(r.bytes_read, n);
	memset(&c, 0, sizeof(c));
	c.control = 0x15 | VARHDR(3);
	c.page = (const uint8_t *)page + 4;
	c.page_size = n;
	assert_int_equal(rx_decode(&c, &r), 4);
	c.page = NULL;
	assert_int_equal(rx_decode(&c, &r), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ex_vp2_vp65),
		cmocka_unit_test(test_ex_compacted),
		cmocka_unit_test(test_fast_send_ipi),
		cmocka_unit_test(test_slow_send_ipi),
		cmocka_unit_test(test_all_format_zero_banks),
		cmocka_unit_test(test_all_format_varhdr_checked),
		cmocka_unit_test(test_bad_varhdr),
		cmocka_unit_test(test_reserved_control_bits),
		cmocka_unit_test(test_rep_count_and_start),
		cmocka_unit_test(test_rdx_upper_bits),
		cmocka_unit_test(test_vector_range),
		cmocka_unit_test(test_empty_sparse_before_vector),
		cmocka_unit_test(test_fast_ex_xmm),
		cmocka_unit_test(test_unknown_code),
		cmocka_unit_test(test_input_bounds),
	};
	int total = (int)(sizeof(tests) / sizeof(tests[0])), ftotal;
	int failed = cmocka_run_group_tests_name("receiver", tests, NULL, NULL);

	failed += rxf_run_tests(&ftotal);	/* test_rx_flush.c */
	total += ftotal;

	ck_write_counts((uint64_t)(total - failed), (uint64_t)failed);
	return failed ? 1 : 0;
}
