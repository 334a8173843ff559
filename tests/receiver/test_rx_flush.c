/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Unit tests of the flush receiver model (rx_flush.c), from the worked
 * examples of spec/FLUSH_RULES.md (sections 1, 3, 4) and the KVM 6.1 /
 * TLFS readings; run by test_rx's main() as the group "receiver-flush".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rx_flush.h"

#define GPA		0x10000ull
#define FAST		(1ull << 16)
#define VH(n)		((uint64_t)(n) << 17)
#define REPS(n, s)	(((uint64_t)(n) << 32) | ((uint64_t)(s) << 48))
#define S		0x7f0000000000ull

static uint64_t mem[1024];		/* two pages of guest memory at GPA */
static uint64_t vps[RX_VP_WORDS];	/* the partition: VPs 0..199 */

static void setup_vps(void)
{
	uint32_t v;

	memset(vps, 0, sizeof(vps));
	for (v = 0; v < 200; v++)
		vps[v / 64] |= 1ull << (v % 64);
}

static int dec(uint64_t control, uint32_t rules, uint32_t hints,
	       bool enforce, struct rxf_result *r)
{
	struct rxf_call c;

	memset(&c, 0, sizeof(c));
	c.control = control;
	c.rdx = GPA;
	c.mem = (const uint8_t *)mem;
	c.mem_len = sizeof(mem);
	c.mem_gpa = GPA;
	c.vps = vps;
	c.hints = hints;
	c.enforce = enforce;
	c.rules = rules;
	return rxf_decode(&c, r);
}

#define ALLH	(RXF_HINT_REMOTE_FLUSH | RXF_HINT_EX | RXF_HINT_XMM)

/* FLUSH_RULES section 3: 1 page, control 0x0000000100000003, 32 bytes. */
static void test_list_one_page(void **state)
{
	struct rxf_result r;

	(void)state;
	setup_vps();
	memset(mem, 0, sizeof(mem));
	mem[0] = 0x1234000;		/* AddressSpace */
	mem[1] = 0;			/* Flags */
	mem[2] = (1ull << 3) | (1ull << 63);
	mem[3] = S;			/* one page */
	assert_int_equal(dec(0x0000000100000003ull, RXF_TLFS, ALLH, true, &r), 0);
	assert_int_equal(r.rax, 1ull << 32);
	assert_int_equal(r.reps_done, 1);
	assert_int_equal(r.bytes, 32);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rxf_vp_test(&r, 3) && rxf_vp_test(&r, 63));
	assert_true(r.list_read && r.nr_gvas == 1);
	assert_true(rxf_page_flushed(&r, S >> 12));
	assert_false(rxf_page_flushed(&r, (S >> 12) + 1));
	assert_false(rxf_page_flushed(&r, (S >> 12) - 1));
	/* KVM: the same VPs, the whole TLB */
	assert_int_equal(dec(0x0000000100000003ull, RXF_KVM, ALLH, true, &r), 0);
	assert_true(r.whole_tlb && rxf_page_flushed(&r, 12345));
	assert_int_equal(r.nr_vps, 2);
}

/* 33 pages in one entry; 4097 pages in two (entries 0xfff and 0). */
static void test_list_entries(void **state)
{
	struct rxf_result r;

	(void)state;
	setup_vps();
	memset(mem, 0, sizeof(mem));
	mem[2] = 1;
	mem[3] = S | 32;
	assert_int_equal(dec(0x0000000100000003ull, RXF_TLFS, ALLH, false, &r), 0);
	assert_true(rxf_page_flushed(&r, (S >> 12) + 32));
	assert_false(rxf_page_flushed(&r, (S >> 12) + 33));
	mem[3] = S | 0xfff;
	mem[4] = S + 0x1000000;
	assert_int_equal(dec(0x0000000200000003ull, RXF_TLFS, ALLH, false, &r), 0);
	assert_int_equal(r.bytes, 40);
	assert_true(rxf_page_flushed(&r, (S >> 12) + 4095));
	assert_true(rxf_page_flushed(&r, (S >> 12) + 4096));
	assert_false(rxf_page_flushed(&r, (S >> 12) + 4097));
	assert_int_equal(rxf_gva_first(r.gvas[1]), (S + 0x1000000) >> 12);
	assert_int_equal(rxf_gva_pages(r.gvas[0]), 4096);
	assert_int_equal(rxf_gva_pages(r.gvas[1]), 1);
	assert_true(rxf_gva_covers(S | 0xfff, (S >> 12) + 4095));
	assert_false(rxf_gva_covers(S | 0xfff, (S >> 12) + 4096));
}

/* Rep semantics: KVM rejects a continuation, the TLFS reading takes it. */
static void test_rep_start(void **state)
{
	struct rxf_result r;

	(void)state;
	setup_vps();
	memset(mem, 0, sizeof(mem));
	mem[2] = 1;
	mem[3] = S;
	mem[4] = S + 0x10000;
	mem[5] = S + 0x20000;
	assert_int_equal(dec(0x0003 | REPS(3, 1), RXF_KVM, ALLH, false, &r), 3);
	assert_true(r.dev & RXF_DEV_REP_START);
	assert_int_equal(dec(0x0003 | REPS(3, 1), RXF_TLFS, ALLH, false, &r), 0);
	assert_int_equal(r.reps_done, 3);	/* counted from the list's start */
	assert_int_equal(r.gva_start, 1);
	assert_false(rxf_page_flushed(&r, S >> 12));
	assert_true(rxf_page_flushed(&r, (S + 0x20000) >> 12));
	assert_int_equal(dec(0x0003 | REPS(3, 3), RXF_TLFS, ALLH, false, &r), 3);
	assert_int_equal(dec(0x0003 | REPS(0, 0), RXF_TLFS, ALLH, false, &r), 3);
	assert_int_equal(dec(0x0002 | REPS(1, 0), RXF_KVM, ALLH, false, &r), 3);
	assert_int_equal(dec(0x0002 | REPS(0, 1), RXF_TLFS, ALLH, false, &r), 3);
}

/* Ex: the set at word 2, banks from word 4, the list after the banks. */
static void test_ex_layout(void **state)
{
	struct rxf_result r;

	(void)state;
	setup_vps();
	memset(mem, 0, sizeof(mem));
	mem[1] = RXF_F_ALL_SPACES;
	mem[2] = 0;			/* sparse */
	mem[3] = (1ull << 0) | (1ull << 2);	/* banks 0 and 2 */
	mem[4] = 1ull << 5;		/* VP 5 */
	mem[5] = 1ull << 1;		/* VP 129 */
	mem[6] = S | 3;
	assert_int_equal(dec(0x0014 | VH(2) | REPS(1, 0), RXF_TLFS, ALLH, true, &r), 0);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rxf_vp_test(&r, 5) && rxf_vp_test(&r, 129));
	assert_true(rxf_page_flushed(&r, (S >> 12) + 3));
	assert_int_equal(r.bytes, 56);
	/* var_hdr != popcount */
	assert_int_equal(dec(0x0014 | VH(1) | REPS(1, 0), RXF_KVM, ALLH, true, &r), 3);
	assert_int_equal(dec(0x0013 | VH(3), RXF_TLFS, ALLH, true, &r), 3);
	/* Ex without the EX hint: TLFS 6 always, KVM only when enforcing */
	assert_int_equal(dec(0x0013 | VH(2), RXF_TLFS, RXF_HINT_REMOTE_FLUSH, false, &r), 6);
	assert_int_equal(dec(0x0013 | VH(2), RXF_KVM, RXF_HINT_REMOTE_FLUSH, false, &r), 0);
	assert_int_equal(dec(0x0013 | VH(2), RXF_KVM, RXF_HINT_REMOTE_FLUSH, true, &r), 6);
	/* empty sparse set: success, nothing flushed (both) */
	mem[3] = 0;
	assert_int_equal(dec(0x0013, RXF_KVM, ALLH, true, &r), 0);
	assert_true(r.empty_set && r.nr_vps == 0);
	/* format 2: KVM all VPs, TLFS status 5 */
	mem[2] = 2;
	assert_int_equal(dec(0x0013, RXF_KVM, ALLH, true, &r), 0);
	assert_true(r.all && r.nr_vps == 200);
	assert_int_equal(dec(0x0013, RXF_TLFS, ALLH, true, &r), 5);
}

/* Non-Ex mask 0 without ALL_PROCESSORS: KVM all VPs, TLFS none. */
static void test_mask_zero(void **state)
{
	struct rxf_result r;

	(void)state;
	setup_vps();
	memset(mem, 0, sizeof(mem));
	assert_int_equal(dec(0x0002, RXF_KVM, ALLH, true, &r), 0);
	assert_true(r.all && r.nr_vps == 200 && (r.dev & RXF_DEV_MASK0));
	assert_int_equal(dec(0x0002, RXF_TLFS, ALLH, true, &r), 0);
	assert_true(r.empty_set && r.nr_vps == 0);
	mem[1] = RXF_F_ALL_PROCESSORS | RXF_F_NON_GLOBAL;
	assert_int_equal(dec(0x0002, RXF_TLFS, ALLH, true, &r), 0);
	assert_true(r.all && r.nr_vps == 200);
	/* NON_GLOBAL on a List call, a reserved flag: TLFS 5, KVM ignores */
	mem[3] = S;
	assert_int_equal(dec(0x0003 | REPS(1, 0), RXF_TLFS, ALLH, true, &r), 5);
	assert_int_equal(dec(0x0003 | REPS(1, 0), RXF_KVM, ALLH, true, &r), 0);
	mem[1] = RXF_F_ALL_PROCESSORS | (1ull << 9);
	assert_int_equal(dec(0x0002, RXF_TLFS, ALLH, true, &r), 5);
	assert_int_equal(dec(0x0002, RXF_KVM, ALLH, true, &r), 0);
}

/* Input bounds: a list past the page; an unmapped header; misaligned. */
static void test_bounds(void **state)
{
	struct rxf_result r;
	struct rxf_call c;

	(void)state;
	setup_vps();
	memset(mem, 0, sizeof(mem));
	mem[1] = RXF_F_ALL_PROCESSORS;
	/* 510 entries: 24 + 4080 bytes, 8 past the page */
	assert_int_equal(dec(0x0003 | REPS(510, 0), RXF_TLFS, ALLH, true, &r), 4);
	assert_true(r.dev & RXF_DEV_PAGE);
	assert_int_equal(dec(0x0003 | REPS(510, 0), RXF_KVM, ALLH, true, &r), 0);
	assert_int_equal(r.rax, 510ull << 32);
	assert_int_equal(dec(0x0003 | REPS(509, 0), RXF_TLFS, ALLH, true, &r), 0);
	memset(&c, 0, sizeof(c));
	c.control = 0x0002;
	c.mem = (const uint8_t *)mem;
	c.mem_len = 16;
	c.mem_gpa = GPA;
	c.rdx = GPA;
	c.vps = vps;
	c.hints = ALLH;
	c.rules = RXF_KVM;
	assert_int_equal(rxf_decode(&c, &r), 3);	/* 24 bytes unreadable */
	c.rules = RXF_TLFS;
	assert_int_equal(rxf_decode(&c, &r), 4);
	c.mem_len = sizeof(mem);
	c.rdx = GPA + 4;
	assert_int_equal(rxf_decode(&c, &r), 4);
	c.rules = RXF_KVM;
	assert_int_equal(rxf_decode(&c, &r), 0);
}

/* Fast forms: registers as words; XMM hint; KVM's 10-bank limit. */
static void test_fast(void **state)
{
	struct rxf_call c;
	struct rxf_result r;

	(void)state;
	setup_vps();
	memset(&c, 0, sizeof(c));
	c.control = 0x0002 | FAST;
	c.rdx = 0;			/* AddressSpace */
	c.r8 = RXF_F_ALL_SPACES;	/* Flags */
	c.xmm[0] = 1ull << 7;		/* ProcessorMask */
	c.vps = vps;
	c.hints = ALLH;
	c.enforce = true;
	c.rules = RXF_KVM;
	assert_int_equal(rxf_decode(&c, &r), 0);
	assert_true(r.nr_vps == 1 && rxf_vp_test(&r, 7));
	c.hints = RXF_HINT_REMOTE_FLUSH;
	assert_int_equal(rxf_decode(&c, &r), 0);
	assert_true(r.ud);
	c.enforce = false;
	assert_int_equal(rxf_decode(&c, &r), 0);
	assert_true(!r.ud && rxf_vp_test(&r, 7));
	c.rules = RXF_TLFS;
	assert_int_equal(rxf_decode(&c, &r), 3);
	/* Ex: Format xmm0 low, ValidBanksMask xmm0 high, banks from xmm1 low */
	c.hints = ALLH;
	c.rules = RXF_KVM;
	c.control = 0x0013 | FAST | VH(11);
	c.xmm[0] = 0;
	c.xmm[1] = 0x7ff;
	assert_int_equal(rxf_decode(&c, &r), 3);
	c.control = 0x0013 | FAST | VH(2);
	c.xmm[1] = 0x3;
	c.xmm[2] = 1;
	c.xmm[3] = 1ull << 2;
	assert_int_equal(rxf_decode(&c, &r), 0);
	assert_true(r.nr_vps == 2 && rxf_vp_test(&r, 0) && rxf_vp_test(&r, 66));
}

int rxf_run_tests(int *total)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_one_page),
		cmocka_unit_test(test_list_entries),
		cmocka_unit_test(test_rep_start),
		cmocka_unit_test(test_ex_layout),
		cmocka_unit_test(test_mask_zero),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_fast),
	};

	*total = (int)(sizeof(tests) / sizeof(tests[0]));
	return cmocka_run_group_tests_name("receiver-flush", tests, NULL, NULL);
}
