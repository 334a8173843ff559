/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test suites report "PASSED FAILED" to the file named by $HVIPI_COUNTS. */
#ifndef COUNTS_H
#define COUNTS_H

#include <stdint.h>

/* Write $(HVIPI_COUNTS) (env) with "PASSED FAILED"; exit 2 if it cannot. */
void ck_write_counts(uint64_t passed, uint64_t failed);

#endif /* COUNTS_H */
