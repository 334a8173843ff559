/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* bench/kshim: no trace event is created (see linux/tracepoint.h). */
