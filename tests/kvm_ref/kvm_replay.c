/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kvm_replay [--max-vp1024 N] [--max-continued N] DUMP
 *
 * Replays the hypercalls a boot under the test-only Hyper-V platform
 * recorded (kernel-glue's hv_testhv, "# hv_testhv calls v1" dump, see
 * README.md) through Linux 6.1's own arch/x86/kvm/hyperv.c (kvmr_env.c),
 * and checks that KVM does with each what the platform did: so that the
 * boot's verdict does not rest on the project's own reading of the TLFS
 * (tests/receiver) alone.
 *
 * The VM: one vCPU per CPU of the dump's partition (its P line) whose VP
 * KVM 6.1 can hold, with that VP as its VP index (written through KVM's
 * HV_X64_MSR_VP_INDEX path), in CPU order.  KVM 6.1 cannot hold a VP of
 * 1024 or more at all: kvm_hv_set_msr_common() refuses such a VP index
 * (new_vp_index >= KVM_MAX_VCPUS), and a vCPU's own index, its VP index
 * at creation, is below KVM_MAX_VCPUS = 1024.  So a CPU whose VP is 1024
 * or more has no vCPU; see "beyond" below for what that leaves unchecked.
 *
 * Each record is issued once, on vCPU 0, with every hint in that vCPU's
 * CPUID (cluster IPI, Ex processor masks, remote TLB flush; XMM input
 * exactly when the record carries XMM registers) and CPUID enforcement on.
 * The sender is not recorded, and it does not matter for these calls in
 * KVM 6.1: kvm_hv_send_ipi() and kvm_hv_flush_tlb() use their vCPU only
 * for vcpu->kvm and lapic_in_kernel(); neither has an all-but-self: the
 * "all" set is every vCPU, the sender included (kvm_send_ipi_to_many()
 * with a NULL bitmap, kvm_make_all_cpus_request()), and a sparse set is
 * mapped to vCPUs by VP index alone (sparse_set_to_vcpu_mask()).  What
 * kvm_hv_hypercall() reads of the sender, its CPUID cache, is the same on
 * every vCPU here.  With every hint given, enforcement changes only one
 * outcome: a fast Ex call recorded without XMM registers raises #UD
 * instead of reading registers whose contents the dump does not hold.
 *
 * Checks, per record:
 *  - KVM's status (rax bits 15:0, or #UD) is success exactly when the
 *    platform's was; kvm_hv_hypercall() completed the call (rax written,
 *    instruction skipped) or raised #UD;
 *  - an IPI: the vCPUs KVM interrupts are exactly the CPUs of `cpus`,
 *    each once, fixed delivery mode, with `vector`; a success leaves rax 0;
 *  - a flush: the vCPUs KVM asks to flush (KVM_REQ_TLB_FLUSH_GUEST) are
 *    exactly the CPUs of `cpus`, each once; a success reports every rep
 *    of the control word's rep count completed;
 *  - any other call: nothing interrupted or flushed;
 *  - XMM registers read only for a record that carries them (and read
 *    when KVM accepts it); no guest memory read for a fast call;
 *  - no stub or "unexpected" mark of the shims reached.
 * The dump: a header, one P line before the records, the E line last,
 * with 0 calls dropped and the records and calls it counts those read.
 *
 * Continued list flushes: the platform (as Hyper-V may) sometimes
 * completes a List flush only in part, and the guest issues the call
 * again with the rep start index at the reps completed.  KVM 6.1 never
 * completes a call in part and refuses such a call (kvm_hv_hypercall():
 * rep_idx != 0 on a List call is HV_STATUS_INVALID_HYPERCALL_INPUT), so no
 * guest on it ever sends one.  A record with 0 < rep start < rep count
 * that the platform accepted and KVM refuses with exactly that status,
 * flushing nothing, is counted as "continued" and issued again with rep
 * start 0; that second issue is checked as above.  This changes nothing
 * else KVM decides: rep_idx is read only by that refusal for the List
 * calls (hc.rep, which it also feeds, is tested only for the other codes),
 * and kvm_hv_flush_tlb() never reads it.
 *
 * Beyond (VPs >= 1024): a record whose call KVM reads as "all" (Ex IPI
 * format all, a flush through kvm_make_all_cpus_request()), whose Ex set
 * KVM read has valid_bank_mask bits 16 and up (VPs 1024..4095; KVM reads
 * at most 16 banks and ignores those bits), or whose `cpus` name a CPU
 * without a vCPU, while the partition has CPUs without one, cannot be
 * checked whole: KVM 6.1 has no opinion on the CPUs it cannot hold.  Such
 * a record is checked as above on the vCPUs the VM has (`cpus` restricted
 * to them), and counted apart (vp1024_records, vp1024_calls), which the
 * caller can bound (--max-vp1024, in calls).  Remapping the VPs to
 * numbers below 1024 instead would change the calls themselves (the bank
 * words and valid_bank_mask encode the VP numbers), so it is not done.
 * One thing is checked of the CPUs without a vCPU: each such CPU in `cpus`
 * must be named by the call as KVM read it: an "all" call, or its VP's
 * bank in the valid_bank_mask KVM read.
 *
 * Output: one summary line, then the failures (the first 20, with their
 * record and what KVM did).  Exit 0 when nothing failed, 1 on a failure,
 * 2 on a usage or I/O error.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvmr.h"

#define RP_HEADER	"# hv_testhv calls v1"
#define RP_NR_MAX	65536u		/* nr_cpu_ids at most */
#define RP_PAGE		4096u		/* the input page */
#define RP_SHOWN	20u		/* failures printed */
#define RP_MSG		3072u
#define RP_NO_VCPU	0xffffffffu
#define RP_XMM_WORDS	12u
#define RP_XMM_POISON	0x5ca1ab1e0ddba11ull	/* XMM registers not recorded */

/* Call codes and control-word fields (TLFS). */
#define RP_SEND_IPI		0x000bu
#define RP_SEND_IPI_EX		0x0015u
#define RP_FLUSH_SPACE		0x0002u
#define RP_FLUSH_LIST		0x0003u
#define RP_FLUSH_SPACE_EX	0x0013u
#define RP_FLUSH_LIST_EX	0x0014u
#define RP_CTL_FAST		(1ull << 16)
#define RP_CTL_REP_CNT(c)	((uint32_t)((c) >> 32) & 0xfffu)
#define RP_CTL_REP_IDX(c)	((uint32_t)((c) >> 48) & 0xfffu)
#define RP_CTL_REP_IDX_MASK	(0xfffull << 48)
#define RP_RAX_REPS_MASK	(0xfffull << 32)

/* ---- the partition and the VM ---- */

static uint32_t nr;			/* nr_cpu_ids */
static uint32_t cpu_words;		/* 64-bit words of a CPU set */
static uint32_t *vp;			/* CPU -> VP */
static uint32_t *cpu_vcpu;		/* CPU -> vCPU, or RP_NO_VCPU */
static uint32_t nvcpu, unheld;		/* CPUs with / without a vCPU */
static uint32_t vm_vp[KVMR_MAX_VCPUS], vm_cpu[KVMR_MAX_VCPUS];
static bool have_p, vm_ok;

/* ---- one record ---- */

struct rec {
	unsigned long line;
	const char *text;
	uint64_t count, control, rdx, r8;
	bool has_xmm, has_mem;
	uint64_t xmm[RP_XMM_WORDS];
	uint8_t page[RP_PAGE];		/* the input page: mem, then zeros */
	size_t mem_len;
	uint16_t status;
	int vector;			/* -1: none recorded */
	uint64_t *cpus;			/* CPU set, cpu_words words */
};

/* ---- totals and failures ---- */

struct totals {
	uint64_t records, calls, ignored;
	uint64_t ipi_fast, ipi_ex_sparse, ipi_ex_all, ipi_xmm;
	uint64_t flush_list, flush_space, flush_list_ex, flush_space_ex;
	uint64_t flush_all_processors, rejected, other;
	uint64_t continued_records, continued_calls;
	uint64_t beyond_records, beyond_calls;
	uint64_t failures;
};

static struct totals tot;
static char shown[RP_SHOWN][RP_MSG];

static bool bit(const uint64_t *w, uint32_t b)
{
	return (w[b / 64u] >> (b % 64u)) & 1u;
}

static void set_bit(uint64_t *w, uint32_t b)
{
	w[b / 64u] |= 1ull << (b % 64u);
}

/* Append to @buf (size RP_MSG) what @fmt says, truncating. */
static void addf(char *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void addf(char *buf, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= RP_MSG)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, RP_MSG - n, fmt, ap);
	va_end(ap);
}

/* The CPUs of @set (a CPU set) as "0-3,7", or "-". */
static void add_cpus(char *buf, const uint64_t *set)
{
	uint32_t c = 0, first, shown_items = 0;
	bool any = false;

	while (c < nr) {
		if (!bit(set, c)) {
			c++;
			continue;
		}
		first = c;
		while (c + 1 < nr && bit(set, c + 1))
			c++;
		if (shown_items++ == 40) {
			addf(buf, ",...");
			return;
		}
		addf(buf, "%s%u", any ? "," : "", first);
		if (c > first)
			addf(buf, "-%u", c);
		any = true;
		c++;
	}
	if (!any)
		addf(buf, "-");
}

/* The CPUs of the vCPUs of @vset (KVMR_VCPU_WORDS words), as add_cpus(). */
static void add_vcpus(char *buf, const uint64_t *vset)
{
	uint64_t *set = calloc(cpu_words, 8);
	uint32_t i;

	if (!set) {
		addf(buf, "?");
		return;
	}
	for (i = 0; i < nvcpu; i++)
		if (bit(vset, i))
			set_bit(set, vm_cpu[i]);
	add_cpus(buf, set);
	free(set);
}

/*
 * One failure: counted; the first RP_SHOWN kept with the record's line
 * and, with @kr, what KVM did.
 */
static void failure(const struct rec *r, unsigned long line,
		    const struct kvmr_result *kr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void failure(const struct rec *r, unsigned long line,
		    const struct kvmr_result *kr, const char *fmt, ...)
{
	char *buf;
	size_t n;
	va_list ap;

	if (tot.failures++ >= RP_SHOWN)
		return;
	buf = shown[tot.failures - 1];
	buf[0] = '\0';
	if (line)
		snprintf(buf, RP_MSG, "FAIL line %lu: ", line);
	else
		snprintf(buf, RP_MSG, "FAIL: ");
	n = strlen(buf);
	va_start(ap, fmt);
	vsnprintf(buf + n, RP_MSG - n, fmt, ap);
	va_end(ap);
	if (r && r->text) {
		if (strlen(r->text) > 600)
			addf(buf, "\n  record: %.600s...", r->text);
		else
			addf(buf, "\n  record: %s", r->text);
	}
	if (kr) {
		if (kr->ud)
			addf(buf, "\n  KVM: #UD");
		else
			addf(buf, "\n  KVM: ret %d, rax %s%#" PRIx64,
			     kr->ret, kr->rax_written ? "" : "(not written) ",
			     kr->rax);
		addf(buf, ", interrupted ");
		add_vcpus(buf, kr->vcpus);
		if (kr->nr_irqs)
			addf(buf, " (%u interrupts, first vector %#x, %u twice, %u other vector or mode)",
			     kr->nr_irqs, kr->vector, kr->dup_irqs, kr->bad_irqs);
		addf(buf, ", flushed ");
		add_vcpus(buf, kr->flushed);
		if (kr->flush_calls)
			addf(buf, " (%u requests, %u for all, %u twice)",
			     kr->flush_calls, kr->flush_all, kr->flush_dup);
		addf(buf, ", XMM read %d, guest reads %u (faults %u)",
		     kr->xmm_read, kr->reads, kr->read_faults);
		if (kr->traces && kr->tr_ex)
			addf(buf, ", set read: format %#" PRIx64 " valid_bank_mask %#" PRIx64,
			     kr->tr_format, kr->tr_vbm);
		else if (kr->traces)
			addf(buf, ", set read: processor mask %#" PRIx64,
			     kr->tr_mask);
		if (kr->unexpected)
			addf(buf, ", shim reached: %s", kr->unexpected_what ?
			     kr->unexpected_what : "?");
	}
}

/* ---- parsing ---- */

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Exactly @digits hex digits (no 0x) in [s, s + digits). */
static bool hex_n(const char *s, size_t digits, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < digits; i++) {
		int h = hexval(s[i]);

		if (h < 0)
			return false;
		*v = (*v << 4) | (uint64_t)h;
	}
	return true;
}

static bool hex_tok(const char *tok, size_t digits, uint64_t *v)
{
	return strlen(tok) == digits && hex_n(tok, digits, v);
}

/* A decimal number that fits in 64 bits. */
static bool dec_tok(const char *tok, uint64_t *v)
{
	const char *s = tok;

	*v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' ||
		    *v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10u)
			return false;
		*v = *v * 10u + (uint64_t)(*s - '0');
	}
	return true;
}

/* "-" or "a,b-c,..." of CPUs below nr into @set (zeroed first). */
static const char *parse_cpus(char *tok, uint64_t *set)
{
	char *item, *save = NULL, *dash;
	uint64_t a, b, c;

	memset(set, 0, (size_t)cpu_words * 8u);
	if (!strcmp(tok, "-"))
		return NULL;
	for (item = strtok_r(tok, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (!dec_tok(item, &a) || (dash && !dec_tok(dash + 1, &b)))
			return "cpus: not a list of CPU numbers and ranges";
		if (!dash)
			b = a;
		if (a > b || b >= nr)
			return "cpus: a CPU at or beyond nr_cpu_ids, or a range backwards";
		for (c = a; c <= b; c++)
			set_bit(set, (uint32_t)c);
	}
	return NULL;
}

/* Split @line into at most @max tokens; returns how many (max + 1: more). */
static unsigned int split(char *line, char **tok, unsigned int max)
{
	unsigned int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		tok[n++] = t;
	}
	return n;
}

/* The C line's fields into @r; NULL or what is wrong. */
static const char *parse_c(char *line, struct rec *r)
{
	char *tok[11];
	uint64_t v;
	size_t len, i;
	unsigned int n = split(line, tok, 10);

	r->count = 0;
	if (n < 2 || !dec_tok(tok[1], &r->count) || r->count == 0) {
		r->count = 0;
		return "count: not a decimal number above 0";
	}
	if (n != 10)
		return "a record has 9 fields after its tag";
	if (!hex_tok(tok[2], 16, &r->control) || !hex_tok(tok[3], 16, &r->rdx) ||
	    !hex_tok(tok[4], 16, &r->r8))
		return "control, rdx, r8: 16 hex digits each";
	r->has_xmm = strcmp(tok[5], "-") != 0;
	if (r->has_xmm) {
		if (strlen(tok[5]) != RP_XMM_WORDS * 17u - 1u)
			return "xmm: 12 words of 16 hex digits joined by ','";
		for (i = 0; i < RP_XMM_WORDS; i++)
			if (!hex_n(tok[5] + 17u * i, 16, &r->xmm[i]) ||
			    (i + 1 < RP_XMM_WORDS && tok[5][17u * i + 16u] != ','))
				return "xmm: 12 words of 16 hex digits joined by ','";
		if (!(r->control & RP_CTL_FAST))
			return "xmm registers recorded for a call that is not fast";
	}
	memset(r->page, 0, sizeof(r->page));
	r->mem_len = 0;
	r->has_mem = strcmp(tok[6], "-") != 0;
	if (r->has_mem) {
		len = strlen(tok[6]);
		if (len % 2u || len / 2u > RP_PAGE)
			return "mem: an even number of hex digits, at most a page";
		for (i = 0; i < len / 2u; i++) {
			if (!hex_n(tok[6] + 2u * i, 2, &v))
				return "mem: not hex";
			r->page[i] = (uint8_t)v;
		}
		r->mem_len = len / 2u;
	}
	if (r->has_mem == !!(r->control & RP_CTL_FAST))
		return "mem: '-' exactly for a fast call";
	if (!hex_tok(tok[7], 4, &v))
		return "status: 4 hex digits";
	r->status = (uint16_t)v;
	r->vector = -1;
	if (strcmp(tok[8], "-")) {
		if (!hex_tok(tok[8], 2, &v))
			return "vector: 2 hex digits or '-'";
		r->vector = (int)v;
	}
	return parse_cpus(tok[9], r->cpus);
}

/* ---- the replay ---- */

static bool is_flush(uint32_t code)
{
	return code == RP_FLUSH_SPACE || code == RP_FLUSH_LIST ||
	       code == RP_FLUSH_SPACE_EX || code == RP_FLUSH_LIST_EX;
}

static bool is_ipi(uint32_t code)
{
	return code == RP_SEND_IPI || code == RP_SEND_IPI_EX;
}

static bool kvm_success(const struct kvmr_result *kr)
{
	return !kr->ud && kr->rax_written && (kr->rax & 0xffffu) == 0;
}

static void issue(const struct rec *r, uint64_t control, struct kvmr_result *kr)
{
	struct kvmr_call c;
	uint32_t i;

	memset(&c, 0, sizeof(c));
	c.vcpu = 0;
	c.cluster_ipi = c.ex_masks = c.remote_flush = true;
	c.xmm_input = r->has_xmm;
	c.enforce = true;
	c.rcx = control;
	c.rdx = r->rdx;
	c.r8 = r->r8;
	for (i = 0; i < RP_XMM_WORDS; i++)
		c.xmm[i] = r->has_xmm ? r->xmm[i] : RP_XMM_POISON + i;
	if (r->has_mem) {
		c.mem = r->page;
		c.mem_len = RP_PAGE;
		c.mem_gpa = r->rdx;
	}
	kvmr_hypercall(&c, r->vector < 0 ? 0u : (uint32_t)r->vector, kr);
}

static void count_kind(const struct rec *r, const struct kvmr_result *kr)
{
	uint32_t code = (uint32_t)(r->control & 0xffffu);
	uint64_t n = r->count;

	if (r->status) {
		tot.rejected += n;
		return;
	}
	switch (code) {
	case RP_SEND_IPI:
		tot.ipi_fast += n;
		break;
	case RP_SEND_IPI_EX:
		if (r->control & RP_CTL_FAST)
			tot.ipi_xmm += n;
		else if (kr->traces && kr->tr_ex && kr->tr_format == kvmr_format_all)
			tot.ipi_ex_all += n;
		else
			tot.ipi_ex_sparse += n;
		break;
	case RP_FLUSH_LIST:
		tot.flush_list += n;
		break;
	case RP_FLUSH_SPACE:
		tot.flush_space += n;
		break;
	case RP_FLUSH_LIST_EX:
		tot.flush_list_ex += n;
		break;
	case RP_FLUSH_SPACE_EX:
		tot.flush_space_ex += n;
		break;
	default:
		tot.other += n;
		break;
	}
	if (is_flush(code) && kr->flush_all)
		tot.flush_all_processors += n;
}

static void replay(const struct rec *r)
{
	static struct kvmr_result kr;
	uint64_t want[KVMR_VCPU_WORDS], miss[KVMR_VCPU_WORDS], extra[KVMR_VCPU_WORDS];
	uint32_t code = (uint32_t)(r->control & 0xffffu), c, i;
	uint32_t rep_cnt = RP_CTL_REP_CNT(r->control), rep_idx = RP_CTL_REP_IDX(r->control);
	bool plat_ok = r->status == 0, ipi = is_ipi(code), flush = is_flush(code);
	bool kvm_all = false, named_high, beyond = false, diff = false;
	const uint64_t *got;
	char why[RP_MSG];

	issue(r, r->control, &kr);
	/* a continued List flush: refused by KVM 6.1, then issued from rep 0 */
	if (plat_ok && (code == RP_FLUSH_LIST || code == RP_FLUSH_LIST_EX) &&
	    rep_idx > 0 && rep_idx < rep_cnt && !kr.ud && !kr.unexpected &&
	    kr.ret == 1 && kr.rax_written &&
	    kr.rax == kvmr_status_invalid_input && !kr.flush_calls &&
	    !kr.nr_irqs) {
		tot.continued_records++;
		tot.continued_calls += r->count;
		issue(r, r->control & ~RP_CTL_REP_IDX_MASK, &kr);
	}
	count_kind(r, &kr);

	if (kr.unexpected) {
		failure(r, r->line, &kr, "KVM reached %s, which the IPI and flush paths must not reach",
			kr.unexpected_what ? kr.unexpected_what : "a stub");
		return;
	}
	if (kr.ret != 1 || (!kr.ud && (!kr.rax_written || kr.skips != 1))) {
		failure(r, r->line, &kr, "kvm_hv_hypercall() did not complete the call (ret %d, rax %swritten, %u skips)",
			kr.ret, kr.rax_written ? "" : "not ", kr.skips);
		return;
	}
	if (plat_ok != kvm_success(&kr)) {
		if (kr.ud)
			failure(r, r->line, &kr, "status: the platform returned %04x, KVM raised #UD",
				r->status);
		else
			failure(r, r->line, &kr, "status: the platform returned %04x, KVM %04x",
				r->status, (unsigned int)(kr.rax & 0xffffu));
		return;
	}

	/* the CPUs without a vCPU: named by the call as KVM read it? */
	if (ipi)
		kvm_all = kr.traces && kr.tr_ex && kr.tr_format == kvmr_format_all;
	else if (flush)
		kvm_all = kr.flush_all != 0;
	named_high = kr.traces && kr.tr_ex && (kr.tr_vbm >> kvmr_sparse_banks) != 0;
	memset(want, 0, sizeof(want));
	for (c = 0; c < nr; c++) {
		if (!bit(r->cpus, c))
			continue;
		if (cpu_vcpu[c] != RP_NO_VCPU) {
			set_bit(want, cpu_vcpu[c]);
			continue;
		}
		beyond = true;
		if (!kvm_all && !(kr.traces && kr.tr_ex && vp[c] < 4096u &&
				  ((kr.tr_vbm >> (vp[c] / 64u)) & 1u))) {
			failure(r, r->line, &kr, "the platform reached CPU %u (VP %u, no vCPU in KVM 6.1), which the call does not name as KVM read it (not \"all\", bank %u not in its valid_bank_mask)",
				c, vp[c], vp[c] / 64u);
			return;
		}
	}
	if (unheld && (plat_ok || kvm_success(&kr)) && (kvm_all || named_high))
		beyond = true;
	if (beyond) {
		tot.beyond_records++;
		tot.beyond_calls += r->count;
	}

	/* what KVM reached against `cpus` (on the vCPUs the VM has) */
	got = ipi ? kr.vcpus : kr.flushed;
	for (i = 0; i < KVMR_VCPU_WORDS; i++) {
		miss[i] = want[i] & ~got[i];
		extra[i] = got[i] & ~want[i];
		diff |= miss[i] || extra[i];
	}
	if (diff && (ipi || flush)) {
		why[0] = '\0';
		addf(why, "%s: the platform reached CPUs ", ipi ? "IPI" : "flush");
		add_cpus(why, r->cpus);
		addf(why, ", KVM %s ", ipi ? "interrupted" : "asked to flush");
		add_vcpus(why, got);
		addf(why, " (missing ");
		add_vcpus(why, miss);
		addf(why, ", extra ");
		add_vcpus(why, extra);
		addf(why, ")%s", beyond ? "; compared on the CPUs with a vCPU only" : "");
		failure(r, r->line, &kr, "%s", why);
		return;
	}
	if (!ipi && kr.nr_irqs) {
		failure(r, r->line, &kr, "KVM interrupted vCPUs for a call that is no IPI");
		return;
	}
	if (!flush && kr.flush_calls) {
		failure(r, r->line, &kr, "KVM asked vCPUs to flush for a call that is no flush");
		return;
	}
	if (!ipi && !flush && diff) {
		failure(r, r->line, &kr, "the platform reached CPUs with a call that is neither IPI nor flush");
		return;
	}
	if (ipi && kr.nr_irqs && r->vector < 0) {
		failure(r, r->line, &kr, "IPI: KVM interrupted vCPUs, the record has no vector");
		return;
	}
	if (ipi && kr.bad_irqs) {
		failure(r, r->line, &kr, "IPI: %u of KVM's interrupts not in fixed mode with the record's vector %02x (the first has vector %#x)",
			kr.bad_irqs, (unsigned int)r->vector, kr.vector);
		return;
	}
	if (ipi && kr.dup_irqs) {
		failure(r, r->line, &kr, "IPI: KVM interrupted a vCPU twice");
		return;
	}
	if (flush && kr.flush_dup) {
		failure(r, r->line, &kr, "flush: KVM asked a vCPU twice");
		return;
	}
	if (kr.xmm_read && !r->has_xmm) {
		failure(r, r->line, &kr, "KVM read XMM registers for a call recorded without them (not XMM-fast)");
		return;
	}
	if (r->has_xmm && kvm_success(&kr) && !kr.xmm_read) {
		failure(r, r->line, &kr, "KVM accepted an XMM-fast call without reading the XMM registers");
		return;
	}
	if ((r->control & RP_CTL_FAST) && kr.reads) {
		failure(r, r->line, &kr, "KVM read guest memory for a fast call");
		return;
	}
	if (plat_ok && ipi && kr.rax != 0) {
		failure(r, r->line, &kr, "IPI: KVM's result is not 0 on success");
		return;
	}
	if (plat_ok && flush &&
	    kr.rax != ((uint64_t)rep_cnt << 32)) {
		failure(r, r->line, &kr, "flush: KVM reports %u reps completed (result %#" PRIx64 "), the call has %u",
			(unsigned int)((kr.rax & RP_RAX_REPS_MASK) >> 32), kr.rax, rep_cnt);
		return;
	}
}

/* ---- the P line: the partition, the VM ---- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static const char *parse_p(char *line)
{
	char *save = NULL, *t;
	uint32_t *sorted, c = 0;
	uint64_t v;

	t = strtok_r(line, " \t", &save);	/* "P" */
	t = strtok_r(NULL, " \t", &save);
	if (!t || !dec_tok(t, &v) || v == 0 || v > RP_NR_MAX)
		return "P: nr_cpu_ids, a decimal number 1..65536";
	nr = (uint32_t)v;
	cpu_words = (nr + 63u) / 64u;
	vp = calloc(nr, sizeof(*vp));
	cpu_vcpu = calloc(nr, sizeof(*cpu_vcpu));
	sorted = calloc(nr, sizeof(*sorted));
	if (!vp || !cpu_vcpu || !sorted) {
		free(sorted);
		return "out of memory";
	}
	while ((t = strtok_r(NULL, " \t", &save)) != NULL) {
		if (c == nr || !dec_tok(t, &v) || v > UINT32_MAX) {
			free(sorted);
			return "P: nr_cpu_ids decimal VPs after nr_cpu_ids";
		}
		vp[c] = sorted[c] = (uint32_t)v;
		c++;
	}
	if (c != nr) {
		free(sorted);
		return "P: fewer VPs than nr_cpu_ids";
	}
	qsort(sorted, nr, sizeof(*sorted), cmp_u32);
	for (c = 1; c < nr; c++)
		if (sorted[c] == sorted[c - 1]) {
			free(sorted);
			return "P: two CPUs with one VP";
		}
	free(sorted);
	for (c = 0; c < nr; c++) {
		cpu_vcpu[c] = RP_NO_VCPU;
		if (vp[c] >= KVMR_MAX_VCPUS) {
			unheld++;
			continue;
		}
		cpu_vcpu[c] = nvcpu;
		vm_vp[nvcpu] = vp[c];
		vm_cpu[nvcpu] = c;
		nvcpu++;
	}
	if (!nvcpu)
		return "P: no CPU has a VP below 1024: KVM 6.1 can hold none, nothing can be replayed";
	if (!kvmr_vm_set(nvcpu, vm_vp))
		return "P: KVM refused the VM (kvmr_vm_set)";
	vm_ok = true;
	return NULL;
}

/* ---- the dump ---- */

static void usage(void)
{
	fprintf(stderr, "usage: kvm_replay [--max-vp1024 CALLS] [--max-continued CALLS] DUMP\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *path = NULL, *err;
	uint64_t max_beyond = UINT64_MAX, max_continued = UINT64_MAX;
	uint64_t e_records = 0, e_calls = 0, e_dropped = 0;
	bool header = false, have_e = false;
	unsigned long line_no = 0, e_line = 0;
	char *line = NULL, *work = NULL, *tok[5];
	size_t cap = 0, len;
	struct rec *r;
	FILE *f;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max-vp1024") && i + 1 < argc) {
			if (!dec_tok(argv[++i], &max_beyond))
				usage();
		} else if (!strcmp(argv[i], "--max-continued") && i + 1 < argc) {
			if (!dec_tok(argv[++i], &max_continued))
				usage();
		} else if (argv[i][0] == '-' || path) {
			usage();
		} else {
			path = argv[i];
		}
	}
	if (!path)
		usage();
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 2;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return 2;

	while (getline(&line, &cap, f) != -1) {
		line_no++;
		len = strlen(line);
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
			       line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		if (!header) {
			header = !strcmp(line, RP_HEADER);
			continue;
		}
		if (line[0] == '#') {
			if (!strcmp(line, RP_HEADER))
				failure(NULL, line_no, NULL, "a second header: two dumps in one file");
			continue;
		}
		if (!strchr("PCE", line[0]) || !line[0] ||
		    (line[1] != ' ' && line[1] != '\t' && line[1] != '\0')) {
			tot.ignored++;
			continue;
		}
		free(work);
		work = strdup(line);
		if (!work)
			return 2;
		if (have_e) {
			failure(NULL, line_no, NULL, "a %c line after the E line", line[0]);
			continue;
		}
		switch (line[0]) {
		case 'P':
			if (have_p) {
				failure(NULL, line_no, NULL, "a second P line");
				break;
			}
			have_p = true;
			err = parse_p(work);
			if (err)
				failure(NULL, line_no, NULL, "%s", err);
			break;
		case 'C':
			tot.records++;
			if (!have_p) {
				failure(NULL, line_no, NULL, "a record before the P line");
				break;
			}
			if (!vm_ok)
				break;	/* the P line failed: nothing to replay on */
			free(r->cpus);
			r->cpus = calloc(cpu_words, 8);
			if (!r->cpus)
				return 2;
			r->line = line_no;
			r->text = line;
			err = parse_c(work, r);
			tot.calls += r->count;	/* (0 if it is not a count) */
			if (err) {
				failure(r, line_no, NULL, "malformed record: %s", err);
				break;
			}
			replay(r);
			break;
		default:	/* 'E' */
			have_e = true;
			e_line = line_no;
			if (split(work, tok, 4) != 4 || !dec_tok(tok[1], &e_records) ||
			    !dec_tok(tok[2], &e_calls) || !dec_tok(tok[3], &e_dropped))
				failure(NULL, line_no, NULL, "E: three decimal numbers: records, calls, dropped");
			break;
		}
	}
	if (ferror(f)) {
		perror(path);
		return 2;
	}
	fclose(f);

	if (!header)
		failure(NULL, 0, NULL, "no \"%s\" header: no dump in this file", RP_HEADER);
	else if (!have_p)
		failure(NULL, 0, NULL, "no P line (the partition)");
	if (header && !have_e) {
		failure(NULL, 0, NULL, "no E line: the dump is incomplete");
	} else if (have_e && vm_ok) {	/* (a failed P line left the records unread) */
		if (e_dropped)
			failure(NULL, e_line, NULL, "E: %" PRIu64 " calls dropped (the guest's table was full): the dump is incomplete",
				e_dropped);
		if (e_records != tot.records || e_calls != tot.calls)
			failure(NULL, e_line, NULL, "E: %" PRIu64 " records and %" PRIu64 " calls, read %" PRIu64 " and %" PRIu64,
				e_records, e_calls, tot.records, tot.calls);
	}
	if (tot.beyond_calls > max_beyond)
		failure(NULL, 0, NULL, "%" PRIu64 " calls reach VPs KVM 6.1 cannot hold (checked in part), more than --max-vp1024 %" PRIu64,
			tot.beyond_calls, max_beyond);
	if (tot.continued_calls > max_continued)
		failure(NULL, 0, NULL, "%" PRIu64 " continued List calls, more than --max-continued %" PRIu64,
			tot.continued_calls, max_continued);

	printf("kvm_replay: records=%" PRIu64 " calls=%" PRIu64
	       " ipi_fast=%" PRIu64 " ipi_ex_sparse=%" PRIu64 " ipi_ex_all=%" PRIu64
	       " ipi_xmm=%" PRIu64 " flush_list=%" PRIu64 " flush_space=%" PRIu64
	       " flush_list_ex=%" PRIu64 " flush_space_ex=%" PRIu64
	       " flush_all_processors=%" PRIu64 " rejected=%" PRIu64 " other=%" PRIu64
	       " continued=%" PRIu64 " vp1024_records=%" PRIu64 " vp1024_calls=%" PRIu64
	       " vcpus=%u/%u ignored_lines=%" PRIu64 " failures=%" PRIu64 "\n",
	       tot.records, tot.calls, tot.ipi_fast, tot.ipi_ex_sparse,
	       tot.ipi_ex_all, tot.ipi_xmm, tot.flush_list, tot.flush_space,
	       tot.flush_list_ex, tot.flush_space_ex, tot.flush_all_processors,
	       tot.rejected, tot.other, tot.continued_calls, tot.beyond_records,
	       tot.beyond_calls, nvcpu, nr, tot.ignored, tot.failures);
	for (i = 0; i < (int)RP_SHOWN && (uint64_t)i < tot.failures; i++)
		printf("%s\n", shown[i]);
	if (tot.failures > RP_SHOWN)
		printf("... and %" PRIu64 " more failures\n", tot.failures - RP_SHOWN);
	free(line);
	free(work);
	free(r->cpus);
	free(r);
	free(vp);
	free(cpu_vcpu);
	return tot.failures ? 1 : 0;
}
