/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BISECT_STATUS_H
#define PPBENCH_BISECT_STATUS_H

#include <stdio.h>
#include "compare/compare_stats.h"
#include "sys/log.h"

/*
 * Exit statuses as `git bisect run` reads them: a kernel that did not build
 * or boot is skipped, never bad, and a mistake in the command line stops
 * the bisection instead of marking every commit.
 */
enum {
	BISECT_GOOD = 0,
	BISECT_BAD = 1,
	BISECT_SKIP = EXIT_BISECT_SKIP,
	BISECT_STOP = EXIT_BISECT_STOP,
};

/* What compare found, before it is an exit status. */
enum cmp_outcome {
	CMP_PASS,	     /* every gate held */
	CMP_GATED,	     /* a gate fired: --fail-above or a --limit */
	CMP_NO_FIGURE,	     /* a gated scenario has no figure in the kernel under test's file */
	CMP_NO_BASELINE_FIG, /* ... or none in the baseline */
	CMP_BAD_NEW,	     /* the kernel under test's file: missing, invalid, another host */
	CMP_BAD_USAGE,	     /* the command line, the baseline, the noise profile */
	CMP_FAILED,	     /* a runtime error: out of memory, an output not written */
};

/* compare --bisect's status for an outcome. */
int bisect_compare_status(enum cmp_outcome o);

/*
 * A guest's end (RC: vm_run()'s) as git bisect run reads it: this machine's
 * failure (HOST) stops, since it would fail any kernel alike; the kernel's skips.
 */
int bisect_guest_status(int rc, bool host);

/* Where a step of ppbench-bisect ended. */
enum bisect_stage {
	BISECT_AT_CONFIG, /* merging the config fragment */
	BISECT_AT_BUILD,  /* make */
	BISECT_AT_BOOT,	  /* booting the kernel under vm and running bench in it */
};

/*
 * ppbench-bisect's status for a step that ended at STAGE with STATUS (below
 * 0: it could not start), HAVE_RESULT a result file, HOST the failure this
 * machine's: a failed config or build skips, unless it would fail every
 * step alike (HOST, 126, 127): that stops.
 */
int bisect_step_status(enum bisect_stage stage, int status, bool have_result, bool host);

/* "good", "bad", "skip" or "stop" for a status of the above. */
const char *bisect_status_name(int status);

/*
 * Whether every scenario the new side names has the METRIC figure on both
 * sides: CMP_PASS, or the gap (a baseline's first) with its reason in WHY.
 */
enum cmp_outcome bisect_figures(const struct comparison *c, enum fig metric, char *why, size_t len);

/* What SET's gates decided, for a bisection's line: the first that fired, else each figure. */
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
