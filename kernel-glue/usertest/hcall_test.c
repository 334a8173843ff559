// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcall_test.c - the kernel glue's hypercall asm (../hvipi_hcall.h), built
 * in userspace and called against a recording "hypercall page"
 * (recorder.S) that trashes every register the ABI lets it.
 *
 * Checks: the recorded rcx/rdx/r8/xmm0..5 are the inputs; rax comes back
 * as the status; a store made just before the call is visible to the
 * callee ("memory"); values the caller holds in registers across the call
 * survive (the clobber lists are complete).  Built at -O0 and -O2; at -O2
 * two deliberately broken copies of the asm (a missing r9-r11 clobber, a
 * missing xmm clobber) are run as negative controls, to show the survival
 * check can see a short clobber list.
 */
#include <stdio.h>
#include <string.h>

#include "shim.h"
#include "../hvipi_hcall.h"

struct urec {
	u64 rcx, rdx, r8;
	u64 xmm[HVIPI_XMM_WORDS];
	u64 calls;
	u64 status;
	u64 pub;
};

struct urec hvipi_urec;
u64 hvipi_upub;
void hvipi_rec_hcall(void);
void hvipi_rec_hcall_xmm(void);

_Static_assert(__builtin_offsetof(struct urec, calls) == 120, "layout");
_Static_assert(__builtin_offsetof(struct urec, pub) == 136, "layout");

static unsigned int passed, failed;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			passed++;					\
		} else {						\
			failed++;					\
			printf("asm-test: FAIL %s:%d: ", __func__, __LINE__); \
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

/* Values the compiler must keep somewhere across the call. */
static volatile u64 seed[16] = {
	0x1001, 0x2002, 0x3003, 0x4004, 0x5005, 0x6006, 0x7007, 0x8008,
	0x9009, 0xa00a, 0xb00b, 0xc00c, 0xd00d, 0xe00e, 0xf00f, 0x1111,
};

static volatile double dseed[8] = {
	1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5,
};

#define LIVE_DECL							\
	u64 l0 = seed[0], l1 = seed[1], l2 = seed[2], l3 = seed[3];	\
	u64 l4 = seed[4], l5 = seed[5], l6 = seed[6], l7 = seed[7];	\
	u64 l8 = seed[8], l9 = seed[9], l10 = seed[10], l11 = seed[11]; \
	u64 l12 = seed[12], l13 = seed[13];				\
	double d0 = dseed[0], d1 = dseed[1]; \
	double d2 = dseed[2], d3 = dseed[3]; \
	double d4 = dseed[4], d5 = dseed[5]; \
	double d6 = dseed[6], d7 = dseed[7]

/* How many live values were lost (0 when the clobber list is right). */
#define LIVE_LOST							\
	((l0 != seed[0]) + (l1 != seed[1]) + (l2 != seed[2]) +		\
	 (l3 != seed[3]) + (l4 != seed[4]) + (l5 != seed[5]) +		\
	 (l6 != seed[6]) + (l7 != seed[7]) + (l8 != seed[8]) +		\
	 (l9 != seed[9]) + (l10 != seed[10]) + (l11 != seed[11]) +	\
	 (l12 != seed[12]) + (l13 != seed[13]) +			\
	 (d0 != dseed[0]) + (d1 != dseed[1]) + \
	 (d2 != dseed[2]) + (d3 != dseed[3]) + \
	 (d4 != dseed[4]) + (d5 != dseed[5]) + \
	 (d6 != dseed[6]) + (d7 != dseed[7]))

static void reset(u64 status)
{
	memset(&hvipi_urec, 0, sizeof(hvipi_urec));
	hvipi_urec.status = status;
}

__attribute__((noinline)) static void test_fast(u64 ctl, u64 a, u64 b, u64 st)
{
	LIVE_DECL;
	u64 ret;

	reset(st);
	hvipi_upub = ctl ^ 0x55;
	ret = hvipi_hcall_fast((void *)hvipi_rec_hcall, ctl, a, b);
	CHECK(ret == st, "fast: status %#llx want %#llx",
	      (unsigned long long)ret, (unsigned long long)st);
	CHECK(hvipi_urec.rcx == ctl && hvipi_urec.rdx == a &&
	      hvipi_urec.r8 == b && hvipi_urec.calls == 1,
	      "fast: recorded rcx/rdx/r8");
	CHECK(hvipi_urec.pub == (ctl ^ 0x55), "fast: store before the call not seen");
	CHECK(LIVE_LOST == 0, "fast: %d live values lost", LIVE_LOST);
}

__attribute__((noinline)) static void test_mem(u64 ctl, u64 gpa, u64 st)
{
	LIVE_DECL;
	u64 ret;

	reset(st);
	hvipi_upub = gpa + 1;
	ret = hvipi_hcall_mem((void *)hvipi_rec_hcall, ctl, gpa);
	CHECK(ret == st, "mem: status");
	CHECK(hvipi_urec.rcx == ctl && hvipi_urec.rdx == gpa &&
	      hvipi_urec.r8 == 0 && hvipi_urec.calls == 1,
	      "mem: recorded rcx/rdx/r8 (r8 must be 0)");
	CHECK(hvipi_urec.pub == gpa + 1, "mem: store before the call not seen");
	CHECK(LIVE_LOST == 0, "mem: %d live values lost", LIVE_LOST);
}

__attribute__((noinline)) static void test_xmm(u64 ctl, u64 a, u64 b, u64 st,
					      unsigned int skew)
{
	unsigned char raw[8 * HVIPI_XMM_WORDS + 8];
	u64 words[HVIPI_XMM_WORDS];
	unsigned int i;
	LIVE_DECL;
	u64 ret;

	for (i = 0; i < HVIPI_XMM_WORDS; i++)
		words[i] = 0x0101010101010101ull * (i + 1) + seed[i];
	/* any alignment: movdqu */
	memcpy(raw + skew, words, sizeof(words));
	reset(st);
	hvipi_upub = a;
	ret = hvipi_hcall_xmm((void *)hvipi_rec_hcall_xmm, ctl, a, b,
			      (const u64 *)(void *)(raw + skew));
	CHECK(ret == st, "xmm: status");
	CHECK(hvipi_urec.rcx == ctl && hvipi_urec.rdx == a &&
	      hvipi_urec.r8 == b && hvipi_urec.calls == 1,
	      "xmm: recorded rcx/rdx/r8");
	for (i = 0; i < HVIPI_XMM_WORDS; i++)
		CHECK(hvipi_urec.xmm[i] == words[i], "xmm: word %u", i);
	CHECK(hvipi_urec.pub == a, "xmm: store before the call not seen");
	CHECK(LIVE_LOST == 0, "xmm: %d live values lost", LIVE_LOST);
}

#ifdef __OPTIMIZE__
/* Negative controls: the same calls with short clobber lists. */
__attribute__((noinline)) static int broken_fast_lost(void)
{
	register u64 r8_in asm("r8") = 2;
	u64 status, control = 0x1000b, in1 = 0xfe;
	LIVE_DECL;

	asm volatile(CALL_NOSPEC
		     : "=a" (status), ASM_CALL_CONSTRAINT,
		       "+c" (control), "+d" (in1), "+r" (r8_in)
		     : THUNK_TARGET((void *)hvipi_rec_hcall)
		     : "cc", "memory");		/* r9, r10, r11 missing */
	(void)status;
	return LIVE_LOST;
}

__attribute__((noinline)) static int broken_xmm_lost(void)
{
	register u64 r8_in asm("r8") = 0;
	u64 status, control = 0x10015, in1 = 0xfe;
	static const u64 w[HVIPI_XMM_WORDS];
	LIVE_DECL;

	asm volatile("movdqu 0x00(%[xin]), %%xmm0\n\t"
		     CALL_NOSPEC
		     : "=a" (status), ASM_CALL_CONSTRAINT,
		       "+c" (control), "+d" (in1), "+r" (r8_in)
		     : THUNK_TARGET((void *)hvipi_rec_hcall_xmm), [xin] "r" (w)
		     : "cc", "memory", "r9", "r10", "r11"); /* xmm missing */
	(void)status;
	return LIVE_LOST;
}
#endif

int main(void)
{
	unsigned int skew;

	test_fast(0x1000b, 0xfe, 0x8000000000000001ull, 0);
	test_fast(0x1000b, 0x10, ~0ull, 3);
	test_mem(0x15 | (3ull << 17), 0x123456000ull, 0);
	test_mem(0x15, 0x7ffff000ull, 0x0000000100000005ull);
	for (skew = 0; skew < 8; skew += 3)
		test_xmm(0x10015 | (11ull << 17), 0xfd, 0, skew ? 0xe : 0, skew);

#ifdef __OPTIMIZE__
	{
		int lost_fast = broken_fast_lost();
		int lost_xmm = broken_xmm_lost();

		printf("asm-test: negative controls: missing r9-r11 clobber lost %d values, missing xmm clobber lost %d\n",
		       lost_fast, lost_xmm);
		CHECK(lost_fast > 0, "negative control: a missing r9-r11 clobber went unseen");
		CHECK(lost_xmm > 0, "negative control: a missing xmm clobber went unseen");
	}
#endif
	printf("asm-test: checks %u ok, %u failing\n", passed, failed);
	/* for the Makefile: "PASSED FAILED" */
	fprintf(stderr, "%u %u\n", passed, failed);
	return failed ? 1 : 0;
}
