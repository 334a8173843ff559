/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * EVA harness for the hvipi core (src/hvipi.c).
 *
 * Entry point: eva_main.  Drives every public function of the core over a
 * bounded but non-trivial input space built with Frama-C builtins:
 *
 *   nr_cpu_ids   1 .. 130   (masks of 3 unsigned long words, VP table of 130)
 *   mask words   arbitrary  (Frama_C_make_unknown)
 *   present      NULL, a copy of the mask, or arbitrary words
 *   vp_index[c]  0 .. 4200 or 0xffffffff
 *   vp_ident     0 or hvipi_vp_ident() of the table
 *   self         0 .. 140, exclude_self any, vector any uint32, hints 0 .. 7
 *                (0 .. 3 for the mask sends: with the XMM-input hint EVA
 *                cannot bound the compacted bank index of an XMM plan's
 *                words below 11, an alarm on a read WP proves in bounds;
 *                so the XMM branch of hvipi_encode_sparse is left to WP's
 *                RTE goals and not analysed here)
 *   page         NULL or a 4096-byte page (uint64_t[512]) of arbitrary bytes
 *   page_size    0, 16, 24, 32 or 4096
 *
 * Only this harness is analysed as "main"; the core is analysed with its
 * ACSL contracts (src/hvipi.h, spec/).  Not part of any build.
 */
#include "__fc_builtin.h"
#include "hvipi.h"

#define EVA_NCPU	130u
#define EVA_NWORDS	3u	/* HVIPI_MASK_WORDS(130) */
#define EVA_PAGE_WORDS	512u	/* 4096 bytes */

static unsigned long eva_mask[EVA_NWORDS];
static unsigned long eva_present[EVA_NWORDS];
static uint32_t eva_vp[EVA_NCPU];
static uint64_t eva_page[EVA_PAGE_WORDS];
static struct hvipi_plan eva_plan;

/*
 * Each call below is a send of its own: it starts with the read_once
 * cursors at 0 (fresh_send, src/hvipi.h).
 */
static void eva_fresh_send(void)
{
	/*@ ghost hvipi_words_next = 0; */
	/*@ ghost hvipi_present_next = 0; */
	/*@ ghost hvipi_vp_next = 0; */
}

static bool eva_bool(void)
{
	return Frama_C_interval(0, 1) != 0;
}

static uint32_t eva_u32(void)
{
	return Frama_C_unsigned_int_interval(0u, 0xffffffffu);
}

static uint64_t eva_u64(void)
{
	return Frama_C_unsigned_long_long_interval(0ull, 0xffffffffffffffffull);
}

/* VP table: every entry independently in 0..4200 or HVIPI_VP_INVAL. */
static void eva_fill_vp(void)
{
	uint32_t c;

	for (c = 0; c < EVA_NCPU; c++)
		eva_vp[c] = eva_bool() ? HVIPI_VP_INVAL :
			Frama_C_unsigned_int_interval(0u, 4200u);
}

/* vp_ident: the longest identity prefix of the table (hvipi_vp_ident()),
 * or none. */
static uint32_t eva_pick_ident(uint32_t nr)
{
	uint32_t ident = 0u;

	if (eva_bool()) {
		eva_fresh_send();
		ident = hvipi_vp_ident(eva_vp, nr);
	}
	/* In the argument list of the send it precedes: a fresh send after it. */
	eva_fresh_send();
	return ident;
}

static void eva_fill_mask(void)
{
	Frama_C_make_unknown((char *)eva_mask, sizeof(eva_mask));
}

/* NULL, the target mask itself (same set), or arbitrary words. */
static const unsigned long *eva_pick_present(void)
{
	uint32_t w;

	switch (Frama_C_interval(0, 2)) {
	case 0:
		return NULL;
	case 1:
		for (w = 0; w < EVA_NWORDS; w++)
			eva_present[w] = eva_mask[w];
		return eva_present;
	default:
		Frama_C_make_unknown((char *)eva_present, sizeof(eva_present));
		return eva_present;
	}
}

static uint32_t eva_pick_page_size(void)
{
	switch (Frama_C_interval(0, 4)) {
	case 0:
		return 0u;
	case 1:
		return 16u;
	case 2:
		return 24u;
	case 3:
		return 32u;
	default:
		return 4096u;
	}
}

static uint64_t *eva_pick_page(void)
{
	Frama_C_make_unknown((char *)eva_page, sizeof(eva_page));
	return eva_bool() ? eva_page : NULL;
}

static void eva_check_plan(uint32_t page_size)
{
	/*@ assert eva_kind: eva_plan.kind <= HVIPI_PLAN_EX_XMM; */
	/*@ assert eva_xmm_banks: eva_plan.kind != HVIPI_PLAN_EX_XMM ||
	  @   (eva_plan.banks <= HVIPI_XMM_BANKS_MAX && eva_plan.bytes == 0); */
	/*@ assert eva_reason: eva_plan.reason <= HVIPI_FB_NO_PAGE; */
	/*@ assert eva_bytes: eva_plan.bytes <= page_size; */
	/*@ assert eva_banks: eva_plan.banks <= 64; */
}

/* hvipi_plan_mask, every argument nondeterministic. */
static void eva_drive_plan_mask(void)
{
	uint32_t nr = Frama_C_unsigned_int_interval(1u, EVA_NCPU);
	uint32_t self = Frama_C_unsigned_int_interval(0u, 140u);
	bool exclude_self = eva_bool();
	uint32_t vector = eva_u32();
	/* no XMM-input hint: see eva_drive_plan_one and proofs/eva/README */
	uint32_t hints = Frama_C_unsigned_int_interval(0u, 3u);
	const unsigned long *present;
	uint32_t page_size;
	uint64_t *page;

	eva_fill_mask();
	eva_fill_vp();
	present = eva_pick_present();
	page_size = eva_pick_page_size();
	page = eva_pick_page();

	eva_fresh_send();
	hvipi_plan_mask(&eva_plan, eva_mask, present, nr, eva_vp,
			eva_pick_ident(nr), self, exclude_self, vector, hints,
			page, page_size);
	eva_check_plan(page_size);
}

/*
 * hvipi_plan_mask on the paths that need the target set to equal the
 * present set: present is a copy of the mask, self kept, EX hint set.
 */
static void eva_drive_plan_mask_all(void)
{
	uint32_t nr = Frama_C_unsigned_int_interval(1u, EVA_NCPU);
	uint32_t self = Frama_C_unsigned_int_interval(0u, 140u);
	uint32_t vector = Frama_C_unsigned_int_interval(HVIPI_VECTOR_MIN,
							 HVIPI_VECTOR_MAX);
	uint32_t hints = HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS;
	uint32_t w, page_size;
	uint64_t *page;

	eva_fill_mask();
	eva_fill_vp();
	for (w = 0; w < EVA_NWORDS; w++)
		eva_present[w] = eva_mask[w];
	page_size = eva_pick_page_size();
	page = eva_pick_page();

	eva_fresh_send();
	hvipi_plan_mask(&eva_plan, eva_mask, eva_present, nr, eva_vp,
			eva_pick_ident(nr), self, false, vector, hints, page,
			page_size);
	eva_check_plan(page_size);
}

/* hvipi_plan_one, cpu possibly at or beyond nr_cpu_ids. */
static void eva_drive_plan_one(void)
{
	uint32_t nr = Frama_C_unsigned_int_interval(1u, EVA_NCPU);
	uint32_t cpu = Frama_C_unsigned_int_interval(0u, 140u);
	uint32_t vector = eva_u32();
	uint32_t hints = Frama_C_unsigned_int_interval(0u, 7u);
	uint32_t page_size;
	uint64_t *page;

	eva_fill_vp();
	page_size = eva_pick_page_size();
	page = eva_pick_page();

	eva_fresh_send();
	hvipi_plan_one(&eva_plan, cpu, nr, eva_vp, vector, hints, page,
		       page_size);
	eva_check_plan(page_size);
}

static uint64_t eva_r8;

/* hvipi_fast_one, the same arguments as hvipi_plan_one's without a page. */
static void eva_drive_fast_one(void)
{
	uint32_t nr = Frama_C_unsigned_int_interval(1u, EVA_NCPU);
	uint32_t cpu = Frama_C_unsigned_int_interval(0u, 140u);
	uint32_t vector = eva_u32();
	uint32_t hints = Frama_C_unsigned_int_interval(0u, 7u);
	eva_fill_vp();
	eva_fresh_send();
	eva_r8 = hvipi_fast_one(cpu, nr, eva_vp, vector, hints);
}

static void eva_drive_control(void)
{
	uint32_t code = Frama_C_unsigned_int_interval(0u, 65535u);
	bool fast = eva_bool();
	uint32_t var_hdr = Frama_C_unsigned_int_interval(0u, HVIPI_CTL_VARHDR_MAX);
	uint64_t ctl;

	ctl = hvipi_control(code, fast, var_hdr);
	/*@ assert eva_ctl_fits: ctl < 134217728; */
	(void)ctl;
	/* The values the core itself uses. */
	ctl = hvipi_control(HVIPI_CALL_SEND_IPI, true, 0);
	/*@ assert eva_ctl_fast: ctl == 0x1000b; */
	ctl = hvipi_control(HVIPI_CALL_SEND_IPI_EX, false,
			    Frama_C_unsigned_int_interval(0u, 64u));
	(void)ctl;
}

static void eva_drive_status_ok(void)
{
	bool ok;

	ok = hvipi_status_ok(eva_u64());
	(void)ok;
	ok = hvipi_status_ok(0);
	/*@ assert eva_status_zero: ok; */
	ok = hvipi_status_ok(0x10000ull);
	/*@ assert eva_status_high: ok; */
	ok = hvipi_status_ok(1);
	/*@ assert eva_status_fail: !ok; */
}

/*
 * The glue's decisions: any plan kind, any flags, any status; then the
 * cases the glue depends on most.
 */
static void eva_drive_decisions(void)
{
	uint32_t why, path;
	bool ok;

	why = hvipi_ipi_gate(eva_u32(), eva_bool(), eva_bool(), eva_bool());
	why = hvipi_flush_gate(eva_bool(), eva_bool(), eva_bool());
	(void)why;
	ok = hvipi_page_ok(eva_bool(), eva_bool());
	path = hvipi_ipi_path(eva_u32(), eva_bool(), eva_bool(), eva_bool(),
			      eva_bool(), eva_bool());
	ok = hvipi_path_done(path, eva_u64()) || ok;
	path = hvipi_flush_path(eva_u32(), eva_bool(), eva_bool(), eva_bool(),
				eva_bool());
	ok = hvipi_path_done(path, eva_u64()) || ok;
	(void)ok;
	why = hvipi_ipi_gate(0xfd, true, false, false);
	/*@ assert eva_gate_no_hcall: why == HVIPI_FB_NO_HCALL; */
	why = hvipi_ipi_gate(2, true, true, true);
	/*@ assert eva_gate_nmi_vector: why == HVIPI_FB_BAD_VECTOR; */
	path = hvipi_ipi_path(HVIPI_PLAN_EX_SPARSE, true, true, true, true,
			      false);
	/*@ assert eva_path_nmi: path == HVIPI_PATH_NATIVE; */
	ok = hvipi_path_done(HVIPI_PATH_MEM, 5);
	/*@ assert eva_path_failed: !ok; */
}

/*
 * The GVA list of a TLB flush: any range, any capacity up to the page's
 * 509 list words, written into the page buffer; then the worked examples
 * of spec/FLUSH_RULES.md, section 3.
 */
static void eva_drive_gva_list(void)
{
	uint32_t cap = Frama_C_unsigned_int_interval(0u, 509u);
	uint64_t s = 0x7f0000000000ull;
	uint32_t n;

	n = hvipi_gva_list(eva_page, cap, eva_u64(), eva_u64());
	/*@ assert eva_gva_cap: n <= cap; */
	n = hvipi_gva_list(eva_page, 509u, s, s + 0x1000u);
	/*@ assert eva_gva_one: n == 1 && eva_page[0] == 0x7f0000000000; */
	n = hvipi_gva_list(eva_page, 509u, s, s + 0x1001000u);
	/*@ assert eva_gva_two: n == 2; */
	n = hvipi_gva_list(eva_page, 509u, s, s);
	/*@ assert eva_gva_empty: n == 0; */
	(void)n;
}

/* Rep calls: the control word, and the step after any result. */
static void eva_drive_rep(void)
{
	uint64_t ctl, next;
	enum hvipi_rep_step st;
	uint32_t count = Frama_C_unsigned_int_interval(0u, HVIPI_CTL_REP_MAX);

	ctl = hvipi_rep_control(0x0003u, 0u, count);
	st = hvipi_rep_next(ctl, eva_u64(), &next);
	(void)st;
	ctl = hvipi_rep_control(0x0014u, Frama_C_unsigned_int_interval(1u, 64u),
				count);
	st = hvipi_rep_next(ctl, eva_u64(), &next);
	(void)st;
	/* 3 reps, 1 done: again from rep 1. */
	ctl = hvipi_rep_control(0x0003u, 0u, 3u);
	st = hvipi_rep_next(ctl, 0x100000000ull, &next);
	/*@ assert eva_rep_again: st == HVIPI_REP_AGAIN &&
	  @   next == 0x0001000300000003; */
	st = hvipi_rep_next(next, 0x100000000ull, &next);
	/*@ assert eva_rep_stalled: st == HVIPI_REP_BAD; */
	(void)st;
}

static struct hvipi_flush_plan eva_fplan;

/*
 * The flush driver's page: page_size words and 68 more.  An Ex flush
 * writes its GVA list at word 4 + banks (banks 0..64) with room for
 * page_size / 8 - 4 - banks entries; EVA does not relate a pointer's
 * offset to an integer bound, so it cannot see that the list ends inside
 * page_size / 8 words when the offset varies with the banks, and with the
 * 512-word page it reports an out-of-bounds write that cannot happen.  The
 * 68 spare words keep EVA's check to what it can decide (no write beyond
 * 4 + 64 + 4095 words, no overflow, no undefined operation); that the list
 * ends within page_size bytes is WP's page_bounds (proofs/eva/README).
 */
static uint64_t eva_fpage[EVA_PAGE_WORDS + 68];

/*
 * Any address space hvipi_plan_flush() accepts (its precondition
 * space_cr3: bits 11:0 and 63 clear), as a multiple of 4096 so that EVA
 * knows the congruence and can decide the precondition.
 */
static uint64_t eva_space(void)
{
	return 4096ull * Frama_C_unsigned_long_long_interval(0ull, 0x7ffffffffffffull);
}

/*
 * hvipi_plan_flush, every argument nondeterministic; then the same with
 * present a copy of the mask (the ALL_PROCESSORS path), and a small range
 * that lists one page.
 */
static void eva_drive_plan_flush(void)
{
	uint32_t nr = Frama_C_unsigned_int_interval(1u, EVA_NCPU);
	uint32_t hints = Frama_C_unsigned_int_interval(0u, 15u);
	uint32_t opts = Frama_C_unsigned_int_interval(0u, 7u);
	const unsigned long *present;
	uint32_t w, page_size;
	uint64_t *page;

	eva_fill_mask();
	eva_fill_vp();
	present = eva_pick_present();
	page_size = eva_pick_page_size();
	Frama_C_make_unknown((char *)eva_fpage, sizeof(eva_fpage));
	page = eva_bool() ? eva_fpage : NULL;
	eva_fresh_send();
	hvipi_plan_flush(&eva_fplan, eva_mask, present, nr, eva_vp,
			 eva_pick_ident(nr), eva_space(), eva_u64(), eva_u64(),
			 opts, hints, page, page_size);
	/*@ assert eva_fkind: eva_fplan.kind <= HVIPI_FLUSH_FALLBACK; */
	/*@ assert eva_freason: eva_fplan.reason <= HVIPI_FB_NO_PAGE; */
	/*@ assert eva_fbytes: eva_fplan.bytes <= page_size; */

	for (w = 0; w < EVA_NWORDS; w++)
		eva_present[w] = eva_mask[w];
	page = eva_bool() ? eva_fpage : NULL;
	eva_fresh_send();
	hvipi_plan_flush(&eva_fplan, eva_mask, eva_present, nr, eva_vp, 0,
			 0x1000u, 0x7f0000000000ull, 0x7f0000001000ull, 0u,
			 HVIPI_HINT_REMOTE_FLUSH, page, 4096u);
	/*@ assert eva_fbytes_all: eva_fplan.bytes <= 4096; */
}

void eva_main(void)
{
	eva_drive_control();
	eva_drive_status_ok();
	eva_drive_decisions();
	eva_drive_rep();
	eva_drive_gva_list();
	eva_drive_plan_one();
	eva_drive_fast_one();
	eva_drive_plan_mask();
	eva_drive_plan_mask_all();
	eva_drive_plan_flush();
}
