/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi: the few types the core needs, from wherever the build provides them.
 * In a kernel there is no <stdint.h>; elsewhere there is nothing else.
 */
#ifndef HVIPI_TYPES_H
#define HVIPI_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#endif /* HVIPI_TYPES_H */
