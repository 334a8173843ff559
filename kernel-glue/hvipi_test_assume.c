// SPDX-License-Identifier: GPL-2.0-only
/*
 * hvipi_test_assume.c - self-test: the checks by which the glue discharges
 * the core's assumptions (hvipi_assume.h): vp_injective on fake tables and
 * the MADT processor count on hand-built tables.
 */
#include <linux/acpi.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <asm/unaligned.h>

#include "hvipi_assume.h"
#include "hvipi_test.h"

/* ---- the assumptions the glue discharges (hvipi_assume.h) ---------------- */

#define VPI_N	64u

/*
 * vp_injective: hvipi_vp_injective() on fake tables of VPI_N entries; and
 * the self-test's own VP tables (nr_cpu_ids entries), which the glue tests
 * above hand to the core, must satisfy it too.
 */
void test_vp_injective_checker(void)
{
	unsigned long *seen = bitmap_zalloc(HVIPI_VP_LIMIT, GFP_KERNEL);
	u32 *t = kmalloc_array(VPI_N, sizeof(u32), GFP_KERNEL);
	u32 i, j, tmp, a, b, vp;
	bool ok;

	if (!seen || !t) {
		CHECK(0, "out of memory");
		goto out;
	}
#define VPI_OK(nr, what)						\
	CHECK(hvipi_vp_injective(t, nr, seen, &a, &b, &vp),		\
	      "%s: rejected (CPUs %u and %u, VP %u)", what, a, b, vp)
#define VPI_DUP(nr, what, wa, wb, wvp)					\
	do {								\
		a = b = vp = 0xdeadu;					\
		ok = hvipi_vp_injective(t, nr, seen, &a, &b, &vp);	\
		CHECK(!ok && a == (wa) && b == (wb) && vp == (wvp),	\
		      "%s: ok=%d CPUs %u, %u VP %u (want %u, %u VP %u)",	\
		      what, ok, a, b, vp, wa, wb, wvp);			\
	} while (0)

	for (i = 0; i < VPI_N; i++)
		t[i] = i;
	VPI_OK(VPI_N, "identity");
	VPI_OK(0, "empty table");
	for (i = 0; i < VPI_N; i++)
		t[i] = VPI_N - 1 - i;
	VPI_OK(VPI_N, "reversed");
	/* a random permutation of VPs scattered up to 4095 */
	for (i = 0; i < VPI_N; i++)
		t[i] = i == 0 ? 4095u : (i * 131u + 7u) % 4095u;
	for (i = VPI_N - 1; i > 0; i--) {
		j = prandom_u32_state(&hvipi_st.rnd) % (i + 1);
		tmp = t[i];
		t[i] = t[j];
		t[j] = tmp;
	}
	VPI_OK(VPI_N, "random permutation up to 4095");

	for (i = 0; i < VPI_N; i++)
		t[i] = i;
	t[40] = 7;
	VPI_DUP(VPI_N, "CPUs 7 and 40 share VP 7", 7u, 40u, 7u);
	/* the scratch bitmap is cleared by each call */
	VPI_OK(40, "duplicate beyond nr");
	t[40] = 40;
	VPI_OK(VPI_N, "identity after a rejected table");
	t[VPI_N - 1] = 0;
	VPI_DUP(VPI_N, "first and last CPU share VP 0", 0u, VPI_N - 1, 0u);
	t[VPI_N - 1] = VPI_N - 1;
	t[3] = 4095;
	t[50] = 4095;
	VPI_DUP(VPI_N, "two CPUs share VP 4095", 3u, 50u, 4095u);

	for (i = 0; i < VPI_N; i++)
		t[i] = i;
	t[5] = t[6] = t[9] = HVIPI_VP_INVAL;
	VPI_OK(VPI_N, "VP_INVAL repeated");
	t[10] = t[11] = 4096;
	t[12] = t[13] = 0xfffffffeu;
	t[14] = t[15] = 4096 + 7;	/* same low 12 bits as CPU 7's VP */
	VPI_OK(VPI_N, "VPs >= 4096 repeated");
	t[20] = 21;
	VPI_DUP(VPI_N, "duplicate among skipped entries", 20u, 21u, 21u);

	/* the glue tests' own tables satisfy the assumption */
	for (i = 0; i < T_N; i++)
		CHECK(hvipi_vp_injective(hvipi_st.table[i], nr_cpu_ids, seen,
					 &a, &b, &vp),
		      "self-test table %s: CPUs %u and %u share VP %u",
		      hvipi_table_name[i], a, b, vp);
#undef VPI_OK
#undef VPI_DUP
out:
	kfree(t);
	bitmap_free(seen);
}

#ifdef CONFIG_ACPI
/* Fake MADT builders: the byte layout of ACPI 6.x, little endian. */
#define MADT_HDR	44u	/* sizeof(struct acpi_table_madt) */
static_assert(sizeof(struct acpi_table_madt) == MADT_HDR);
static_assert(offsetof(struct acpi_madt_local_apic, lapic_flags) == 4);
static_assert(sizeof(struct acpi_madt_local_apic) == 8);
static_assert(offsetof(struct acpi_madt_local_x2apic, lapic_flags) == 8);
static_assert(sizeof(struct acpi_madt_local_x2apic) == 16);

static size_t madt_hdr(u8 *b, u8 rev)
{
	memset(b, 0, MADT_HDR);
	memcpy(b, ACPI_SIG_MADT, 4);
	b[8] = rev;
	return MADT_HDR;
}

static void madt_set_len(u8 *b, size_t len)
{
	put_unaligned_le32((u32)len, b + 4);
}

static size_t madt_lapic(u8 *b, size_t off, u8 id, u32 flags)
{
	b[off] = ACPI_MADT_TYPE_LOCAL_APIC;
	b[off + 1] = 8;
	b[off + 2] = id;
	b[off + 3] = id;
	put_unaligned_le32(flags, b + off + 4);
	return off + 8;
}

static size_t madt_x2apic(u8 *b, size_t off, u32 id, u32 flags)
{
	b[off] = ACPI_MADT_TYPE_LOCAL_X2APIC;
	b[off + 1] = 16;
	b[off + 2] = 0;
	b[off + 3] = 0;
	put_unaligned_le32(id, b + off + 4);
	put_unaligned_le32(flags, b + off + 8);
	put_unaligned_le32(id, b + off + 12);
	return off + 16;
}

/* Another subtable type, its body all ones (bit 0 set wherever read). */
static size_t madt_other(u8 *b, size_t off, u8 type, u8 len)
{
	b[off] = type;
	b[off + 1] = len;
	memset(b + off + 2, 0xff, len - 2);
	return off + len;
}

/* The mixed table of the first case; returns its length. */
static size_t madt_mixed(u8 *b, u8 rev)
{
	size_t off = madt_hdr(b, rev);

	off = madt_lapic(b, off, 0, ACPI_MADT_ENABLED);
	off = madt_lapic(b, off, 1, ACPI_MADT_ENABLED);
	off = madt_lapic(b, off, 2, 0);					/* disabled */
	off = madt_other(b, off, ACPI_MADT_TYPE_IO_APIC, 12);
	off = madt_x2apic(b, off, 300, ACPI_MADT_ENABLED);
	off = madt_x2apic(b, off, 301, 0);				/* disabled */
	off = madt_lapic(b, off, 3, ACPI_MADT_ONLINE_CAPABLE);
	off = madt_x2apic(b, off, 302, ACPI_MADT_ONLINE_CAPABLE);
	off = madt_lapic(b, off, 4, ACPI_MADT_ENABLED | ACPI_MADT_ONLINE_CAPABLE);
	off = madt_other(b, off, ACPI_MADT_TYPE_LOCAL_APIC_NMI, 6);
	madt_set_len(b, off);
	return off;
}

#define MADT_BUF	512u

/* hvipi_madt_count() on hand-built MADT byte buffers. */
void test_madt_count_fake_tables(void)
{
	u8 *buf = kzalloc(MADT_BUF, GFP_KERNEL);
	struct hvipi_madt_cpus c;
	size_t len, off, last;
	int rc;

	if (!buf) {
		CHECK(0, "out of memory");
		return;
	}
#define MADT_WANT(b, l, what, wrc, we, wo, wd)				\
	do {								\
		rc = hvipi_madt_count(b, l, &c);			\
		CHECK(rc == (wrc) && c.enabled == (we) &&		\
		      c.online_capable == (wo) && c.disabled == (wd),	\
		      "%s: rc %d enabled %u online-capable %u disabled %u (want %d %u %u %u)", \
		      what, rc, c.enabled, c.online_capable, c.disabled, \
		      wrc, we, wo, wd);					\
	} while (0)

	/* LAPIC/x2APIC enabled, disabled, online capable; other types */
	len = madt_mixed(buf, 5);
	MADT_WANT(buf, len, "mixed, rev 5", 0, 4u, 2u, 2u);
	/* bit 1 is reserved before revision 5: ignored */
	len = madt_mixed(buf, 4);
	MADT_WANT(buf, len, "mixed, rev 4", 0, 4u, 0u, 4u);
	/* the same at an odd address: unaligned fields */
	memmove(buf + 1, buf, len);
	MADT_WANT(buf + 1, len, "mixed, rev 4, unaligned", 0, 4u, 0u, 4u);

	/* no subtables */
	len = madt_hdr(buf, 5);
	madt_set_len(buf, len);
	MADT_WANT(buf, len, "header only", 0, 0u, 0u, 0u);
	MADT_WANT(buf, len - 1, "buffer shorter than the MADT header", -EINVAL,
		  0u, 0u, 0u);
	madt_set_len(buf, len - 4);
	MADT_WANT(buf, len, "length field shorter than the MADT header",
		  -EINVAL, 0u, 0u, 0u);

	/* the length field says more than the buffer holds */
	len = madt_mixed(buf, 5);
	MADT_WANT(buf, len - 1, "table longer than the buffer", -EINVAL,
		  0u, 0u, 0u);

	/* an enabled entry after the length field's end is not read */
	off = madt_hdr(buf, 5);
	off = madt_lapic(buf, off, 0, ACPI_MADT_ENABLED);
	madt_set_len(buf, off);
	len = madt_lapic(buf, off, 1, ACPI_MADT_ENABLED);
	MADT_WANT(buf, len, "entry past the length field", 0, 1u, 0u, 0u);

	/* a truncated x2APIC entry: the table ends 8 bytes into it */
	off = madt_hdr(buf, 5);
	off = madt_lapic(buf, off, 0, ACPI_MADT_ENABLED);
	last = off;
	off = madt_x2apic(buf, off, 1, ACPI_MADT_ENABLED);
	madt_set_len(buf, last + 8);
	MADT_WANT(buf, MADT_BUF, "truncated x2APIC entry", -EINVAL, 1u, 0u, 0u);
	/* one byte of a subtable header left */
	madt_set_len(buf, last + 1);
	MADT_WANT(buf, MADT_BUF, "truncated subtable header", -EINVAL,
		  1u, 0u, 0u);

	/* zero-length and length-1 subtables stop the walk */
	off = madt_hdr(buf, 5);
	off = madt_lapic(buf, off, 0, ACPI_MADT_ENABLED);
	off = madt_lapic(buf, off, 1, ACPI_MADT_ENABLED);
	last = off;
	off = madt_lapic(buf, off, 2, ACPI_MADT_ENABLED);
	off = madt_lapic(buf, off, 3, ACPI_MADT_ENABLED);
	madt_set_len(buf, off);
	MADT_WANT(buf, off, "four enabled LAPICs", 0, 4u, 0u, 0u);
	buf[last + 1] = 0;
	MADT_WANT(buf, off, "zero-length subtable", -EINVAL, 2u, 0u, 0u);
	buf[last + 1] = 1;
	MADT_WANT(buf, off, "length-1 subtable", -EINVAL, 2u, 0u, 0u);
	/* a LAPIC entry shorter than struct acpi_madt_local_apic */
	buf[last + 1] = 4;
	MADT_WANT(buf, off, "4-byte LAPIC entry", -EINVAL, 2u, 0u, 0u);
	/* a subtable whose length runs past the table's end */
	buf[last + 1] = 200;
	MADT_WANT(buf, off, "subtable past the end", -EINVAL, 2u, 0u, 0u);
	/* an x2APIC entry shorter than its structure */
	off = madt_hdr(buf, 5);
	off = madt_x2apic(buf, off, 0, ACPI_MADT_ENABLED);
	last = off;
	off = madt_x2apic(buf, off, 1, ACPI_MADT_ENABLED);
	madt_set_len(buf, off);
	buf[last + 1] = 8;
	MADT_WANT(buf, off, "8-byte x2APIC entry", -EINVAL, 1u, 0u, 0u);
#undef MADT_WANT
	kfree(buf);
}
#else
static void test_madt_count_fake_tables(void)
{
	hvipi_st.skip = "no CONFIG_ACPI";
}
#endif
