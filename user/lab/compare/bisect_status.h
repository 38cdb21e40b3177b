/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_BISECT_STATUS_H
#define PPBENCH_BISECT_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compare/compare_stats.h"
#include "sys/log.h"

/*
 * Exit statuses as `git bisect run` reads them: 0 the commit is good, 1-127
 * but 125 it is bad, 125 it cannot be tested (skip), 128 and above stop the
 * bisection. compare --bisect, vm --bisect and ppbench-bisect map their
 * outcomes onto these, so that a kernel that did not build or boot is
 * skipped, never called bad, and a mistake in the bisection's own command
 * line stops it at its first step instead of marking every commit.
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
	CMP_BAD_NEW,	     /* the kernel under test's file: missing, unreadable, invalid,
				another clock or host */
	CMP_BAD_USAGE,	     /* the command line, the baseline, the noise profile */
	CMP_FAILED,	     /* a runtime error: out of memory, an output not written */
};

/* compare --bisect's status for an outcome. */
int bisect_compare_status(enum cmp_outcome o);

/*
 * A guest's end as git bisect run reads it: RC its command's exit status
 * (vm_run()'s: below 0 no guest ran, 128 and above a signal's), HOST whether
 * its failure was this machine's. 0 and a signal's status stay themselves;
 * this machine's failure stops, since it would fail any kernel alike; any
 * other failure is the kernel's (it did not boot, or the command failed in
 * it): a skip.
 */
int bisect_guest_status(int rc, bool host);

/* Where a step of ppbench-bisect ended. */
enum bisect_stage {
	BISECT_AT_CONFIG, /* merging the config fragment */
	BISECT_AT_BUILD,  /* make */
	BISECT_AT_BOOT,	  /* booting the kernel under vm and running bench in it */
};

/*
 * ppbench-bisect's status for a step that ended at STAGE with STATUS: the
 * config's or the build's exit (a signal's death as 128 + the signal; below
 * 0: it could not start), or the boot's guest (bisect_guest_status());
 * HAVE_RESULT: the boot left a result file; HOST: the failure was this
 * machine's (the tool's output names one: a command not found, a full disk;
 * the guest side said so). A config or build that fails is a skip, the
 * commit cannot be measured, unless the machine failed or the tool could
 * not run at all (126, 127): that would fail every step alike, and stops. A
 * boot without its result file is a skip.
 */
int bisect_step_status(enum bisect_stage stage, int status, bool have_result, bool host);

/* "good", "bad", "skip" or "stop" for a status of the above. */
const char *bisect_status_name(int status);

/*
 * Whether every scenario the new side names has the figure of METRIC on
 * both sides (the new side's scenarios are the gated ones: a bisection
 * benches the scenarios it gates). CMP_NO_BASELINE_FIG takes precedence
 * over CMP_NO_FIGURE: a baseline without the figure makes every step
 * undecidable. Otherwise CMP_PASS. WHY gets the first gap, e.g. "slow: not
 * in new.json".
 */
enum cmp_outcome bisect_figures(const struct comparison *c, enum fig metric, char *why, size_t len);

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
