/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvm_replay_test TOOL DIR: the self-test of kvm_replay (TOOL), run by
 * `make -C tests run-kvm-replay`.  Writes its dumps under DIR.
 *
 * Dumps as the test-only platform writes them, made from hvipi's own
 * plans: hvipi_plan_mask(), hvipi_plan_one() and hvipi_plan_flush() on a
 * few partitions (identity, permuted, strided, sparse-high with every VP
 * below 1024, and sparse-high with CPUs whose VP is 1024 or more, with
 * and without XMM input), each call decoded by tests/receiver as the
 * platform decodes it (rx.c for the IPIs, rx_flush.c with the TLFS reading
 * for the flushes) for its status, vector and CPUs; identical calls
 * merged with their count, List flushes sometimes continued from half
 * way, as the platform makes the guest do.  Each must pass, with the
 * summary's counts (records, calls, each kind, continued, VP >= 1024)
 * those of the generator.
 *
 * Then doctored dumps, each of which must make the tool exit non-zero
 * with the one failure it was made for (a word of its message): a record's
 * CPUs one short or one too many (IPI, flush), a wrong vector, malformed
 * calls recorded as successes (var_hdr one too many or one too few, rep
 * start at the rep count), a good call recorded as refused, an XMM-fast
 * call without its registers, a CPU without a vCPU (VP >= 1024) that the
 * call does not name, an E line with calls dropped, missing, or with
 * other totals, a record after it, no header, malformed records, and the
 * bounds --max-vp1024 and --max-continued exceeded.  Each is one check.
 *
 * HVIPI_SEED: the seed (default 0x7e57).  Counts: checks passed and failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "counts.h"
#include "gen.h"
#include "hvipi.h"
#include "rx.h"
#include "rx_flush.h"

#define T_NR_MAX	64u
#define T_WORDS		((T_NR_MAX + 63u) / 64u)
#define T_PAGE		4096u
#define T_RECS_MAX	2048u
#define T_KVM_VPS	1024u		/* KVM 6.1 holds VPs 0..1023 */
#define T_GPA		0x7f3c2000ull	/* the input pages: T_GPA + cpu * 4 KiB */

enum { K_IPI_FAST, K_IPI_SPARSE, K_IPI_ALL, K_IPI_XMM, K_FLUSH_LIST,
       K_FLUSH_SPACE, K_FLUSH_LIST_EX, K_FLUSH_SPACE_EX, K_N };
static const char *const kind_key[K_N] = {
	"ipi_fast", "ipi_ex_sparse", "ipi_ex_all", "ipi_xmm", "flush_list",
	"flush_space", "flush_list_ex", "flush_space_ex",
};

/* A record, as the dump has it; zeroed first, so that it compares whole. */
struct trec {
	uint64_t control, rdx, r8;
	uint64_t xmm[12];
	uint8_t mem[T_PAGE];
	uint32_t mem_len;
	uint32_t has_xmm;
	uint32_t status;
	int32_t vector;			/* -1: none */
	uint64_t cpus[T_WORDS];
	/* not in the dump: what the generator expects of the tool */
	uint32_t kind;			/* K_* */
	uint32_t allproc;		/* a flush for all processors */
	uint32_t vp1024;		/* reaches CPUs without a vCPU in KVM */
	uint32_t continued;		/* rep start > 0 */
	uint64_t hash;
	uint64_t count;			/* not compared */
};

struct part {
	const char *name;
	uint32_t nr;
	uint32_t vp[T_NR_MAX];
	bool xmm;
	uint32_t unheld;
	uint64_t vps[RX_VP_WORDS];	/* the partition's VPs */
	uint32_t vp_cpu[RX_NR_VPS];
};

static struct trec recs[T_RECS_MAX], work[T_RECS_MAX];
static uint32_t nrecs;
static uint64_t page[T_PAGE / 8u];
static uint64_t passed, failed;
static const char *tool, *dir;
static char out[1 << 16];

static void check(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("kvm_replay_test: %s - ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("  the tool said:\n%s\n", out);
	}
}

static bool tbit(const uint64_t *w, uint32_t b)
{
	return (w[b / 64u] >> (b % 64u)) & 1u;
}

static void tset(uint64_t *w, uint32_t b)
{
	w[b / 64u] |= 1ull << (b % 64u);
}

/* ---- partitions ---- */

static void part_init(struct part *p)
{
	uint32_t c;

	memset(p->vps, 0, sizeof(p->vps));
	for (c = 0; c < RX_NR_VPS; c++)
		p->vp_cpu[c] = UINT32_MAX;
	p->unheld = 0;
	for (c = 0; c < p->nr; c++) {
		tset(p->vps, p->vp[c]);
		p->vp_cpu[p->vp[c]] = c;
		p->unheld += p->vp[c] >= T_KVM_VPS;
	}
}

/* The CPUs of a receiver's VP set (VPs of no CPU dropped, as the platform). */
static void vps_to_cpus(const struct part *p, const uint64_t *vps, bool all,
			uint64_t *cpus)
{
	uint32_t c;

	memset(cpus, 0, T_WORDS * 8u);
	for (c = 0; c < p->nr; c++)
		if (all || tbit(vps, p->vp[c]))
			tset(cpus, c);
}

static bool vps_high(const uint64_t *vps)
{
	uint32_t i;

	for (i = T_KVM_VPS / 64u; i < RX_VP_WORDS; i++)
		if (vps[i])
			return true;
	return false;
}

static bool cpus_unheld(const struct part *p, const uint64_t *cpus)
{
	uint32_t c;

	for (c = 0; c < p->nr; c++)
		if (tbit(cpus, c) && p->vp[c] >= T_KVM_VPS)
			return true;
	return false;
}

/* ---- records ---- */

static uint64_t rec_hash(const struct trec *r)
{
	const uint8_t *b = (const uint8_t *)r;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < offsetof(struct trec, kind); i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Add @r (count 1), or count it again if the same call is there. */
static void add_rec(struct trec *r)
{
	uint32_t i;

	r->hash = rec_hash(r);
	for (i = 0; i < nrecs; i++)
		if (recs[i].hash == r->hash &&
		    !memcmp(&recs[i], r, offsetof(struct trec, kind))) {
			recs[i].count++;
			return;
		}
	if (nrecs == T_RECS_MAX)
		return;
	r->count = 1;
	recs[nrecs++] = *r;
}

/* An IPI call decoded as the platform does (rx.c, XMM input if offered). */
static void ipi_rec(const struct part *p, const struct hvipi_plan *pl,
		    uint32_t self)
{
	static struct trec r;
	struct rx_call call;
	struct rx_result rr;
	uint32_t i;

	memset(&r, 0, sizeof(r));
	memset(&call, 0, sizeof(call));
	r.control = pl->control;
	if (pl->kind == HVIPI_PLAN_FAST || pl->kind == HVIPI_PLAN_EX_XMM) {
		r.rdx = pl->rdx;
		r.r8 = pl->r8;
	} else {
		r.rdx = T_GPA + 4096ull * self;
		r.mem_len = pl->bytes;
		memcpy(r.mem, page, pl->bytes);
	}
	if (pl->kind == HVIPI_PLAN_EX_XMM) {
		r.has_xmm = 1;
		for (i = 0; i < 12u; i++)
			r.xmm[i] = pl->input[2 + i];
	}
	call.control = r.control;
	call.rdx = r.rdx;
	call.r8 = r.r8;
	call.has_xmm = p->xmm;
	memcpy(call.xmm, r.xmm, sizeof(call.xmm));
	if (!(r.control & (1ull << 16))) {
		call.page = (const uint8_t *)page;
		call.page_size = T_PAGE;
	}
	rx_decode(&call, &rr);
	r.status = rr.status;
	r.vector = rr.delivered ? (int32_t)rr.vector : -1;
	if (rr.status == RX_ST_SUCCESS && rr.delivered)
		vps_to_cpus(p, rr.vps, rr.all, r.cpus);
	r.kind = pl->kind == HVIPI_PLAN_FAST ? K_IPI_FAST :
		 pl->kind == HVIPI_PLAN_EX_ALL ? K_IPI_ALL :
		 pl->kind == HVIPI_PLAN_EX_XMM ? K_IPI_XMM : K_IPI_SPARSE;
	r.vp1024 = p->unheld && (rr.all || vps_high(rr.vps) ||
				 cpus_unheld(p, r.cpus));
	add_rec(&r);
}

/* A flush call decoded as the platform does (rx_flush.c, TLFS reading). */
static void flush_rec(const struct part *p, const struct hvipi_flush_plan *pl,
		      uint32_t self, uint32_t rep_start)
{
	static struct trec r;
	struct rxf_call call;
	static struct rxf_result res;

	memset(&r, 0, sizeof(r));
	memset(&call, 0, sizeof(call));
	r.control = pl->control | ((uint64_t)rep_start << 48);
	r.rdx = T_GPA + 4096ull * self;
	r.mem_len = pl->bytes;
	memcpy(r.mem, page, pl->bytes);
	call.control = r.control;
	call.rdx = r.rdx;
	call.mem = (const uint8_t *)page;
	call.mem_len = T_PAGE;
	call.mem_gpa = r.rdx;
	call.vps = p->vps;
	call.hints = RXF_HINT_REMOTE_FLUSH | RXF_HINT_EX | (p->xmm ? RXF_HINT_XMM : 0);
	call.enforce = true;
	call.rules = RXF_TLFS;
	rxf_decode(&call, &res);
	r.status = res.ud ? RX_ST_INVALID_CODE : res.status;
	r.vector = -1;
	if (!res.ud && res.status == RX_ST_SUCCESS)
		vps_to_cpus(p, res.vps, res.all, r.cpus);
	r.kind = pl->kind == HVIPI_FLUSH_LIST ? K_FLUSH_LIST :
		 pl->kind == HVIPI_FLUSH_SPACE ? K_FLUSH_SPACE :
		 pl->kind == HVIPI_FLUSH_LIST_EX ? K_FLUSH_LIST_EX : K_FLUSH_SPACE_EX;
	r.allproc = (pl->flags & HVIPI_HV_FLUSH_ALL_PROCESSORS) != 0;
	r.vp1024 = p->unheld && (res.all || vps_high(res.vps) ||
				 cpus_unheld(p, r.cpus));
	r.continued = rep_start != 0;
	add_rec(&r);
}

/* A random mask of the partition's CPUs (never empty). */
static void rand_mask(const struct part *p, unsigned long *m, uint32_t self)
{
	static unsigned long all[T_WORDS];
	uint32_t c, w;
	bool any;

	memset(all, 0, sizeof(all));
	for (c = 0; c < p->nr; c++)
		gen_set_bit(all, c);
	do {
		gen_mask(m, T_WORDS, p->nr, self, all, &gen_mask_mix_random);
		for (any = false, w = 0; w < T_WORDS; w++)
			any |= m[w] != 0;
	} while (!any);
}

static void gen_part(const struct part *p, uint32_t ipis, uint32_t flushes)
{
	static unsigned long mask[T_WORDS], present[T_WORDS];
	static const uint32_t vectors[] = { 0xf3, 0xfb, 0xfc, 0xfd, 0x31, 0xec };
	struct hvipi_plan pl;
	struct hvipi_flush_plan fp;
	uint32_t i, self, c, vector, hints, opts, npages;
	uint64_t space, start;
	bool one, excl;

	memset(present, 0, sizeof(present));
	for (c = 0; c < p->nr; c++)
		gen_set_bit(present, c);
	nrecs = 0;
	hints = HVIPI_HINT_CLUSTER_IPI | HVIPI_HINT_EX_MASKS |
		(p->xmm ? HVIPI_HINT_XMM_INPUT : 0);
	for (i = 0; i < ipis; i++) {
		self = gen_below(p->nr);
		/* few vectors, as a kernel's: the same call comes again */
		vector = gen_chance(1, 4) ? 0x10 + gen_below(0xf0) :
			 vectors[gen_below(sizeof(vectors) / sizeof(vectors[0]))];
		one = gen_chance(1, 3);
		excl = gen_chance(1, 3);
		memset(page, 0, sizeof(page));
		if (one) {
			hvipi_plan_one(&pl, gen_below(p->nr), p->nr, p->vp, vector,
				       hints, page, T_PAGE);
		} else {
			rand_mask(p, mask, self);
			hvipi_plan_mask(&pl, mask, present, p->nr, p->vp,
					hvipi_vp_ident(p->vp, p->nr), self, excl,
					vector, hints, page, T_PAGE);
		}
		if (pl.kind == HVIPI_PLAN_FAST || pl.kind == HVIPI_PLAN_EX_SPARSE ||
		    pl.kind == HVIPI_PLAN_EX_ALL || pl.kind == HVIPI_PLAN_EX_XMM)
			ipi_rec(p, &pl, self);
	}
	for (i = 0; i < flushes; i++) {
		self = gen_below(p->nr);
		rand_mask(p, mask, self);
		opts = 0;
		space = (gen_rnd() & 0x000ffffffffff000ull) | 0x1000;
		if (gen_chance(1, 4)) {
			opts |= HVIPI_FLUSH_OPT_ALL_SPACES;
			space = 0;
		}
		if (gen_chance(1, 4))
			opts |= HVIPI_FLUSH_OPT_WHOLE;
		if (gen_chance(1, 3))
			opts |= HVIPI_FLUSH_OPT_GLOBAL;
		start = 0x7f0000000000ull + 4096ull * gen_below(1u << 20);
		npages = gen_chance(1, 2) ? 1 + gen_below(40) :
			 4096u * (1 + gen_below(5)) + gen_below(4096);
		memset(page, 0, sizeof(page));
		hvipi_plan_flush(&fp, mask, present, p->nr, p->vp,
				 hvipi_vp_ident(p->vp, p->nr), space, start,
				 start + 4096ull * npages, opts,
				 HVIPI_HINT_REMOTE_FLUSH | HVIPI_HINT_EX_MASKS,
				 page, T_PAGE);
		if (!HVIPI_FLUSH_CALL(&fp))
			continue;
		flush_rec(p, &fp, self, 0);
		/* the platform completes a list half way now and then */
		if (HVIPI_FLUSH_IS_LIST(&fp) && fp.gvas >= 2 && gen_chance(1, 2))
			flush_rec(p, &fp, self, fp.gvas / 2u);
	}
}

/* ---- dumps ---- */

struct wopt {
	bool crlf, noise, no_header, no_e, line_after_e;
	int64_t d_records, d_calls;	/* added to the E line's totals */
	uint64_t dropped;
	const char *raw;		/* a line added among the records */
};

static void put_hex(FILE *f, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
}

static void put_cpus(FILE *f, const struct part *p, const uint64_t *cpus)
{
	uint32_t c = 0, first;
	bool any = false;

	while (c < p->nr) {
		if (!tbit(cpus, c)) {
			c++;
			continue;
		}
		first = c;
		while (c + 1 < p->nr && tbit(cpus, c + 1))
			c++;
		fprintf(f, "%s%u", any ? "," : "", first);
		if (c > first)
			fprintf(f, "-%u", c);
		any = true;
		c++;
	}
	if (!any)
		fprintf(f, "-");
}

static void put_rec(FILE *f, const struct part *p, const struct trec *r,
		    const char *eol)
{
	uint32_t i;

	fprintf(f, "C %" PRIu64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " ",
		r->count, r->control, r->rdx, r->r8);
	if (r->has_xmm)
		for (i = 0; i < 12u; i++)
			fprintf(f, "%016" PRIx64 "%s", r->xmm[i], i < 11u ? "," : " ");
	else
		fprintf(f, "- ");
	if (r->mem_len)
		put_hex(f, r->mem, r->mem_len);
	else
		fprintf(f, "-");
	fprintf(f, " %04x ", r->status);
	if (r->vector < 0)
		fprintf(f, "-");
	else
		fprintf(f, "%02x", (unsigned int)r->vector);
	fprintf(f, " ");
	put_cpus(f, p, r->cpus);
	fprintf(f, "%s", eol);
}

static void write_dump(const char *path, const struct part *p,
		       const struct trec *rs, uint32_t n, const struct wopt *o)
{
	const char *eol = o->crlf ? "\r\n" : "\n";
	uint64_t calls = 0;
	uint32_t i, c;
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	if (o->noise)
		fprintf(f, "[    0.000000] Linux version 6.1.0 (hvipi)%s"
			"Calibrating delay loop... C 1 not a record%s"
			"P 3 not the partition either%s", eol, eol, eol);
	if (!o->no_header)
		fprintf(f, "# hv_testhv calls v1%s", eol);
	fprintf(f, "P %u", p->nr);
	for (c = 0; c < p->nr; c++)
		fprintf(f, " %u", p->vp[c]);
	fprintf(f, "%s", eol);
	if (o->noise)
		fprintf(f, "# %s: %u records%shv_testhv: a stray line%s",
			p->name, n, eol, eol);
	for (i = 0; i < n; i++) {
		put_rec(f, p, &rs[i], eol);
		calls += rs[i].count;
		if (o->noise && i == n / 2u)
			fprintf(f, "Cpu 3 went offline, said the other port%s", eol);
		if (o->raw && i == n / 2u)
			fprintf(f, "%s%s", o->raw, eol);
	}
	if (!o->no_e)
		fprintf(f, "E %" PRId64 " %" PRId64 " %" PRIu64 "%s",
			(int64_t)n + o->d_records, (int64_t)calls + o->d_calls,
			o->dropped, eol);
	if (o->line_after_e)
		put_rec(f, p, &rs[0], eol);
	if (o->noise)
		fprintf(f, "reboot: Power down%s", eol);
	fclose(f);
}

/* Run the tool on @dump with @opt (NULL or "--max-... N"); exit status. */
static int run_tool(const char *dump, const char *opt, const char *optval)
{
	char path[4096];
	pid_t pid;
	int st, fd;
	ssize_t got;

	snprintf(path, sizeof(path), "%s/last.out", dir);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		if (opt)
			execl(tool, tool, opt, optval, dump, (char *)NULL);
		else
			execl(tool, tool, dump, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	out[0] = '\0';
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		got = read(fd, out, sizeof(out) - 1);
		out[got > 0 ? got : 0] = '\0';
		close(fd);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The summary's value of @key, or -1. */
static int64_t summary(const char *key)
{
	char pat[64];
	const char *s;

	snprintf(pat, sizeof(pat), " %s=", key);
	s = strstr(out, pat);
	if (!s || s > strchr(out, '\n'))
		return -1;
	return strtoll(s + strlen(pat), NULL, 10);
}

/* ---- the checks ---- */

static void dump_path(char *path, size_t n, const char *name)
{
	snprintf(path, n, "%s/%s.txt", dir, name);
}

/* A dump of hvipi's calls: passes, with the generator's counts. */
static void check_good(const struct part *p, const struct wopt *o)
{
	char path[4096], why[512];
	uint64_t calls = 0, kinds[K_N] = { 0 }, allproc = 0, cont = 0;
	uint64_t hi_recs = 0, hi_calls = 0;
	uint32_t i, k;
	int rc;
	bool ok;

	for (i = 0; i < nrecs; i++) {
		calls += recs[i].count;
		kinds[recs[i].kind] += recs[i].count;
		allproc += recs[i].allproc ? recs[i].count : 0;
		cont += recs[i].continued ? recs[i].count : 0;
		hi_recs += recs[i].vp1024;
		hi_calls += recs[i].vp1024 ? recs[i].count : 0;
	}
	dump_path(path, sizeof(path), p->name);
	write_dump(path, p, recs, nrecs, o);
	rc = run_tool(path, NULL, NULL);
	ok = rc == 0 && summary("failures") == 0 &&
	     summary("records") == (int64_t)nrecs && summary("calls") == (int64_t)calls &&
	     summary("flush_all_processors") == (int64_t)allproc &&
	     summary("continued") == (int64_t)cont &&
	     summary("vp1024_records") == (int64_t)hi_recs &&
	     summary("vp1024_calls") == (int64_t)hi_calls &&
	     summary("rejected") == 0 && summary("other") == 0;
	for (k = 0; k < K_N; k++)
		ok = ok && summary(kind_key[k]) == (int64_t)kinds[k];
	snprintf(why, sizeof(why), "%s: hvipi's calls pass (%u records, %" PRIu64 " calls; fast %" PRIu64 ", sparse %" PRIu64 ", all %" PRIu64 ", xmm %" PRIu64 ", flush list %" PRIu64 " space %" PRIu64 " list Ex %" PRIu64 " space Ex %" PRIu64 ", all processors %" PRIu64 ", continued %" PRIu64 ", VP >= 1024 %" PRIu64 "/%" PRIu64 "), exit %d",
		 p->name, nrecs, calls, kinds[K_IPI_FAST], kinds[K_IPI_SPARSE],
		 kinds[K_IPI_ALL], kinds[K_IPI_XMM], kinds[K_FLUSH_LIST],
		 kinds[K_FLUSH_SPACE], kinds[K_FLUSH_LIST_EX],
		 kinds[K_FLUSH_SPACE_EX], allproc, cont, hi_recs, hi_calls, rc);
	check(ok, "%s", why);
	if (p->unheld)
		check(hi_recs > 0, "%s: some records reach CPUs whose VP is 1024 or more", p->name);
	if (cont) {
		char v[32];

		snprintf(v, sizeof(v), "%" PRIu64, cont);
		rc = run_tool(path, "--max-continued", v);
		check(rc == 0, "%s: --max-continued %s (as many as there are) passes", p->name, v);
		snprintf(v, sizeof(v), "%" PRIu64, cont - 1);
		rc = run_tool(path, "--max-continued", v);
		check(rc == 1 && strstr(out, "--max-continued"),
		      "%s: --max-continued %s (one fewer) fails, exit %d", p->name, v, rc);
	}
	if (hi_calls) {
		char v[32];

		snprintf(v, sizeof(v), "%" PRIu64, hi_calls);
		rc = run_tool(path, "--max-vp1024", v);
		check(rc == 0, "%s: --max-vp1024 %s passes", p->name, v);
		rc = run_tool(path, "--max-vp1024", "0");
		check(rc == 1 && strstr(out, "--max-vp1024"),
		      "%s: --max-vp1024 0 fails, exit %d", p->name, rc);
	}
}

/* The first record of @rs (n) that @pred accepts, or -1. */
static int find(const struct part *p, const struct trec *rs, uint32_t n,
		bool (*pred)(const struct part *, const struct trec *))
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (pred(p, &rs[i]))
			return (int)i;
	return -1;
}

/* A held CPU (VP < 1024) in / not in r's CPUs, or -1. */
static int held_cpu(const struct part *p, const struct trec *r, bool in)
{
	uint32_t c;

	for (c = 0; c < p->nr; c++)
		if (p->vp[c] < T_KVM_VPS && tbit(r->cpus, c) == in)
			return (int)c;
	return -1;
}

static bool is_ipi_rec(const struct trec *r)
{
	return r->kind <= K_IPI_XMM;
}

static bool p_ipi_with_held(const struct part *p, const struct trec *r)
{
	return is_ipi_rec(r) && !r->status && held_cpu(p, r, true) >= 0;
}

static bool p_ipi_missing_held(const struct part *p, const struct trec *r)
{
	return is_ipi_rec(r) && !r->status && r->vector >= 0 &&
	       held_cpu(p, r, false) >= 0;
}

static bool p_flush_with_held(const struct part *p, const struct trec *r)
{
	return !is_ipi_rec(r) && !r->status && held_cpu(p, r, true) >= 0;
}

static bool p_flush_missing_held(const struct part *p, const struct trec *r)
{
	return !is_ipi_rec(r) && !r->status && held_cpu(p, r, false) >= 0;
}

static bool p_sparse_page(const struct part *p, const struct trec *r)
{
	(void)p;
	return r->kind == K_IPI_SPARSE && !r->status;
}

static bool p_list_ex(const struct part *p, const struct trec *r)
{
	(void)p;
	return r->kind == K_FLUSH_LIST_EX && !r->status && !r->continued &&
	       ((r->control >> 17) & 0x3ffu) >= 1;
}

static bool p_list(const struct part *p, const struct trec *r)
{
	(void)p;
	return (r->kind == K_FLUSH_LIST || r->kind == K_FLUSH_LIST_EX) &&
	       !r->status && !r->continued;
}

static bool p_xmm(const struct part *p, const struct trec *r)
{
	(void)p;
	return r->kind == K_IPI_XMM && !r->status;
}

static bool p_any_ok(const struct part *p, const struct trec *r)
{
	(void)p;
	return !r->status;
}

/*
 * An IPI or flush record that names no VP of bank 16 and up and is not
 * "all": a CPU whose VP is 1024 or more added to it is named by nothing.
 */
static bool p_low_only(const struct part *p, const struct trec *r)
{
	return !r->status && !r->vp1024 && held_cpu(p, r, true) >= 0;
}

/*
 * Doctor record @idx of a copy of recs (or nothing when idx < 0 and no
 * record is needed), write it, run the tool: it must exit 1 and say @word.
 */
static void check_bad(const struct part *p, const char *name, const char *what,
		      int idx, void (*doctor)(const struct part *, struct trec *),
		      const struct wopt *o, const char *word, const char *opt,
		      const char *optval)
{
	char path[4096];
	int rc;

	if (doctor && idx < 0) {
		snprintf(out, sizeof(out), "(no record to doctor in %s)", p->name);
		check(false, "%s: %s: no record to doctor (seed)", name, what);
		return;
	}
	memcpy(work, recs, sizeof(recs[0]) * nrecs);
	if (doctor)
		doctor(p, &work[idx]);
	dump_path(path, sizeof(path), name);
	write_dump(path, p, work, nrecs, o);
	rc = run_tool(path, opt, optval);
	check(rc == 1 && strstr(out, word) != NULL && summary("failures") == 1,
	      "%s: %s: the tool fails (exit %d) with \"%s\", once", name, what, rc,
	      word);
}

static void d_drop_cpu(const struct part *p, struct trec *r)
{
	uint32_t c = (uint32_t)held_cpu(p, r, true);

	r->cpus[c / 64u] &= ~(1ull << (c % 64u));
}

static void d_add_cpu(const struct part *p, struct trec *r)
{
	tset(r->cpus, (uint32_t)held_cpu(p, r, false));
}

static void d_vector(const struct part *p, struct trec *r)
{
	(void)p;
	r->vector ^= 1;
}

static void d_varhdr_up(const struct part *p, struct trec *r)
{
	(void)p;
	r->control += 1ull << 17;
}

static void d_varhdr_down(const struct part *p, struct trec *r)
{
	(void)p;
	r->control -= 1ull << 17;
}

static void d_rep_start_at_count(const struct part *p, struct trec *r)
{
	(void)p;
	r->control |= (uint64_t)((r->control >> 32) & 0xfffu) << 48;
}

static void d_refused(const struct part *p, struct trec *r)
{
	(void)p;
	r->status = RX_ST_INVALID_INPUT;
	memset(r->cpus, 0, sizeof(r->cpus));
	r->vector = -1;
}

static void d_no_xmm(const struct part *p, struct trec *r)
{
	(void)p;
	r->has_xmm = 0;
}

static void d_add_unheld(const struct part *p, struct trec *r)
{
	uint32_t c;

	for (c = 0; c < p->nr; c++)
		if (p->vp[c] >= T_KVM_VPS) {
			tset(r->cpus, c);
			return;
		}
}

static void d_count0(const struct part *p, struct trec *r)
{
	(void)p;
	r->count = 0;
}

static void d_fast_with_mem(const struct part *p, struct trec *r)
{
	(void)p;
	r->control |= 1ull << 16;	/* a page call marked fast: mem stays */
}

static void doctored(const struct part *lo, const struct part *hi)
{
	/* lo: sparse-high-8 (Ex through the page); hi: sparse-high-16-xmm */
	static const struct wopt plain;
	struct wopt o;
	int64_t i;

	gen_part(lo, 300, 200);
	check_bad(lo, "bad-ipi-cpu-missing", "an IPI record's cpus one CPU short",
		  find(lo, recs, nrecs, p_ipi_with_held), d_drop_cpu, &plain,
		  "IPI: the platform reached", NULL, NULL);
	check_bad(lo, "bad-ipi-cpu-extra", "an IPI record's cpus one CPU too many",
		  find(lo, recs, nrecs, p_ipi_missing_held), d_add_cpu, &plain,
		  "IPI: the platform reached", NULL, NULL);
	check_bad(lo, "bad-flush-cpu-missing", "a flush record's cpus one CPU short",
		  find(lo, recs, nrecs, p_flush_with_held), d_drop_cpu, &plain,
		  "flush: the platform reached", NULL, NULL);
	check_bad(lo, "bad-flush-cpu-extra", "a flush record's cpus one CPU too many",
		  find(lo, recs, nrecs, p_flush_missing_held), d_add_cpu, &plain,
		  "flush: the platform reached", NULL, NULL);
	check_bad(lo, "bad-vector", "an IPI record's vector wrong",
		  find(lo, recs, nrecs, p_ipi_with_held), d_vector, &plain,
		  "vector", NULL, NULL);
	check_bad(lo, "bad-varhdr-up", "an Ex IPI's var_hdr one too many, recorded as success",
		  find(lo, recs, nrecs, p_sparse_page), d_varhdr_up, &plain,
		  "status: the platform returned 0000, KVM 0003", NULL, NULL);
	check_bad(lo, "bad-varhdr-down", "a List Ex flush's var_hdr one too few, recorded as success",
		  find(lo, recs, nrecs, p_list_ex), d_varhdr_down, &plain,
		  "status: the platform returned 0000, KVM 0003", NULL, NULL);
	check_bad(lo, "bad-rep-start", "a List flush's rep start at its rep count, recorded as success",
		  find(lo, recs, nrecs, p_list), d_rep_start_at_count, &plain,
		  "status: the platform returned 0000, KVM 0003", NULL, NULL);
	check_bad(lo, "bad-refused", "a good call recorded as refused (0003)",
		  find(lo, recs, nrecs, p_any_ok), d_refused, &plain,
		  "status: the platform returned 0003, KVM 0000", NULL, NULL);
	check_bad(lo, "bad-count0", "a record with count 0",
		  0, d_count0, &plain, "malformed record", NULL, NULL);
	check_bad(lo, "bad-fast-mem", "a fast call with input bytes",
		  find(lo, recs, nrecs, p_sparse_page), d_fast_with_mem, &plain,
		  "malformed record", NULL, NULL);

	o = plain;
	o.dropped = 3;
	check_bad(lo, "bad-e-dropped", "an E line with 3 calls dropped", -1, NULL, &o,
		  "dropped", NULL, NULL);
	o = plain;
	o.no_e = true;
	check_bad(lo, "bad-e-missing", "no E line", -1, NULL, &o, "no E line", NULL, NULL);
	o = plain;
	o.d_records = 1;
	check_bad(lo, "bad-e-records", "an E line with one record more", -1, NULL, &o,
		  "E: ", NULL, NULL);
	o = plain;
	o.d_calls = -1;
	check_bad(lo, "bad-e-calls", "an E line with one call fewer", -1, NULL, &o,
		  "E: ", NULL, NULL);
	o = plain;
	o.line_after_e = true;
	check_bad(lo, "bad-after-e", "a record after the E line", -1, NULL, &o,
		  "after the E line", NULL, NULL);
	o = plain;
	o.no_header = true;
	check_bad(lo, "bad-no-header", "no header", -1, NULL, &o, "no \"# hv_testhv calls v1\" header",
		  NULL, NULL);
	o = plain;
	o.raw = "C 1 000000000001000b 0000000000000030";
	o.d_records = 1;	/* the guest counted it */
	o.d_calls = 1;
	check_bad(lo, "bad-short-record", "a record cut short", -1, NULL, &o,
		  "malformed record", NULL, NULL);

	gen_part(hi, 300, 200);
	check_bad(hi, "bad-xmm-missing", "an XMM-fast IPI recorded without its registers",
		  find(hi, recs, nrecs, p_xmm), d_no_xmm, &plain,
		  "KVM raised #UD", NULL, NULL);
	check_bad(hi, "bad-unheld-cpu", "a CPU with VP >= 1024 added to a record that does not name it",
		  find(hi, recs, nrecs, p_low_only), d_add_unheld, &plain,
		  "which the call does not name", NULL, NULL);
	i = find(hi, recs, nrecs, p_ipi_with_held);
	check_bad(hi, "bad-ipi-cpu-missing-hi", "an IPI record's cpus one CPU short (partition with VPs >= 1024)",
		  (int)i, d_drop_cpu, &plain, "IPI: the platform reached", NULL, NULL);
}

int main(int argc, char **argv)
{
	static struct part parts[] = {
		{ .name = "identity-4", .nr = 4 },
		{ .name = "permuted-8", .nr = 8 },
		{ .name = "strided-12", .nr = 12 },
		{ .name = "sparse-high-8", .nr = 8 },
		{ .name = "sparse-high-16-xmm", .nr = 16, .xmm = true },
		{ .name = "sparse-high-64-xmm", .nr = 64, .xmm = true },
		{ .name = "sparse-high-40", .nr = 40 },
	};
	uint64_t seed = 0x7e57;
	struct wopt o;
	uint32_t i, c;
	struct timespec t0, t1;

	if (argc != 3) {
		fprintf(stderr, "usage: kvm_replay_test KVM_REPLAY DIR\n");
		return 2;
	}
	tool = argv[1];
	dir = argv[2];
	if (mkdir(dir, 0755) && errno != EEXIST) {
		perror(dir);
		return 2;
	}
	gen_arg(0, argv, 0, "HVIPI_SEED", &seed);
	gen_state = seed;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	printf("kvm_replay_test: seed %#" PRIx64 " (rerun: HVIPI_SEED=%#" PRIx64 "), dumps in %s\n",
	       seed, seed, dir);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct part *p = &parts[i];

		for (c = 0; c < p->nr; c++)
			p->vp[c] = !strncmp(p->name, "identity", 8) ? c :
				   !strncmp(p->name, "permuted", 8) ? p->nr - 1 - c :
				   !strncmp(p->name, "strided", 7) ? 83u * c :
				   64u + (67u * c) % 4032u;
		part_init(p);
	}
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		memset(&o, 0, sizeof(o));
		o.crlf = i % 2u == 1u;
		o.noise = i % 3u != 2u;
		gen_part(&parts[i], 400, 300);
		check_good(&parts[i], &o);
	}
	doctored(&parts[3], &parts[4]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("kvm_replay_test: %" PRIu64 " checks passed, %" PRIu64 " failed, %.1f s\n",
	       passed, failed, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	ck_write_counts(passed, failed);
	return failed ? 1 : 0;
}
