/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * kernel_ref shim: the bit operations and find_bit functions the 6.1 files
 * use, as cheap as the kernel's: a word at a time, bsf/bsr for the bit in
 * a word, popcnt for a weight (build with -mpopcnt, as the kernel patches
 * in popcnt).  A bitmap of nbits bits ignores the bits at and beyond nbits.
 */
#ifndef KREF_SHIM_LINUX_BITOPS_H
#define KREF_SHIM_LINUX_BITOPS_H

#include "kref_kernel.h"

/* Non-atomic set (the kernel's arch___set_bit); @nr >= 0. */
static __always_inline void __set_bit(long nr, volatile unsigned long *addr)
{
	unsigned long *p = (unsigned long *)addr + BIT_WORD(nr);

	*p |= BIT_MASK(nr);
}

static __always_inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (((const unsigned long *)addr)[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1UL;
}

/* The last word's bits below nbits. */
#define KREF_LAST_WORD_MASK(nbits)	(~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

/* The first set bit at or after @offset, or @size if none. */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	unsigned long idx, word, bit;

	if (unlikely(offset >= size))
		return size;
	idx = offset / BITS_PER_LONG;
	word = addr[idx] & (~0UL << (offset % BITS_PER_LONG));
	while (!word) {
		if (++idx * BITS_PER_LONG >= size)
			return size;
		word = addr[idx];
	}
	bit = idx * BITS_PER_LONG + (unsigned long)__builtin_ctzl(word);
	return bit < size ? bit : size;
}

/* The last set bit below @size, or @size if none. */
static inline unsigned long find_last_bit(const unsigned long *addr,
					  unsigned long size)
{
	unsigned long idx, word;

	if (unlikely(!size))
		return size;
	idx = (size - 1) / BITS_PER_LONG;
	word = addr[idx] & KREF_LAST_WORD_MASK(size);
	for (;;) {
		if (word)
			return idx * BITS_PER_LONG + BITS_PER_LONG - 1 -
			       (unsigned long)__builtin_clzl(word);
		if (!idx--)
			return size;
		word = addr[idx];
	}
}

static inline unsigned int bitmap_weight(const unsigned long *src,
					 unsigned int nbits)
{
	unsigned int k, lim = nbits / BITS_PER_LONG, w = 0;

	for (k = 0; k < lim; k++)
		w += (unsigned int)__builtin_popcountl(src[k]);
	if (nbits % BITS_PER_LONG)
		w += (unsigned int)__builtin_popcountl(src[k] & KREF_LAST_WORD_MASK(nbits));
	return w;
}

static inline bool bitmap_equal(const unsigned long *a, const unsigned long *b,
				unsigned int nbits)
{
	unsigned int k, lim = nbits / BITS_PER_LONG;

	for (k = 0; k < lim; k++)
		if (a[k] != b[k])
			return false;
	if (nbits % BITS_PER_LONG)
		return ((a[k] ^ b[k]) & KREF_LAST_WORD_MASK(nbits)) == 0;
	return true;
}

/* As the kernel's: @bit runs over the set bits below @size. */
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = 0;							\
	     ((bit) = find_next_bit((addr), (size), (bit))) < (size) &&	\
	     (KREF_MARK_ITER(bit), 1);					\
	     (bit)++)

#endif /* KREF_SHIM_LINUX_BITOPS_H */
