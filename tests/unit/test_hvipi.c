/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Unit tests of the hvipi core: every fallback reason, their precedence,
 * the control word encoder, the status check, the page guard, and each
 * known bug of docs/HYPERV_FACTS.md §5 that concerns the core, and the
 * GVA list of the remote TLB flush (hvipi_gva_list).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "counts.h"

#include "hvipi.h"
#include "rx.h"

#define INVAL		0xffffffffu
#define FILL		0xa5u
#define GUARD		64u
#define ALLHINTS	(HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS)

static uint64_t pagebuf[(4096 + GUARD) / 8];
static uint32_t vp_tab[128];
static unsigned long mask[2], present[2];
static struct hvipi_plan plan;

static void reset(void)
{
	uint32_t i;

	memset(pagebuf, FILL, sizeof(pagebuf));
	for (i = 0; i < 128; i++)
		vp_tab[i] = i;
	memset(mask, 0, sizeof(mask));
	memset(present, 0, sizeof(present));
	memset(&plan, 0x5a, sizeof(plan));
}

static void setb(unsigned long *m, uint32_t b)
{
	m[b / 64] |= 1ul << (b % 64);
}

static bool untouched_from(uint32_t from)
{
	const uint8_t *b = (const uint8_t *)pagebuf;
	uint32_t i;

	for (i = from; i < sizeof(pagebuf); i++)
		if (b[i] != FILL)
			return false;
	return true;
}

/* plan_mask over 128 CPUs with a 4 KiB page (or @size, 0 = NULL). */
static void run(uint32_t nr, uint32_t self, bool excl, uint32_t vector,
		uint32_t hints, bool with_present, uint32_t size)
{
	hvipi_plan_mask(&plan, mask, with_present ? present : NULL, nr, vp_tab,
			hvipi_vp_ident(vp_tab, nr), self, excl, vector, hints,
			size ? pagebuf : NULL, size);
}

static void assert_fb(uint32_t reason)
{
	assert_int_equal(plan.kind, HVIPI_PLAN_FALLBACK);
	assert_int_equal(plan.reason, reason);
	assert_true(untouched_from(0));
}

/* Decode the current plan with the receiver; returns the result. */
static struct rx_result decode(bool xen)
{
	struct rx_call c;
	struct rx_result r;

	memset(&c, 0, sizeof(c));
	c.control = plan.control;
	c.rdx = plan.rdx;
	c.r8 = plan.r8;
	c.page = (const uint8_t *)pagebuf;
	c.page_size = plan.bytes;
	c.xen = xen;
	assert_int_equal(rx_decode(&c, &r), 0);
	assert_true(r.delivered);
	return r;
}

/* ---- encoder and status ---- */

static void test_control_encoder(void **state)
{
	(void)state;
	assert_int_equal(hvipi_control(0x0b, true, 0), 0x1000bull);
	assert_int_equal(hvipi_control(0x0b, false, 0), 0x0bull);
	assert_int_equal(hvipi_control(0x15, false, 0), 0x15ull);
	assert_int_equal(hvipi_control(0x15, false, 1), 0x15ull | (1ull << 17));
	assert_int_equal(hvipi_control(0x15, false, 64), 0x15ull | (64ull << 17));
	assert_int_equal(hvipi_control(0x15, false, 1023), 0x15ull | (0x3ffull << 17));
	assert_int_equal(hvipi_control(0xffff, true, 1023), 0x7ffffffull);
	/* nothing ever lands in reserved bits 31:27, 63:32 */
	assert_int_equal(hvipi_control(0xffff, true, 1023) & ~0x7ffffffull, 0);
}

static void test_status_ok(void **state)
{
	(void)state;
	assert_true(hvipi_status_ok(0));
	assert_true(hvipi_status_ok(0x10000));
	assert_true(hvipi_status_ok(5ull << 32));	/* reps completed */
	assert_true(hvipi_status_ok(0xffffffffffff0000ull));
	assert_false(hvipi_status_ok(3));
	assert_false(hvipi_status_ok(5));
	assert_false(hvipi_status_ok(0xe));
	assert_false(hvipi_status_ok(0x8000));
	assert_false(hvipi_status_ok((1ull << 32) | 2));
	assert_false(hvipi_status_ok(0xffff));
}

/* ---- outcomes ---- */

static void test_none_empty(void **state)
{
	(void)state;
	reset();
	run(128, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
	assert_int_equal(plan.reason, HVIPI_FB_NONE);
	assert_int_equal(plan.control, 0);
	assert_int_equal(plan.bytes, 0);
	assert_true(untouched_from(0));
	/* only self, excluded */
	setb(mask, 7);
	run(128, 7, true, 0x30, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
	/* only bits at or beyond nr_cpu_ids */
	reset();
	setb(mask, 100);
	run(100, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
	assert_true(untouched_from(0));
}

static void test_fast_plan(void **state)
{
	struct rx_result r;

	(void)state;
	reset();
	setb(mask, 0);
	setb(mask, 5);
	setb(mask, 63);
	run(128, 0, false, 0xfe, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_int_equal(plan.reason, HVIPI_FB_NONE);
	assert_int_equal(plan.control, 0x1000bull);
	assert_int_equal(plan.rdx, 0xfe);
	assert_int_equal(plan.r8, 1ull | (1ull << 5) | (1ull << 63));
	assert_int_equal(plan.bytes, 0);
	assert_true(untouched_from(0));
	r = decode(false);
	assert_int_equal(r.nr_vps, 3);
	/* FAST needs no page */
	reset();
	setb(mask, 3);
	run(128, 0, false, 0x10, HVIPI_HINT_CLUSTER_IPI, false, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_int_equal(plan.r8, 8);
}

/* TLFS example: VP 2 and VP 65, vector 0xfe. */
static void test_ex_sparse_vp2_vp65(void **state)
{
	struct rx_result r;

	(void)state;
	reset();
	setb(mask, 2);
	setb(mask, 65);
	run(128, 0, false, 0xfe, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_int_equal(plan.control, 0x15ull | (2ull << 17));
	assert_int_equal(plan.valid_bank_mask, 3);
	assert_int_equal(plan.banks, 2);
	assert_int_equal(plan.bytes, 40);
	assert_int_equal(pagebuf[0], 0xfe);
	assert_int_equal(pagebuf[1], 0);
	assert_int_equal(pagebuf[2], 3);
	assert_int_equal(pagebuf[3], 1ull << 2);
	assert_int_equal(pagebuf[4], 1ull << 1);
	assert_true(untouched_from(40));
	r = decode(false);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rx_vp_test(&r, 2) && rx_vp_test(&r, 65));
	r = decode(true);
	assert_int_equal(r.nr_vps, 2);
}

/* Compacted banks: VPs in banks 1 and 63 only -> 2 bank words. */
static void test_ex_sparse_compact(void **state)
{
	struct rx_result r;

	(void)state;
	reset();
	vp_tab[10] = 64 + 9;
	vp_tab[11] = 4095;
	vp_tab[12] = 4032;
	setb(mask, 10);
	setb(mask, 11);
	setb(mask, 12);
	run(128, 0, false, 0x40, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_int_equal(plan.valid_bank_mask, (1ull << 1) | (1ull << 63));
	assert_int_equal(plan.banks, 2);
	assert_int_equal(plan.bytes, 40);
	assert_int_equal(pagebuf[3], 1ull << 9);
	assert_int_equal(pagebuf[4], (1ull << 63) | 1ull);
	assert_true(untouched_from(40));
	r = decode(false);
	assert_int_equal(r.nr_vps, 3);
	assert_true(rx_vp_test(&r, 73) && rx_vp_test(&r, 4095) &&
		    rx_vp_test(&r, 4032));
}

static void test_ex_all(void **state)
{
	struct rx_result r;
	uint32_t c;

	(void)state;
	reset();
	for (c = 0; c < 100; c++) {
		setb(mask, c);
		setb(present, c);
	}
	run(100, 3, false, 0x40, ALLHINTS, true, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
	assert_int_equal(plan.control, 0x15);
	assert_int_equal(plan.bytes, 24);
	assert_int_equal(pagebuf[0], 0x40);
	assert_int_equal(pagebuf[1], 1);
	assert_int_equal(pagebuf[2], 0);
	assert_true(untouched_from(24));
	r = decode(false);
	assert_true(r.all);
	r = decode(true);
	assert_true(r.all);
	/* bits beyond nr_cpu_ids do not matter for the comparison */
	setb(present, 120);
	reset();
	for (c = 0; c < 100; c++) {
		setb(mask, c);
		setb(present, c);
	}
	setb(present, 127);
	setb(mask, 110);
	run(100, 3, false, 0x40, ALLHINTS, true, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
	/* EX_ALL needs 24 bytes */
	reset();
	for (c = 0; c < 100; c++) {
		setb(mask, c);
		setb(present, c);
	}
	run(100, 3, false, 0x40, ALLHINTS, true, 24);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
	/*
	 * Without a 24-byte page, "all" is not a form: the sparse rule
	 * carries the set, XMM-fast (2 banks), never a NO_PAGE fallback.
	 */
	memset(pagebuf, FILL, sizeof(pagebuf));
	run(100, 3, false, 0x40, ALLHINTS | HVIPI_HINT_XMM_INPUT, true, 23);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_XMM);
	assert_int_equal(plan.banks, 2);
	assert_true(untouched_from(0));
	run(100, 3, false, 0x40, ALLHINTS | HVIPI_HINT_XMM_INPUT, true, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_XMM);
	/* no XMM hint and no page: no form carries it */
	run(100, 3, false, 0x40, ALLHINTS, true, 23);
	assert_fb(HVIPI_FB_NO_PAGE);
	assert_int_equal(plan.valid_bank_mask, 3);
	assert_int_equal(plan.banks, 2);
}

/* ---- each fallback reason ---- */

static void test_fb_not_recommended(void **state)
{
	(void)state;
	reset();
	setb(mask, 1);
	run(128, 0, false, 0x30, HVIPI_HINT_EX_MASKS | HVIPI_HINT_XMM_INPUT, false, 4096);
	assert_fb(HVIPI_FB_NOT_RECOMMENDED);
	run(128, 0, false, 0x30, 0, false, 4096);
	assert_fb(HVIPI_FB_NOT_RECOMMENDED);
}

static void test_fb_bad_vector(void **state)
{
	static const uint32_t bad[] = { 0, 2, 0x0f, 0x100, 0x1fe, 0xffffffffu };
	unsigned int i;

	(void)state;
	reset();
	setb(mask, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run(128, 0, false, bad[i], ALLHINTS, false, 4096);
		assert_fb(HVIPI_FB_BAD_VECTOR);
	}
	run(128, 0, false, 0x10, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	run(128, 0, false, 0xff, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
}

static void test_fb_vp_unknown(void **state)
{
	(void)state;
	reset();
	vp_tab[4] = INVAL;
	setb(mask, 1);
	setb(mask, 4);
	run(128, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
	/* an unknown VP that is not a target does not matter */
	reset();
	vp_tab[4] = INVAL;
	setb(mask, 1);
	run(128, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	/* nor an excluded self with an unknown VP */
	setb(mask, 4);
	run(128, 4, true, 0x30, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_int_equal(plan.r8, 2);
}

static void test_fb_ex_not_recommended(void **state)
{
	(void)state;
	reset();
	setb(mask, 1);
	setb(mask, 64);
	run(128, 0, false, 0x30, HVIPI_HINT_CLUSTER_IPI, false, 4096);
	assert_fb(HVIPI_FB_EX_NOT_RECOMMENDED);
}

static void test_fb_vp_too_big(void **state)
{
	(void)state;
	reset();
	vp_tab[9] = 4096;
	setb(mask, 9);
	run(128, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_fb(HVIPI_FB_VP_TOO_BIG);
	vp_tab[9] = 0xfffffffeu;
	run(128, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_fb(HVIPI_FB_VP_TOO_BIG);
	vp_tab[9] = 4095;
	run(128, 0, false, 0x30, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
}

static void test_fb_no_page(void **state)
{
	(void)state;
	reset();
	setb(mask, 1);
	setb(mask, 70);
	setb(mask, 127);	/* banks 0, 1: 24 + 16 = 40 bytes */
	run(128, 0, false, 0x30, ALLHINTS, false, 0);
	assert_fb(HVIPI_FB_NO_PAGE);
	run(128, 0, false, 0x30, ALLHINTS, false, 39);
	assert_fb(HVIPI_FB_NO_PAGE);
	run(128, 0, false, 0x30, ALLHINTS, false, 24);
	assert_fb(HVIPI_FB_NO_PAGE);
	run(128, 0, false, 0x30, ALLHINTS, false, 40);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_int_equal(plan.bytes, 40);
	assert_true(untouched_from(40));
}

/* ---- precedence ---- */

static void test_precedence(void **state)
{
	(void)state;
	/* empty beats everything */
	reset();
	run(128, 0, false, 2, 0, false, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
	/* NOT_RECOMMENDED before BAD_VECTOR */
	setb(mask, 1);
	run(128, 0, false, 2, 0, false, 0);
	assert_fb(HVIPI_FB_NOT_RECOMMENDED);
	/* BAD_VECTOR before VP_UNKNOWN, VP_TOO_BIG, NO_PAGE */
	vp_tab[1] = INVAL;
	vp_tab[2] = 5000;
	setb(mask, 2);
	run(128, 0, false, 2, ALLHINTS, false, 0);
	assert_fb(HVIPI_FB_BAD_VECTOR);
	/* VP_UNKNOWN before EX_NOT_RECOMMENDED, VP_TOO_BIG and NO_PAGE */
	run(128, 0, false, 0x30, HVIPI_HINT_CLUSTER_IPI, false, 0);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
	run(128, 0, false, 0x30, ALLHINTS, false, 0);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
	/* EX_NOT_RECOMMENDED before VP_TOO_BIG */
	vp_tab[1] = 1;
	run(128, 0, false, 0x30, HVIPI_HINT_CLUSTER_IPI, false, 0);
	assert_fb(HVIPI_FB_EX_NOT_RECOMMENDED);
	/* VP_TOO_BIG before NO_PAGE */
	run(128, 0, false, 0x30, ALLHINTS, false, 0);
	assert_fb(HVIPI_FB_VP_TOO_BIG);
	/* EX_ALL (mask == present) before VP_UNKNOWN and VP_TOO_BIG */
	vp_tab[1] = INVAL;
	present[0] = mask[0];
	run(128, 0, false, 0x30, ALLHINTS, true, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
	/* ... but not without the EX hint */
	reset();
	setb(mask, 1);
	setb(mask, 2);
	present[0] = mask[0];
	vp_tab[1] = INVAL;
	run(128, 0, false, 0x30, HVIPI_HINT_CLUSTER_IPI, true, 4096);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
	/* FAST wins over EX_ALL when every VP is below 64 */
	vp_tab[1] = 1;
	run(128, 0, false, 0x30, ALLHINTS, true, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	/* no page for EX_ALL: the unknown VP decides (no form carries it) */
	vp_tab[1] = INVAL;
	run(128, 0, false, 0x30, ALLHINTS, true, 16);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
	run(128, 0, false, 0x30, ALLHINTS, true, 24);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
}

/* ---- known bugs (facts §5) ---- */

/* 1: "all" format while self had to be excluded: a spurious self-IPI. */
static void test_bug1_all_format_with_excluded_self(void **state)
{
	struct rx_result r;
	uint32_t c;

	(void)state;
	reset();
	for (c = 0; c < 100; c++) {
		setb(mask, c);
		setb(present, c);
	}
	run(100, 70, true, 0x40, ALLHINTS, true, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	r = decode(false);
	assert_false(r.all);
	assert_int_equal(r.nr_vps, 99);
	assert_false(rx_vp_test(&r, 70));
	/* with an unknown VP it must fall back rather than use "all" */
	reset();
	for (c = 0; c < 100; c++) {
		setb(mask, c);
		setb(present, c);
	}
	vp_tab[5] = INVAL;
	run(100, 70, true, 0x40, ALLHINTS, true, 4096);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
}

/* 2: a bank count of 0 must never mean "all". */
static void test_bug2_zero_banks_never_means_all(void **state)
{
	uint32_t v;

	(void)state;
	for (v = 64; v < 4096; v += 37) {
		reset();
		vp_tab[3] = v;
		setb(mask, 3);
		run(128, 0, false, 0x40, ALLHINTS, false, 4096);
		assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
		assert_int_not_equal(plan.valid_bank_mask, 0);
		assert_int_equal(plan.banks, 1);
		assert_int_equal(plan.control >> 17 & 0x3ff, 1);
		assert_int_equal(pagebuf[1], 0);	/* format sparse */
		assert_int_equal(pagebuf[2], 1ull << (v / 64));
		assert_int_equal(decode(false).nr_vps, 1);
	}
	/* a sparse plan whose targets are all excluded does not exist */
	reset();
	vp_tab[3] = 100;
	setb(mask, 3);
	run(128, 3, true, 0x40, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
	assert_true(untouched_from(0));
}

/* 3: the one-CPU send must test the VP number, not the CPU number. */
static void test_bug3_one_cpu_tests_vp_not_cpu(void **state)
{
	struct rx_result r;

	(void)state;
	reset();
	vp_tab[100] = 5;
	hvipi_plan_one(&plan, 100, 128, vp_tab, 0x40, ALLHINTS, pagebuf, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_int_equal(plan.r8, 1ull << 5);
	assert_true(untouched_from(0));
	vp_tab[1] = 100;
	hvipi_plan_one(&plan, 1, 128, vp_tab, 0x40, ALLHINTS, pagebuf, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_int_equal(plan.valid_bank_mask, 2);
	assert_int_equal(plan.bytes, 32);
	assert_true(untouched_from(32));
	r = decode(false);
	assert_int_equal(r.nr_vps, 1);
	assert_true(rx_vp_test(&r, 100));
	/* cpu 100 with VP 5 and no EX hint: still fast */
	hvipi_plan_one(&plan, 100, 128, vp_tab, 0x40, HVIPI_HINT_CLUSTER_IPI, NULL, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
}

/* 4: no large on-stack copy: measure the stack used for 8192 CPUs. */
#define BUG4_STACK	(256u * 1024u)
#define BUG4_NR		8192u
static unsigned long bug4_mask[BUG4_NR / 64];
static uint32_t bug4_vp[BUG4_NR];

static void *bug4_thread(void *arg)
{
	if (arg)
		hvipi_plan_mask(&plan, bug4_mask, NULL, BUG4_NR, bug4_vp,
				4096, 0, true, 0x40, ALLHINTS, pagebuf, 4096);
	return NULL;
}

/* Stack bytes touched by a thread running bug4_thread(@arg). */
static size_t bug4_stack_used(void *arg)
{
	pthread_attr_t attr;
	pthread_t t;
	uint8_t *stack;
	size_t i;

	stack = aligned_alloc(4096, BUG4_STACK);
	assert_non_null(stack);
	memset(stack, 0xcd, BUG4_STACK);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstack(&attr, stack, BUG4_STACK), 0);
	assert_int_equal(pthread_create(&t, &attr, bug4_thread, arg), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	pthread_attr_destroy(&attr);
	for (i = 0; i < BUG4_STACK; i++)
		if (stack[i] != 0xcd)
			break;
	free(stack);
	return BUG4_STACK - i;
}

static void test_bug4_small_stack_for_8192_cpus(void **state)
{
	size_t base, used, i;

	(void)state;
	reset();
	memset(bug4_mask, 0xff, sizeof(bug4_mask));
	for (i = 0; i < BUG4_NR; i++)
		bug4_vp[i] = (uint32_t)(i % 4096);
	base = bug4_stack_used(NULL);	/* thread descriptor, TLS, start-up */
	used = bug4_stack_used(bug4_mask);
#if !defined(HVIPI_SANITIZED)
	print_message("bug4: hvipi_plan_mask (8192 CPUs, all but self) used %zu stack bytes\n",
		      used > base ? used - base : 0);
#else
	(void)base;
	(void)used;	/* ASan moves locals off the thread stack */
#endif
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_int_equal(plan.banks, 64);
#if !defined(HVIPI_SANITIZED)
	/* a 1 KiB cpumask copy alone would exceed this */
	assert_true(used < base + 1024u);
#endif
}

/* 5: non-monotonic map: last CPU's VP < 64, an earlier one's >= 64. */
static void test_bug5_nonmonotonic_map(void **state)
{
	struct rx_result r;

	(void)state;
	reset();
	vp_tab[0] = 100;
	setb(mask, 0);
	setb(mask, 1);
	setb(mask, 2);
	setb(mask, 3);
	run(4, 9, false, 0x40, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	r = decode(false);
	assert_int_equal(r.nr_vps, 4);
	assert_true(rx_vp_test(&r, 100) && rx_vp_test(&r, 1) &&
		    rx_vp_test(&r, 2) && rx_vp_test(&r, 3));
	/* and without the EX hint it must not send a truncated fast mask */
	memset(pagebuf, FILL, sizeof(pagebuf));
	run(4, 9, false, 0x40, HVIPI_HINT_CLUSTER_IPI, false, 4096);
	assert_fb(HVIPI_FB_EX_NOT_RECOMMENDED);
}

/* 6: the last CPU may be self while self is excluded. */
static void test_bug6_last_cpu_is_excluded_self(void **state)
{
	(void)state;
	reset();
	vp_tab[3] = 200;
	setb(mask, 0);
	setb(mask, 1);
	setb(mask, 3);
	run(4, 3, true, 0x40, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_int_equal(plan.r8, 3);
	assert_true(untouched_from(0));
	/* no EX hint needed then */
	run(4, 3, true, 0x40, HVIPI_HINT_CLUSTER_IPI, false, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	/* and an unknown VP of the excluded self does not matter */
	vp_tab[3] = INVAL;
	run(4, 3, true, 0x40, HVIPI_HINT_CLUSTER_IPI, false, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
}

/* 7: only well-formed sets: var-hdr == popcount(vbm), VPs < 4096. */
static void test_bug7_only_well_formed_sets(void **state)
{
	uint32_t c, nb;
	uint64_t w;

	(void)state;
	for (c = 0; c < 64; c++) {
		reset();
		vp_tab[c] = 64u * c + c;	/* bank c */
		vp_tab[127] = 4095;
		setb(mask, c);
		setb(mask, 127);
		run(128, 0, false, 0x40, ALLHINTS, false, 4096);
		assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
		for (nb = 0, w = plan.valid_bank_mask; w; w &= w - 1)
			nb++;
		assert_int_equal(plan.banks, nb);
		assert_int_equal((plan.control >> 17) & 0x3ff, nb);
		assert_int_equal(plan.control & ~(0x3ffull << 17), 0x15);
		assert_int_equal(plan.bytes, 24 + 8 * nb);
		assert_int_equal(pagebuf[2], plan.valid_bank_mask);
		assert_true(untouched_from(plan.bytes));
		(void)decode(false);
		(void)decode(true);
	}
	/* VPs beyond 4095 are never put in a set */
	reset();
	vp_tab[5] = 4096 + 5;
	setb(mask, 5);
	setb(mask, 100);
	run(128, 0, false, 0x40, ALLHINTS, false, 4096);
	assert_fb(HVIPI_FB_VP_TOO_BIG);
}

/* 8: nothing at or beyond nr_cpu_ids is read (exact-size allocations). */
static void test_bug8_no_read_beyond_nr_cpu_ids(void **state)
{
	static const uint32_t nrs[] = { 1, 63, 64, 65, 127, 128, 129, 200 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		uint32_t nr = nrs[i], words = HVIPI_MASK_WORDS(nr), c;
		unsigned long *m = malloc(words * sizeof(*m));
		unsigned long *p = malloc(words * sizeof(*p));
		uint32_t *vp = malloc(nr * sizeof(*vp));

		assert_non_null(m);
		assert_non_null(p);
		assert_non_null(vp);
		for (c = 0; c < nr; c++)
			vp[c] = 3u * c;
		memset(m, 0xff, words * sizeof(*m));	/* garbage beyond nr */
		memset(p, 0xff, words * sizeof(*p));
		reset();
		hvipi_plan_mask(&plan, m, p, nr, vp, hvipi_vp_ident(vp, nr), nr,
				false, 0x40, ALLHINTS, pagebuf, 4096);
		assert_int_not_equal(plan.kind, HVIPI_PLAN_FALLBACK);
		hvipi_plan_mask(&plan, m, p, nr, vp, hvipi_vp_ident(vp, nr),
				nr + 5, true, 0x40, ALLHINTS, pagebuf, 4096);
		assert_int_not_equal(plan.kind, HVIPI_PLAN_FALLBACK);
		hvipi_plan_one(&plan, nr, nr, vp, 0x40, ALLHINTS, pagebuf, 4096);
		assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
		hvipi_plan_one(&plan, nr - 1, nr, vp, 0x40, ALLHINTS, pagebuf, 4096);
		assert_int_not_equal(plan.kind, HVIPI_PLAN_NONE);
		free(m);
		free(p);
		free(vp);
	}
	/* nr_cpu_ids 0: no CPU at all, nothing read */
	hvipi_plan_mask(&plan, NULL, NULL, 0, NULL, 0, 0, false, 0x40, ALLHINTS,
			pagebuf, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
}

/*
 * 9: XMM-fast Ex was mis-read by a hypervisor that advertised XMM input.
 * The core plans XMM-fast (EX_XMM) only when handed the XMM hint, which
 * the glue passes only when XMM-fast is allowed (module parameter, off by
 * default); without the hint the same set goes through the page.
 */
static struct rx_result decode_xmm(bool xen, int want_status)
{
	struct rx_call c;
	struct rx_result r;
	uint32_t i;

	memset(&c, 0, sizeof(c));
	c.control = plan.control;
	c.rdx = plan.rdx;
	c.r8 = plan.r8;
	c.has_xmm = true;
	for (i = 0; i < 12; i++)
		c.xmm[i] = plan.input[2 + i];
	c.xen = xen;
	assert_int_equal(rx_decode(&c, &r), want_status);
	return r;
}

static void test_bug9_xmm_only_with_the_hint(void **state)
{
	struct rx_result r;
	uint32_t i;

	(void)state;
	/* TLFS example again (VP 2 and VP 65), XMM input available */
	reset();
	setb(mask, 2);
	setb(mask, 65);
	run(128, 0, false, 0xfe, ALLHINTS | HVIPI_HINT_XMM_INPUT, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_XMM);
	assert_int_equal(plan.reason, HVIPI_FB_NONE);
	assert_int_equal(plan.control, 0x15ull | (1ull << 16) | (2ull << 17));
	assert_int_equal(plan.rdx, 0xfe);
	assert_int_equal(plan.r8, 0);
	assert_int_equal(plan.valid_bank_mask, 3);
	assert_int_equal(plan.banks, 2);
	assert_int_equal(plan.bytes, 0);
	assert_int_equal(plan.input[0], 0xfe);
	assert_int_equal(plan.input[1], 0);
	assert_int_equal(plan.input[2], 3);		/* xmm0 low */
	assert_int_equal(plan.input[3], 1ull << 2);	/* xmm0 high: bank 0 */
	assert_int_equal(plan.input[4], 1ull << 1);	/* xmm1 low: bank 1 */
	for (i = 5; i < HVIPI_XMM_INPUT_WORDS; i++)
		assert_int_equal(plan.input[i], 0);
	assert_true(untouched_from(0));			/* no page byte */
	r = decode_xmm(false, 0);
	assert_true(r.delivered);
	assert_int_equal(r.vector, 0xfe);
	assert_int_equal(r.nr_vps, 2);
	assert_true(rx_vp_test(&r, 2) && rx_vp_test(&r, 65));
	assert_int_equal(r.bytes_read, 40);
	decode_xmm(true, 5);		/* Xen: no fast Ex (no XMM hint there) */
	/* no page at all: still sent, in registers */
	reset();
	setb(mask, 2);
	setb(mask, 65);
	run(128, 0, false, 0xfe, ALLHINTS | HVIPI_HINT_XMM_INPUT, false, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_XMM);
	/* without the hint: the memory form, control without the fast bit */
	run(128, 0, false, 0xfe, ALLHINTS, false, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_int_equal(plan.control & (1ull << 16), 0);
	/* "all" is never XMM-fast */
	reset();
	for (i = 0; i < 128; i++) {
		setb(mask, i);
		setb(present, i);
	}
	run(128, 0, false, 0x40, ALLHINTS | HVIPI_HINT_XMM_INPUT, true, 4096);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
	assert_int_equal(plan.control & (1ull << 16), 0);
}

/* 11 banks fit in xmm0..xmm5 after the valid-bank mask; 12 do not. */
static void test_xmm_eleven_banks(void **state)
{
	struct rx_result r;
	uint32_t n, b;

	(void)state;
	for (n = 1; n <= 13; n++) {
		reset();
		for (b = 0; b < n; b++) {	/* CPU b in bank 5 + b */
			vp_tab[b] = 64u * (5u + b) + b;
			setb(mask, b);
		}
		run(128, 127, true, 0x40, ALLHINTS | HVIPI_HINT_XMM_INPUT,
		    false, 4096);
		assert_int_equal(plan.banks, n);
		if (n <= 11) {
			assert_int_equal(plan.kind, HVIPI_PLAN_EX_XMM);
			assert_int_equal(plan.valid_bank_mask,
					 ((1ull << n) - 1) << 5);
			for (b = 0; b < n; b++)
				assert_int_equal(plan.input[3 + b], 1ull << b);
			for (b = 3 + n; b < HVIPI_XMM_INPUT_WORDS; b++)
				assert_int_equal(plan.input[b], 0);
			assert_true(untouched_from(0));
			r = decode_xmm(false, 0);
			assert_int_equal(r.nr_vps, n);
			assert_int_equal(r.bytes_read, 24 + 8 * n);
		} else {
			assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
			assert_int_equal(plan.bytes, 24 + 8 * n);
			assert_true(untouched_from(plan.bytes));
			r = decode(false);
			assert_int_equal(r.nr_vps, n);
		}
	}
	/* 13 banks and no page: NO_PAGE, as without XMM */
	memset(pagebuf, FILL, sizeof(pagebuf));
	run(128, 127, true, 0x40, ALLHINTS | HVIPI_HINT_XMM_INPUT, false, 0);
	assert_fb(HVIPI_FB_NO_PAGE);
	assert_int_equal(plan.banks, 13);
}

/* One CPU with a VP >= 64 and the XMM hint: one bank word, in registers. */
static void test_xmm_plan_one(void **state)
{
	struct rx_result r;
	uint32_t i;

	(void)state;
	reset();
	vp_tab[3] = 4000;
	hvipi_plan_one(&plan, 3, 128, vp_tab, 0x41,
		       ALLHINTS | HVIPI_HINT_XMM_INPUT, NULL, 0);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_XMM);
	assert_int_equal(plan.control, 0x15ull | (1ull << 16) | (1ull << 17));
	assert_int_equal(plan.valid_bank_mask, 1ull << 62);
	assert_int_equal(plan.banks, 1);
	assert_int_equal(plan.input[0], 0x41);
	assert_int_equal(plan.input[2], 1ull << 62);
	assert_int_equal(plan.input[3], 1ull << (4000 % 64));
	for (i = 4; i < HVIPI_XMM_INPUT_WORDS; i++)
		assert_int_equal(plan.input[i], 0);
	r = decode_xmm(false, 0);
	assert_int_equal(r.nr_vps, 1);
	assert_true(rx_vp_test(&r, 4000));
}

/* ---- guard bytes and plan_one ---- */

static void test_page_guard_all_kinds(void **state)
{
	uint32_t size;

	(void)state;
	for (size = 0; size <= 64; size += 8) {
		reset();
		vp_tab[1] = 64;
		vp_tab[2] = 200;
		setb(mask, 1);
		setb(mask, 2);
		run(128, 0, false, 0x40, ALLHINTS, false, size);
		if (size >= 40) {
			assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
			assert_true(untouched_from(plan.bytes));
		} else {
			assert_fb(HVIPI_FB_NO_PAGE);
		}
	}
}

static void test_plan_one_matches_mask(void **state)
{
	struct hvipi_plan a;
	uint32_t cpu, h, v;
	static const uint32_t vps[] = { 0, 63, 64, 4095, 4096, INVAL };

	(void)state;
	for (v = 0; v < 6; v++)
		for (h = 0; h < 8; h++)
			for (cpu = 0; cpu < 3; cpu++) {
				reset();
				vp_tab[cpu] = vps[v];
				setb(mask, cpu);
				run(3, cpu, false, 0x40, h, false, 4096);
				a = plan;
				hvipi_plan_one(&plan, cpu, 3, vp_tab, 0x40, h,
					       pagebuf, 4096);
				assert_memory_equal(&a, &plan, sizeof(a));
			}
}

/*
 * ---- word paths ----
 * A mask word of 64 CPUs that are their own VPs (all below nr_cpu_ids and
 * 4096, no excluded self among them) is taken whole; every other word CPU
 * by CPU.  The expected plans are written out here, bank word by bank word.
 */
#define WNR	4160u
static uint32_t wtab[WNR];
static unsigned long wmask[WNR / 64];

/*
 * With the longest identity prefix, then with none: the same plan and the
 * same page bytes.  The test then checks what the second run left, which
 * is thus also what the first one wrote.
 */
static void wrun(uint32_t nr, uint32_t self, bool excl)
{
	static uint64_t first[(4096 + GUARD) / 8];
	struct hvipi_plan a;
	uint32_t ident = hvipi_vp_ident(wtab, nr);

	hvipi_plan_mask(&plan, wmask, NULL, nr, wtab, ident, self, excl, 0x40,
			ALLHINTS, pagebuf, 4096);
	a = plan;
	memcpy(first, pagebuf, sizeof(first));
	memset(pagebuf, FILL, sizeof(pagebuf));
	hvipi_plan_mask(&plan, wmask, NULL, nr, wtab, 0, self, excl, 0x40,
			ALLHINTS, pagebuf, 4096);
	assert_memory_equal(&a, &plan, sizeof(a));
	assert_memory_equal(first, pagebuf, sizeof(first));
}

static void wreset(uint32_t nr_set)
{
	uint32_t c;

	reset();
	memset(wmask, 0, sizeof(wmask));
	for (c = 0; c < WNR; c++)
		wtab[c] = c;
	for (c = 0; c < nr_set; c++)
		setb(wmask, c);
}

static void assert_sparse(uint64_t banks, uint32_t n, const uint64_t *words)
{
	uint32_t i;

	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_true(plan.valid_bank_mask == banks);
	assert_int_equal(plan.banks, n);
	assert_int_equal(plan.bytes, 24 + 8 * n);
	assert_true(pagebuf[0] == 0x40 && pagebuf[1] == 0 && pagebuf[2] == banks);
	for (i = 0; i < n; i++)
		assert_true(pagebuf[3 + i] == words[i]);
	assert_true(untouched_from(24 + 8 * n));
}

static void test_word_paths(void **state)
{
	const uint64_t all = ~0ull;
	uint64_t w[4];

	(void)state;
	/* 64 identity CPUs: the fast call, r8 = the mask word. */
	wreset(64);
	wrun(64, 0, false);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_true(plan.r8 == all);

	/* 256 identity CPUs: four full bank words. */
	wreset(256);
	wrun(256, 0, false);
	w[0] = w[1] = w[2] = w[3] = all;
	assert_sparse(0xf, 4, w);

	/* All but self 70: self's word goes CPU by CPU, without VP 70. */
	wreset(256);
	wrun(256, 70, true);
	w[1] = all & ~(1ull << 6);
	assert_sparse(0xf, 4, w);

	/* Self 70 kept: nothing is left out. */
	wreset(256);
	wrun(256, 70, false);
	w[1] = all;
	assert_sparse(0xf, 4, w);

	/* CPU 130 has VP 200: word 2 is not taken whole; VP 130 is nobody's. */
	wreset(256);
	wtab[130] = 200;
	wrun(256, 0, false);
	w[2] = all & ~(1ull << 2);
	assert_sparse(0xf, 4, w);

	/* CPU 130 has VP 5000: the table entry is read, and the send falls back. */
	wreset(256);
	wtab[130] = 5000;
	wrun(256, 0, false);
	assert_fb(HVIPI_FB_VP_TOO_BIG);

	/* A partial last word (nr 200) with bits set beyond nr_cpu_ids. */
	wreset(256);
	wrun(200, 0, false);
	w[2] = all;
	w[3] = 0xff;
	assert_sparse(0xf, 4, w);

	/* Sparse words: bank 1 and bank 3 only, each taken whole. */
	wreset(0);
	wmask[1] = 0x8000000000000001ull;
	wmask[3] = 0x10;
	wrun(256, 0, false);
	w[0] = 0x8000000000000001ull;
	w[1] = 0x10;
	assert_sparse(0xa, 2, w);

	/* CPUs 4096.. are their own VPs too, but no sparse set holds them. */
	wreset(WNR);
	wrun(WNR, 0, false);
	assert_fb(HVIPI_FB_VP_TOO_BIG);
	/* ... unless they are not targets. */
	wmask[WNR / 64 - 1] = 0;
	wrun(WNR, 0, false);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_true(plan.valid_bank_mask == all && plan.banks == 64);
	assert_true(pagebuf[3] == all && pagebuf[3 + 63] == all);

	/* An unknown VP in an otherwise identity word. */
	wreset(256);
	wtab[255] = INVAL;
	wrun(256, 0, false);
	assert_fb(HVIPI_FB_VP_UNKNOWN);
}

/*
 * The single pass reads the present word of an index with its mask word
 * only while the two masks have agreed; from the first difference on it
 * reads mask words alone and passes over the empty ones
 * (hvipi_collect()'s pass over empty words).  Each case is planned with the identity prefix
 * and without it (wrun()'s check), with the present mask wpres.
 */
static unsigned long wpres[WNR / 64];

static void prun(uint32_t nr, const unsigned long *present)
{
	static uint64_t first[(4096 + GUARD) / 8];
	struct hvipi_plan a;
	uint32_t ident = hvipi_vp_ident(wtab, nr);

	memset(pagebuf, FILL, sizeof(pagebuf));
	hvipi_plan_mask(&plan, wmask, present, nr, wtab, ident, 0, false, 0x40,
			ALLHINTS, pagebuf, 4096);
	a = plan;
	memcpy(first, pagebuf, sizeof(first));
	memset(pagebuf, FILL, sizeof(pagebuf));
	hvipi_plan_mask(&plan, wmask, present, nr, wtab, 0, 0, false, 0x40,
			ALLHINTS, pagebuf, 4096);
	assert_memory_equal(&a, &plan, sizeof(a));
	assert_memory_equal(first, pagebuf, sizeof(first));
}

static void test_present_then_mask_alone(void **state)
{
	const uint64_t all = ~0ull;
	uint64_t w[4];
	uint32_t k;

	(void)state;
	/* Equal on words 0 .. 9, then word 10 differs; targets beyond many
	 * empty words (40 and the last, 63) are still found. */
	wreset(640);
	memcpy(wpres, wmask, sizeof(wpres));
	wmask[10] = 0x5;
	wmask[40] = 1ull << 63;
	wmask[63] = 1ull << 62;
	prun(4096, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_true(plan.valid_bank_mask ==
		    (0x3ffull | 1ull << 10 | 1ull << 40 | 1ull << 63));
	assert_int_equal(plan.banks, 13);
	for (k = 0; k < 10; k++)
		assert_true(pagebuf[3 + k] == all);
	assert_true(pagebuf[13] == 0x5 && pagebuf[14] == 1ull << 63 &&
		    pagebuf[15] == 1ull << 62);

	/* Without a present mask the same targets, read as mask words only. */
	prun(4096, NULL);
	assert_true(plan.valid_bank_mask ==
		    (0x3ffull | 1ull << 10 | 1ull << 40 | 1ull << 63));

	/* Equal everywhere: the "all" format. */
	wreset(4096);
	memcpy(wpres, wmask, sizeof(wpres));
	prun(4096, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);

	/* The first word differs (one CPU more present): every later word is
	 * read as a mask word alone, and the set is the whole mask. */
	wreset(4096);
	memcpy(wpres, wmask, sizeof(wpres));
	wmask[0] &= ~(1ull << 7);
	prun(4096, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_true(plan.valid_bank_mask == all && plan.banks == 64);
	assert_true(pagebuf[3] == (all & ~(1ull << 7)) && pagebuf[3 + 63] == all);

	/* Only the last, partial word differs (nr 200; CPU 199 present, not a
	 * target): not "all"; present bits beyond nr_cpu_ids do not count. */
	wreset(199);
	memcpy(wpres, wmask, sizeof(wpres));
	wpres[3] |= 1ull << 7;			/* CPU 199 */
	prun(200, wpres);
	w[0] = w[1] = w[2] = all;
	w[3] = (1ull << 7) - 1;
	assert_sparse(0xf, 4, w);
	wpres[3] &= ~(1ull << 7);
	wpres[3] |= 1ull << 9;			/* CPU 201: beyond nr */
	prun(200, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);

	/* An empty mask after a difference: no target at all. */
	wreset(0);
	memset(wpres, 0, sizeof(wpres));
	wpres[0] = 1;
	prun(4096, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);
	prun(4096, NULL);
	assert_int_equal(plan.kind, HVIPI_PLAN_NONE);

	/* Only the last CPU of a mask of 4160 (no present mask): found after
	 * 64 empty words, and it is VP 4159, beyond any sparse set. */
	wreset(0);
	wmask[WNR / 64 - 1] = 1ull << 63;
	prun(WNR, NULL);
	assert_fb(HVIPI_FB_VP_TOO_BIG);
}

/*
 * ---- GVA list (hvipi_gva_list) ----
 * Entries as TLFS HV_GVA_RANGE: page number in bits 63:12, additional
 * pages in bits 11:0.  Worked examples of spec/FLUSH_RULES.md section 3,
 * the empty range, the capacity bound, unaligned starts, the top of the
 * address space, and a brute-force check of the decoded coverage.
 */
#define GVA_S		0x7f0000000000ull
#define GVA_CANARY	0xa5a5a5a5a5a5a5a5ull
#define GVA_WORDS	16u

static uint64_t gva[GVA_WORDS];

static void gva_fill(void)
{
	uint32_t i;

	for (i = 0; i < GVA_WORDS; i++)
		gva[i] = GVA_CANARY;
}

static bool gva_untouched_from(uint32_t from)
{
	uint32_t i;

	for (i = from; i < GVA_WORDS; i++)
		if (gva[i] != GVA_CANARY)
			return false;
	return true;
}

/* hvipi_gva_list into a canary-filled gva[] with @capacity words. */
static uint32_t gva_run(uint32_t capacity, uint64_t start, uint64_t end)
{
	gva_fill();
	return hvipi_gva_list(gva, capacity, start, end);
}

/*
 * The compare first (hvipi_compare()): with a present mask, self kept and
 * the "all" format possible, the identity words are compared in pairs and
 * the plan decided there when every word agrees and the last one holds a
 * target; every other case goes on from the words read.  prun() checks
 * each plan against the same call with no identity prefix (no compare).
 */
static void test_compare_first(void **state)
{
	struct hvipi_flush_plan fp;
	uint32_t k;

	(void)state;
	/* Every word agrees, the last one empty: no early "all"; the pass
	 * still finds the target set == present set. */
	wreset(192);
	memcpy(wpres, wmask, sizeof(wpres));
	prun(256, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);

	/* One word of 64 CPUs, all agreeing: the fast rule, not "all". */
	wreset(64);
	memcpy(wpres, wmask, sizeof(wpres));
	prun(64, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_true(plan.r8 == ~0ull);

	/* Two words agreeing, the targets all below 64: FAST. */
	wreset(0);
	setb(wmask, 5);
	memcpy(wpres, wmask, sizeof(wpres));
	prun(128, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_FAST);
	assert_true(plan.r8 == 1ull << 5);

	/* Only the last CPU of 4096, present alone: "all" from the compare. */
	wreset(0);
	setb(wmask, 4095);
	memcpy(wpres, wmask, sizeof(wpres));
	prun(4096, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);

	/* The words agree up to the last, which differs by one CPU: every
	 * word kept by the compare is in the sparse set as it stands. */
	wreset(4096);
	memcpy(wpres, wmask, sizeof(wpres));
	wmask[63] &= ~(1ull << 63);
	prun(4096, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_true(plan.valid_bank_mask == ~0ull && plan.banks == 64);
	for (k = 0; k < 63; k++)
		assert_true(pagebuf[3 + k] == ~0ull);
	assert_true(pagebuf[3 + 63] == ~0ull >> 1);

	/* The identity prefix ends inside the mask (CPUs 100.. permuted):
	 * the compare stops at word 1, the rest is read CPU by CPU. */
	wreset(256);
	for (k = 100; k < 256; k++)
		wtab[k] = 355 - k;
	memcpy(wpres, wmask, sizeof(wpres));
	prun(256, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_ALL);
	wmask[2] &= ~(1ul << 2);		/* CPU 130, VP 225 */
	prun(256, wpres);
	assert_int_equal(plan.kind, HVIPI_PLAN_EX_SPARSE);
	assert_true(plan.valid_bank_mask == 0xf && plan.banks == 4);
	assert_true(pagebuf[3] == ~0ull && pagebuf[4] == ~0ull &&
		    pagebuf[5] == ~0ull && pagebuf[6] == ~(1ull << 33));

	/* The flush: ALL_PROCESSORS from the compare, and no flush when the
	 * masks agree on no CPU at all. */
	wreset(4096);
	memcpy(wpres, wmask, sizeof(wpres));
	hvipi_plan_flush(&fp, wmask, wpres, 4096, wtab, 4096, 0x1234000ull,
			 0x10000, 0x11000, 0, HVIPI_HINT_REMOTE_FLUSH |
			 HVIPI_HINT_EX_MASKS, pagebuf, 4096);
	assert_int_equal(fp.kind, HVIPI_FLUSH_LIST);
	assert_true(fp.flags & HVIPI_HV_FLUSH_ALL_PROCESSORS);
	assert_true(pagebuf[2] == 0);
	wreset(0);
	memset(wpres, 0, sizeof(wpres));
	hvipi_plan_flush(&fp, wmask, wpres, 4096, wtab, 4096, 0x1234000ull,
			 0x10000, 0x11000, 0, HVIPI_HINT_REMOTE_FLUSH |
			 HVIPI_HINT_EX_MASKS, pagebuf, 4096);
	assert_int_equal(fp.kind, HVIPI_FLUSH_NONE);
}

static void test_gva_examples(void **state)
{
	(void)state;
	/* 1 page: one entry, 0 additional pages */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 0x1000), 1);
	assert_true(gva[0] == 0x7f0000000000ull);
	assert_true(gva_untouched_from(1));
	/* 33 pages: (33 * 4096 - 1) >> 12 = 32 additional */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 0x21000), 1);
	assert_true(gva[0] == 0x7f0000000020ull);
	assert_true(gva_untouched_from(1));
	/* 4096 pages: one full entry */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 0x1000000), 1);
	assert_true(gva[0] == 0x7f0000000fffull);
	assert_true(gva_untouched_from(1));
	/* 4097 pages: a full entry, then one page */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 0x1001000), 2);
	assert_true(gva[0] == 0x7f0000000fffull);
	assert_true(gva[1] == 0x7f0001000000ull);
	assert_true(gva_untouched_from(2));
	/* an end inside its page counts that page: 1 byte, then 4097 + 1 byte */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 1), 1);
	assert_true(gva[0] == 0x7f0000000000ull);
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 0x1000001), 2);
	assert_true(gva[0] == 0x7f0000000fffull);
	assert_true(gva[1] == 0x7f0001000000ull);
	assert_true(gva_untouched_from(2));
	/* 3 x 4096 pages: three full entries */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S, GVA_S + 0x3000000), 3);
	assert_true(gva[0] == 0x7f0000000fffull);
	assert_true(gva[1] == 0x7f0001000fffull);
	assert_true(gva[2] == 0x7f0002000fffull);
	assert_true(gva_untouched_from(3));
	/* page 0 */
	assert_int_equal(gva_run(GVA_WORDS, 0, 0x1000), 1);
	assert_true(gva[0] == 0);
	assert_true(gva_untouched_from(1));
}

static void test_gva_empty(void **state)
{
	static const uint64_t starts[] = { 0, 1, 0xfff, 0x1000, GVA_S, GVA_S + 0x800,
					   ~0ull - 0x1000, ~0ull };
	uint32_t i;

	(void)state;
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		uint64_t s = starts[i];

		/* end == start */
		assert_int_equal(gva_run(GVA_WORDS, s, s), 0);
		assert_true(gva_untouched_from(0));
		/* end < start, by one byte, by a page, by everything */
		if (s > 0) {
			assert_int_equal(gva_run(GVA_WORDS, s, s - 1), 0);
			assert_true(gva_untouched_from(0));
			assert_int_equal(gva_run(GVA_WORDS, s, 0), 0);
			assert_true(gva_untouched_from(0));
		}
		if (s >= 0x1000) {
			assert_int_equal(gva_run(GVA_WORDS, s, s - 0x1000), 0);
			assert_true(gva_untouched_from(0));
		}
		/* empty with no room at all */
		assert_int_equal(gva_run(0, s, s), 0);
		assert_true(gva_untouched_from(0));
	}
}

static void test_gva_capacity(void **state)
{
	uint32_t n;

	(void)state;
	/* n entries for n x 4096 pages: capacity n fits, n - 1 does not */
	for (n = 1; n <= 8; n++) {
		uint64_t end = GVA_S + (uint64_t)n * 0x1000000;
		uint32_t j;

		assert_int_equal(gva_run(n, GVA_S, end), n);
		for (j = 0; j < n; j++)
			assert_true(gva[j] == ((GVA_S + j * 0x1000000ull) | 0xfff));
		assert_true(gva_untouched_from(n));
		assert_int_equal(gva_run(n - 1, GVA_S, end), 0);
		assert_true(gva_untouched_from(0));
		/* one page more needs one entry more */
		assert_int_equal(gva_run(n, GVA_S, end + 0x1000), 0);
		assert_true(gva_untouched_from(0));
		assert_int_equal(gva_run(n + 1, GVA_S, end + 0x1000), n + 1);
		assert_true(gva[n] == GVA_S + n * 0x1000000ull);
		assert_true(gva_untouched_from(n + 1));
	}
	/* capacity 0: nothing fits, nothing written */
	assert_int_equal(gva_run(0, GVA_S, GVA_S + 0x1000), 0);
	assert_true(gva_untouched_from(0));
	/* a range of 2^52 pages (the whole space less one byte) needs 2^40 entries */
	assert_int_equal(gva_run(GVA_WORDS, 0, ~0ull), 0);
	assert_true(gva_untouched_from(0));
}

static void test_gva_unaligned(void **state)
{
	(void)state;
	/* two pages touched by 4 KiB that straddle a boundary: one entry S|1 */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S + 0x800, GVA_S + 0x1800), 1);
	assert_true(gva[0] == (GVA_S | 1));
	assert_true(gva_untouched_from(1));
	/* within one page */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S + 0x800, GVA_S + 0x801), 1);
	assert_true(gva[0] == GVA_S);
	assert_int_equal(gva_run(GVA_WORDS, GVA_S + 0x800, GVA_S + 0x1000), 1);
	assert_true(gva[0] == GVA_S);
	/* last byte of a page to the first byte of the next */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S + 0xfff, GVA_S + 0x1001), 1);
	assert_true(gva[0] == (GVA_S | 1));
	/* 16 MiB from mid-page: 4097 pages touched, two entries */
	assert_int_equal(gva_run(GVA_WORDS, GVA_S + 0x800, GVA_S + 0x1000800), 2);
	assert_true(gva[0] == (GVA_S | 0xfff));
	assert_true(gva[1] == GVA_S + 0x1000000);
	assert_true(gva_untouched_from(2));
	/* ... and with room for one entry only: none */
	assert_int_equal(gva_run(1, GVA_S + 0x800, GVA_S + 0x1000800), 0);
	assert_true(gva_untouched_from(0));
}

static void test_gva_top(void **state)
{
	const uint64_t top = ~0ull;			/* 2^64 - 1 */
	const uint64_t lastpg = top & ~0xfffull;	/* 0xfffffffffffff000 */

	(void)state;
	/* the last page alone, its last byte excluded */
	assert_int_equal(gva_run(GVA_WORDS, lastpg, top), 1);
	assert_true(gva[0] == lastpg);
	assert_true(gva_untouched_from(1));
	assert_int_equal(gva_run(GVA_WORDS, top - 1, top), 1);
	assert_true(gva[0] == lastpg);
	/* the last two pages */
	assert_int_equal(gva_run(GVA_WORDS, lastpg - 0x1000, top), 1);
	assert_true(gva[0] == ((lastpg - 0x1000) | 1));
	/* the last 4096 pages: one full entry */
	assert_int_equal(gva_run(GVA_WORDS, top - 0xffffff, top), 1);
	assert_true(gva[0] == ((top - 0xffffff) | 0xfff));
	/* the last 4097 pages: a full entry, then the last page */
	assert_int_equal(gva_run(GVA_WORDS, lastpg - 0x1000000, top), 2);
	assert_true(gva[0] == ((lastpg - 0x1000000) | 0xfff));
	assert_true(gva[1] == lastpg);
	assert_true(gva_untouched_from(2));
	/* 3 x 4096 + 1 pages from mid-page to the top: four entries */
	assert_int_equal(gva_run(GVA_WORDS, lastpg - 0x3000000 + 0x800, top), 4);
	assert_true(gva[0] == ((lastpg - 0x3000000) | 0xfff));
	assert_true(gva[1] == ((lastpg - 0x2000000) | 0xfff));
	assert_true(gva[2] == ((lastpg - 0x1000000) | 0xfff));
	assert_true(gva[3] == lastpg);
	assert_true(gva_untouched_from(4));
	assert_int_equal(gva_run(3, lastpg - 0x3000000 + 0x800, top), 0);
	assert_true(gva_untouched_from(0));
}

/*
 * Brute force, independent of the formula: each entry decoded as a
 * receiver does (pages e >> 12 .. (e >> 12) + (e & 0xfff)), every page the
 * range touches covered exactly once, no other page covered, entries in
 * increasing order, n = ceil(pages / 4096), nothing written past n.
 */
#define GVA_BF_CASES	3000u
#define GVA_BF_PAGES	(3u * 4096u + 2u)

static uint64_t gva_rng = 0x9e3779b97f4a7c15ull;

static uint64_t gva_rnd(void)
{
	uint64_t z = (gva_rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void test_gva_brute_force(void **state)
{
	static uint8_t hits[GVA_BF_PAGES + 2];
	uint32_t c;

	(void)state;
	for (c = 0; c < GVA_BF_CASES; c++) {
		uint64_t r = gva_rnd(), first, last, pages, start, end, len;
		uint32_t n, cap, want, j;

		/* the start page: near 0, anywhere, or near the top */
		switch (r % 3) {
		case 0: first = gva_rnd() % 64; break;
		case 1: first = gva_rnd() >> 12; break;
		default: first = (~0ull >> 12) - gva_rnd() % (GVA_BF_PAGES + 64); break;
		}
		start = (first << 12) | (c % 4 ? gva_rnd() & 0xfff : 0);
		len = 1 + gva_rnd() % ((uint64_t)(GVA_BF_PAGES - 1) * 4096u);
		if (gva_rnd() % 4 == 0)	/* near a multiple of 16 MiB */
			len = (1 + gva_rnd() % 3) * 0x1000000ull - 0x2000 + gva_rnd() % 0x3000;
		if (len > ~0ull - start)
			len = ~0ull - start;
		if (len == 0)
			continue;
		end = start + len;
		last = (end - 1) >> 12;
		pages = last - first + 1;
		assert_true(pages <= GVA_BF_PAGES);
		want = (uint32_t)((pages + 4095) / 4096);
		cap = want - 1 + (uint32_t)(gva_rnd() % 4);	/* want - 1 .. want + 2 */
		n = gva_run(cap, start, end);
		if (cap < want) {
			assert_int_equal(n, 0);
			assert_true(gva_untouched_from(0));
			n = gva_run(want, start, end);
		}
		assert_int_equal(n, want);
		assert_true(gva_untouched_from(n));
		memset(hits, 0, sizeof(hits));
		for (j = 0; j < n; j++) {
			uint64_t lo = gva[j] >> 12, hi = lo + (gva[j] & 0xfff), p;

			if (j > 0)
				assert_true(lo > (gva[j - 1] >> 12) + (gva[j - 1] & 0xfff));
			assert_true(lo >= first && hi <= last);
			for (p = lo; p <= hi; p++)
				hits[p - first]++;
		}
		for (j = 0; j < pages; j++)
			assert_int_equal(hits[j], 1);
	}
}

/* ---- rep calls (TLB flush lists) ---- */

static void test_rep_control(void **state)
{
	(void)state;
	assert_int_equal(hvipi_rep_control(0x0002, 0, 0), 0x2ull);
	assert_int_equal(hvipi_rep_control(0x0003, 0, 1), 0x100000003ull);
	assert_int_equal(hvipi_rep_control(0x0014, 2, 509),
			 0x14ull | (2ull << 17) | (509ull << 32));
	assert_int_equal(hvipi_rep_control(0xffff, 1023, 4095),
			 0x00000fff07feffffull);
	/* fast bit 16, bits 31:27, 47:44 and 59:48 (rep start) stay 0 */
	assert_int_equal(hvipi_rep_control(0xffff, 1023, 4095) &
			 ~0x00000fff07feffffull, 0);
}

/* A result: status in bits 15:0, reps completed in bits 43:32. */
static uint64_t rep_result(uint16_t status, uint32_t reps)
{
	return (uint64_t)status | ((uint64_t)(reps & 0xfff) << 32);
}

static void test_rep_next_rules(void **state)
{
	uint64_t ctl = hvipi_rep_control(0x0003, 0, 3), next = 0;

	(void)state;
	/* partial: again from rep 1, everything else kept */
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0, 1), &next), HVIPI_REP_AGAIN);
	assert_int_equal(next, ctl | (1ull << 48));
	assert_int_equal(hvipi_rep_next(next, rep_result(0, 2), &next), HVIPI_REP_AGAIN);
	assert_int_equal(next, ctl | (2ull << 48));
	/* all done */
	assert_int_equal(hvipi_rep_next(next, rep_result(0, 3), &next), HVIPI_REP_DONE);
	assert_int_equal(next, ctl | (2ull << 48));
	/* no progress, or more than the rep count: BAD, next untouched */
	next = ctl | (2ull << 48);
	assert_int_equal(hvipi_rep_next(next, rep_result(0, 2), &next), HVIPI_REP_BAD);
	assert_int_equal(next, ctl | (2ull << 48));
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0, 0), &next), HVIPI_REP_BAD);
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0, 4), &next), HVIPI_REP_BAD);
	assert_int_equal(next, ctl);
	/* failed status, whatever the reps say */
	assert_int_equal(hvipi_rep_next(ctl, rep_result(3, 1), &next), HVIPI_REP_FAILED);
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0x100, 3), &next), HVIPI_REP_FAILED);
	assert_int_equal(next, ctl);
	/* status bits 31:16 are not the status */
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0, 3) | 0x10000u, &next),
			 HVIPI_REP_DONE);
	/* a rep count of 0 (a Space flush) is done on success */
	ctl = hvipi_rep_control(0x0002, 0, 0);
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0, 0), &next), HVIPI_REP_DONE);
	assert_int_equal(hvipi_rep_next(ctl, rep_result(0, 7), &next), HVIPI_REP_DONE);
	assert_int_equal(hvipi_rep_next(ctl, rep_result(5, 0), &next), HVIPI_REP_FAILED);
}

/*
 * The loop a caller runs, against a simulated hypervisor that completes a
 * random number of reps a call (sometimes none, sometimes a failure):
 * every rep is issued in order, each call starts at the reps completed,
 * and the loop ends within rep-count calls.  A hypervisor that always
 * makes progress gives the calls a loop on Linux's rule (rep start =
 * reps completed while they are below the rep count) would make.
 */
static void test_rep_loop(void **state)
{
	int round;

	(void)state;
	for (round = 0; round < 200000; round++) {
		uint32_t count = (uint32_t)(gva_rnd() % 4096u);
		uint32_t code = (gva_rnd() & 1) ? 0x0003 : 0x0014;
		uint32_t varhdr = code == 0x0014 ? (uint32_t)(gva_rnd() % 65u) : 0;
		uint64_t ctl = hvipi_rep_control(code, varhdr, count), next;
		uint32_t done = 0, calls = 0, mode = (uint32_t)(gva_rnd() % 4u);
		enum hvipi_rep_step st;

		for (;;) {
			uint32_t start = (uint32_t)(ctl >> 48) & 0xfff, step;
			uint16_t status = 0;

			assert_int_equal(start, done);	/* restarts where it stopped */
			assert_int_equal(ctl & ~(0xfffull << 48),
					 hvipi_rep_control(code, varhdr, count));
			calls++;
			step = (uint32_t)(gva_rnd() % 40u);
			if (mode == 1 && gva_rnd() % 8u == 0)
				step = 0;		/* a stall */
			if (mode == 2 && gva_rnd() % 16u == 0)
				status = 3;		/* a failure */
			if (count && step == 0 && mode != 1)
				step = 1;
			done = done + step > count ? count : done + step;
			st = hvipi_rep_next(ctl, rep_result(status, done), &next);
			if (status) {
				assert_int_equal(st, HVIPI_REP_FAILED);
				break;
			}
			if (count == 0 || done == count) {
				assert_int_equal(st, HVIPI_REP_DONE);
				break;
			}
			if (done == start) {
				assert_int_equal(st, HVIPI_REP_BAD);
				assert_int_equal(mode, 1);
				break;
			}
			assert_int_equal(st, HVIPI_REP_AGAIN);
			assert_int_equal(next, (ctl & ~(0xfffull << 48)) |
					       ((uint64_t)done << 48));
			ctl = next;
			assert_true(calls <= count);
		}
		assert_true(calls <= (count ? count : 1));
	}
}

/*
 * ---- the flush planner (hvipi_plan_flush) ----
 * Worked examples of spec/FLUSH_RULES.md, word for word: four CPUs, VPs
 * given per test, a canary-filled 4 KiB page.
 */
#define FL_WORDS	512u
#define FL_S		0x7f0000000000ull
#define FL_SPACE	0x1234000ull	/* a CR3 value: bits 11:0 clear */

static uint64_t fl_page[FL_WORDS];
static unsigned long fl_mask[2], fl_present[2];
static uint32_t fl_vp[128];

static void fl_plan(struct hvipi_flush_plan *p, unsigned long mask,
		    unsigned long present, uint64_t start, uint64_t end,
		    uint32_t opts, uint32_t hints, uint32_t page_size)
{
	uint32_t i;

	for (i = 0; i < FL_WORDS; i++)
		fl_page[i] = GVA_CANARY;
	fl_mask[0] = mask;
	fl_present[0] = present;
	hvipi_plan_flush(p, fl_mask, fl_present, 4, fl_vp, 0, FL_SPACE, start,
			 end, opts, hints, page_size ? fl_page : NULL,
			 page_size);
}

static bool fl_untouched_from(uint32_t from)
{
	uint32_t i;

	for (i = from; i < FL_WORDS; i++)
		if (fl_page[i] != GVA_CANARY)
			return false;
	return true;
}

#define FL_HINTS	(HVIPI_HINT_REMOTE_FLUSH | HVIPI_HINT_EX_MASKS)

static void test_flush_examples(void **state)
{
	struct hvipi_flush_plan p;

	(void)state;
	fl_vp[0] = 0; fl_vp[1] = 1; fl_vp[2] = 2; fl_vp[3] = 3;
	/* 1 page, CPUs 1 and 2 of 0..3 present: List 0x0003, rep count 1 */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_int_equal(p.kind, HVIPI_FLUSH_LIST);
	assert_true(p.control == 0x0000000100000003ull);
	assert_int_equal(p.gvas, 1);
	assert_int_equal(p.bytes, 32);
	assert_true(fl_page[0] == FL_SPACE && fl_page[1] == 0 && fl_page[2] == 0x6);
	assert_true(fl_page[3] == 0x7f0000000000ull);
	assert_true(fl_untouched_from(4));
	/* 33 pages: one entry with 32 additional pages */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x21000, 0, FL_HINTS, 4096);
	assert_true(p.control == 0x0000000100000003ull && fl_page[3] == 0x7f0000000020ull);
	/* 4097 pages: two entries, 40 bytes */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x1001000, 0, FL_HINTS, 4096);
	assert_true(p.control == 0x0000000200000003ull && p.bytes == 40);
	assert_true(fl_page[3] == 0x7f0000000fffull && fl_page[4] == 0x7f0001000000ull);
	assert_true(fl_untouched_from(5));
	/* TLB_FLUSH_ALL, no mm: Space 0x0002, flags 0x6 (all spaces, non-global) */
	fl_plan(&p, 0x6, 0xf, 0, 0, HVIPI_FLUSH_OPT_WHOLE | HVIPI_FLUSH_OPT_ALL_SPACES,
		FL_HINTS, 4096);
	assert_int_equal(p.kind, HVIPI_FLUSH_SPACE);
	assert_true(p.control == 0x0002ull && p.flags == 0x6 && p.bytes == 24);
	assert_true(fl_page[0] == 0 && fl_page[1] == 0x6 && fl_page[2] == 0x6);
	assert_true(fl_untouched_from(3));
	/* ... with global mappings to go: no NON_GLOBAL */
	fl_plan(&p, 0x6, 0xf, 0, 0, HVIPI_FLUSH_OPT_WHOLE | HVIPI_FLUSH_OPT_ALL_SPACES |
		HVIPI_FLUSH_OPT_GLOBAL, FL_HINTS, 4096);
	assert_true(p.flags == 0x2 && fl_page[1] == 0x2);
	/* every present CPU: ALL_PROCESSORS, processor mask 0 */
	fl_plan(&p, 0xf, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_LIST && p.flags == 0x1);
	assert_true(fl_page[1] == 0x1 && fl_page[2] == 0);
	/* a range of 510 x 16 MiB does not fit 509 entries: Space, no NON_GLOBAL */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 510ull * 0x1000000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_SPACE && p.control == 0x2 && p.flags == 0);
	assert_true(fl_untouched_from(3));
	/* 509 x 16 MiB fits exactly, the last entry in the page's last word */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 509ull * 0x1000000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_LIST && p.gvas == 509 && p.bytes == 4096);
	assert_true(fl_page[511] == ((FL_S + 508ull * 0x1000000) | 0xfff));
	/* Linux's band (509 x 16 MiB + 4 KiB): hvipi a whole space */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 509ull * 0x1000000 + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_SPACE && fl_untouched_from(3));
}

static void test_flush_ex(void **state)
{
	struct hvipi_flush_plan p;

	(void)state;
	/* VPs 5, 70, 200, 447: banks 0, 1, 3, 6 */
	fl_vp[0] = 5; fl_vp[1] = 70; fl_vp[2] = 200; fl_vp[3] = 447;
	/* CPUs 1 and 3 (VPs 70, 447): two banks, 1 and 6 */
	fl_plan(&p, 0xa, 0xf, FL_S, FL_S + 0x2000, 0, FL_HINTS, 4096);
	assert_int_equal(p.kind, HVIPI_FLUSH_LIST_EX);
	/* code 0x14, varhdr 2, rep count 1 */
	assert_true(p.control == (0x14ull | 2ull << 17 | 1ull << 32));
	assert_true(p.valid_bank_mask == 0x42 && p.banks == 2 && p.bytes == 56);
	assert_true(fl_page[0] == FL_SPACE && fl_page[1] == 0 && fl_page[2] == 0);
	assert_true(fl_page[3] == 0x42);
	assert_true(fl_page[4] == 1ull << 6 && fl_page[5] == 1ull << 63);
	assert_true(fl_page[6] == (FL_S | 1));
	assert_true(fl_untouched_from(7));
	/* the whole space: SpaceEx 0x13, varhdr 2, 48 bytes */
	fl_plan(&p, 0xa, 0xf, 0, 0, HVIPI_FLUSH_OPT_WHOLE, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_SPACE_EX && p.control == (0x13ull | 2ull << 17));
	assert_true(p.bytes == 48 && fl_page[1] == 0x4 && fl_untouched_from(6));
	/* no EX hint */
	fl_plan(&p, 0xa, 0xf, FL_S, FL_S + 0x1000, 0, HVIPI_HINT_REMOTE_FLUSH, 4096);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_EX_NOT_RECOMMENDED);
	assert_true(fl_untouched_from(0));
	/* a page of 40 bytes holds no Ex header of two banks (48) */
	fl_plan(&p, 0xa, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 40);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_NO_PAGE);
	assert_true(p.valid_bank_mask == 0x42 && p.banks == 2 && fl_untouched_from(0));
	/* 56 bytes: the header and banks fit, the list does not: SpaceEx */
	fl_plan(&p, 0xa, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 48);
	assert_true(p.kind == HVIPI_FLUSH_SPACE_EX && p.flags == 0 && fl_untouched_from(6));
	/* a VP >= 4096, and an unknown VP */
	fl_vp[3] = 4096;
	fl_plan(&p, 0xa, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_VP_TOO_BIG);
	fl_vp[3] = HVIPI_VP_INVAL;
	fl_plan(&p, 0xa, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_VP_UNKNOWN);
	/* every present CPU, an unknown VP among them: ALL_PROCESSORS all the same */
	fl_plan(&p, 0xf, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_LIST && p.flags == 0x1 && fl_page[2] == 0);
}

static void test_flush_nothing(void **state)
{
	struct hvipi_flush_plan p;

	(void)state;
	fl_vp[0] = 0; fl_vp[1] = 1; fl_vp[2] = 2; fl_vp[3] = 3;
	/* no CPU, or an empty range: NONE, nothing written */
	fl_plan(&p, 0, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_NONE && p.bytes == 0 && fl_untouched_from(0));
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_NONE && p.control == 0 && fl_untouched_from(0));
	fl_plan(&p, 0x6, 0xf, FL_S + 0x1000, FL_S, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_NONE && fl_untouched_from(0));
	/* CPU bits at and past nr_cpu_ids (4) are no CPUs */
	fl_plan(&p, 0xf0, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_NONE && fl_untouched_from(0));
	/* an empty range with the whole space asked: a Space call */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S, HVIPI_FLUSH_OPT_WHOLE, FL_HINTS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_SPACE && p.flags == 0x4);
	/* no remote-flush hint: native */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x1000, 0, HVIPI_HINT_EX_MASKS, 4096);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_NOT_RECOMMENDED);
	assert_true(fl_untouched_from(0));
	/* no page, or one too small for the 24-byte header */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 0);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_NO_PAGE);
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 23);
	assert_true(p.kind == HVIPI_FLUSH_FALLBACK && p.reason == HVIPI_FB_NO_PAGE);
	assert_true(fl_untouched_from(0));
	/* 24 bytes: a Space call, the list does not fit */
	fl_plan(&p, 0x6, 0xf, FL_S, FL_S + 0x1000, 0, FL_HINTS, 24);
	assert_true(p.kind == HVIPI_FLUSH_SPACE && p.bytes == 24 && fl_untouched_from(3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_encoder),
		cmocka_unit_test(test_status_ok),
		cmocka_unit_test(test_none_empty),
		cmocka_unit_test(test_fast_plan),
		cmocka_unit_test(test_ex_sparse_vp2_vp65),
		cmocka_unit_test(test_ex_sparse_compact),
		cmocka_unit_test(test_ex_all),
		cmocka_unit_test(test_fb_not_recommended),
		cmocka_unit_test(test_fb_bad_vector),
		cmocka_unit_test(test_fb_vp_unknown),
		cmocka_unit_test(test_fb_ex_not_recommended),
		cmocka_unit_test(test_fb_vp_too_big),
		cmocka_unit_test(test_fb_no_page),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_bug1_all_format_with_excluded_self),
		cmocka_unit_test(test_bug2_zero_banks_never_means_all),
		cmocka_unit_test(test_bug3_one_cpu_tests_vp_not_cpu),
		cmocka_unit_test(test_bug4_small_stack_for_8192_cpus),
		cmocka_unit_test(test_bug5_nonmonotonic_map),
		cmocka_unit_test(test_bug6_last_cpu_is_excluded_self),
		cmocka_unit_test(test_bug7_only_well_formed_sets),
		cmocka_unit_test(test_bug8_no_read_beyond_nr_cpu_ids),
		cmocka_unit_test(test_bug9_xmm_only_with_the_hint),
		cmocka_unit_test(test_xmm_eleven_banks),
		cmocka_unit_test(test_xmm_plan_one),
		cmocka_unit_test(test_page_guard_all_kinds),
		cmocka_unit_test(test_plan_one_matches_mask),
		cmocka_unit_test(test_word_paths),
		cmocka_unit_test(test_present_then_mask_alone),
		cmocka_unit_test(test_compare_first),
		cmocka_unit_test(test_gva_examples),
		cmocka_unit_test(test_gva_empty),
		cmocka_unit_test(test_gva_capacity),
		cmocka_unit_test(test_gva_unaligned),
		cmocka_unit_test(test_gva_top),
		cmocka_unit_test(test_gva_brute_force),
		cmocka_unit_test(test_rep_control),
		cmocka_unit_test(test_rep_next_rules),
		cmocka_unit_test(test_rep_loop),
		cmocka_unit_test(test_flush_examples),
		cmocka_unit_test(test_flush_ex),
		cmocka_unit_test(test_flush_nothing),
	};
	int total = (int)(sizeof(tests) / sizeof(tests[0]));
	int failed = cmocka_run_group_tests_name("hvipi unit", tests, NULL, NULL);

	ck_write_counts((uint64_t)(total - failed), (uint64_t)failed);
	return failed ? 1 : 0;
}
