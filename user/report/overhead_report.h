/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_OVERHEAD_REPORT_H
#define PPBENCH_OVERHEAD_REPORT_H

#include <stdint.h>
#include "model/stats.h"

/* What bench --overhead measured: ns per frame, and the pairs' differences in %. */
struct overhead_figs {
	uint32_t frames, runs, cpu;
	struct summary timed;	    /* bare program, the kernel's test_run clock */
	struct summary bare;	    /* bare program, wall time of the syscall */
	struct summary counted;	    /* per-packet counting, wall time */
	struct summary timed_pct;   /* timed against bare, per pair */
	struct summary counted_pct; /* counted against bare, per pair */
};

void overhead_report(const struct overhead_figs *f);

#endif
