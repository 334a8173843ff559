/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * bench_report: turn the bench's callgrind dumps and its meta file into the
 * table, build/bench.json and the target verdicts (see README.md).
 *
 *   bench_report --meta META --reps N --json OUT [--strict] DUMP...
 *
 * Each dump written by a CALLGRIND_DUMP_STATS_AT("bench:SIDE:NAME:CALLS")
 * client request carries that string in its "desc: Trigger: Client
 * Request:" line and the instructions counted since the previous zeroing
 * in its "summary:" line (Ir is the only event collected; "summary:" is
 * the sum of the costs in the dump, which callgrind_annotate shows.  The
 * "totals:" line of the first dump after a CALLGRIND_ZERO_STATS can be one
 * higher than that sum, an instruction attributed to no function).  The count per
 * call is the one-call dump; the N-call dump must be exactly N times it,
 * or the run is rejected as not deterministic.  Nothing is subtracted.
 *
 * Exit: 0, or 1 on a missing/inconsistent measurement, or 1 with --strict
 * when a target fails; 2 on a usage or I/O error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R_MAX		64
#define R_NAME		64
#define R_LINE		512

struct r_row {
	char name[R_NAME];
	char hv_call[R_NAME], lr_call[R_NAME];
	unsigned long hv_bytes, lr_bytes, nvps;
	int big_broadcast;
	/* [side][0]: one call, [side][1]: reps calls; -1 when missing */
	long long ir[2][2];
};

static struct r_row rows[R_MAX];
static int nrows;
static unsigned long reps;

static struct r_row *r_find(const char *name)
{
	int i;

	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

static int r_read_meta(const char *path)
{
	char line[R_LINE];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct r_row *r;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (nrows == R_MAX) {
			fprintf(stderr, "bench_report: too many workloads\n");
			fclose(f);
			return -1;
		}
		r = &rows[nrows];
		memset(r, 0, sizeof(*r));
		if (sscanf(line, "%63[^\t]\t%63[^\t]\t%lu\t%63[^\t]\t%lu\t%lu\t%d",
			   r->name, r->hv_call, &r->hv_bytes, r->lr_call,
			   &r->lr_bytes, &r->nvps, &r->big_broadcast) != 7) {
			fprintf(stderr, "bench_report: %s: bad line: %s", path, line);
			fclose(f);
			return -1;
		}
		r->ir[0][0] = r->ir[0][1] = r->ir[1][0] = r->ir[1][1] = -1;
		nrows++;
	}
	fclose(f);
	return 0;
}

/* One dump file: its trigger label and its total. */
static int r_read_dump(const char *path)
{
	static const char trig[] = "desc: Trigger: Client Request: bench:";
	char line[R_LINE], label[R_LINE] = "", side[R_NAME], name[R_NAME];
	long long total = -1;
	unsigned long calls;
	struct r_row *r;
	int s;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, trig, sizeof(trig) - 1)) {
			snprintf(label, sizeof(label), "%s", line + sizeof(trig) - 1);
			label[strcspn(label, "\n")] = 0;
		} else if (!strncmp(line, "summary:", 8)) {
			total = strtoll(line + 8, NULL, 10);
		}
	}
	fclose(f);
	if (!label[0])
		return 0;	/* not one of ours (e.g. the exit dump) */
	if (sscanf(label, "%63[^:]:%63[^:]:%lu", side, name, &calls) != 3 ||
	    total < 0) {
		fprintf(stderr, "bench_report: %s: cannot read label/summary\n", path);
		return -1;
	}
	r = r_find(name);
	if (!r) {
		fprintf(stderr, "bench_report: %s: workload %s not in the meta file\n",
			path, name);
		return -1;
	}
	s = !strcmp(side, "ref");
	if (!s && strcmp(side, "hvipi")) {
		fprintf(stderr, "bench_report: %s: unknown side %s\n", path, side);
		return -1;
	}
	if (calls == 1)
		r->ir[s][0] = total;
	else if (calls == reps)
		r->ir[s][1] = total;
	else {
		fprintf(stderr, "bench_report: %s: %lu calls, expected 1 or %lu\n",
			path, calls, reps);
		return -1;
	}
	return 0;
}

static double r_ratio(const struct r_row *r)
{
	return r->ir[1][0] ? (double)r->ir[0][0] / (double)r->ir[1][0] : 0.0;
}

int main(int argc, char **argv)
{
	const char *meta = NULL, *json = NULL;
	int a, i, bad = 0, strict = 0, any_fail = 0;
	int t1 = 1, t2 = 1, t3 = 1, n2 = 0, first;
	FILE *jf;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--meta") && a + 1 < argc)
			meta = argv[++a];
		else if (!strcmp(argv[a], "--json") && a + 1 < argc)
			json = argv[++a];
		else if (!strcmp(argv[a], "--reps") && a + 1 < argc)
			reps = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--strict"))
			strict = 1;
		else
			break;
	}
	if (!meta || !json || reps < 2 || a >= argc) {
		fprintf(stderr, "usage: bench_report --meta META --reps N(>=2) --json OUT [--strict] DUMP...\n");
		return 2;
	}
	if (r_read_meta(meta))
		return 2;
	for (; a < argc; a++)
		if (r_read_dump(argv[a]))
			return 2;

	for (i = 0; i < nrows; i++) {
		struct r_row *r = &rows[i];
		int s;

		for (s = 0; s < 2; s++) {
			const char *sn = s ? "ref" : "hvipi";

			if (r->ir[s][0] < 0 || r->ir[s][1] < 0) {
				fprintf(stderr, "bench_report: %s: %s: dump missing\n",
					r->name, sn);
				bad = 1;
			} else if (r->ir[s][1] != (long long)reps * r->ir[s][0]) {
				fprintf(stderr, "bench_report: %s: %s: %lld for 1 call but %lld for %lu: not deterministic\n",
					r->name, sn, r->ir[s][0], r->ir[s][1], reps);
				bad = 1;
			} else if (r->ir[s][0] == 0) {
				fprintf(stderr, "bench_report: %s: %s: 0 instructions: the toggle did not catch the call\n",
					r->name, sn);
				bad = 1;
			}
		}
	}
	if (bad)
		return 1;

	printf("\nInstructions per call: callgrind Ir, inclusive, entry point to return, one call\n"
	       "(a batch of %lu calls counted exactly %lu times as much).  Input bytes: fast call 16\n"
	       "(rdx + r8), Ex call the page bytes sent, XMM-fast Ex the register bytes the hypervisor\n"
	       "reads (rdx, r8, xmm0..: 24 + 8 per bank).  Both sides interrupt the same VPs on every row.\n\n",
	       reps, reps);
	printf("%-28s %10s %10s %7s %7s %7s  %-10s %-10s\n", "workload",
	       "hvipi_Ir", "ref_Ir", "ratio", "hv_B", "ref_B", "hv_call",
	       "ref_call");
	printf("%-28s %10s %10s %7s %7s %7s  %-10s %-10s\n",
	       "----------------------------", "----------", "----------",
	       "-------", "-------", "-------", "----------", "----------");
	for (i = 0; i < nrows; i++) {
		const struct r_row *r = &rows[i];

		printf("%-28s %10lld %10lld %7.3f %7lu %7lu  %-10s %-10s\n",
		       r->name, r->ir[0][0], r->ir[1][0], r_ratio(r),
		       r->hv_bytes, r->lr_bytes, r->hv_call, r->lr_call);
	}

	jf = fopen(json, "w");
	if (!jf) {
		perror(json);
		return 2;
	}
	fprintf(jf, "[\n");
	for (i = 0; i < nrows; i++) {
		const struct r_row *r = &rows[i];

		fprintf(jf, "  {\"workload\": \"%s\", \"hvipi_instructions\": %lld, "
			"\"reference_instructions\": %lld, "
			"\"hvipi_input_bytes\": %lu, \"reference_input_bytes\": %lu, "
			"\"hvipi_call\": \"%s\", \"reference_call\": \"%s\"}%s\n",
			r->name, r->ir[0][0], r->ir[1][0], r->hv_bytes,
			r->lr_bytes, r->hv_call, r->lr_call,
			i + 1 < nrows ? "," : "");
	}
	fprintf(jf, "]\n");
	if (fclose(jf)) {
		perror(json);
		return 2;
	}

	printf("\nTargets:\n");
	for (i = 0; i < nrows; i++) {
		const struct r_row *r = &rows[i];

		if (r_ratio(r) > 1.0)
			t1 = 0;
		if (r->big_broadcast) {
			n2++;
			if (r_ratio(r) > 0.25)
				t2 = 0;
		}
		if (r->hv_bytes > r->lr_bytes)
			t3 = 0;
	}
	if (n2 == 0)
		t2 = 0;	/* a target with no workload is not met */
	printf("  %s  ratio hvipi/reference <= 1.00 on every workload",
	       t1 ? "PASS" : "FAIL");
	if (!t1) {
		printf(" (over:");
		for (i = 0; i < nrows; i++)
			if (r_ratio(&rows[i]) > 1.0)
				printf(" %s %.3f", rows[i].name, r_ratio(&rows[i]));
		printf(")");
	}
	printf("\n  %s  ratio <= 0.25 on broadcasts to >= 1024 CPUs, identity map (",
	       t2 ? "PASS" : "FAIL");
	for (i = 0, first = 1; i < nrows; i++) {
		if (!rows[i].big_broadcast)
			continue;
		printf("%s%s %.3f", first ? "" : ", ", rows[i].name,
		       r_ratio(&rows[i]));
		first = 0;
	}
	printf(")\n  %s  hvipi input bytes <= reference input bytes on every workload",
	       t3 ? "PASS" : "FAIL");
	if (!t3) {
		printf(" (over:");
		for (i = 0; i < nrows; i++)
			if (rows[i].hv_bytes > rows[i].lr_bytes)
				printf(" %s %lu > %lu", rows[i].name,
				       rows[i].hv_bytes, rows[i].lr_bytes);
		printf(")");
	}
	printf("\n");
	any_fail = !t1 || !t2 || !t3;
	printf("\nbench: %s; wrote %s%s\n",
	       any_fail ? "targets not all met" : "all targets met", json,
	       any_fail ? (strict ? " (BENCH_STRICT=1: failing)" :
			   " (exit 0; BENCH_STRICT=1 makes this fail)") : "");
	return strict && any_fail ? 1 : 0;
}
