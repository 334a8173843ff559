/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * eacsl_glue: run the randomized test against the core instrumented by
 * E-ACSL (frama-c -e-acsl).  See tests/eacsl/README.md.
 *
 * Only the core is instrumented; the test harness (random.c, check.c, the
 * oracle, the receiver model, the Linux reference) is compiled as usual.
 * E-ACSL keeps each function's body under its own name and emits the
 * checked version as __gen_e_acsl_<name>: requires, then the body, then
 * ensures, behaviors and the complete/disjoint checks.  The test is
 * linked with -Wl,--wrap=<entry point> so that its calls land here, and
 * from here go to the checked versions.
 *
 * The E-ACSL memory model knows only blocks it saw being allocated: the
 * heap (the RTL replaces malloc for the whole program) and the objects of
 * instrumented code.  The harness passes stack and static objects too (the
 * plan, the 4 KiB page), so each call works on heap copies of exactly the
 * extents the contract names (mask_words(nr) mask words, nr table entries,
 * page_size / 8 page words, one plan; hvipi_plan_one's table is padded
 * when cpu >= nr_cpu_ids, see there); the outputs (*plan and the page
 * words) are copied back, and the read-only inputs are compared after the
 * call: that stands in for the assigns clauses, which E-ACSL does not
 * check.  A failed annotation aborts the process (E-ACSL's default), so
 * the suite fails with no counts written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hvipi.h"

/* The E-ACSL runtime library (share/frama-c/e-acsl/e_acsl.h). */
void __e_acsl_memory_init(int *argc_ref, char ***argv, size_t ptr_size);
void __e_acsl_memory_clean(void);

/*
 * The read_once cursors, plain variables in the instrumented copy
 * (inline.py, GHOST_TO_C).  Each call below is a send of its own, which
 * starts with the three at 0 (the entry points' fresh_send).
 */
extern uint32_t hvipi_words_next, hvipi_present_next, hvipi_vp_next;

static void glue_fresh_send(void)
{
	hvipi_words_next = 0;
	hvipi_present_next = 0;
	hvipi_vp_next = 0;
}

/* The checked entry points, in the instrumented core. */
void __gen_e_acsl_hvipi_plan_mask(struct hvipi_plan *plan,
				  const unsigned long *mask,
				  const unsigned long *present,
				  uint32_t nr_cpu_ids, const uint32_t *vp_index,
				  uint32_t vp_ident, uint32_t self,
				  bool exclude_self,
				  uint32_t vector, uint32_t hints,
				  uint64_t *page, uint32_t page_size);
uint32_t __gen_e_acsl_hvipi_vp_ident(const uint32_t *vp_index,
				     uint32_t nr_cpu_ids);
void __gen_e_acsl_hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu,
				 uint32_t nr_cpu_ids, const uint32_t *vp_index,
				 uint32_t vector, uint32_t hints,
				 uint64_t *page, uint32_t page_size);
void __gen_e_acsl_hvipi_plan_flush(struct hvipi_flush_plan *plan,
				   const unsigned long *mask,
				   const unsigned long *present,
				   uint32_t nr_cpu_ids,
				   const uint32_t *vp_index, uint32_t vp_ident,
				   uint64_t space, uint64_t start, uint64_t end,
				   uint32_t opts, uint32_t hints, uint64_t *page,
				   uint32_t page_size);
uint64_t __gen_e_acsl_hvipi_control(uint32_t code, bool fast,
				    uint32_t var_hdr);
bool __gen_e_acsl_hvipi_status_ok(uint64_t status);

/* The prototypes that --wrap asks for. */
void __wrap_hvipi_plan_mask(struct hvipi_plan *plan, const unsigned long *mask,
			    const unsigned long *present, uint32_t nr_cpu_ids,
			    const uint32_t *vp_index, uint32_t vp_ident,
			    uint32_t self, bool exclude_self, uint32_t vector,
			    uint32_t hints,
			    uint64_t *page, uint32_t page_size);
void __wrap_hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu,
			   uint32_t nr_cpu_ids, const uint32_t *vp_index,
			   uint32_t vector, uint32_t hints, uint64_t *page,
			   uint32_t page_size);
uint32_t __wrap_hvipi_vp_ident(const uint32_t *vp_index, uint32_t nr_cpu_ids);
void __wrap_hvipi_plan_flush(struct hvipi_flush_plan *plan,
			     const unsigned long *mask,
			     const unsigned long *present, uint32_t nr_cpu_ids,
			     const uint32_t *vp_index, uint32_t vp_ident,
			     uint64_t space, uint64_t start, uint64_t end,
			     uint32_t opts, uint32_t hints, uint64_t *page,
			     uint32_t page_size);
uint64_t __wrap_hvipi_control(uint32_t code, bool fast, uint32_t var_hdr);
bool __wrap_hvipi_status_ok(uint64_t status);

static void glue_init(void) __attribute__((constructor));
static void glue_fini(void) __attribute__((destructor));

static void glue_init(void)
{
	__e_acsl_memory_init(NULL, NULL, sizeof(void *));
}

static void glue_fini(void)
{
	__e_acsl_memory_clean();
}

static void *glue_dup(const void *p, size_t n)
{
	/* malloc(0) may return NULL; the contract's range is empty then. */
	void *q = malloc(n ? n : 1);

	if (!q) {
		perror("eacsl_glue: malloc");
		exit(2);
	}
	if (p && n)
		memcpy(q, p, n);
	return q;
}

static void glue_unchanged(const void *copy, const void *orig, size_t n,
			   const char *what)
{
	if (n && memcmp(copy, orig, n)) {
		fprintf(stderr, "eacsl_glue: the core wrote its read-only input %s\n",
			what);
		abort();
	}
}

/* The read-only inputs of a mask entry point, copied to the measure of its
 * contract (mask_words(nr) mask and present words, nr table entries). */
struct glue_in {
	unsigned long *m, *pr;
	uint32_t *t;
	size_t mbytes, tbytes;
};

static void glue_in_dup(struct glue_in *g, const unsigned long *mask,
			const unsigned long *present, uint32_t nr_cpu_ids,
			const uint32_t *vp_index)
{
	g->mbytes = HVIPI_MASK_WORDS(nr_cpu_ids) * sizeof(*mask);
	g->tbytes = (size_t)nr_cpu_ids * sizeof(*vp_index);
	g->m = glue_dup(mask, g->mbytes);
	g->pr = present ? glue_dup(present, g->mbytes) : NULL;
	g->t = glue_dup(vp_index, g->tbytes);
}

/* After the call: the core wrote none of them; freed. */
static void glue_in_done(struct glue_in *g, const unsigned long *mask,
			 const unsigned long *present, const uint32_t *vp_index)
{
	glue_unchanged(g->m, mask, g->mbytes, "mask");
	if (g->pr)
		glue_unchanged(g->pr, present, g->mbytes, "present");
	glue_unchanged(g->t, vp_index, g->tbytes, "vp_index");
	free(g->m);
	free(g->pr);
	free(g->t);
}

/* The page copy handed to the core, back to the caller's page; freed. */
static void glue_page_back(uint64_t *page, uint64_t *pg, size_t pbytes)
{
	if (pg && pbytes)
		memcpy(page, pg, pbytes);
	free(pg);
}

void __wrap_hvipi_plan_mask(struct hvipi_plan *plan, const unsigned long *mask,
			    const unsigned long *present, uint32_t nr_cpu_ids,
			    const uint32_t *vp_index, uint32_t vp_ident,
			    uint32_t self, bool exclude_self, uint32_t vector,
			    uint32_t hints,
			    uint64_t *page, uint32_t page_size)
{
	size_t pbytes = (size_t)(page_size / 8u) * sizeof(*page);
	struct hvipi_plan *p = glue_dup(plan, sizeof(*plan));
	uint64_t *pg = page ? glue_dup(page, pbytes) : NULL;
	struct glue_in g;

	glue_in_dup(&g, mask, present, nr_cpu_ids, vp_index);
	glue_fresh_send();
	__gen_e_acsl_hvipi_plan_mask(p, g.m, g.pr, nr_cpu_ids, g.t, vp_ident,
				     self, exclude_self, vector, hints, pg,
				     page_size);
	glue_in_done(&g, mask, present, vp_index);
	*plan = *p;
	free(p);
	glue_page_back(page, pg, pbytes);
}

void __wrap_hvipi_plan_one(struct hvipi_plan *plan, uint32_t cpu,
			   uint32_t nr_cpu_ids, const uint32_t *vp_index,
			   uint32_t vector, uint32_t hints, uint64_t *page,
			   uint32_t page_size)
{
	size_t tbytes = (size_t)nr_cpu_ids * sizeof(*vp_index);
	size_t pbytes = (size_t)(page_size / 8u) * sizeof(*page);
	size_t tlen = nr_cpu_ids;
	struct hvipi_plan *p = glue_dup(plan, sizeof(*plan));
	uint32_t *t;
	uint64_t *pg = page ? glue_dup(page, pbytes) : NULL;

	/*
	 * E-ACSL evaluates the \old(vp_index[cpu]) of every behavior on
	 * entry, also when cpu >= nr_cpu_ids and the behavior does not apply,
	 * and then fails on reading beyond the table.  Pad the copy up to
	 * index cpu with HVIPI_VP_INVAL for those calls (see README.md).
	 */
	if (cpu >= nr_cpu_ids) {
		if (cpu - nr_cpu_ids >= 65536u) {
			fprintf(stderr, "eacsl_glue: cpu %u too far beyond nr_cpu_ids %u\n",
				cpu, nr_cpu_ids);
			abort();
		}
		tlen = (size_t)cpu + 1;
	}
	t = glue_dup(NULL, tlen * sizeof(*t));
	memcpy(t, vp_index, tbytes);
	memset(t + nr_cpu_ids, 0xff, (tlen - nr_cpu_ids) * sizeof(*t));

	glue_fresh_send();
	__gen_e_acsl_hvipi_plan_one(p, cpu, nr_cpu_ids, t, vector, hints, pg,
				    page_size);
	glue_unchanged(t, vp_index, tbytes, "vp_index");
	*plan = *p;
	free(p);
	free(t);
	glue_page_back(page, pg, pbytes);
}

/* The identity prefix, on a heap copy of the table: a send of its own. */
uint32_t __wrap_hvipi_vp_ident(const uint32_t *vp_index, uint32_t nr_cpu_ids)
{
	size_t tbytes = (size_t)nr_cpu_ids * sizeof(*vp_index);
	uint32_t *t = glue_dup(vp_index, tbytes);
	uint32_t n;

	glue_fresh_send();
	n = __gen_e_acsl_hvipi_vp_ident(t, nr_cpu_ids);
	glue_unchanged(t, vp_index, tbytes, "vp_index");
	free(t);
	return n;
}

/* The flush planner: as hvipi_plan_mask, heap copies of the contract's extents. */
void __wrap_hvipi_plan_flush(struct hvipi_flush_plan *plan,
			     const unsigned long *mask,
			     const unsigned long *present, uint32_t nr_cpu_ids,
			     const uint32_t *vp_index, uint32_t vp_ident,
			     uint64_t space, uint64_t start, uint64_t end,
			     uint32_t opts, uint32_t hints, uint64_t *page,
			     uint32_t page_size)
{
	size_t pbytes = (size_t)(page_size / 8u) * sizeof(*page);
	struct hvipi_flush_plan *p = glue_dup(plan, sizeof(*plan));
	uint64_t *pg = page ? glue_dup(page, pbytes) : NULL;
	struct glue_in g;

	glue_in_dup(&g, mask, present, nr_cpu_ids, vp_index);
	glue_fresh_send();
	__gen_e_acsl_hvipi_plan_flush(p, g.m, g.pr, nr_cpu_ids, g.t, vp_ident,
				      space, start, end, opts, hints, pg,
				      page_size);
	glue_in_done(&g, mask, present, vp_index);
	*plan = *p;
	free(p);
	glue_page_back(page, pg, pbytes);
}

uint64_t __wrap_hvipi_control(uint32_t code, bool fast, uint32_t var_hdr)
{
	return __gen_e_acsl_hvipi_control(code, fast, var_hdr);
}

bool __wrap_hvipi_status_ok(uint64_t status)
{
	return __gen_e_acsl_hvipi_status_ok(status);
}
