/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PPBENCH_PROF_DIFF_H
#define PPBENCH_PROF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include "model/result.h"

/*
 * compare of files with instruction profiles: per scenario, each
 * function's instructions per element before and after, and the functions
 * that carry the scenario's change, largest first. A profile is exact and
 * the same from boot to boot, so there is no test: a function that moved
 * by PDIFF_MIN instructions per element moved.
 */
#define PDIFF_MIN 0.1	  /* instructions per element: below it, no function is named */
#define PDIFF_SHARE 1.0	  /* % of the scenario's change a named function carries at least */
#define PDIFF_MAX_LIST 20 /* at most this many are named */

struct pdiff_fn {
	const char *name, *module, *group;
	double old, new; /* instructions per element, each side's mean over its files */
};

struct pdiff {
	const char *scenario;
	size_t nold, nnew;	     /* files with its profile on each side */
	double old_total, new_total; /* the profiles' figures */
	struct pdiff_fn *fn;	     /* every function of either side, largest |change| first */
	size_t nfn;
	size_t nlisted;	  /* the first nlisted carry the change */
	double explained; /* their change, summed */
};

/*
 * The profile diffs of the scenarios profiled on both sides (OLD: NOLD
 * files, NEW: NNEW), in the order of the old files' scenarios. 0 or -ENOMEM.
 */
int pdiff_build(const struct result *old, size_t nold, const struct result *new, size_t nnew,
		struct pdiff **out, size_t *n);
void pdiff_free(struct pdiff *d, size_t n);
/* F's change, new - old. */
double pdiff_change(const struct pdiff_fn *f);

#endif
