/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvipi_assume.h - checks by which the glue discharges two assumptions of
 * hvipi_plan_mask() (src/hvipi.h), shared by the module (hvipi_switch.c) and
 * the in-tree drop-in (intree/hv_ipi_hvipi.c):
 *
 * vp_injective(vp_index, nr): no two CPUs below nr share a VP below 4096.
 *   The core's guarantees are about VPs; "no CPU outside the target set is
 *   interrupted" needs each VP to belong to one CPU.  hvipi_vp_injective()
 *   checks the entries known when it runs; HVIPI_VP_INVAL entries (VP not
 *   known yet) and entries >= HVIPI_VP_LIMIT (the core never sends those)
 *   are skipped.  Entries written later (hv_cpu_init() on a CPU coming up)
 *   are trusted to be distinct: Hyper-V gives each VP its own index.
 *
 * present_partition: a non-NULL present mask lets the core use the Ex
 *   "all" format (HV_GENERIC_SET_ALL), which interrupts every VP of the
 *   partition; that equals the present CPUs only if the kernel brought up
 *   every processor the partition has.  hvipi_partition_blocker() returns
 *   NULL only when num_present_cpus() == num_possible_cpus() == nr_cpu_ids
 *   and the ACPI MADT lists exactly num_present_cpus() enabled processors
 *   and no online-capable ones (see hvipi_madt_count()).  Otherwise the
 *   glue passes present = NULL: the core then never plans "all" (a sparse
 *   set instead; always correct).
 *
 * Both are pure functions of their arguments (plus the CPU counts and the
 * ACPI table in hvipi_partition_blocker()), so the self-test runs them on
 * fake tables.
 */
#ifndef HVIPI_ASSUME_H
#define HVIPI_ASSUME_H

#include <linux/acpi.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <asm/unaligned.h>

#include "hvipi.h"

/*
 * vp_injective for the entries known now.  @seen is caller-provided scratch
 * of HVIPI_VP_LIMIT bits (not on the stack: 512 bytes); it is cleared here.
 * Returns true when no two CPUs below @nr share a VP below HVIPI_VP_LIMIT;
 * otherwise false, with *@cpu_a < *@cpu_b two CPUs that share VP *@vp.
 */
static inline bool hvipi_vp_injective(const u32 *vp_index, u32 nr,
				      unsigned long *seen, u32 *cpu_a,
				      u32 *cpu_b, u32 *vp)
{
	u32 cpu, other, v;

	bitmap_zero(seen, HVIPI_VP_LIMIT);
	for (cpu = 0; cpu < nr; cpu++) {
		v = READ_ONCE(vp_index[cpu]);
		/* HVIPI_VP_INVAL (not known yet) is >= HVIPI_VP_LIMIT too */
		if (v >= HVIPI_VP_LIMIT)
			continue;
		if (!__test_and_set_bit(v, seen))
			continue;
		for (other = 0; other < cpu; other++)
			if (READ_ONCE(vp_index[other]) == v)
				break;
		*cpu_a = other;
		*cpu_b = cpu;
		*vp = v;
		return false;
	}
	return true;
}

/* Processor entries of an ACPI MADT, by their flags. */
struct hvipi_madt_cpus {
	u32 enabled;		/* flags bit 0: a processor in use now */
	u32 online_capable;	/* bit 0 clear, bit 1 set (MADT rev >= 5) */
	u32 disabled;		/* neither: not usable */
	bool read;		/* hvipi_partition_blocker(): MADT walked */
};

#ifdef CONFIG_ACPI
/*
 * Count the Local APIC (type 0) and Local x2APIC (type 9) entries of the
 * MADT in @buf, of which @len bytes may be read; the walk covers the
 * header's length field, which must be within @len.  Subtables are walked
 * by their length fields from the end of struct acpi_table_madt.  Returns
 * 0, or -EINVAL on a malformed table (shorter than struct acpi_table_madt
 * or than its length field says, a subtable with length < 2, a processor
 * entry shorter than its structure, a subtable running past the end) with
 * the counts up to that point in @c; the walk never reads outside
 * [@buf, @buf + header length).
 *
 * Bit 1 (online capable) is only defined from MADT revision 5 (ACPI 6.3):
 * before that it is reserved and ignored.  Enabled entries are the
 * partition's processors; an online-capable one is a processor the OS may
 * still start, so the caller must treat it as a possible VP it does not
 * know; disabled ones ("not usable") are not counted as processors.
 * Entries with an invalid APIC ID (0xff, 0xffffffff), which Linux ignores,
 * are still counted: a mismatch can only turn the "all" format off.
 */
static inline int hvipi_madt_count(const void *buf, size_t len,
				   struct hvipi_madt_cpus *c)
{
	const struct acpi_table_header *hdr = buf;
	const u8 *p = buf;
	size_t off, end, slen;
	u32 flags;
	bool rev5;

	memset(c, 0, sizeof(*c));
	if (len < sizeof(struct acpi_table_madt))
		return -EINVAL;
	end = get_unaligned(&hdr->length);
	if (end < sizeof(struct acpi_table_madt) || end > len)
		return -EINVAL;		/* the table does not fit the buffer */
	rev5 = hdr->revision >= 5;
	for (off = sizeof(struct acpi_table_madt); off < end; off += slen) {
		if (end - off < sizeof(struct acpi_subtable_header))
			return -EINVAL;		/* a truncated subtable header */
		slen = p[off + 1];
		if (slen < sizeof(struct acpi_subtable_header) ||
		    slen > end - off)
			return -EINVAL;		/* zero length, or past the end */
		switch (p[off]) {
		case ACPI_MADT_TYPE_LOCAL_APIC:
			if (slen < sizeof(struct acpi_madt_local_apic))
				return -EINVAL;
			flags = get_unaligned(&((const struct acpi_madt_local_apic *)
						(p + off))->lapic_flags);
			break;
		case ACPI_MADT_TYPE_LOCAL_X2APIC:
			if (slen < sizeof(struct acpi_madt_local_x2apic))
				return -EINVAL;
			flags = get_unaligned(&((const struct acpi_madt_local_x2apic *)
						(p + off))->lapic_flags);
			break;
		default:
			continue;
		}
		if (flags & ACPI_MADT_ENABLED)
			c->enabled++;
		else if (rev5 && (flags & ACPI_MADT_ONLINE_CAPABLE))
			c->online_capable++;
		else
			c->disabled++;
	}
	return 0;
}
#endif

/*
 * present_partition: NULL when the present CPUs are exactly the partition's
 * processors (the glue may pass cpu_present_mask as the core's present
 * mask), else why not.  @c gets the MADT counts (zero if not read).  Needs
 * process context (acpi_get_table() may map the table).
 */
static inline const char *hvipi_partition_blocker(struct hvipi_madt_cpus *c)
{
#ifdef CONFIG_ACPI
	struct acpi_table_header *hdr = NULL;
	acpi_status status;
	int err;
#endif

	memset(c, 0, sizeof(*c));
	if (num_possible_cpus() != nr_cpu_ids)
		return "possible CPU ids are sparse: some were left out";
	if (num_present_cpus() != num_possible_cpus())
		return "not every possible CPU is present";
#ifdef CONFIG_ACPI
	if (acpi_disabled)
		return "ACPI is disabled: the partition's processor count is unknown";
	status = acpi_get_table(ACPI_SIG_MADT, 0, &hdr);
	if (ACPI_FAILURE(status) || !hdr)
		return "no ACPI MADT: the partition's processor count is unknown";
	err = hvipi_madt_count(hdr, hdr->length, c);
	acpi_put_table(hdr);
	c->read = true;
	if (err)
		return "the ACPI MADT is malformed";
	if (c->online_capable)
		return "the ACPI MADT lists online-capable processors";
	if (c->enabled != num_present_cpus())
		return "the ACPI MADT lists other than the present CPUs";
	return NULL;
#else
	return "no ACPI: the partition's processor count is unknown";
#endif
}

#endif /* HVIPI_ASSUME_H */
