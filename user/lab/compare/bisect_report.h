/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BISECT_REPORT_H
#define PPBENCH_BISECT_REPORT_H

#include <stdio.h>
#include "compare/bisect_status.h"
#include "compare/compare_stats.h"

/*
 * What the gates of SET decided, in a few words for a bisection's line: the
 * first gated row or limit exceeded ("slow instr/elem +412.3%, limit
 * 0.5%"), else each gated figure's change or value.
 */
void bisect_gates_why(const struct cmp_set *set, char *buf, size_t len);

/* compare --bisect's verdict on stderr: "ppbench compare: bisect: bad (1): WHY". */
void bisect_print_verdict(int status, const char *why);

/* One step of ppbench-bisect, on stdout. */
struct bisect_line {
	const char *commit; /* "3a1b2c4 subject", or "" outside git */
	int status;	    /* BISECT_* */
	const char *why;    /* what decided it */
	double build_s;	    /* < 0: the step did not build */
	double boot_s;	    /* < 0: the step did not boot */
	const char *log;    /* the log that shows more, or NULL */
};
void bisect_print_step(FILE *f, const struct bisect_line *s);

#endif
